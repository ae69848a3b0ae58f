//! Pipelining: how a buffer of `elems` elements is cut into MSCCL chunks, and each chunk into
//! tiles that fit one FIFO slot. The interpreter (and the lowering) runs the whole step
//! program once per tile index, so tiles of different steps overlap on different links.

use std::ops::Range;

use super::error::{MscclError, Result};
use super::protocol::Protocol;

/// The tiling plan for one run of an algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pipeline {
    /// Elements in the buffer the algorithm's chunks divide.
    pub elems: usize,
    /// Chunks the buffer is divided into (`nchunksperloop`).
    pub chunks: usize,
    /// Elements per chunk (the last chunk may be shorter or empty).
    pub chunk_elems: usize,
    /// Elements per tile: what one slot's payload holds.
    pub tile_elems: usize,
    /// Tiles per chunk: iterations of the pipelining loop.
    pub tiles: usize,
}

impl Pipeline {
    /// Plans `elems` elements of `elem_bytes` bytes over `chunks` chunks, with slots of
    /// `slot_bytes` bytes under `protocol` (whose flags take part of each slot).
    pub fn plan(
        elems: usize,
        elem_bytes: usize,
        chunks: usize,
        slot_bytes: usize,
        protocol: Protocol,
    ) -> Result<Pipeline> {
        if elem_bytes == 0 || chunks == 0 {
            return Err(MscclError::InvalidConfig("element size and chunk count must be at least 1".into()));
        }
        let payload = protocol.payload_bytes(slot_bytes);
        let tile_elems = payload / elem_bytes;
        if tile_elems == 0 {
            return Err(MscclError::InvalidConfig(format!(
                "a {slot_bytes}-byte {protocol} slot carries {payload} payload bytes, less than one {elem_bytes}-byte element"
            )));
        }
        let chunk_elems = elems.div_ceil(chunks);
        Ok(Pipeline { elems, chunks, chunk_elems, tile_elems, tiles: chunk_elems.div_ceil(tile_elems) })
    }

    /// [`Pipeline::plan`] with the protocol's default slot size.
    pub fn plan_default(elems: usize, elem_bytes: usize, chunks: usize, protocol: Protocol) -> Result<Pipeline> {
        Self::plan(elems, elem_bytes, chunks, protocol.default_slot_bytes(), protocol)
    }

    /// Elements of chunk `chunk` (empty past the end of the buffer).
    pub fn chunk_range(&self, chunk: usize) -> Range<usize> {
        let start = (chunk * self.chunk_elems).min(self.elems);
        start..((chunk + 1) * self.chunk_elems).min(self.elems)
    }

    /// Elements of tile `tile` of chunk `chunk` (empty when the chunk is shorter).
    pub fn tile_range(&self, chunk: usize, tile: usize) -> Range<usize> {
        let chunk = self.chunk_range(chunk);
        let start = (chunk.start + tile * self.tile_elems).min(chunk.end);
        start..(start + self.tile_elems).min(chunk.end)
    }
}
