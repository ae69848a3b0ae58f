//! `cargo bench --bench tune`: the autotuner against the library's defaults and against an
//! exhaustive sweep of the same space, in the same run, on the `local` transport.
//!
//! Rows: the overlap bench's shapes (LLaMA (N, K) / 32, M = 256, bf16) and topologies (1x2,
//! 1x4, 1x8, 2x2) for ag_gemm and gemm_rs, and allreduce / allgather / reduce_scatter at
//! 4 KiB, 256 KiB and 16 MiB per rank on 1x4 (f32). Per row: the tuner's wall time (compiles
//! the disk cache lacks included) and configs it timed, then an exhaustive sweep that times
//! every config of the pruned space briefly (`SCREEN`; `WEFT_TUNE_BENCH_SWEEP=full` gives it
//! the tuner's own schedule), independent of the tuner's timings. The comparison is then decided head to head: the
//! default, the tuned winner and the sweep's contenders (every config within 10% of the
//! sweep's fastest, at least 4 and at most 5, and the fastest of up to 3 other methods within
//! 2x) are timed in one interleaved loop, one timed loop each per round (at least 3 ms, MAX
//! over ranks; each round starts one contender later) for 20 rounds, or for short launches
//! as many as make 500 ms per contender (twice `Schedule::sample`, the tuner's finalists'
//! least sample: a 10 us launch gets 168 rounds of 3 ms), so bursts of load from
//! other processes on this shared machine hit them alike. The even rounds pick the exhaustive
//! best: whichever contender is fastest there (the tuned winner and the default are in the
//! space, so they are contenders too). The odd rounds time every contender for the table, so
//! the best is not also the luckiest of several noisy estimates (picking the minimum of five
//! configs and reporting that same minimum flatters the reference by the noise). A config's
//! time over a set of rounds is `measure::paired_times`: the median of its loops over each
//! round's geometric mean, times the low quartile of those means, so tuned/best is the median
//! of the rounds' paired ratios and load that hits a whole round cancels.
//! `WEFT_TUNE_BENCH=quick` keeps the first shape, topology and size;
//! `WEFT_TUNE_BENCH_ROWS=a,b` keeps the rows whose `<problem> on <topology>` contains `a` or
//! `b`; `WEFT_TUNE_BENCH_VERBOSE=1` prints every timing and the sweep's order beside the
//! model's (the tuner's re-timed finalists and its notes, and a line per config timed by the tuner and the sweep with its wall time, are printed in any case). The load column is the 1-minute load average when the row's head-to-head ended.
//! Writes `target/weft-bench/tune.md`.

#[path = "support.rs"]
#[allow(dead_code)]
mod support;

use std::fmt::Write as _;
use std::time::Instant;
use support::load;
use weft::kernels::tune::cost::MACHINE_FILE;
use weft::kernels::tune::measure::{self, Runner, Schedule};
use weft::kernels::tune::tiles::{TileCosts, TILES_FILE};
use weft::kernels::tune::{self, agree::Agreement, space, Config, CacheDirs, Problem, Shape, TuneOptions};
use weft::kernels::MatmulShape;
use weft::runtime::{DType, LocalOptions, Topology, World};

const OVERLAP_NK: [(usize, usize); 3] = [(344, 128), (448, 128), (896, 256)];
const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
const SIZES: [usize; 3] = [4 << 10, 256 << 10, 16 << 20];

fn main() {
    let quick = std::env::var("WEFT_TUNE_BENCH").is_ok_and(|v| v == "quick");
    let keep = |n: usize| if quick { 1 } else { n };
    let mut rows: Vec<(Problem, Topology)> = vec![];
    for op in ["ag_gemm", "gemm_rs"] {
        for &(nodes, local) in &TOPOLOGIES[..keep(TOPOLOGIES.len())] {
            for &(n, k) in &OVERLAP_NK[..keep(OVERLAP_NK.len())] {
                let shape = Shape::Matmul(MatmulShape { m: 256, n, k });
                rows.push((Problem { op: op.into(), shape, dtype: DType::BF16 }, Topology { nodes, local_size: local }));
            }
        }
    }
    for op in ["allreduce", "allgather", "reduce_scatter"] {
        for &bytes in &SIZES[..keep(SIZES.len())] {
            rows.push((Problem { op: op.into(), shape: Shape::Elems(bytes / 4), dtype: DType::F32 }, Topology { nodes: 1, local_size: 4 }));
        }
    }
    if let Ok(keep) = std::env::var("WEFT_TUNE_BENCH_ROWS") {
        let wanted: Vec<&str> = keep.split(',').map(str::trim).collect();
        rows.retain(|(p, t)| wanted.iter().any(|w| format!("{} on {t}", p.describe()).contains(w)));
    }
    let verbose = std::env::var("WEFT_TUNE_BENCH_VERBOSE").is_ok_and(|v| v == "1");
    let sweep_schedule = if std::env::var("WEFT_TUNE_BENCH_SWEEP").is_ok_and(|v| v == "full") { Schedule::default() } else { SCREEN };
    let started = (Instant::now(), load());
    let mut table = String::from(
        "| problem | ranks | default us | tuned us | best us | tuned/best | noise | tuned/default | tune s | measured / space | load | winner |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let (mut speedups, mut old_speedups, mut worst_best, mut worst_row) = (vec![], vec![], f64::MAX, String::new());
    let (mut lookups, mut tune_times, mut fractions, mut met) = (vec![], vec![], vec![], 0);
    let scratch = std::env::temp_dir().join(format!("weft-tune-bench-{}", std::process::id()));
    // A directory per row and per kind: shapes of one power-of-two bucket share a cache entry,
    // and a row must neither hit its neighbour's entry nor the sweep the tuner's. The machine
    // constants are measured once and copied to each, as a user's cache would hold them.
    let mut machine = weft::kernels::tune::cost::Machine::cached(&scratch);
    // The GEMM rows' tile costs too (bf16), measured once like the constants.
    machine.tiles = TileCosts::cached(&scratch, DType::BF16);
    if verbose {
        eprintln!("machine constants: {machine:?}");
    }
    for (i, (problem, topo)) in rows.iter().enumerate() {
        eprintln!("[{}/{}] {} on {topo}", i + 1, rows.len(), problem.describe());
        let world = World::local_with(LocalOptions { topology: *topo, ..LocalOptions::from_env() }).expect("world");
        let dir = |kind: &str| {
            let d = scratch.join(format!("{kind}{i}"));
            std::fs::create_dir_all(&d).expect("scratch dir");
            for file in [MACHINE_FILE, TILES_FILE] {
                std::fs::copy(scratch.join(file), d.join(file)).expect("machine constants");
            }
            CacheDirs { per_rank: Some(vec![d; topo.world_size()]) }
        };
        // The model's launch and signal costs on this world (as the tuner measures them), for
        // the verbose sweep's model column only.
        let machine = verbose.then(|| tune::launch::on_world(&world, &mut Agreement::new(&world).expect("agreement"), &machine).expect("launch cost"));
        if let Some(m) = &machine {
            eprintln!("    launch cost on {topo}: {:.1} us, signal {:.2} us (thread starts: {:.1} us)", m.launch_s * 1e6, m.signal_s * 1e6, m.spawn_s * 1e6);
        }
        let dirs = dir("tuned");
        let t0 = Instant::now();
        let tuned = tune::tune(&world, problem, &TuneOptions { dirs: dirs.clone(), ..Default::default() }, &mut progress("tune", verbose)).expect("tunes");
        let tune_s = t0.elapsed().as_secs_f64();
        for n in &tuned.notes {
            eprintln!("    note: {n}");
        }
        lookups.push(lookup_us(&world, problem, &dirs));
        let t1 = Instant::now();
        let sweep = tune::tune(&world, problem, &TuneOptions { dirs: dir("sweep"), exhaustive: true, schedule: sweep_schedule, ..Default::default() }, &mut progress("sweep", verbose)).expect("sweeps");
        let sweep_s = t1.elapsed().as_secs_f64();
        if let Some(m) = &machine {
            print_sweep(&sweep, problem, *topo, m);
        }
        let default = space::default_config(problem, *topo, weft::compiler::Target::Cpu).expect("default");
        // One runner per distinct config (the tuned winner is often the sweep's best, or the
        // default): the same config timed twice would only measure the noise between them.
        let mut distinct: Vec<Config> = vec![];
        // The AllReduce default before its choice was measured (one-shot up to 256 KiB, then
        // two-shot, 1024-wide tiles) rides along, so the geomean is reported both ways.
        let old_default = match problem.shape {
            Shape::Elems(e) if problem.op == "allreduce" => Config::parse(if e * 4 <= weft::kernels::ONE_SHOT_MAX_BYTES { "allreduce_one_shot BLOCK=1024" } else { "allreduce_two_shot BLOCK=1024" }),
            _ => None,
        };
        for c in [default.clone(), tuned.winner.clone()].into_iter().chain(old_default.clone()).chain(contenders(&sweep.ranked)) {
            if !distinct.contains(&c) {
                distinct.push(c);
            }
        }
        let t2 = Instant::now();
        let (pick, times) = head_to_head(&world, problem, &distinct, verbose);
        eprintln!("    phases: tune {tune_s:.1} s, sweep {sweep_s:.1} s ({} configs), head to head {:.1} s ({} contenders), load {}", sweep.measured_now, t2.elapsed().as_secs_f64(), distinct.len(), load());
        let t = |c: &Config| times[distinct.iter().position(|d| d == c).expect("timed")];
        let best_at = (0..distinct.len()).min_by(|&a, &b| pick[a].total_cmp(&pick[b]).then_with(|| distinct[a].cmp(&distinct[b]))).expect("contenders");
        let (default_us, tuned_us, best, best_config) = (t(&default), t(&tuned.winner), times[best_at], &distinct[best_at]);
        // How far one config's time moves between the even and the odd rounds (the tuned
        // winner's and the best's, the larger): the comparison cannot resolve less than this.
        let at = |c: &Config| distinct.iter().position(|d| d == c).expect("timed");
        let noise = [at(&tuned.winner), best_at].iter().map(|&i| (times[i] / pick[i] - 1.0).abs()).fold(0.0, f64::max);
        let space = sweep.space - sweep.pruned.len();
        let fraction = tuned.measured_now as f64 / space as f64;
        let line = format!(
            "| {} | {topo} | {default_us:.1} | {tuned_us:.1} | {best:.1} | {:.0}% | {:.0}% | {:.2}x | {tune_s:.1} | {} / {space} ({:.0}%) | {} | `{} |",
            problem.describe(),
            best / tuned_us * 100.0,
            noise * 100.0,
            default_us / tuned_us,
            tuned.measured_now,
            fraction * 100.0,
            load(),
            if *best_config != tuned.winner { format!("{}` (best: `{}`)", tuned.winner.id(), best_config.id()) } else { format!("{}`", tuned.winner.id()) }
        );
        eprintln!("{line}");
        let _ = writeln!(table, "{line}");
        speedups.push(default_us / tuned_us);
        old_speedups.push(old_default.as_ref().map_or(default_us, t) / tuned_us);
        met += usize::from(best / tuned_us >= 0.95 && fraction <= 0.25);
        (tune_times.push(tune_s), fractions.push(fraction));
        if best / tuned_us < worst_best {
            (worst_best, worst_row) = (best / tuned_us, format!("{} on {topo}", problem.describe()));
        }
    }
    let geo = |v: &[f64]| (v.iter().map(|s| s.ln()).sum::<f64>() / v.len().max(1) as f64).exp();
    let (geomean, old_geomean) = (geo(&speedups), geo(&old_speedups));
    let (worst, worst_at) = speedups.iter().enumerate().map(|(i, s)| (*s, i)).fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a });
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let _ = writeln!(
        table,
        "\nRows with tuned >= 95% of the sweep's best while timing <= 25% of the space: {met} of {}.  \
         tuned/default geomean {geomean:.2}x ({old_geomean:.2}x against the AllReduce default before its measured choice), worst row {worst:.2}x ({} on {});  worst tuned/best {:.0}% ({worst_row});  \
         most of the space timed {:.0}%;  longest tune {:.1} s;  cached lookup (agreed; median of 20 per row, worst row) {:.0} us.\n\n\
         Whole bench {:.0} s. Machine: {} cores shared with other builds; load average (1 min) {} at the start, {} at the end. \
         tuned/best and tuned/default come from one head-to-head loop per row (default, tuned winner and the sweep's \
         contenders alternating for 20 rounds, more for short launches): the best is the contender fastest over the even rounds, and every time \
         shown is over the odd rounds; a time over rounds is its median over each round's geometric mean (times the low quartile of those means); noise is how far the tuned winner's or the best's \
         time moved between the even and the odd rounds (the larger), the least difference the row can resolve. \
         Times are noisy; tune s includes compiling what the disk cache lacked.",
        rows.len(),
        rows[worst_at].0.describe(),
        rows[worst_at].1,
        worst_best * 100.0,
        max(&fractions) * 100.0,
        max(&tune_times),
        max(&lookups),
        started.0.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1),
        started.1,
        load(),
    );
    support::write_summary("tune.md", &table);
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The stderr report of one tuning pass (`phase`: the tuner's or the sweep's): a line per
/// config timed with the wall time it took (compiling included), so a stall under load names
/// its config (one sweep once took 526 s at load 5 and could not be traced); the finalists'
/// line always, since a row under 95% needs to show whether the tuner's rounds or its rule for
/// keeping the default decided it; everything else when `verbose`.
fn progress(phase: &'static str, verbose: bool) -> impl FnMut(tune::Progress) {
    let mut current = (Instant::now(), 0, 0);
    move |p| match p {
        tune::Progress::Timing { index, of, .. } => current = (Instant::now(), index, of),
        tune::Progress::Measured { config, us } => {
            let (started, index, of) = current;
            eprintln!("    {phase} [{index}/{of}] {us:>10.1} us {:>6.2} s  {}", started.elapsed().as_secs_f64(), config.id());
        }
        tune::Progress::Finalists { .. } => eprintln!("    {p:?}"),
        _ if verbose => eprintln!("    {p:?}"),
        _ => {}
    }
}

/// How the exhaustive sweep times each config: it only screens for the head-to-head's
/// contenders (which are re-timed in alternation), so a short look suffices: one warm-up
/// launch, loops of one launch where a launch is at least `min_loop` long, 3 loops or about
/// 30 ms of loops, whichever is more, stopping once 150 ms of launches are spent (a third of
/// the tuner's first pass; a config a quarter slower than the best so far stops after 2 loops).
/// Its noise is why the head-to-head takes at least 4 contenders. The tuner's own schedule (`WEFT_TUNE_BENCH_SWEEP=full`)
/// spent 49 of a row's 113 s here on 30 AllGather 16 MiB configs at load 8.
const SCREEN: Schedule = Schedule {
    warmup: 1,
    round: 1,
    rounds: 3,
    min_loop: std::time::Duration::from_millis(3),
    budget: std::time::Duration::from_millis(1500),
    first_pass: std::time::Duration::from_millis(150),
    give_up: 1.25,
    extend: 1.0,
    sample: std::time::Duration::from_millis(120),
};

/// The sweep's contenders for the exhaustive best: its fastest configs (every one within 10%
/// of the fastest, at least 4 and at most 5), then the fastest of every other method
/// (algorithm) within 2x of it, at most 3: the sweep's own order is one noisy loop per config
/// beyond its re-timed finalists, and a method's best can sit behind several configs of another.
fn contenders(ranked: &[(String, tune::cache::Measured)]) -> Vec<Config> {
    let Some(fastest) = ranked.first().map(|(_, m)| m.us) else { return vec![] };
    let mut out: Vec<Config> = ranked.iter().enumerate().take_while(|(i, (_, m))| *i < 4 || m.us <= fastest * 1.1).take(5).filter_map(|(_, (id, _))| Config::parse(id)).collect();
    let mut others = 0;
    for c in ranked.iter().take_while(|(_, m)| m.us <= fastest * 2.0).filter_map(|(id, _)| Config::parse(id)) {
        if others < 3 && !out.iter().any(|o| o.algorithm == c.algorithm) {
            out.push(c);
            others += 1;
        }
    }
    out
}

/// The median of 20 agreed cache lookups, in microseconds.
fn lookup_us(world: &World, problem: &Problem, dirs: &CacheDirs) -> f64 {
    let mut times: Vec<f64> = (0..20)
        .map(|_| {
            let t = Instant::now();
            let hit = tune::lookup(world, problem, dirs).expect("lookup");
            assert!(hit.is_some(), "a tuned problem must be a cache hit");
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Times `configs` head to head: one timed loop each per round, in alternation, for 20
/// rounds or twice the tuner's sample (whichever is more); each config's time over the even rounds (to pick the best) and over the odd rounds
/// (to report), in microseconds, by `measure::paired_times` (the tuner's finalists' measure:
/// medians of round-normalised loops, so tuned/best is a median paired ratio).
fn head_to_head(world: &World, problem: &Problem, configs: &[Config], verbose: bool) -> (Vec<f64>, Vec<f64>) {
    let mut agree = Agreement::new(world).expect("agreement");
    let mut runners: Vec<Runner> = configs.iter().map(|c| Runner::prepare(world, problem, c).expect("prepares")).collect();
    // No time budget: every row gets its rounds (the default `sample` sets them for short
    // launches, as it sets the tuner's finalists').
    // Loops of one launch where a launch is at least `min_loop` long: its 20 rounds are the
    // samples, and a second launch per loop doubled the 16 MiB rows' time (34 s of AllGather's).
    let s = Schedule { rounds: 20, round: 1, budget: std::time::Duration::from_secs(3600), ..Schedule::default() };
    let rounds = measure::interleaved_rounds(&mut runners, &mut agree, &s).expect("times");
    let half = |parity: usize| -> Vec<f64> {
        let half: Vec<Vec<f64>> = rounds.iter().map(|r| r.iter().skip(parity).step_by(2).copied().collect()).collect();
        measure::paired_times(&half).iter().map(|t| t * 1e6).collect()
    };
    let (pick, report) = (half(0), half(1));
    if verbose {
        for (i, c) in configs.iter().enumerate() {
            let best = rounds[i].iter().copied().fold(f64::MAX, f64::min) * 1e6;
            eprintln!("    head to head: pick {:>10.1} us  report {:>10.1} us  best round {best:>10.1} us  {}", pick[i], report[i], c.id());
        }
    }
    (pick, report)
}

/// The sweep's order beside the model's prediction (stderr), to see where the model misjudges.
fn print_sweep(sweep: &tune::Outcome, problem: &Problem, topo: Topology, machine: &weft::kernels::tune::cost::Machine) {
    for (i, (id, m)) in sweep.ranked.iter().enumerate() {
        let predicted = Config::parse(id).map_or(f64::NAN, |c| weft::kernels::tune::cost::predict(&c, problem, topo, machine) * 1e6);
        eprintln!("    sweep #{i:<2} {:>10.1} us  model {predicted:>10.1} us  {id}", m.us);
    }
}
