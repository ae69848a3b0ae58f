//! The CPU pipeline: `tir` → `lowered` (upstream MLIR dialects plus runtime calls) →
//! `llvm-mlir` → `llvm` (O3) → `asm`, then the object. One loop over the target's stage list,
//! as the GPU pipelines run theirs: each stage's text recorded and dumped, stopping after
//! `until`.

use super::{make_tir, run_passes, Output, Options, Stage, Steps, Target, CPU_TO_LLVM};
use crate::backend::llvm::{Emit, LlvmModule, TargetMachine};
use crate::error::CompileError;
use crate::ir::Kernel;

/// Runs the CPU pipeline for `kernel` up to `until` (or to the object).
pub(super) fn run_cpu(kernel: &Kernel, until: Option<Stage>, opts: &Options) -> Result<Output, CompileError> {
    let stages = Target::Cpu.stages();
    let name = kernel.name.clone();
    let step = Steps { stages, name: &name, until, opts };
    // FP8 conversions become integer code (the `tir` stage still shows them as `arith`).
    let soft = crate::lower::fp8::legalize(kernel, false)?;
    let llvm_err = |stage| move |source| CompileError::Llvm { stage, source };
    // The machine first: its vector width shapes the lowered code (the dot microkernel), and it
    // is the compile's CPU model, not the host's, unless none is named.
    let tm = match &opts.cpu {
        Some(cpu) => TargetMachine::model(cpu),
        None => TargetMachine::host(),
    }
    .map_err(llvm_err("llvm"))?;
    let lanes = tm.f32_lanes().map_err(llvm_err("llvm"))?;
    // Lowered first, so its call sites are in the output whichever stage the run stops at.
    let lowered = crate::lower::cpu::lower(&soft, opts.racecheck, lanes).map_err(|source| CompileError::Lower { stage: "lowered", source })?;
    let mut out = Output { text: String::new(), object: None, sites: lowered.sites.clone(), symbol: lowered.symbol.clone(), machine: String::new(), ptxas: None, amdgpu: None, dynamic_smem: 0, tma: vec![] };
    let mlir_err = |stage| move |source| CompileError::Mlir { stage, source };
    let ctx = weft_dialects::context().map_err(mlir_err("lowered"))?;
    let mut module = None;
    let mut llvm: Option<(LlvmModule, TargetMachine)> = None;
    let mut tm = Some(tm);
    for (i, stage) in stages.iter().enumerate() {
        let text = match (stage.name, &mut module, &llvm) {
            ("tir", ..) => make_tir(kernel)?,
            ("lowered", ..) => {
                let m = weft_dialects::parse(&ctx, &lowered.mlir, &format!("{name}.lowered")).map_err(mlir_err("lowered"))?;
                weft_dialects::print(module.insert(m))
            }
            ("llvm-mlir", Some(m), _) => {
                run_passes(&ctx, m, CPU_TO_LLVM, "llvm-mlir")?;
                weft_dialects::print(m)
            }
            ("llvm", Some(m), _) => {
                let tm = tm.take().expect("the llvm stage runs once");
                out.machine = format!("{} {}", tm.cpu, tm.features);
                let mut l = LlvmModule::from_mlir(m).map_err(llvm_err("llvm"))?;
                l.optimize(&tm).map_err(llvm_err("llvm"))?;
                let text = l.print();
                llvm = Some((l, tm));
                text
            }
            ("asm", _, Some((l, tm))) => String::from_utf8_lossy(&l.emit(tm, Emit::Asm).map_err(llvm_err("asm"))?).into_owned(),
            _ => unreachable!("CPU_STAGES lists tir, lowered, llvm-mlir, llvm, asm in that order"),
        };
        if step.next(&mut out, i, text)? {
            return Ok(out);
        }
    }
    let Some((l, tm)) = &llvm else { unreachable!("the llvm stage ran") };
    let object = l.emit(tm, Emit::Obj).map_err(llvm_err("obj"))?;
    // A call LLVM added that the kernel library cannot resolve is an error here, at compile
    // time, naming the symbol: not a crash at the first launch.
    crate::backend::symbols::check_object(&object, &name).map_err(|source| CompileError::Link { stage: "obj", source })?;
    out.object = Some(object);
    Ok(out)
}
