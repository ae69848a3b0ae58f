//! `cp.async` (sm_80): 16-byte copies from global to shared memory that complete only when
//! the thread waits for their group. Copies are queued per thread and done at
//! `cp.async.wait_group N` (all but the newest `N` committed groups), so shared memory read
//! before the wait still holds its old bytes, as a GPU may show it: a missing wait or commit
//! gives wrong results here instead of passing by luck.

use crate::cta::lane;

/// One queued copy.
pub struct Copy {
    dst: *mut u8,
    src: *const u8,
    /// Bytes read from `src`; the rest of the 16 are zero-filled.
    size: usize,
}

/// A thread's copies: not yet committed, and committed groups oldest first.
pub type Pending = crate::groups::Groups<Copy>;

/// `cp.async.cg.shared.global.16` with `src_size` bytes read (0 to 16).
pub extern "C" fn copy(site: i32, dst: *mut u8, src: *const u8, src_size: i32) {
    let l = lane();
    let cta = l.cta();
    let off = (dst as usize).wrapping_sub(cta.smem.as_ptr() as usize);
    let size = src_size as usize;
    if off % 16 != 0 || off.checked_add(16).is_none_or(|end| end > cta.smem.len() * 8) {
        l.fault(site, &format!("cp.async to shared byte {off} (+16): outside the CTA's {} bytes or not 16-byte aligned", cta.smem.len() * 8));
    }
    if size > 16 || (size > 0 && src as usize % 16 != 0) {
        l.fault(site, &format!("cp.async of {size} bytes from {src:p}: more than 16 or not 16-byte aligned"));
    }
    l.copies.push(Copy { dst, src, size });
}

/// `cp.async.commit_group`: the uncommitted copies become the newest group (maybe empty).
pub extern "C" fn commit(_site: i32) {
    lane().copies.commit();
}

/// `cp.async.wait_group n`: completes every committed group but the newest `n`.
pub extern "C" fn wait(site: i32, n: i32) {
    let l = lane();
    while let Some(g) = l.copies.retire(n) {
        for c in g {
            // SAFETY: `copy` checked the destination lies in the CTA's shared memory; the
            // source is the kernel's global address, valid as on the GPU.
            unsafe {
                std::ptr::copy_nonoverlapping(c.src, c.dst, c.size);
                std::ptr::write_bytes(c.dst.add(c.size), 0, 16 - c.size);
            }
            crate::rt::shared_write(site, c.dst, 16);
        }
    }
}
