//! Bounds checks of shmem ops on `local`: a span must lie inside the live allocation it starts
//! in (up to the bytes the host asked for), or the op faults with a [`BoundsFault`] instead of
//! writing into the neighbouring allocation. Allocations cannot change during a launch (the
//! host is blocked in it), so a sorted snapshot taken at launch is searched without a lock.

use super::state::Inst;
use crate::checks::{BoundsFault, HeapSpan};
use crate::RuntimeError;
use std::sync::Arc;

/// One live allocation of the symmetric heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocSpan {
    /// Heap offset of its first byte.
    pub offset: usize,
    /// Bytes reserved (aligned).
    pub reserved: usize,
    /// Bytes the host asked for: the end a span may reach.
    pub bytes: usize,
    /// Allocation id.
    pub id: u64,
}

/// The live allocations of a launch, by offset.
pub(crate) struct AllocTable {
    spans: Arc<[AllocSpan]>,
}

impl AllocTable {
    /// A table over `spans`, which are sorted by offset (as the heap keeps them).
    pub fn new(spans: Arc<[AllocSpan]>) -> AllocTable {
        debug_assert!(spans.is_sorted_by_key(|s| s.offset));
        AllocTable { spans }
    }

    /// The allocation whose reservation holds heap offset `off`.
    pub fn find(&self, off: usize) -> Option<&AllocSpan> {
        let s = self.spans.get(self.spans.partition_point(|s| s.offset <= off).checked_sub(1)?)?;
        (off < s.offset + s.reserved).then_some(s)
    }

    /// Where `len` bytes at heap offset `off` of `rank` lie, for reports.
    pub fn describe(&self, rank: usize, off: usize, len: usize) -> HeapSpan {
        match self.find(off) {
            Some(a) => HeapSpan { rank, alloc: Some((a.id, a.bytes)), offset: off - a.offset, len },
            None => HeapSpan { rank, alloc: None, offset: off, len },
        }
    }

    /// Whether `[off, off + len)` lies inside the asked-for bytes of one allocation.
    pub fn fits(&self, off: usize, len: usize) -> bool {
        self.find(off).is_some_and(|a| off + len <= a.offset + a.bytes)
    }
}

/// Checks `len` bytes at heap offset `off` of rank `pe` against the allocation they start in;
/// faults the launch with a [`BoundsFault`] when they leave it. Empty spans always pass.
pub(crate) fn check(i: &mut Inst, off: usize, len: usize, pe: usize, site: i32, operand: &'static str) {
    let sh = i.shared();
    if len == 0 || !sh.bounds_check || sh.allocs.fits(off, len) {
        return;
    }
    let span = sh.allocs.describe(pe, off, len);
    let fault = BoundsFault { kernel: sh.kernel.name.clone(), origin: i.origin(site), operand, span };
    i.fail(RuntimeError::OutOfBounds(fault))
}

/// The heap offset of `[ptr, ptr + len)` (a symmetric address of this rank) as a span on rank
/// `pe`: inside the heap (else a fault), then checked against the allocation it starts in. The
/// allocation table is symmetric, so this holds for a rank in another process or node too.
pub(crate) fn span(i: &mut Inst, ptr: usize, len: usize, pe: usize, site: i32, operand: &'static str) -> usize {
    let off = super::ops::heap_offset(i, ptr, len, site, operand);
    check(i, off, len, pe, site, operand);
    off
}

/// The heap offset of `[ptr, ptr + len)` when it lies in this rank's heap, checked against its
/// allocation; `None` for memory outside the heap (private buffers the runtime cannot check).
pub(crate) fn check_local(i: &mut Inst, ptr: usize, len: usize, site: i32, operand: &'static str) -> Option<usize> {
    let sh = i.shared();
    let base = sh.bases[i.rank];
    if ptr < base || ptr - base >= sh.heap_bytes {
        return None;
    }
    let off = ptr - base;
    check(i, off, len, i.rank, site, operand);
    Some(off)
}
