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

/// The baseline's two pieces for `kernel` on `world`: the collective (AllGather of A's row
/// shards for `ag_gemm`, ReduceScatter of C for `gemm_rs`) and the same GEMM work per rank.
#[allow(dead_code)] // used by the overlap benches only
pub fn baseline_parts(world: &weft::runtime::World, kernel: &str, shape: weft::kernels::MatmulShape, dtype: weft::runtime::DType) -> (weft::kernels::Prepared, weft::kernels::PreparedMatmul) {
    let w = world.topology().world_size();
    let (coll, elems) = if kernel == "ag_gemm" { ("allgather", shape.m.div_ceil(w) * shape.k) } else { ("reduce_scatter", shape.m * shape.n) };
    let gcx = weft::kernels::shape_constexprs("gemm", shape, w, dtype.name());
    let gemm = weft::kernels::prepare_matmul(world, "gemm", shape, dtype, &gcx).expect("gemm prepares");
    let ccx = weft::kernels::default_constexprs(coll, dtype.name()).expect("known");
    let comm = weft::kernels::prepare(world, coll, elems, dtype, &ccx).expect("collective prepares");
    (comm, gemm)
}

/// The median of `t`: the tuner's, so a bench row and a tuned time are the same statistic.
#[allow(dead_code)] // used by the interleaved benches only
pub fn median(t: Vec<f64>) -> f64 {
    weft::kernels::tune::measure::median(t)
}

/// The 1-minute load average, printed beside a row measured on a shared machine.
#[allow(dead_code)] // used by the interleaved benches only
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.split_whitespace().next().unwrap_or("?").to_string()).unwrap_or_else(|_| "?".into())
}

/// Milliseconds of one call of `f`.
#[allow(dead_code)] // used by the interleaved benches only
pub fn ms(f: &mut dyn FnMut()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

/// CPU seconds used so far by every thread of this process (user and system).
#[allow(dead_code)] // used by the benches with a CPU-time column only
pub fn process_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
