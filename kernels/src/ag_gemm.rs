//! AllGather-GEMM, `C = AllGather(A_shard) · B`, with the gather fused into the kernel.
//!
//! Program instances `0..G` compute tiles and `G..G+COMM_PROGRAMS` push this rank's shard.
//! Row tiles start at each shard's first row, so a tile needs exactly one chunk of one
//! source: the comm programs push every row tile of the own shard to every rank (itself
//! included, which is the local copy) with `put_signal`, one signal per (source rank, row
//! tile); a GEMM tile waits on that one signal and consumes its token before loading A.
//! Shards are consumed and pushed in [`ag_source`] order (own shard first, own node first).
//!
//! Args: `a_shard, a_full, b, c, sig[world * max_row_tiles], m, n, k, local, epoch`, where
//! `m` is the gathered row count (shard `r` is rows `[r*m/world, (r+1)*m/world)`), `local`
//! the ranks per node and `max_row_tiles = cdiv(cdiv(m, world), BLOCK_M)`.

use crate::gemm::{store_tile, tile_product, GemmConfig, Mat};
use crate::swizzle::ag_source;
use crate::tiles::{i64c, role_split, segment, seg_tiles, SegTile};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Builds `ag_gemm`.
pub fn ag_gemm(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 1, 64)?;
    kernel("ag_gemm", c, |a| {
        let (shard, full) = (a.ptr("a_shard", cfg.t), a.ptr("a_full", cfg.t));
        let (b, out, sig) = (a.ptr("b", cfg.t), a.ptr("c", cfg.t), a.ptr("sig", Scalar::I64));
        let (m, n, k, local, epoch) = (a.i64("m"), a.i64("n"), a.i64("k"), a.i64("local"), a.i64("epoch"));
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let max_tiles = cdiv(cdiv(m, world), cfg.bm);
        let bmat = Mat::dense(b, k, n);
        let order = |step: Val| ag_source(step, me, local, world);
        let (g, gemm_programs, is_gemm) = role_split(comm);
        if_(is_gemm, || {
            seg_tiles(g, gemm_programs, world, m, n, &cfg, order, |t: SegTile| {
                let tok = wait_until(sig + t.rank * max_tiles + t.row_tile, Cmp::Ge, epoch);
                let view = |base: Val, ld: Val, cols: Val| Mat { ptr: base + t.row0 * ld, rows: t.rows, cols, ld };
                let amat = view(consume_token(full, tok), k, k);
                let acc = tile_product(&amat, &bmat, t.rows_idx, t.cols_idx, &cfg);
                store_tile(&view(out, n, n), t.rows_idx, t.cols_idx, acc, cfg.t);
            });
        });
        if_(is_gemm.eq_(0), || {
            let cp = g - gemm_programs;
            let (s0, s1) = segment(me, m, world);
            for_range(cp, cdiv(s1 - s0, cfg.bm), i64c(comm), |i| {
                let r0 = i * cfg.bm;
                let count = (minimum(r0 + cfg.bm, s1 - s0) - r0) * k;
                let (src, dst) = (shard + r0 * k, full + (s0 + r0) * k);
                let slot = sig + me * max_tiles + i;
                for_range(0i64, world, 1i64, |step| {
                    put_signal(dst, src, count, slot, epoch, order(step), PutSignal::default());
                });
            });
        });
        Ok(())
    })
}

/// The tuner's search space of `ag_gemm`: tiles, communication programs, warps on GPUs.
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[
    crate::tune::Param::all("BLOCK_M", &["16", "32", "64"]),
    crate::tune::Param::all("BLOCK_N", &["64", "128", "256"]),
    crate::tune::Param::all("BLOCK_K", &["32", "64"]),
    crate::tune::Param::all("COMM_PROGRAMS", &["1", "2"]),
    crate::tune::Param::gpu("num_warps", &["4", "8"]),
];
