//! The stage pipeline, in the manner of Triton's `make_ttir → make_ttgir → make_llir → make_ptx`:
//! stages are data (an ordered list per target), each one can be dumped, and a compilation can
//! stop after any of them. Errors carry the stage name.

use crate::error::CompileError;
use crate::ir::{print::print_kernel, Kernel};
use crate::lower::SiteInfo;
use melior::ir::operation::OperationLike;
use std::path::PathBuf;

mod cpu;
mod gpu;
mod launch_facts;
pub mod timings;

pub use gpu::import_layout;

/// What a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The host CPU (native code, loaded in process).
    Cpu,
    /// An NVIDIA GPU: PTX and a cubin, with NVSHMEM's device library linked in.
    Cuda {
        /// The architecture.
        sm: Sm,
    },
    /// An AMD GPU: AMDGCN and an HSA code object.
    Amd {
        /// The architecture.
        gfx: Gfx,
    },
}

/// NVIDIA architectures weft compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sm {
    /// Ampere (A100).
    Sm80,
    /// Hopper (H100), with its arch-specific features (wgmma, multimem).
    Sm90a,
    /// Blackwell (B200), arch-specific.
    Sm100a,
}

/// AMD architectures weft compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gfx {
    /// CDNA2 (MI200).
    Gfx90a,
    /// CDNA3 (MI300).
    Gfx942,
}

/// Every target name `Target::parse` accepts.
pub const TARGET_NAMES: [&str; 6] = ["cpu", "sm_80", "sm_90a", "sm_100a", "gfx90a", "gfx942"];

impl Target {
    /// Target name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Cpu => "cpu",
            Target::Cuda { sm: Sm::Sm80 } => "sm_80",
            Target::Cuda { sm: Sm::Sm90a } => "sm_90a",
            Target::Cuda { sm: Sm::Sm100a } => "sm_100a",
            Target::Amd { gfx: Gfx::Gfx90a } => "gfx90a",
            Target::Amd { gfx: Gfx::Gfx942 } => "gfx942",
        }
    }

    /// The ordered stages of this target.
    pub fn stages(self) -> &'static [Stage] {
        match self {
            Target::Cpu => &CPU_STAGES,
            Target::Cuda { .. } => &NVPTX_STAGES,
            Target::Amd { .. } => &AMD_STAGES,
        }
    }

    /// Parses a target name (see [`TARGET_NAMES`]).
    pub fn parse(s: &str) -> Option<Target> {
        Some(match s {
            "cpu" | "host" => Target::Cpu,
            "sm_80" => Target::Cuda { sm: Sm::Sm80 },
            "sm_90a" => Target::Cuda { sm: Sm::Sm90a },
            "sm_100a" => Target::Cuda { sm: Sm::Sm100a },
            "gfx90a" => Target::Amd { gfx: Gfx::Gfx90a },
            "gfx942" => Target::Amd { gfx: Gfx::Gfx942 },
            _ => return None,
        })
    }
}

/// One pipeline stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Name used by `--emit` and in errors.
    pub name: &'static str,
    /// What it holds.
    pub about: &'static str,
    /// File extension of its dump.
    pub ext: &'static str,
}

/// The first stage of every pipeline.
const TIR_STAGE: Stage = Stage { name: "tir", about: "tile/shmem dialects, verified by MLIR", ext: "mlir" };

/// The GPU stage after `tir`: every tile's encoding decided (Triton's TritonGPU IR).
const LAYOUT_STAGE: Stage = Stage { name: "layout", about: "tile/shmem with each tile's encoding (blocked, slice, mma, dot operand, shared) in its tensor type, conversions explicit", ext: "mlir" };

/// The CPU pipeline.
pub const CPU_STAGES: [Stage; 5] = [
    TIR_STAGE,
    Stage { name: "lowered", about: "upstream MLIR dialects plus runtime calls", ext: "mlir" },
    Stage { name: "llvm-mlir", about: "MLIR LLVM dialect after conversion", ext: "mlir" },
    Stage { name: "llvm", about: "LLVM IR after O3", ext: "ll" },
    Stage { name: "asm", about: "native assembly", ext: "s" },
];

/// The NVIDIA pipeline.
pub const NVPTX_STAGES: [Stage; 6] = [
    TIR_STAGE,
    LAYOUT_STAGE,
    Stage { name: "gpu", about: "the per-thread LLVM IR of one CTA (NVVM intrinsics, NVSHMEM calls declared), verified by LLVM", ext: "ll" },
    Stage { name: "llvm", about: "that module linked with NVSHMEM's device bitcode, internalized, globaldce, O3", ext: "ll" },
    Stage { name: "ptx", about: "PTX assembly from LLVM's NVPTX back end", ext: "ptx" },
    Stage { name: "cubin", about: "cubin from ptxas; the text is ptxas's resource report", ext: "txt" },
];

/// The AMD pipeline.
pub const AMD_STAGES: [Stage; 6] = [
    TIR_STAGE,
    LAYOUT_STAGE,
    Stage { name: "gpu", about: "the per-thread LLVM IR of one workgroup (AMDGPU intrinsics), verified by LLVM", ext: "ll" },
    Stage { name: "llvm", about: "that module after O3", ext: "ll" },
    Stage { name: "amdgcn", about: "AMDGCN assembly from LLVM's AMDGPU back end, with its kernel-info comments", ext: "s" },
    Stage { name: "hsaco", about: "HSA code object linked by ld.lld; the text is the register / scratch report", ext: "txt" },
];

/// The MLIR pass pipeline from `lowered` to `llvm-mlir`.
pub const CPU_TO_LLVM: &str = "builtin.module(convert-scf-to-cf,convert-vector-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,reconcile-unrealized-casts)";

/// Options shared by every compilation.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write every stage's text to this directory (`<kernel>.<stage>.<ext>`).
    pub dump_dir: Option<PathBuf>,
    /// The CPU model the CPU target compiles for (an LLVM CPU name such as `x86-64-v3` or
    /// `sapphirerapids`, with that model's features); `None` is the host (`WEFT_CPU`).
    pub cpu: Option<String>,
    /// Report every tile load and store of CPU code to `local`'s race detector
    /// (`WEFT_RACECHECK=1`): a separate cache entry, slower, for finding races.
    pub racecheck: bool,
}

impl Options {
    /// Options from the environment: `WEFT_DUMP_DIR` enables dumps, `WEFT_CPU` picks the CPU
    /// model, `WEFT_RACECHECK` compiles race checks in.
    pub fn from_env() -> Options {
        let racecheck = std::env::var("WEFT_RACECHECK").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"));
        Options { dump_dir: std::env::var_os("WEFT_DUMP_DIR").map(PathBuf::from), cpu: std::env::var("WEFT_CPU").ok().filter(|c| !c.is_empty()), racecheck }
    }

    pub(crate) fn dump(&self, kernel: &str, stage: &Stage, text: &str) -> Result<(), CompileError> {
        let Some(dir) = &self.dump_dir else { return Ok(()) };
        let path = dir.join(format!("{kernel}.{}.{}", stage.name, stage.ext));
        std::fs::create_dir_all(dir)
            .and_then(|_| std::fs::write(&path, text))
            .map_err(|source| CompileError::Io { path: path.display().to_string(), source })
    }
}

/// What a run of the pipeline produced.
pub struct Output {
    /// Text of the last stage run.
    pub text: String,
    /// Object code, when the pipeline ran to the end.
    pub object: Option<Vec<u8>>,
    /// Runtime call sites of the kernel.
    pub sites: Vec<SiteInfo>,
    /// Entry symbol.
    pub symbol: String,
    /// Host CPU and features (for cache keys), or the GPU architecture.
    pub machine: String,
    /// ptxas's register and spill report, when a cubin was assembled.
    pub ptxas: Option<crate::backend::nvptx::PtxasReport>,
    /// The AMDGPU back end's register and scratch report, when an AMD code object was linked.
    pub amdgpu: Option<crate::backend::amdgpu::AmdgpuReport>,
    /// Dynamic shared memory bytes a GPU launch must give each CTA.
    pub dynamic_smem: u32,
    /// The tensor maps a GPU launch appends to the arguments (see `lower::gpu::GpuModule`).
    pub tma: Vec<weft_runtime::cuda::tensor_map::TmaParam>,
}

/// Returns the stage named `name`, or an error listing the valid ones.
pub fn find_stage(target: Target, name: &str) -> Result<Stage, CompileError> {
    target.stages().iter().copied().find(|s| s.name == name).ok_or_else(|| CompileError::UnknownStage {
        stage: name.into(),
        target: target.name().into(),
        known: target.stages().iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
    })
}

/// The `tir` stage: the kernel as MLIR text, verified by MLIR with the IRDL dialects loaded.
pub fn make_tir(kernel: &Kernel) -> Result<String, CompileError> {
    let text = print_kernel(kernel, true);
    with_check_context("tir", |ctx| {
        let module = weft_dialects::parse(ctx, &text, &kernel.name).map_err(|source| CompileError::Mlir { stage: "tir", source })?;
        Ok(weft_dialects::print(&module))
    })
}

/// Uses of one checking context before it is made afresh: what a parse interns (types,
/// attributes, locations) stays in the context, so a long-running process does not keep it
/// forever.
pub(crate) const CHECK_CONTEXT_USES: u32 = 256;

/// Runs `f` with this thread's MLIR context for parsing and printing stage text (`tir`, a
/// dumped `layout`). Making one loads every dialect and weft's IRDL (~10 ms of CPU, most of a
/// `tir` stage), so each thread keeps one for [`CHECK_CONTEXT_USES`] uses. Single-threaded:
/// parsing a kernel gains nothing from MLIR's thread pool, and a pool per thread would not be
/// free.
pub(crate) fn with_check_context<T>(stage: &'static str, f: impl FnOnce(&melior::Context) -> Result<T, CompileError>) -> Result<T, CompileError> {
    thread_local! {
        static CHECK: std::cell::RefCell<Option<(melior::Context, u32)>> = const { std::cell::RefCell::new(None) };
    }
    CHECK.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|(_, uses)| *uses >= CHECK_CONTEXT_USES) {
            *slot = None;
            let ctx = timings::time("mlir.context", weft_dialects::context).map_err(|source| CompileError::Mlir { stage, source })?;
            ctx.enable_multi_threading(false);
            *slot = Some((ctx, 0));
        }
        let (ctx, uses) = slot.as_mut().expect("made above");
        *uses += 1;
        f(ctx)
    })
}

/// Runs the pipeline for `kernel` up to and including stage `until` (or to object code).
pub fn run(kernel: &Kernel, target: Target, until: Option<&str>, opts: &Options) -> Result<Output, CompileError> {
    let until = until.map(|u| find_stage(target, u)).transpose()?;
    let _label = timings::label(format!("{} {}", kernel.name, target.name()));
    match target {
        Target::Cpu => cpu::run_cpu(kernel, until, opts),
        Target::Cuda { sm } => gpu::run_nvptx(kernel, sm, until, opts),
        Target::Amd { gfx } => gpu::run_amd(kernel, gfx, until, opts),
    }
}

/// The stages of one run: each one's text replaces the output's and is dumped. Every
/// target's pipeline is one loop over its stage list that records each stage here.
struct Steps<'a> {
    stages: &'static [Stage],
    name: &'a str,
    until: Option<Stage>,
    opts: &'a Options,
}

impl Steps<'_> {
    /// Records stage `i`'s text; returns whether the run stops there.
    fn next(&self, out: &mut Output, i: usize, text: String) -> Result<bool, CompileError> {
        out.text = text;
        self.opts.dump(self.name, &self.stages[i], &out.text)?;
        Ok(self.until == Some(self.stages[i]))
    }
}

/// Continues a compilation from `text`, the dump of stage `stage` of the kernel whose entry is
/// `symbol`, up to `until` (or to the end). GPU targets start at `layout`, NVIDIA ones also at
/// `gpu`, `llvm` or `ptx` (`tir` is [`import_tir`]); the CPU only at `tir`.
pub fn run_from(text: &str, stage: &str, symbol: &str, target: Target, until: Option<&str>, opts: &Options) -> Result<Output, CompileError> {
    let start = find_stage(target, stage)?;
    let until = until.map(|u| find_stage(target, u)).transpose()?;
    let _label = timings::label(format!("{symbol} {}", target.name()));
    match target {
        Target::Cuda { sm } => gpu::resume_nvptx(text, start, symbol, sm, until, opts),
        Target::Amd { gfx } if start.name == "layout" => gpu::resume_amd_layout(text, symbol, gfx, until, opts),
        _ => Err(CompileError::Import { file: format!("{symbol}.{stage}.{}", start.ext), message: format!("{} compilations start only at `tir`", target.name()) }),
    }
}

/// Runs a textual MLIR pass pipeline with the verifier on.
pub fn run_passes(ctx: &melior::Context, module: &mut melior::ir::Module, pipeline: &str, stage: &'static str) -> Result<(), CompileError> {
    let pm = melior::pass::PassManager::new(ctx);
    pm.enable_verifier(true);
    let fail = |message: String| CompileError::Pass { stage, pipeline: pipeline.into(), message };
    melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).map_err(|e| fail(e.to_string()))?;
    let (result, diags) = weft_dialects::with_diagnostics(ctx, || pm.run(module));
    if let Err(e) = result {
        let first = diags.iter().find(|d| d.severity == weft_dialects::Severity::Error).or(diags.first());
        return Err(fail(first.map(|d| d.to_string()).unwrap_or_else(|| e.to_string())));
    }
    if !module.as_operation().verify() {
        return Err(fail("the module does not verify after the pipeline".into()));
    }
    Ok(())
}

/// Parses and verifies `tir` text (MLIR in the `tile` / `shmem` dialects) and imports it,
/// so a dumped or hand-written stage can start the pipeline.
pub fn import_tir(text: &str, file: &str) -> Result<Kernel, CompileError> {
    let ctx = weft_dialects::context().map_err(|source| CompileError::Mlir { stage: "tir", source })?;
    let module = weft_dialects::parse(&ctx, text, file).map_err(|source| CompileError::Mlir { stage: "tir", source })?;
    crate::ir::import::import(&module).map_err(|e| CompileError::Import { file: file.into(), message: e.to_string() })
}
