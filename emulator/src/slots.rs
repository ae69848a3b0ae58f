//! The emulator's runtime entry points as the retargeted code calls them: slot `i` of the
//! module's `__weft_emu_rt` table (filled after loading). The LLVM signature each call is
//! built with ([`Slot::sig`]) and the Rust function in [`crate::rt::TABLE`] must agree.

/// A runtime entry point. Every one but [`Slot::RunCta`] takes the call site first (`i32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Slot {
    /// `(site, which) -> i32`: a special register (see `rt::sreg`).
    Sreg,
    /// `(site)`: `bar.sync 0` over the CTA.
    Barrier,
    /// `(site, mask, x, lane_mask, clamp) -> i32`: `shfl.sync.bfly.b32`.
    ShflBfly,
    /// `(site, kind, io)`: `mma.sync.m16n8k16`; `io` holds a0-3, b0-1, c0-3 and gets d0-3.
    Mma,
    /// `(site, kind, p, io)`: `ldmatrix` (`kind`: matrices, plus 8 for `.trans`) of the row
    /// at `p`; `io` gets the lane's registers.
    Ldmatrix,
    /// `(site, dst, src, src_size)`: `cp.async.cg.shared.global.16` (queued).
    CpAsync,
    /// `(site)`: `cp.async.commit_group`.
    CpAsyncCommit,
    /// `(site, n)`: `cp.async.wait_group n`.
    CpAsyncWait,
    /// `(site, p, bytes) -> i64`: a volatile (polling) load.
    PollLoad,
    /// `(site, tok) -> i64`: zero, opaque to the optimizer.
    OpaqueZero,
    /// `(site) -> ptr`: this CTA's shared memory.
    SmemBase,
    /// `(site) -> ptr`: this rank's copy of the module's global variables.
    RankGlobals,
    /// `(site) -> i32`
    MyPe,
    /// `(site) -> i32`
    NPes,
    /// `(site, p, pe) -> ptr`: `nvshmem_ptr`.
    PeerPtr,
    /// `(site, desc, dst, src, bytes, sig, sig_value, sig_op, pe)`: put / get / put_signal.
    Xfer,
    /// `(site, sig, value, op, pe)`: `nvshmemx_signal_op`.
    SignalOp,
    /// `(site, sig, cmp, value) -> i64`: `nvshmem_signal_wait_until`.
    WaitUntil,
    /// `(site)`: `nvshmem_fence`.
    Fence,
    /// `(site)`: `nvshmem_quiet`.
    Quiet,
    /// `(site)`: `nvshmemx_barrier_all_block`.
    BarrierAllBlock,
    /// `(site, team, p) -> ptr`: `nvshmemx_mc_ptr`.
    McPtr,
    /// `(site, kind, addr) -> i64`: `multimem.ld_reduce.add`.
    MultimemLd,
    /// `(site, kind, addr, value)`: `multimem.st`.
    MultimemSt,
    /// `(site, p, bytes, write)`: a shared-memory access, for the race check.
    SmemAccess,
    /// `(site) -> ptr`: the CTA's executed-instruction counter (an i64), when counting.
    Counter,
    /// `(site, byte_addr, x) -> i32`: AMD `ds_bpermute` (each lane reads `x` of lane `addr / 4`).
    Bpermute,
    /// `(site) -> ptr`: AMD code object v5 implicit kernel arguments (the grid's block counts).
    ImplicitArgs,
    /// `(site, p, size, write, enabled)`: a global access, for the bounds check (`size`: bytes,
    /// and the declared alignment from bit 16).
    GlobalAccess,
    /// `(site, kind, desc_a, desc_b, io)`: `wgmma.mma_async` (see `wgmma::kind`); `io` holds
    /// the thread's accumulators, updated in place.
    Wgmma,
    /// `(site)`: `wgmma.commit_group`.
    WgmmaCommit,
    /// `(site, n)`: `wgmma.wait_group n`.
    WgmmaWait,
    /// `(site, kind, io)`: an AMD MFMA over the wavefront (see `mfma::kind`); `io` holds the
    /// lane's A and B words and its accumulators, updated in place.
    Mfma,
    /// `(site, mask, x, src_lane, clamp) -> i32`: `shfl.sync.idx.b32`.
    ShflIdx,
    /// `(site, op, p, x) -> i64`: an `mbarrier` operation (see `mbarrier::op`) on the object at `p`.
    Mbar,
    /// `(site, kind, smem, map, bar, coords)`: `cp.async.bulk.tensor` (see `tma::tensor`).
    BulkTensor,
    /// `(site, op, n)`: `cp.async.bulk.commit_group` / `wait_group[.read] n` (see `tma::group_op`).
    BulkGroup,
    /// `(site, index, args, which, box) -> ptr`: the emulator tensor map of a TMA parameter
    /// (see `tma_map`), resolved from the launch's argument words.
    TmaMap,
    /// `(site, kind, a, b) -> i64`: an FP8 pair `cvt` (see `fp8::cvt`).
    Fp8Cvt,
    /// `(ctx, args, thread_fn, desc)`: runs one CTA.
    RunCta,
}

/// Number of slots.
pub const COUNT: usize = Slot::RunCta as usize + 1;

/// An LLVM type in a runtime signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `ptr`
    Ptr,
}

impl Slot {
    /// Parameters after the site, and the result (`None`: void).
    pub fn sig(self) -> (&'static [Ty], Option<Ty>) {
        use Ty::*;
        match self {
            Slot::Sreg => (&[I32], Some(I32)),
            Slot::Barrier | Slot::Fence | Slot::Quiet | Slot::BarrierAllBlock => (&[], None),
            Slot::ShflBfly | Slot::ShflIdx => (&[I32, I32, I32, I32], Some(I32)),
            Slot::Mma | Slot::Mfma => (&[I32, Ptr], None),
            Slot::Ldmatrix => (&[I32, Ptr, Ptr], None),
            Slot::CpAsync => (&[Ptr, Ptr, I32], None),
            Slot::CpAsyncCommit | Slot::WgmmaCommit => (&[], None),
            Slot::CpAsyncWait | Slot::WgmmaWait => (&[I32], None),
            Slot::PollLoad => (&[Ptr, I32], Some(I64)),
            Slot::OpaqueZero => (&[I64], Some(I64)),
            Slot::SmemBase | Slot::RankGlobals | Slot::Counter | Slot::ImplicitArgs => (&[], Some(Ptr)),
            Slot::Bpermute => (&[I32, I32], Some(I32)),
            Slot::GlobalAccess => (&[Ptr, I32, I32, I32], None),
            Slot::MyPe | Slot::NPes => (&[], Some(I32)),
            Slot::PeerPtr => (&[Ptr, I32], Some(Ptr)),
            Slot::Xfer => (&[I32, Ptr, Ptr, I64, Ptr, I64, I32, I32], None),
            Slot::SignalOp => (&[Ptr, I64, I32, I32], None),
            Slot::WaitUntil => (&[Ptr, I32, I64], Some(I64)),
            Slot::McPtr => (&[I32, Ptr], Some(Ptr)),
            Slot::MultimemLd => (&[I32, I64], Some(I64)),
            Slot::MultimemSt => (&[I32, I64, I64], None),
            Slot::SmemAccess => (&[Ptr, I32, I32], None),
            Slot::Wgmma => (&[I32, I64, I64, Ptr], None),
            Slot::Mbar => (&[I32, Ptr, I64], Some(I64)),
            Slot::BulkTensor => (&[I32, Ptr, Ptr, Ptr, Ptr], None),
            Slot::BulkGroup => (&[I32, I32], None),
            Slot::TmaMap => (&[I32, Ptr, I64, I64], Some(Ptr)),
            Slot::Fp8Cvt => (&[I32, I64, I64], Some(I64)),
            // Not called with a site: built by hand in `entry`.
            Slot::RunCta => (&[], None),
        }
    }
}

/// `Xfer` descriptor: what moves (0 put, 1 get, 2 put_signal), bits 2..3 the scope (0 thread,
/// 1 warp, 2 block), bit 4 non-blocking.
pub mod xfer {
    /// put
    pub const PUT: i32 = 0;
    /// get
    pub const GET: i32 = 1;
    /// put_signal
    pub const PUT_SIGNAL: i32 = 2;
    /// Scope shift.
    pub const SCOPE_SHIFT: i32 = 2;
    /// nbi bit.
    pub const NBI: i32 = 16;
}

/// Special registers (`Sreg`'s `which`): tid.x, ctaid.{x,y,z}, nctaid.{x,y,z}.
pub mod sreg {
    /// `tid.x`
    pub const TID: i32 = 0;
    /// `ctaid.x`; y and z follow.
    pub const CTAID: i32 = 1;
    /// `nctaid.x`; y and z follow.
    pub const NCTAID: i32 = 4;
}
