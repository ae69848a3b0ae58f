//! `cargo bench --bench alternate`: a reproduction harness for launch times that depend on what
//! else ran in the process (the tune bench timed `allreduce_ring CHUNK=65536` at 3x the two-shot
//! at 256 KiB on 1x4 where fresh `weft run`s put it ahead). Prepares every config of
//! `WEFT_ALT_CONFIGS` (`;`-separated tuner ids, default: that ring and the two-shot) on one
//! `local` world, then alternates timed loops of them (`WEFT_ALT_REPS` launches each,
//! default 75) for `WEFT_ALT_ROUNDS` rounds (default 10). Prints each loop's mean, each config's per-launch quantiles, and its
//! voluntary context switches per launch (how often a worker parked), with the 1-minute load.
//! `WEFT_ALT_OP` (default `allreduce`), `WEFT_ALT_ELEMS` (per rank, default 65536 = 256 KiB of
//! f32) or `WEFT_ALT_MNK` (`MxNxK`: a GEMM-family op in bf16, as the overlap bench runs it),
//! `WEFT_ALT_RANKS` (default 4) and `WEFT_ALT_NODES` (default 1) set the problem; the `local` transport's own
//! variables (`WEFT_WORKERS`, `WEFT_LINGER_US`, `WEFT_IDLE`, `WEFT_CLAIM`) apply for A/B.

#[path = "support.rs"]
#[allow(dead_code)]
mod support;

use std::time::Instant;
use support::load;
use weft::kernels::tune::measure::Runner;
use weft::kernels::tune::{Config, Problem, Shape};
use weft::kernels::MatmulShape;
use weft::runtime::{DType, LocalOptions, Topology, World};

/// Launches per timed loop unless `WEFT_ALT_REPS` says otherwise.
const REPS: usize = 75;

fn main() {
    if let Err(e) = run() {
        eprintln!("alternate: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let num = |k: &str, d: usize| var(k, &d.to_string()).trim().parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| format!("{k} must be a positive count"));
    let (elems, ranks, rounds, reps) = (num("WEFT_ALT_ELEMS", 65536)?, num("WEFT_ALT_RANKS", 4)?, num("WEFT_ALT_ROUNDS", 10)?, num("WEFT_ALT_REPS", REPS)?);
    let ids: Vec<String> = var("WEFT_ALT_CONFIGS", "allreduce_ring BLOCK=64 CHUNK=65536;allreduce_two_shot BLOCK=64").split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let configs: Vec<Config> = ids.iter().map(|id| Config::parse(id).ok_or_else(|| format!("`{id}` is not a config id"))).collect::<Result<_, _>>()?;
    let nodes = num("WEFT_ALT_NODES", 1)?;
    if ranks % nodes != 0 {
        return Err(format!("WEFT_ALT_RANKS ({ranks}) must split evenly over WEFT_ALT_NODES ({nodes})"));
    }
    let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: ranks / nodes }, ..LocalOptions::from_env() }).map_err(|e| e.to_string())?;
    let (shape, dtype) = match std::env::var("WEFT_ALT_MNK") {
        Ok(mnk) => (Shape::Matmul(matmul_shape(&mnk)?), DType::BF16),
        Err(_) => (Shape::Elems(elems), DType::F32),
    };
    let problem = Problem { op: var("WEFT_ALT_OP", "allreduce"), shape, dtype };
    let mut runners = Vec::with_capacity(configs.len());
    for (id, c) in ids.iter().zip(&configs) {
        let mut r = Runner::prepare(&world, &problem, c).map_err(|e| format!("{id}: {e}"))?;
        if !r.verify().map_err(|e| format!("{id}: {e}"))?.0 {
            return Err(format!("{id}: wrong result"));
        }
        runners.push(r);
    }
    println!("load {}", load());
    for (id, r) in ids.iter().zip(runners.iter_mut()) {
        let before = voluntary_switches();
        for _ in 0..10 * reps {
            r.launch().map_err(|e| e.to_string())?;
        }
        println!("{id}: {:.2} voluntary context switches per launch", (voluntary_switches() - before) as f64 / (10 * reps) as f64);
    }
    // A loop's first launch apart from the rest: it follows another config's loop (the tune
    // bench's head to head times loops of one launch, the tuner's finals of two or more).
    let (mut launches, mut firsts): (Vec<Vec<f64>>, Vec<Vec<f64>>) = (vec![vec![]; runners.len()], vec![vec![]; runners.len()]);
    for round in 0..rounds {
        let mut line = format!("round {round:3} loop means (us):");
        for (j, r) in runners.iter_mut().enumerate() {
            let t = Instant::now();
            for i in 0..reps {
                let us = r.launch().map_err(|e| e.to_string())?.as_secs_f64() * 1e6;
                if i == 0 { &mut firsts[j] } else { &mut launches[j] }.push(us);
            }
            line.push_str(&format!(" {:8.1}", t.elapsed().as_secs_f64() * 1e6 / reps as f64));
        }
        println!("{line}");
    }
    for (id, (first, rest)) in ids.iter().zip(firsts.into_iter().zip(launches)) {
        for (which, mut v) in [("a loop's first launch", first), ("its later launches", rest)] {
            if v.is_empty() {
                continue;
            }
            v.sort_by(f64::total_cmp);
            let q = |f: f64| v.get(((v.len() - 1) as f64 * f) as usize).copied().unwrap_or(f64::NAN);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            println!("{id}: {which}: p10 {:.1} p25 {:.1} p50 {:.1} p75 {:.1} p90 {:.1} p99 {:.1} max {:.1} mean {:.1} us", q(0.1), q(0.25), q(0.5), q(0.75), q(0.9), q(0.99), q(1.0), mean);
        }
    }
    println!("load {}", load());
    Ok(())
}

/// `MxNxK` as a GEMM shape.
fn matmul_shape(mnk: &str) -> Result<MatmulShape, String> {
    let dims: Vec<usize> = mnk.split('x').map(|d| d.trim().parse::<usize>().ok().filter(|&d| d > 0)).collect::<Option<_>>().unwrap_or_default();
    match dims[..] {
        [m, n, k] => Ok(MatmulShape { m, n, k }),
        _ => Err(format!("WEFT_ALT_MNK `{mnk}` is not MxNxK with positive sizes")),
    }
}

/// Voluntary context switches of every thread of this process so far (a parked or sleeping
/// worker adds one each time); 0 where `/proc` cannot say.
fn voluntary_switches() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("status")).ok())
        .filter_map(|s| s.lines().find(|l| l.starts_with("voluntary_ctxt_switches"))?.split_whitespace().last()?.parse::<u64>().ok())
        .sum()
}
