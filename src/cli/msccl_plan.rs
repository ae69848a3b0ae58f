//! `weft msccl verify|compile|run plan.json`: MSCCL++ execution plans, imported and lowered op
//! for op (see `weft::compiler::msccl::plan`).

use weft::compiler::msccl::plan::{from_json, lower_plan, Plan};
use weft::compiler::pipeline::Options;
use weft::kernels::msccl::{dtype_scalar, run_plan, MscclOptions};
use weft::runtime::{DType, World};

/// Whether `algo` names an MSCCL++ plan (a `.json` file).
pub(super) fn is_plan(algo: &str) -> bool {
    algo.ends_with(".json")
}

/// Reads and imports a plan.
pub(super) fn load(path: &str) -> Result<Plan, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    from_json(&text).map_err(|e| format!("{path}: {e}"))
}

/// `verify`: what the importer checks; the data itself is checked by `run`.
pub(super) fn verify(plan: &Plan) {
    let tbs: usize = plan.gpus.iter().map(|g| g.tbs.len()).sum();
    let ops: usize = plan.gpus.iter().flat_map(|g| &g.tbs).map(|t| t.ops.len()).sum();
    println!(
        "{}: imported MSCCL++ {} plan for {} on {} ranks ({tbs} thread blocks, {ops} operations): every channel is paired, every wait has its signal, {}every buffer reference is in range; `weft msccl run` checks the result against plain math",
        plan.name,
        if plan.packets { "LL" } else { "Simple" },
        plan.collective,
        plan.ngpus(),
        if plan.packets { "every packet read has exactly one write, " } else { "" }
    );
}

/// `compile`: the plan's kernel at a stage of `target`.
pub(super) fn compile(plan: &Plan, dtype: DType, block: i64, target: &str, emit: &str, output: Option<&std::path::Path>) -> Result<(), String> {
    let t = dtype_scalar(dtype).ok_or_else(|| format!("dtype {dtype} cannot be lowered"))?;
    let lowered = lower_plan(plan, t, block).map_err(|e| e.to_string())?;
    let target = super::compile::parse_target(target)?;
    let out = weft::compiler::cache::run_cached(&lowered.kernel, target, Some(emit), &Options::from_env()).map_err(|e| e.to_string())?;
    super::compile::write_output(out, target, output)
}

/// `run`: one checked launch, then `iters` timed ones.
pub(super) fn run(world: &World, plan: &Plan, elems: usize, opts: &MscclOptions, iters: usize) -> Result<(), String> {
    let res = run_plan(world, plan, elems, opts, iters).map_err(|e| format!("{}: {e}", plan.name))?;
    let mut t = res.times.clone();
    t.sort();
    let median = t.get(t.len() / 2).map_or(0.0, |d| d.as_secs_f64());
    let (verified, max_err) = world.agree_verdict(res.verified, res.max_err).map_err(|e| e.to_string())?;
    if super::run::printer(world) {
        println!(
            "{} (MSCCL++ plan) ranks={} elems={elems} dtype={}: {}  max_err={max_err:.3e}  time={:.3} ms (median of {})  chunk={}",
            plan.name,
            plan.ngpus(),
            opts.dtype,
            if verified { "PASS" } else { "FAIL" },
            median * 1e3,
            t.len(),
            res.chunk_elems
        );
    }
    for w in &res.warnings {
        eprintln!("weft: warning: {w}");
    }
    if !verified {
        return Err(format!("{}: result differs from the collective's plain math (max error {max_err:.3e})", plan.name));
    }
    Ok(())
}
