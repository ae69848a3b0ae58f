//! weft's SIMT emulator: runs the per-thread GPU IR the NVPTX and AMDGPU lowerings emit (before
//! NVSHMEM is linked) on the CPU, under the `local` transport, so GPU code is executed and checked
//! against the same references as CPU code.
//!
//! The IR is retargeted to the host through LLVM's API ([`retarget`]): target intrinsics,
//! NVSHMEM device calls and the inline PTX the lowering allows become calls into this crate's
//! runtime ([`rt`], [`shmem`]). A program instance of the `local` runtime is one CTA, and each
//! of its GPU threads a nested fiber ([`cta`]): barriers, warp collectives and polls are
//! scheduling points, so ranks, the symmetric heap, signals and deadlock reports all come
//! from `local`, and what only an emulator can see (divergent barriers and collectives, lanes
//! outside a shuffle's mask, shared-memory races) is reported as a kernel fault naming the
//! thread, warp, block, rank and op. Asynchronous copies complete late on purpose (`cp.async`
//! at its wait, TMA loads only when every thread waits: `tma`, `mbarrier`), so a missing
//! wait shows as stale data or a race report rather than passing by luck.

mod amd;
mod bounds;
mod cp_async;
mod wgmma;
mod wgmma_groups;
mod cta;
mod disk;
mod entry;
mod fp8;
mod groups;
mod ir;
mod ir_build;
mod ldmatrix;
mod mbarrier;
mod mfma;
mod object;
mod plant;
mod race;
mod report;
mod retarget;
mod retarget_amd;
mod rt;
mod shmem;
mod slots;
mod sync;
mod tma;
mod tma_asm;
mod tma_box;
mod tma_ir;
mod tma_map;
mod warp;

pub use plant::Plant;
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use weft_compiler::ir::Kernel;
use weft_compiler::lower::gpu::target::TargetInfo;
use weft_compiler::pipeline::Target;
use weft_runtime::cuda::tensor_map::TmaParam;
use weft_runtime::Launchable;

/// Why a kernel cannot run on the emulator.
#[derive(Debug, thiserror::Error)]
pub enum EmuError {
    /// The GPU lowering rejected the kernel.
    #[error(transparent)]
    Lower(#[from] weft_compiler::lower::LowerError),
    /// The IR uses something the emulator does not implement.
    #[error("the SIMT emulator cannot run {0}")]
    Unsupported(String),
    /// The target is not one the emulator runs.
    #[error("the SIMT emulator runs sm_80, sm_90a, sm_100a, gfx90a and gfx942 code, not `{0}`")]
    Target(String),
    /// LLVM failed (parsing, verifying, emitting).
    #[error("emulator code generation: {0}")]
    Llvm(String),
    /// Linking or loading the host object failed.
    #[error(transparent)]
    Link(#[from] weft_compiler::backend::link::LinkError),
    /// A temporary file could not be written.
    #[error("emulator temporary file {0}")]
    Io(String),
}

/// What to check besides running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checks {
    /// Check shared-memory accesses for races between barriers and reads of bytes no thread
    /// wrote (a call per access).
    pub races: bool,
    /// Count the instructions GPU threads execute ([`executed_instructions`]).
    pub count: bool,
    /// Check every global access against the buffers the host allocated (a call per access,
    /// per lane of a gather / scatter).
    pub bounds: bool,
}

impl Checks {
    /// From `WEFT_EMU_CHECKS`, a comma-separated list of `races`, `count`, `bounds`.
    pub fn from_env() -> Checks {
        let v = std::env::var("WEFT_EMU_CHECKS").unwrap_or_default();
        let has = |c: &str| v.split(',').any(|x| x.trim() == c);
        Checks { races: has("races"), count: has("count"), bounds: has("bounds") }
    }
}

/// GPU-thread instructions (of the per-thread LLVM IR, before optimization) executed by
/// kernels compiled with [`Checks::count`] in this process so far.
pub fn executed_instructions() -> u64 {
    rt::EXECUTED.load(std::sync::atomic::Ordering::Relaxed)
}

thread_local! {
    static OVERRIDE: Cell<Option<(Checks, Option<Plant>)>> = const { Cell::new(None) };
}

/// Runs `f` with every kernel this thread compiles for the emulator checked by `checks` and
/// carrying the planted bug `plant` (whatever the caller of [`launchable`] asked): for tests
/// that drive the kernel library's own runners.
pub fn with_checks<R>(checks: Checks, plant: Option<Plant>, f: impl FnOnce() -> R) -> R {
    let before = OVERRIDE.with(|o| o.replace(Some((checks, plant))));
    let r = f();
    OVERRIDE.with(|o| o.set(before));
    r
}

fn memory() -> &'static Mutex<HashMap<String, Arc<object::Loaded>>> {
    static MEM: OnceLock<Mutex<HashMap<String, Arc<object::Loaded>>>> = OnceLock::new();
    MEM.get_or_init(Default::default)
}

/// Compiles `kernel` for GPU architecture `arch` and loads it for the emulator: a launch
/// handle for a `local` world (ranks, grid and arguments as for CPU code).
pub fn launchable(kernel: &Kernel, arch: &str, checks: Checks) -> Result<Launchable, EmuError> {
    let info: Box<dyn TargetInfo> = match Target::parse(arch) {
        Some(Target::Cuda { sm }) => Box::new(sm.info()),
        Some(Target::Amd { gfx }) => Box::new(gfx.info()),
        _ => return Err(EmuError::Target(arch.into())),
    };
    // The kernel the GPU pipeline lowers for this variant.
    let kernel = &*weft_compiler::analysis::narrow_index::for_variant(kernel);
    let gpu = weft_compiler::lower::gpu::lower(kernel, info.as_ref())?;
    launchable_lowered(kernel, gpu, arch, info.warp_size(), checks)
}

/// [`launchable`] of GPU code already lowered for `arch` (warps of `warp` threads), e.g. from
/// a layout-stage file's encodings.
pub fn launchable_lowered(kernel: &Kernel, gpu: weft_compiler::lower::gpu::GpuModule, arch: &str, warp: usize, checks: Checks) -> Result<Launchable, EmuError> {
    let tma = gpu.tma.clone();
    launchable_lowered_tma(kernel, gpu, &tma, arch, warp, checks)
}

/// [`launchable_lowered`] of a kernel whose last `tma.len()` parameters are TMA tensor maps
/// (the GPU module's list): each launch computes them from the kernel's other arguments in
/// the emulator's encoding (`weft_runtime::cuda::tensor_map_emu`).
pub fn launchable_lowered_tma(kernel: &Kernel, gpu: weft_compiler::lower::gpu::GpuModule, tma: &[TmaParam], arch: &str, warp: usize, checks: Checks) -> Result<Launchable, EmuError> {
    let shape = object::Shape { threads: gpu.num_warps * warp, warp, dynamic_smem: gpu.dynamic_smem };
    launchable_ir(&kernel.name, &gpu.llvm, &gpu.symbol, shape, tma, arch, checks)
}

/// [`launchable_lowered_tma`] of LLVM IR `llvm` with entry `symbol`, launched as `shape`.
fn launchable_ir(name: &str, llvm: &str, symbol: &str, shape: object::Shape, tma: &[TmaParam], arch: &str, checks: Checks) -> Result<Launchable, EmuError> {
    let (checks, plant) = OVERRIDE.with(|o| o.get()).unwrap_or((checks, None));
    let key = format!("{arch}|{checks:?}|{plant:?}|{tma:?}|{shape:?}|{llvm}");
    let cached = memory().lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
    let loaded = match cached {
        Some(l) => l,
        None => {
            let l = Arc::new(object::build(llvm, symbol, shape, tma, checks, plant)?);
            memory().lock().unwrap_or_else(|e| e.into_inner()).insert(key, l.clone());
            l
        }
    };
    let sites = loaded.desc.sites.clone();
    Ok(Launchable::cpu(name.to_string(), loaded.entry, sites, Some(loaded)))
}
