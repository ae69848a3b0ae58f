//! `wgmma.commit_group` / `wgmma.wait_group n` (sm_90a). The emulator computes a `wgmma` at
//! issue, but a GPU may read its shared-memory operands at any time until the `wait_group`
//! that retires its group. So each thread remembers the bytes its in-flight `wgmma`s read,
//! and a group is retired by checking that they still hold what was read: a slot overwritten
//! while a group reading it is in flight (a ring too short for `wait_group 1`, a missing wait)
//! is a fault here instead of a result that is right by luck.

use crate::cta::lane;
use std::collections::VecDeque;

/// A thread's `wgmma` reads not yet committed, and committed groups oldest first: (byte
/// offset in the CTA's shared memory, the 16 bits read).
#[derive(Default)]
pub struct InFlight {
    open: Vec<(u32, u16)>,
    groups: VecDeque<Vec<(u32, u16)>>,
}

impl InFlight {
    /// Records that an uncommitted `wgmma` read `bits` at shared byte `at`.
    pub fn read(&mut self, at: usize, bits: u16) {
        self.open.push((at as u32, bits));
    }
}

/// `wgmma.commit_group`: the uncommitted `wgmma`s become the newest group.
pub extern "C" fn commit(_site: i32) {
    let f = &mut lane().wgmma;
    let g = std::mem::take(&mut f.open);
    f.groups.push_back(g);
}

/// `wgmma.wait_group n`: retires every committed group but the newest `n`, checking that
/// the shared memory each read is unchanged.
pub extern "C" fn wait(site: i32, n: i32) {
    let l = lane();
    let smem = l.cta().smem.as_ptr() as *const u8;
    while l.wgmma.groups.len() > n.max(0) as usize {
        let g = l.wgmma.groups.pop_front().unwrap_or_default();
        for (at, bits) in g {
            // SAFETY: `mma_async` checked each offset lies in the CTA's shared memory.
            let now = unsafe { (smem.add(at as usize) as *const u16).read_unaligned() };
            if now != bits {
                l.fault(site, &format!("shared byte {at}, read by a wgmma still in flight, was overwritten before the wgmma.wait_group that retires it"));
            }
        }
    }
}
