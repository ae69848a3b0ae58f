//! The GPU pipelines. `gpu` is our per-thread lowering as a verified MLIR `gpu.module` (llvm
//! dialect with nvvm / rocdl ops, under the target's `#nvvm.target` / `#rocdl.target`); `llvm`
//! starts from that module translated back to LLVM IR. NVIDIA: `tir` → `gpu` → `llvm` (NVSHMEM's
//! device bitcode linked, internalized, O3) → `ptx` (llc) → `cubin` (ptxas). AMD: `tir` →
//! `gpu` → `llvm` (O3) → `amdgcn` (llc) → `hsaco` (ld.lld).

use super::{make_tir, Gfx, Output, Options, Sm, Stage, Target};
use crate::backend::llvm::LlvmModule;
use crate::backend::{amdgpu, gpu_dialect, nvptx};
use crate::backend::toolchain::Toolchain;
use crate::error::CompileError;
use crate::ir::Kernel;
use crate::lower::gpu::amdgpu::Amdgpu;
use crate::lower::gpu::target::{Nvptx, TargetInfo};

impl Sm {
    /// The lowering's description of this architecture.
    pub fn info(self) -> Nvptx {
        match self {
            Sm::Sm80 => Nvptx { sm: 80, name: "sm_80" },
            Sm::Sm90a => Nvptx { sm: 90, name: "sm_90a" },
            Sm::Sm100a => Nvptx { sm: 100, name: "sm_100a" },
        }
    }
}

impl Gfx {
    /// The lowering's description of this architecture.
    pub fn info(self) -> Amdgpu {
        match self {
            Gfx::Gfx90a => Amdgpu { name: "gfx90a" },
            Gfx::Gfx942 => Amdgpu { name: "gfx942" },
        }
    }
}

/// The `tir` and `gpu` stages, shared by every GPU: returns the output so far and whether
/// `until` stops there.
fn front(kernel: &Kernel, target: Target, t: &dyn TargetInfo, until: Option<Stage>, opts: &Options) -> Result<(Output, bool), CompileError> {
    let stages = target.stages();
    let name = kernel.name.clone();
    let tir = make_tir(kernel)?;
    opts.dump(&name, &stages[0], &tir)?;
    let mut out = Output { text: tir, object: None, sites: vec![], symbol: name.clone(), machine: target.name().into(), ptxas: None, amdgpu: None };
    if until == Some(stages[0]) {
        return Ok((out, true));
    }
    let m = crate::lower::gpu::lower(kernel, t).map_err(|source| CompileError::Lower { stage: "gpu", source })?;
    // Parse and verify in process, so a lowering bug is reported at its own stage.
    LlvmModule::parse_ir(&m.llvm).map_err(|source| CompileError::Llvm { stage: "gpu", source })?;
    out.text = gpu_dialect::to_gpu_module(&m.llvm, &m.symbol, &target.mlir_target()).map_err(|source| CompileError::GpuDialect { stage: "gpu", source })?;
    out.symbol = m.symbol;
    opts.dump(&name, &stages[1], &out.text)?;
    Ok((out, until == Some(stages[1])))
}

/// The `gpu` stage's module translated back to LLVM IR for `t`: where the `llvm` stage starts.
fn to_llvm(gpu_mlir: &str, t: &dyn TargetInfo) -> Result<String, CompileError> {
    gpu_dialect::to_llvm_ir(gpu_mlir, t.triple(), t.data_layout()).map_err(|source| CompileError::GpuDialect { stage: "llvm", source })
}

impl Target {
    /// The MLIR GPU target attribute of the `gpu.module` (`#nvvm.target<...>`, `#rocdl.target<...>`).
    pub fn mlir_target(self) -> String {
        match self {
            Target::Cpu => String::new(),
            Target::Cuda { sm } => format!("#nvvm.target<chip = \"{}\", features = \"{}\">", sm.info().name, sm.info().ptx_feature()),
            Target::Amd { gfx } => format!("#rocdl.target<chip = \"{}\">", gfx.info().name),
        }
    }
}

/// Wraps a back-end tool error with the stage it failed in.
fn gpu_err(stage: &'static str) -> impl Fn(crate::backend::tools::GpuToolError) -> CompileError {
    move |source| CompileError::Gpu { stage, source }
}

/// The stages after `gpu`: each one's text replaces the output's and is dumped.
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

/// Runs the NVIDIA pipeline up to `until` (or to the cubin).
pub(super) fn run_nvptx(kernel: &Kernel, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Cuda { sm };
    let info = sm.info();
    let (mut out, done) = front(kernel, target, &info, until, opts)?;
    if done {
        return Ok(out);
    }
    let step = Steps { stages: target.stages(), name: &kernel.name, until, opts };
    let symbol = out.symbol.clone();
    let tc = Toolchain::new();
    let llvm = to_llvm(&out.text, &info)?;
    let linked = nvptx::link_and_optimize(&llvm, &symbol, &info, &tc).map_err(gpu_err("llvm"))?;
    if step.next(&mut out, 2, linked)? {
        return Ok(out);
    }
    let ptx = nvptx::emit_ptx(&out.text, &info).map_err(gpu_err("ptx"))?;
    if step.next(&mut out, 3, ptx)? {
        return Ok(out);
    }
    let (cubin, report) = nvptx::assemble(&out.text, &symbol, &info, &tc).map_err(gpu_err("cubin"))?;
    step.next(&mut out, 4, format!("{symbol}: {} on {}\n{}", report.summary(), info.name, report.log))?;
    out.object = Some(cubin);
    out.ptxas = Some(report);
    Ok(out)
}

/// Runs the AMD pipeline up to `until` (or to the code object): `gpu` → `llvm` (O3) →
/// `amdgcn` (llc) → `hsaco` (llc object, `ld.lld -shared`).
pub(super) fn run_amd(kernel: &Kernel, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Amd { gfx };
    let info = gfx.info();
    let (mut out, done) = front(kernel, target, &info, until, opts)?;
    if done {
        return Ok(out);
    }
    let step = Steps { stages: target.stages(), name: &kernel.name, until, opts };
    let symbol = out.symbol.clone();
    let llvm = to_llvm(&out.text, &info)?;
    let optimized = amdgpu::optimize(&llvm, &info).map_err(gpu_err("llvm"))?;
    if step.next(&mut out, 2, optimized.clone())? {
        return Ok(out);
    }
    let asm = amdgpu::emit_asm(&optimized, &info).map_err(gpu_err("amdgcn"))?;
    let report = amdgpu::parse_report(&asm, &symbol);
    out.amdgpu = Some(report.clone());
    if step.next(&mut out, 3, asm)? {
        return Ok(out);
    }
    out.object = Some(amdgpu::link(&optimized, &info).map_err(gpu_err("hsaco"))?);
    step.next(&mut out, 4, format!("{symbol}: {} on {}\n", report.summary(), info.name))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::pipeline::{find_stage, Target, TARGET_NAMES};

    #[test]
    fn targets_parse_and_name_themselves() {
        for name in TARGET_NAMES {
            assert_eq!(Target::parse(name).map(|t| t.name()), Some(name));
        }
        assert_eq!(Target::parse("sm_75"), None);
        let stages = |t: &str| Target::parse(t).unwrap().stages().iter().map(|s| s.name).collect::<Vec<_>>();
        assert_eq!(stages("sm_90a"), ["tir", "gpu", "llvm", "ptx", "cubin"]);
        assert_eq!(stages("gfx942"), ["tir", "gpu", "llvm", "amdgcn", "hsaco"]);
        let e = find_stage(Target::parse("sm_80").unwrap(), "hsaco").unwrap_err().to_string();
        assert!(e.contains("unknown stage `hsaco` for target sm_80"), "{e}");
    }
}
