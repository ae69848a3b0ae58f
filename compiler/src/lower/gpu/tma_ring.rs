//! A ring filled by TMA (see [`super::pipeline_ring`] for the ring and [`super::tma_operand`]
//! for when), feeding `wgmma` (sm_90a) or `ldmatrix` + `mma.sync` (sm_100a) from the same
//! swizzled slots: one mbarrier per slot after the slots, initialised in the loop's
//! preheader and invalidated after it (the scratch is reused by other ops). Where the
//! `cp.async` ring's step waits for its group, each thread spins on the read slot's barrier
//! at the slot's phase parity; where it copies, thread 0 arms the write slot's barrier with
//! the tile bytes (`arrive.expect_tx`) and issues one `cp.async.bulk.tensor.2d` per box of A
//! and B. Extra iterations past the loop's end copy nothing (no slot they write is read); the
//! slots read before any copy are the zeroed ones, whose fresh barriers pass the first wait
//! (parity 1) at once.
//!
//! Only the release of the write slot differs ([`Gx::tma_step`]): its last reader is the
//! previous step, which for `wgmma` is a group still in flight, so that ring copies after the
//! dot's `wait_group 1` and barrier; `ldmatrix` reads are done when a warp reaches the step's
//! barrier, so that ring copies right after it, before its own reads. Either way every thread
//! waits on the read slot before the barrier that precedes the refill of any slot, so no
//! barrier's phase moves on twice while a thread still waits on it.
//!
//! The tensor maps are kernel parameters appended after the kernel's own (`byval [128 x
//! i8]`, 64-byte aligned, `"nvvm.grid_constant"`: read in place through `cvta.param`),
//! listed in [`super::GpuModule::tma`] for the launch to encode.

use super::emit::{elem_ty, Gx};
use super::pipeline_ring::Ring;
use super::tma_operand::TmaOperand;
use crate::ir::{Elem, Op, Scalar};
use weft_runtime::cuda::tensor_map::TmaParam;

/// One box into shared memory, completing on an mbarrier (inline PTX: destination, map,
/// column, row, barrier). The intrinsic takes a `shared::cluster` pointer, which LLVM makes
/// from the CTA's shared address with two `cvta`s per copy; this CTA's shared addresses are
/// valid `shared::cluster` addresses as they are (CUTLASS passes them so too).
pub const TMA_LOAD_2D: &str = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];";

/// What a TMA ring adds to [`Ring`].
#[derive(Clone, Debug)]
pub(crate) struct TmaSlots {
    /// Scratch byte of barrier 0.
    pub bars: usize,
    /// This iteration's write and read slot indices (i32) and the read slot's phase parity.
    pub write_slot: String,
    pub read_slot: String,
    pub phase: String,
    /// A and B, and B's byte offset in a slot.
    pub ops: [TmaOperand; 2],
    pub b_at: usize,
}

impl Gx<'_> {
    /// The name of the kernel parameter holding `p`'s tensor map (added on first use).
    fn tma_map(&mut self, p: TmaParam) -> String {
        let i = match self.tma_params.iter().position(|&q| q == p) {
            Some(i) => i,
            None => {
                self.tma_params.push(p);
                self.tma_params.len() - 1
            }
        };
        tma_param_name(i)
    }

    /// A step of `dot`'s TMA ring, where its first operand is loaded: every thread waits
    /// for the read slot; a `wgmma` ring leaves the copies to after the dot (`wgmma_copies`),
    /// an `ldmatrix` ring meets the CTA at a barrier (every warp has read the write slot) and
    /// issues them now.
    pub(crate) fn tma_step(&mut self, dot: Op, r: Ring, t: TmaSlots) {
        self.tma_wait(&t);
        if self.wgmma_in_flight(dot) == 1 {
            self.tma_pending = Some((r, t));
        } else {
            self.barrier();
            self.tma_fill(&r, &t);
        }
    }

    /// Every thread: waits until the read slot's copies have landed.
    fn tma_wait(&mut self, t: &TmaSlots) {
        let bar = self.mbarrier_at(t.bars, &t.read_slot);
        self.mbarrier_wait(&bar, &t.phase);
    }

    /// Thread 0, in a live iteration: the copies of this step into the write slot.
    pub(crate) fn tma_fill(&mut self, r: &Ring, t: &TmaSlots) {
        let origins: Vec<(String, String)> = t.ops.iter().map(|o| (self.origin(o.col), self.origin(o.row))).collect();
        let t0 = self.is_thread0();
        let go = self.assign(&format!("and i1 {t0}, {}", r.live));
        let tx: usize = t.ops.iter().map(|o| o.plan.tx_bytes()).sum();
        let slot = self.assign(&format!("shl i32 {}, 1", r.write));
        self.only_where(&go, |g| {
            let bar = g.mbarrier_at(t.bars, &t.write_slot);
            g.mbarrier_expect(&bar, tx);
            for (w, (o, (col, row))) in t.ops.iter().zip(&origins).enumerate() {
                let map = g.tma_map(o.param);
                let base = if w == 0 { 0 } else { t.b_at };
                for j in 0..o.plan.boxes() {
                    let (dc, at) = o.plan.place(j);
                    let dst = g.smem_at(base + at, "i8", &slot);
                    let c = if dc == 0 { col.clone() } else { g.assign(&format!("add i32 {col}, {dc}")) };
                    g.line(&format!("call void asm sideeffect \"{TMA_LOAD_2D}\", \"l,l,r,r,l,~{{memory}}\"(ptr addrspace(3) {dst}, ptr {map}, i32 {c}, i32 {row}, ptr addrspace(3) {bar})"));
                }
            }
            vec![]
        }, "0");
    }

    /// Element 0 of index tile `v` as an i32 (a box coordinate).
    fn origin(&mut self, v: crate::ir::Value) -> String {
        let x = self.remat_origin(v).expect("TMA operands are index expressions");
        match self.ty(v).elem() {
            Some(Elem::Num(Scalar::I32)) => x,
            e => {
                let ty = elem_ty(e.unwrap_or(Elem::Num(Scalar::I64)));
                self.assign(&format!("trunc {ty} {x} to i32"))
            }
        }
    }
}

/// The LLVM name of tensor-map parameter `i`.
pub(crate) fn tma_param_name(i: usize) -> String {
    format!("%tmap.{i}")
}
