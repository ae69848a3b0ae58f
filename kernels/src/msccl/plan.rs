//! Running an MSCCL++ execution plan on a [`World`]: lower it to one kernel, lay each rank's
//! input out in the plan's chunks (one chunk length for every buffer, a whole number of
//! 16-byte units as MSCCL++ aligns them, the last chunks padded), launch, and check the
//! result against the collective's plain math. Plans for collectives without a reference are
//! refused rather than run unchecked.

use super::chunks::Chunked;
use super::{dtype_scalar, MscclOptions};
use crate::run::alloc_all;
use crate::KernelError;
use std::time::Duration;
use weft_compiler::msccl::plan::{lower_plan, Plan};
use weft_compiler::msccl::MscclError;
use weft_runtime::{Arg, LaunchWarning, Launchable, RawBuf, World};

/// A plan compiled and laid out on a world, ready to launch repeatedly.
pub struct PreparedPlan {
    world: World,
    kernel: Launchable,
    grid: usize,
    /// inp, out, scratch, sig.
    bufs: Vec<RawBuf>,
    chunks: Chunked,
    /// Elements per chunk (every buffer).
    pub chunk_elems: usize,
    launches: i64,
    inputs: Vec<Vec<f64>>,
    /// Plan name.
    pub name: String,
}

/// The outcome of [`run_plan`].
#[derive(Clone, Debug)]
pub struct PlanRunResult {
    /// Whether every rank matched the plain math.
    pub verified: bool,
    /// Largest absolute error.
    pub max_err: f64,
    /// Time of each timed launch.
    pub times: Vec<Duration>,
    /// Elements per chunk.
    pub chunk_elems: usize,
    /// Unfinished work the verified launch left (none expected).
    pub warnings: Vec<LaunchWarning>,
}

/// Lowers and compiles `plan`, allocates its buffers on `world` for `elems` input elements per
/// rank, and writes random inputs.
pub fn prepare_plan(world: &World, plan: &Plan, elems: usize, opts: &MscclOptions) -> Result<PreparedPlan, KernelError> {
    let unsupported = |what: String| KernelError::Unsupported { kernel: plan.name.clone(), what };
    if world.n_ranks() != plan.ngpus() {
        return Err(unsupported(format!("{} ranks (the plan is written for {})", world.n_ranks(), plan.ngpus())));
    }
    let collective = plan.collective(opts.root).map_err(MscclError::from)?;
    if elems == 0 {
        return Err(unsupported("0 elements".into()));
    }
    let t = dtype_scalar(opts.dtype).ok_or_else(|| unsupported(format!("dtype {} (use f32, f16, bf16 or i32)", opts.dtype)))?;
    let lowered = lower_plan(plan, t, opts.block)?;
    let kernel = crate::gpu::launchable_for_resident(world, &lowered.kernel)?;
    let es = opts.dtype.size_bytes();
    let ce = elems.div_ceil(collective.input_chunks()).next_multiple_of(16 / es);
    let chunk_bytes = |chunks: usize| chunks.max(1) * ce * es;
    // Packets take twice the data's bytes; a double scratch buffer twice again.
    let scratch = chunk_bytes(plan.scratch_chunks()) << (plan.packets as usize + plan.double_scratch as usize);
    let sizes = [chunk_bytes(collective.input_chunks()), chunk_bytes(collective.output_chunks()), scratch, lowered.signal_words * 8];
    let bufs = alloc_all(world, &sizes)?;
    let chunks = Chunked { collective, inplace: plan.inplace, chunk_elems: ce, elems, dtype: opts.dtype };
    let mut p = PreparedPlan {
        world: world.clone(),
        kernel,
        grid: lowered.grid,
        bufs,
        chunks,
        chunk_elems: ce,
        launches: 0,
        inputs: vec![],
        name: plan.name.clone(),
    };
    p.seed(0x5eed)?;
    Ok(p)
}

impl PreparedPlan {
    /// Writes fresh random inputs (seeded) on every rank this process holds.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        self.inputs = self.chunks.seed(&self.world, &self.bufs, seed, &self.name)?;
        Ok(())
    }

    /// Launches once.
    pub fn launch(&mut self) -> Result<weft_runtime::LaunchReport, KernelError> {
        let mut args: Vec<Arg> = self.bufs.iter().map(|&b| Arg::Buf(b)).collect();
        args.extend([Arg::I64(self.chunk_elems as i64), Arg::I64(self.launches)]);
        let report = self.world.launch(&self.kernel, [self.grid as u32, 1, 1], &args)?;
        self.launches += 1;
        Ok(report)
    }

    /// Checks every rank this process holds against the plain math of the current inputs.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        self.chunks.verify(&self.world, &self.bufs, &self.inputs)
    }

    /// Rewrites the inputs (in-place plans overwrite them), launches once and checks.
    pub fn verify_after_launch(&mut self, seed: u64) -> Result<(bool, f64), KernelError> {
        self.seed(seed)?;
        self.launch()?;
        self.verify()
    }
}

impl Drop for PreparedPlan {
    fn drop(&mut self) {
        for b in self.bufs.drain(..) {
            self.world.free_raw(b);
        }
    }
}

/// Prepares `plan`, verifies one launch, then times `iters` more.
pub fn run_plan(world: &World, plan: &Plan, elems: usize, opts: &MscclOptions, iters: usize) -> Result<PlanRunResult, KernelError> {
    let mut p = prepare_plan(world, plan, elems, opts)?;
    let warnings = p.launch()?.warnings;
    let (verified, max_err) = p.verify()?;
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        times.push(p.launch()?.elapsed);
    }
    Ok(PlanRunResult { verified, max_err, times, chunk_elems: p.chunk_elems, warnings })
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "plan_packet_tests.rs"]
mod packet_tests;
