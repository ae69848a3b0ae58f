//! Packet operations as LL words: a packet operand is a run of 64-bit words, each one 32-bit
//! data word with the launch's flag in its high half (`shmem.ll_pack`); readers poll each
//! word until it carries the flag (`shmem.ll_recv`). Moving packets needs only the data
//! words; reductions split each word into its elements (two 16-bit ones, or one 32-bit one),
//! add them in the accumulation type, and pack the sums again.

use super::lower::Cx;
use super::{Chunks, PlanOp};
use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::Scalar;
use crate::msccl::lower::for_words;

impl Cx<'_> {
    /// 32-bit words in `elems` elements (a whole number of 16-byte units).
    fn words(&self, elems: Val) -> Val {
        elems * self.t.bytes() as i64 / 4i64
    }

    /// `op`'s part of each operand, in words: (first, length).
    fn word_part(&self, op: &PlanOp) -> (Val, Val) {
        let (lo, n) = self.part(op);
        (self.words(lo), self.words(n))
    }

    /// The word addresses of `op`'s sources and destinations past its part's start: data
    /// operands as i32 words, packet ones as i64 LL words.
    fn word_operands(&self, op: &PlanOp, bufs: [Val; 3]) -> (Vec<Val>, Vec<Val>, Val) {
        let (lo, n) = self.word_part(op);
        let at = |c: &Chunks| {
            let p = self.access(bufs, c);
            (if c.packet { p } else { ptr_cast(p, Scalar::I32) }) + lo
        };
        (op.srcs.iter().map(at).collect(), op.dsts.iter().map(at).collect(), n)
    }

    /// `ppkt`, `cpkt`: data words to packets, pairwise.
    pub(super) fn write_packets(&self, op: &PlanOp, bufs: [Val; 3]) {
        let (srcs, dsts, n) = self.word_operands(op, bufs);
        for (&s, &d) in srcs.iter().zip(&dsts) {
            for_words(n, self.block, |o, m| store_masked(d + o, ll_pack(load_masked(s + o, m, 0), self.flag), m));
        }
    }

    /// `rppkt` (packets forwarded with this launch's flag) and `upkt` (packets to data words),
    /// pairwise.
    pub(super) fn read_packets(&self, op: &PlanOp, bufs: [Val; 3]) {
        let (srcs, dsts, n) = self.word_operands(op, bufs);
        for ((&s, &d), c) in srcs.iter().zip(&dsts).zip(&op.dsts) {
            for_words(n, self.block, |o, m| {
                let w = ll_recv(s + o, self.flag, Some(m));
                store_masked(d + o, if c.packet { ll_pack(w, self.flag) } else { w }, m);
            });
        }
    }

    /// `repkt`, `recpkt`, `respkt`, `recspkt`: the data source plus every packet source, to
    /// the data destination and, as packets, to every other destination.
    pub(super) fn reduce_packets(&self, op: &PlanOp, bufs: [Val; 3]) {
        let (srcs, dsts, n) = self.word_operands(op, bufs);
        let lanes = 4 / self.t.bytes() as i64;
        // The data operands as elements: lane `k` of word `w` is element `lanes * w + k`.
        let (src, dst) = (ptr_cast(srcs[0], self.t), ptr_cast(dsts[0], self.t));
        let acc = self.acc();
        for_words(n, self.block, |o, m| {
            let elems: Vec<Val> = (0..lanes).map(|k| o * lanes + k).collect();
            let mut sum: Vec<Val> = elems.iter().map(|&e| load_masked(src + e, m, 0).to(acc)).collect();
            for &p in &srcs[1..] {
                let got = self.unpack(ll_recv(p + o, self.flag, Some(m)));
                sum = sum.into_iter().zip(got).map(|(s, v)| s + v.to(acc)).collect();
            }
            let sum: Vec<Val> = sum.into_iter().map(|s| s.to(self.t)).collect();
            for (&e, &v) in elems.iter().zip(&sum) {
                store_masked(dst + e, v, m);
            }
            if dsts.len() > 1 {
                let packet = ll_pack(self.pack(&sum), self.flag);
                for &d in &dsts[1..] {
                    store_masked(d + o, packet, m);
                }
            }
        });
    }

    /// The elements of a tile of 32-bit words, low half first.
    fn unpack(&self, w: Val) -> Vec<Val> {
        match self.t {
            Scalar::I32 => vec![w],
            t if t.bytes() == 4 => vec![bitcast(w, t)],
            t => [w, shr_u(w, 16i64)].into_iter().map(|h| bitcast(h.to(Scalar::I16), t)).collect(),
        }
    }

    /// Tiles of elements packed into 32-bit words, the first in the low half.
    fn pack(&self, v: &[Val]) -> Val {
        match self.t {
            Scalar::I32 => v[0],
            t if t.bytes() == 4 => bitcast(v[0], Scalar::I32),
            _ => {
                let bits = |x: Val| bitcast(x, Scalar::I16).to(Scalar::I32) & 0xffffi64;
                bits(v[0]) | (bits(v[1]) << 16i64)
            }
        }
    }
}
