//! GPU lowering: `tile` / `shmem` → per-thread LLVM IR for one CTA (an AMD workgroup), plus
//! calls into NVSHMEM's device library (NVIDIA) or peer-heap loads, stores and atomics (AMD).
//!
//! A program instance is a thread block (CTA) of `num_warps` warps (a constexpr, default 4).
//! Scalars are uniform: every thread computes the same value, so control flow on them never
//! diverges and barriers inside `scf` regions are safe. A tile is spread over the threads by
//! its [`layout::Blocked`] layout and held as an LLVM vector of the thread's slots, so
//! elementwise ops stay elementwise. Ops that make one thread's memory effects visible to
//! another (shmem data movement, waits, reductions through shared memory) are bracketed by
//! CTA barriers. Hardware facts and spellings come from a [`target::TargetInfo`]: [`target::Nvptx`]
//! or [`amdgpu::Amdgpu`] (whose "warps" are 64-lane wavefronts).

pub mod acc_chunks;
pub mod acc_layout;
pub mod amdgpu;
mod arith;
mod control;
mod convert;
pub mod cp_async;
mod dot;
mod emit;
pub mod fp8_cvt;
pub mod layout;
pub(crate) mod layout_infer;
mod mbarrier;
pub mod ldmatrix;
pub mod ldmatrix_swizzle;
mod ll;
mod memory;
pub mod mfma;
pub mod mfma_swizzle;
mod multimem;
mod pipeline_ring;
mod prefetch_ring;
mod reduce;
mod remat;
mod shmem;
pub mod shmem_peer;
#[cfg(test)]
mod sim_operands;
pub mod staging_report;
mod sync;
pub mod target;
#[cfg(test)]
mod tests;
mod tile;
pub mod tma;
mod tma_operand;
mod tma_ring;
mod vector_access;
mod wgmma;
pub mod wgmma_desc;

use super::LowerError;
use crate::ir::{Kernel, Op, OpKind};
use emit::Gx;
use std::fmt::Write;
use target::{ShmemLib, TargetInfo};

/// The result of lowering one kernel for a GPU.
#[derive(Clone, Debug)]
pub struct GpuModule {
    /// LLVM IR text (one kernel; on NVIDIA, NVSHMEM functions declared, not yet linked).
    pub llvm: String,
    /// The kernel entry symbol.
    pub symbol: String,
    /// Warps per CTA the code was generated for.
    pub num_warps: usize,
    /// Bytes of dynamic shared memory the launch must give each CTA (0: all static).
    pub dynamic_smem: usize,
    /// The tensor maps (TMA) the kernel takes after its own parameters, in order, each a
    /// 64-byte-aligned 128-byte `.param` the launch encodes from the kernel's arguments.
    pub tma: Vec<weft_runtime::cuda::tensor_map::TmaParam>,
    /// How each `tile.dot` was staged and computed (what the `layout` stage prints).
    pub staging: Vec<staging_report::DotStaging>,
}

/// Warps per CTA when the kernel has no `num_warps` constexpr.
pub const DEFAULT_NUM_WARPS: usize = 4;

/// The `num_warps` constexpr of `kernel` (a power of two, at most 32), or the default.
pub fn num_warps(kernel: &Kernel, t: &dyn TargetInfo) -> Result<usize, LowerError> {
    let Some(v) = kernel.constexpr("num_warps") else { return Ok(DEFAULT_NUM_WARPS) };
    let bad = |why: &str| LowerError::BadConstexpr { name: "num_warps".into(), value: v.into(), target: t.name().into(), why: why.into() };
    let n: usize = v.trim().parse().map_err(|_| bad("not an integer"))?;
    if !n.is_power_of_two() || n > 32 || n * t.warp_size() > 1024 {
        return Err(bad("must be a power of two with at most 1024 threads per CTA"));
    }
    Ok(n)
}

/// Lowers `kernel` for the GPU described by `t`, with the encodings the layout pass assigns.
pub fn lower(kernel: &Kernel, t: &dyn TargetInfo) -> Result<GpuModule, LowerError> {
    let warps = num_warps(kernel, t)?;
    lower_with(kernel, t, &crate::layout::assign(kernel, t, warps))
}

/// Lowers `kernel` for `t` with the tile encodings of `layouts` (the `layout` stage, assigned
/// or read from a file): which values live in an mma or FMA accumulator and in which warp
/// tiling. Blocked tiles are the row-major distribution the layout stage checked them to be.
pub fn lower_with(kernel: &Kernel, t: &dyn TargetInfo, layouts: &crate::layout::LayoutMap) -> Result<GpuModule, LowerError> {
    let warps = num_warps(kernel, t)?;
    if layouts.num_warps != warps || layouts.warp_size != t.warp_size() {
        let why = format!("the layouts are for {} warps of {} threads", layouts.num_warps, layouts.warp_size);
        return Err(LowerError::BadConstexpr { name: "num_warps".into(), value: warps.to_string(), target: t.name().into(), why });
    }
    let mut g = Gx::new(kernel, t, warps, layouts.acc_layouts(kernel));
    let mut params = vec![];
    for p in &kernel.params {
        let ty = g.vty(p.value);
        let name = g.def(p.value);
        params.push(format!("{ty} noundef {name}"));
    }
    g.start("body");
    g.block(kernel.body)?;
    // `func.return` leaves an empty block behind it.
    g.line("unreachable");
    for i in 0..g.tma_params.len() {
        params.push(format!("ptr byval([128 x i8]) align 64 \"nvvm.grid_constant\" {}", tma_ring::tma_param_name(i)));
    }
    let symbol = kernel.name.clone();
    let threads = g.threads();
    let mut m = String::new();
    let _ = writeln!(m, "; weft kernel `{}` for {}: one CTA of {warps} warps ({threads} threads) per program instance", kernel.name, t.name());
    let _ = writeln!(m, "target datalayout = \"{}\"", t.data_layout());
    let _ = writeln!(m, "target triple = \"{}\"\n", t.triple());
    for d in g.decls.values() {
        let _ = writeln!(m, "{d}");
    }
    let dynamic_smem = if g.smem_bytes > t.shared_limits().0 { g.smem_bytes } else { 0 };
    if g.smem_bytes > 0 {
        let _ = writeln!(m, "{}", convert::scratch_decl(g.smem_bytes, dynamic_smem > 0, g.scratch_align()));
    }
    let _ = writeln!(m, "\ndefine {} void @{symbol}({}) #0 {{", t.kernel_cc(), params.join(", "));
    let _ = writeln!(m, "entry:\n{}  br label %body", g.entry);
    m.push_str(&g.out);
    let _ = writeln!(m, "}}\n");
    let _ = writeln!(m, "attributes #0 = {{ {} }}", t.kernel_attributes(threads, g.resident_ctas()));
    let _ = writeln!(m, "attributes #{} = {{ noinline }}", emit::NOINLINE);
    m.push_str(t.module_suffix());
    let staging = g.staging_report()?;
    Ok(GpuModule { llvm: m, symbol, num_warps: warps, dynamic_smem, tma: g.tma_params, staging })
}

impl Gx<'_> {
    /// Lowers the ops of `block`; returns the lowered operands of its `scf.yield`, if any.
    pub(crate) fn block(&mut self, block: crate::ir::Block) -> Result<Vec<String>, LowerError> {
        for &op in &self.k.block(block).ops {
            let d = self.k.op(op);
            if d.kind == OpKind::Yield {
                return Ok((0..d.operands.len()).map(|i| self.operand_name(d, i)).collect());
            }
            // Ops that read an accumulator-layout value blocked see its blocked copy.
            let swapped = self.swap_in_blocked(d);
            let done = self.op(op);
            self.swap_back(swapped);
            done?;
        }
        Ok(vec![])
    }

    fn op(&mut self, op: Op) -> Result<(), LowerError> {
        // Every tile must have a layout before any op computes one.
        for &r in &self.k.op(op).results {
            if self.ty(r).is_tensor() {
                self.layout_of(op, self.ty(r))?;
            }
        }
        match &self.k.op(op).kind {
            OpKind::Const(_) | OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Unary(_) | OpKind::Cast(_) => self.arith(op),
            OpKind::ProgramId(_)
            | OpKind::NumPrograms(_)
            | OpKind::MakeRange(..)
            | OpKind::Splat
            | OpKind::Broadcast
            | OpKind::ExpandDims(_)
            | OpKind::AddPtr
            | OpKind::PtrCast => self.tile(op),
            OpKind::Load { .. } => self.load(op),
            OpKind::Store { .. } => self.store(op),
            OpKind::Reduce(..) => self.reduce(op),
            OpKind::Dot => self.dot(op),
            OpKind::For | OpKind::If | OpKind::Return => self.control(op),
            OpKind::Yield => Err(self.malformed(op, "scf.yield outside a region end")),
            OpKind::LlPack | OpKind::LlRecv { .. } => self.ll(op),
            OpKind::MultimemSt { .. } | OpKind::MultimemLdReduce { .. } => self.multimem(op),
            OpKind::ConsumeToken => self.consume_token(op),
            OpKind::Barrier => {
                self.barrier();
                Ok(())
            }
            _ => match self.t.shmem_lib() {
                ShmemLib::Nvshmem => self.shmem(op),
                ShmemLib::PeerHeap => self.shmem_peer(op),
            },
        }
    }
}
