//! The baselines of `ag_moe` and `moe_rs`: the two launches a framework without fused kernels
//! runs, sharing `moe_gemm` for the expert GEMM.
//!
//! * AllGather then grouped GEMM: `moe_allgather` puts this rank's shard to every rank and
//!   waits for every shard (args `x, x_full, sig[world], tokens, k, epoch`), then `moe_gemm`
//!   over the gathered tokens.
//! * Grouped GEMM then ReduceScatter: `moe_gemm` writes every expert row, then `moe_rs_pull`
//!   (`barrier_all`, each rank `get`s its tokens' top-k rows from their experts' ranks and sums
//!   them with the routing weights in f32, `barrier_all` so no rank's next GEMM overwrites rows
//!   a peer still reads). A choice's row on its expert's rank is that rank's block start for
//!   this rank, `off[(e % epr) * world + me]` (each program `get`s every expert's into its row
//!   of `starts`), plus `pos`, the row's index within the block (as `moe_rs` reads it). Args:
//!   `y[rows, n], idx, pos, wt [tokens, topk], off[epr * world + 1] (i32, symmetric),
//!   starts[programs, epr * world] (i32), scratch[tokens * topk, n], c[tokens, n], tokens, n,
//!   topk, epr`.

use crate::common::for_tiles;
use crate::gemm::GemmConfig;
use crate::moe::load1;
use crate::moe_gemm::{push_shard, wait_all, weighted_rows};
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Builds `moe_allgather` (registered as `ag_moe_v`, whose host side runs both steps).
pub fn moe_allgather(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    kernel("moe_allgather", c, |a| {
        let (x, x_full, sig) = (a.ptr("x", cfg.t), a.ptr("x_full", cfg.t), a.ptr("sig", Scalar::I64));
        let (tokens, k, epoch) = (a.i64("tokens"), a.i64("k"), a.i64("epoch"));
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        push_shard(x, x_full, sig, (tokens, k, epoch), (pid, progs), &|i| i);
        // The launch ends once every shard is here, as a library AllGather's does.
        wait_all(sig, epoch);
        Ok(())
    })
}

/// Builds `moe_rs_pull` (the second launch of `moe_rs_v`, registered with `moe_gemm` first).
pub fn moe_rs_pull(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    kernel("moe_rs_pull", c, |a| {
        let (y, idx, pos, wt) = (a.ptr("y", cfg.t), a.ptr("idx", Scalar::I32), a.ptr("pos", Scalar::I32), a.ptr("wt", Scalar::F32));
        let (off, starts) = (a.ptr("off", Scalar::I32), a.ptr("starts", Scalar::I32));
        let (scratch, out) = (a.ptr("scratch", cfg.t), a.ptr("c", cfg.t));
        let (tokens, n, topk, epr) = (a.i64("tokens"), a.i64("n"), a.i64("topk"), a.i64("epr"));
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        barrier_all();
        // Where this rank's block of each expert starts on the expert's rank (written there by
        // its `moe_align` before the GEMM launch).
        let mine = starts + pid * epr * world;
        for_range(0i64, epr * world, 1i64, |e| get(mine + e, off + (e % epr) * world + me, 1i64, e / epr, ShmemScope::Block));
        for_range(pid, tokens, progs, |t| {
            for_range(0i64, topk, 1i64, |kk| {
                let at = t * topk + kk;
                let e = load1(idx + at).to(Scalar::I64);
                let row = load1(mine + e).to(Scalar::I64) + load1(pos + at).to(Scalar::I64);
                get(scratch + at * n, y + row * n, n, e / epr, ShmemScope::Block);
            });
            for_tiles(i64c(0), n, cfg.bn, |offs, mask| {
                let rows = |kk: Val| scratch + (t * topk + kk) * n + offs;
                let acc = weighted_rows(topk, wt + t * topk, &rows, mask, cfg.bn);
                store_masked(out + t * n + offs, acc.to(cfg.t), mask);
            });
        });
        barrier_all();
        Ok(())
    })
}
