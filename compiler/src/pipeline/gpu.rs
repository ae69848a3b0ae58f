//! The GPU pipelines, all in process but for ptxas and ld.lld. `gpu` is our per-thread lowering
//! as the LLVM IR it is (parsed and verified by LLVM), and the later stages work on that same
//! module. NVIDIA: `tir` → `gpu` → `llvm` (NVSHMEM's device bitcode linked, internalized,
//! globaldce, O3) → `ptx` → `cubin` (ptxas). AMD: `tir` → `gpu` → `llvm` (O3) → `amdgcn` →
//! `hsaco` (ld.lld).

use super::{make_tir, Gfx, Output, Options, Sm, Stage, Target};
use crate::backend::{amdgpu, device, nvptx};
use crate::backend::toolchain::Toolchain;
use crate::error::CompileError;
use crate::ir::Kernel;
use crate::lower::gpu::amdgpu::Amdgpu;
use crate::lower::gpu::target::{Nvptx, TargetInfo};
use inkwell::context::Context;
use inkwell::module::Module;

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

/// The `tir` and `gpu` stages, shared by every GPU: returns the output so far and, unless
/// `until` stops there, the kernel's module in `ctx`.
fn front<'c>(ctx: &'c Context, kernel: &Kernel, target: Target, t: &dyn TargetInfo, until: Option<Stage>, opts: &Options) -> Result<(Output, Option<Module<'c>>), CompileError> {
    let stages = target.stages();
    let name = kernel.name.clone();
    let tir = make_tir(kernel)?;
    opts.dump(&name, &stages[0], &tir)?;
    let mut out = Output { text: tir, object: None, sites: vec![], symbol: name.clone(), machine: target.name().into(), ptxas: None, amdgpu: None, dynamic_smem: 0 };
    if until == Some(stages[0]) {
        return Ok((out, None));
    }
    let m = crate::lower::gpu::lower(kernel, t).map_err(|source| CompileError::Lower { stage: "gpu", source })?;
    // Parsed and verified in process, so a lowering bug is reported at its own stage.
    let module = device::parse(ctx, &m.llvm, &format!("{name}.gpu.ll")).map_err(|source| CompileError::Llvm { stage: "gpu", source })?;
    out.text = module.print_to_string().to_string();
    out.symbol = m.symbol;
    out.dynamic_smem = m.dynamic_smem as u32;
    opts.dump(&name, &stages[1], &out.text)?;
    Ok((out, (until != Some(stages[1])).then_some(module)))
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
    let ctx = Context::create();
    let (out, module) = front(&ctx, kernel, Target::Cuda { sm }, &sm.info(), until, opts)?;
    let Some(module) = module else { return Ok(out) };
    nvptx_from(&ctx, Some(module), out, 2, sm, until, opts)
}

/// Runs the NVIDIA stages from index `from` on: `llvm` (2) and `ptx` (3) take `module`,
/// `cubin` (4) takes the PTX in `out.text`. One loop over the stage list, each stage's text
/// recorded and dumped, stopping after `until`.
fn nvptx_from<'c>(ctx: &'c Context, module: Option<Module<'c>>, mut out: Output, from: usize, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Cuda { sm };
    let info = sm.info();
    let symbol = out.symbol.clone();
    let step = Steps { stages: target.stages(), name: &symbol, until, opts };
    let tc = Toolchain::new();
    let tm = nvptx::target_machine(&info).map_err(gpu_err("llvm"))?;
    for i in from..target.stages().len() {
        let text = match (i, &module) {
            (2, Some(m)) => {
                nvptx::link_and_optimize(ctx, m, &symbol, &info, &tc, &tm).map_err(gpu_err("llvm"))?;
                m.print_to_string().to_string()
            }
            (3, Some(m)) => nvptx::emit_ptx(m, &tm).map_err(gpu_err("ptx"))?,
            (2 | 3, None) => unreachable!("callers pass the module for the stages before ptx"),
            _ => {
                let (cubin, report) = nvptx::assemble(&out.text, &symbol, &info, &tc).map_err(gpu_err("cubin"))?;
                let dynamic = if out.dynamic_smem > 0 { format!(", dynamic shared {} B", out.dynamic_smem) } else { String::new() };
                let text = format!("{symbol}: {}{dynamic} on {}\n{}", report.summary(), info.name, report.log);
                out.object = Some(cubin);
                out.ptxas = Some(report);
                text
            }
        };
        if step.next(&mut out, i, text)? {
            break;
        }
    }
    Ok(out)
}

/// Continues an NVIDIA compilation from `text`, a dump of stage `stage` (`gpu`, `llvm` or
/// `ptx`) of the kernel whose entry is `symbol`, up to `until` (or to the cubin). Dynamic
/// shared memory sizes are not in the IR, so the output records none.
pub(super) fn resume_nvptx(text: &str, stage: Stage, symbol: &str, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let stages = Target::Cuda { sm }.stages();
    let at = stages.iter().position(|s| *s == stage).unwrap_or(0);
    let cannot = |why: String| CompileError::Import { file: format!("{symbol}.{}.{}", stage.name, stage.ext), message: why };
    if at == 0 || at + 1 == stages.len() {
        return Err(cannot(format!("a compilation can start at stage gpu, llvm or ptx of {}, not at `{}`", sm.info().name, stage.name)));
    }
    if until.is_some_and(|u| stages.iter().position(|s| *s == u) < Some(at)) {
        return Err(cannot(format!("stage `{}` comes before the starting stage `{}`", until.map_or("", |u| u.name), stage.name)));
    }
    let mut out = Output { text: text.to_string(), object: None, sites: vec![], symbol: symbol.into(), machine: sm.info().name.into(), ptxas: None, amdgpu: None, dynamic_smem: 0 };
    let ctx = Context::create();
    let module = if stage.ext == "ll" {
        let m = device::parse(&ctx, text, &format!("{symbol}.{}.ll", stage.name)).map_err(|source| CompileError::Llvm { stage: stage.name, source })?;
        out.text = m.print_to_string().to_string();
        Some(m)
    } else {
        None
    };
    if until == Some(stage) {
        return Ok(out);
    }
    nvptx_from(&ctx, module, out, at + 1, sm, until, opts)
}

/// Runs the AMD pipeline up to `until` (or to the code object): `gpu` → `llvm` (O3) →
/// `amdgcn` → `hsaco` (an object, linked by `ld.lld -shared`).
pub(super) fn run_amd(kernel: &Kernel, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Amd { gfx };
    let info = gfx.info();
    let ctx = Context::create();
    let (mut out, module) = front(&ctx, kernel, target, &info, until, opts)?;
    let Some(module) = module else { return Ok(out) };
    let step = Steps { stages: target.stages(), name: &kernel.name, until, opts };
    let symbol = out.symbol.clone();
    let tm = amdgpu::target_machine(&info).map_err(gpu_err("llvm"))?;
    amdgpu::optimize(&module, &tm).map_err(gpu_err("llvm"))?;
    if step.next(&mut out, 2, module.print_to_string().to_string())? {
        return Ok(out);
    }
    let asm = amdgpu::emit_asm(&module, &tm).map_err(gpu_err("amdgcn"))?;
    let report = amdgpu::parse_report(&asm, &symbol);
    out.amdgpu = Some(report.clone());
    if step.next(&mut out, 3, asm)? {
        return Ok(out);
    }
    out.object = Some(amdgpu::link(&module, &tm).map_err(gpu_err("hsaco"))?);
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
