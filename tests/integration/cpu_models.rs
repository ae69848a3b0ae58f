//! Kernels compiled for explicit CPU models, whatever the build host: every library kernel x
//! dtype for an AVX2-only model (x86-64-v3) and an AVX-512 BF16 one (sapphirerapids) must
//! produce an object whose only undefined symbols are the C library's and libm's. A host with
//! AVX-512 once hid a `__truncsfbf2` call that broke every AVX2-only host.
//!
//! Each compile is timed (printed, `--nocapture`), and one that runs past [`COMPILE_LIMIT`]
//! fails naming its kernel: a compile that blows up on one CPU generation only (`gemm_ar` bf16
//! `METHOD=3` once took over 300 s for x86-64-v3 and 5 s for sapphirerapids) then fails on
//! every host, not as a timeout elsewhere on hosts of that generation.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
use weft::compiler::backend::{llvm::{Emit, LlvmModule, TargetMachine}, symbols};
use weft::compiler::pipeline::{self, Options, Target};

const MODELS: [&str; 2] = ["x86-64-v3", "sapphirerapids"];
/// Far above any kernel's compile (the slowest is seconds); a blow-up is minutes.
const COMPILE_LIMIT: Duration = Duration::from_secs(120);
/// Constexprs compiled besides each kernel's default: `gemm_ar`'s multimem `METHOD` (its
/// 2048-lane gathers and scatter were the blow-up above; the default is two-shot).
const VARIANTS: [(&str, &str, &str); 1] = [("gemm_ar", "METHOD", "3")];
/// Compiles at once: the jobs are independent and the CI machine has two cores.
const WORKERS: usize = 2;

/// One compile: CPU model, kernel, dtype, and a constexpr set over the default.
type Job = (&'static str, &'static str, &'static str, Option<(&'static str, &'static str)>);

#[test]
fn every_library_kernel_compiles_for_avx2_and_avx512_models_without_libcalls() {
    let configs = weft::kernels::list().iter().map(|k| (k.name, None)).chain(VARIANTS.iter().map(|&(k, key, v)| (k, Some((key, v)))));
    let configs: Vec<_> = configs.collect();
    let jobs: Vec<Job> = MODELS.iter().flat_map(|&m| configs.iter().flat_map(move |&(k, x)| ["f32", "f16", "bf16"].map(|d| (m, k, d, x)))).collect();
    let times = run_with_limit(&jobs, COMPILE_LIMIT, check, tag);
    let failures: Vec<&String> = times.iter().filter_map(|(_, r)| r.as_ref().err()).collect();
    let mut slowest: Vec<_> = jobs.iter().zip(&times).map(|(j, (t, _))| (t.as_secs_f64(), tag(*j))).collect();
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = slowest.iter().map(|s| s.0).sum();
    println!("cpu_models: {} compiles, {total:.1} s of compile in all; each, slowest first:", jobs.len());
    slowest.iter().for_each(|(t, what)| println!("  {t:7.2} s  {what}"));
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), jobs.len(), failures.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
}

/// Runs `work` on every job on [`WORKERS`] threads; returns each one's time and result, in
/// order. Panics with the job's `name` when one runs past `limit` (its thread is left behind: a
/// compile cannot be interrupted, and the failed test ends the process).
fn run_with_limit<J: Copy + Send + Sync + 'static>(jobs: &[J], limit: Duration, work: fn(J) -> Result<(), String>, name: fn(J) -> String) -> Vec<(Duration, Result<(), String>)> {
    let jobs: Arc<Vec<J>> = Arc::new(jobs.to_vec());
    let (next, stop) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
    let running: Arc<Mutex<Vec<Option<(usize, Instant)>>>> = Arc::new(Mutex::new(vec![None; WORKERS]));
    let (tx, rx) = mpsc::channel();
    for w in 0..WORKERS {
        let (jobs, next, stop, running, tx) = (jobs.clone(), next.clone(), stop.clone(), running.clone(), tx.clone());
        std::thread::spawn(move || loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= jobs.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            let start = Instant::now();
            running.lock().expect("lock")[w] = Some((i, start));
            // A compiler panic is that job's failure, not a worker lost.
            let job = jobs[i];
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || work(job))).unwrap_or_else(|_| Err(format!("{}: panicked", name(job))));
            running.lock().expect("lock")[w] = None;
            if tx.send((i, start.elapsed(), r)).is_err() {
                break;
            }
        });
    }
    drop(tx);
    let mut out = vec![(Duration::ZERO, Err("not run".to_string())); jobs.len()];
    let mut done = 0;
    while done < jobs.len() {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok((i, t, r)) => (out[i], done) = ((t, r), done + 1),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => panic!("every compile worker stopped with jobs left"),
        }
        let late = running.lock().expect("lock").iter().flatten().find(|(_, s)| s.elapsed() > limit).copied();
        if let Some((i, _)) = late {
            stop.store(true, Ordering::Relaxed);
            panic!("{}: still running after {} s (limit)", name(jobs[i]), limit.as_secs_f64());
        }
    }
    out
}

/// How a job is named in messages.
fn tag((model, kernel, dtype, extra): Job) -> String {
    let extra = extra.map(|(k, v)| format!(" {k}={v}")).unwrap_or_default();
    format!("{kernel}{extra} {dtype} on {model}")
}

/// Compiles `kernel` with `dtype` (and `extra`) for CPU `model` to an object (the pipeline
/// rejects an object with foreign undefined symbols) and re-checks its symbol table here.
fn check(job: Job) -> Result<(), String> {
    let (model, kernel, dtype, extra) = job;
    let tag = tag(job);
    let mut c = weft::kernels::target_constexprs(kernel, dtype, Target::Cpu).map_err(|e| format!("{tag}: {e}"))?;
    if let Some((key, value)) = extra {
        c.set(key, value);
    }
    // Every kernel the entry launches (`ep_dispatch_v` runs two).
    for k in weft::kernels::build_all(kernel, &c).map_err(|e| format!("{tag}: {e}"))? {
        let opts = Options { cpu: Some(model.into()), ..Options::default() };
        let out = pipeline::run(&k, Target::Cpu, None, &opts).map_err(|e| format!("{tag}: {e}"))?;
        let obj = out.object.ok_or_else(|| format!("{tag}: no object"))?;
        let foreign: Vec<String> = symbols::undefined(&obj)?.into_iter().filter(|s| !symbols::allowed(s)).collect();
        if !foreign.is_empty() {
            return Err(format!("{tag} ({}): undefined {foreign:?}", k.name));
        }
    }
    Ok(())
}

/// The limit names the job that overran it, and finished jobs report their own results.
#[test]
#[should_panic(expected = "slow 3: still running after 1 s")]
fn a_job_past_the_limit_fails_with_its_name() {
    let sleep = |ms: u64| -> Result<(), String> {
        std::thread::sleep(Duration::from_millis(ms));
        Err(format!("slept {ms}"))
    };
    let fast = run_with_limit(&[1u64, 2, 3], Duration::from_secs(1), sleep, |ms| format!("fast {ms}"));
    let got: Vec<_> = fast.iter().map(|(t, r)| (*t >= Duration::from_millis(1), r.clone())).collect();
    assert_eq!(got, (1..=3).map(|ms| (true, Err(format!("slept {ms}")))).collect::<Vec<_>>());
    run_with_limit(&[5u64, 3000], Duration::from_secs(1), sleep, |ms| format!("slow {}", ms / 1000));
}

/// The check itself: an object with a compiler-rt call is rejected, naming the symbol.
#[test]
fn an_object_calling_compiler_rt_is_rejected() {
    let ir = "define i16 @f(float %x) {\n  %y = fptrunc float %x to bfloat\n  %b = bitcast bfloat %y to i16\n  ret i16 %b\n}\n";
    let m = LlvmModule::parse_ir(ir).expect("parses");
    let tm = TargetMachine::model("x86-64").expect("target machine");
    let obj = m.emit(&tm, Emit::Obj).expect("object");
    let err = symbols::check_object(&obj, "f").expect_err("libcall").to_string();
    assert!(err.contains("__truncsfbf2") && err.contains("`f`"), "{err}");
}

/// A run for a CPU model whose features this host lacks stops before the first launch with one
/// line naming the model and a missing feature (it died with SIGILL); a model the host runs
/// passes. Diamond Rapids (APX) and Zen 5 (AVX-512 and AMD's SSE4a) are never both runnable.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_model_this_host_cannot_run_is_a_clear_error_not_an_illegal_instruction() {
    use weft::compiler::backend::cpu_model::missing_on_host;
    let mut refused = 0;
    for model in ["diamondrapids", "znver5", "x86-64"] {
        let missing = missing_on_host(model).unwrap_or_else(|e| panic!("{model}: {e}"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["run", "gemm", "--m", "40", "--n", "24", "--k", "16", "--iters", "1"])
            .env("WEFT_CPU", model)
            .output()
            .expect("weft runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        if missing.is_empty() {
            assert!(out.status.success() && stdout.contains("PASS"), "{model}: {stdout}\n{stderr}");
            continue;
        }
        refused += 1;
        assert_eq!(out.status.code(), Some(2), "{model}: {:?} {stderr}", out.status);
        let line = stderr.lines().find(|l| l.starts_with("weft: error:")).unwrap_or_else(|| panic!("{model}: {stderr}"));
        let mut shown = missing.clone();
        shown.sort();
        assert!(line.contains(&format!("`{model}`")) && line.contains(&shown[0]), "{model}: {line}");
        assert_eq!(stderr.lines().filter(|l| l.starts_with("weft:")).count(), 1, "{stderr}");
    }
    assert!(refused >= 1, "no x86-64 host runs both diamondrapids and znver5 code");
}

/// A CPU model LLVM does not know is one line naming it, from `weft compile --cpu` and from
/// `WEFT_CPU` (LLVM only warned and then aborted the process in code generation).
#[test]
fn an_unknown_model_is_one_line_naming_it() {
    let weft = |args: &[&str], env: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_weft"));
        c.args(args);
        if let Some(m) = env {
            c.env("WEFT_CPU", m);
        }
        c.output().expect("weft runs")
    };
    for out in [weft(&["compile", "gemm", "--cpu", "haswel", "--emit", "asm"], None), weft(&["run", "gemm", "--m", "40", "--n", "24", "--k", "16"], Some("haswel"))] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("weft:")).collect();
        assert_eq!(errors.len(), 1, "{stderr}");
        assert!(errors[0].contains("`haswel`") && errors[0].contains("haswell"), "{stderr}");
        assert!(!stderr.contains("LLVM ERROR"), "{stderr}");
    }
}
