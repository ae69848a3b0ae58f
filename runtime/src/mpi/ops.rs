//! The runtime entry points kernels call on the `mpi` transport. A rank on this node is reached
//! by load/store through the node's shared window, exactly as `local` does (the same code); a
//! rank on another node through MPI one-sided calls on the world window: put/get → `MPI_Put` /
//! `MPI_Get` (+ `MPI_Win_flush` unless nbi), put_signal → put, flush, `MPI_Accumulate` on the
//! signal word, flush (the order NVSHMEM uses where the network has no put-with-signal). Spans
//! on another node are bounds-checked against their allocation as `local`'s are (the
//! allocation table is symmetric), with the same report.

use super::peers::Peers;
use crate::abi::{flags, sig_op, KernelCtx, RtFns};
use crate::local::bounds;
use crate::local::ops as local;
use crate::local::state::Inst;

/// The function table of kernels launched on the `mpi` transport.
pub static MPI_FNS: RtFns = RtFns {
    remote_ptr,
    put,
    get,
    put_signal,
    signal_op,
    signal_wait_until: local::signal_wait_until,
    fence,
    quiet,
    barrier_all: local::barrier_all,
    peer_delta,
    spin_yield: local::spin_yield,
    barrier_ranks: local::barrier_ranks,
    fault: local::fault,
    rank_scratch: local::rank_scratch,
    device_area,
    extent,
    // Race checks run on `local` only: on `mpi` the call returns at once.
    access: crate::local::access::access,
};

/// Only emulated GPU code calls these, and the emulator runs on `local`.
fn emulator_only(ctx: *mut KernelCtx, what: &str, site: i32) -> ! {
    let i = unsafe { local::enter(ctx) };
    i.fault(site, format!("{what} is for emulated GPU code, which runs on the local transport, not mpi"))
}

unsafe extern "C" fn device_area(ctx: *mut KernelCtx, site: i32) -> *mut u8 {
    emulator_only(ctx, "the device area", site)
}

unsafe extern "C" fn extent(ctx: *mut KernelCtx, _addr: *const u8, site: i32) -> i64 {
    emulator_only(ctx, "an allocation-extent query", site)
}

/// The peers, when `pe` is on another node than this instance's rank (checked in range);
/// `None` for a node peer; either once `pe` has arrived at this launch.
fn off_node(i: &mut Inst, pe: i32, site: i32) -> Option<&'static Peers> {
    let pe = local::check_pe(i, pe, site);
    let sh = i.shared();
    let t = sh.topology;
    let peers = sh.remote?;
    peers.await_arrival(i, pe, site);
    (t.node_of(pe) != t.node_of(i.rank)).then_some(peers)
}

fn cross_node_fault(i: &mut Inst, pe: i32, site: i32, what: &str) -> ! {
    let t = i.shared().topology;
    let e = super::MpiError::CrossNode { rank: pe as usize, node: t.node_of(pe as usize), here: t.node_of(i.rank) };
    i.fault(site, format!("{what}: {e}"))
}

fn done(i: &mut Inst, r: Result<(), super::MpiError>, site: i32) {
    if let Err(e) = r {
        i.fault(site, e.to_string());
    }
}

unsafe extern "C" fn remote_ptr(ctx: *mut KernelCtx, ptr: *mut u8, pe: i32, site: i32) -> *mut u8 {
    let i = unsafe { local::enter(ctx) };
    if off_node(i, pe, site).is_some() {
        cross_node_fault(i, pe, site, "remote_ptr");
    }
    unsafe { local::remote_ptr(ctx, ptr, pe, site) }
}

unsafe extern "C" fn peer_delta(ctx: *mut KernelCtx, pe: i32, site: i32) -> i64 {
    let i = unsafe { local::enter(ctx) };
    if off_node(i, pe, site).is_some() {
        cross_node_fault(i, pe, site, "peer address");
    }
    unsafe { local::peer_delta(ctx, pe, site) }
}

unsafe extern "C" fn put(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, fl: i32, site: i32) {
    let i = unsafe { local::enter(ctx) };
    let Some(peers) = off_node(i, pe, site) else { return unsafe { local::put(ctx, dst, src, bytes, pe, fl, site) } };
    transfer(i, peers, Xfer::Put { dst, src }, bytes, pe, fl, site);
    // Data arriving elsewhere may unblock a waiter there; a get changes nothing anyone waits on.
    i.shared().bump();
}

unsafe extern "C" fn get(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, fl: i32, site: i32) {
    let i = unsafe { local::enter(ctx) };
    let Some(peers) = off_node(i, pe, site) else { return unsafe { local::get(ctx, dst, src, bytes, pe, fl, site) } };
    transfer(i, peers, Xfer::Get { dst, src }, bytes, pe, fl, site);
}

/// A one-sided transfer to or from a rank on another node: `dst` / `src` as the kernel passed them.
enum Xfer {
    Put { dst: *mut u8, src: *const u8 },
    Get { dst: *mut u8, src: *const u8 },
}

/// `MPI_Put` / `MPI_Get` of `bytes` with `pe`, completed at once unless `fl` says nbi.
fn transfer(i: &mut Inst, peers: &Peers, x: Xfer, bytes: i64, pe: i32, fl: i32, site: i32) {
    let n = local::check_len(i, bytes, site);
    let mut r = match x {
        Xfer::Put { dst, src } => {
            let disp = bounds::span(i, dst as usize, n, pe as usize, site, "destination");
            bounds::check_local(i, src as usize, n, site, "source");
            peers.put(src, n, pe as usize, disp)
        }
        Xfer::Get { dst, src } => {
            let disp = bounds::span(i, src as usize, n, pe as usize, site, "source");
            bounds::check_local(i, dst as usize, n, site, "destination");
            peers.get(dst, n, pe as usize, disp)
        }
    };
    if r.is_ok() && fl & flags::NBI == 0 {
        r = peers.flush(pe as usize);
    }
    done(i, r, site);
    local::note_nbi(i, fl, site);
}

fn remote_signal(i: &mut Inst, peers: &Peers, sig: *mut u64, value: u64, op: i32, pe: i32, site: i32) {
    let disp = bounds::span(i, sig as usize, 8, pe as usize, site, "signal");
    if !disp.is_multiple_of(8) {
        i.fault(site, format!("signal address {:#x} is not 8-byte aligned", sig as usize));
    }
    let add = match op {
        sig_op::SET => false,
        sig_op::ADD => true,
        other => i.fault(site, format!("unknown signal op {other}")),
    };
    let r = peers.signal(value, add, pe as usize, disp);
    done(i, r, site);
    i.shared().bump();
}

unsafe extern "C" fn put_signal(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, sig: *mut u64, value: u64, op: i32, pe: i32, fl: i32, site: i32) {
    let i = unsafe { local::enter(ctx) };
    let Some(peers) = off_node(i, pe, site) else {
        unsafe { local::put_signal(ctx, dst, src, bytes, sig, value, op, pe, fl, site) };
        return ring(ctx, pe);
    };
    let n = local::check_len(i, bytes, site);
    // Every span is checked before any data moves, in the order `local` checks them.
    let disp = bounds::span(i, dst as usize, n, pe as usize, site, "destination");
    bounds::span(i, sig as usize, 8, pe as usize, site, "signal");
    bounds::check_local(i, src as usize, n, site, "source");
    // The data must be complete at the target before the signal can be seen there.
    let r = peers.put(src, n, pe as usize, disp).and_then(|()| peers.flush(pe as usize));
    done(i, r, site);
    remote_signal(i, peers, sig, value, op, pe, site);
}

unsafe extern "C" fn signal_op(ctx: *mut KernelCtx, sig: *mut u64, value: u64, op: i32, pe: i32, site: i32) {
    let i = unsafe { local::enter(ctx) };
    let Some(peers) = off_node(i, pe, site) else {
        unsafe { local::signal_op(ctx, sig, value, op, pe, site) };
        return ring(ctx, pe);
    };
    remote_signal(i, peers, sig, value, op, pe, site);
}

/// After a signal written into node peer `pe` (or this rank): its waiters may sleep on its
/// doorbell (see `bell`).
fn ring(ctx: *mut KernelCtx, pe: i32) {
    let i = unsafe { local::enter(ctx) };
    if let Some(peers) = i.shared().remote {
        peers.ring(pe as usize);
    }
}

/// Orders (fence) or completes (quiet) this process's one-sided traffic to other nodes too.
fn flush_remote(ctx: *mut KernelCtx, site: i32) {
    let i = unsafe { local::enter(ctx) };
    if let Some(peers) = i.shared().remote {
        done(i, peers.flush_all(), site);
    }
}

unsafe extern "C" fn fence(ctx: *mut KernelCtx, site: i32) {
    flush_remote(ctx, site);
    unsafe { local::fence(ctx, site) }
}

unsafe extern "C" fn quiet(ctx: *mut KernelCtx, site: i32) {
    flush_remote(ctx, site);
    unsafe { local::quiet(ctx, site) }
}
