//! The GPU pipelines. NVIDIA: `tir` → `gpu` (our lowering as a verified MLIR `gpu.module` in the
//! llvm / nvvm dialects) → `llvm` (translated from that module, NVSHMEM's
//! device bitcode linked, internalized, O3) → `ptx` (llc) → `cubin` (ptxas). AMD has its stage
//! list but no lowering yet, which is a typed error past `tir`.

use super::{make_tir, Output, Options, Sm, Stage, Target};
use crate::backend::llvm::LlvmModule;
use crate::backend::{gpu_dialect, nvptx};
use crate::backend::toolchain::Toolchain;
use crate::error::CompileError;
use crate::ir::Kernel;
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

impl Target {
    /// The MLIR GPU target attribute of the `gpu.module` (`#nvvm.target<...>`, `#rocdl.target<...>`).
    pub fn mlir_target(self) -> String {
        match self {
            Target::Cpu => String::new(),
            Target::Cuda { sm } => format!("#nvvm.target<chip = \"{}\", features = \"{}\">", sm.info().name, sm.info().ptx_feature()),
            Target::Amd { gfx } => format!("#rocdl.target<chip = \"{}\">", Target::Amd { gfx }.name()),
        }
    }
}

/// Runs the NVIDIA pipeline up to `until` (or to the cubin).
pub(super) fn run_nvptx(kernel: &Kernel, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Cuda { sm };
    let info = sm.info();
    let stages = target.stages();
    let name = kernel.name.clone();
    let stop = |i: usize| until == Some(stages[i]);
    let gpu_err = |stage: &'static str| move |source| CompileError::Gpu { stage, source };
    let dialect_err = |stage: &'static str| move |source| CompileError::GpuDialect { stage, source };

    let tir = make_tir(kernel)?;
    opts.dump(&name, &stages[0], &tir)?;
    let mut out = Output { text: tir, object: None, sites: vec![], symbol: name.clone(), machine: target.name().into(), ptxas: None };
    if stop(0) {
        return Ok(out);
    }
    let m = crate::lower::gpu::lower(kernel, &info).map_err(|source| CompileError::Lower { stage: "gpu", source })?;
    // Parse and verify in process, so a lowering bug is reported at its own stage.
    LlvmModule::parse_ir(&m.llvm).map_err(|source| CompileError::Llvm { stage: "gpu", source })?;
    out.symbol = m.symbol.clone();
    out.text = gpu_dialect::to_gpu_module(&m.llvm, &m.symbol, &target.mlir_target()).map_err(dialect_err("gpu"))?;
    opts.dump(&name, &stages[1], &out.text)?;
    if stop(1) {
        return Ok(out);
    }
    let tc = Toolchain::new();
    let llvm = gpu_dialect::to_llvm_ir(&out.text, info.triple(), info.data_layout()).map_err(dialect_err("llvm"))?;
    out.text = nvptx::link_and_optimize(&llvm, &m.symbol, &info, &tc).map_err(gpu_err("llvm"))?;
    opts.dump(&name, &stages[2], &out.text)?;
    if stop(2) {
        return Ok(out);
    }
    out.text = nvptx::emit_ptx(&out.text, &info).map_err(gpu_err("ptx"))?;
    opts.dump(&name, &stages[3], &out.text)?;
    if stop(3) {
        return Ok(out);
    }
    let (cubin, report) = nvptx::assemble(&out.text, &m.symbol, &info, &tc).map_err(gpu_err("cubin"))?;
    out.text = format!("{}: {} on {}\n{}", m.symbol, report.summary(), info.name, report.log);
    opts.dump(&name, &stages[4], &out.text)?;
    out.object = Some(cubin);
    out.ptxas = Some(report);
    Ok(out)
}

/// Runs the AMD pipeline: `tir` only, for now.
pub(super) fn run_amd(kernel: &Kernel, target: Target, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let stages = target.stages();
    let tir = make_tir(kernel)?;
    opts.dump(&kernel.name, &stages[0], &tir)?;
    if until == Some(stages[0]) {
        return Ok(Output { text: tir, object: None, sites: vec![], symbol: kernel.name.clone(), machine: target.name().into(), ptxas: None });
    }
    let stage = until.map(|s| s.name).unwrap_or(stages[stages.len() - 1].name);
    Err(CompileError::NotImplemented { stage: stage.into(), target: target.name().into(), what: "the AMDGPU lowering (tile/shmem → rocdl/llvm) is not written yet".into() })
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
