//! `cargo bench --bench codegen`: weft's GPU code next to Triton's, compiled in the same run
//! without a GPU. Kernels: Triton's tutorial-03 matmul against weft's `gemm` (bf16 in, f32
//! accumulate) at 64x64x32 with 4 warps and 128x128x64 with 8, and a 1-D bf16 copy (BLOCK=1024,
//! 4 warps); weft's `ag_gemm` and `gemm_rs` at their GPU defaults, each K-step against the
//! plain gemm's (64x64x32 w4); targets sm_80, sm_90a and sm_100a (Triton 3.9 compiles sm_100a
//! with `tcgen05.mma`). The SASS column names the loop's tensor-core instructions (HGMMA:
//! wgmma, HMMA: mma.sync, LDSM: ldmatrix, UTCHMMA: tcgen05.mma). Per kernel, config and target: SASS instructions of the
//! main (K) loop body, registers, spills and shared memory (ptxas -v; Triton's shared memory is
//! what its launch asks for), global memory instructions by width in the loop and in the whole
//! kernel, barriers in the loop, and cold and cached compile time. The loop body is assumed to be
//! one K-step (neither compiler unrolls it at these configs). Triton 3.9.0 is installed from
//! PyPI into `.tools/triton` on first use (`$WEFT_TRITON_VENV` elsewhere); without it (no
//! network) only weft's rows are printed. Compile times are wall time and, after the slash, CPU
//! time (user + system of the compiling thread and the tools it waits for: ptxas; for Triton its
//! Python process and children): on a shared machine wall time counts other processes' turns
//! too, so the table records the load average. A second table splits weft's cold compiles by
//! step (`weft::compiler::pipeline::timings`), with each row's first compile ever (toolchain
//! cache empty: NVSHMEM's library prepared) beside it; `cold` has that cache warm.
//! `WEFT_CODEGEN_ROWS=ag_gemm,gemm_rs` keeps only the configs of those kinds (`mm`, `copy`,
//! `ag_gemm`, `gemm_rs`); `WEFT_CODEGEN_TRITON=0` skips Triton. Writes
//! `target/weft-bench/codegen.md`.

// Only its table writer is used here.
#[allow(dead_code)]
#[path = "support.rs"]
mod support;
#[path = "codegen_sass.rs"]
mod sass;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use weft::compiler::backend::nvptx::{parse_ptxas, PtxasReport};
use weft::compiler::dsl::{self, Constexprs};
use weft::compiler::ir::{Kernel, Scalar};
use weft::compiler::pipeline::timings::{self, Step};
use weft::compiler::pipeline::{Options, Target};

const TRITON: &str = "3.9.0";
const TARGETS: [(&str, u32); 3] = [("sm_80", 80), ("sm_90a", 90), ("sm_100a", 100)];

/// A kernel at one config: `mm` (GEMM), `copy` (1-D), or the overlap kernels `ag_gemm` /
/// `gemm_rs` at their GPU defaults (weft only; `block` unused).
#[derive(Clone, Copy)]
struct Config {
    kind: &'static str,
    block: [usize; 3],
    warps: usize,
}

impl Config {
    fn name(&self) -> String {
        match self.kind {
            "mm" => format!("gemm {}x{}x{} w{}", self.block[0], self.block[1], self.block[2], self.warps),
            "copy" => format!("copy BLOCK={} w{}", self.block[0], self.warps),
            k => format!("{k} (GPU default)"),
        }
    }
}

const CONFIGS: [Config; 5] = [
    Config { kind: "mm", block: [64, 64, 32], warps: 4 },
    Config { kind: "mm", block: [128, 128, 64], warps: 8 },
    Config { kind: "copy", block: [1024, 0, 0], warps: 4 },
    Config { kind: "ag_gemm", block: [0; 3], warps: 4 },
    Config { kind: "gemm_rs", block: [0; 3], warps: 4 },
];

/// What one compiler made of one kernel.
struct Row {
    cubin: Vec<u8>,
    symbol: String,
    ptxas: PtxasReport,
    /// Dynamic shared memory the launch asks for (Triton's scratch; weft's above 48 KiB).
    dynamic_smem: u32,
    cold: Time,
    cached: Time,
    /// weft's cold compile by step (empty for Triton).
    steps: Vec<Step>,
    /// weft's first compile with the toolchain cache empty too.
    first: Option<Time>,
}

/// Wall and CPU time of one compile.
#[derive(Clone, Copy)]
struct Time {
    wall: Duration,
    cpu: Duration,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = std::env::temp_dir().join(format!("weft-codegen-bench-{}", std::process::id()));
    // A cache of this run's own, so the toolchain cache it empties is nobody else's.
    // SAFETY: no other thread runs yet.
    unsafe { std::env::set_var("WEFT_CACHE_DIR", work.join("cache")) };
    let python = match std::env::var("WEFT_CODEGEN_TRITON").as_deref() {
        Ok("0") => None,
        _ => triton_python(root).map_err(|why| println!("Triton unavailable ({why}); printing weft's rows only.")).ok(),
    };
    let kinds = std::env::var("WEFT_CODEGEN_ROWS").ok();
    let keep = |c: &&Config| kinds.as_deref().is_none_or(|k| k.split(',').any(|k| k.trim() == c.kind));
    let load = |at: &str| format!("load average {at}: {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split(' ').take(3).collect::<Vec<_>>().join(" "));
    let load_start = load("at the start");
    let bin = python.as_ref().and_then(|p| triton_bin(p));
    let mut table = String::from(
        "| kernel | target | compiler | SASS / K-step | registers | spills (st/ld B) | shared B | global mem / K-step | global mem (kernel) | barriers / K-step | cold (wall / CPU) | cached (wall / CPU) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut by_step = format!("| kernel | target | {} | total | toolchain-cold total |\n|---|---|{}---|---|\n", STEP_GROUPS.map(|g| g.0).join(" | "), "---|".repeat(STEP_GROUPS.len()));
    let configs: Vec<&Config> = CONFIGS.iter().filter(keep).collect();
    let total = configs.len() * TARGETS.len();
    // The plain gemm's K-step per target, and the overlap kernels' against it.
    let (mut plain, mut overlap) = (vec![], String::new());
    for (i, (cfg, (arch, sm))) in configs.iter().flat_map(|c| TARGETS.map(|t| (*c, t))).enumerate() {
        let dir = work.join(format!("{}-{arch}", cfg.kind)).join(format!("{}", cfg.block[0]));
        eprintln!("[{}/{total}] {} {arch}: weft", i + 1, cfg.name());
        let weft = weft_row(cfg, arch, &dir.join("weft"));
        if let Ok(r) = &weft {
            let first = r.first.map_or(String::new(), |f| format!("{:.0} / {:.0}", f.cpu.as_secs_f64() * 1e3, f.wall.as_secs_f64() * 1e3));
            let _ = writeln!(by_step, "| {} | {arch} | {} | {first} |", cfg.name(), step_cells(&r.steps));
        }
        let (text, steps) = line(cfg, arch, "weft", weft, bin.as_deref());
        let _ = writeln!(table, "{text}");
        if cfg.kind == "mm" && cfg.block == [64, 64, 32] {
            plain.push((arch, steps));
        }
        if matches!(cfg.kind, "ag_gemm" | "gemm_rs") {
            let base = plain.iter().find(|p| p.0 == arch).and_then(|p| p.1);
            if let (Some(s), Some(b)) = (steps, base) {
                overlap += &format!("- {} {arch}: {s} SASS / K-step, {:.2}x the plain gemm's {b} (64x64x32 w4; goal ≤ 1.3x)\n", cfg.kind, s as f64 / b as f64);
            }
        }
        if let (Some(py), Some(bin), true) = (&python, &bin, matches!(cfg.kind, "mm" | "copy")) {
            eprintln!("[{}/{total}] {} {arch}: Triton", i + 1, cfg.name());
            let tri = triton_row(py, bin, root, cfg, sm, &dir.join("triton"));
            let _ = writeln!(table, "{}", line(cfg, arch, &format!("Triton {TRITON}"), tri, Some(bin)).0);
        }
    }
    table += &format!("\n{load_start}; {}.\n", load("at the end"));
    table += &format!(
        "\nweft's cold compiles by step, CPU ms / wall ms. `cold` compiles a kernel not in the compile cache with the toolchain cache warm (NVSHMEM's library already prepared for the kernel's references, as after any earlier NVSHMEM compile with the same calls); `toolchain-cold` is the first compile with both caches empty:\n\n{by_step}"
    );
    if !overlap.is_empty() {
        table += &format!("\nOverlap kernels against the plain gemm:\n{overlap}");
    }
    if bin.is_none() {
        table += "\nSASS columns need cuobjdump (from the Triton wheel), which is not installed.\n";
    }
    let _ = std::fs::remove_dir_all(&work);
    support::write_summary("codegen.md", &table);
}

/// One table row: the metrics of `row`, or its error; and the main loop's SASS count.
fn line(cfg: &Config, arch: &str, who: &str, row: Result<Row, String>, bin: Option<&Path>) -> (String, Option<usize>) {
    let head = format!("| {} | {arch} | {who} |", cfg.name());
    let r = match row {
        Ok(r) => r,
        Err(e) => return (format!("{head} error: {} | | | | | | | | |", e.lines().next().unwrap_or("").replace('|', "/")), None),
    };
    let mut steps = None;
    let p = &r.ptxas;
    let shared = p.shared + r.dynamic_smem;
    let regs = format!("{} | {}/{} | {shared} |", p.registers, p.spill_stores, p.spill_loads);
    let times = format!("{} / {} | {} / {} |", ms(r.cold.wall), ms(r.cold.cpu), ms(r.cached.wall), ms(r.cached.cpu));
    let sass = bin.ok_or_else(|| "no cuobjdump".to_string()).and_then(|b| disassemble(b, &r.cubin));
    let code = match sass {
        Ok(text) => {
            let f = sass::function(&text, &r.symbol);
            match sass::main_loop(&f) {
                Some(l) => {
                    steps = Some(l.len());
                    let (in_loop, all) = (sass::describe(&sass::global_memory(l)), sass::describe(&sass::global_memory(&f)));
                    format!("{}{} | {regs} {in_loop} | {all} | {} |", l.len(), sass::matrix_ops(l), sass::barriers(l))
                }
                None => format!("{} (no loop; whole kernel) | {regs} – | {} | {} (kernel) |", f.len(), sass::describe(&sass::global_memory(&f)), sass::barriers(&f)),
            }
        }
        Err(e) => format!("{e} | {regs} | | |"),
    };
    (format!("{head} {code} {times}"), steps)
}

fn ms(d: Duration) -> String {
    if d >= Duration::from_secs(1) { format!("{:.2} s", d.as_secs_f64()) } else { format!("{:.1} ms", d.as_secs_f64() * 1e3) }
}

/// The columns of the by-step table: each takes the steps whose names start with one of its
/// prefixes.
const STEP_GROUPS: [(&str, &[&str]); 7] = [
    ("tir + layout + gpu", &["tir", "layout", "gpu."]),
    ("NVSHMEM link", &["nvshmem."]),
    ("O3", &["llvm.opt"]),
    ("print + reparse", &["llvm.print", "llvm.reparse"]),
    ("PTX (llc)", &["ptx"]),
    ("ptxas", &["cubin."]),
    ("cache", &["cache."]),
];

/// `CPU / wall` per step group, then the total.
fn step_cells(steps: &[Step]) -> String {
    let sum = |pick: &dyn Fn(&Step) -> bool| {
        let (cpu, wall) = steps.iter().filter(|s| pick(s)).fold((Duration::ZERO, Duration::ZERO), |a, s| (a.0 + s.cpu, a.1 + s.wall));
        format!("{:.0} / {:.0}", cpu.as_secs_f64() * 1e3, wall.as_secs_f64() * 1e3)
    };
    let mut cells: Vec<String> = STEP_GROUPS.iter().map(|(_, prefixes)| sum(&|s: &Step| prefixes.iter().any(|p| s.name.starts_with(p)))).collect();
    cells.push(sum(&|s: &Step| s.name == "total"));
    cells.join(" | ")
}

/// `cuobjdump -sass` of `cubin`.
fn disassemble(bin: &Path, cubin: &[u8]) -> Result<String, String> {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let f = std::env::temp_dir().join(format!("weft-codegen-{}-{seq}.cubin", std::process::id()));
    std::fs::write(&f, cubin).map_err(|e| e.to_string())?;
    let out = Command::new(bin.join("cuobjdump")).arg("-sass").arg(&f).output().map_err(|e| format!("cuobjdump: {e}"))?;
    let _ = std::fs::remove_file(&f);
    if !out.status.success() {
        return Err(format!("cuobjdump: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// weft's kernel for `cfg`: the library's `gemm`, or a 1-D copy written here. Both are the
/// variant a launch with 16-byte-aligned buffers and sizes divisible by 16 (and below 2^30)
/// runs, the same facts Triton's side is compiled with (`tt.divisibility=16`, i32 sizes).
fn weft_kernel(cfg: &Config, target: Target) -> Result<Kernel, String> {
    let [bm, bn, bk] = cfg.block;
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    // Sizes below 2^30: Triton passes such integers as i32.
    let small = weft::compiler::analysis::specialize::SMALL_CONSTEXPR;
    if cfg.kind == "copy" {
        let c = Constexprs::new().with("BLOCK", bm).with("num_warps", cfg.warps).with(facts, "x,y,n");
        return dsl::kernel("copy", &c, |a| {
            let (x, y, n) = (a.ptr("x", Scalar::BF16), a.ptr("y", Scalar::BF16), a.i32("n"));
            let offs = dsl::program_id(0) * (bm as i32) + dsl::arange(0, bm as i32);
            let mask = offs.lt(n);
            dsl::store_masked(y + offs, dsl::load_masked(x + offs, mask, 0.0f32), mask);
            Ok(())
        })
        .map_err(|e| e.to_string());
    }
    if let Some(params) = match cfg.kind {
        "ag_gemm" => Some("a_shard,a_full,b,c,m,n,k"),
        "gemm_rs" => Some("a,b,c,m,n,k"),
        _ => None,
    } {
        let c = weft::kernels::target_constexprs(cfg.kind, "bf16", target).map_err(|e| e.to_string())?.with(facts, params).with(small, "m,n,k");
        return weft::kernels::build(cfg.kind, &c).map_err(|e| e.to_string());
    }
    let c = weft::kernels::target_constexprs("gemm", "bf16", target).map_err(|e| e.to_string())?;
    let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", cfg.warps).with(facts, "a,b,c,m,n,k").with(small, "m,n,k");
    weft::kernels::build("gemm", &c).map_err(|e| e.to_string())
}

/// Compiles weft's kernel cold into an empty cache in `dir`, then again from that cache.
fn weft_row(cfg: &Config, arch: &str, dir: &Path) -> Result<Row, String> {
    let target = Target::parse(arch).ok_or("unknown target")?;
    let k = weft_kernel(cfg, target)?;
    // Each compile is one `total` step after its own steps.
    let compile = |dir: &Path| {
        timings::collect();
        let b = timings::time("total", || weft::compiler::cache::compile_gpu_in(dir, &k, target, &Options::default())).map_err(|e| e.to_string());
        let steps = timings::take();
        let t = steps.last().map_or(Time { wall: Duration::ZERO, cpu: Duration::ZERO }, |s| Time { wall: s.wall, cpu: s.cpu });
        b.map(|b| (b, t, steps))
    };
    // The first compile ever: the toolchain cache emptied too (NVSHMEM's library prepared).
    let _ = std::fs::remove_dir_all(weft::compiler::cache::toolchain_dir());
    let (_, first, _) = compile(&dir.join("first"))?;
    weft::compiler::cache::clear_memory_cache();
    let (_, cold, steps) = compile(dir)?;
    weft::compiler::cache::clear_memory_cache();
    let (b, cached, _) = compile(dir)?;
    if !b.from_disk_cache {
        return Err("the second compile missed the disk cache".into());
    }
    let ptxas = b.ptxas.clone().ok_or("no ptxas report")?;
    Ok(Row { cubin: b.image.clone(), symbol: b.symbol.clone(), ptxas, dynamic_smem: b.dynamic_smem, cold, cached, steps, first: Some(first) })
}

/// Compiles Triton's kernel for `cfg` in a new Python process (`codegen_triton.py`), then
/// runs ptxas -v on its PTX for the register and spill report.
fn triton_row(py: &Path, bin: &Path, root: &Path, cfg: &Config, sm: u32, dir: &Path) -> Result<Row, String> {
    let [bm, bn, bk] = cfg.block.map(|b| b.to_string());
    let script = root.join("bench/codegen_triton.py");
    let out = Command::new(py)
        .arg(&script)
        .args([cfg.kind, &bm, &bn, &bk, &cfg.warps.to_string(), &sm.to_string()])
        .arg(dir)
        .env("TRITON_DEFAULT_FP_FUSION", "1")
        .output()
        .map_err(|e| format!("python: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = stdout.lines().last().unwrap_or("");
    if !out.status.success() || !json.starts_with('{') {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("triton.compile failed: {}", err.lines().last().unwrap_or("")));
    }
    let field = |name: &str| -> Result<String, String> {
        let at = json.find(&format!("\"{name}\": ")).ok_or(format!("no {name} in {json}"))? + name.len() + 4;
        Ok(json[at..].split([',', '}']).next().unwrap_or("").trim().trim_matches('"').to_string())
    };
    let secs = |name: &str| -> Result<Duration, String> { field(name)?.parse::<f64>().map(Duration::from_secs_f64).map_err(|e| e.to_string()) };
    let time = |name: &str| -> Result<Time, String> { Ok(Time { wall: secs(name)?, cpu: secs(&format!("{name}_cpu"))? }) };
    let symbol = field("name")?;
    let ptx = dir.join(format!("{}.ptx", cfg.kind));
    // Triton compiles sm_90 and sm_100 for their `a` (arch-specific) variants.
    let gpu = if sm >= 90 { format!("sm_{sm}a") } else { format!("sm_{sm}") };
    // The wheel has two: `ptxas` (CUDA 12.8) and `ptxas-blackwell` (13.x, for the newer PTX
    // Triton emits for some targets); the first that takes the PTX.
    let mut log = String::new();
    for tool in ["ptxas", "ptxas-blackwell"] {
        let v = Command::new(bin.join(tool)).args(["-v", "-O3", "--gpu-name", &gpu]).arg(&ptx).arg("-o").arg(dir.join("ptxas.cubin")).output().map_err(|e| format!("{tool}: {e}"))?;
        log = String::from_utf8_lossy(&v.stderr).into_owned() + &String::from_utf8_lossy(&v.stdout);
        if v.status.success() {
            break;
        }
    }
    Ok(Row {
        cubin: std::fs::read(dir.join(format!("{}.cubin", cfg.kind))).map_err(|e| e.to_string())?,
        ptxas: parse_ptxas(&log, &symbol),
        symbol,
        dynamic_smem: field("shared")?.parse().map_err(|_| "bad shared".to_string())?,
        cold: time("cold")?,
        cached: time("cached")?,
        steps: vec![],
        first: None,
    })
}

/// The Python with Triton installed: `$WEFT_TRITON_VENV` or `.tools/triton`, made on first use
/// (a venv from `.tools/py`'s Python, then `pip install triton==3.9.0`, with pip's progress).
fn triton_python(root: &Path) -> Result<PathBuf, String> {
    let venv = std::env::var_os("WEFT_TRITON_VENV").map(PathBuf::from).unwrap_or_else(|| root.join(".tools/triton"));
    let py = venv.join("bin/python");
    let has = |py: &Path| Command::new(py).args(["-c", &format!("import triton, sys; sys.exit(triton.__version__ != '{TRITON}')")]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if has(&py) {
        return Ok(py);
    }
    eprintln!("Installing triton=={TRITON} from PyPI into {} (first use) ...", venv.display());
    let base = [root.join(".tools/py/bin/python3"), PathBuf::from("python3")].into_iter().find(|p| Command::new(p).arg("--version").output().is_ok()).ok_or("no python3")?;
    let ok = |c: &mut Command| c.status().is_ok_and(|s| s.success());
    if !py.exists() && !ok(Command::new(&base).args(["-m", "venv"]).arg(&venv)) {
        return Err(format!("could not make a venv at {}", venv.display()));
    }
    if !ok(Command::new(&py).args(["-m", "pip", "install", "--progress-bar", "on", &format!("triton=={TRITON}")])) {
        return Err(format!("pip install triton=={TRITON} failed (no network?)"));
    }
    if has(&py) { Ok(py) } else { Err(format!("triton {TRITON} does not import after installing")) }
}

/// The CUDA tools bundled in the Triton wheel (ptxas, cuobjdump, nvdisasm).
fn triton_bin(py: &Path) -> Option<PathBuf> {
    let out = Command::new(py).args(["-c", "import os, triton; print(os.path.dirname(triton.__file__))"]).output().ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("backends/nvidia/bin");
    dir.join("cuobjdump").exists().then_some(dir)
}
