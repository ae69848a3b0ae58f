//! `weft tune`: tune a library operation on a world (progress bar, ranked table), tune a
//! collective over a size range into the selection table, show or clear the cache; and the
//! tuned-config lookup `weft run` uses.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use weft::kernels::tune::{self, cache, table, CacheDirs, Config, Problem, Progress, Shape, Source};
use weft::kernels::MatmulShape;
use weft::runtime::{DType, LocalOptions, Topology, World};

/// Arguments of `weft tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Operation: allreduce, allgather, reduce_scatter, broadcast, gemm, ag_gemm, gemm_rs.
    op: Option<String>,
    /// Total ranks.
    #[arg(long, default_value_t = 4)]
    ranks: usize,
    /// Nodes the ranks are split over.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Element type: f32, f16, bf16 (i32 for collectives).
    #[arg(long, default_value = "f32")]
    dtype: String,
    /// Collectives: elements per rank.
    #[arg(long, default_value_t = 1 << 16)]
    elems: usize,
    /// GEMM kernels: rows of C.
    #[arg(long, default_value_t = 1024)]
    m: usize,
    /// GEMM kernels: columns of C.
    #[arg(long, default_value_t = 1024)]
    n: usize,
    /// GEMM kernels: reduction length.
    #[arg(long, default_value_t = 512)]
    k: usize,
    /// `cpu` (default) or a GPU architecture (`sm_90a`): GPU tuning times on this machine's GPU.
    #[arg(long)]
    target: Option<String>,
    /// Collectives: tune every 4x over a byte range (`1K..64M`) and write the selection table.
    #[arg(long)]
    sizes: Option<String>,
    /// Re-tune even when the cache holds a result.
    #[arg(long)]
    force: bool,
    /// List the cached results.
    #[arg(long)]
    show: bool,
    /// Delete the cached results.
    #[arg(long)]
    clear: bool,
}

/// Runs `weft tune`.
pub fn tune(a: TuneArgs) -> Result<(), String> {
    let dir = cache::tune_dir();
    if a.clear {
        let n = cache::clear(&dir).map_err(|e| e.to_string())?;
        println!("removed {n} files from {}", dir.display());
        return Ok(());
    }
    if a.show {
        return show(&dir);
    }
    let op = a.op.clone().ok_or("give an operation to tune (e.g. `weft tune ag_gemm`), or --show / --clear")?;
    let dtype = DType::parse(&a.dtype).ok_or_else(|| format!("unknown dtype `{}` (f32, f16, bf16, i32)", a.dtype))?;
    let world = world_for(&a)?;
    let opts = tune::TuneOptions { force: a.force, ..Default::default() };
    if let Some(spec) = &a.sizes {
        let sizes = table::sizes(spec).ok_or_else(|| format!("--sizes `{spec}`: expected LO..HI such as 1K..64M"))?;
        let bar = bar(sizes.len() as u64);
        let (t, path) = table::tune_sizes(&world, &op, dtype, &sizes, &opts, &mut |bytes, p| {
            if let Progress::Planned { .. } = p {
                bar.inc(1);
                bar.set_message(format!("{bytes} bytes"));
            }
        })
        .map_err(|e| e.to_string())?;
        bar.finish_and_clear();
        println!("{op} selection table ({} sizes, {}):", sizes.len(), t.key);
        for r in &t.ranges {
            let max = r.max_bytes.map_or("inf".to_string(), |m| m.to_string());
            println!("  {:>10} ..= {:<10} {}  ({:.1} us)", r.min_bytes, max, r.config, r.us);
        }
        println!("written to {} (prepare_selected reads it through tune::table::load)", path.display());
        return Ok(());
    }
    let problem = problem(&a, &op, dtype);
    let bar = bar(0);
    // Off a terminal indicatif draws nothing: progress goes to stderr as lines instead.
    let plain = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let say = |line: String| if plain { eprintln!("{line}") } else { bar.println(line) };
    let mut started = std::time::Instant::now();
    let out = tune::tune(&world, &problem, &opts, &mut |p| match p {
        Progress::Planned { space, pruned, candidates, reused } => {
            bar.set_length(candidates as u64);
            say(format!("{}: space {space}, pruned {pruned}, timing {candidates} ({reused} timings reused)", problem.describe()));
        }
        Progress::Compiled { done, total } => bar.set_message(format!("compiled {done}/{total}")),
        Progress::Timing { config, index, of } => {
            started = std::time::Instant::now();
            bar.set_message(format!("timing [{index}/{of}] {}", config.id()));
        }
        Progress::Measured { config, us } => {
            bar.inc(1);
            // The wall time beside the config's own: a stall under load names its config.
            let line = format!("[{}/{}] {us:>10.1} us  {}  ({:.1} s)", bar.position(), bar.length().unwrap_or(0), config.id(), started.elapsed().as_secs_f64());
            if plain {
                eprintln!("{line}");
            }
            bar.set_message(line);
        }
        Progress::Stopped { why } => say(format!("early stop: {why}")),
        Progress::Finalists { times, versus_default } => {
            let list: Vec<String> = times.iter().map(|(id, us)| format!("{us:.1} us `{id}`")).collect();
            say(format!("finalists re-timed in alternation (low-quartile round): {}", list.join(", ")));
            if let Some(why) = versus_default {
                say(why);
            }
        }
    })
    .map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    for n in &out.notes {
        eprintln!("weft: warning: {n}");
    }
    match out.source {
        Source::Cache => println!("cache hit: {} (tuned earlier; --force re-tunes)", out.path.display()),
        Source::Tuned => println!("tuned: {} configs timed now, {} reused, of {} ({} pruned); written to {}", out.measured_now, out.reused, out.space, out.pruned.len(), out.path.display()),
    }
    let best = out.ranked.first().map_or(1.0, |r| r.1.us);
    println!("{:>4}  {:>12}  {:>7}  {:>4}  config", "rank", "time (us)", "vs best", "runs");
    for (i, (id, m)) in out.ranked.iter().enumerate() {
        // Re-timed rounds and a single first-pass loop are different estimates: say where
        // the table switches from one to the other.
        if i == out.retimed && out.retimed > 0 {
            println!("      -- not re-timed: first-pass times, each slower than every finalist in that pass --");
        }
        let mark = if *id == out.winner.id() { "  <- winner" } else { "" };
        println!("{:>4}  {:>12.1}  {:>6.2}x  {:>4}  {id}{mark}", i + 1, m.us, m.us / best, m.runs);
    }
    Ok(())
}

/// The problem the arguments describe.
fn problem(a: &TuneArgs, op: &str, dtype: DType) -> Problem {
    let matmul = matches!(op, "gemm" | "ag_gemm" | "gemm_rs");
    let shape = if matmul { Shape::Matmul(MatmulShape { m: a.m, n: a.n, k: a.k }) } else { Shape::Elems(a.elems) };
    Problem { op: op.into(), shape, dtype }
}

/// The world to tune on: in-process ranks for the CPU, this process's GPU for a GPU target.
fn world_for(a: &TuneArgs) -> Result<World, String> {
    match a.target.as_deref() {
        None | Some("cpu") => {
            if a.ranks == 0 || a.nodes == 0 || a.ranks % a.nodes != 0 {
                return Err(format!("--ranks {} must be a positive multiple of --nodes {}", a.ranks, a.nodes));
            }
            let topology = Topology { nodes: a.nodes, local_size: a.ranks / a.nodes };
            World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).map_err(|e| e.to_string())
        }
        Some(t) => {
            let target = weft::compiler::Target::parse(t).ok_or_else(|| format!("--target `{t}`: expected cpu, sm_80, sm_90a, sm_100a or gfx942"))?;
            if let Err(e) = weft::runtime::cuda::devices() {
                let why = e.to_string();
                return Err(format!("tuning for {} times on a GPU and this machine has none ({})", target.name(), why.lines().next().unwrap_or("")));
            }
            World::cuda().map_err(|e| e.to_string())
        }
    }
}

/// A progress bar on stderr.
fn bar(len: u64) -> ProgressBar {
    let b = ProgressBar::new(len);
    b.set_style(ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed:>4} {msg}").unwrap_or_else(|_| ProgressStyle::default_bar()));
    b
}

/// `weft tune --show`.
fn show(dir: &std::path::Path) -> Result<(), String> {
    let files = cache::list(dir);
    if files.is_empty() {
        println!("no tuned results in {}", dir.display());
    }
    for (path, e) in files {
        match e {
            Ok(e) => {
                let us = e.measured.get(&e.winner).map_or(0.0, |m| m.us);
                println!("{} {} {} {} {}: {} ({us:.1} us, {} measured of {})", e.key.op, e.key.shape, e.key.dtype, e.key.topology, e.key.target, e.winner, e.measured.len(), e.space);
            }
            Err(why) => println!("{}: unreadable ({why})", path.display()),
        }
    }
    Ok(())
}

/// The tuned config of a `weft run` (when every rank's cache holds one), with the line that
/// says which; `None` with the line saying defaults apply.
pub fn tuned_for_run(world: &World, kernel: &str, shape: Shape, dtype: DType) -> (Option<Config>, String) {
    let problem = Problem { op: kernel.into(), shape, dtype };
    match tune::lookup(world, &problem, &CacheDirs::default()) {
        Ok(Some((c, path))) => {
            let line = format!("config: tuned `{}` ({})", c.id(), path.display());
            (Some(c), line)
        }
        Ok(None) => (None, format!("config: defaults (no tuned result; `weft tune {kernel} ...` makes one)")),
        Err(tune::TuneError::NotTunable { .. }) => (None, "config: defaults".into()),
        Err(e) => (None, format!("config: defaults (tuning cache unusable: {e})")),
    }
}

/// `weft run` of a collective whose tuned winner is an MSCCL algorithm: time and verify it.
pub fn run_tuned_msccl(world: &World, problem: &Problem, c: &Config, iters: usize) -> Result<(), String> {
    let mut r = tune::measure::Runner::prepare(world, problem, c).map_err(|e| e.to_string())?;
    let times = weft::kernels::time_launches(|| r.launch(), 1, iters.max(1)).map_err(|e| e.to_string())?;
    let (ok, err) = r.verify().map_err(|e| e.to_string())?;
    let mut t: Vec<f64> = times.iter().map(|d| d.as_secs_f64()).collect();
    t.sort_by(f64::total_cmp);
    println!("{} ranks={} ({}): {}  max_err={err:.3e}  time={:.3} ms (median of {})", problem.describe(), world.n_ranks(), world.topology(), if ok { "PASS" } else { "FAIL" }, t[t.len() / 2] * 1e3, t.len());
    if !ok {
        return Err(format!("{}: result differs from the reference (max error {err:.3e})", c.id()));
    }
    Ok(())
}
