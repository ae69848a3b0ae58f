//! `cargo bench --bench compile`: cold and cached compile time of every library kernel x dtype
//! for the CPU (the host, an AVX2-only model and an AVX-512 BF16 one) and for the GPU targets.
//! Cold is a first compile into an empty cache directory (object, link, load for the CPU;
//! through the last GPU stage for GPUs); cached is the next compile after the in-process cache
//! is dropped: a disk-cache hit, what a new process pays. Budget: a cold CPU compile within 5 s (goal 2 s).
//! `cargo bench --bench compile [kernel-filter] -- --cpu-only` skips the GPU targets.
//! Cold compiles also report the process CPU time they used (user + system): on a shared
//! 2-core machine wall time swings with other load, CPU time much less.
//! One-shot timings, not criterion samples: a cold compile cannot be repeated in a loop
//! without stopping being cold. Writes `target/weft-bench/compile.md`.

// Only its table writer is used here.
#[allow(dead_code)]
#[path = "support.rs"]
mod support;

use std::fmt::Write as _;
use std::time::{Duration, Instant};
use weft::compiler::pipeline::{Options, Target};

const DTYPES: [&str; 3] = ["f32", "f16", "bf16"];
const CPUS: [Option<&str>; 3] = [None, Some("x86-64-v3"), Some("sapphirerapids")];
const BUDGET: Duration = Duration::from_secs(5);

fn main() {
    // Benches run with `--bench` and sometimes a filter; only a filter restricts kernels.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    // `-- --cpu-only` skips the GPU rows (ptxas dominates a full run's time).
    let gpus: &[&str] = if std::env::args().any(|a| a == "--cpu-only") { &[] } else { &["sm_90a", "gfx942"] };
    let cache = std::env::temp_dir().join(format!("weft-compile-bench-{}", std::process::id()));
    // SAFETY: set before any thread is started.
    unsafe { std::env::set_var("WEFT_CACHE_DIR", &cache) };
    let kernels: Vec<&str> = weft::kernels::list().iter().map(|k| k.name).filter(|n| filter.as_deref().is_none_or(|f| n.contains(f))).collect();
    let mut table = String::from("| kernel | dtype | target | cold | cold CPU time | cached |\n|---|---|---|---|---|---|\n");
    let (mut over, mut worst) = (vec![], (Duration::ZERO, String::new()));
    let total = kernels.len() * DTYPES.len() * (CPUS.len() + gpus.len());
    let mut done = 0;
    for k in &kernels {
        for dtype in DTYPES {
            for cpu in CPUS {
                done += 1;
                let target = cpu.unwrap_or("cpu (host)");
                let Times { cold, cold_cpu, cached } = cpu_times(k, dtype, cpu);
                eprintln!("[{done}/{total}] {k} {dtype} {target}: cold {} (CPU {}) cached {}", ms(cold), ms(cold_cpu), ms(cached));
                if cold > BUDGET {
                    over.push(format!("{k} {dtype} {target}"));
                }
                if cold > worst.0 {
                    worst = (cold, format!("{k} {dtype} {target}"));
                }
                let _ = writeln!(table, "| {k} | {dtype} | {target} | {} | {} | {} |", ms(cold), ms(cold_cpu), ms(cached));
            }
            for &gpu in gpus {
                done += 1;
                let line = match gpu_times(k, dtype, gpu) {
                    Ok(t) => format!("{} | {} | {} |", ms(t.cold), ms(t.cold_cpu), ms(t.cached)),
                    Err(e) => format!("error: {} | | |", e.lines().next().unwrap_or("")),
                };
                eprintln!("[{done}/{total}] {k} {dtype} {gpu}: {line}");
                let _ = writeln!(table, "| {k} | {dtype} | {gpu} | {line}");
            }
        }
    }
    let _ = writeln!(table, "\nSlowest cold CPU compile: {} ({}); over the {} s budget: {}.", ms(worst.0), worst.1, BUDGET.as_secs(), if over.is_empty() { "none".into() } else { over.join(", ") });
    let _ = std::fs::remove_dir_all(&cache);
    support::write_summary("compile.md", &table);
}

fn ms(d: Duration) -> String {
    if d >= Duration::from_secs(1) { format!("{:.2} s", d.as_secs_f64()) } else { format!("{:.1} ms", d.as_secs_f64() * 1e3) }
}

fn build(kernel: &str, dtype: &str, target: Target) -> weft::compiler::ir::Kernel {
    let c = weft::kernels::target_constexprs(kernel, dtype, target).expect("constexprs");
    weft::kernels::build(kernel, &c).expect("kernel builds")
}

/// One kernel's compile times.
struct Times {
    cold: Duration,
    cold_cpu: Duration,
    cached: Duration,
}

/// User + system CPU time this process and its finished children (ptxas, ld.lld) have used.
fn cpu_time() -> Duration {
    let used = |who| {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut u) };
        let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
        tv(u.ru_utime) + tv(u.ru_stime)
    };
    used(libc::RUSAGE_SELF) + used(libc::RUSAGE_CHILDREN)
}

/// Times `compile` cold, then again after the in-process cache is dropped; the second must
/// come from the disk cache (`compile` returns whether it did).
fn cold_then_cached(what: &str, compile: impl Fn() -> Result<bool, String>) -> Result<Times, String> {
    let (t, c) = (Instant::now(), cpu_time());
    compile()?;
    let (cold, cold_cpu) = (t.elapsed(), cpu_time() - c);
    weft::compiler::cache::clear_memory_cache();
    let t = Instant::now();
    let from_disk = compile()?;
    assert!(from_disk, "{what}: the second compile missed the disk cache");
    Ok(Times { cold, cold_cpu, cached: t.elapsed() })
}

/// Cold then cached compile of `kernel` for CPU model `cpu` (the host when `None`).
fn cpu_times(kernel: &str, dtype: &str, cpu: Option<&str>) -> Times {
    let k = build(kernel, dtype, Target::Cpu);
    let opts = Options { cpu: cpu.map(str::to_string), ..Options::default() };
    cold_then_cached(&format!("{kernel} {dtype}"), || weft::compile(&k, &opts).map(|c| c.from_disk_cache).map_err(|e| e.to_string())).expect("CPU compile")
}

/// Cold then cached compile of `kernel` through its GPU target's last stage.
fn gpu_times(kernel: &str, dtype: &str, gpu: &str) -> Result<Times, String> {
    let target = Target::parse(gpu).expect("GPU target");
    let k = build(kernel, dtype, target);
    let compile = || weft::compiler::cache::compile_gpu(&k, target, &Options::default()).map(|b| b.from_disk_cache).map_err(|e| e.to_string());
    cold_then_cached(&format!("{kernel} {dtype} {gpu}"), compile)
}
