//! Meeting points of a CTA's threads: CTA-wide ones (`bar.sync`, NVSHMEM block-scope calls,
//! which every thread must reach at the same instruction with the same arguments) and warp
//! collectives (shuffles, `mma.sync`, warp-scope calls), where every lane of the member mask
//! arrives, the last one computes each lane's result, and lanes outside the mask may not
//! take part. Divergence is a fault naming the op, not undefined behaviour.

use crate::cta::{lane, St, WarpColl};

/// Meets every thread of the CTA at `site` with `args`; true in the one thread that arrived
/// last (it runs the op of a block-scope call before the others resume).
pub fn block(site: i32, args: &[u64]) -> bool {
    let l = lane();
    let cta = l.cta();
    if let Some(r) = cta.race.as_mut() {
        r.barrier(l.tid);
    }
    if cta.meet.count == 0 {
        cta.meet.site = site;
        cta.meet.args = args.to_vec();
    } else if cta.meet.site != site {
        let (here, there) = (cta.op(site), cta.op(cta.meet.site));
        l.fault(site, &format!("divergent barrier: arrives at {here} while {} threads wait at {there}", cta.meet.count));
    } else if cta.meet.args != args {
        l.fault(site, &format!("block-scope call {} with arguments {args:x?} while other threads passed {:x?}", cta.op(site), cta.meet.args));
    }
    cta.meet.count += 1;
    cta.moved = true;
    if cta.meet.count == cta.threads {
        cta.meet.count = 0;
        if let Some(r) = cta.race.as_mut() {
            r.epoch();
            cta.tma.epoch();
        }
        cta.release(St::Block, |_| true);
        return true;
    }
    l.state = St::Block;
    l.park();
    false
}

/// A warp collective at `site` over the lanes of `mask`, each bringing `input`; the last
/// lane to arrive runs `compute` over all of them. Returns this lane's output, and whether
/// this lane ran `compute`.
pub fn warp(site: i32, mask: u64, input: [u64; 10], compute: impl FnOnce(&mut WarpColl) -> Result<(), String>) -> ([u64; 4], bool) {
    let l = lane();
    let cta = l.cta();
    let ws = cta.warp as u32;
    let (w, me) = ((l.tid / ws) as usize, (l.tid % ws) as usize);
    let full = if ws == 64 { u64::MAX } else { (1u64 << ws) - 1 };
    if mask & !full != 0 || mask & (1 << me) == 0 {
        l.fault(site, &format!("member mask {mask:#x} does not include the lane executing it"));
    }
    let wc = &mut cta.warps[w];
    if wc.arrived == 0 {
        wc.site = site;
        wc.mask = mask;
    } else if wc.site != site || wc.mask != mask {
        let (arrived, theirs, at) = (wc.arrived, wc.mask, wc.site);
        let (here, there) = (cta.op(site), cta.op(at));
        l.fault(site, &format!("divergent warp collective: {here} (mask {mask:#x}) while lanes {arrived:#x} wait at {there} (mask {theirs:#x})"));
    }
    wc.input[me] = input;
    wc.arrived |= 1 << me;
    cta.moved = true;
    let mut ran = false;
    if wc.arrived == mask {
        if let Err(e) = compute(wc) {
            l.fault(site, &e);
        }
        wc.arrived = 0;
        let base = w as u32 * ws;
        cta.release(St::Warp, |t| t >= base && t < base + ws && mask & (1 << (t - base)) != 0);
        ran = true;
    } else {
        l.state = St::Warp;
        l.park();
    }
    (cta.warps[w].out[me], ran)
}

/// Every lane of this thread's warp (the member mask of `.aligned` collectives).
pub fn full_mask() -> u64 {
    let ws = lane().cta().warp;
    if ws == 64 { u64::MAX } else { (1u64 << ws) - 1 }
}
