//! `wgmma.commit_group` / `wgmma.wait_group n` (sm_90a). The emulator computes a `wgmma` at
//! issue, but a GPU may read its shared-memory operands at any time until the `wait_group`
//! that retires its group. So each thread remembers the bytes its in-flight `wgmma`s read,
//! and a group is retired by checking that they still hold what was read: a slot overwritten
//! while a group reading it is in flight (a ring too short for `wait_group 1`, a missing wait)
//! is a fault here instead of a result that is right by luck. With the race check on, the
//! retired reads are recorded again at the `wait_group`, so the read spans issue to retirement:
//! another thread's store between the two with no barrier (an epilogue writing the scratch
//! while a warp's last group still reads it) is a race whichever warp the emulator runs first.

use crate::cta::lane;

/// A thread's `wgmma` reads in commit groups: (byte offset in the CTA's shared memory, the
/// 16 bits read).
pub type InFlight = crate::groups::Groups<(u32, u16)>;

/// `wgmma.commit_group`: the uncommitted `wgmma`s become the newest group.
pub extern "C" fn commit(_site: i32) {
    lane().wgmma.commit();
}

/// `wgmma.wait_group n`: retires every committed group but the newest `n`, checking that
/// the shared memory each read is unchanged.
pub extern "C" fn wait(site: i32, n: i32) {
    let l = lane();
    let cta = l.cta();
    let smem = cta.smem.as_ptr() as *const u8;
    while let Some(g) = l.wgmma.retire(n) {
        for (at, bits) in g {
            // SAFETY: `mma_async` checked each offset lies in the CTA's shared memory.
            let now = unsafe { (smem.add(at as usize) as *const u16).read_unaligned() };
            if now != bits {
                l.fault(site, &format!("shared-memory race: shared byte {at}, read by a wgmma still in flight, was overwritten before the wgmma.wait_group that retires it"));
            }
            if let Some(Err(e)) = cta.race.as_mut().map(|r| r.access(l.tid, at as usize, 2, false)) {
                l.fault(site, &format!("a wgmma retired by this wait_group: {e}"));
            }
        }
    }
}
