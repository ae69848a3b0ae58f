//! The GPU pipelines, all in process but for ptxas and ld.lld. `gpu` is our per-thread lowering
//! as the LLVM IR it is (parsed and verified by LLVM), and the later stages work on that same
//! module. NVIDIA: `tir` → `gpu` → `llvm` (NVSHMEM's device bitcode linked, internalized,
//! globaldce, O3) → `ptx` → `cubin` (ptxas). AMD: `tir` → `gpu` → `llvm` (O3) → `amdgcn` →
//! `hsaco` (ld.lld).

use super::launch_facts;
use super::timings::time;
use super::{make_tir, Gfx, Output, Options, Sm, Stage, Steps, Target};
use crate::backend::{amdgpu, device, nvptx};
use crate::analysis::narrow_index::for_variant;
use crate::backend::nvshmem_transport::DeviceTransport;
use crate::backend::toolchain::Toolchain;
use crate::error::CompileError;
use crate::ir::Kernel;
use crate::lower::gpu::amdgpu::Amdgpu;
use crate::lower::gpu::target::{Nvptx, TargetInfo};
use crate::layout::LayoutMap;
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

/// The `tir`, `layout` and `gpu` stages, shared by every GPU: returns the output so far and,
/// unless `until` stops earlier, the kernel's module in `ctx`. With `layouts` (a layout-stage
/// file read back) the compilation starts at `layout` with those encodings; otherwise the
/// layout pass assigns them.
fn front<'c>(ctx: &'c Context, kernel: &Kernel, layouts: Option<LayoutMap>, target: Target, t: &dyn TargetInfo, until: Option<Stage>, opts: &Options) -> Result<(Output, Option<Module<'c>>), CompileError> {
    let stages = target.stages();
    let name = kernel.name.clone();
    let mut out = Output { text: String::new(), object: None, sites: vec![], symbol: name.clone(), machine: target.name().into(), ptxas: None, amdgpu: None, dynamic_smem: 0, tma: vec![] };
    // A variant with small-integer facts compares its indices in 32 bits where they fit (a
    // layout file read back is lowered as it is).
    let narrowed = if layouts.is_none() { for_variant(kernel) } else { std::borrow::Cow::Borrowed(kernel) };
    let tir = narrowed.as_ref();
    // FP8 conversions become integer code unless the target converts FP8 itself (`tir` still
    // shows them as `arith` conversions).
    let soft = crate::lower::fp8::legalize(tir, t.fp8_cvt())?;
    let kernel = soft.as_ref();
    let map = match layouts {
        Some(m) => m,
        None => {
            out.text = time("tir", || make_tir(tir))?;
            opts.dump(&name, &stages[0], &out.text)?;
            if until == Some(stages[0]) {
                return Ok((out, None));
            }
            let warps = crate::lower::gpu::num_warps(kernel, t).map_err(|source| CompileError::Lower { stage: "layout", source })?;
            time("layout", || crate::layout::assign(kernel, t, warps))
        }
    };
    // The text costs a print and an MLIR parse: made only when someone reads it.
    if opts.dump_dir.is_some() || until == Some(stages[1]) {
        out.text = crate::layout::stage::print(kernel, &map, t);
        verify_mlir(&out.text, &format!("{name}.layout.mlir"), "layout")?;
        opts.dump(&name, &stages[1], &out.text)?;
        if until == Some(stages[1]) {
            return Ok((out, None));
        }
    }
    let m = time("gpu.lower", || crate::lower::gpu::lower_with(kernel, t, &map)).map_err(|source| CompileError::Lower { stage: "gpu", source })?;
    // Parsed and verified in process, so a lowering bug is reported at its own stage.
    let module = time("gpu.parse", || device::parse(ctx, &m.llvm, &format!("{name}.gpu.ll"))).map_err(|source| CompileError::Llvm { stage: "gpu", source })?;
    DeviceTransport::of(kernel)?.mark(ctx, &module);
    out.text = time("gpu.print", || module.print_to_string().to_string());
    out.symbol = m.symbol;
    out.dynamic_smem = m.dynamic_smem as u32;
    out.tma = m.tma;
    out.text = launch_facts::annotate(std::mem::take(&mut out.text), ";", &out);
    opts.dump(&name, &stages[2], &out.text)?;
    Ok((out, (until != Some(stages[2])).then_some(module)))
}

/// Parses and verifies MLIR `text` with the weft dialects loaded.
fn verify_mlir(text: &str, file: &str, stage: &'static str) -> Result<(), CompileError> {
    super::with_check_context(stage, |ctx| weft_dialects::parse(ctx, text, file).map(|_| ()).map_err(|source| CompileError::Mlir { stage, source }))
}

/// Reads a layout-stage file: the kernel and its encodings, each checked against what the
/// lowering for `t` implements.
pub fn import_layout(text: &str, file: &str, t: &dyn TargetInfo) -> Result<(Kernel, LayoutMap), CompileError> {
    let ctx = weft_dialects::context().map_err(|source| CompileError::Mlir { stage: "layout", source })?;
    let module = weft_dialects::parse(&ctx, text, file).map_err(|source| CompileError::Mlir { stage: "layout", source })?;
    let (kernel, texts) = crate::ir::import::import_encoded(&module).map_err(|e| CompileError::Import { file: file.into(), message: e.to_string() })?;
    let warps = crate::lower::gpu::num_warps(&kernel, t).map_err(|source| CompileError::Lower { stage: "layout", source })?;
    let layout_err = |source| CompileError::Layout { file: file.into(), source };
    let map = crate::layout::stage::read(&kernel, &texts, warps, t.warp_size()).map_err(layout_err)?;
    crate::layout::stage::check_staging(&kernel, &texts, &map, t).map_err(layout_err)?;
    Ok((kernel, map))
}

/// Wraps a back-end tool error with the stage it failed in.
fn gpu_err(stage: &'static str) -> impl Fn(crate::backend::tools::GpuToolError) -> CompileError {
    move |source| CompileError::Gpu { stage, source }
}

/// Runs the NVIDIA pipeline up to `until` (or to the cubin).
pub(super) fn run_nvptx(kernel: &Kernel, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let ctx = Context::create();
    let (out, module) = front(&ctx, kernel, None, Target::Cuda { sm }, &sm.info(), until, opts)?;
    let Some(module) = module else { return Ok(out) };
    nvptx_from(&ctx, Some(module), out, 3, sm, until, opts)
}

/// Runs the NVIDIA stages from index `from` on: `llvm` (3) and `ptx` (4) take `module`,
/// `cubin` (5) takes the PTX in `out.text`. One loop over the stage list, each stage's text
/// recorded and dumped, stopping after `until`.
fn nvptx_from<'c>(ctx: &'c Context, mut module: Option<Module<'c>>, mut out: Output, from: usize, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Cuda { sm };
    let info = sm.info();
    let symbol = out.symbol.clone();
    let step = Steps { stages: target.stages(), name: &symbol, until, opts };
    let tc = Toolchain::new();
    let tm = nvptx::target_machine(&info).map_err(gpu_err("llvm"))?;
    for i in from..target.stages().len() {
        let text = match (i, &module) {
            (3, Some(m)) => {
                nvptx::link_and_optimize(ctx, m, &symbol, &info, &tc, &tm, Some(&crate::cache::toolchain_dir())).map_err(gpu_err("llvm"))?;
                let text = launch_facts::annotate(time("llvm.print", || m.print_to_string().to_string()), ";", &out);
                // Code generation continues from the printed text read back, as a run resumed
                // from this stage's dump does: printing drops the use-list order, which loop
                // strength reduction's choices depend on, so both give the same PTX.
                let again = time("llvm.reparse", || device::parse(ctx, &text, &format!("{symbol}.llvm.ll"))).map_err(|source| CompileError::Llvm { stage: "llvm", source })?;
                module = Some(again);
                text
            }
            (4, Some(m)) => launch_facts::annotate(time("ptx", || nvptx::emit_ptx(m, &tm)).map_err(gpu_err("ptx"))?, "//", &out),
            (3 | 4, None) => unreachable!("callers pass the module for the stages before ptx"),
            _ => {
                let (cubin, report) = time("cubin.ptxas", || nvptx::assemble(&out.text, &symbol, &info, &tc)).map_err(gpu_err("cubin"))?;
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

/// Continues an NVIDIA compilation from `text`, a dump of stage `stage` (`layout`, `gpu`,
/// `llvm` or `ptx`) of the kernel whose entry is `symbol`, up to `until` (or to the cubin).
/// From `gpu` on, what the launch needs beyond the IR (dynamic shared memory, tensor maps) is
/// read from the dump's head ([`launch_facts`]).
pub(super) fn resume_nvptx(text: &str, stage: Stage, symbol: &str, sm: Sm, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let stages = Target::Cuda { sm }.stages();
    let at = stages.iter().position(|s| *s == stage).unwrap_or(0);
    let cannot = |why: String| CompileError::Import { file: format!("{symbol}.{}.{}", stage.name, stage.ext), message: why };
    if at == 0 || at + 1 == stages.len() {
        return Err(cannot(format!("a compilation can start at stage layout, gpu, llvm or ptx of {}, not at `{}`", sm.info().name, stage.name)));
    }
    check_order(stages, at, stage, until).map_err(cannot)?;
    if at == 1 {
        let info = sm.info();
        let (kernel, map) = import_layout(text, &format!("{symbol}.layout.mlir"), &info)?;
        let ctx = Context::create();
        let (out, module) = front(&ctx, &kernel, Some(map), Target::Cuda { sm }, &info, until, opts)?;
        let Some(module) = module else { return Ok(out) };
        return nvptx_from(&ctx, Some(module), out, 3, sm, until, opts);
    }
    let mut out = Output { text: text.to_string(), object: None, sites: vec![], symbol: symbol.into(), machine: sm.info().name.into(), ptxas: None, amdgpu: None, dynamic_smem: 0, tma: vec![] };
    let comment = if stage.ext == "ll" { ";" } else { "//" };
    launch_facts::read(text, comment, &mut out).map_err(cannot)?;
    let ctx = Context::create();
    let module = if stage.ext == "ll" {
        let m = device::parse(&ctx, text, &format!("{symbol}.{}.ll", stage.name)).map_err(|source| CompileError::Llvm { stage: stage.name, source })?;
        out.text = launch_facts::annotate(m.print_to_string().to_string(), ";", &out);
        Some(m)
    } else {
        None
    };
    if until == Some(stage) {
        return Ok(out);
    }
    nvptx_from(&ctx, module, out, at + 1, sm, until, opts)
}

/// An error unless `until` is the starting stage (index `at`) or after it.
fn check_order(stages: &[Stage], at: usize, stage: Stage, until: Option<Stage>) -> Result<(), String> {
    if until.is_some_and(|u| stages.iter().position(|s| *s == u) < Some(at)) {
        return Err(format!("stage `{}` comes before the starting stage `{}`", until.map_or("", |u| u.name), stage.name));
    }
    Ok(())
}

/// Continues an AMD compilation from a layout-stage file of the kernel `symbol`.
pub(super) fn resume_amd_layout(text: &str, symbol: &str, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let stages = Target::Amd { gfx }.stages();
    check_order(stages, 1, stages[1], until).map_err(|message| CompileError::Import { file: format!("{symbol}.layout.mlir"), message })?;
    let (kernel, map) = import_layout(text, &format!("{symbol}.layout.mlir"), &gfx.info())?;
    amd_from(&kernel, Some(map), gfx, until, opts)
}

/// Runs the AMD pipeline up to `until` (or to the code object): `layout` → `gpu` → `llvm`
/// (O3) → `amdgcn` → `hsaco` (an object, linked by `ld.lld -shared`).
pub(super) fn run_amd(kernel: &Kernel, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    amd_from(kernel, None, gfx, until, opts)
}

fn amd_from(kernel: &Kernel, layouts: Option<LayoutMap>, gfx: Gfx, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let target = Target::Amd { gfx };
    let info = gfx.info();
    let ctx = Context::create();
    let (mut out, module) = front(&ctx, kernel, layouts, target, &info, until, opts)?;
    let Some(module) = module else { return Ok(out) };
    let step = Steps { stages: target.stages(), name: &kernel.name, until, opts };
    let symbol = out.symbol.clone();
    let tm = amdgpu::target_machine(&info).map_err(gpu_err("llvm"))?;
    time("llvm.opt", || amdgpu::optimize(&module, &tm)).map_err(gpu_err("llvm"))?;
    if step.next(&mut out, 3, module.print_to_string().to_string())? {
        return Ok(out);
    }
    let asm = time("amdgcn", || amdgpu::emit_asm(&module, &tm)).map_err(gpu_err("amdgcn"))?;
    let report = amdgpu::parse_report(&asm, &symbol);
    out.amdgpu = Some(report.clone());
    if step.next(&mut out, 4, asm)? {
        return Ok(out);
    }
    out.object = Some(time("hsaco", || amdgpu::link(&module, &tm)).map_err(gpu_err("hsaco"))?);
    step.next(&mut out, 5, format!("{symbol}: {} on {}\n", report.summary(), info.name))?;
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
        assert_eq!(stages("sm_90a"), ["tir", "layout", "gpu", "llvm", "ptx", "cubin"]);
        assert_eq!(stages("gfx942"), ["tir", "layout", "gpu", "llvm", "amdgcn", "hsaco"]);
        let e = find_stage(Target::parse("sm_80").unwrap(), "hsaco").unwrap_err().to_string();
        assert!(e.contains("unknown stage `hsaco` for target sm_80"), "{e}");
    }
}
