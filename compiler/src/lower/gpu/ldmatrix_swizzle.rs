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

use std::collections::HashMap;

use super::acc_layout::AccLayout;
use super::emit::{num_elem, Gx};
use super::ldmatrix::x4_row;
use super::wgmma::swizzled_byte;
use super::wgmma_desc::SwizzledTile;
use crate::ir::Op;

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

/// Where a warp's `ldmatrix`es read one operand from: this lane's pointer into padded rows
/// of `stride` elements, or its byte offset `lane` into a swizzled staging at pointer `at`
/// (the operand's, or its ring slot's, first element), with the XORed pointers made so far.
pub(crate) enum Reader {
    Padded { p: String, stride: usize },
    Swizzled { at: String, lane: String, tile: SwizzledTile, xored: HashMap<usize, String> },
}

impl Gx<'_> {
    /// The swizzled stagings of `dot`'s A (`[M][K]`) and B (`[K][N]`) when the target reads
    /// mma operands from them: both copied by `cp.async`, 16-bit, the shapes swizzle-able and
    /// every warp's blocks reachable from its first by a constant [`Step`].
    pub(crate) fn ldmatrix_plan(&self, dot: Op) -> Option<(SwizzledTile, SwizzledTile)> {
        let d = self.k.op(dot);
        let Some(&AccLayout::Mma { m, n, warps_n, .. }) = self.accs.layout.get(&d.results[0]) else { return None };
        let k = *self.ty(d.operands[0]).shape().last()?;
        let ok = self.t.swizzled_ldmatrix() && self.t.mma(num_elem(self.ty(d.operands[0]))).is_some() && self.staged_operands(dot) == [true, true];
        let (ta, tb) = (SwizzledTile::new(m, k)?, SwizzledTile::new(k, n)?);
        let wn = n / warps_n;
        let steps = k % 16 == 0 && carry_free(&ta, 0, k) && (0..warps_n).all(|j| carry_free(&tb, j * wn, wn));
        (ok && steps).then_some((ta, tb))
    }

    /// The swizzled stagings of `dot`'s operands, for `wgmma` or for `ldmatrix`.
    pub(crate) fn swizzled_staging(&self, dot: Op) -> Option<(SwizzledTile, SwizzledTile)> {
        self.wgmma_plan(dot).or_else(|| self.ldmatrix_plan(dot))
    }

    /// The readers of A and B staged as `(ta, tb)` for mma layout `l` (see [`lane_byte`]),
    /// the operands starting at shared pointers `(a, b)` (a ring's read slot included). The
    /// XORed lane offsets do not depend on the slot, so they are computed once per loop (an
    /// XOR of the slot's address instead re-does them every step: 126 SASS per K-step
    /// against 115 at 64x64x32 w4 on sm_100a).
    pub(crate) fn swizzled_readers(&mut self, l: &AccLayout, (ta, tb): (SwizzledTile, SwizzledTile), (a, b): (String, String)) -> (Reader, Reader) {
        let AccLayout::Mma { m, n, warps_m, warps_n } = *l else { unreachable!("ldmatrix feeds mma layouts only") };
        let lane = self.ldmatrix_lane(l);
        // A's lane row is its warp's first row plus `lane % 16`; B's column its warp's first
        // plus the lane's 8-column half (as `x4_row`).
        let byte = |g: &mut Self, tile: SwizzledTile, is_b: bool| {
            g.entry_value(&format!("ldms.{l:?}.{tile:?}.{is_b}"), |_, r| {
                let mut v = vec![format!("{r}.r = urem i32 {lane}, 16"), format!("{r}.c = udiv i32 {lane}, 16"), format!("{r}.c8 = mul i32 {r}.c, 8")];
                let (row, col) = if is_b {
                    v.push(format!("{r}.c0 = mul i32 {lane}.wn, {}", n / warps_n));
                    v.push(format!("{r}.col = add i32 {r}.c0, {r}.c8"));
                    (format!("{r}.r"), format!("{r}.col"))
                } else {
                    v.push(format!("{r}.r0 = mul i32 {lane}.wm, {}", m / warps_m));
                    v.push(format!("{r}.row = add i32 {r}.r0, {r}.r"));
                    (format!("{r}.row"), format!("{r}.c8"))
                };
                v.extend(swizzled_byte(r, r, (&row, &col), tile));
                v
            })
        };
        let (la, lb) = (byte(self, ta, false), byte(self, tb, true));
        let reader = |at: String, lane: String, tile: SwizzledTile| Reader::Swizzled { at, lane, tile, xored: HashMap::new() };
        (reader(a, la, ta), reader(b, lb, tb))
    }

    /// The `ldmatrix` (see [`Gx::ldmatrix`]) of the block `(dr, dc)` elements on from the
    /// warp's first block of operand `rd`.
    pub(crate) fn ldmatrix_block(&mut self, rd: &mut Reader, e: &str, (dr, dc): (usize, usize), count: usize, trans: bool, reg: &str) -> Vec<String> {
        match rd {
            Reader::Padded { p, stride } => {
                let off = dr * *stride + dc;
                self.ldmatrix(p, e, off, count, trans, reg)
            }
            Reader::Swizzled { at, lane, tile, xored } => {
                let step = Step::new(tile, dr, dc);
                let q = match xored.get(&step.xor) {
                    Some(q) => q.clone(),
                    None => {
                        let x = if step.xor == 0 { lane.clone() } else { self.assign(&format!("xor i32 {lane}, {}", step.xor)) };
                        let q = self.assign(&format!("getelementptr inbounds i8, ptr addrspace(3) {at}, i32 {x}"));
                        xored.insert(step.xor, q.clone());
                        q
                    }
                };
                self.ldmatrix(&q, e, step.add / 2, count, trans, reg)
            }
        }
    }
}
