//! What a CPU GEMM tile costs, measured: the library's `gemm` kernel on one rank at each
//! (`BLOCK_M`, `BLOCK_N`) of a small grid, timed in CPU seconds of this process (not wall
//! time: on a machine shared with other builds, wall time moved 20-70% between sweeps, the
//! CPU time of the same launches a few percent). Measured once per machine and element type
//! and cached in the tuning directory ([`TILES_FILE`]).
//!
//! Why measured rather than modelled: the cost per flop depends on how the back end keeps
//! the accumulator and converts the element type, which no formula here captures. On the
//! 2-core machine (m=256, n=448, k=128, CPU us per launch, 2026-11-26): f32 is flat within
//! noise (390-490 us over the whole grid), while bf16 runs 64-wide tiles 1.3-2.1x slower than
//! 128-wide ones (64x64 830 us, 64x128 630, 64x256 840; 16x64 1670) — the old model's penalty
//! for wide tiles (4-6x at 256) had the direction wrong.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use weft_runtime::{DType, World};

/// The tile costs' file in a tuning directory (one entry per element type).
pub const TILES_FILE: &str = "gemm-tiles-v1.json";
/// `BLOCK_M` values of the grid.
pub const GRID_M: [i64; 3] = [16, 32, 64];
/// `BLOCK_N` values of the grid.
pub const GRID_N: [i64; 3] = [64, 128, 256];
/// The measured GEMM: every grid tile divides it, so no tile pads.
const SHAPE: crate::MatmulShape = crate::MatmulShape { m: 256, n: 512, k: 256 };

/// CPU seconds per flop of padded tile work, at each (`GRID_M[i]`, `GRID_N[j]`); zeros when
/// not measured (the model then falls back to the machine's flop rate).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct TileCosts {
    /// `s_per_flop[i][j]` for `BLOCK_M = GRID_M[i]`, `BLOCK_N = GRID_N[j]`.
    pub s_per_flop: [[f64; 3]; 3],
}

impl TileCosts {
    /// Nothing measured.
    pub const NONE: TileCosts = TileCosts { s_per_flop: [[0.0; 3]; 3] };

    /// Seconds per flop of a `bm` x `bn` tile: the grid point nearest in log2 (tiles outside
    /// the grid cost what its edge does); `None` when not measured.
    pub fn at(&self, bm: f64, bn: f64) -> Option<f64> {
        let near = |grid: &[i64; 3], x: f64| {
            let d = |i: usize| ((grid[i] as f64).log2() - x.max(1.0).log2()).abs();
            (0..3).min_by(|&a, &b| d(a).total_cmp(&d(b))).unwrap_or(0)
        };
        let s = self.s_per_flop[near(&GRID_M, bm)][near(&GRID_N, bn)];
        (s > 0.0).then_some(s)
    }

    /// The costs of `dtype` cached in `dir`, measured (and cached) if absent or unreadable.
    pub fn cached(dir: &Path, dtype: DType) -> TileCosts {
        let path = dir.join(TILES_FILE);
        let mut all: BTreeMap<String, TileCosts> = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        if let Some(t) = all.get(dtype.name()).filter(|t| t.s_per_flop.iter().flatten().all(|s| *s > 0.0)) {
            return *t;
        }
        let t = TileCosts::measure(dtype);
        all.insert(dtype.name().to_string(), t);
        if std::fs::create_dir_all(dir).is_ok() {
            let _ = std::fs::write(&path, serde_json::to_string_pretty(&all).unwrap_or_default());
        }
        t
    }

    /// Times the grid (a few seconds: nine compiles, unless cached, and ~0.1 s of launches
    /// each); a tile that fails to build or run stays unmeasured.
    pub fn measure(dtype: DType) -> TileCosts {
        let mut t = TileCosts::NONE;
        let Ok(world) = World::local(1) else { return t };
        for (i, bm) in GRID_M.iter().enumerate() {
            for (j, bn) in GRID_N.iter().enumerate() {
                let c = crate::matmul::matmul_constexprs(dtype.name()).with("BLOCK_M", bm).with("BLOCK_N", bn);
                let flops = 2.0 * (SHAPE.m * SHAPE.n * SHAPE.k) as f64;
                t.s_per_flop[i][j] = crate::prepare_matmul(&world, "gemm", SHAPE, dtype, &c).ok().and_then(|mut p| cpu_per_launch(&mut || p.launch().is_ok())).map_or(0.0, |s| s / flops);
            }
        }
        t
    }
}

/// Process CPU seconds (user and system) so far.
pub(super) fn process_cpu_s() -> f64 {
    // SAFETY: `getrusage` writes the zeroed struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return 0.0;
    }
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    s(u.ru_utime) + s(u.ru_stime)
}

/// CPU seconds per `launch` (it returns whether it ran): one warm-up, then the best of three
/// loops of at least 20 ms of CPU time each (the rusage clock ticks in microseconds but a
/// loop must outlast a scheduler tick); `None` if a launch fails.
fn cpu_per_launch(launch: &mut dyn FnMut() -> bool) -> Option<f64> {
    if !launch() {
        return None;
    }
    let mut best = f64::MAX;
    for _ in 0..3 {
        let (t0, mut n) = (process_cpu_s(), 0usize);
        while process_cpu_s() - t0 < 0.02 || n == 0 {
            if !launch() {
                return None;
            }
            n += 1;
        }
        best = best.min((process_cpu_s() - t0) / n as f64);
    }
    Some(best)
}
