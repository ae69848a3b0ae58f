//! Accumulator layouts of `tile.dot` results: where each element of an `[M, N]` accumulator
//! lives when a dot computes it, as Triton's mma and FMA (blocked `sizePerThread`) layouts.
//!
//! Both put element `(row, col)` of thread `t`'s slot `s` at `base(t) + offset(s)`, so the
//! emitted address of every slot is one per-thread base plus a compile-time constant.
//! - [`AccLayout::Mma`]: the CTA's warps tile the accumulator `warps_m x warps_n`; each warp
//!   covers `rep_m x rep_n` tiles of 16x8, held as the `m16n8k16` D fragment: lane `l` holds
//!   rows `l/4` and `l/4 + 8`, columns `2*(l%4)` and `2*(l%4) + 1` of each tile.
//! - [`AccLayout::Fma`]: the threads tile the accumulator `threads_m x threads_n`, each
//!   holding a `tm x tn` block, so an FMA step reads `tm` values of A and `tn` of B.
//! - [`AccLayout::Mfma`]: AMD's 64-lane wavefronts tile it `warps_m x warps_n`, each covering
//!   `rep_m x rep_n` blocks of `S x S` (32 or 16) held as the MFMA D fragment (see
//!   [`super::mfma`]): lane `l` holds column `l % S`, rows `4 (l / S) + 8 i + j`.

/// Rows and columns of one `m16n8` mma tile.
pub const MMA_M: usize = 16;
/// Columns of one mma tile.
pub const MMA_N: usize = 8;
/// The reduction depth of one `m16n8k16` instruction.
pub const MMA_K: usize = 16;

/// Where each element of a dot accumulator lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccLayout {
    /// Warp-level `m16n8k16` fragments (32-thread warps).
    Mma {
        /// Accumulator rows and columns.
        m: usize,
        n: usize,
        /// Warps along rows and columns.
        warps_m: usize,
        warps_n: usize,
    },
    /// A `tm x tn` block per thread.
    Fma {
        /// Accumulator rows and columns.
        m: usize,
        n: usize,
        /// Threads along rows and columns.
        threads_m: usize,
        threads_n: usize,
    },
    /// AMD MFMA fragments (64-lane wavefronts).
    Mfma {
        /// Accumulator rows and columns.
        m: usize,
        n: usize,
        /// Wavefronts along rows and columns.
        warps_m: usize,
        warps_n: usize,
        /// The instruction's output block side `S` (32: `32x32x8`, 16: `16x16x16`).
        instr: usize,
    },
}

impl AccLayout {
    /// The mma layout of an `m x n` accumulator over `warps` 32-thread warps, when the shape
    /// splits into whole 16x8 tiles per warp. Warps go to the dimension with more tiles left.
    pub fn mma(m: usize, n: usize, warps: usize) -> Option<AccLayout> {
        if m % MMA_M != 0 || n % MMA_N != 0 {
            return None;
        }
        let (warps_m, warps_n) = warp_grid(m / MMA_M, n / MMA_N, warps)?;
        Some(AccLayout::Mma { m, n, warps_m, warps_n })
    }

    /// The FMA layout of an `m x n` accumulator over `threads` threads: the most nearly square
    /// per-thread block that tiles the shape exactly.
    pub fn fma(m: usize, n: usize, threads: usize) -> Option<AccLayout> {
        let mut best: Option<(usize, AccLayout)> = None;
        let mut tn = 1;
        while tn <= threads {
            let tm = threads / tn;
            if tm * tn == threads && m % tm == 0 && n % tn == 0 {
                let (bm, bn) = (m / tm, n / tn);
                let score = bm.max(bn) / bm.min(bn);
                if best.map_or(true, |(s, _)| score < s) {
                    best = Some((score, AccLayout::Fma { m, n, threads_m: tm, threads_n: tn }));
                }
            }
            tn *= 2;
        }
        best.map(|b| b.1)
    }

    /// Accumulator rows and columns.
    pub fn shape(&self) -> (usize, usize) {
        match *self {
            AccLayout::Mma { m, n, .. } | AccLayout::Fma { m, n, .. } | AccLayout::Mfma { m, n, .. } => (m, n),
        }
    }

    /// Threads the layout is spread over.
    pub fn threads(&self) -> usize {
        match *self {
            AccLayout::Mma { warps_m, warps_n, .. } => warps_m * warps_n * 32,
            AccLayout::Fma { threads_m, threads_n, .. } => threads_m * threads_n,
            AccLayout::Mfma { warps_m, warps_n, .. } => warps_m * warps_n * super::mfma::WAVE,
        }
    }

    /// Tiles (16x8 mma, `S x S` MFMA) per warp, or (FMA) elements per thread, along rows
    /// and columns.
    pub fn reps(&self) -> (usize, usize) {
        match *self {
            AccLayout::Mma { m, n, warps_m, warps_n } => (m / warps_m / MMA_M, n / warps_n / MMA_N),
            AccLayout::Fma { m, n, threads_m, threads_n } => (m / threads_m, n / threads_n),
            AccLayout::Mfma { m, n, warps_m, warps_n, instr } => (m / warps_m / instr, n / warps_n / instr),
        }
    }

    /// Register slots per thread.
    pub fn slots(&self) -> usize {
        let (a, b) = self.reps();
        match self {
            AccLayout::Mma { .. } => a * b * 4,
            AccLayout::Fma { .. } => a * b,
            AccLayout::Mfma { instr, .. } => a * b * instr * instr / super::mfma::WAVE,
        }
    }

    /// The first (row, column) of `thread`: the part of an element's position that depends
    /// on the thread.
    pub fn base(&self, thread: usize) -> (usize, usize) {
        match *self {
            AccLayout::Mma { m, n, warps_m, warps_n } => {
                let (warp, lane) = (thread / 32, thread % 32);
                let (wm, wn) = (warp / warps_n, warp % warps_n);
                (wm * (m / warps_m) + lane / 4, wn * (n / warps_n) + 2 * (lane % 4))
            }
            AccLayout::Fma { threads_n, .. } => {
                let (bm, bn) = self.reps();
                ((thread / threads_n) * bm, (thread % threads_n) * bn)
            }
            AccLayout::Mfma { m, n, warps_m, warps_n, instr } => {
                let (warp, lane) = (thread / super::mfma::WAVE, thread % super::mfma::WAVE);
                let (wm, wn) = (warp / warps_n, warp % warps_n);
                (wm * (m / warps_m) + 4 * (lane / instr), wn * (n / warps_n) + lane % instr)
            }
        }
    }

    /// The (row, column) offset of register slot `slot` from the thread's base.
    pub fn offset(&self, slot: usize) -> (usize, usize) {
        let (_, rn) = self.reps();
        match self {
            AccLayout::Mma { .. } => {
                let (tile, q) = (slot / 4, slot % 4);
                let (im, jn) = (tile / rn, tile % rn);
                (im * MMA_M + (q / 2) * 8, jn * MMA_N + q % 2)
            }
            AccLayout::Fma { .. } => (slot / rn, slot % rn),
            AccLayout::Mfma { instr, .. } => {
                let per = instr * instr / super::mfma::WAVE;
                let (tile, v) = (slot / per, slot % per);
                // Lane 0's D element of register `v` (see `mfma_d_element`).
                let (dr, dc) = super::mfma::mfma_d_element(0, v, *instr);
                ((tile / rn) * instr + dr, (tile % rn) * instr + dc)
            }
        }
    }

    /// The (row, column) that `thread` holds in `slot`.
    pub fn element(&self, thread: usize, slot: usize) -> (usize, usize) {
        let (b, o) = (self.base(thread), self.offset(slot));
        (b.0 + o.0, b.1 + o.1)
    }

    /// Warps along rows and columns (mma, MFMA), or `(1, 1)`.
    pub fn warps(&self) -> (usize, usize) {
        match *self {
            AccLayout::Mma { warps_m, warps_n, .. } | AccLayout::Mfma { warps_m, warps_n, .. } => (warps_m, warps_n),
            AccLayout::Fma { .. } => (1, 1),
        }
    }

    /// The slot of the `(im, jn)` 16x8 tile's first D register (mma).
    pub fn mma_slot(&self, im: usize, jn: usize) -> usize {
        (im * self.reps().1 + jn) * 4
    }
}

/// Warps along rows and columns for a `tiles_m x tiles_n` grid of instruction tiles, each
/// warp taking whole tiles: warps go to the dimension with more tiles left. `None` when the
/// tiles cannot be shared out evenly.
pub(crate) fn warp_grid(tiles_m: usize, tiles_n: usize, warps: usize) -> Option<(usize, usize)> {
    let (mut wm, mut wn) = (1, 1);
    while wm * wn < warps {
        let (left_m, left_n) = (tiles_m / wm, tiles_n / wn);
        if left_m >= left_n && left_m % 2 == 0 {
            wm *= 2;
        } else if left_n % 2 == 0 {
            wn *= 2;
        } else if left_m % 2 == 0 {
            wm *= 2;
        } else {
            return None;
        }
    }
    Some((wm, wn))
}

/// The `m16n8k16` A fragment (16x16, row-major) of `lane`: its 8 (row, k) elements, in
/// register order (pairs along k share a 32-bit register).
pub fn mma_a_fragment(lane: usize) -> [(usize, usize); 8] {
    let (g, c) = (lane / 4, 2 * (lane % 4));
    [(g, c), (g, c + 1), (g + 8, c), (g + 8, c + 1), (g, c + 8), (g, c + 9), (g + 8, c + 8), (g + 8, c + 9)]
}

/// The `m16n8k16` B fragment (16x8, "col") of `lane`: its 4 (k, col) elements in register order.
pub fn mma_b_fragment(lane: usize) -> [(usize, usize); 4] {
    let (g, c) = (lane / 4, 2 * (lane % 4));
    [(c, g), (c + 1, g), (c + 8, g), (c + 9, g)]
}

#[cfg(test)]
#[path = "acc_layout_tests.rs"]
mod tests;
