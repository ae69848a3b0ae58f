//! The runtime entry points compiled kernels call through `ctx.fns` (see `crate::abi`).
//!
//! These run on a coroutine stack below JIT frames that have no unwind information, so they
//! must never panic: misuse becomes a recorded [`crate::KernelFault`] and a stopped launch.

use super::signals::SignalTrack;
use super::state::{Blocked, Inst};
use super::{bounds, race};
use crate::abi::{cmp, flags, sig_op, KernelCtx, RtFns};
use std::sync::atomic::{fence as atomic_fence, AtomicU64, Ordering};

/// The function table every kernel context points at.
pub static RT_FNS: RtFns = RtFns {
    remote_ptr,
    put,
    get,
    put_signal,
    signal_op,
    signal_wait_until,
    fence,
    quiet,
    barrier_all,
    peer_delta,
    spin_yield,
    barrier_ranks,
    fault,
    rank_scratch,
    device_area,
    extent,
    access: super::access::access,
};

unsafe fn inst<'a>(ctx: *mut KernelCtx) -> &'a mut Inst {
    // SAFETY: the scheduler sets `inst` for every context it hands to a kernel.
    unsafe { &mut *((*ctx).inst as *mut Inst) }
}

/// Enters a runtime call: leaving a polling loop counts as progress.
pub(crate) unsafe fn enter<'a>(ctx: *mut KernelCtx) -> &'a mut Inst {
    let i = unsafe { inst(ctx) };
    if i.spinning.is_some() {
        i.leave_spin();
        race::acquire_all(i);
    }
    i
}

pub(crate) fn check_pe(i: &mut Inst, pe: i32, site: i32) -> usize {
    let world = i.shared().topology.world_size();
    if pe < 0 || pe as usize >= world {
        i.fault(site, format!("rank {pe} out of range: the world has {world} ranks"));
    }
    pe as usize
}

/// Checks `[ptr, ptr + len)` lies in this rank's heap; returns its offset.
pub(crate) fn heap_offset(i: &mut Inst, ptr: usize, len: usize, site: i32, what: &str) -> usize {
    let sh = i.shared();
    let base = sh.bases[i.rank];
    let size = sh.heap_bytes;
    if ptr < base || ptr - base + len > size {
        i.fault(site, format!("{what} {ptr:#x} (+{len} bytes) is not inside this rank's symmetric heap"));
    }
    ptr - base
}

pub(crate) fn check_len(i: &mut Inst, bytes: i64, site: i32) -> usize {
    if bytes < 0 {
        i.fault(site, format!("negative transfer size {bytes}"));
    }
    bytes as usize
}

/// The rank, heap offset and address on that rank of `[ptr, ptr + len)` (a local symmetric
/// address) on rank `pe`, checked against the PE range and the allocation it starts in.
fn target(i: &mut Inst, ptr: usize, len: usize, pe: i32, site: i32, what: &'static str) -> (usize, usize, usize) {
    let pe = check_pe(i, pe, site);
    let off = bounds::span(i, ptr, len, pe, site, what);
    (pe, off, i.shared().bases[pe] + off)
}

fn translate(i: &mut Inst, ptr: usize, len: usize, pe: i32, site: i32, what: &'static str) -> usize {
    target(i, ptr, len, pe, site, what).2
}

pub(crate) fn note_nbi(i: &mut Inst, fl: i32, site: i32) {
    if fl & flags::NBI != 0 {
        i.nbi_pending += 1;
        i.last_nbi_site = site;
    }
}

pub(crate) unsafe extern "C" fn remote_ptr(ctx: *mut KernelCtx, ptr: *mut u8, pe: i32, site: i32) -> *mut u8 {
    let i = unsafe { enter(ctx) };
    translate(i, ptr as usize, 0, pe, site, "pointer") as *mut u8
}

pub(crate) unsafe extern "C" fn peer_delta(ctx: *mut KernelCtx, pe: i32, site: i32) -> i64 {
    let i = unsafe { enter(ctx) };
    let pe = check_pe(i, pe, site);
    let sh = i.shared();
    sh.bases[pe] as i64 - sh.bases[i.rank] as i64
}

pub(crate) unsafe extern "C" fn put(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, fl: i32, site: i32) {
    let i = unsafe { enter(ctx) };
    let n = check_len(i, bytes, site);
    let (pe, off, to) = target(i, dst as usize, n, pe, site, "destination");
    let from = bounds::check_local(i, src as usize, n, site, "source");
    race::put(i, from, pe, off, n, fl & flags::NBI != 0, site);
    // SAFETY: the destination was checked against the heap; `ptr::copy` allows overlap (pe == me).
    unsafe { std::ptr::copy(src, to as *mut u8, n) };
    note_nbi(i, fl, site);
    i.shared().bump();
}

pub(crate) unsafe extern "C" fn get(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, fl: i32, site: i32) {
    let i = unsafe { enter(ctx) };
    let n = check_len(i, bytes, site);
    let (pe, off, from) = target(i, src as usize, n, pe, site, "source");
    let to = bounds::check_local(i, dst as usize, n, site, "destination");
    race::get(i, pe, off, to, n, site);
    unsafe { std::ptr::copy(from as *const u8, dst, n) };
    note_nbi(i, fl, site);
}

/// Applies a signal update at absolute address `addr` with release ordering.
pub(crate) fn apply_signal(i: &mut Inst, addr: usize, value: u64, op: i32, pe: usize, site: i32) {
    if addr % 8 != 0 {
        i.fault(site, format!("signal address {addr:#x} is not 8-byte aligned"));
    }
    // Released before the update, so a waiter that sees the new value finds the clock.
    race::signal(i, addr, pe, site);
    // SAFETY: inside the heap (checked by `translate`) and aligned.
    let sig = unsafe { &*(addr as *const AtomicU64) };
    let sh = i.shared();
    // The tracking entry is written under its lock *around* the update, so a waiter that
    // sees the new value always finds the entry to mark as observed.
    let mut table = sh.signals.as_ref().map(|t| t.shard(addr));
    let new = match op {
        sig_op::SET => {
            sig.store(value, Ordering::Release);
            value
        }
        sig_op::ADD => sig.fetch_add(value, Ordering::AcqRel).wrapping_add(value),
        other => {
            drop(table);
            i.fault(site, format!("unknown signal op {other}"))
        }
    };
    if let Some(t) = table.as_mut() {
        t.insert(addr, SignalTrack { rank: pe, value: new, observed: false });
    }
    drop(table);
    sh.bump();
}

pub(crate) unsafe extern "C" fn put_signal(
    ctx: *mut KernelCtx,
    dst: *mut u8,
    src: *const u8,
    bytes: i64,
    sig: *mut u64,
    value: u64,
    op: i32,
    pe: i32,
    fl: i32,
    site: i32,
) {
    let i = unsafe { enter(ctx) };
    let n = check_len(i, bytes, site);
    let (pe, off, to) = target(i, dst as usize, n, pe, site, "destination");
    let sig_at = translate(i, sig as usize, 8, pe as i32, site, "signal");
    let from = bounds::check_local(i, src as usize, n, site, "source");
    // Its own signal orders its data: never pending.
    race::put(i, from, pe, off, n, false, site);
    unsafe { std::ptr::copy(src, to as *mut u8, n) };
    note_nbi(i, fl, site);
    apply_signal(i, sig_at, value, op, pe as usize, site);
}

pub(crate) unsafe extern "C" fn signal_op(ctx: *mut KernelCtx, sig: *mut u64, value: u64, op: i32, pe: i32, site: i32) {
    let i = unsafe { enter(ctx) };
    let at = translate(i, sig as usize, 8, pe, site, "signal");
    apply_signal(i, at, value, op, pe as usize, site);
}

/// Whether `v <cmp> expected` holds.
pub(crate) fn compare(v: u64, c: i32, expected: u64) -> Option<bool> {
    Some(match c {
        cmp::EQ => v == expected,
        cmp::NE => v != expected,
        cmp::GT => v > expected,
        cmp::GE => v >= expected,
        cmp::LT => v < expected,
        cmp::LE => v <= expected,
        _ => return None,
    })
}

pub(crate) unsafe extern "C" fn signal_wait_until(ctx: *mut KernelCtx, sig: *mut u64, c: i32, expected: u64, site: i32) -> u64 {
    let i = unsafe { enter(ctx) };
    let addr = sig as usize;
    let off = heap_offset(i, addr, 8, site, "signal");
    bounds::check(i, off, 8, i.rank, site, "signal");
    if addr % 8 != 0 {
        i.fault(site, format!("signal address {addr:#x} is not 8-byte aligned"));
    }
    // SAFETY: checked to be an aligned word of this rank's heap.
    let word = unsafe { &*(addr as *const AtomicU64) };
    loop {
        let v = word.load(Ordering::Acquire);
        match compare(v, c, expected) {
            None => i.fault(site, format!("unknown comparison code {c}")),
            Some(true) => {
                let sh = i.shared();
                if let Some(t) = &sh.signals {
                    if let Some(s) = t.shard(addr).get_mut(&addr) {
                        s.observed = true;
                    }
                }
                sh.bump();
                race::acquire(i, addr);
                return v;
            }
            Some(false) => i.block(Blocked::Signal { site, addr, cmp: c, expected }),
        }
    }
}

pub(crate) unsafe extern "C" fn fence(ctx: *mut KernelCtx, _site: i32) {
    let i = unsafe { enter(ctx) };
    race::complete_nbi(i);
    atomic_fence(Ordering::Release);
}

pub(crate) unsafe extern "C" fn quiet(ctx: *mut KernelCtx, _site: i32) {
    let i = unsafe { enter(ctx) };
    atomic_fence(Ordering::SeqCst);
    i.nbi_pending = 0;
    race::complete_nbi(i);
}

pub(crate) unsafe extern "C" fn barrier_all(ctx: *mut KernelCtx, site: i32) {
    let i = unsafe { enter(ctx) };
    let total = i.shared().total;
    meet(i, total, site);
}

pub(crate) unsafe extern "C" fn barrier_ranks(ctx: *mut KernelCtx, site: i32) {
    let i = unsafe { enter(ctx) };
    let ranks = i.shared().ranks_here;
    meet(i, ranks, site);
}

/// Quiet, then wait until `count` arrivals (instances, or one per rank) have met.
fn meet(i: &mut Inst, count: usize, site: i32) {
    atomic_fence(Ordering::SeqCst);
    i.nbi_pending = 0;
    let sh = i.shared();
    let generation = sh.barrier_gen.load(Ordering::Acquire);
    race::barrier_arrive(i, generation);
    let sh = i.shared();
    if sh.barrier_arrived.fetch_add(1, Ordering::AcqRel) + 1 == count {
        // The last arrival here meets the other processes for all of this process's instances.
        if let Some(peers) = sh.remote {
            peers.barrier(i, site);
        }
        let sh = i.shared();
        sh.barrier_arrived.store(0, Ordering::Release);
        sh.barrier_gen.fetch_add(1, Ordering::AcqRel);
        sh.bump();
        race::barrier_depart(i, generation);
        return;
    }
    sh.bump();
    while i.shared().barrier_gen.load(Ordering::Acquire) == generation {
        i.block(Blocked::Barrier { site });
    }
    race::barrier_depart(i, generation);
}

pub(crate) unsafe extern "C" fn fault(ctx: *mut KernelCtx, msg: *const u8, len: usize, site: i32) {
    let i = unsafe { inst(ctx) };
    // SAFETY: the caller passes a live UTF-8 buffer of `len` bytes.
    let text = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(msg, len) }).into_owned();
    i.fault(site, text);
}

pub(crate) unsafe extern "C" fn rank_scratch(ctx: *mut KernelCtx, bytes: usize, _site: i32) -> *mut u8 {
    let i = unsafe { enter(ctx) };
    let rank = i.rank;
    let mut all = i.shared().rank_scratch.lock().unwrap_or_else(|e| e.into_inner());
    // Words, so the memory is 8-byte aligned; a launch asks with one size per kernel.
    let words = all.entry(rank).or_insert_with(|| vec![0u64; bytes.div_ceil(8).max(1)].into_boxed_slice());
    words.as_mut_ptr() as *mut u8
}

unsafe extern "C" fn device_area(ctx: *mut KernelCtx, _site: i32) -> *mut u8 {
    let i = unsafe { enter(ctx) };
    i.shared().heap.device_area(i.rank)
}

unsafe extern "C" fn extent(ctx: *mut KernelCtx, addr: *const u8, _site: i32) -> i64 {
    let i = unsafe { inst(ctx) };
    i.shared().heap.extent(addr as usize).map_or(-1, |n| n as i64)
}

pub(crate) unsafe extern "C" fn spin_yield(ctx: *mut KernelCtx, addr: *const u8, site: i32) {
    let i = unsafe { inst(ctx) };
    // Polling anything other than what the last poll waited for means that poll succeeded
    // and the instance ran on (plain stores another rank polls for, say): that is progress.
    // Without it, a round that only did such stores looks idle to the deadlock detector.
    // The same word holding another value counts too: a loop that polls one word for
    // successive messages (a ring's arrival counter, as AMD code waits: a poll loop, and
    // signals by plain atomic stores) comes back to the same site and address after every
    // message, and two ranks trading messages that way would look idle to the detector.
    let poll = (site, addr as usize, polled_word(addr));
    if i.last_poll != Some(poll) {
        i.last_poll = Some(poll);
        i.shared().bump();
    }
    i.spinning = Some(site);
    i.block(Blocked::Spin { site, addr: addr as usize });
}

/// The low 32 bits of the polled word (polls read 4- or 8-byte words; the low half of a
/// counter or flag changes with every store that matters), or 0 for an unaligned address.
fn polled_word(addr: *const u8) -> u32 {
    if !(addr as usize).is_multiple_of(4) {
        return 0;
    }
    // SAFETY: the kernel polls this word, so at least 4 bytes there are mapped.
    unsafe { (*(addr as *const std::sync::atomic::AtomicU32)).load(Ordering::Relaxed) }
}
