//! The work split shared by the overlap kernels: program roles, row segments per rank, and
//! the walk over every segment's output tiles in a swizzled segment order.

use crate::gemm::GemmConfig;
use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;

/// An `i64` scalar constant.
pub fn i64c(x: i64) -> Val {
    constant(x, Scalar::I64, &[])
}

/// Splits the grid into compute programs and `comm` communication programs (the last ones):
/// returns `(program id, number of compute programs, is this a compute program)`.
pub fn role_split(comm: i64) -> (Val, Val, Val) {
    let g = program_id(0).to(Scalar::I64);
    let compute = num_programs(0).to(Scalar::I64) - comm;
    (g, compute, g.lt(compute))
}

/// Rows `[r*m/world, (r+1)*m/world)` of rank `r`'s segment (the reference's `segment`).
pub fn segment(r: Val, m: Val, world: Val) -> (Val, Val) {
    (r * m / world, (r + 1) * m / world)
}

/// One output tile of a segment, as [`seg_tiles`] hands it out.
#[derive(Clone, Copy, Debug)]
pub struct SegTile {
    /// The rank whose segment this is.
    pub rank: Val,
    /// Tile index within the segment (`row_tile * num_pn + pn`).
    pub index: Val,
    /// Row-tile index within the segment.
    pub row_tile: Val,
    /// First row of the tile (absolute).
    pub row0: Val,
    /// Rows from `row0` to the end of the segment (the row mask bound).
    pub rows: Val,
    /// Row indices `0..BLOCK_M` relative to `row0`.
    pub rows_idx: Val,
    /// Absolute column indices of the tile.
    pub cols_idx: Val,
}

/// Runs `body` on this program's share of every segment's tiles: segments in `order(step)`
/// order, each split into `BLOCK_M`-row tiles starting at its first row, tiles dealt round
/// robin over the `programs` compute programs (`g` is this one) continuing across segments.
pub fn seg_tiles(g: Val, programs: Val, world: Val, m: Val, n: Val, cfg: &GemmConfig, order: impl Fn(Val) -> Val, mut body: impl FnMut(SegTile)) {
    let num_pn = cdiv(n, cfg.bn);
    for_range_carry(0i64, world, 1i64, &[i64c(0)], |step, dealt| {
        let rank = order(step);
        let (s0, s1) = segment(rank, m, world);
        let ntiles = cdiv(s1 - s0, cfg.bm) * num_pn;
        let first = ((g - dealt[0]) % programs + programs) % programs;
        for_range(first, ntiles, programs, |index| {
            let row_tile = index / num_pn;
            let pn = index % num_pn;
            let row0 = s0 + row_tile * cfg.bm;
            let rows_idx = arange(0, cfg.bm as i32).to(Scalar::I64);
            let cols_idx = pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
            body(SegTile { rank, index, row_tile, row0, rows: s1 - row0, rows_idx, cols_idx });
        });
        vec![dealt[0] + ntiles]
    });
}

/// [`seg_tiles`] in AMD's swizzle order: round `t` takes row tile `t` of every segment (in
/// `order(step)` order) before any segment's row tile `t + 1`, so every step receives a chunk
/// from every rank at once (AMD's full mesh has a link per peer, and one link per step would
/// leave the others idle). Slots are dealt round robin over the `programs` compute programs;
/// a segment shorter than the tallest skips its last round.
pub fn round_tiles(g: Val, programs: Val, world: Val, m: Val, n: Val, cfg: &GemmConfig, order: impl Fn(Val) -> Val, mut body: impl FnMut(SegTile)) {
    let num_pn = cdiv(n, cfg.bn);
    let per_round = world * num_pn;
    let rounds = cdiv(cdiv(m, world), cfg.bm);
    for_range(g, rounds * per_round, programs, |slot| {
        let (row_tile, rest) = (slot / per_round, slot % per_round);
        let (rank, pn) = (order(rest / num_pn), rest % num_pn);
        let (s0, s1) = segment(rank, m, world);
        let row0 = s0 + row_tile * cfg.bm;
        if_(row0.lt(s1), || {
            let rows_idx = arange(0, cfg.bm as i32).to(Scalar::I64);
            let cols_idx = pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
            body(SegTile { rank, index: row_tile * num_pn + pn, row_tile, row0, rows: s1 - row0, rows_idx, cols_idx });
        });
    });
}
