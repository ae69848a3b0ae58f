//! The compile cache: kernels compiled once, keyed by a hash of their IR (which embeds the
//! constexprs), the target, what else decides the code (the host machine for the CPU; ptxas and
//! NVSHMEM's bitcode, or ld.lld, for GPUs) and this build of weft, kept in memory and on disk
//! (shared libraries for the CPU, see [`gpu`] for GPU binaries) so that a second run of a
//! program does not recompile.

use crate::backend::link;
use crate::error::CompileError;
use crate::ir::{print::print_kernel, Kernel, Loc};
use crate::lower::SiteInfo;
use crate::pipeline::{self, Options, Target};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

pub mod evict;
pub mod gpu;
pub use gpu::{compile_gpu, compile_gpu_in, run_cached, GpuBinary};
pub mod variant;
pub use variant::{compile_variant, Compiled};

/// A kernel compiled to native code and loaded into this process.
pub struct CompiledKernel {
    /// Kernel name.
    pub name: String,
    /// Runtime call sites (for diagnostics).
    pub sites: Vec<SiteInfo>,
    /// Whether it came from the on-disk cache.
    pub from_disk_cache: bool,
    loaded: link::Loaded,
}

impl CompiledKernel {
    /// The launch handle the runtime takes.
    pub fn launchable(self: &Arc<Self>) -> weft_runtime::Launchable {
        let sites = self.sites.iter().map(|s| weft_runtime::Site { op: s.op.clone(), loc: s.loc.to_string() }).collect();
        weft_runtime::Launchable::cpu(self.name.clone(), self.loaded.entry, sites, Some(self.clone()))
    }
}

fn memory() -> &'static Mutex<HashMap<String, Arc<CompiledKernel>>> {
    static MEM: OnceLock<Mutex<HashMap<String, Arc<CompiledKernel>>>> = OnceLock::new();
    MEM.get_or_init(Default::default)
}

/// Forgets kernels loaded in this process (the on-disk cache stays), so the next
/// [`compile`] goes to disk. For tests of the cache itself.
pub fn clear_memory_cache() {
    memory().lock().unwrap_or_else(|e| e.into_inner()).clear();
    gpu::clear_memory();
}

/// The on-disk cache directory: `$WEFT_CACHE_DIR`, else `$XDG_CACHE_HOME/weft`, else `~/.cache/weft`.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("WEFT_CACHE_DIR") {
        return d.into();
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("weft")
}

/// Where what is prepared once per toolchain is kept (NVSHMEM's library for a set of
/// references, [`crate::backend::nvshmem_lib`]): `toolchain/` in [`cache_dir`].
pub fn toolchain_dir() -> PathBuf {
    cache_dir().join("toolchain")
}

fn host_id() -> String {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        crate::backend::llvm::TargetMachine::host().map(|tm| format!("{} {}", tm.cpu, tm.features)).unwrap_or_default()
    })
    .clone()
}

/// What identifies a file for the key: path, size and modification time (a reinstalled ptxas
/// or NVSHMEM changes them; reading the 50 MB bitcode on every lookup would not be cheap).
pub(crate) fn file_id(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => {
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
            format!("{} {} {mtime};", path.display(), m.len())
        }
        Err(_) => format!("{} missing;", path.display()),
    }
}

/// What decides the code besides the kernel: the host CPU, or the GPU tools of the target.
fn machine_id(target: Target) -> String {
    use crate::backend::toolchain::{llvm_tool, Toolchain};
    let tc = Toolchain::new();
    let tool = |p: Result<PathBuf, crate::backend::toolchain::ToolError>| p.map(|p| file_id(&p)).unwrap_or_else(|e| e.looked + " missing;");
    match target {
        Target::Cpu => host_id(),
        Target::Cuda { sm } => tool(tc.ptxas()) + &tool(tc.nvshmem_bitcode(sm.info().nvshmem_arch())),
        Target::Amd { .. } => tool(llvm_tool("ld.lld")),
    }
}

/// This build of weft: its version and a hash of the sources that decide generated code
/// (compiler/build.rs), so a changed compiler never serves code its predecessor made, while the
/// CLI, tests and benches built from the same sources share entries.
pub(crate) fn build_id() -> &'static str {
    concat!(env!("CARGO_PKG_VERSION"), " ", env!("WEFT_SOURCE_HASH"))
}

/// The cache key of `kernel` for `target` on this machine.
pub fn cache_key(kernel: &Kernel, target: Target) -> String {
    cache_key_on(kernel, target, &machine_id(target))
}

/// The cache key of `kernel` for `target` where `machine` (the CPU model and features, or the
/// GPU tools) decides the code besides the kernel.
fn cache_key_on(kernel: &Kernel, target: Target, machine: &str) -> String {
    let mut h = blake3::Hasher::new();
    h.update(build_id().as_bytes());
    h.update(target.name().as_bytes());
    h.update(machine.as_bytes());
    h.update(print_kernel(kernel, true).as_bytes());
    for (k, v) in &kernel.constexprs {
        h.update(format!("{k}={v};").as_bytes());
    }
    h.finalize().to_hex()[..32].to_string()
}

/// The cache key of `kernel` compiled for the CPU with `opts`: the CPU model (or the host) and
/// race checks decide the code besides the kernel, so each combination is its own entry.
pub fn cpu_cache_key(kernel: &Kernel, opts: &Options) -> String {
    let machine = match &opts.cpu {
        Some(model) => model.clone(),
        None => machine_id(Target::Cpu),
    };
    let machine = if opts.racecheck { machine + " racecheck" } else { machine };
    cache_key_on(kernel, Target::Cpu, &machine)
}

/// A name part no other writer uses at the same time: this process and a count of calls.
/// A process id alone is not: two threads of one process (tests run that way) writing the
/// same entry shared the temporary, and the second rename found it gone.
pub fn unique_tag() -> String {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    format!("{}-{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// Writes `data` to `path` through a temporary file and a rename, so that concurrent
/// processes and threads never read a half-written entry.
fn write_atomic(path: &Path, data: &[u8]) -> Result<(), CompileError> {
    let tmp = path.with_extension(format!("{}.tmp", unique_tag()));
    let io = |source| CompileError::Io { path: path.display().to_string(), source };
    std::fs::write(&tmp, data).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Compiles `kernel` for the CPU, or returns it from the cache.
pub fn compile(kernel: &Kernel, opts: &Options) -> Result<Arc<CompiledKernel>, CompileError> {
    let key = cpu_cache_key(kernel, opts);
    if let Some(k) = memory().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(k.clone());
    }
    // After the memory cache: an entry there was checked when it was first compiled (the key
    // names the model).
    if let Some(model) = &opts.cpu {
        runs_here(model)?;
    }
    let dir = cache_dir();
    let so = dir.join(format!("{}-{key}.so", kernel.name));
    let sites_path = dir.join(format!("{}-{key}.sites", kernel.name));
    let symbol = crate::lower::cpu::entry_symbol(&kernel.name);
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| CompileError::Io { path, source }
    };
    // An entry another process evicts between the check and the load is compiled again.
    if so.exists() && sites_path.exists() && opts.dump_dir.is_none() {
        evict::touch(&so);
        if let Ok(text) = std::fs::read_to_string(&sites_path) {
            if let Ok(loaded) = link::load(&so, &symbol) {
                return Ok(remember(key, CompiledKernel { name: kernel.name.clone(), sites: read_sites(&text), from_disk_cache: true, loaded }));
            }
        }
    }
    let out = pipeline::run(kernel, Target::Cpu, None, opts)?;
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    // Temporaries unique per compile, not only per process: threads of one process (one
    // per rank, or parallel tests) compile the same kernel at once.
    static COMPILES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let tag = format!("{}.{}", std::process::id(), COMPILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let tmp = dir.join(format!("{}-{key}.{tag}.o", kernel.name));
    std::fs::write(&tmp, out.object.unwrap_or_default()).map_err(io(&tmp))?;
    let tmp_so = dir.join(format!("{}-{key}.{tag}.so", kernel.name));
    link::link_shared(&tmp, &tmp_so).map_err(|source| CompileError::Link { stage: "link", source })?;
    let _ = std::fs::remove_file(&tmp);
    // Renamed into place, sites first, so a reader that finds the library finds both whole.
    let tmp_sites = dir.join(format!("{}-{key}.{tag}.sites", kernel.name));
    let sites_text = write_sites(&out.sites);
    std::fs::write(&tmp_sites, &sites_text).map_err(io(&tmp_sites))?;
    std::fs::rename(&tmp_sites, &sites_path).map_err(io(&sites_path))?;
    let so_bytes = std::fs::metadata(&tmp_so).map_or(0, |m| m.len());
    std::fs::rename(&tmp_so, &so).map_err(io(&so))?;
    evict::after_write(&dir, so_bytes + sites_text.len() as u64);
    let loaded = link::load(&so, &symbol).map_err(|source| CompileError::Link { stage: "load", source })?;
    Ok(remember(key, CompiledKernel { name: kernel.name.clone(), sites: out.sites, from_disk_cache: false, loaded }))
}

/// An error unless code for CPU `model` runs on this host: what is compiled here is loaded
/// and launched here.
fn runs_here(model: &str) -> Result<(), CompileError> {
    use crate::backend::{cpu_model, llvm::TargetMachine};
    let llvm = |source| CompileError::Llvm { stage: "llvm", source };
    let mut missing = cpu_model::missing_on_host(model).map_err(llvm)?;
    if missing.is_empty() {
        return Ok(());
    }
    missing.sort();
    let shown = missing.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
    let missing = if missing.len() > 6 { format!("{shown} ({} in all)", missing.len()) } else { shown };
    let host = TargetMachine::host().map_err(llvm)?.cpu.clone();
    Err(CompileError::CpuModel { model: model.to_string(), missing, host })
}

/// Keeps `k` in this process's memory cache under `key`.
fn remember(key: String, k: CompiledKernel) -> Arc<CompiledKernel> {
    let k = Arc::new(k);
    memory().lock().unwrap_or_else(|e| e.into_inner()).insert(key, k.clone());
    k
}

fn write_sites(sites: &[SiteInfo]) -> String {
    sites.iter().map(|s| format!("{}\t{}\t{}\t{}\n", s.op, s.loc.file, s.loc.line, s.loc.col)).collect()
}

fn read_sites(text: &str) -> Vec<SiteInfo> {
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let num = |i: usize| f.get(i).and_then(|x| x.parse().ok()).unwrap_or(0);
            SiteInfo {
                op: f.first().unwrap_or(&"?").to_string(),
                loc: Loc { file: f.get(1).unwrap_or(&"?").to_string(), line: num(2), col: num(3) },
            }
        })
        .collect()
}
