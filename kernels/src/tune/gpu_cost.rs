//! The model that ranks a GEMM-family space for a GPU target. The CPU model's measured tile
//! costs say nothing about a GPU, where the library's kernels run one persistent CTA per SM
//! over the output tiles: an SM's time is its share of the tiles, whole tiles (the last wave
//! is a whole wave), each tile a K loop whose step is bound by the tensor cores or by the
//! bytes the step loads, plus whatever load latency the shared-memory ring's stages do not
//! hide. Only the ranking matters (the top of it is timed), so the per-SM rates are the
//! vendors' peak numbers scaled to one SM, not measurements.

use super::space::Config;
use super::{Problem, Shape};
use weft_compiler::pipeline::{Gfx, Sm, Target};
use weft_runtime::{DType, Topology};

/// Per-SM rates of a GPU target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuSpec {
    /// Streaming multiprocessors (compute units on AMD).
    pub sms: f64,
    /// 16-bit matrix-multiply flops per second of one SM.
    pub mma_flops: f64,
    /// Bytes per second one SM loads from L2.
    pub load_bytes: f64,
    /// Bytes per second between two GPUs (one direction).
    pub link_bytes: f64,
    /// Whether a warpgroup-wide MMA (`wgmma`, 64 rows per warpgroup) exists.
    pub warpgroup_mma: bool,
}

/// Seconds a load waits for L2 before its data arrives (what the stages have to cover).
const LOAD_LATENCY_S: f64 = 0.5e-6;
/// Seconds to launch a kernel.
const LAUNCH_S: f64 = 5e-6;
/// Accumulator registers a thread can hold before ptxas spills (of 255, the rest for addresses).
pub const ACC_REGS_MAX: usize = 192;

impl GpuSpec {
    /// The spec of `target` (SM count from the device when it is known).
    pub fn of(target: Target, sms: Option<usize>) -> GpuSpec {
        // (SMs, dense 16-bit tensor flop/s of the whole chip, L2 bytes/s per SM, link bytes/s)
        let (n, chip, load, link, wg) = match target {
            Target::Cuda { sm: Sm::Sm100a } => (148.0, 2250e12, 160e9, 900e9, true),
            Target::Cuda { sm: Sm::Sm90a } => (132.0, 989e12, 112e9, 450e9, true),
            Target::Amd { gfx: Gfx::Gfx942 } => (304.0, 1307e12, 64e9, 64e9, false),
            Target::Amd { gfx: Gfx::Gfx90a } => (110.0, 191e12, 64e9, 50e9, false),
            _ => (108.0, 312e12, 80e9, 300e9, false),
        };
        let sms = sms.map_or(n, |s| s as f64);
        GpuSpec { sms, mma_flops: chip / n, load_bytes: load, link_bytes: link, warpgroup_mma: wg }
    }
}

/// Predicted seconds of GEMM-family `c` for `problem` on `topo` (collectives: `None`, the CPU
/// model ranks them).
pub fn predict(c: &Config, problem: &Problem, topo: Topology, gpu: &GpuSpec) -> Option<f64> {
    let Shape::Matmul(s) = problem.shape else { return None };
    let get = |k: &str, d: i64| c.int(k).unwrap_or(d).max(1) as f64;
    let (bm, bn, bk) = (get("BLOCK_M", 64), get("BLOCK_N", 64), get("BLOCK_K", 32));
    let (warps, stages) = (get("num_warps", 4), get("num_stages", 3));
    let w = topo.world_size() as f64;
    let es = problem.dtype.size_bytes() as f64;
    let (nf, kf) = (s.n as f64, s.k as f64);
    let rows = crate::matmul::rank_rows(&c.algorithm, s.m, topo.world_size()) as f64;
    let segs = if c.algorithm == "gemm" { 1.0 } else { w };
    let tiles = segs * (rows / bm).ceil() * (nf / bn).ceil();
    let comm = if c.algorithm == "gemm" { 0.0 } else { get("COMM_PROGRAMS", 1) };
    let per_sm = (tiles / (gpu.sms - comm).max(1.0)).ceil();
    // f32 operands run the tensor cores at a fraction of the 16-bit rate (TF32 or FMAs).
    let rate = gpu.mma_flops * if problem.dtype == DType::F32 { 0.25 } else { 1.0 };
    // Without a warpgroup MMA wide enough for its rows, a warp issues small MMAs that leave
    // the tensor cores idle between them.
    let wide = gpu.warpgroup_mma && bm / (warps / 4.0).max(1.0) >= 64.0;
    let mma = 2.0 * bm * bn * bk / (rate * if wide { 1.0 } else { 0.6 });
    let load = (bm + bn) * bk * es / gpu.load_bytes;
    let step = mma.max(load);
    // The ring holds `stages - 1` steps in flight: the latency they do not cover is paid.
    let exposed = (LOAD_LATENCY_S - (stages - 1.0) * step).max(0.0);
    let epilogue = bm * bn * es / gpu.load_bytes;
    let compute = per_sm * ((kf / bk).ceil() * (step + exposed) + epilogue);
    // An accumulator that does not fit the registers spills to local memory.
    let spill = if acc_regs(bm as usize, bn as usize, warps as usize) > ACC_REGS_MAX { 4.0 } else { 1.0 };
    let comm_bytes = super::cost::matmul_comm_bytes(&c.algorithm, rows, nf, kf, w, es);
    // Communication overlaps the tiles; what it does not hide is added.
    Some(LAUNCH_S + (compute * spill).max(comm_bytes / gpu.link_bytes) + 0.1 * (comm_bytes / gpu.link_bytes).min(compute))
}

/// f32 accumulator registers per thread of a `bm x bn` tile over `warps` warps.
pub fn acc_regs(bm: usize, bn: usize, warps: usize) -> usize {
    (bm * bn).div_ceil(32 * warps.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MatmulShape;

    fn cfg(bm: i64, bn: i64, bk: i64, warps: i64, stages: i64) -> Config {
        let mut c = Config { algorithm: "gemm".into(), params: Default::default() };
        for (k, v) in [("BLOCK_M", bm), ("BLOCK_N", bn), ("BLOCK_K", bk), ("num_warps", warps), ("num_stages", stages)] {
            c.params.insert(k.into(), v.to_string());
        }
        c
    }

    fn time(c: &Config, m: usize, n: usize, k: usize) -> f64 {
        let p = Problem { op: "gemm".into(), shape: Shape::Matmul(MatmulShape { m, n, k }), dtype: DType::BF16 };
        predict(c, &p, Topology::single_node(1), &GpuSpec::of(Target::Cuda { sm: Sm::Sm90a }, None)).unwrap()
    }

    #[test]
    fn large_tiles_win_large_problems_and_lose_small_ones() {
        // 4096^3: a 128x128 tile loads a quarter of a 32x64 tile's bytes per flop.
        let (big, small) = (time(&cfg(128, 128, 64, 8, 4), 4096, 4096, 4096), time(&cfg(32, 64, 32, 4, 3), 4096, 4096, 4096));
        assert!(big * 3.0 < small, "128x128 {big:e} vs 32x64 {small:e}");
        // 256x256x4096: 4 tiles of 128x128 leave 128 SMs idle, 16 tiles of 64x64 fewer.
        let (big, small) = (time(&cfg(128, 128, 64, 8, 4), 256, 256, 4096), time(&cfg(64, 64, 64, 4, 4), 256, 256, 4096));
        assert!(small < big, "64x64 {small:e} vs 128x128 {big:e}");
    }

    #[test]
    fn stages_hide_latency_and_spills_cost() {
        let (s2, s4) = (time(&cfg(128, 128, 64, 8, 2), 4096, 4096, 4096), time(&cfg(128, 128, 64, 8, 4), 4096, 4096, 4096));
        assert!(s4 < s2, "4 stages {s4:e} vs 2 {s2:e}");
        // 128x256 over 4 warps: 256 accumulator registers a thread.
        assert!(acc_regs(128, 256, 4) > ACC_REGS_MAX);
        assert!(time(&cfg(128, 256, 64, 4, 3), 4096, 4096, 4096) > time(&cfg(128, 256, 64, 8, 3), 4096, 4096, 4096));
    }
}
