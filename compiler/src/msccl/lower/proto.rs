//! The three wire protocols as DSL code: how a message goes into the peer's receive slot and
//! how it is taken out, plus the slot credits that keep a sender from overwriting a slot the
//! receiver has not consumed yet (Pallas' capacity semaphores, NCCL's head/tail counters).
//!
//! Message `k` of a connection (counted across pipeline iterations) lives in slot `k % S`.
//! The sender waits for credit `k + 1 - S` before writing it; the receiver returns credit
//! `k + 1` once it is done with it. Values are offset by a per-launch `base`, so signals are
//! never reset between launches.
//!
//! * Simple: `put` the tiles, the last one as `put_signal` raising the arrival counter.
//! * LL: every 32-bit data word travels with the 32-bit flag `base + k + 1` in one 64-bit
//!   store (`ll_pack`); the receiver polls the words themselves (`ll_recv`), no counter.
//! * LL128: 128-byte lines of 30 data words and one 64-bit flag word; the sender stores the
//!   data, fences, then stores the flags; the receiver polls the flags, fences, reads the data.

use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::Scalar;
use crate::msccl::protocol::Protocol;

/// 32-bit words in an LL128 line.
pub const LL128_LINE_WORDS: usize = 32;
/// 32-bit data words in an LL128 line (the last two words are the flag word).
pub const LL128_DATA_WORDS: usize = 30;

/// Tiles of a message or of consecutive chunks: tile `i` starts at `ptr + i * stride`.
#[derive(Clone, Copy)]
pub struct Span {
    /// First tile.
    pub ptr: Val,
    /// Distance between tiles, in elements of `ptr`.
    pub stride: Val,
}

impl Span {
    /// Tile `i` (an i64 value).
    pub fn at(&self, i: Val) -> Val {
        self.ptr + self.stride * i
    }
}

/// Everything a thread block needs to talk over its two connections.
pub(super) struct Link {
    /// Protocol.
    pub(super) protocol: Protocol,
    /// Element type.
    pub(super) t: Scalar,
    /// Tile width of the elementwise loops.
    pub(super) block: i64,
    /// FIFO slots per connection.
    pub(super) slots: i64,
    /// Tiles per message slot.
    pub(super) max_count: i64,
    /// The receive-slot buffer (`T` for Simple, i64 words otherwise).
    pub(super) slot_buf: Val,
    /// This program's staging area (`T`).
    pub(super) stage: Val,
    /// Signal words: arrivals at 0, credits at `credit_base`.
    pub(super) sig: Val,
    /// Offset of the credit signals.
    pub(super) credit_base: i64,
    /// Elements per tile.
    pub(super) te: Val,
    /// Slot units between a message's tiles.
    pub(super) seg: Val,
    /// Per-launch signal base.
    pub(super) base: Val,
    /// Send peer.
    pub(super) send_peer: Val,
    /// Our outgoing connection's index at the send peer (its slots and arrival signal).
    pub(super) peer_in: Val,
    /// Our outgoing connection's index here (its credit signal).
    pub(super) my_out: Val,
    /// Receive peer.
    pub(super) recv_peer: Val,
    /// Our incoming connection's index here (its slots and arrival signal).
    pub(super) my_in: Val,
    /// Our incoming connection's index at the receive peer (its credit signal).
    pub(super) peer_out: Val,
}

impl Link {
    /// Slot `k % S` of incoming connection `conn`, as a pointer into the slot buffer.
    fn slot(&self, conn: Val, k: Val) -> Val {
        self.slot_buf + (conn * self.slots + k % self.slots) * (self.seg * self.max_count)
    }

    /// The value message `k`'s signals carry.
    fn seq(&self, k: Val) -> Val {
        self.base + k + 1
    }

    /// 32-bit words in a tile of `len` elements (`len` is even for 16-bit types).
    fn words(&self, len: Val) -> Val {
        len * self.t.bytes() as i64 / 4
    }

    /// Sends `count` tiles of `len` elements from `src` as message `k`.
    pub fn send(&self, src: Span, count: Val, len: Val, k: Val) {
        if_(k.ge(self.slots), || {
            let _ = wait_until(self.sig + self.credit_base + self.my_out, Cmp::Ge, self.seq(k) - self.slots);
        });
        let dst = self.slot(self.peer_in, k);
        let seg = |i: Val| dst + self.seg * i;
        match self.protocol {
            Protocol::Simple => {
                for_count(count - 1, |i| put(seg(i), src.at(i), len, self.send_peer, ShmemScope::Block));
                let (last, arrived) = (count - 1, self.sig + self.peer_in);
                put_signal(seg(last), src.at(last), len, arrived, self.seq(k), self.send_peer, PutSignal::default());
            }
            Protocol::LL => {
                let flag = self.seq(k).to(Scalar::I32);
                for_count(count, |i| {
                    let (words, to) = (ptr_cast(src.at(i), Scalar::I32), remote_ptr(seg(i), self.send_peer));
                    for_words(self.words(len), self.block, |o, m| store_masked(to + o, ll_pack(load_masked(words + o, m, 0), flag), m));
                });
            }
            Protocol::LL128 => {
                let flag = self.seq(k).to(Scalar::I32);
                for_count(count, |i| {
                    let (words, to) = (ptr_cast(src.at(i), Scalar::I32), remote_ptr(ptr_cast(seg(i), Scalar::I32), self.send_peer));
                    for_lines(self.words(len), self.block, |d, l, m| store_masked(to + l, load_masked(words + d, m, 0), m));
                });
                // Data before flags: a receiver that sees a line's flag may read the line.
                fence();
                for_count(count, |i| {
                    let to = remote_ptr(seg(i), self.send_peer);
                    for_line_words(self.words(len), self.block, |w, m| store_masked(to + w, ll_pack(zeros(&w.shape(), Scalar::I32), flag), m));
                });
            }
        }
    }

    /// Receives message `k` (`count` tiles of `len` elements); returns where its tiles are.
    pub fn recv(&self, count: Val, len: Val, k: Val) -> Span {
        let src = self.slot(self.my_in, k);
        let seg = |i: Val| src + self.seg * i;
        let stage = Span { ptr: self.stage, stride: self.te };
        match self.protocol {
            Protocol::Simple => {
                let tok = wait_until(self.sig + self.my_in, Cmp::Ge, self.seq(k));
                Span { ptr: consume_token(src, tok), stride: self.seg }
            }
            Protocol::LL => {
                let flag = self.seq(k).to(Scalar::I32);
                if self.t.bytes() != 4 {
                    // The stage is written here as 32-bit words but read (by the previous
                    // message's steps) as 16-bit elements: on a GPU other threads own those,
                    // so they must be done reading before it is overwritten.
                    barrier();
                }
                for_count(count, |i| {
                    let out = ptr_cast(stage.at(i), Scalar::I32);
                    for_words(self.words(len), self.block, |o, m| {
                        store_masked(out + o, ll_recv(seg(i) + o, flag, Some(m)), m);
                    });
                });
                stage
            }
            Protocol::LL128 => {
                let flag = self.seq(k).to(Scalar::I32);
                for_count(count, |i| {
                    for_line_words(self.words(len), self.block, |w, m| {
                        let _ = ll_recv(seg(i) + w, flag, Some(m));
                    });
                });
                // Flags before data: no data load may be satisfied before its line's flag.
                fence();
                for_count(count, |i| {
                    let (lines, out) = (ptr_cast(seg(i), Scalar::I32), ptr_cast(stage.at(i), Scalar::I32));
                    for_lines(self.words(len), self.block, |d, l, m| store_masked(out + d, load_masked(lines + l, m, 0), m));
                });
                stage
            }
        }
    }

    /// Tells the receive peer that message `k` of `total` is consumed: its slot may be reused.
    /// The last `S` credits would never be waited for, so they are not sent (a signal nobody
    /// observes is reported as unfinished work).
    pub fn credit(&self, k: Val, total: Val) {
        if_((k + self.slots).lt(total), || {
            signal_op(self.sig + self.credit_base + self.peer_out, self.seq(k), Signal::Set, self.recv_peer);
        });
    }
}

/// Runs `body(offsets, mask)` over `[0, n)` in `block`-wide tiles.
pub(crate) fn for_words(n: Val, block: i64, mut body: impl FnMut(Val, Val)) {
    for_range(constant(0, Scalar::I64, &[]), n, block, |i| {
        let offs = i + arange(0, block as i32);
        body(offs, offs.lt(n));
    });
}

/// Runs `body(data, line, mask)` over the LL128 lines that carry `n` 32-bit data words, as
/// 2-D tiles of whole lines: `data` indexes the packed words, `line` the same words in the
/// slot (32 words a line, the last two the flag), `mask` the data words that exist.
fn for_lines(n: Val, block: i64, mut body: impl FnMut(Val, Val, Val)) {
    let (width, per) = (LL128_LINE_WORDS as i64, LL128_DATA_WORDS as i64);
    let rows = (block / width).max(1);
    let shape = [rows as usize, width as usize];
    for_range(constant(0, Scalar::I64, &[]), cdiv(n, per), rows, |l0| {
        let r = broadcast_to(expand_dims(l0 + arange(0, rows as i32), 1), &shape);
        let c = broadcast_to(expand_dims(arange(0, width as i32).to(Scalar::I64), 0), &shape);
        let data = r * per + c;
        body(data, r * width + c, c.lt(per) & data.lt(n));
    });
}

/// Runs `body(words, mask)` over the 64-bit words of the LL128 lines that carry `n` data
/// words, with the mask set on each line's flag word only.
fn for_line_words(n: Val, block: i64, mut body: impl FnMut(Val, Val)) {
    let half = LL128_LINE_WORDS as i64 / 2;
    for_words(cdiv(n, LL128_DATA_WORDS as i64) * half, block, |w, m| body(w, m & (w % half).eq_(half - 1)));
}

/// Runs `body(i)` for `i` in `0..count` (i64 values).
pub(super) fn for_count(count: Val, body: impl FnOnce(Val)) {
    for_range(constant(0, Scalar::I64, &[]), count, 1, body);
}
