//! The runtime entry points the retargeted code calls (see [`crate::slots`]): thread-level
//! ones (special registers, barriers, warp collectives, polls, shared memory) and the CTA
//! entry; NVSHMEM's are in [`crate::shmem`].

use crate::cta::{self, lane, St};
use crate::slots::{sreg as which, Slot, COUNT};
use crate::{shmem, sync, warp};
use weft_runtime::abi::KernelCtx;
use weft_runtime::Site;

/// What a compiled kernel's entry passes to [`run_cta`], fixed when it is loaded.
pub struct KernelDesc {
    /// Threads per CTA.
    pub threads: usize,
    /// Lanes per warp.
    pub warp: usize,
    /// Shared memory bytes per CTA.
    pub smem_bytes: usize,
    /// Bytes of module globals per rank.
    pub global_bytes: usize,
    /// Call sites.
    pub sites: Vec<Site>,
    /// Whether shared-memory accesses are checked for races.
    pub race: bool,
    /// Where the AMD shmem device state (`weft_shmem_state`) is among the module globals.
    pub amd_state: Option<usize>,
}

extern "C" fn sreg(_site: i32, w: i32) -> i32 {
    let l = lane();
    let ctx = l.cta().ctx;
    // SAFETY: the instance context lives for the launch.
    unsafe {
        match w {
            which::TID => l.tid as i32,
            a if (which::CTAID..which::CTAID + 3).contains(&a) => (*ctx).program_id[(a - which::CTAID) as usize],
            a => (*ctx).num_programs[((a - which::NCTAID) as usize).min(2)],
        }
    }
}

extern "C" fn barrier(site: i32) {
    sync::block(site, &[]);
}

extern "C" fn shfl_bfly(site: i32, mask: i32, x: i32, b: i32, c: i32) -> i32 {
    shfl(site, mask, [x, b, c, 0])
}

extern "C" fn shfl_idx(site: i32, mask: i32, x: i32, b: i32, c: i32) -> i32 {
    shfl(site, mask, [x, b, c, 1])
}

/// `shfl.sync` of `[x, b, c, mode]` (mode 0 `bfly`, 1 `idx`) over the warp's lanes in `mask`.
fn shfl(site: i32, mask: i32, xbcm: [i32; 4]) -> i32 {
    let mut input = [0u64; 10];
    for (i, w) in xbcm.iter().enumerate() {
        input[i] = *w as u32 as u64;
    }
    let (out, _) = sync::warp(site, mask as u32 as u64, input, warp::shfl);
    out[0] as u32 as i32
}

/// `io`: ten 32-bit words in (a0-3, b0-1, c0-3), four out (d0-3).
extern "C" fn mma(site: i32, kind: i32, io: *mut u32) {
    // SAFETY: the retargeted code passes a 10-word buffer of its own frame.
    let words = unsafe { std::slice::from_raw_parts_mut(io, 10) };
    let mut input = [0u64; 10];
    for (i, w) in words.iter().enumerate() {
        input[i] = *w as u64;
    }
    let (out, _) = sync::warp(site, sync::full_mask(), input, |wc| warp::mma_m16n8k16(wc, kind == 0));
    for (w, o) in words.iter_mut().zip(out) {
        *w = o as u32;
    }
}

/// `io`: the lane's A and B words and its accumulators (see `mfma::mfma`).
extern "C" fn mfma(site: i32, kind: i32, io: *mut u32) {
    let input = [io as usize as u64, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    sync::warp(site, sync::full_mask(), input, |wc| crate::mfma::mfma(wc, kind));
}

/// `kind`: the number of matrices, plus 8 for `.trans`; `p`: this lane's row address (used
/// by lanes below 8 x matrices); `io` gets the lane's registers.
extern "C" fn ldmatrix(site: i32, kind: i32, p: *const u8, io: *mut u32) {
    let (count, trans) = ((kind & 7) as usize, kind & 8 != 0);
    let l = lane();
    let me = l.tid as usize % l.cta().warp;
    if me < 8 * count {
        let cta = l.cta();
        let off = (p as usize).wrapping_sub(cta.smem.as_ptr() as usize);
        if off.checked_add(16).is_none_or(|end| end > cta.smem.len() * 8) {
            l.fault(site, &format!("ldmatrix row at shared byte {off} (+16) is outside the CTA's {} bytes", cta.smem.len() * 8));
        }
        smem_access(site, p, 16, 0);
    }
    let mut input = [0u64; 10];
    input[0] = p as u64;
    let (out, _) = sync::warp(site, sync::full_mask(), input, |wc| crate::ldmatrix::ldmatrix(wc, count, trans));
    // SAFETY: the retargeted code passes a 4-word buffer of its own frame.
    let words = unsafe { std::slice::from_raw_parts_mut(io, 4) };
    for (w, o) in words.iter_mut().zip(out).take(count) {
        *w = o as u32;
    }
}

/// A volatile load in a polling loop: a value the thread saw last time makes it wait for a
/// round (other threads, then other instances, run first).
extern "C" fn poll_load(site: i32, p: *const u8, bytes: i32) -> i64 {
    let l = lane();
    loop {
        let v = read_word(p, bytes);
        std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
        let seen = (p as usize, v);
        if l.last_poll != Some(seen) {
            l.last_poll = Some(seen);
            l.cta().moved = true;
            return v as i64;
        }
        l.state = St::Spin { addr: p as usize, site, bytes };
        l.park();
        l.state = St::Run;
        // Re-read once more after others ran; an unchanged value returns and the kernel's loop polls again.
        if read_word(p, bytes) == v {
            return v as i64;
        }
    }
}

/// A volatile read of the 4- or 8-byte word at `p`.
pub(crate) fn read_word(p: *const u8, bytes: i32) -> u64 {
    // SAFETY: the kernel polls a word it computed the address of; its validity is the
    // kernel's, as on the GPU.
    unsafe { if bytes == 8 { std::ptr::read_volatile(p as *const u64) } else { std::ptr::read_volatile(p as *const u32) as u64 } }
}

extern "C" fn opaque_zero(_site: i32, _tok: i64) -> i64 {
    // The JIT cannot see through a call into the host, so a plain zero is already opaque to it.
    0
}

extern "C" fn smem_base(_site: i32) -> *mut u8 {
    lane().cta().smem.as_mut_ptr() as *mut u8
}

extern "C" fn rank_globals(_site: i32) -> *mut u8 {
    lane().cta().globals
}

/// Instructions counted by every CTA that has finished.
pub static EXECUTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

extern "C" fn counter(_site: i32) -> *mut u64 {
    &mut lane().cta().executed
}

extern "C" fn smem_access(site: i32, p: *const u8, bytes: i32, write: i32) {
    let l = lane();
    let cta = l.cta();
    let off = (p as usize).wrapping_sub(cta.smem.as_ptr() as usize);
    let tid = l.tid;
    crate::tma::check_access(l, site, off, bytes as usize, write != 0);
    if let Some(r) = cta.race.as_mut() {
        if let Err(e) = r.access(tid, off, bytes as usize, write != 0) {
            l.fault(site, &e);
        }
    }
}

/// Records a shared-memory write of `bytes` at `p` by this thread for the race check.
pub(crate) fn shared_write(site: i32, p: *const u8, bytes: i32) {
    smem_access(site, p, bytes, 1);
}

/// Runs one CTA: the retargeted entry calls this with the kernel's thread function and desc.
extern "C" fn run_cta(ctx: *mut KernelCtx, args: *const u64, thread_fn: extern "C" fn(*const u64), desc: *const KernelDesc) {
    // SAFETY: `desc` is leaked when the kernel is loaded and lives as long as its code.
    let d: &'static KernelDesc = unsafe { &*desc };
    let globals = if d.global_bytes > 0 {
        // SAFETY: the live instance context.
        unsafe { ((*(*ctx).fns).rank_scratch)(ctx, d.global_bytes, -1) }
    } else {
        std::ptr::null_mut()
    };
    if let Some(off) = d.amd_state {
        // SAFETY: the state lies inside this rank's globals, which the layout sized for it.
        if let Err(e) = crate::amd::fill_state(ctx, unsafe { globals.add(off) }) {
            cta::fault_on_cta(ctx, -1, &e);
            return;
        }
    }
    cta::run(ctx, args, thread_fn, d, globals);
}

/// The table the loader copies into the module's `__weft_emu_rt`, in [`Slot`] order.
pub fn table() -> [usize; COUNT] {
    let mut t = [0usize; COUNT];
    let mut set = |s: Slot, f: usize| t[s as usize] = f;
    set(Slot::Sreg, sreg as *const () as usize);
    set(Slot::Barrier, barrier as *const () as usize);
    set(Slot::ShflBfly, shfl_bfly as *const () as usize);
    set(Slot::ShflIdx, shfl_idx as *const () as usize);
    set(Slot::Mma, mma as *const () as usize);
    set(Slot::Ldmatrix, ldmatrix as *const () as usize);
    set(Slot::CpAsync, crate::cp_async::copy as *const () as usize);
    set(Slot::CpAsyncCommit, crate::cp_async::commit as *const () as usize);
    set(Slot::CpAsyncWait, crate::cp_async::wait as *const () as usize);
    set(Slot::PollLoad, poll_load as *const () as usize);
    set(Slot::OpaqueZero, opaque_zero as *const () as usize);
    set(Slot::Fp8Cvt, crate::fp8::cvt as *const () as usize);
    set(Slot::SmemBase, smem_base as *const () as usize);
    set(Slot::RankGlobals, rank_globals as *const () as usize);
    set(Slot::MyPe, shmem::my_pe as *const () as usize);
    set(Slot::NPes, shmem::n_pes as *const () as usize);
    set(Slot::PeerPtr, shmem::peer_ptr as *const () as usize);
    set(Slot::Xfer, shmem::transfer as *const () as usize);
    set(Slot::SignalOp, shmem::signal_op as *const () as usize);
    set(Slot::WaitUntil, shmem::wait_until as *const () as usize);
    set(Slot::Fence, shmem::fence as *const () as usize);
    set(Slot::Quiet, shmem::quiet as *const () as usize);
    set(Slot::BarrierAllBlock, shmem::barrier_all_block as *const () as usize);
    set(Slot::McPtr, shmem::mc_ptr as *const () as usize);
    set(Slot::MultimemLd, shmem::multimem_ld as *const () as usize);
    set(Slot::MultimemSt, shmem::multimem_st as *const () as usize);
    set(Slot::SmemAccess, smem_access as *const () as usize);
    set(Slot::Counter, counter as *const () as usize);
    set(Slot::Bpermute, crate::amd::bpermute as *const () as usize);
    set(Slot::ImplicitArgs, crate::amd::implicit_args as *const () as usize);
    set(Slot::GlobalAccess, crate::bounds::global_access as *const () as usize);
    set(Slot::Wgmma, crate::wgmma::mma_async as *const () as usize);
    set(Slot::WgmmaCommit, crate::wgmma_groups::commit as *const () as usize);
    set(Slot::WgmmaWait, crate::wgmma_groups::wait as *const () as usize);
    set(Slot::Mfma, mfma as *const () as usize);
    set(Slot::Mbar, crate::mbarrier::mbar as *const () as usize);
    set(Slot::BulkTensor, crate::tma::tensor as *const () as usize);
    set(Slot::BulkGroup, crate::tma::group as *const () as usize);
    set(Slot::TmaMap, crate::tma_map::map as *const () as usize);
    set(Slot::RunCta, run_cta as *const () as usize);
    t
}
