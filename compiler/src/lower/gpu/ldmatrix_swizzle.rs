//! `ldmatrix` operands read from a swizzled staging instead of padded rows: the layout a TMA
//! box writes with `CU_TENSOR_MAP_SWIZZLE_128B/64B/32B` ([`SwizzledTile`], Triton's shared
//! encoding with `vec = 8`), which a copy can fill where a padded row cannot.
//!
//! Each 16-byte chunk's index is XORed with the row's phase (bits 7 and up of its linear
//! offset), so the 8 consecutive rows one `ldmatrix` phase reads land in 8 different 16-byte
//! bank groups with no padding. A lane's row address is computed once ([`lane_byte`]); the
//! other 16x16 blocks of the operand are reached by a constant XOR and a constant add
//! ([`Step`]): moving 8k rows keeps the phase, and moving 16k columns changes only the chunk
//! bits the lane's own 16-element column never sets, so XOR equals add there.

use super::ldmatrix::x4_row;
use super::wgmma_desc::SwizzledTile;

/// The byte (from the staging's base) of the 16-byte row `lane` gives to the `ldmatrix.x4`
/// of the 16x16 block at `(row0, col0)` (`row0` a multiple of 8, `col0` of 8).
pub fn lane_byte(tile: &SwizzledTile, row0: usize, col0: usize, lane: usize) -> usize {
    let (r, c) = x4_row(lane);
    tile.byte_of(row0 + r, col0 + c)
}

/// How a lane's row address moves from one block to another: `(base ^ xor) + add`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Chunk bits flipped (within one swizzle row, below bit 7).
    pub xor: usize,
    /// Bytes added (whole atoms and whole 8-row groups: the phase is unchanged).
    pub add: usize,
}

impl Step {
    /// The step by `dr` rows (a multiple of 8) and `dc` columns (a multiple of 16), from a
    /// block whose lanes' chunk bits and `dc`'s are disjoint: every block a warp reads when
    /// [`carry_free`] holds.
    pub fn new(tile: &SwizzledTile, dr: usize, dc: usize) -> Step {
        debug_assert!(dr % 8 == 0 && dc % 16 == 0, "block steps are 8-row and 16-column multiples");
        let w = tile.atom_cols();
        Step { xor: (dc % w) * 2, add: (dc / w) * tile.atom_bytes() + dr * tile.swizzle }
    }

    /// Applies the step to a lane's base byte.
    pub fn apply(&self, base: usize) -> usize {
        (base ^ self.xor) + self.add
    }
}

/// Whether a warp whose blocks start at column `col0` and span `span` columns can step by
/// [`Step`] from its first block: within an atom, the lane's chunk bits and the steps' bits
/// are disjoint (`col0` a multiple of the span, rounded up to a power of two, or of the atom;
/// any 8-column multiple when the span holds one block and there are no steps).
pub fn carry_free(tile: &SwizzledTile, col0: usize, span: usize) -> bool {
    let w = tile.atom_cols();
    let reach = if span <= 16 { 8 } else { span.next_power_of_two().min(w) };
    (col0 % w) % reach == 0
}
