//! Synthesized AllReduce against the built-in hierarchical AllReduce on a 2x4 hierarchical
//! topology, on the `local` transport, in the same run: both are verified against plain math
//! first, then launched interleaved (the order flips every round, so load changes on this
//! shared machine hit both alike) and compared by median. Writes
//! `target/weft-bench/msccl_synth.md`, with the load average before and after each size.
//!
//! `cargo bench --bench msccl_synth` (WEFT_BENCH_ITERS sets the rounds, default 31).

#[allow(dead_code)] // only write_summary is used here
#[path = "support.rs"]
mod support;

use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::synth::{self, SynthCollective, Topology as SynthTopology};
use weft::compiler::msccl::MscclIr;
use weft::kernels::msccl::{prepare_msccl, MscclOptions, PreparedMsccl};
use weft::runtime::{LocalOptions, Topology, World};

/// Bytes per rank (f32): 4 KiB to 2 MiB.
const SIZES: [usize; 6] = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20];

fn prepared(world: &World, ir: &MscclIr, elems: usize) -> PreparedMsccl {
    let mut p = prepare_msccl(world, ir, elems, &MscclOptions::default()).expect("prepares");
    let (ok, err) = p.verify_after_launch(7).expect("runs");
    assert!(ok, "{}: wrong result (max err {err})", ir.name);
    p
}

fn ms(p: &mut PreparedMsccl) -> f64 {
    p.launch().expect("launches").elapsed.as_secs_f64() * 1e3
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().next().unwrap_or("?").to_string()
}

fn main() {
    let rounds: usize = std::env::var("WEFT_BENCH_ITERS").ok().and_then(|s| s.parse().ok()).unwrap_or(31);
    let topo = SynthTopology::hierarchical(2, 4, 4, 1).expect("topology");
    let start = std::time::Instant::now();
    let synth = synth::least_steps(&topo, SynthCollective::AllReduce, synth::DEFAULT_BUDGET, &mut |l| eprintln!("{l}")).expect("synthesizes");
    let took = start.elapsed().as_secs_f64();
    let synth_ir = synth.to_ir().expect("schedules");
    let builtin = algorithms::build("hierarchical_allreduce", &AlgoParams::topology(2, 4)).expect("builds").to_ir().expect("schedules");
    let shape = |ir: &MscclIr| {
        let tbs: usize = ir.gpus.iter().map(|g| g.tbs.len()).sum();
        let steps: usize = ir.gpus.iter().flat_map(|g| &g.tbs).map(|t| t.steps.len()).sum();
        format!("{} chunks/rank, {tbs} thread blocks, {steps} steps", ir.nchunksperloop)
    };
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 2, local_size: 4 }, ..LocalOptions::from_env() }).expect("world");
    let mut table = format!(
        "Synthesized {} ({:.3}s to synthesize; {}) vs built-in hierarchical_allreduce ({}), 2x4 `local`, f32, {rounds} interleaved rounds, median and min ms\n\n| elems/rank | synthesized median | built-in median | synthesized min | built-in min | built-in / synthesized (median) | load before / after |\n|---|---|---|---|---|---|---|\n",
        synth.name,
        took,
        shape(&synth_ir),
        shape(&builtin)
    );
    for bytes in SIZES {
        let elems = bytes / 4;
        let before = load();
        let (mut s, mut b) = (prepared(&world, &synth_ir, elems), prepared(&world, &builtin, elems));
        let (mut ts, mut tb) = (vec![], vec![]);
        for round in 0..rounds {
            if round % 2 == 0 {
                ts.push(ms(&mut s));
                tb.push(ms(&mut b));
            } else {
                tb.push(ms(&mut b));
                ts.push(ms(&mut s));
            }
        }
        let min = |t: &[f64]| t.iter().copied().fold(f64::INFINITY, f64::min);
        let (ms_, mb_) = (min(&ts), min(&tb));
        let (s_med, b_med) = (median(ts), median(tb));
        table += &format!("| {elems} | {s_med:.3} | {b_med:.3} | {ms_:.3} | {mb_:.3} | {:.2} | {before} / {} |\n", b_med / s_med, load());
    }
    support::write_summary("msccl_synth.md", &table);
}
