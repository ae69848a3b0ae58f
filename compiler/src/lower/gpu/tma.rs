//! TMA (sm_90+) staging of a `wgmma` operand, in plain Rust: the boxes a
//! `cp.async.bulk.tensor.2d` copy moves so that a tile lands in shared memory exactly as
//! [`super::wgmma_desc`]'s swizzled staging lays it out (the layout the descriptors read).
//!
//! A [`SwizzledTile`] is `cols / w` atoms of `rows x w` elements (`w` = one swizzle span of
//! 16-bit elements), one after the other. One TMA box is one atom: `rows` rows of the
//! span's bytes, written by the copy with the same swizzle mode, which XORs each 16-byte
//! chunk index with address bits 7 and up, as the staging does. So atom `j` is the box at
//! global column `col0 + j * w`, landing at byte `j * atom_bytes`. Out-of-bounds rows and
//! columns are zero-filled by the copy and still counted in the transaction bytes, so a
//! ragged edge needs no mask and the byte count the mbarrier expects is always the tile's.

use super::wgmma_desc::SwizzledTile;
use weft_runtime::cuda::tensor_map::{TmaElem, TmaParam, TmaSwizzle};

/// The boxes that stage one operand tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmaPlan {
    /// The staging it fills.
    pub tile: SwizzledTile,
}

impl TmaPlan {
    /// The plan of `tile` (the box fits the copy: at most 256 rows).
    pub fn new(tile: SwizzledTile) -> Option<TmaPlan> {
        (tile.rows <= 256).then_some(TmaPlan { tile })
    }

    /// Boxes per tile.
    pub fn boxes(&self) -> usize {
        self.tile.cols / self.tile.atom_cols()
    }

    /// Box `j`'s column offset in the tile (elements) and its byte offset in the staging.
    pub fn place(&self, j: usize) -> (usize, usize) {
        (j * self.tile.atom_cols(), j * self.tile.atom_bytes())
    }

    /// The bytes every copy of the tile completes on its mbarrier (zero-filled ones too).
    pub fn tx_bytes(&self) -> usize {
        self.tile.bytes()
    }

    /// The tensor-map parameter of a row-major matrix whose pointer, rows, columns and row
    /// stride are kernel arguments `args` (indices), read in this plan's boxes.
    pub fn param(&self, args: [usize; 4], elem: TmaElem) -> Option<TmaParam> {
        let [ptr, rows, cols, ld] = args;
        let swizzle = TmaSwizzle::for_span(self.tile.swizzle)?;
        Some(TmaParam { ptr, rows, cols, ld, box_rows: self.tile.rows as u32, box_cols: self.tile.atom_cols() as u32, elem, swizzle })
    }
}

#[cfg(test)]
#[path = "tma_tests.rs"]
mod tests;
