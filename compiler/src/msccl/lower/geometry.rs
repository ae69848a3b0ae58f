//! Run-time sizes of a lowered algorithm for one element count: chunk and tile lengths, and
//! the buffers the host allocates. The kernel takes the lengths as arguments, so one
//! compiled kernel serves every size.

use super::super::error::{MscclError, Result};
use super::super::protocol::Protocol;
use super::layout::Layout;
use super::proto::{LL128_LINE_WORDS, LL128_DATA_WORDS};

/// Sizes of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// Elements of each rank's logical input buffer.
    pub elems: usize,
    /// Bytes per element.
    pub elem_bytes: usize,
    /// Elements per chunk: `ceil(elems / input chunks)`, rounded up to even so 16-bit
    /// elements always fill whole 32-bit words (the LL formats move words).
    pub chunk_elems: usize,
    /// Elements per tile: what one slot carries per chunk (even, at most a chunk).
    pub tile_elems: usize,
    /// Pipeline iterations: tiles per chunk.
    pub tiles: usize,
    /// Stride between a message's tiles in the slot buffer, in slot units.
    pub segment: usize,
}

/// Elements (or slot units) of every buffer a run needs, per rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferLens {
    /// Input, output and scratch buffers, in elements.
    pub buffers: [usize; 3],
    /// Receive slots, in slot units ([`Geometry::slot_unit_bytes`]).
    pub slots: usize,
    /// Per-program staging, in elements.
    pub stage: usize,
    /// i64 signal words.
    pub signals: usize,
}

impl Geometry {
    /// Plans `elems` elements of `elem_bytes` bytes over `input_chunks` logical input chunks,
    /// with slots of `slot_bytes` (default: the protocol's).
    pub fn plan(layout: &Layout, input_chunks: usize, elems: usize, elem_bytes: usize, slot_bytes: Option<usize>) -> Result<Geometry> {
        let protocol = layout.protocol;
        if elems == 0 || input_chunks == 0 || !matches!(elem_bytes, 2 | 4) {
            return Err(MscclError::InvalidConfig(format!(
                "cannot run {elems} elements of {elem_bytes} bytes over {input_chunks} input chunks"
            )));
        }
        let slot = slot_bytes.unwrap_or(protocol.default_slot_bytes());
        let payload = protocol.payload_bytes(slot) / layout.max_count.max(1);
        let fit = payload / elem_bytes / 2 * 2;
        if fit == 0 {
            return Err(MscclError::InvalidConfig(format!(
                "a {slot}-byte {protocol} slot cannot carry two {elem_bytes}-byte elements for each of {} chunks",
                layout.max_count
            )));
        }
        let chunk_elems = elems.div_ceil(input_chunks).next_multiple_of(2);
        let tile_elems = fit.min(chunk_elems);
        let words = tile_elems * elem_bytes / 4;
        let segment = match protocol {
            Protocol::Simple => tile_elems,
            Protocol::LL => words,
            Protocol::LL128 => words.div_ceil(LL128_DATA_WORDS) * LL128_LINE_WORDS / 2,
        };
        Ok(Geometry { elems, elem_bytes, chunk_elems, tile_elems, tiles: chunk_elems.div_ceil(tile_elems), segment })
    }

    /// Bytes of one slot unit: an element for Simple, a 64-bit word for LL and LL128.
    pub fn slot_unit_bytes(&self, protocol: Protocol) -> usize {
        match protocol {
            Protocol::Simple => self.elem_bytes,
            Protocol::LL | Protocol::LL128 => 8,
        }
    }

    /// Buffer lengths for `layout`.
    pub fn buffers(&self, layout: &Layout) -> BufferLens {
        BufferLens {
            buffers: layout.chunks.map(|c| c * self.chunk_elems),
            slots: layout.max_in * layout.slots * layout.max_count * self.segment,
            stage: layout.grid * layout.max_count * self.tile_elems,
            signals: layout.signal_words(),
        }
    }

    /// Valid elements of logical input chunk `index` (the last chunks may be short or empty).
    pub fn valid(&self, index: usize) -> usize {
        self.elems.saturating_sub(index * self.chunk_elems).min(self.chunk_elems)
    }
}
