//! `cargo bench --bench gemm`: weft's tile GEMM (`gemm` kernel on one rank, one worker thread)
//! next to OpenBLAS `cblas_sgemm` pinned to one thread, f32, in the same run. The goal is at
//! least half of OpenBLAS at 1024^3. Writes `target/weft-bench/gemm.md`.

#[path = "support.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write as _;
use std::time::Duration;
use weft::kernels::{matmul_constexprs, prepare_matmul, MatmulShape};
use weft::runtime::{DType, LocalOptions, World};

#[link(name = "openblas")]
unsafe extern "C" {
    fn openblas_set_num_threads(n: i32);
    #[allow(clippy::too_many_arguments)]
    fn cblas_sgemm(
        order: i32,
        ta: i32,
        tb: i32,
        m: i32,
        n: i32,
        k: i32,
        alpha: f32,
        a: *const f32,
        lda: i32,
        b: *const f32,
        ldb: i32,
        beta: f32,
        c: *mut f32,
        ldc: i32,
    );
}

const ROW_MAJOR: i32 = 101;
const NO_TRANS: i32 = 111;
const SIZES: [usize; 3] = [256, 512, 1024];

fn bench(c: &mut Criterion) {
    let world = World::local_with(LocalOptions { workers: 1, ..LocalOptions::default() }).expect("world");
    // SAFETY: plain FFI call that sets a global.
    unsafe { openblas_set_num_threads(1) };
    let mut summary = String::from("| size | weft GFLOP/s | OpenBLAS GFLOP/s | weft / OpenBLAS |\n|---|---|---|---|\n");
    let mut group = c.benchmark_group("sgemm");
    group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for (i, s) in SIZES.into_iter().enumerate() {
        eprintln!("[{}/{}] sgemm {s}^3", i + 1, SIZES.len());
        let shape = MatmulShape { m: s, n: s, k: s };
        let mut p = prepare_matmul(&world, "gemm", shape, DType::F32, &matmul_constexprs("f32")).expect("prepares");
        p.launch().expect("launch");
        assert!(p.verify().expect("verify").0, "weft gemm {s}^3 is wrong");
        let flops = 2.0 * (s * s * s) as f64;
        group.throughput(Throughput::Elements(flops as u64));
        let id = format!("{s}");
        let t_weft = support::timed(&mut group, "weft", &id, || {
            p.launch().expect("launch");
        });
        let (a, b, mut out) = (vec![0.5f32; s * s], vec![0.25f32; s * s], vec![0f32; s * s]);
        let n = s as i32;
        let t_blas = support::timed(&mut group, "openblas", &id, || {
            // SAFETY: the buffers hold s*s f32 each, as the dimensions say.
            unsafe { cblas_sgemm(ROW_MAJOR, NO_TRANS, NO_TRANS, n, n, n, 1.0, a.as_ptr(), n, b.as_ptr(), n, 0.0, out.as_mut_ptr(), n) };
        });
        let gf = |t: Duration| flops / t.as_secs_f64() / 1e9;
        let line = format!("| {s}^3 | {:.1} | {:.1} | {:.0}% |", gf(t_weft), gf(t_blas), 100.0 * gf(t_weft) / gf(t_blas));
        eprintln!("{line}");
        let _ = writeln!(summary, "{line}");
    }
    group.finish();
    support::write_summary("gemm.md", &summary);
}

criterion_group!(benches, bench);
criterion_main!(benches);
