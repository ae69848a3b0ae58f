//! `cargo bench --bench overlap`: AG-GEMM and GEMM-RS against the non-overlapped baseline (the
//! library's AllGather / ReduceScatter kernel and the GEMM kernel, launched one after the
//! other) in the same run, on the `local` transport at 2, 4 and 8 ranks on one node and on a
//! 2x2 node topology.
//!
//! Shapes are the LLaMA layer shapes (N, K) = (11008, 4096), (14336, 4096), (28672, 8192) with
//! M = 8192, each dimension divided by 32 (so (344, 128), (448, 128), (896, 256), M = 256) so
//! a 2-core CPU finishes the whole bench in minutes. bf16 in, f32 accumulation.
//!
//! Beside each fused kernel, its copy-engine variants in the same run: `ag_gemm_ce` (push and
//! pull gathers) and `gemm_rs_ce` (scatter on the copy engine), and AG-GEMM in AMD's swizzle
//! order (`SWIZZLE=1`) and the producer-scatter GEMM-RS (`gemm_rs_ps`, one node), each its
//! own row against the same baseline. `WEFT_OVERLAP_SHAPES=n` keeps the first `n` shapes (default all 3);
//! `WEFT_OVERLAP_KERNELS=ag_gemm` (or `gemm_rs`) keeps one family. `WEFT_WORKERS=1` leaves the
//! second core of a 2-core machine to the copy engine, as a GPU's DMA engines sit beside SMs the
//! kernel fills.
//!
//! Reports speedup = baseline / fused and overlap efficiency =
//! (t_comm + t_gemm - t_fused) / min(t_comm, t_gemm) (a dash where the shorter phase is under 5%
//! of the longer), and writes the table to
//! `target/weft-bench/overlap.md`; criterion's plots land in `target/criterion/`.

#[path = "support.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion};
use std::fmt::Write as _;
use std::time::Duration;
use weft::kernels::{prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::{DType, LocalOptions, Topology, World};

const SCALE: usize = 32;
const LLAMA_NK: [(usize, usize); 3] = [(11008, 4096), (14336, 4096), (28672, 8192)];
const LLAMA_M: usize = 8192;
const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
const DTYPE: DType = DType::BF16;

/// The fused variants of each overlap kernel: (kernel, row label, extra constexprs).
const VARIANTS: [(&str, &str, &[(&str, &str)]); 8] = [
    ("ag_gemm", "ag_gemm", &[]),
    ("ag_gemm", "ag_gemm amd swizzle", &[("SWIZZLE", "1")]),
    ("ag_gemm_ce", "ag_gemm_ce push amd swizzle", &[("SWIZZLE", "1")]),
    ("ag_gemm_ce", "ag_gemm_ce push", &[]),
    ("ag_gemm_ce", "ag_gemm_ce pull", &[("CE_PULL", "1")]),
    ("gemm_rs", "gemm_rs", &[]),
    ("gemm_rs_ce", "gemm_rs_ce", &[]),
    ("gemm_rs_ps", "gemm_rs_ps producer-scatter", &[]),
];

fn bench(c: &mut Criterion) {
    // The kernel's instances run on `workers` threads; the copy engine's transfer threads run
    // beside them. With fewer workers than cores (`WEFT_WORKERS=1` on two), the spare core is
    // the GPU's copy engine beside SMs the kernel fills: what the `_ce` rows are for.
    let workers = LocalOptions::from_env().workers;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mut summary = format!(
        "Kernel workers: {workers} of {cores} cores (`WEFT_WORKERS`).\n\n| kernel | topology | M x N x K | comm ms | gemm ms | baseline ms | fused ms | speedup | overlap eff. |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    let shapes = std::env::var("WEFT_OVERLAP_SHAPES").ok().and_then(|v| v.parse().ok()).unwrap_or(LLAMA_NK.len()).min(LLAMA_NK.len());
    let mut done = 0;
    let only = std::env::var("WEFT_OVERLAP_KERNELS").ok();
    let kernels: Vec<&str> = ["ag_gemm", "gemm_rs"].into_iter().filter(|k| only.as_deref().is_none_or(|o| o == *k)).collect();
    let total = kernels.len() * TOPOLOGIES.len() * shapes;
    for kernel in kernels {
        let mut group = c.benchmark_group(kernel);
        group.sample_size(10).warm_up_time(Duration::from_millis(200)).measurement_time(Duration::from_secs(1));
        for (nodes, local) in TOPOLOGIES {
            let topology = Topology { nodes, local_size: local };
            let world = World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).expect("world");
            let w = topology.world_size();
            for &(n, k) in &LLAMA_NK[..shapes] {
                done += 1;
                let shape = MatmulShape { m: LLAMA_M / SCALE, n: n / SCALE, k: k / SCALE };
                eprintln!("[{done}/{total}] {kernel} {topology} {shape:?}");
                let (mut comm, mut gemm) = support::baseline_parts(&world, kernel, shape, DTYPE);
                let coll = if kernel == "ag_gemm" { "allgather" } else { "reduce_scatter" };
                let id = format!("{topology}/{}x{}x{}", shape.m, shape.n, shape.k);
                let t_comm = support::timed(&mut group, coll, &id, || {
                    comm.launch().expect("launch");
                });
                let t_gemm = support::timed(&mut group, "gemm", &id, || {
                    gemm.launch().expect("launch");
                });
                let t_base = support::timed(&mut group, "baseline", &id, || support::launch_baseline(kernel, &mut comm, &mut gemm));
                let ms = |t: Duration| t.as_secs_f64() * 1e3;
                // The producer-scatter GEMM-RS stores to its owners directly: one node only.
                let fits = |name: &str| nodes == 1 || !name.ends_with("_ps");
                for (name, label, defines) in VARIANTS.iter().filter(|v| v.0.starts_with(kernel) && fits(v.0)) {
                    let mut cx = shape_constexprs(name, shape, w, DTYPE.name());
                    for (key, value) in defines.iter() {
                        cx.set(key, value);
                    }
                    let mut fused = prepare_matmul(&world, name, shape, DTYPE, &cx).expect("prepares");
                    fused.launch().expect("launch");
                    let (ok, err) = fused.verify().expect("verify");
                    assert!(ok, "{label} {topology} {shape:?}: wrong result (max err {err})");
                    let t_fused = support::timed(&mut group, &label.replace(' ', "_"), &id, || {
                        fused.launch().expect("launch");
                    });
                    let speedup = t_base.as_secs_f64() / t_fused.as_secs_f64();
                    let line = format!(
                        "| {label} | {topology} | {}x{}x{} | {:.3} | {:.3} | {:.3} | {:.3} | {speedup:.2}x | {} |",
                        shape.m,
                        shape.n,
                        shape.k,
                        ms(t_comm),
                        ms(t_gemm),
                        ms(t_base),
                        ms(t_fused),
                        overlap_efficiency(ms(t_comm), ms(t_gemm), ms(t_fused))
                    );
                    eprintln!("{line}");
                    let _ = writeln!(summary, "{line}");
                }
            }
        }
        group.finish();
    }
    support::write_summary("overlap.md", &summary);
}

/// (t_comm + t_gemm - t_fused) / min(t_comm, t_gemm) as a percentage, or "–" where the shorter
/// phase is under 5% of the longer: there is then nothing worth hiding, and the ratio only
/// magnifies noise in the longer phase (it printed -9000% on comm-light shapes).
fn overlap_efficiency(comm: f64, gemm: f64, fused: f64) -> String {
    let (short, long) = (comm.min(gemm), comm.max(gemm));
    if short < 0.05 * long {
        return "–".into();
    }
    format!("{:.0}%", (comm + gemm - fused) / short * 100.0)
}

criterion_group!(benches, bench);
criterion_main!(benches);
