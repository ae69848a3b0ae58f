//! NVSHMEM's device API on the `local` runtime: each call becomes the runtime entry point of
//! the same meaning, made from the CTA stack (where it may block the instance). Scopes as in
//! NVSHMEM: a thread-scope call is the calling thread's own; a warp-scope call is a
//! collective of the warp's 32 lanes and a block-scope call of the CTA's threads, all with the
//! same arguments, done once when the last arrives. multimem addresses are the local address
//! with [`MC_TAG`] set; a `ld_reduce` sums the word over the node's ranks, a `st` writes it
//! to each.

use crate::cta::lane;
use crate::slots::xfer;
use crate::sync;
use weft_runtime::abi::{flags, sig_op, KernelCtx, RtFns};

/// The bit that marks a multicast address (user-space addresses never have it).
pub const MC_TAG: u64 = 1 << 62;

/// `NVSHMEMX_TEAM_NODE`.
const TEAM_NODE: i32 = 2;

fn fns(ctx: *mut KernelCtx) -> &'static RtFns {
    // SAFETY: the runtime's table outlives every launch.
    unsafe { &*(*ctx).fns }
}

/// `NVSHMEM_SIGNAL_SET` (9) / `ADD` (10) as the runtime's codes.
fn sig_code(site: i32, op: i32) -> i32 {
    match op {
        9 => sig_op::SET,
        10 => sig_op::ADD,
        other => lane().fault(site, &format!("unknown NVSHMEM signal operation {other}")),
    }
}

pub extern "C" fn my_pe(_site: i32) -> i32 {
    unsafe { (*lane().cta().ctx).rank }
}

pub extern "C" fn n_pes(_site: i32) -> i32 {
    unsafe { (*lane().cta().ctx).n_ranks }
}

pub extern "C" fn peer_ptr(site: i32, p: *mut u8, pe: i32) -> *mut u8 {
    let q = p as usize;
    lane().on_cta(|ctx| unsafe { (fns(ctx).remote_ptr)(ctx, q as *mut u8, pe, site) as usize }) as *mut u8
}

/// put / get / put_signal at thread, warp or block scope (see [`xfer`]).
#[allow(clippy::too_many_arguments)]
pub extern "C" fn transfer(site: i32, desc: i32, dst: *mut u8, src: *const u8, bytes: i64, sig: *mut u64, value: i64, op: i32, pe: i32) {
    let args = [desc as u64, dst as u64, src as u64, bytes as u64, sig as u64, value as u64, op as u64, pe as u64];
    let scope = (desc >> xfer::SCOPE_SHIFT) & 3;
    let run = match scope {
        0 => true,
        1 => {
            let mut input = [0u64; 10];
            input[..8].copy_from_slice(&args);
            let (_, ran) = sync::warp(site, sync::full_mask(), input, |wc| {
                let first = wc.input.iter().zip(0..).find(|(_, l)| wc.mask & (1 << l) != 0).map(|(x, _)| *x);
                match wc.input.iter().enumerate().find(|(l, x)| wc.mask & (1 << l) != 0 && Some(**x) != first) {
                    Some((l, _)) => Err(format!("warp-scope call where lane {l} passes other arguments than lane 0")),
                    None => Ok(()),
                }
            });
            ran
        }
        _ => sync::block(site, &args),
    };
    if !run {
        return;
    }
    let fl = (if desc & xfer::NBI != 0 { flags::NBI } else { 0 }) | scope << flags::SCOPE_SHIFT;
    let (d, s, g) = (dst as usize, src as usize, sig as usize);
    let what = desc & 3;
    let code = if what == xfer::PUT_SIGNAL { sig_code(site, op) } else { 0 };
    lane().on_cta(|ctx| unsafe {
        let f = fns(ctx);
        match what {
            xfer::PUT => (f.put)(ctx, d as *mut u8, s as *const u8, bytes, pe, fl, site),
            xfer::GET => (f.get)(ctx, d as *mut u8, s as *const u8, bytes, pe, fl, site),
            _ => (f.put_signal)(ctx, d as *mut u8, s as *const u8, bytes, g as *mut u64, value as u64, code, pe, fl, site),
        }
    });
}

pub extern "C" fn signal_op(site: i32, sig: *mut u64, value: i64, op: i32, pe: i32) {
    let (g, code) = (sig as usize, sig_code(site, op));
    lane().on_cta(|ctx| unsafe { (fns(ctx).signal_op)(ctx, g as *mut u64, value as u64, code, pe, site) });
}

pub extern "C" fn wait_until(site: i32, sig: *mut u64, cmp: i32, value: i64) -> i64 {
    let g = sig as usize;
    lane().on_cta(|ctx| unsafe { (fns(ctx).signal_wait_until)(ctx, g as *mut u64, cmp, value as u64, site) }) as i64
}

pub extern "C" fn fence(site: i32) {
    lane().on_cta(|ctx| unsafe { (fns(ctx).fence)(ctx, site) });
}

pub extern "C" fn quiet(site: i32) {
    lane().on_cta(|ctx| unsafe { (fns(ctx).quiet)(ctx, site) });
}

/// `nvshmemx_barrier_all_block`: the CTA meets, then one PE-level barrier.
pub extern "C" fn barrier_all_block(site: i32) {
    if sync::block(site, &[]) {
        lane().on_cta(|ctx| unsafe { (fns(ctx).barrier_ranks)(ctx, site) });
    }
}

pub extern "C" fn mc_ptr(site: i32, team: i32, p: *mut u8) -> *mut u8 {
    if team != TEAM_NODE {
        lane().fault(site, &format!("nvshmemx_mc_ptr on team {team}: the emulator multicasts over the node team ({TEAM_NODE}) only"));
    }
    (p as u64 | MC_TAG) as *mut u8
}

/// The addresses of a multicast word on every rank of this node.
fn node_copies(site: i32, addr: i64) -> Vec<usize> {
    let l = lane();
    if addr as u64 & MC_TAG == 0 {
        l.fault(site, &format!("multimem access to {addr:#x}, which is not a multicast address (nvshmemx_mc_ptr)"));
    }
    let local = (addr as u64 & !MC_TAG) as usize;
    let cta = l.cta();
    let (rank, local_rank, local_size) = unsafe { ((*cta.ctx).rank, (*cta.ctx).local_rank, (*cta.ctx).local_size) };
    if cta.deltas.is_empty() {
        let first = rank - local_rank;
        cta.deltas = l.on_cta(|ctx| (first..first + local_size).map(|q| unsafe { (fns(ctx).peer_delta)(ctx, q, site) }).collect());
    }
    cta.deltas.iter().map(|d| (local as i64 + d) as usize).collect()
}

/// `multimem.ld_reduce.add` of kind 0 f32, 1 s32, 2 u64.
pub extern "C" fn multimem_ld(site: i32, kind: i32, addr: i64) -> i64 {
    let copies = node_copies(site, addr);
    unsafe {
        match kind {
            0 => copies.iter().map(|&p| std::ptr::read_volatile(p as *const f32)).sum::<f32>().to_bits() as i64,
            1 => copies.iter().fold(0i32, |s, &p| s.wrapping_add(std::ptr::read_volatile(p as *const i32))) as i64,
            _ => copies.iter().fold(0i64, |s, &p| s.wrapping_add(std::ptr::read_volatile(p as *const i64))),
        }
    }
}

/// `multimem.st` of kind 0 f32, 1 s32 (both 4 bytes), 2 u64.
pub extern "C" fn multimem_st(site: i32, kind: i32, addr: i64, value: i64) {
    for p in node_copies(site, addr) {
        unsafe {
            if kind == 2 {
                std::ptr::write_volatile(p as *mut i64, value);
            } else {
                std::ptr::write_volatile(p as *mut u32, value as u32);
            }
        }
    }
}
