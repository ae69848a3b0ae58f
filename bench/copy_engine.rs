//! `cargo bench --bench copy_engine`: where the copy engine wins over communication issued by
//! program instances, on `local`, in one run.
//!
//! A GPU's copy engines sit beside the SMs: a kernel that fills every SM with GEMM tiles loses
//! none of them to `ag_gemm_ce`'s gather, while `ag_gemm`'s comm programs take SMs from the
//! tiles. On `local` the kernel's instances run on `WEFT_WORKERS` threads and the copy engine
//! on a transfer thread per rank, so the same question has two answers, both measured here:
//! - **workers = cores**: the transfer threads take cores the kernel's workers use (a GPU whose
//!   DMA engines share the SMs' time, which none does);
//! - **workers = cores - 1**: the kernel fills the cores it has and the spare one is the copy
//!   engine's, as on a GPU.
//!
//! Rows: `ag_gemm` against `ag_gemm_ce` push and pull, and `gemm_rs` against `gemm_rs_ce`, with
//! the non-overlapped baseline (collective then GEMM, or GEMM then collective), at 1x2, 1x4,
//! 1x8 and 2x2, on a comm-light shape (the overlap bench's first LLaMA shape, 256x344x128) and a
//! comm-heavy one (AG-GEMM 1024x64x1024: a 2 MiB gather against a thin GEMM; GEMM-RS
//! 512x512x32: 1 MiB of f32 partials per rank against a short K). Everything of one row set
//! runs interleaved, one launch each per round, `WEFT_CE_ROUNDS` rounds (default 9); times are
//! medians; the load average is printed beside each row. Writes `target/weft-bench/copy_engine.md`.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use support::{load, median, ms};
use weft::kernels::{prepare_matmul, shape_constexprs, MatmulShape, PreparedMatmul};
use weft::runtime::{DType, LocalOptions, Topology, World};

const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
const DTYPE: DType = DType::BF16;

/// (family, shape label, M, N, K) with K per rank for `gemm_rs`.
const SHAPES: [(&str, &str, usize, usize, usize); 4] = [
    ("ag_gemm", "comm-light", 256, 344, 128),
    ("ag_gemm", "comm-heavy", 1024, 64, 1024),
    ("gemm_rs", "comm-light", 256, 344, 128),
    ("gemm_rs", "comm-heavy", 512, 512, 32),
];

/// The variants timed against each other: (kernel, label, extra constexprs).
fn variants(family: &str) -> &'static [(&'static str, &'static str, &'static [(&'static str, &'static str)])] {
    if family == "ag_gemm" {
        &[("ag_gemm", "program instances", &[]), ("ag_gemm_ce", "copy engine push", &[]), ("ag_gemm_ce", "copy engine pull", &[("CE_PULL", "1")])]
    } else {
        &[("gemm_rs", "program instances", &[]), ("gemm_rs_ce", "copy engine", &[])]
    }
}

fn main() {
    let rounds: usize = std::env::var("WEFT_CE_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(9).max(3);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mut table = format!(
        "Copy engine against program-instance communication, `local`, bf16, {rounds} interleaved rounds, median ms, {cores} cores\n\n\
         | workers | kernel | topology | shape | M x N x K | comm ms | gemm ms | baseline ms | fused ms | vs baseline | vs program instances | load |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let worker_counts: Vec<usize> = if cores > 1 { vec![cores, cores - 1] } else { vec![1] };
    let total = worker_counts.len() * TOPOLOGIES.len() * SHAPES.len();
    let mut done = 0;
    for &workers in &worker_counts {
        for (nodes, local) in TOPOLOGIES {
            let topology = Topology { nodes, local_size: local };
            let world = World::local_with(LocalOptions { topology, workers, ..LocalOptions::from_env() }).expect("world");
            for &(family, label, m, n, k) in &SHAPES {
                done += 1;
                let shape = MatmulShape { m, n, k };
                eprintln!("[{done}/{total}] workers {workers} {family} {topology} {label} {m}x{n}x{k}");
                let (mut comm, mut gemm) = support::baseline_parts(&world, family, shape, DTYPE);
                let vs = variants(family);
                let mut fused: Vec<PreparedMatmul> = vs.iter().map(|v| prepared(&world, v, shape, topology)).collect();
                let mut t = vec![vec![]; 3 + fused.len()];
                for _ in 0..rounds {
                    t[0].push(ms(&mut || comm.launch().map(drop).expect("launch")));
                    t[1].push(ms(&mut || gemm.launch().map(drop).expect("launch")));
                    t[2].push(ms(&mut || support::launch_baseline(family, &mut comm, &mut gemm)));
                    for (i, f) in fused.iter_mut().enumerate() {
                        t[3 + i].push(ms(&mut || f.launch().map(drop).expect("launch")));
                    }
                }
                let med: Vec<f64> = t.into_iter().map(median).collect();
                for (i, (_, what, _)) in vs.iter().enumerate() {
                    let line = format!(
                        "| {workers} | {family} {what} | {topology} | {label} | {m}x{n}x{k} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2}x | {:.2}x | {} |",
                        med[0],
                        med[1],
                        med[2],
                        med[3 + i],
                        med[2] / med[3 + i],
                        med[3] / med[3 + i],
                        load()
                    );
                    eprintln!("{line}");
                    let _ = writeln!(table, "{line}");
                }
            }
        }
    }
    support::write_summary("copy_engine.md", &table);
}

/// `variant` prepared for `shape`, launched once and checked against the reference.
fn prepared(world: &World, variant: &(&str, &str, &[(&str, &str)]), shape: MatmulShape, topology: Topology) -> PreparedMatmul {
    let (kernel, what, defines) = *variant;
    let mut cx = shape_constexprs(kernel, shape, topology.world_size(), DTYPE.name());
    for (key, value) in defines {
        cx.set(key, value);
    }
    let mut p = prepare_matmul(world, kernel, shape, DTYPE, &cx).expect("prepares");
    p.launch().expect("launch");
    let (ok, err) = p.verify().expect("verify");
    assert!(ok, "{kernel} ({what}) {topology} {shape:?}: wrong result (max err {err})");
    p
}
