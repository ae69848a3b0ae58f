//! Synthesized AllReduce algorithms against the built-in hierarchical AllReduce on a 2x4
//! hierarchical topology (intra-node links 4x the inter-node ones), on the `local` transport,
//! in the same run: the least-steps algorithm and two instances with more chunks per slice
//! (fewer rounds per chunk, more pipelining), all verified against plain math first, then
//! launched interleaved (the order rotates every round, so load changes on this shared
//! machine hit all alike) and compared by median. Writes `target/weft-bench/msccl_synth.md`,
//! with the load average before and after each size.
//!
//! `cargo bench --bench msccl_synth` (WEFT_BENCH_ITERS sets the rounds, default 31).

#[allow(dead_code)] // write_summary, median and load are used here
#[path = "support.rs"]
mod support;

use support::{load, median};
use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::synth::{self, SynthCollective, Synthesized, Topology as SynthTopology};
use weft::compiler::msccl::MscclIr;
use weft::kernels::msccl::{prepare_msccl, MscclOptions, PreparedMsccl};
use weft::runtime::{LocalOptions, Topology, World};

/// Bytes per rank (f32): 4 KiB to 2 MiB.
const SIZES: [usize; 6] = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20];

/// Instances beyond least-steps (steps, rounds, chunks per slice of each AllReduce half):
/// points of the 2x4 Pareto frontier with 3/2 and 5/4 rounds per chunk.
const INSTANCES: [(usize, u32, usize); 2] = [(2, 3, 2), (2, 5, 4)];

fn prepared(world: &World, ir: &MscclIr, elems: usize) -> PreparedMsccl {
    let mut p = prepare_msccl(world, ir, elems, &MscclOptions::default()).expect("prepares");
    let (ok, err) = p.verify_after_launch(7).expect("runs");
    assert!(ok, "{}: wrong result (max err {err})", ir.name);
    p
}

fn ms(p: &mut PreparedMsccl) -> f64 {
    p.launch().expect("launches").elapsed.as_secs_f64() * 1e3
}

/// The synthesized algorithms with the seconds each took to synthesize.
fn synthesized(topo: &SynthTopology) -> Vec<(Synthesized, f64)> {
    let mut log = |l: String| eprintln!("{l}");
    let timed = |f: &mut dyn FnMut() -> Synthesized| {
        let start = std::time::Instant::now();
        let s = f();
        (s, start.elapsed().as_secs_f64())
    };
    let mut out = vec![timed(&mut || synth::least_steps(topo, SynthCollective::AllReduce, synth::DEFAULT_BUDGET, &mut log).expect("synthesizes"))];
    for (steps, rounds, chunks) in INSTANCES {
        out.push(timed(&mut || synth::instance(topo, SynthCollective::AllReduce, steps, rounds, chunks, synth::DEFAULT_BUDGET).expect("solves").expect("satisfiable")));
    }
    out
}

fn main() {
    let rounds: usize = std::env::var("WEFT_BENCH_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(31);
    let topo = SynthTopology::hierarchical(2, 4, 4, 1).expect("topology");
    let mut algos: Vec<(String, MscclIr)> = vec![];
    let mut header = String::new();
    let shape = |ir: &MscclIr| {
        let tbs: usize = ir.gpus.iter().map(|g| g.tbs.len()).sum();
        let steps: usize = ir.gpus.iter().flat_map(|g| &g.tbs).map(|t| t.steps.len()).sum();
        format!("{} chunks/rank, {tbs} thread blocks, {steps} steps", ir.nchunksperloop)
    };
    for (i, (s, took)) in synthesized(&topo).into_iter().enumerate() {
        let ir = s.to_ir().expect("schedules");
        header += &format!("- S{i}: {} ({took:.3}s to synthesize; {})\n", s.name, shape(&ir));
        algos.push((format!("S{i}"), ir));
    }
    let builtin = algorithms::build("hierarchical_allreduce", &AlgoParams::topology(2, 4)).expect("builds").to_ir().expect("schedules");
    header += &format!("- built-in: hierarchical_allreduce ({})\n", shape(&builtin));
    algos.push(("built-in".into(), builtin));
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 2, local_size: 4 }, ..LocalOptions::from_env() }).expect("world");
    let names: Vec<&str> = algos.iter().map(|(n, _)| n.as_str()).collect();
    let mut table = format!(
        "Synthesized AllReduce vs the built-in hierarchical AllReduce, 2x4 `local`, f32, {rounds} interleaved rounds, median ms (min in parentheses)\n\n{header}\n| bytes/rank | {} | built-in / best synthesized (median) | load before / after |\n|---|{}---|---|\n",
        names.join(" | "),
        "---|".repeat(names.len())
    );
    for bytes in SIZES {
        let (elems, before) = (bytes / 4, load());
        let mut prepared: Vec<PreparedMsccl> = algos.iter().map(|(_, ir)| prepared(&world, ir, elems)).collect();
        let mut times = vec![vec![]; prepared.len()];
        for round in 0..rounds {
            for k in 0..prepared.len() {
                let a = (k + round) % prepared.len();
                times[a].push(ms(&mut prepared[a]));
            }
        }
        let mins: Vec<f64> = times.iter().map(|t| t.iter().copied().fold(f64::INFINITY, f64::min)).collect();
        let medians: Vec<f64> = times.into_iter().map(median).collect();
        let cells: Vec<String> = medians.iter().zip(&mins).map(|(m, n)| format!("{m:.3} ({n:.3})")).collect();
        let best = medians[..medians.len() - 1].iter().copied().fold(f64::INFINITY, f64::min);
        table += &format!("| {bytes} | {} | {:.2} | {before} / {} |\n", cells.join(" | "), medians[medians.len() - 1] / best, load());
    }
    support::write_summary("msccl_synth.md", &table);
}
