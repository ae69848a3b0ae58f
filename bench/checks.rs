//! `cargo bench --bench checks`: what `local`'s memory checks cost on the collectives bench's
//! collectives and sizes at 4 ranks, in one run: launches with bounds checks off
//! (`LaunchOptions::bounds_check`; `WEFT_BOUNDS_CHECK=0` for a whole world) and on (the
//! default) of the same prepared collective on one world, so the two differ in nothing else,
//! and the same collective on a racecheck world (its kernels compiled with race checks, so
//! every tile access is checked as well as every shmem op). Their launches
//! interleave, one each per round in a rotating order, `WEFT_CHECKS_ROUNDS` rounds (default
//! 15); times are medians, and for the bounds checks also the best round (on a loaded machine
//! the steadier estimate of a small difference); the load average is beside each row. Goals
//! (issue 18): bounds checks cost at most 5%, the race detector at most 10x.
//! `WEFT_BENCH_COLLECTIVES=allreduce` runs only the named ones, `WEFT_CHECKS_SIZES=1048576`
//! only the named sizes in bytes (to repeat a noisy row). Writes
//! `target/weft-bench/checks.md`.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use support::{load, median, ms};
use weft::kernels::{default_constexprs, prepare};
use weft::runtime::{DType, LaunchOptions, LocalOptions, Topology, World};

const SIZES: [usize; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20];
const RANKS: usize = 4;
const COLLECTIVES: [&str; 3] = ["allgather", "allreduce", "allreduce_ring"];

fn world(racecheck: bool) -> World {
    World::local_with(LocalOptions { topology: Topology::single_node(RANKS), racecheck, ..LocalOptions::from_env() }).expect("world")
}

fn main() {
    let rounds: usize = std::env::var("WEFT_CHECKS_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15).max(3);
    let only = std::env::var("WEFT_BENCH_COLLECTIVES").ok();
    let names: Vec<&str> = COLLECTIVES.into_iter().filter(|n| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == *n))).collect();
    let only_sizes = std::env::var("WEFT_CHECKS_SIZES").ok();
    let sizes: Vec<usize> = SIZES.into_iter().filter(|s| only_sizes.as_ref().is_none_or(|o| o.split(',').any(|x| x.parse() == Ok(*s)))).collect();
    let (plain, checked) = (world(false), world(true));
    let unchecked = LaunchOptions { bounds_check: false, ..LaunchOptions::default() };
    // (label, world: 0 plain, 1 racecheck, launch options).
    let runs = [("bounds off", 0, unchecked), ("bounds on", 0, LaunchOptions::default()), ("racecheck", 1, LaunchOptions::default())];
    let mut table = format!(
        "Memory checks on `local`, {RANKS} ranks, f32, {rounds} interleaved rounds, median and best ms\n\n\
         | collective | size | bounds off ms | bounds on ms | bounds cost | best off ms | best on ms | best cost | racecheck ms | racecheck / off | load |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    let (total, mut done) = (names.len() * sizes.len(), 0);
    for name in names {
        for &bytes in &sizes {
            done += 1;
            eprintln!("[{done}/{total}] {name} size={bytes}");
            let elems = (if name == "allgather" { bytes / RANKS } else { bytes }) / DType::F32.size_bytes();
            let c = default_constexprs(name, "f32").expect("known");
            let mut ps = [prepare(&plain, name, elems, DType::F32, &c).expect("prepares"), prepare(&checked, name, elems, DType::F32, &c).expect("prepares")];
            for (label, w, opts) in &runs {
                ps[*w].launch_with(opts).unwrap_or_else(|e| panic!("{name} {bytes} B, {label}: {e}"));
                let (ok, err) = ps[*w].verify().expect("reads");
                assert!(ok, "{name} {bytes} B, {label}: wrong result (max err {err})");
            }
            let mut times = vec![vec![]; runs.len()];
            for round in 0..rounds {
                for j in (0..runs.len()).map(|j| (j + round) % runs.len()) {
                    times[j].push(ms(&mut || {
                        ps[runs[j].1].launch_with(&runs[j].2).expect("launch");
                    }));
                }
            }
            let [off, on, race] = [0, 1, 2].map(|j| median(times[j].clone()));
            // On a loaded machine other work only ever adds time: the best round is the steadier
            // estimate of a small difference, the median the typical one.
            let [off_best, on_best] = [0, 1].map(|j| times[j].iter().copied().fold(f64::INFINITY, f64::min));
            let line = format!(
                "| {name} | {bytes} | {off:.3} | {on:.3} | {:+.1}% | {off_best:.3} | {on_best:.3} | {:+.1}% | {race:.3} | {:.1}x | {} |",
                100.0 * (on / off - 1.0),
                100.0 * (on_best / off_best - 1.0),
                race / off,
                load()
            );
            eprintln!("{line}");
            let _ = writeln!(table, "{line}");
        }
    }
    support::write_summary("checks.md", &table);
}
