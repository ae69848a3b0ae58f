//! The GPU pipelines. NVIDIA: `tir` → `gpu` (our lowering, verified by LLVM) → `llvm` (NVSHMEM's
//! device bitcode linked, internalized, O3) → `ptx` (llc) → `cubin` (ptxas). AMD: `tir` →
//! `gpu` → `llvm` (O3) → `amdgcn` (llc) → `hsaco` (ld.lld).

use super::{make_tir, Gfx, Output, Options, Sm, Stage, Target};
use crate::backend::llvm::LlvmModule;
use crate::backend::{amdgpu, nvptx};
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
    out.symbol = m.symbol;
    out.text = m.llvm;
    opts.dump(&name, &stages[1], &out.text)?;
    Ok((out, until == Some(stages[1])))
}

/// Runs the NVIDIA pipeline up to `until` (or to the cubin).
pub(super) fn run_nvptx(kernel: &Kernel, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Cuda { sm };
    let info = sm.info();
    let stages = target.stages();
    let stop = |i: usize| until == Some(stages[i]);
    let gpu_err = |stage: &'static str| move |source| CompileError::Gpu { stage, source };
    let (mut out, done) = front(kernel, target, &info, until, opts)?;
    if done {
        return Ok(out);
    }
    let (name, symbol) = (kernel.name.clone(), out.symbol.clone());
    let tc = Toolchain::new();
    out.text = nvptx::link_and_optimize(&out.text, &symbol, &info, &tc).map_err(gpu_err("llvm"))?;
    opts.dump(&name, &stages[2], &out.text)?;
    if stop(2) {
        return Ok(out);
    }
    out.text = nvptx::emit_ptx(&out.text, &info).map_err(gpu_err("ptx"))?;
    opts.dump(&name, &stages[3], &out.text)?;
    if stop(3) {
        return Ok(out);
    }
    let (cubin, report) = nvptx::assemble(&out.text, &symbol, &info, &tc).map_err(gpu_err("cubin"))?;
    out.text = format!("{symbol}: {} on {}\n{}", report.summary(), info.name, report.log);
    opts.dump(&name, &stages[4], &out.text)?;
    out.object = Some(cubin);
    out.ptxas = Some(report);
    Ok(out)
}

/// Runs the AMD pipeline up to `until` (or to the code object): `gpu` → `llvm` (O3) →
/// `amdgcn` (llc) → `hsaco` (llc object, `ld.lld -shared`).
pub(super) fn run_amd(kernel: &Kernel, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Amd { gfx };
    let info = gfx.info();
    let stages = target.stages();
    let stop = |i: usize| until == Some(stages[i]);
    let gpu_err = |stage: &'static str| move |source| CompileError::Gpu { stage, source };
    let (mut out, done) = front(kernel, target, &info, until, opts)?;
    if done {
        return Ok(out);
    }
    let (name, symbol) = (kernel.name.clone(), out.symbol.clone());
    let optimized = amdgpu::optimize(&out.text, &info).map_err(gpu_err("llvm"))?;
    out.text = optimized.clone();
    opts.dump(&name, &stages[2], &out.text)?;
    if stop(2) {
        return Ok(out);
    }
    out.text = amdgpu::emit_asm(&optimized, &info).map_err(gpu_err("amdgcn"))?;
    opts.dump(&name, &stages[3], &out.text)?;
    let report = amdgpu::parse_report(&out.text, &symbol);
    out.amdgpu = Some(report.clone());
    if stop(3) {
        return Ok(out);
    }
    out.object = Some(amdgpu::link(&optimized, &info).map_err(gpu_err("hsaco"))?);
    out.text = format!("{symbol}: {} on {}\n", report.summary(), info.name);
    opts.dump(&name, &stages[4], &out.text)?;
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
