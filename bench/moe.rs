//! `cargo bench --bench moe`: the MoE kernels against their non-fused baselines in the same run,
//! on `local` at 2, 4 and 8 ranks and 2x2 nodes:
//! - `ep_dispatch` (LL words into the experts' ranks, no counts round trip) against
//!   `ep_dispatch_v` (counts exchange with put_signal, then AllToAllv with get: two launches);
//! - `ep_combine` (rows back as plain words, one LL count per block, weighted top-k sum in f32)
//!   against `ep_combine_v` (AllToAllv back with a put per row, then the weighted sum: two
//!   launches);
//! - `ag_moe` (AllGather of tokens fused with the grouped GEMM of the local experts) against
//!   `ag_moe_v` (AllGather, then the grouped GEMM), and `moe_rs` (grouped GEMM fused with the
//!   ReduceScatter of the top-k weighted outputs) against `moe_rs_v` (grouped GEMM, then each
//!   token's rows fetched with get and summed);
//! - `ep_dispatch_fp8` (the LL dispatch with an e4m3 payload, 128-element groups with f32
//!   scales, dequantized on arrival) against `ep_dispatch` in bf16.
//!
//! Shapes: the anchor (Triton-distributed and DeepEP's low-latency figures: 128 tokens per rank,
//! top-8, hidden 7168, FP8, 256 experts as DeepSeek-V3, whose experts are 7168 -> 2048 -> 7168)
//! scaled down so a 2-core CPU finishes in minutes: tokens and top-k kept, widths / 32 (hidden
//! 224, expert width 64), experts / 8 = 32 (so 2, 4 and 8 ranks split them evenly), bf16 for
//! FP8 (weft has no FP8 type). `ag_moe` is the up projection (k = 224, n = 64), `moe_rs` the
//! down projection (k = 64, n = 224). Uniform random routing, the same for every kernel.
//!
//! A 2-core machine shared with other work is noisy, so the kernels run interleaved, one launch
//! each per round, for `WEFT_MOE_ROUNDS` rounds (default 15); a time is the median over rounds,
//! the load average is printed beside each row. Writes `target/weft-bench/moe.md`.
//!
//! Filters: `WEFT_MOE_TOPOLOGIES` (comma-separated, as printed: `1x4,1x8`) and `WEFT_MOE_KERNELS`
//! (fused names: `ep_dispatch,ag_moe,ep_dispatch_fp8`; each runs with its baseline, and only the
//! chosen pairs get columns).
//! `WEFT_MOE_CPU=1` times each launch by the CPU time this process's threads spent in it
//! (from `/proc/self/task/*/schedstat`) instead of the wall clock: on a machine loaded by
//! others, wall time measures the scheduler's share as much as the kernel.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use weft::kernels::{moe_constexprs, moe_gemm_constexprs, prepare_moe, prepare_moe_gemm, MoeGemmShape, MoeShape, RoutingKind};
use weft::runtime::{DType, LocalOptions, Topology, World};

const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
const SHAPE: MoeShape = MoeShape { tokens: 128, hidden: 7168 / 32, topk: 8, experts: 256 / 8 };
const UP: MoeGemmShape = MoeGemmShape { tokens: 128, k: 7168 / 32, n: 2048 / 32, topk: 8, experts: 256 / 8 };
const DOWN: MoeGemmShape = MoeGemmShape { k: UP.n, n: UP.k, ..UP };
const DTYPE: DType = DType::BF16;
/// (baseline, fused, their column titles), pair by pair.
const PAIRS: [(&str, &str, &str); 5] = [
    ("ep_dispatch_v", "ep_dispatch", "counts + AllToAllv | ep_dispatch"),
    ("ep_combine_v", "ep_combine", "AllToAllv + sum | ep_combine"),
    ("ag_moe_v", "ag_moe", "AG + grouped GEMM | ag_moe"),
    ("moe_rs_v", "moe_rs", "grouped GEMM + RS | moe_rs"),
    ("ep_dispatch", "ep_dispatch_fp8", "ep_dispatch (bf16 payload) | ep_dispatch_fp8"),
];

/// `name` on `world`, seeded, launched once and checked; returns its launch.
fn prepared(world: &World, name: &str) -> Box<dyn FnMut()> {
    let what = format!("{name} {}", world.topology());
    let verified = |(ok, err): (bool, f64)| assert!(ok, "{what}: wrong result (max err {err})");
    if name.starts_with("ep_") {
        let mut p = prepare_moe(world, name, SHAPE, DTYPE, &moe_constexprs(SHAPE, DTYPE.name())).expect("prepares");
        p.seed(7, RoutingKind::Uniform).expect("seeds");
        p.launch().expect("launch");
        verified(p.verify().expect("verify"));
        return Box::new(move || drop(p.launch().expect("launch")));
    }
    let shape = if name.starts_with("ag_") { UP } else { DOWN };
    let mut p = prepare_moe_gemm(world, name, shape, DTYPE, &moe_gemm_constexprs(name, shape, world.n_ranks(), DTYPE.name())).expect("prepares");
    p.seed(7, RoutingKind::Uniform).expect("seeds");
    p.launch().expect("launch");
    verified(p.verify().expect("verify"));
    Box::new(move || drop(p.launch().expect("launch")))
}

/// The comma-separated entries of env var `var`, or `None` (everything) when unset or empty.
fn filter(var: &str) -> Option<Vec<String>> {
    let v = std::env::var(var).ok().filter(|v| !v.trim().is_empty())?;
    Some(v.split(',').map(|s| s.trim().to_string()).collect())
}

/// Nanoseconds every thread of this process has run on a CPU (0 where `/proc` has no schedstat).
fn cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    let run = |e: std::fs::DirEntry| std::fs::read_to_string(e.path().join("schedstat")).ok()?.split_whitespace().next()?.parse::<u64>().ok();
    tasks.flatten().filter_map(run).sum()
}

/// Milliseconds of one call of `f`: CPU time of this process's threads when `cpu`, else wall.
fn timed(f: &mut dyn FnMut(), cpu: bool) -> f64 {
    if !cpu {
        return support::ms(f);
    }
    let start = cpu_ns();
    f();
    cpu_ns().saturating_sub(start) as f64 / 1e6
}

fn main() {
    let cpu = std::env::var("WEFT_MOE_CPU").is_ok_and(|v| v == "1");
    let (topo_filter, kernel_filter) = (filter("WEFT_MOE_TOPOLOGIES"), filter("WEFT_MOE_KERNELS"));
    let rounds: usize = std::env::var("WEFT_MOE_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15).max(3);
    let MoeShape { tokens, hidden, topk, experts } = SHAPE;
    // A pair (baseline, fused) runs when its fused name passes the kernel filter.
    let pairs: Vec<_> = PAIRS.iter().filter(|p| kernel_filter.as_ref().is_none_or(|f| f.iter().any(|k| k == p.1))).collect();
    let titles: String = pairs.iter().map(|p| format!(" {} | speedup |", p.2)).collect();
    let mut table = format!(
        "MoE kernels, `local`, {DTYPE}, {tokens} tokens/rank x {hidden} hidden, top-{topk} of {experts} experts (ag_moe {}x{}, moe_rs {}x{} per expert), {rounds} interleaved rounds, median {} ms (speedup = baseline / fused)\n\n| topology |{titles} load |\n|---|{}---|\n",
        UP.k,
        UP.n,
        DOWN.k,
        DOWN.n,
        if cpu { "CPU" } else { "wall" },
        "---|---|---|".repeat(pairs.len())
    );
    for (i, &(nodes, local)) in TOPOLOGIES.iter().enumerate() {
        let topology = Topology { nodes, local_size: local };
        if topo_filter.as_ref().is_some_and(|f| !f.contains(&topology.to_string())) {
            continue;
        }
        let world = World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).expect("world");
        eprintln!("[{}/{}] {topology}", i + 1, TOPOLOGIES.len());
        let mut launches: Vec<Box<dyn FnMut()>> = pairs.iter().flat_map(|p| [p.0, p.1]).map(|name| prepared(&world, name)).collect();
        let mut times = vec![vec![]; launches.len()];
        for _ in 0..rounds {
            for (launch, t) in launches.iter_mut().zip(&mut times) {
                t.push(timed(&mut **launch, cpu));
            }
        }
        let mut line = format!("| {topology} |");
        for pair in times.chunks(2) {
            let (base, fused) = (support::median(pair[0].clone()), support::median(pair[1].clone()));
            let _ = write!(line, " {base:.3} | {fused:.3} | {:.2}x |", base / fused);
        }
        let _ = write!(line, " {} |", support::load());
        eprintln!("{line}");
        let _ = writeln!(table, "{line}");
    }
    support::write_summary("moe.md", &table);
}
