//! TMA bulk tensor copies (`cp.async.bulk.tensor`, sm_90+) and the CTA's async-proxy state
//! ([`Proxy`]: its mbarriers, loads in flight, stores not yet done).
//!
//! A load (global to shared, `mbarrier::complete_tx::bytes`) is queued at issue and lands
//! only when no thread of the CTA can otherwise proceed ([`land`]): every thread waits (on
//! an mbarrier, a barrier, a poll). So a thread that reads the slot before its mbarrier phase
//! completes reads the old bytes, as a GPU may show it; with the race check on it is a fault
//! naming the copy ([`Proxy::access`]), and so is a read of landed bytes by a thread that has
//! not waited on the phase they completed (nor met a barrier with one that has). Landing
//! writes the box (zero-filled outside the tensor, swizzled, see [`crate::tma_box`]) and
//! completes its bytes on the mbarrier, which may complete a phase and release its waiters.
//!
//! A store (shared to global, `bulk_group`) is queued in the thread's bulk async-groups and
//! done (shared memory read, in-bounds elements written) when `cp.async.bulk.wait_group[.read]`
//! retires its group, or when the CTA exits; writing its source before then is a fault with
//! the race check on. A CTA that exits with loads in flight is a fault.

use crate::cta::{lane, Cta, Lane};
use crate::groups::Groups;
use crate::mbarrier::Barriers;
use crate::tma_box;
use std::collections::HashMap;
use weft_runtime::cuda::tensor_map_emu::EmuTensorMap;

/// `kind` of [`tensor`]: the rank in bits 0-2, this bit for a store.
pub const STORE: i32 = 16;
/// `kind` of [`tensor`]: check the global bytes against the host's buffers (`Checks::bounds`).
pub const CHECK_BOUNDS: i32 = 32;
/// [`group`] operations.
pub mod group_op {
    /// `cp.async.bulk.commit_group`
    pub const COMMIT: i32 = 0;
    /// `cp.async.bulk.wait_group n`
    pub const WAIT: i32 = 1;
    /// `cp.async.bulk.wait_group.read n`
    pub const WAIT_READ: i32 = 2;
}

/// One box copy: the map, the coordinates, the shared-memory bytes `[smem, end)` it covers.
#[derive(Clone)]
struct Box {
    map: EmuTensorMap,
    coords: [i32; 5],
    smem: usize,
    end: usize,
    tid: u32,
    site: i32,
}

/// A load's bytes after landing: visible to the threads that saw the phase it completed.
struct Landed {
    smem: usize,
    end: usize,
    bar: u32,
    phase: u64,
    seen: Vec<u32>,
}

/// A CTA's async proxy.
#[derive(Default)]
pub struct Proxy {
    /// mbarriers by shared byte offset.
    pub barriers: Barriers,
    /// Loads issued, not landed, with their mbarrier.
    loads: Vec<(Box, u32)>,
    /// Landed loads not yet visible to every thread (race check only).
    landed: Vec<Landed>,
    /// Each thread's stores in bulk async-groups.
    stores: HashMap<u32, Groups<Box>>,
    /// The tensor-map parameters resolved for this CTA (see `tma_map`).
    pub maps: Vec<(i32, std::boxed::Box<weft_runtime::cuda::tensor_map::TensorMap>)>,
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

impl Proxy {
    /// A description of the loads in flight that complete on the mbarrier at `bar`, if any.
    pub fn copies_into(&self, bar: u32) -> Option<String> {
        let n = self.loads.iter().filter(|l| l.1 == bar).count();
        (n > 0).then(|| format!("{n} cp.async.bulk.tensor copies in flight complete on it"))
    }

    /// Thread `tid` saw `done` phases of the mbarrier at `bar` complete.
    pub fn observed(&mut self, tid: u32, bar: u32, done: u64) {
        for l in self.landed.iter_mut().filter(|l| l.bar == bar && l.phase < done && !l.seen.contains(&tid)) {
            l.seen.push(tid);
        }
    }

    /// Every thread passed a barrier: what any of them saw, all see.
    pub fn epoch(&mut self) {
        self.landed.retain(|l| l.seen.is_empty());
    }

    /// Checks thread `tid`'s access of shared bytes `[off, off + len)` against the copies.
    pub fn access(&self, cta: &Cta, tid: u32, off: usize, len: usize, write: bool) -> Result<(), String> {
        let r = (off, off + len);
        let what = if write { "writes" } else { "reads" };
        if let Some((c, bar)) = self.loads.iter().find(|(c, _)| overlaps(r, (c.smem, c.end))) {
            return Err(format!("shared-memory race: {what} shared bytes {off}..{} while a cp.async.bulk.tensor issued by thread {} at {} is still writing {}..{}: wait on its mbarrier (shared byte {bar}) first", r.1, c.tid, cta.op(c.site), c.smem, c.end));
        }
        if let Some(l) = self.landed.iter().find(|l| overlaps(r, (l.smem, l.end)) && !l.seen.contains(&tid)) {
            return Err(format!("shared-memory race: {what} shared bytes {off}..{} that a cp.async.bulk.tensor wrote, completing phase {} of the mbarrier at shared byte {}, without waiting on that phase (or meeting a barrier with a thread that did)", r.1, l.phase, l.bar));
        }
        if write {
            for (t, g) in &self.stores {
                if let Some(c) = g.iter().find(|c| overlaps(r, (c.smem, c.end))) {
                    return Err(format!("shared-memory race: writes shared bytes {off}..{} that a cp.async.bulk.tensor store issued by thread {t} at {} has not read yet (cp.async.bulk.wait_group.read first)", r.1, cta.op(c.site)));
                }
            }
        }
        Ok(())
    }
}

/// The CTA's shared memory as bytes.
fn smem_bytes(cta: &mut Cta) -> &mut [u8] {
    let len = cta.smem.len() * 8;
    // SAFETY: the CTA's shared memory, `len` bytes, alive as long as the CTA.
    unsafe { std::slice::from_raw_parts_mut(cta.smem.as_mut_ptr() as *mut u8, len) }
}

/// Decodes and checks the box a copy at `site` moves.
fn prepare(l: &mut Lane, site: i32, kind: i32, smem: *mut u8, map: *const u8, coords: *const i32) -> Box {
    let cta = l.cta();
    if kind & CHECK_BOUNDS != 0 && !cta.tma.maps.iter().any(|(_, m)| std::ptr::eq(m.0.as_ptr(), map)) {
        // SAFETY: the live instance context; the lookup only reads the heap's allocation table.
        if unsafe { ((*(*cta.ctx).fns).extent)(cta.ctx, map, site) } < 128 {
            l.fault(site, &format!("cp.async.bulk.tensor through a tensor map at {map:p}, which is neither a tensor-map parameter nor 128 bytes of a buffer the host allocated"));
        }
    }
    // SAFETY: a tensor-map parameter points at its 128 bytes (the kernel's, as on the GPU).
    let bytes = unsafe { &*(map as *const [u8; 128]) };
    let m = EmuTensorMap::decode(bytes).unwrap_or_else(|e| l.fault(site, &format!("cp.async.bulk.tensor through a malformed tensor map at {map:p}: {e}")));
    let rank = (kind & 7) as usize;
    if m.rank != rank {
        l.fault(site, &format!("a {rank}-D cp.async.bulk.tensor through a tensor map of rank {}", m.rank));
    }
    if m.interleave != 0 {
        l.fault(site, "cp.async.bulk.tensor through an interleaved tensor map: the emulator implements non-interleaved maps only");
    }
    let mut c = [0i32; 5];
    // SAFETY: the retargeted code passes a buffer of five coordinates.
    c.copy_from_slice(unsafe { std::slice::from_raw_parts(coords, 5) });
    let len = cta.smem.len() * 8;
    let off = (smem as usize).wrapping_sub(cta.smem.as_ptr() as usize);
    if let Err(e) = tma_box::check_footprint(&m, off, len) {
        l.fault(site, &e);
    }
    if let Err(e) = if kind & CHECK_BOUNDS != 0 { global_extent(cta, site, &m, &c[..rank]) } else { Ok(()) } {
        l.fault(site, &e);
    }
    let bytes = m.box_bytes() as usize;
    let end = if m.swizzle_span() > 0 { (off + bytes).div_ceil(128) * 128 } else { off + bytes };
    Box { map: m, coords: c, smem: off, end, tid: l.tid, site }
}

/// Checks that the box's elements inside the tensor lie in one buffer the host allocated
/// (a map whose shape overstates its buffer would read or write past it).
fn global_extent(cta: &Cta, site: i32, m: &EmuTensorMap, coords: &[i32]) -> Result<(), String> {
    let (mut lo, mut hi) = (u64::MAX, 0);
    tma_box::elements(m, coords, |_, g| {
        if let Some(a) = g {
            (lo, hi) = (lo.min(a), hi.max(a + m.elem_bytes()));
        }
    });
    if lo > hi {
        return Ok(());
    }
    // SAFETY: the live instance context; the lookup only reads the heap's allocation table.
    let ext = unsafe { ((*(*cta.ctx).fns).extent)(cta.ctx, lo as *const u8, site) };
    match ext {
        e if e >= (hi - lo) as i64 => Ok(()),
        e if e < 0 => Err(format!("out-of-bounds global access: cp.async.bulk.tensor touches global bytes {lo:#x}..{hi:#x}, in no buffer the host allocated (the tensor map's address or shape is wrong)")),
        e => Err(format!("out-of-bounds global access: cp.async.bulk.tensor touches global bytes {lo:#x}..{hi:#x}, past the end of the buffer the host allocated ({e} bytes of it left): the tensor map's shape overstates it")),
    }
}

/// `cp.async.bulk.tensor.Nd` (see [`STORE`]): `bar` is the load's mbarrier (unused by stores).
pub extern "C" fn tensor(site: i32, kind: i32, smem: *mut u8, map: *const u8, bar: *mut u8, coords: *const i32) {
    let l = lane();
    let c = prepare(l, site, kind, smem, map, coords);
    let cta = l.cta();
    let tid = l.tid;
    let race = |cta: &mut Cta, write: bool| cta.race.as_mut().map_or(Ok(()), |r| r.access(tid, c.smem, c.end - c.smem, write));
    if kind & STORE != 0 {
        // Reading a source other threads wrote since the last barrier is a race.
        if let Err(e) = race(cta, false) {
            l.fault(site, &e);
        }
        cta.tma.stores.entry(tid).or_default().push(c);
        return;
    }
    let b = crate::mbarrier::offset(cta, bar).unwrap_or_else(|e| l.fault(site, &e));
    if !cta.tma.barriers.contains_key(&b) {
        l.fault(site, &format!("cp.async.bulk.tensor completes on shared byte {b}, which holds no initialized mbarrier"));
    }
    if let Some((o, _)) = cta.tma.loads.iter().find(|(o, _)| overlaps((c.smem, c.end), (o.smem, o.end))) {
        l.fault(site, &format!("cp.async.bulk.tensor into shared bytes {}..{} while one issued by thread {} still writes {}..{}", c.smem, c.end, o.tid, o.smem, o.end));
    }
    // Overwriting bytes other threads read since the last barrier is a race.
    if let Err(e) = race(cta, true) {
        l.fault(site, &e);
    }
    cta.tma.landed.retain(|x| !overlaps((x.smem, x.end), (c.smem, c.end)));
    cta.tma.loads.push((c, b));
    cta.moved = true;
}

/// `cp.async.bulk.commit_group` / `wait_group n` / `wait_group.read n` (see [`group_op`]).
pub extern "C" fn group(_site: i32, op: i32, n: i32) {
    let l = lane();
    let cta = l.cta();
    let g = cta.tma.stores.entry(l.tid).or_default();
    if op == group_op::COMMIT {
        g.commit();
        return;
    }
    let mut done = vec![];
    while let Some(batch) = g.retire(n) {
        done.extend(batch);
    }
    for c in done {
        store(cta, &c);
    }
}

fn store(cta: &mut Cta, c: &Box) {
    // SAFETY: the tensor map's in-bounds elements are the kernel's global memory, as on the GPU.
    unsafe { tma_box::store(&c.map, &c.coords[..c.map.rank], smem_bytes(cta), c.smem) };
}

/// Lands every load in flight; true if there was one. An error names the site and what failed.
pub fn land(cta: &mut Cta) -> Result<bool, (i32, String)> {
    let loads = std::mem::take(&mut cta.tma.loads);
    let any = !loads.is_empty();
    for (c, bar) in loads {
        // SAFETY: as in `store`.
        unsafe { tma_box::load(&c.map, &c.coords[..c.map.rank], smem_bytes(cta), c.smem) };
        let Some(b) = cta.tma.barriers.get_mut(&bar) else {
            return Err((c.site, format!("thread {}: a cp.async.bulk.tensor landed on the mbarrier at shared byte {bar}, which was invalidated before it completed", c.tid)));
        };
        let phase = b.phase;
        let completed = b.complete_tx(c.map.box_bytes() as i64);
        if let Some(r) = cta.race.as_mut() {
            r.async_write(c.smem, c.end - c.smem);
            cta.tma.landed.push(Landed { smem: c.smem, end: c.end, bar, phase, seen: vec![] });
        }
        if completed {
            crate::mbarrier::phase_completed(cta, bar);
        }
    }
    if any {
        cta.moved = true;
    }
    Ok(any)
}

/// At the CTA's exit: the stores not yet done are done; loads still in flight are an error.
pub fn finish(cta: &mut Cta) -> Result<(), (i32, String)> {
    let mut all: Vec<Box> = vec![];
    for (_, mut g) in std::mem::take(&mut cta.tma.stores) {
        g.commit();
        while let Some(batch) = g.retire(0) {
            all.extend(batch);
        }
    }
    for c in &all {
        store(cta, c);
    }
    match cta.tma.loads.first() {
        Some((c, bar)) => Err((c.site, format!("thread {}: the CTA exited with {} cp.async.bulk.tensor loads in flight (this one into shared bytes {}..{}, on the mbarrier at shared byte {bar}): nothing waited for them", c.tid, cta.tma.loads.len(), c.smem, c.end))),
        None => Ok(()),
    }
}

/// The race check's hook: thread `l`'s shared access of `[off, off + len)`.
pub fn check_access(l: &mut Lane, site: i32, off: usize, len: usize, write: bool) {
    let cta: &Cta = l.cta();
    if let Err(e) = cta.tma.access(cta, l.tid, off, len, write) {
        l.fault(site, &e);
    }
}

#[cfg(test)]
#[path = "tma_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "tma_ring_tests.rs"]
mod ring_tests;
