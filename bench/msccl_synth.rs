//! Synthesized AllReduce against the built-in hierarchical AllReduce on a 2x4 hierarchical
//! topology, on the `local` transport, in the same run: both are verified against plain math
//! first, then timed alternately. Writes `target/weft-bench/msccl_synth.md`.
//!
//! `cargo bench --bench msccl_synth` (WEFT_BENCH_ITERS sets the timed launches, default 9).

#[allow(dead_code)] // only write_summary is used here
#[path = "support.rs"]
mod support;

use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::synth::{self, SynthCollective, Topology as SynthTopology};
use weft::compiler::msccl::MscclIr;
use weft::kernels::msccl::{run_msccl, MscclOptions};
use weft::runtime::{LocalOptions, Topology, World};

const SIZES: [usize; 3] = [1 << 14, 1 << 18, 1 << 21];

fn median_ms(world: &World, ir: &MscclIr, elems: usize, iters: usize) -> f64 {
    let r = run_msccl(world, ir, elems, &MscclOptions::default(), iters).expect("runs");
    assert!(r.verified, "{}: wrong result (max err {})", ir.name, r.max_err);
    let mut t: Vec<f64> = r.times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let iters: usize = std::env::var("WEFT_BENCH_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(9);
    let topo = SynthTopology::hierarchical(2, 4, 4, 1).expect("topology");
    let start = std::time::Instant::now();
    let synth = synth::least_steps(&topo, SynthCollective::AllReduce, synth::DEFAULT_BUDGET, &mut |l| eprintln!("{l}")).expect("synthesizes");
    let took = start.elapsed().as_secs_f64();
    let synth_ir = synth.to_ir().expect("schedules");
    let builtin = algorithms::build("hierarchical_allreduce", &AlgoParams::topology(2, 4)).expect("builds").to_ir().expect("schedules");
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 2, local_size: 4 }, ..LocalOptions::from_env() }).expect("world");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut table = format!(
        "Synthesized ({}, {:.3}s to synthesize) vs built-in hierarchical_allreduce, 2x4 `local`, f32, median of {iters}; load {}\n\n| elems/rank | synthesized ms | built-in ms | built-in / synthesized |\n|---|---|---|---|\n",
        synth.name,
        took,
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    for elems in SIZES {
        let s = median_ms(&world, &synth_ir, elems, iters);
        let b = median_ms(&world, &builtin, elems, iters);
        table += &format!("| {elems} | {s:.3} | {b:.3} | {:.2} |\n", b / s);
    }
    support::write_summary("msccl_synth.md", &table);
}
