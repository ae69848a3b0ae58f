//! Low-latency AllToAll for expert-parallel MoE (DeepEP's low-latency mode, Triton-distributed's
//! LL `ep_a2a`): `ep_dispatch` sends each token to the ranks of its top-k experts, `ep_combine`
//! sends the experts' outputs back and sums them with the routing weights in f32. Both send a
//! block of plain 32-bit words, then the block's count as one LL word (a 32-bit data word and
//! the launch's flag in one 64-bit store into the peer) behind one fence: LL128's order, data,
//! fence, flag, with DeepEP's low-latency granularity (the count is the block's flag). So a
//! receiver polls the count words themselves (no signal, no counts round trip), a row costs its
//! own bytes plus 4 instead of twice its bytes, and a block one fence. A dispatch block is an
//! (expert, source) pair's rows and 32-bit headers; a combine block is an (expert, token rank)
//! pair's output rows. Every receiver waits for every count anyway (a dispatch block's rows
//! start after the earlier sources', a combined token sums rows from several blocks), so a flag
//! per row would buy it nothing.
//!
//! Expert `e` lives on rank `e / epr` as its local expert `e % epr` (`epr = experts / world`).
//! A token goes once to each expert it picks (a token's top-k experts are distinct) into a fixed
//! region of the receiver, `[local expert][source rank][slot]`, where `slot` counts the sender's
//! earlier tokens for that expert: no sender needs another rank's counts. A message is a header
//! (`t * topk + k`: the source token and its choice, which the combine sends back to) and the
//! token's words; a region holds its headers, then its rows. Every (expert, source) pair also
//! gets a count word, zero included. Count words alternate by the flag's parity, so a fast
//! rank's next launch never overwrites a word a slower rank still reads (each dispatch waits
//! for every rank's count words). The dispatches' regions do not
//! alternate: a receiver hands each region back with a credit (an LL word to its source) once
//! it has copied it out, and the source's next launch waits for it before refilling it, so the
//! rows live in half the memory and stay in cache between launches.
//!
//! `ep_dispatch` args: `x[tokens, hidden]`, `idx[tokens, topk]` (i32 expert ids), `out[epr,
//! world * tokens, hidden]` (each local expert's tokens, packed by source rank then token),
//! `off[epr, world + 1]` (i32: where each source's tokens start, then the expert's total),
//! `src_tk[epr, world * tokens]` (i32 header of each received row), `ll[2, epr, world, tokens,
//! words + 1]` and `cnt[2, epr, world]` (i64 words; the dispatches use `1 + ceil(words / 2)`
//! of each token's `words + 1`; the FP8 dispatch stages its quantized tokens in the rest),
//! `tokens, words, topk, experts` (i64; `words` = 32-bit words per token) and `flag` (i32,
//! the launch's number: 1, 2, 3, ...; the credits carry the last launch's, zeroed words
//! before the first).
//!
//! `ep_combine` args: `y` (the experts' outputs, laid out as `out`), `off`, `src_tk` (from the
//! dispatch), `w[tokens, topk]` (f32 routing weights), `out[tokens, hidden]`, `recv[2, tokens *
//! topk, hidden]` (the rows back, at their (token, choice) row), `cnt[2, world * epr]` (i64 LL
//! count words, one per (source, local expert) block), `tokens, words, topk, experts, flag`.
//! Both alternate by the flag's parity: a rank's launch `i + 2` sends after its launch `i + 1`
//! waited for every block of `i + 1`, each sent after its sender's launch `i` was done.
//!
//! Constexprs: `T` (f32, f16, bf16), `BLOCK` (words per tile), `BLOCK_K` (≥ topk).

use crate::common::{copy_exact, for_tiles};
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// The constexprs of the MoE kernels: `T` (a float type), `BLOCK` (words per tile) and
/// `BLOCK_K` (≥ topk).
pub(crate) struct MoeConfig {
    pub(crate) t: Scalar,
    pub(crate) block: i64,
    pub(crate) bk: i64,
}

impl MoeConfig {
    pub(crate) fn from(c: &Constexprs) -> Result<MoeConfig, DslError> {
        let t = c.dtype("T", &[Scalar::F32, Scalar::F16, Scalar::BF16])?;
        Ok(MoeConfig { t, block: c.pow2("BLOCK", 16, 1 << 14)?, bk: c.pow2("BLOCK_K", 1, 64)? })
    }
}

/// Where this rank stands: identity, expert split and the program split.
pub(crate) struct Ranks {
    pub(crate) me: Val,
    pub(crate) world: Val,
    /// Experts per rank.
    pub(crate) epr: Val,
    pub(crate) pid: Val,
    pub(crate) progs: Val,
}

impl Ranks {
    pub(crate) fn new(experts: Val) -> Ranks {
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        Ranks { me, world, epr: experts / world, pid, progs }
    }
}

/// A one-element tile at scalar pointer `p` (the library's loads and stores are tiles).
pub(crate) fn one(p: Val) -> Val {
    p + arange(0, 1).to(Scalar::I64)
}

/// Loads the scalar at `p`.
pub(crate) fn load1(p: Val) -> Val {
    sum(load(one(p)), 0)
}

/// Stores scalar `v` at `p`.
pub(crate) fn store1(p: Val, v: Val) {
    store(one(p), splat(v, &[1]))
}

/// Stores `v` (an integer scalar) at `p` on `pe` as one LL word.
pub(crate) fn send_word(p: Val, v: Val, flag: Val, pe: Val) {
    store(one(remote_ptr(p, pe)), ll_pack(splat(v.to(Scalar::I32), &[1]), flag))
}

/// Waits for the LL word at `p` and returns its data (i64).
pub(crate) fn recv_word(p: Val, flag: Val) -> Val {
    sum(ll_recv(one(p), flag, None), 0).to(Scalar::I64)
}

/// Ends a block sent to `pe` as plain words: its count `n` as one LL word at `p` on `pe`,
/// behind a fence, so the count's flag is the whole block's.
pub(crate) fn send_count(p: Val, n: Val, flag: Val, pe: Val) {
    fence();
    send_word(p, n, flag, pe);
}

/// Waits for this launch's LL count words `cnt[from..to]`; returns their sum.
pub(crate) fn recv_counts(cnt: Val, from: Val, to: Val, flag: Val) -> Val {
    for_range_carry(from, to, 1i64, &[i64c(0)], |s, c| vec![c[0] + recv_word(cnt + s, flag)])[0]
}

/// Calls `hit(t, k, slot)` for every token `t` of `tokens` whose choice `k` in `idx[tokens,
/// topk]` is expert `e`, in token order, `slot` counting those tokens from 0; returns the count.
pub(crate) fn scan_expert(idx: Val, tokens: Val, topk: Val, bk: i64, e: Val, hit: impl FnOnce(Val, Val, Val)) -> Val {
    let kk = arange(0, bk as i32).to(Scalar::I64);
    let out = for_range_carry(0i64, tokens, 1i64, &[i64c(0)], |t, c| {
        let row = load_masked(idx + t * topk + kk, kk.lt(topk), -1).to(Scalar::I64);
        // Choices are distinct: at most one matches; -1 when none does.
        let k = sum(select(row.eq_(e), kk + 1, 0), 0) - 1;
        let found = k.ge(0);
        if_(found, || hit(t, k, c[0]));
        vec![c[0] + select(found, i64c(1), i64c(0))]
    });
    out[0]
}

/// The dispatch kernels' arguments: `ep_dispatch` and `ep_dispatch_fp8` share one host side.
#[derive(Clone, Copy)]
pub(crate) struct DispatchArgs {
    pub(crate) x: Val,
    pub(crate) idx: Val,
    pub(crate) out: Val,
    pub(crate) off: Val,
    pub(crate) src_tk: Val,
    ll: Val,
    cnt: Val,
    pub(crate) tokens: Val,
    pub(crate) words: Val,
    pub(crate) topk: Val,
    pub(crate) experts: Val,
    pub(crate) flag: Val,
}

impl DispatchArgs {
    /// Declares the arguments, `x` and `out` of element type `t`.
    pub(crate) fn new(a: &mut Args, t: Scalar) -> DispatchArgs {
        let (x, idx, out) = (a.ptr("x", t), a.ptr("idx", Scalar::I32), a.ptr("out", t));
        let (off, src_tk) = (a.ptr("off", Scalar::I32), a.ptr("src_tk", Scalar::I32));
        let (ll, cnt) = (a.ptr("ll", Scalar::I64), a.ptr("cnt", Scalar::I64));
        let (tokens, words, topk, experts) = (a.i64("tokens"), a.i64("words"), a.i64("topk"), a.i64("experts"));
        DispatchArgs { x, idx, out, off, src_tk, ll, cnt, tokens, words, topk, experts, flag: a.i32("flag") }
    }

    /// `ep_dispatch`'s buffers: the rows in `ll`'s first half at every launch (a region is
    /// refilled only after its receiver's credit, so the rows touch half the memory and stay
    /// in cache), one credit word per expert at the start of the second half, and the count
    /// words at this launch's parity.
    pub(crate) fn credited(&self, r: &Ranks, msg: Val) -> (Val, Val, Val) {
        let parity = (self.flag & 1).to(Scalar::I64);
        (self.ll, self.ll + r.epr * r.world * self.tokens * msg, self.cnt + parity * (r.epr * r.world))
    }

    /// This rank's own scratch: `ll`'s second half after the credit words, which no peer
    /// writes (`ll` holds `words + 1` i64 words per slot, [`credited`](Self::credited) uses
    /// `msg` of them in the first half and one per expert in the second).
    pub(crate) fn spare(&self, r: &Ranks, msg: Val) -> Val {
        self.credited(r, msg).1 + r.epr * r.world
    }
}

/// Builds `ep_dispatch`.
pub fn ep_dispatch(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_dispatch", c, |a| {
        let d = DispatchArgs::new(a, cfg.t);
        let (xw, outw, words) = (ptr_cast(d.x, Scalar::I32), ptr_cast(d.out, Scalar::I32), d.words);
        dispatch_rows(
            &d,
            &cfg,
            words,
            |rows, t| copy_exact(rows, xw + t * words, words, cfg.block),
            // One local block copy (memcpy on a CPU, block-wide copies on a GPU).
            |rows, at, n, me| get(outw + at * words, rows, n * words, me, ShmemScope::Block),
        );
        Ok(())
    })
}

/// i64 words per token of a dispatch region: its LL header word, and its row's words two to
/// an i64.
pub(crate) fn dispatch_msg(words: Val) -> Val {
    1i64 + cdiv(words, 2i64)
}

/// The dispatch protocol for rows of `row_words` 32-bit words (at most `words`, the token's
/// words of `T`, which size the buffers): `send(rows, t)` writes token `t`'s row at `rows` (on
/// the expert's rank) and `recv(rows, at, n, me)` turns a pair's `n` rows at local `rows` into
/// output rows `at..at + n` (`me` this rank, as i64).
pub(crate) fn dispatch_rows(d: &DispatchArgs, cfg: &MoeConfig, row_words: Val, send: impl Fn(Val, Val), recv: impl Fn(Val, Val, Val, Val)) {
    let DispatchArgs { idx, off, src_tk, tokens, words, topk, experts, flag, .. } = *d;
    let r = Ranks::new(experts);
    let Ranks { me, world, epr, pid, progs } = r;
    let msg = dispatch_msg(words);
    let (ll, credit, cnt) = d.credited(&r, msg);
    // Send: experts over programs, each scanning the tokens in order.
    for_range(pid, experts, progs, |e| {
        let (dst, le) = (e / epr, e % epr);
        // The region is free once `dst` has copied out the last launch's rows (its credit
        // carries that launch's flag; a zeroed word, flag 0, before the first launch). The
        // credit's data (0) goes into the addresses, so no store starts before the wait.
        let free = recv_word(credit + e, flag - 1i32);
        // One address translation per expert, not per token.
        let (heads, rows) = region(ll, le * world + me, tokens, msg);
        let (heads, rows) = (remote_ptr(heads, dst) + free, remote_ptr(rows, dst) + free);
        let n = scan_expert(idx, tokens, topk, cfg.bk, e, |t, k, slot| {
            send(rows + slot * row_words, t);
            store1(heads + slot, (t * topk + k).to(Scalar::I32));
        });
        send_count(cnt + le * world + me, n, flag, dst);
    });
    for_pairs(&r, [cnt, off], tokens, flag, |le, src, at, n| {
        let (heads, rows) = region(ll, le * world + src, tokens, msg);
        // The pair's count has arrived, so have the headers and rows fenced before it.
        fence();
        get(src_tk + at, heads, n, me, ShmemScope::Block);
        recv(rows, at, n, me);
    });
    // Every pair copied out (the loads done before the stores below): each region goes back
    // to its source, whose next launch may fill it again.
    fence();
    for_range(pid, epr * world, progs, |p| send_word(credit + me * epr + p / world, i64c(0), flag, p % world));
}

/// `ep_dispatch`'s region `i` (of `[epr, world]`) in `ll`, `msg` i64 words per token: the
/// tokens' headers (i32, in the first half of `tokens` i64 words), then their rows as plain
/// 32-bit words; the pair's count word is the flag of both, stored after them behind a fence.
fn region(ll: Val, i: Val, tokens: Val, msg: Val) -> (Val, Val) {
    let heads = ll + i * tokens * msg;
    (ptr_cast(heads, Scalar::I32), ptr_cast(heads + tokens, Scalar::I32))
}

/// The receive side's pairs: (local expert, source) pairs over programs; a pair's rows start
/// after the earlier sources' (their count words are already here or on their way). Writes
/// each pair's row offsets into `off`, then calls `body(le, src, at, n)` with the pair's first
/// output row `at` (in `[epr, world * tokens]`) and its row count `n`. `bufs` is `[cnt, off]`,
/// `cnt` at this launch's parity.
fn for_pairs(r: &Ranks, bufs: [Val; 2], tokens: Val, flag: Val, body: impl Fn(Val, Val, Val, Val)) {
    let [cnt, off] = bufs;
    let (world, epr) = (r.world, r.epr);
    for_range(r.pid, epr * world, r.progs, |p| {
        let (le, src) = (p / world, p % world);
        let counts = cnt + le * world;
        let base = recv_counts(counts, i64c(0), src, flag);
        let n = recv_word(counts + src, flag);
        let offs_row = off + le * (world + 1);
        store1(offs_row + src, base.to(Scalar::I32));
        if_(src.eq_(world - 1), || store1(offs_row + world, (base + n).to(Scalar::I32)));
        body(le, src, le * world * tokens + base, n);
    });
}

/// Where source `src`'s rows of local expert `le` start in the dispatch layout (`off[epr,
/// world + 1]`), and how many there are.
pub(crate) fn source_rows(off: Val, le: Val, world: Val, src: Val) -> (Val, Val) {
    let row = off + le * (world + 1);
    let base = load1(row + src).to(Scalar::I64);
    (base, load1(row + src + 1i64).to(Scalar::I64) - base)
}

/// Builds `ep_combine`.
pub fn ep_combine(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_combine", c, |a| {
        let (y, off, src_tk) = (a.ptr("y", cfg.t), a.ptr("off", Scalar::I32), a.ptr("src_tk", Scalar::I32));
        let (w, out) = (a.ptr("w", Scalar::F32), a.ptr("out", cfg.t));
        let (recv, cnt) = (a.ptr("recv", cfg.t), a.ptr("cnt", Scalar::I64));
        let (tokens, words, topk, experts) = (a.i64("tokens"), a.i64("words"), a.i64("topk"), a.i64("experts"));
        let flag = a.i32("flag");
        let Ranks { me, world, epr, pid, progs } = Ranks::new(experts);
        let parity = (flag & 1).to(Scalar::I64);
        let (recv, cnt) = (ptr_cast(recv, Scalar::I32) + parity * (tokens * topk * words), cnt + parity * (world * epr));
        let (yw, outw) = (ptr_cast(y, Scalar::I32), ptr_cast(out, Scalar::I32));
        // Send: every (local expert, token rank) block's rows back to their (token, choice) rows.
        for_range(pid, epr * world, progs, |p| {
            let (le, dst) = (p / world, p % world);
            let (base, n) = source_rows(off, le, world, dst);
            // One address translation per block, not per row.
            let rows = remote_ptr(recv, dst);
            for_range(0i64, n, 1i64, |j| {
                let at = le * world * tokens + base + j;
                copy_exact(rows + load1(src_tk + at).to(Scalar::I64) * words, yw + at * words, words, cfg.block);
            });
            send_count(cnt + me * epr + le, n, flag, dst);
        });
        // Receive: every block's count (a token's rows come from several), then tokens over
        // programs, each tile of words summing its topk rows, weighted.
        recv_counts(cnt, i64c(0), world * epr, flag);
        fence();
        let per_word = 4 / cfg.t.bytes() as i64;
        let kk = arange(0, cfg.bk as i32).to(Scalar::I64);
        for_range(pid, tokens, progs, |t| {
            let wt = load_masked(w + t * topk + kk, kk.lt(topk), 0.0f64);
            for_tiles(i64c(0), words, cfg.block, |offs, m| {
                let init = vec![zeros(&[cfg.block as usize], Scalar::F32); per_word as usize];
                let acc = for_range_carry(0i64, topk, 1i64, &init, |k, acc| {
                    let wk = sum(select(kk.eq_(k), wt, 0.0f64), 0);
                    let got = load_masked(recv + (t * topk + k) * words + offs, m, 0);
                    unpack(got, cfg.t).into_iter().zip(acc).map(|(v, a)| *a + v * wk).collect()
                });
                store_masked(outw + t * words + offs, pack(&acc, cfg.t), m);
            });
        });
        Ok(())
    })
}

/// The elements of 32-bit words `got` as f32, one tile per element of a word: element
/// `per_word * i + part` is `parts[part][i]` (little endian, as the words were loaded).
fn unpack(got: Val, t: Scalar) -> Vec<Val> {
    if t == Scalar::F32 {
        return vec![bitcast(got, Scalar::F32)];
    }
    let half = |bits: Val| bitcast(bits.to(Scalar::I16), t).to(Scalar::F32);
    vec![half(got & 0xffff), half(shr_u(got, 16))]
}

/// [`unpack`]'s inverse: f32 `parts` rounded to `t` and packed into 32-bit words, so a row is
/// stored as contiguous words rather than two strided halves.
fn pack(parts: &[Val], t: Scalar) -> Val {
    if t == Scalar::F32 {
        return bitcast(parts[0], Scalar::I32);
    }
    let bits = |v: Val| bitcast(v.to(t), Scalar::I16).to(Scalar::I32) & 0xffff;
    bits(parts[0]) | (bits(parts[1]) << 16)
}
