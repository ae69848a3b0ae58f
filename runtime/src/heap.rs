//! The symmetric heap: one contiguous arena per rank, allocated collectively so that an
//! allocation has the same offset everywhere. Remote translation is then a constant delta.

use crate::buffer::RawBuf;
use crate::local::bounds::AllocSpan;
use crate::RuntimeError;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

const ALIGN: usize = 256;
/// Mapped past the usable end, so vector code that reads a few bytes beyond the last
/// element it needs (16-bit lane pairs) never touches an unmapped page.
const SLACK: usize = 4096;
/// Bytes of each rank's device area, mapped past the slack (see [`Heap::device_area`]).
pub const DEVICE_AREA_BYTES: usize = 4096;
/// Default arena size per rank (virtual; pages are committed on first touch).
pub const DEFAULT_HEAP_BYTES: usize = 2 << 30;

/// Parses `WEFT_HEAP_SIZE`-style sizes: bytes, or with a K/M/G suffix.
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1 << 10),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        'g' | 'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<usize>().ok()?.checked_mul(mult)
}

struct Arena {
    base: *mut u8,
    size: usize,
    /// Mapped by this heap (unmapped on drop), rather than borrowed from an MPI window.
    owned: bool,
}

// SAFETY: the arena is plain memory; synchronisation is the kernels' and the runtime's job.
unsafe impl Send for Arena {}
unsafe impl Sync for Arena {}

impl Drop for Arena {
    fn drop(&mut self) {
        if !self.owned || self.base.is_null() {
            return;
        }
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.size) };
    }
}

#[derive(Default)]
struct Allocator {
    /// Free ranges (offset -> length), coalesced.
    free: BTreeMap<usize, usize>,
    /// Live allocations (offset -> (id, bytes reserved, bytes asked for)).
    live: BTreeMap<usize, (u64, usize, usize)>,
    /// Offsets below this were handed out before and must be zeroed on reuse.
    high_water: usize,
    next_id: u64,
    /// `live` as launches see it, made on the first launch after an alloc or free (launches
    /// far outnumber both; copying the map per launch was part of a small launch's cost).
    snapshot: Option<Arc<[AllocSpan]>>,
}

/// Every rank's arena plus the shared allocator.
pub struct Heap {
    arenas: Vec<Arena>,
    size: usize,
    alloc: Mutex<Allocator>,
    /// The one arena this process writes when it zeroes reused memory (its own rank's), when
    /// the other arenas belong to other processes; `None`: all of them.
    own: Option<usize>,
    /// Each arena's base address, as launches index it (0 where this process cannot see it).
    bases: Vec<usize>,
}

impl Heap {
    /// Reserves `size` bytes for each of `ranks` ranks.
    pub fn new(ranks: usize, size: usize) -> Result<Heap, RuntimeError> {
        let size = size.div_ceil(ALIGN) * ALIGN;
        let mut arenas = Vec::with_capacity(ranks);
        for r in 0..ranks {
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    size + SLACK + DEVICE_AREA_BYTES,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return Err(RuntimeError::System {
                    what: format!("reserving a {size}-byte symmetric heap for rank {r}"),
                    message: std::io::Error::last_os_error().to_string(),
                });
            }
            arenas.push(Arena { base: p as *mut u8, size: size + SLACK + DEVICE_AREA_BYTES, owned: true });
        }
        let mut a = Allocator::default();
        a.free.insert(0, size);
        let bases = arenas.iter().map(|a| a.base as usize).collect();
        Ok(Heap { arenas, size, alloc: Mutex::new(a), own: None, bases })
    }

    /// A heap over memory mapped by someone else (an MPI window): `bases[r]` is rank `r`'s
    /// arena as this process sees it (null where it cannot see it), `size` usable bytes each,
    /// and only arena `own` is ever written by the allocator. Every process runs the same
    /// allocator over the same sequence of calls, so offsets agree without communication.
    pub fn from_segments(bases: Vec<*mut u8>, size: usize, own: usize) -> Heap {
        let arenas: Vec<Arena> = bases.into_iter().map(|base| Arena { base, size: size + SLACK, owned: false }).collect();
        let mut a = Allocator::default();
        a.free.insert(0, size);
        let bases = arenas.iter().map(|a| a.base as usize).collect();
        Heap { arenas, size, alloc: Mutex::new(a), own: Some(own), bases }
    }

    /// Usable bytes of a heap of `size` asked-for bytes, and the bytes to map for each arena.
    pub fn sizes(size: usize) -> (usize, usize) {
        let size = size.div_ceil(ALIGN) * ALIGN;
        (size, size + SLACK)
    }

    /// Bytes per rank.
    pub fn capacity(&self) -> usize {
        self.size
    }

    /// The address of byte `offset` of `rank`'s part of `buf`, checked to hold `len` bytes.
    pub fn span(&self, buf: RawBuf, rank: usize, offset: usize, len: usize) -> Result<*mut u8, RuntimeError> {
        let world = self.arenas.len();
        if rank >= world || self.arenas[rank].base.is_null() {
            return Err(RuntimeError::RankOutOfRange { rank, world });
        }
        if offset + len > buf.bytes {
            return Err(RuntimeError::SizeMismatch { expected: buf.bytes, got: offset + len });
        }
        Ok(unsafe { self.base(rank).add(buf.offset + offset) })
    }

    /// Base address of `rank`'s arena.
    pub fn base(&self, rank: usize) -> *mut u8 {
        self.arenas[rank].base
    }

    /// Every rank's base address, by rank (0 for an arena this process cannot see).
    pub fn bases(&self) -> &[usize] {
        &self.bases
    }

    /// `rank`'s device area: [`DEVICE_AREA_BYTES`] bytes outside the allocator, zero when the
    /// heap is made and kept across launches, at the same offset from every rank's base (so
    /// peers reach it by the heap delta). Emulated GPU code keeps its device state there.
    pub fn device_area(&self, rank: usize) -> *mut u8 {
        // SAFETY: the arena maps `size + SLACK + DEVICE_AREA_BYTES` bytes.
        unsafe { self.arenas[rank].base.add(self.size + SLACK) }
    }

    /// Allocates `bytes` (zeroed) on every rank.
    pub fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        let want = bytes.max(1).div_ceil(ALIGN) * ALIGN;
        let mut a = self.alloc.lock().unwrap_or_else(|e| e.into_inner());
        let Some((&off, &len)) = a.free.iter().find(|(_, len)| **len >= want) else {
            let free = a.free.values().sum();
            return Err(RuntimeError::OutOfMemory { requested: bytes, free, capacity: self.size });
        };
        a.free.remove(&off);
        if len > want {
            a.free.insert(off + want, len - want);
        }
        a.next_id += 1;
        let id = a.next_id;
        a.live.insert(off, (id, want, bytes));
        a.snapshot = None;
        // Fresh pages are already zero; only reused ranges need clearing.
        let dirty = a.high_water.saturating_sub(off).min(want);
        a.high_water = a.high_water.max(off + want);
        drop(a);
        if dirty > 0 {
            for (r, arena) in self.arenas.iter().enumerate() {
                if self.own.is_none_or(|o| o == r) {
                    unsafe { std::ptr::write_bytes(arena.base.add(off), 0, dirty) };
                }
            }
        }
        Ok(RawBuf { id, offset: off, bytes })
    }

    /// Returns an allocation to the heap.
    pub fn free(&self, buf: RawBuf) {
        let mut a = self.alloc.lock().unwrap_or_else(|e| e.into_inner());
        let Some((_, len, _)) = a.live.remove(&buf.offset) else { return };
        a.snapshot = None;
        let (mut off, mut len) = (buf.offset, len);
        if let Some((&next, &nlen)) = a.free.range(off + len..).next() {
            if next == off + len {
                a.free.remove(&next);
                len += nlen;
            }
        }
        if let Some((&prev, &plen)) = a.free.range(..off).next_back() {
            if prev + plen == off {
                a.free.remove(&prev);
                off = prev;
                len += plen;
            }
        }
        a.free.insert(off, len);
    }

    /// The rank whose arena holds `addr`, and the offset in it.
    pub fn locate(&self, addr: usize) -> Option<(usize, usize)> {
        self.arenas.iter().enumerate().find_map(|(r, a)| {
            let base = a.base as usize;
            (base != 0 && addr >= base && addr < base + self.size).then(|| (r, addr - base))
        })
    }

    /// (allocation id, offset within it) of a heap offset, if it is inside a live allocation.
    pub fn allocation_of(&self, offset: usize) -> Option<(u64, usize)> {
        let a = self.alloc.lock().unwrap_or_else(|e| e.into_inner());
        let (&start, &(id, len, _)) = a.live.range(..=offset).next_back()?;
        (offset < start + len).then_some((id, offset - start))
    }

    /// Every live allocation as (heap offset, bytes reserved, bytes asked for, id), by offset:
    /// a launch's bounds checks look spans up in this snapshot without taking the lock. The
    /// same snapshot is shared until the next alloc or free.
    pub fn live_allocations(&self) -> Arc<[AllocSpan]> {
        let mut a = self.alloc.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = &a.snapshot {
            return s.clone();
        }
        let s: Arc<[AllocSpan]> = a.live.iter().map(|(&offset, &(id, reserved, bytes))| AllocSpan { offset, reserved, bytes, id }).collect();
        a.snapshot = Some(s.clone());
        s
    }

    /// Bytes from `addr` (in any rank's arena) to the end of what the host asked for in the
    /// live allocation holding it (0 past it, up to the aligned end), or of the device area
    /// holding it; `None` outside both.
    pub fn extent(&self, addr: usize) -> Option<usize> {
        for a in &self.arenas {
            let area = a.base as usize + self.size + SLACK;
            if addr >= area && addr < area + DEVICE_AREA_BYTES {
                return Some(area + DEVICE_AREA_BYTES - addr);
            }
        }
        let (_, offset) = self.locate(addr)?;
        let a = self.alloc.lock().unwrap_or_else(|e| e.into_inner());
        // Up to the reserved (aligned) end, an address still belongs to its allocation, with
        // nothing left of it past the bytes the host asked for.
        let (&start, &(_, want, bytes)) = a.live.range(..=offset).next_back()?;
        (offset < start + want).then(|| (start + bytes).saturating_sub(offset))
    }
}

#[cfg(test)]
mod extent_tests {
    use super::{Heap, DEVICE_AREA_BYTES};

    #[test]
    fn extent_counts_to_the_bytes_asked_for_on_any_rank_and_in_device_areas() {
        let h = Heap::new(2, 1 << 16).unwrap();
        let b = h.alloc(10).unwrap();
        let on = |rank: usize, off: usize| h.base(rank) as usize + b.offset + off;
        assert_eq!(h.extent(on(0, 0)), Some(10));
        assert_eq!(h.extent(on(1, 4)), Some(6));
        assert_eq!(h.extent(on(1, 10)), Some(0), "past the asked-for end, inside the aligned reservation");
        assert_eq!(h.extent(on(0, 300)), None, "no allocation there");
        assert_eq!(h.extent(h.device_area(1) as usize + 8), Some(DEVICE_AREA_BYTES - 8));
        h.free(b);
        assert_eq!(h.extent(on(0, 0)), None, "a freed buffer");
    }
}
