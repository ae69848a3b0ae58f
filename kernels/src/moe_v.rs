//! The baseline of `ep_dispatch`: the two collectives a framework without a fused kernel runs,
//! counts exchange then AllToAllv (the layout `ep_dispatch` produces, checked the same way).
//!
//! 1. `ep_counts`: every token bucketed by expert into a local send buffer (the same scan as
//!    `ep_dispatch`), each expert's count put to its rank with `put_signal`; every rank waits
//!    for all its counts and writes the offsets. Args: `x, idx, send[experts, tokens, hidden]`,
//!    `send_tk[experts, tokens]` (i32), `mine[experts]`, `cnt[epr, world]`, `sig[epr, world]`
//!    (i64), `off[epr, world + 1]` (i32), `tokens, words, topk, experts, epoch`.
//! 2. `ep_alltoallv`: each (local expert, source) block pulled from the source's send buffer
//!    with `get`, sized by the exchanged counts. Args: `send, send_tk, out, src_tk, off,
//!    tokens, words, experts`.
//!
//! A rank's next `ep_counts` waits for every rank's counts, so no rank rewrites its send buffer
//! while another still pulls from it.
//!
//! The baseline of `ep_combine` (`ep_combine_v`), AllToAllv back then the weighted sum:
//! 1. `ep_combine_a2a`: every expert output row put to its token's rank at row `t * topk + k`
//!    of `recv` (the header the dispatch left), one signal per (source, local expert) block
//!    once its rows are out. Args: `y, off, src_tk` (as `ep_combine`), `recv[2, tokens * topk,
//!    hidden], sig[2, world * epr]` (i64), `tokens, hidden, experts, epoch`.
//!    The launch ends once every block bound here has arrived.
//! 2. `ep_combine_sum`: checks every block's signal, then sums each token's top-k rows with
//!    the routing weights in f32. Args: `recv, sig, w[tokens, topk], out, tokens, hidden, topk,
//!    experts, epoch`.
//!
//! Buffers alternate by the epoch's parity: a rank's launch `i + 2` starts after its sum `i + 1`,
//! which waited for every peer's rows of `i + 1`, sent after that peer's sum `i` was done.

use crate::common::for_tiles;
use crate::moe::{load1, scan_expert, source_rows, store1, MoeConfig, Ranks};
use crate::moe_gemm::weighted_rows;
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Builds `ep_counts` (registered as `ep_dispatch_v`, whose host side runs both steps).
pub fn ep_counts(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_counts", c, |a| {
        let (x, idx, send) = (a.ptr("x", cfg.t), a.ptr("idx", Scalar::I32), a.ptr("send", cfg.t));
        let (send_tk, mine) = (a.ptr("send_tk", Scalar::I32), a.ptr("mine", Scalar::I64));
        let (cnt, sig, off) = (a.ptr("cnt", Scalar::I64), a.ptr("sig", Scalar::I64), a.ptr("off", Scalar::I32));
        let (tokens, words, topk, experts, epoch) = (a.i64("tokens"), a.i64("words"), a.i64("topk"), a.i64("experts"), a.i64("epoch"));
        let Ranks { me, world, epr, pid, progs } = Ranks::new(experts);
        let (xw, sendw) = (ptr_cast(x, Scalar::I32), ptr_cast(send, Scalar::I32));
        for_range(pid, experts, progs, |e| {
            let n = scan_expert(idx, tokens, topk, cfg.bk, e, |t, k, slot| {
                let row = e * tokens + slot;
                store1(send_tk + row, (t * topk + k).to(Scalar::I32));
                for_tiles(i64c(0), words, cfg.block, |offs, m| {
                    store_masked(sendw + row * words + offs, load_masked(xw + t * words + offs, m, 0), m);
                });
            });
            store1(mine + e, n);
            // The count's store must land before the block-wide put reads it.
            barrier();
            let at = (e % epr) * world + me;
            put_signal(cnt + at, mine + e, 1i64, sig + at, epoch, e / epr, PutSignal::default());
        });
        for_range(pid, epr, progs, |le| {
            let total = for_range_carry(0i64, world, 1i64, &[i64c(0)], |src, c| {
                let at = le * world + src;
                let tok = wait_until(sig + at, Cmp::Ge, epoch);
                store1(off + le * (world + 1) + src, c[0].to(Scalar::I32));
                vec![c[0] + load1(consume_token(cnt, tok) + at)]
            })[0];
            store1(off + le * (world + 1) + world, total.to(Scalar::I32));
        });
        Ok(())
    })
}

/// Builds `ep_alltoallv`.
pub fn ep_alltoallv(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_alltoallv", c, |a| {
        let (send, send_tk, out) = (a.ptr("send", cfg.t), a.ptr("send_tk", Scalar::I32), a.ptr("out", cfg.t));
        let (src_tk, off) = (a.ptr("src_tk", Scalar::I32), a.ptr("off", Scalar::I32));
        let (tokens, words, experts) = (a.i64("tokens"), a.i64("words"), a.i64("experts"));
        let Ranks { me, world, epr, pid, progs } = Ranks::new(experts);
        let (sendw, outw) = (ptr_cast(send, Scalar::I32), ptr_cast(out, Scalar::I32));
        for_range(pid, epr * world, progs, |p| {
            let (le, src) = (p / world, p % world);
            let (base, n) = source_rows(off, le, world, src);
            let (at, from) = (le * world * tokens + base, (me * epr + le) * tokens);
            get(outw + at * words, sendw + from * words, n * words, src, ShmemScope::Block);
            get(src_tk + at, send_tk + from, n, src, ShmemScope::Block);
        });
        Ok(())
    })
}

/// `recv` and `sig` of `ep_combine_v`'s launch `epoch` (its parity's half).
fn combine_buffers(recv: Val, sig: Val, tokens: Val, hidden: Val, topk: Val, blocks: Val, epoch: Val) -> (Val, Val) {
    let parity = epoch % 2i64;
    (recv + parity * tokens * topk * hidden, sig + parity * blocks)
}

/// Waits until each of `blocks` signals has reached `epoch`; the last wait's token (the waits
/// before it are done by then) orders loads of what they guard.
fn wait_blocks(sig: Val, blocks: Val, epoch: Val) -> Val {
    for_range(0i64, blocks - 1i64, 1i64, |b| {
        wait_until(sig + b, Cmp::Ge, epoch);
    });
    wait_until(sig + blocks - 1i64, Cmp::Ge, epoch)
}

/// Builds `ep_combine_a2a` (registered as `ep_combine_v`, whose host side runs both steps).
pub fn ep_combine_a2a(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_combine_a2a", c, |a| {
        let (y, off, src_tk) = (a.ptr("y", cfg.t), a.ptr("off", Scalar::I32), a.ptr("src_tk", Scalar::I32));
        let (recv, sig) = (a.ptr("recv", cfg.t), a.ptr("sig", Scalar::I64));
        let (tokens, hidden, topk, experts, epoch) = (a.i64("tokens"), a.i64("hidden"), a.i64("topk"), a.i64("experts"), a.i64("epoch"));
        let Ranks { me, world, epr, pid, progs } = Ranks::new(experts);
        let (recv, sig) = combine_buffers(recv, sig, tokens, hidden, topk, world * epr, epoch);
        for_range(pid, epr * world, progs, |p| {
            let (le, dst) = (p / world, p % world);
            let (base, n) = source_rows(off, le, world, dst);
            for_range(0i64, n, 1i64, |j| {
                let at = le * world * tokens + base + j;
                let h = load1(src_tk + at).to(Scalar::I64);
                put(recv + h * hidden, y + at * hidden, hidden, dst, ShmemScope::Block);
            });
            // The rows land before the block's signal.
            fence();
            signal_op(sig + me * epr + le, epoch, Signal::Set, dst);
        });
        // An AllToAllv ends once every block has arrived, as the library's collectives do.
        wait_blocks(sig, world * epr, epoch);
        Ok(())
    })
}

/// Builds `ep_combine_sum`.
pub fn ep_combine_sum(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = MoeConfig::from(c)?;
    kernel("ep_combine_sum", c, |a| {
        let (recv, sig, w, out) = (a.ptr("recv", cfg.t), a.ptr("sig", Scalar::I64), a.ptr("w", Scalar::F32), a.ptr("out", cfg.t));
        let (tokens, hidden, topk, experts, epoch) = (a.i64("tokens"), a.i64("hidden"), a.i64("topk"), a.i64("experts"), a.i64("epoch"));
        let Ranks { world, epr, pid, progs, .. } = Ranks::new(experts);
        let blocks = world * epr;
        let (recv, sig) = combine_buffers(recv, sig, tokens, hidden, topk, blocks, epoch);
        // Arrived already (the AllToAllv waited): one load each, and the loads are ordered.
        let recv = consume_token(recv, wait_blocks(sig, blocks, epoch));
        for_range(pid, tokens, progs, |t| {
            for_tiles(i64c(0), hidden, cfg.block, |offs, mask| {
                let rows = |k: Val| recv + (t * topk + k) * hidden + offs;
                let acc = weighted_rows(topk, w + t * topk, &rows, mask, cfg.block);
                store_masked(out + t * hidden + offs, acc.to(cfg.t), mask);
            });
        });
        Ok(())
    })
}
