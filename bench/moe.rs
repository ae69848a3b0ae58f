//! `cargo bench --bench moe`: the low-latency expert-parallel AllToAll against its
//! non-fused baseline in the same run, on `local` at 2, 4 and 8 ranks and 2x2 nodes:
//! - `ep_dispatch` (LL words into the experts' ranks, no counts round trip) against
//!   `ep_dispatch_v` (counts exchange with put_signal, then AllToAllv with get: two launches);
//! - `ep_combine` (LL words back, weighted top-k sum in f32), timed beside them.
//!
//! Shape: the anchor (Triton-distributed and DeepEP's low-latency figures: 128 tokens per rank,
//! top-8, hidden 7168, FP8, 256 experts as DeepSeek-V3) scaled down so a 2-core CPU finishes
//! in minutes: tokens and top-k kept, hidden / 32 = 224, experts / 8 = 32 (so 2, 4 and 8 ranks
//! split them evenly), bf16 for FP8 (weft has no FP8 type): 448 bytes a token. Uniform random
//! routing, the same for every kernel.
//!
//! A 2-core machine shared with other work is noisy, so the kernels run interleaved, one launch
//! each per round, for `WEFT_MOE_ROUNDS` rounds (default 15); a time is the median over rounds,
//! the load average is printed beside each row. Writes `target/weft-bench/moe.md`.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use weft::kernels::{moe_constexprs, prepare_moe, MoeShape, PreparedMoe, RoutingKind};
use weft::runtime::{DType, LocalOptions, Topology, World};

const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
const SHAPE: MoeShape = MoeShape { tokens: 128, hidden: 7168 / 32, topk: 8, experts: 256 / 8 };
const DTYPE: DType = DType::BF16;
const KERNELS: [&str; 3] = ["ep_dispatch_v", "ep_dispatch", "ep_combine"];

/// `name` on `world`, launched once and checked.
fn prepared(world: &World, name: &str) -> PreparedMoe {
    let mut p = prepare_moe(world, name, SHAPE, DTYPE, &moe_constexprs(SHAPE, DTYPE.name())).expect("prepares");
    p.seed(7, RoutingKind::Uniform).expect("seeds");
    p.launch().expect("launch");
    let (ok, err) = p.verify().expect("verify");
    assert!(ok, "{name} {}: wrong result (max err {err})", world.topology());
    p
}

fn main() {
    let rounds: usize = std::env::var("WEFT_MOE_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15).max(3);
    let MoeShape { tokens, hidden, topk, experts } = SHAPE;
    let mut table = format!(
        "Expert-parallel AllToAll, `local`, {DTYPE}, {tokens} tokens/rank x {hidden} hidden, top-{topk} of {experts} experts, {rounds} interleaved rounds, median ms\n\n| topology | counts + AllToAllv ms | ep_dispatch ms | dispatch speedup | ep_combine ms | load |\n|---|---|---|---|---|---|\n"
    );
    for (i, &(nodes, local)) in TOPOLOGIES.iter().enumerate() {
        let topology = Topology { nodes, local_size: local };
        let world = World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).expect("world");
        eprintln!("[{}/{}] {topology}", i + 1, TOPOLOGIES.len());
        let mut kernels: Vec<PreparedMoe> = KERNELS.iter().map(|name| prepared(&world, name)).collect();
        let mut times = vec![vec![]; kernels.len()];
        for _ in 0..rounds {
            for (p, t) in kernels.iter_mut().zip(&mut times) {
                t.push(support::ms(&mut || {
                    p.launch().expect("launch");
                }));
            }
        }
        let [base, fused, combine] = [0, 1, 2].map(|k| support::median(times[k].clone()));
        let line = format!("| {topology} | {base:.3} | {fused:.3} | {:.2}x | {combine:.3} | {} |", base / fused, support::load());
        eprintln!("{line}");
        let _ = writeln!(table, "{line}");
    }
    support::write_summary("moe.md", &table);
}
