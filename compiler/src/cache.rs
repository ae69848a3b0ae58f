//! The compile cache: kernels compiled once, keyed by a hash of their IR (which embeds the
//! constexprs), the target and the host machine, kept in memory and on disk as shared
//! libraries so that a second run of a program does not recompile.

use crate::backend::link;
use crate::error::CompileError;
use crate::ir::{print::print_kernel, Kernel, Loc};
use crate::lower::SiteInfo;
use crate::pipeline::{self, Options, Target};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

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

fn host_id() -> String {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        crate::backend::llvm::TargetMachine::host().map(|tm| format!("{} {}", tm.cpu, tm.features)).unwrap_or_default()
    })
    .clone()
}

/// The cache key of `kernel` for `target`.
pub fn cache_key(kernel: &Kernel, target: Target) -> String {
    let mut h = blake3::Hasher::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(target.name().as_bytes());
    h.update(host_id().as_bytes());
    h.update(print_kernel(kernel, true).as_bytes());
    for (k, v) in &kernel.constexprs {
        h.update(format!("{k}={v};").as_bytes());
    }
    h.finalize().to_hex()[..32].to_string()
}

/// Compiles `kernel` for the CPU, or returns it from the cache.
pub fn compile(kernel: &Kernel, opts: &Options) -> Result<Arc<CompiledKernel>, CompileError> {
    let key = cache_key(kernel, Target::Cpu);
    if let Some(k) = memory().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(k.clone());
    }
    let dir = cache_dir();
    let so = dir.join(format!("{}-{key}.so", kernel.name));
    let sites_path = dir.join(format!("{}-{key}.sites", kernel.name));
    let symbol = crate::lower::cpu::entry_symbol(&kernel.name);
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| CompileError::Io { path, source }
    };
    let from_disk = so.exists() && sites_path.exists() && opts.dump_dir.is_none();
    let sites = if from_disk {
        read_sites(&std::fs::read_to_string(&sites_path).map_err(io(&sites_path))?)
    } else {
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
        std::fs::write(&tmp_sites, write_sites(&out.sites)).map_err(io(&tmp_sites))?;
        std::fs::rename(&tmp_sites, &sites_path).map_err(io(&sites_path))?;
        std::fs::rename(&tmp_so, &so).map_err(io(&so))?;
        out.sites
    };
    let loaded = link::load(&so, &symbol).map_err(|source| CompileError::Link { stage: "load", source })?;
    let compiled = Arc::new(CompiledKernel { name: kernel.name.clone(), sites, from_disk_cache: from_disk, loaded });
    memory().lock().unwrap_or_else(|e| e.into_inner()).insert(key, compiled.clone());
    Ok(compiled)
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
