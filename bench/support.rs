//! Helpers shared by the criterion benches: timing a closure inside a group while keeping
//! its mean for the summary table, and writing that table under `target/weft-bench/`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};
use std::time::{Duration, Instant};

/// Benchmarks `f` as `function/id` in `group` and returns its mean time per call.
pub fn timed(group: &mut BenchmarkGroup<'_, WallTime>, function: &str, id: &str, mut f: impl FnMut()) -> Duration {
    let (mut total, mut calls) = (Duration::ZERO, 0u64);
    group.bench_function(BenchmarkId::new(function, id), |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            let t = start.elapsed();
            (total, calls) = (total + t, calls + iters);
            t
        })
    });
    total / calls.max(1) as u32
}

/// Writes `text` to `target/weft-bench/<file>` and prints it.
pub fn write_summary(file: &str, text: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/weft-bench");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(file);
    match std::fs::write(&path, text) {
        Ok(()) => println!("\n{text}\n(written to {})", path.display()),
        Err(e) => println!("\n{text}\n(could not write {}: {e})", path.display()),
    }
}

/// One launch of the non-overlapped baseline of `kernel`: the AllGather then the GEMM
/// (`ag_gemm`), or the GEMM then the ReduceScatter (`gemm_rs`).
#[allow(dead_code)] // used by the overlap benches only
pub fn launch_baseline(kernel: &str, comm: &mut weft::kernels::Prepared, gemm: &mut weft::kernels::PreparedMatmul) {
    if kernel == "ag_gemm" {
        comm.launch().expect("launch");
        gemm.launch().expect("launch");
    } else {
        gemm.launch().expect("launch");
        comm.launch().expect("launch");
    }
}
