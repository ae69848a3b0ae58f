//! GEMM-ReduceScatter with the producer fused with the scatter, as Triton-distributed does on
//! AMD: every program computes partial tiles and stores each one straight into its owner's
//! symmetric partial buffer (remote stores through `remote_ptr`, no staging slot, no signal
//! per tile), then `barrier_all`, then every rank sums the `world` partials of its own
//! segment. One node only: remote stores need a load/store path to the owner (NVLink, xGMI,
//! one machine's shared memory); across nodes `gemm_rs` is the kernel.
//!
//! Args: `a[m, k], b[k, n], c[seg_rows, n], part[world * max_tiles * BLOCK_M * BLOCK_N]` (the
//! element type, as `gemm_rs`'s partials; slot `src * max_tiles + tile` of the owner holds `src`'s partial of the owner's tile),
//! `m, n, k`. `REDUCE_ROWS` as in `gemm_rs`.

use crate::gemm::{store_tile, tile_product, GemmConfig, Mat};
use crate::gemm_rs::{slot_indices, slot_tile, Arrivals};
use crate::swizzle::rs_dest;
use crate::tiles::{seg_tiles, segment, SegTile};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Builds `gemm_rs_ps`.
pub fn gemm_rs_ps(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    kernel("gemm_rs_ps", c, |a| {
        let (am, bm, out, part) = (a.ptr("a", cfg.t), a.ptr("b", cfg.t), a.ptr("c", cfg.t), a.ptr("part", cfg.t));
        let (m, n, k) = (a.i64("m"), a.i64("n"), a.i64("k"));
        // Sums without waits (`sum_in_place`): after the barrier every partial is in place, so
        // no epoch is ever compared.
        let arrivals = Arrivals::new(c, cfg, constant(0i64, Scalar::I64, &[]))?;
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let num_pn = cdiv(n, cfg.bn);
        let max_tiles = cdiv(cdiv(m, world), cfg.bm) * num_pn;
        let (si, sj) = slot_indices(&cfg);
        let bmat = Mat::dense(bm, k, n);
        // Own segment last, so the peers' partials go out first; local = world (one node).
        seg_tiles(pid, progs, world, m, n, &cfg, |step| rs_dest(step, me, world, world), |t: SegTile| {
            let amat = Mat { ptr: am + t.row0 * k, rows: t.rows, cols: k, ld: k };
            let acc = tile_product(&amat, &bmat, t.rows_idx, t.cols_idx, &cfg);
            let owner_slot = slot_tile(remote_ptr(part, t.rank), me * max_tiles + t.index, &cfg);
            store_tile(&owner_slot, si, sj, acc, cfg.t);
        });
        barrier_all();
        let (s0, s1) = segment(me, m, world);
        let (ci, _) = arrivals.indices();
        for_range(pid, cdiv(s1 - s0, cfg.bm) * num_pn, progs, |index| {
            let (row0, pn) = ((index / num_pn) * cfg.bm, index % num_pn);
            let cmat = Mat { ptr: out + row0 * n, rows: s1 - s0 - row0, cols: n, ld: n };
            let cols = pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
            for_range(0i64, cfg.bm, arrivals.rr, |r0| {
                let zero = zeros(&[arrivals.rr as usize, cfg.bn as usize], Scalar::F32);
                let total = arrivals.sum_in_place(world, &|src: Val| src * max_tiles + index, part, r0, zero);
                store_tile(&Arrivals::chunk(&cmat, r0), ci, cols, total, cfg.t);
            });
        });
        // The next launch's stores must not land in a slot this rank is still summing.
        barrier_all();
        Ok(())
    })
}

/// The tuner's space of `gemm_rs_ps`: tiles and warps (every program computes, then reduces).
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[
    crate::tune::Param::all("BLOCK_M", &["16", "32", "64"]),
    crate::tune::Param::all("BLOCK_N", &["64", "128", "256"]),
    crate::tune::Param::all("BLOCK_K", &["32", "64"]),
    crate::tune::Param::gpu("num_warps", &["4", "8"]),
    crate::tune::Param::gpu("num_stages", &["3", "4"]),
];
