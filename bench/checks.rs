//! `cargo bench --bench checks`: what `local`'s memory checks cost on the collectives bench's
//! collectives and sizes at 4 ranks, in one run. Three worlds run the same collective:
//! bounds checks off (`LocalOptions::bounds_check`, as `WEFT_BOUNDS_CHECK=0`), on (the
//! default), and the race detector (a racecheck world, whose kernels are compiled with race
//! checks, so every tile access is checked as well as every shmem op). Their launches
//! interleave, one each per round in a rotating order, `WEFT_CHECKS_ROUNDS` rounds (default 9);
//! times are medians, the load average is printed beside each row. Goals (issue 18): bounds
//! checks cost at most 5%, the race detector at most 10x. `WEFT_BENCH_COLLECTIVES=allreduce`
//! runs only the named ones. Writes `target/weft-bench/checks.md`.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use support::{load, median, ms};
use weft::kernels::{default_constexprs, prepare};
use weft::runtime::{DType, LocalOptions, Topology, World};

const SIZES: [usize; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20];
const RANKS: usize = 4;
const COLLECTIVES: [&str; 3] = ["allgather", "allreduce", "allreduce_ring"];
/// The worlds compared: (label, bounds checks, race detector).
const WORLDS: [(&str, bool, bool); 3] = [("bounds off", false, false), ("bounds on", true, false), ("racecheck", true, true)];

fn world(bounds_check: bool, racecheck: bool) -> World {
    let opts = LocalOptions { topology: Topology::single_node(RANKS), bounds_check, racecheck, ..LocalOptions::from_env() };
    World::local_with(opts).expect("world")
}

fn main() {
    let rounds: usize = std::env::var("WEFT_CHECKS_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(9).max(3);
    let only = std::env::var("WEFT_BENCH_COLLECTIVES").ok();
    let names: Vec<&str> = COLLECTIVES.into_iter().filter(|n| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == *n))).collect();
    let worlds: Vec<World> = WORLDS.iter().map(|&(_, b, r)| world(b, r)).collect();
    let mut table = format!(
        "Memory checks on `local`, {RANKS} ranks, f32, {rounds} interleaved rounds, median ms\n\n\
         | collective | size | bounds off ms | bounds on ms | bounds cost | racecheck ms | racecheck / off | load |\n\
         |---|---|---|---|---|---|---|---|\n"
    );
    let (total, mut done) = (names.len() * SIZES.len(), 0);
    for name in names {
        for bytes in SIZES {
            done += 1;
            eprintln!("[{done}/{total}] {name} size={bytes}");
            let elems = (if name == "allgather" { bytes / RANKS } else { bytes }) / DType::F32.size_bytes();
            let c = default_constexprs(name, "f32").expect("known");
            let mut ps: Vec<_> = worlds.iter().map(|w| prepare(w, name, elems, DType::F32, &c).expect("prepares")).collect();
            for (p, (label, ..)) in ps.iter_mut().zip(WORLDS) {
                let (ok, err) = p.verify_after_launch().unwrap_or_else(|e| panic!("{name} {bytes} B, {label}: {e}"));
                assert!(ok, "{name} {bytes} B, {label}: wrong result (max err {err})");
            }
            let mut times = vec![vec![]; ps.len()];
            let n = ps.len();
            for round in 0..rounds {
                for j in (0..n).map(|j| (j + round) % n) {
                    times[j].push(ms(&mut || {
                        ps[j].launch().expect("launch");
                    }));
                }
            }
            let [off, on, race] = [0, 1, 2].map(|j| median(times[j].clone()));
            let line = format!(
                "| {name} | {bytes} | {off:.3} | {on:.3} | {:+.1}% | {race:.3} | {:.1}x | {} |",
                100.0 * (on / off - 1.0),
                race / off,
                load()
            );
            eprintln!("{line}");
            let _ = writeln!(table, "{line}");
        }
    }
    support::write_summary("checks.md", &table);
}
