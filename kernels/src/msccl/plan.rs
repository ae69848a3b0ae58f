//! Running an MSCCL++ execution plan on a [`World`]: lower it to one kernel, lay each rank's
//! input out in the plan's chunks (one chunk length for every buffer, the last chunk padded),
//! launch, and check the result against the collective's plain math. Plans for AllReduce are
//! checked; other collectives are refused rather than run unchecked.

use super::reference;
use super::{check_reduced, dtype_scalar, MscclOptions};
use crate::host::HostVec;
use crate::run::alloc_all;
use crate::KernelError;
use std::time::Duration;
use weft_compiler::msccl::plan::{lower_plan, Plan};
use weft_compiler::msccl::{Buffer, Collective};
use weft_runtime::{Arg, DType, LaunchWarning, Launchable, RawBuf, World};

/// A plan compiled and laid out on a world, ready to launch repeatedly.
pub struct PreparedPlan {
    world: World,
    kernel: Launchable,
    grid: usize,
    /// inp, out, scratch, sig.
    bufs: Vec<RawBuf>,
    inplace: bool,
    dtype: DType,
    collective: Collective,
    /// Elements per chunk (every buffer).
    pub chunk_elems: usize,
    elems: usize,
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
    if plan.collective != "allreduce" {
        return Err(unsupported(format!("collective `{}` (plans are checked for allreduce only)", plan.collective)));
    }
    let input_chunks = plan.gpus[0].chunks[Buffer::Input.slot()];
    if elems == 0 || input_chunks == 0 || plan.gpus.iter().any(|g| g.chunks[Buffer::Input.slot()] != input_chunks) {
        return Err(unsupported(format!("{elems} elements over input chunks {:?}", plan.gpus.iter().map(|g| g.chunks[0]).collect::<Vec<_>>())));
    }
    let t = dtype_scalar(opts.dtype).ok_or_else(|| unsupported(format!("dtype {} (use f32, f16, bf16 or i32)", opts.dtype)))?;
    let lowered = lower_plan(plan, t, opts.block)?;
    let kernel = crate::gpu::launchable_for_resident(world, &lowered.kernel)?;
    let ce = elems.div_ceil(input_chunks);
    let es = opts.dtype.size_bytes();
    let most = |b: Buffer| plan.gpus.iter().map(|g| g.chunks[b.slot()]).max().unwrap_or(0).max(1) * ce * es;
    let sizes = [most(Buffer::Input), most(Buffer::Output), most(Buffer::Scratch), lowered.signal_words * 8];
    let bufs = alloc_all(world, &sizes)?;
    let collective = Collective::from_xml("allreduce", plan.ngpus(), input_chunks, 0)?;
    let mut p = PreparedPlan {
        world: world.clone(),
        kernel,
        grid: lowered.grid,
        bufs,
        inplace: plan.inplace,
        dtype: opts.dtype,
        collective,
        chunk_elems: ce,
        elems,
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
        self.inputs.clear();
        for r in 0..self.world.n_ranks() {
            let x = HostVec::random(self.dtype, self.elems, seed.wrapping_add(r as u64 * 7919))
                .map_err(|d| KernelError::Unsupported { kernel: self.name.clone(), what: format!("dtype {d}") })?;
            if self.world.host_ranks().contains(&r) {
                x.write(&self.world, self.bufs[0], r, 0, self.dtype)?;
            }
            self.inputs.push(x.to_f64());
        }
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
        let expected = reference::expected(&self.collective, &self.inputs, self.elems, self.chunk_elems);
        let out = if self.inplace { self.bufs[0] } else { self.bufs[1] };
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, want) in expected.iter().enumerate().filter(|(r, _)| self.world.host_ranks().contains(r)) {
            let Some(want) = want else { continue };
            let got = HostVec::read(&self.world, out, r, 0, self.elems, self.dtype)?.to_f64();
            let (k, e) = check_reduced(&got, want, self.dtype, self.world.n_ranks());
            ok &= k;
            max_err = max_err.max(e);
        }
        Ok((ok, max_err))
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
