//! Distributed flash decoding (one query token per sequence, the KV cache split over ranks
//! by sequence position): every rank computes partial attention over its part of the cache
//! with its log-sum-exp and puts each partial to the block's owner (block `blk` of the
//! `batch * kv_heads` belongs to rank `blk % world`); the owner combines them with a rescaled
//! sum and puts the output rows to every rank, so each ends with the whole attention output.
//! A block's partials thus travel to one rank, not to all: at 8 ranks and 8 blocks 56 partial
//! puts and 56 output puts, against 448 partial puts when every rank combined every block.
//! Grouped-query heads: the `heads / kv_heads` query heads that share a KV head are one tile
//! of rows.
//!
//! A rank's positions `segment(me, seq, world)` are further split over `splits` programs
//! (flash-decoding's split-K), so a batch of one still fills the machine.
//!
//! Args: `q[batch, heads, head_dim]`, `k[batch, kv_heads, seg / BLOCK_N, head_dim, BLOCK_N]`
//! (this rank's positions, `seg` = `cdiv(seq, world)` padded to a multiple of `BLOCK_N`; K
//! stored transposed a step at a time, so each step's `K^T` tile is one contiguous block),
//! `v[batch, kv_heads, seg, head_dim]`, `o[batch, heads, head_dim]`,
//! `part[world * splits, batch, heads, head_dim]` (f32), `lse[world * splits, batch, heads]`
//! (f32), `sig[(world * splits + 1) * batch * kv_heads]` (a word per partial, then one per
//! output block), `batch, heads, kv_heads, seq, head_dim, splits, scale` (f32, the softmax
//! scale) and `epoch`. Constexprs: `T`, `BLOCK_H` (≥ the group), `BLOCK_D` (≥ head_dim),
//! `BLOCK_N` (positions per step).
//!
//! The non-fused baseline is the sequence a framework runs: the same partials as a local
//! flash-decoding launch (`flash_decode_v`), an AllGather of every rank's partials
//! (`decode_gather`), then every block combined on every rank (`decode_combine`); three
//! launches on the same arguments. Its `part` and `lse` hold two copies, used by the epoch's
//! parity: a rank that runs ahead gathers into the other copy while a slower peer still
//! combines from this one (its gather of the epoch after waited for that peer's, so a copy is
//! never refilled early), as a collective library's buffers would protect a framework.

use crate::gemm::Mat;
use crate::tiles::segment;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// A score that no position reaches: the start of the running maximum and masked scores
/// (finite, so `exp(x - max)` never sees `-inf - -inf`).
const NEG: f64 = -1.0e30;

/// Whether a launch of kernel `name` needs no closing step between processes
/// (`LaunchOptions::self_closing`; the conditions are in `weft_runtime`'s mpi `sync`).
/// `flash_decode`: (a) a rank's memory is written by peers only through `put_signal`s it awaits
/// before its kernel ends (the partials of the blocks it owns, the output rows of every other
/// block) and read by none; (b) its kernel ends only after every rank started the launch: it
/// awaits every block's output or every rank's partial of its own blocks, and an owner sends a
/// block's output only after every rank's partials of it came. `decode_gather`, the baseline's
/// AllGather, likewise: every rank's rows land by `put_signal` and each rank awaits every
/// peer's. The baseline's other two launches touch no peer and keep the step.
pub(crate) fn closes_itself(name: &str) -> bool {
    matches!(name, "flash_decode" | "decode_gather")
}

/// Builds `flash_decode`.
pub fn flash_decode(c: &Constexprs) -> Result<Kernel, DslError> {
    decode_kernel("flash_decode", c, |d| {
        let Decode { me, world, blocks, splits, sig, epoch, .. } = *d;
        d.partials();
        // Sent once all of this program's partials are computed, not after each: a put waits
        // until its target has started the launch, and a program that stalled there computed
        // nothing meanwhile (an owner combines only after its own partials anyway).
        // The partials' stores land before their signals or puts.
        fence();
        d.items(|sp, blk| {
            let src = me * splits + sp;
            let (slot, owner) = (src * blocks + blk, blk % world);
            if_(owner.eq_(me), || signal_op(sig + slot, epoch, Signal::Set, me));
            if_(owner.ne_(me), || {
                let (part, lse) = d.slot_of(src, blk);
                put(part, part, d.group * d.head_dim, owner, ShmemScope::Block);
                // The lse words carry the signal, so the partial must land first.
                fence();
                put_signal(lse, lse, d.group, sig + slot, epoch, owner, PutSignal::default());
            });
        });
        // Combine every rank's and split's partial of this rank's blocks, then send the
        // output rows to every rank.
        let out_sig = sig + world * splits * blocks;
        for_range(me + d.pid * world, blocks, d.progs * world, |blk| {
            let rows = d.combine(blk, |src| Some(wait_until(sig + src * blocks + blk, Cmp::Ge, epoch)));
            fence();
            for_range(1i64, world, 1i64, |r| {
                put_signal(rows.ptr, rows.ptr, d.group * d.head_dim, out_sig + blk, epoch, (me + r) % world, PutSignal::default());
            });
        });
        // Peers put into our `o`: it is whole once every other rank's blocks have arrived.
        for_range(d.pid, blocks, d.progs, |blk| {
            if_((blk % world).ne_(me), || {
                let _ = wait_until(out_sig + blk, Cmp::Ge, epoch);
            });
        });
    })
}

/// Builds `flash_decode_v`, the first launch of the non-fused baseline: this rank's partials
/// (and log-sum-exps) of every block into its own rows of `part` and `lse`, no communication.
pub fn flash_decode_v(c: &Constexprs) -> Result<Kernel, DslError> {
    decode_kernel("flash_decode_v", c, |d| d.by_parity().partials())
}

/// Builds `decode_gather`, the baseline's second launch: an AllGather of every rank's rows of
/// `part` and `lse` (put, fence, then the lse rows put with signal word `sig[me]`), ending once
/// every peer's rows are here.
pub fn decode_gather(c: &Constexprs) -> Result<Kernel, DslError> {
    decode_kernel("decode_gather", c, |d| {
        let d = d.by_parity();
        let Decode { me, world, splits, sig, epoch, pid, progs, .. } = d;
        let (part_rows, lse_rows) = (splits * d.batch * d.heads * d.head_dim, splits * d.batch * d.heads);
        let (part, lse) = (d.part + me * part_rows, d.lse + me * lse_rows);
        for_range(1i64 + pid, world, progs, |r| {
            let peer = (me + r) % world;
            put(part, part, part_rows, peer, ShmemScope::Block);
            fence();
            put_signal(lse, lse, lse_rows, sig + me, epoch, peer, PutSignal::default());
        });
        for_range(1i64 + pid, world, progs, |r| {
            let _ = wait_until(sig + (me + r) % world, Cmp::Ge, epoch);
        });
    })
}

/// Builds `decode_combine`, the baseline's third launch: every block combined from all the
/// gathered partials on every rank (the output is whole everywhere without a second exchange).
pub fn decode_combine(c: &Constexprs) -> Result<Kernel, DslError> {
    decode_kernel("decode_combine", c, |d| {
        let d = d.by_parity();
        for_range(d.pid, d.blocks, d.progs, |blk| {
            let _ = d.combine(blk, |_| None);
        });
    })
}

/// What every decoding kernel reads: its arguments (see the module docs), constexprs and the
/// index tiles they size.
#[derive(Clone, Copy)]
struct Decode {
    t: Scalar,
    tiles: (usize, usize, usize),
    q: Val,
    k: Val,
    v: Val,
    o: Val,
    part: Val,
    lse: Val,
    sig: Val,
    batch: Val,
    heads: Val,
    kv_heads: Val,
    seq: Val,
    head_dim: Val,
    splits: Val,
    scale: Val,
    epoch: Val,
    me: Val,
    world: Val,
    pid: Val,
    progs: Val,
    group: Val,
    blocks: Val,
    /// Tiles of query heads, head dimensions and positions: `arange`s of `BLOCK_H/D/N`.
    hi: Val,
    di: Val,
    ni: Val,
}

/// A decoding kernel named `name`: reads the shared arguments, then runs `body`.
fn decode_kernel(name: &str, c: &Constexprs, body: impl FnOnce(&Decode)) -> Result<Kernel, DslError> {
    let t = c.dtype("T", &[Scalar::F32, Scalar::F16, Scalar::BF16])?;
    let (bh, bd, bn) = (c.pow2("BLOCK_H", 1, 256)?, c.pow2("BLOCK_D", 1, 512)?, c.pow2("BLOCK_N", 1, 1024)?);
    kernel(name, c, |a| {
        let (q, k, v, o) = (a.ptr("q", t), a.ptr("k", t), a.ptr("v", t), a.ptr("o", t));
        let (part, lse, sig) = (a.ptr("part", Scalar::F32), a.ptr("lse", Scalar::F32), a.ptr("sig", Scalar::I64));
        let (batch, heads, kv_heads, seq) = (a.i64("batch"), a.i64("heads"), a.i64("kv_heads"), a.i64("seq"));
        let (head_dim, splits, scale, epoch) = (a.i64("head_dim"), a.i64("splits"), a.f32("scale"), a.i64("epoch"));
        let idx = |n: usize| arange(0, n as i32).to(Scalar::I64);
        let d = Decode {
            t,
            tiles: (bh as usize, bd as usize, bn as usize),
            q,
            k,
            v,
            o,
            part,
            lse,
            sig,
            batch,
            heads,
            kv_heads,
            seq,
            head_dim,
            splits,
            scale,
            epoch,
            me: my_pe().to(Scalar::I64),
            world: n_pes().to(Scalar::I64),
            pid: program_id(0).to(Scalar::I64),
            progs: num_programs(0).to(Scalar::I64),
            group: heads / kv_heads,
            blocks: batch * kv_heads,
            hi: idx(bh as usize),
            di: idx(bd as usize),
            ni: idx(bn as usize),
        };
        body(&d);
        Ok(())
    })
}

impl Decode {
    /// The baseline's copy of `part` and `lse` for this epoch (see the module docs).
    fn by_parity(&self) -> Decode {
        let rows = self.world * self.splits * self.batch * self.heads;
        let parity = self.epoch & 1i64;
        Decode { part: self.part + parity * rows * self.head_dim, lse: self.lse + parity * rows, ..*self }
    }

    /// Rows of block `blk`'s query heads (or of its partials) in a `[.., heads, head_dim]` array.
    fn heads_of(&self, base: Val, blk: Val) -> Mat {
        let (b, kvh) = (blk / self.kv_heads, blk % self.kv_heads);
        Mat { ptr: base + (b * self.heads + kvh * self.group) * self.head_dim, rows: self.group, cols: self.head_dim, ld: self.head_dim }
    }

    /// Block `blk`'s partial rows and log-sum-exp words of partial `src` (`rank * splits + split`).
    fn slot_of(&self, src: Val, blk: Val) -> (Val, Val) {
        let (b, kvh) = (blk / self.kv_heads, blk % self.kv_heads);
        let part = self.heads_of(self.part + src * self.batch * self.heads * self.head_dim, blk).ptr;
        (part, self.lse + (src * self.batch + b) * self.heads + kvh * self.group)
    }

    /// `f(split, blk)` for each of this program's work items.
    fn items(&self, f: impl Fn(Val, Val)) {
        for_range(self.pid, self.splits * self.blocks, self.progs, |item| f(item / self.blocks, item % self.blocks));
    }

    /// Partial attention of every work item `(split, block)` over this rank's positions into
    /// its rows of `part` and `lse`.
    fn partials(&self) {
        let (bh, bd, bn) = self.tiles;
        let (hi, di, ni, head_dim) = (self.hi, self.di, self.ni, self.head_dim);
        let (s0, s1) = segment(self.me, self.seq, self.world);
        // Each rank's positions, padded to whole steps (see the module docs).
        let seg_max = cdiv(cdiv(self.seq, self.world), bn as i64) * bn as i64;
        let hmask = hi.lt(self.group);
        self.items(|sp, blk| {
            // Splits start on a step, so each step's K^T tile is one block of `k`.
            let (q0, q1) = segment(sp, cdiv(s1 - s0, bn as i64), self.splits);
            let (p0, p1) = (q0 * bn as i64, minimum(q1 * bn as i64, s1 - s0));
            let (qp, qm) = self.heads_of(self.q, blk).tile(hi, di);
            let qt = load_masked(qp, qm, 0);
            let kv = blk * seg_max * head_dim;
            let init = [full(&[bh], NEG, Scalar::F32), zeros(&[bh], Scalar::F32), zeros(&[bh, bd], Scalar::F32)];
            let out = for_range_carry(p0, p1, bn as i64, &init, |n0, c| {
                let live = (n0 + ni).lt(p1);
                // K^T, stored transposed a step at a time: this step's `[head_dim, BLOCK_N]`
                // tile is one contiguous block (the CPU back end turns a transposed gather into
                // code that takes LLVM's register coalescer 45 s at 4x32x32; rows a whole
                // segment apart missed the cache on every row at 8 ranks).
                let kptr = self.k + kv + n0 * head_dim + expand_dims(di, 1) * bn as i64 + expand_dims(ni, 0);
                let kt = load_masked(kptr, expand_dims(di.lt(head_dim), 1) & expand_dims(live, 0), 0);
                let s = dot(qt, kt, zeros(&[bh, bn], Scalar::F32)) * self.scale;
                let s = select(expand_dims(live, 0), s, NEG);
                let m = maximum(c[0], max(s, 1));
                let alpha = exp(c[0] - m);
                let p = exp(s - expand_dims(m, 1));
                let (vp, vm) = Mat { ptr: self.v + kv + n0 * head_dim, rows: p1 - n0, cols: head_dim, ld: head_dim }.tile(ni, di);
                let acc = dot(p.to(self.t), load_masked(vp, vm, 0), c[2] * expand_dims(alpha, 1));
                vec![m, c[1] * alpha + sum(p, 1), acc]
            });
            let (m, l, acc) = (out[0], out[1], out[2]);
            // An empty range leaves l = 0: a zero partial with weight exp(NEG - max) = 0.
            let src = self.me * self.splits + sp;
            let (part, lse) = self.slot_of(src, blk);
            let (pp, pm) = Mat { ptr: part, rows: self.group, cols: head_dim, ld: head_dim }.tile(hi, di);
            store_masked(pp, acc / expand_dims(maximum(l, 1.0e-30f64), 1), pm);
            store_masked(lse + hi, select(l.gt(0.0f64), m + log(maximum(l, 1.0e-30f64)), NEG), hmask);
        });
    }

    /// Block `blk`'s output rows in `o`, stored: every rank's and split's partial combined with
    /// a running rescaled sum. `arrived(src)` waits for partial `src` where one must (its
    /// token then orders the loads after the wait).
    fn combine(&self, blk: Val, arrived: impl Fn(Val) -> Option<Val>) -> Mat {
        let (bh, bd, _) = self.tiles;
        let (hi, di) = (self.hi, self.di);
        let hmask = hi.lt(self.group);
        let init = [full(&[bh], NEG, Scalar::F32), zeros(&[bh], Scalar::F32), zeros(&[bh, bd], Scalar::F32)];
        let out = for_range_carry(0i64, self.world * self.splits, 1i64, &init, |src, c| {
            let (part, lse) = self.slot_of(src, blk);
            let (part, lse) = match arrived(src) {
                Some(tok) => (consume_token(part, tok), consume_token(lse, tok)),
                None => (part, lse),
            };
            let l = load_masked(lse + hi, hmask, NEG);
            let (pp, pm) = Mat { ptr: part, rows: self.group, cols: self.head_dim, ld: self.head_dim }.tile(hi, di);
            let m = maximum(c[0], l);
            let (keep, w) = (exp(c[0] - m), exp(l - m));
            vec![m, c[1] * keep + w, c[2] * expand_dims(keep, 1) + load_masked(pp, pm, 0) * expand_dims(w, 1)]
        });
        let rows = self.heads_of(self.o, blk);
        let (op, om) = rows.tile(hi, di);
        store_masked(op, (out[2] / expand_dims(maximum(out[1], 1.0e-30f64), 1)).to(self.t), om);
        rows
    }
}
