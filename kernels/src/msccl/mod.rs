//! Running MSCCL algorithms (built in, imported from MSCCL-IR XML, or MSCCL++ execution plans) on a [`World`]: lower
//! to one kernel, allocate its buffers, lay inputs out in padded chunks, launch, and check
//! every rank against the collective's plain math.
//!
//! `elems` counts each rank's logical input buffer, as NCCL's `count` does for AllReduce and
//! AllGather: an AllGather's output holds `ranks * elems`, a ReduceScatter leaves each rank
//! one slice of `elems`. Chunk `j` of the input covers `[j*ce, (j+1)*ce)` with
//! `ce = ceil(elems / input chunks)` rounded up to even; slices end at chunk boundaries.

mod chunks;
mod plan;
mod reference;
mod select;

pub use plan::{prepare_plan, run_plan, PlanRunResult, PreparedPlan};

pub use select::{fallback_kernel, prepare_selected, Selected};

use crate::run::alloc_all;
use crate::KernelError;
use std::time::Duration;
use weft_compiler::ir::Scalar;
use weft_compiler::msccl::lower::{lower, Geometry, Layout, LowerOptions};
use chunks::Chunked;
use weft_compiler::msccl::MscclIr;
use weft_runtime::{Arg, DType, LaunchReport, LaunchWarning, Launchable, RawBuf, World};

/// Options of [`prepare_msccl`].
#[derive(Clone, Debug)]
pub struct MscclOptions {
    /// Element type.
    pub dtype: DType,
    /// Bytes per FIFO slot (`None`: the protocol's default); smaller slots pipeline more.
    pub slot_bytes: Option<usize>,
    /// Width of the kernel's elementwise loops.
    pub block: i64,
    /// Root of rooted collectives (the XML does not record it).
    pub root: usize,
}

impl Default for MscclOptions {
    fn default() -> Self {
        MscclOptions { dtype: DType::F32, slot_bytes: None, block: 128, root: 0 }
    }
}

/// An algorithm compiled and laid out on a world, ready to launch repeatedly.
pub struct PreparedMsccl {
    world: World,
    kernel: Launchable,
    layout: Layout,
    geometry: Geometry,
    chunks: Chunked,
    /// inp, out, scratch, slots, stage, sig, table.
    bufs: Vec<RawBuf>,
    base: i64,
    inputs: Vec<Vec<f64>>,
    /// Algorithm name.
    pub name: String,
    /// Bytes per rank of the larger of the natural input and output (NCCL's algorithm bandwidth).
    pub alg_bytes: usize,
}

/// The compiler's scalar type for a runtime dtype.
pub fn dtype_scalar(d: DType) -> Option<Scalar> {
    Some(match d {
        DType::F32 => Scalar::F32,
        DType::F16 => Scalar::F16,
        DType::BF16 => Scalar::BF16,
        DType::I32 => Scalar::I32,
        DType::I64 | DType::F8E4M3 | DType::F8E5M2 => return None,
    })
}

/// Lowers and compiles `ir`, allocates its buffers on `world` for `elems` input elements per
/// rank, and writes random inputs.
pub fn prepare_msccl(world: &World, ir: &MscclIr, elems: usize, opts: &MscclOptions) -> Result<PreparedMsccl, KernelError> {
    let unsupported = |what: String| KernelError::Unsupported { kernel: ir.name.clone(), what };
    if world.n_ranks() != ir.ngpus() {
        return Err(unsupported(format!("{} ranks (it is written for {})", world.n_ranks(), ir.ngpus())));
    }
    let t = dtype_scalar(opts.dtype).ok_or_else(|| unsupported(format!("dtype {} (use f32, f16, bf16 or i32)", opts.dtype)))?;
    let collective = ir.collective_with_root(opts.root)?;
    let lowered = lower(ir, &LowerOptions { dtype: t, block: opts.block })?;
    let layout = lowered.layout;
    let geometry = Geometry::plan(&layout, collective.input_chunks(), elems, opts.dtype.size_bytes(), opts.slot_bytes)?;
    let kernel = crate::gpu::launchable_for_resident(world, &lowered.kernel)?;
    let lens = geometry.buffers(&layout);
    let es = opts.dtype.size_bytes();
    let unit = geometry.slot_unit_bytes(layout.protocol);
    let sizes = [
        lens.buffers[0] * es,
        lens.buffers[1] * es,
        lens.buffers[2] * es,
        lens.slots * unit,
        lens.stage * es,
        lens.signals * 8,
        layout.table.len() * 8,
    ];
    let bufs = alloc_all(world, &sizes)?;
    let table: Vec<u8> = layout.table.iter().flat_map(|v| v.to_ne_bytes()).collect();
    for r in world.host_ranks() {
        world.write_bytes(bufs[6], r, 0, &table)?;
    }
    let chunks = Chunked { collective, inplace: ir.inplace, chunk_elems: geometry.chunk_elems, elems, dtype: opts.dtype };
    let alg = elems.max(chunks.output_len(0)) * es;
    let mut p = PreparedMsccl {
        world: world.clone(),
        kernel,
        layout,
        geometry,
        chunks,
        bufs,
        base: 0,
        inputs: vec![],
        name: ir.name.clone(),
        alg_bytes: alg,
    };
    p.seed(0x5eed)?;
    Ok(p)
}

impl PreparedMsccl {
    /// Writes fresh random inputs (seeded) on every rank this process holds; every rank's
    /// inputs are known to all, for the reference.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        self.inputs = self.chunks.seed(&self.world, &self.bufs, seed, &self.name)?;
        Ok(())
    }

    /// Launches once; returns the runtime's report.
    pub fn launch(&mut self) -> Result<LaunchReport, KernelError> {
        let g = self.geometry;
        let mut args: Vec<Arg> = self.bufs.iter().map(|&b| Arg::Buf(b)).collect();
        args.extend([g.chunk_elems, g.tile_elems, g.segment].map(|v| Arg::I64(v as i64)));
        args.push(Arg::I64(self.base));
        let report = self.world.launch(&self.kernel, [self.layout.grid as u32, 1, 1], &args)?;
        self.base += self.layout.base_step(g.tiles);
        Ok(report)
    }

    /// Rewrites the inputs (in-place algorithms overwrite them), launches once and checks.
    pub fn verify_after_launch(&mut self, seed: u64) -> Result<(bool, f64), KernelError> {
        self.seed(seed)?;
        self.launch()?;
        self.verify()
    }

    /// Checks the output of every rank this process holds against the plain math of the
    /// current inputs.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        self.chunks.verify(&self.world, &self.bufs, &self.inputs)
    }

    /// Rank `r`'s natural output: every constrained output chunk, cut to its valid length.
    pub fn output(&self, r: usize) -> Result<Vec<f64>, KernelError> {
        self.chunks.output(&self.world, &self.bufs, r)
    }

    /// Sizes chosen for this run.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Program instances per rank.
    pub fn grid(&self) -> usize {
        self.layout.grid
    }
}

/// Reductions round in `dtype` at every hop of the algorithm (as NCCL does), so the bound
/// scales with the terms' magnitudes: `(terms + 1) * eps * Σ|term|`.
fn check_reduced(got: &[f64], want: &reference::Expected, dtype: DType, terms: usize) -> (bool, f64) {
    let eps = match dtype {
        DType::F32 => f32::EPSILON as f64,
        DType::F16 => 9.77e-4,
        DType::BF16 => 7.82e-3,
        _ => crate::host::rounding(dtype),
    };
    let mut ok = got.len() == want.values.len();
    let mut max_err: f64 = 0.0;
    for ((g, w), s) in got.iter().zip(&want.values).zip(&want.scale) {
        let err = (g - w).abs();
        max_err = max_err.max(err);
        if err.is_nan() || err > (terms + 1) as f64 * eps * s {
            ok = false;
        }
    }
    (ok, max_err)
}

impl Drop for PreparedMsccl {
    fn drop(&mut self) {
        for b in self.bufs.drain(..) {
            self.world.free_raw(b);
        }
    }
}

/// The outcome of [`run_msccl`].
#[derive(Clone, Debug)]
pub struct MscclRunResult {
    /// Whether every rank matched the plain math.
    pub verified: bool,
    /// Largest absolute error.
    pub max_err: f64,
    /// Time of each timed launch.
    pub times: Vec<Duration>,
    /// Bytes per rank (algorithm bandwidth convention).
    pub alg_bytes: usize,
    /// Sizes used.
    pub geometry: Geometry,
    /// Unfinished work the verified launch left (none expected).
    pub warnings: Vec<LaunchWarning>,
}

/// Prepares `ir`, verifies one launch, then times `iters` more.
pub fn run_msccl(world: &World, ir: &MscclIr, elems: usize, opts: &MscclOptions, iters: usize) -> Result<MscclRunResult, KernelError> {
    let mut p = prepare_msccl(world, ir, elems, opts)?;
    p.seed(0x5eed)?;
    let warnings = p.launch()?.warnings;
    let (verified, max_err) = p.verify()?;
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        times.push(p.launch()?.elapsed);
    }
    Ok(MscclRunResult { verified, max_err, times, alg_bytes: p.alg_bytes, geometry: p.geometry, warnings })
}

#[cfg(test)]
mod tests;
