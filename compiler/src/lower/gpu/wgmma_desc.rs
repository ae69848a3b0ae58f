//! Shared-memory operands of `wgmma.mma_async` (sm_90a), in plain Rust: the swizzled staging
//! of a 16-bit tile, the 64-bit matrix descriptors that point the instruction at it, and the
//! addresses the hardware reads through a descriptor (so the tests can run the whole operand
//! path against a naive GEMM without a GPU).
//!
//! Staging (Triton's NVMMA shared layout): a `rows x cols` tile, `cols` contiguous, is cut
//! along `cols` into atoms `w = swizzle / 2` elements wide, stored one after the other as
//! `[cols / w][rows][w]`; within each, the 16-byte chunk index of a byte offset is XORed with
//! its bits from 7 up (`swizzle / 16` values), CUTLASS's `Swizzle<log2(swizzle/16), 4, 3>`.
//! A is stored `[M][K]` (K-major), B `[K][N]` (N-major, read with `tnspB`).
//!
//! The descriptor fields (PTX ISA "matrix descriptor"): start address, leading byte offset
//! (LBO) and stride byte offset (SBO), all `>> 4`, and the swizzle mode in bits 62-63. For a
//! K-major operand SBO is the step between 8-row groups and LBO is unused (one k16 step lies
//! inside an atom row); for an MN-major one SBO is the step between 8-row groups along K and
//! LBO the step between atoms along MN. The values match what Triton 3.9 emits for its
//! tutorial-03 matmul on sm_90a (64x64x32: A SW64 SBO 512, B SW128 SBO 1024; 128x128x64: B
//! LBO 8192).

/// Rows of the accumulator one warp group's `wgmma` computes.
pub const WG_M: usize = 64;
/// The reduction depth of one 16-bit `wgmma`.
pub const WG_K: usize = 16;
/// Warps in a warp group.
pub const WG_WARPS: usize = 4;

/// The swizzle width (bytes) for rows of `row_bytes`: 128 for whole multiples of 128 bytes,
/// 64 or 32 for rows exactly that wide; `None` otherwise (no swizzled staging).
pub fn swizzle_for(row_bytes: usize) -> Option<usize> {
    match row_bytes {
        32 | 64 => Some(row_bytes),
        b if b > 0 && b % 128 == 0 => Some(128),
        _ => None,
    }
}

/// Applies the `swizzle`-byte pattern to byte offset `off` (from a base aligned to
/// `8 * swizzle` bytes): its 16-byte chunk index is XORed with bits 7 and up.
pub fn swizzle(off: usize, swizzle: usize) -> usize {
    off ^ (((off >> 7) & (swizzle / 16 - 1)) << 4)
}

/// A 16-bit tile staged for `wgmma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledTile {
    /// Rows (M for A, K for B) and contiguous columns (K for A, N for B).
    pub rows: usize,
    pub cols: usize,
    /// Swizzle width in bytes (32, 64 or 128).
    pub swizzle: usize,
}

impl SwizzledTile {
    /// The staging of a `rows x cols` 16-bit tile, when its rows admit a swizzle and its rows
    /// fill whole 8-row groups.
    pub fn new(rows: usize, cols: usize) -> Option<SwizzledTile> {
        let swizzle = swizzle_for(cols * 2)?;
        (rows % 8 == 0).then_some(SwizzledTile { rows, cols, swizzle })
    }

    /// Elements per atom row.
    pub fn atom_cols(&self) -> usize {
        self.swizzle / 2
    }

    /// Bytes of one atom (`rows` rows of `swizzle` bytes).
    pub fn atom_bytes(&self) -> usize {
        self.rows * self.swizzle
    }

    /// Bytes of the whole tile.
    pub fn bytes(&self) -> usize {
        self.rows * self.cols * 2
    }

    /// The byte offset of element `(r, c)` before the swizzle.
    pub fn linear(&self, r: usize, c: usize) -> usize {
        let w = self.atom_cols();
        (c / w) * self.atom_bytes() + r * self.swizzle + (c % w) * 2
    }

    /// The byte offset of element `(r, c)`.
    pub fn byte_of(&self, r: usize, c: usize) -> usize {
        swizzle(self.linear(r, c), self.swizzle)
    }

    /// The descriptor mode (bits 62-63): 1 for 128-byte, 2 for 64, 3 for 32.
    pub fn mode(&self) -> u64 {
        match self.swizzle {
            128 => 1,
            64 => 2,
            _ => 3,
        }
    }

    /// As Triton's shared encoding spells the swizzle: 8-element vectors, `per_phase` rows
    /// per phase, `max_phase` phases.
    pub fn phases(&self) -> (usize, usize) {
        (128 / self.swizzle, self.swizzle / 16)
    }
}

/// The stagings of A (`m x k`) and B (`k x n`) when an `m x n x k` dot over `warps` warps
/// maps onto `wgmma`: one warp group per 64 accumulator rows, each covering all `n <= 256`
/// columns (a multiple of 8) with one `m64nNk16` per k16 step, and both operands swizzled.
pub fn plan(m: usize, n: usize, k: usize, warps: usize) -> Option<(SwizzledTile, SwizzledTile)> {
    let fits = warps % WG_WARPS == 0 && m == WG_M * (warps / WG_WARPS) && n % 8 == 0 && n <= 256 && k % WG_K == 0;
    if !fits {
        return None;
    }
    Some((SwizzledTile::new(m, k)?, SwizzledTile::new(k, n)?))
}

/// Which dimension of an operand is contiguous in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// K contiguous (A `[M][K]`).
    K,
    /// M or N contiguous (B `[K][N]`, read transposed).
    Mn,
}

/// A `wgmma` matrix descriptor, byte offsets relative to the operand buffer's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Desc {
    /// Start of the operand (bytes from the buffer's base).
    pub start: usize,
    /// Leading and stride byte offsets.
    pub lbo: usize,
    pub sbo: usize,
    /// The staging it reads.
    pub tile: SwizzledTile,
}

impl Desc {
    /// The descriptor of A (`[M][K]`, K-major) for warp group `group`'s 64 rows at k16 step
    /// `step`.
    pub fn a(tile: SwizzledTile, group: usize, step: usize) -> Desc {
        let k0 = step * WG_K;
        let w = tile.atom_cols();
        let start = (k0 / w) * tile.atom_bytes() + group * WG_M * tile.swizzle + (k0 % w) * 2;
        Desc { start, lbo: 0, sbo: 8 * tile.swizzle, tile }
    }

    /// The descriptor of B (`[K][N]`, N-major) at k16 step `step` (all N columns).
    pub fn b(tile: SwizzledTile, step: usize) -> Desc {
        // LBO only matters past the first atom along N (Triton leaves it 0 otherwise).
        let lbo = if tile.cols > tile.atom_cols() { tile.atom_bytes() } else { 0 };
        Desc { start: step * WG_K * tile.swizzle, lbo, sbo: 8 * tile.swizzle, tile }
    }

    /// The constant fields (everything but the start address), as a 64-bit word.
    pub fn fields(&self) -> u64 {
        (((self.lbo >> 4) as u64) << 16) | (((self.sbo >> 4) as u64) << 32) | (self.tile.mode() << 62)
    }

    /// The whole descriptor for an operand buffer at shared address `base`.
    pub fn encode(&self, base: usize) -> u64 {
        ((((base + self.start) >> 4) & 0x3fff) as u64) | self.fields()
    }

    /// The byte offset (from the buffer's base) that the hardware reads for element
    /// `(mn, k)` of the operand (`mn < 64` for A, `< N` for B; `k < 16`).
    pub fn address(&self, major: Major, mn: usize, k: usize) -> usize {
        canonical_address(major, self.start, self.lbo, self.sbo, self.tile.swizzle, mn, k)
    }
}

/// The start address (bytes), LBO, SBO and swizzle width (bytes; 0 for none) a descriptor
/// word holds.
pub fn decode(desc: u64) -> (usize, usize, usize, usize) {
    let field = |at: u32| ((desc >> at) & 0x3fff) as usize * 16;
    let swizzle = match desc >> 62 {
        1 => 128,
        2 => 64,
        3 => 32,
        _ => 0,
    };
    (field(0), field(16), field(32), swizzle)
}

/// The byte address the hardware reads for element `(mn, k)` of a 16-bit operand whose
/// descriptor holds `start`, `lbo`, `sbo` and a `swizzle`-byte mode (32, 64 or 128): the
/// canonical layouts of the PTX ISA as CUTLASS spells them (in 16-byte units, K-major
/// `((8, m), (T, 2k)) : ((T, SBO), (1, T))`, MN-major `((T, m), (8, k)) : ((1, LBO), (T,
/// SBO))` with `T = swizzle / 16`), then the swizzle applied to the whole address.
pub fn canonical_address(major: Major, start: usize, lbo: usize, sbo: usize, swizzle_bytes: usize, mn: usize, k: usize) -> usize {
    let s = swizzle_bytes;
    let lin = match major {
        Major::K => start + (mn % 8) * s + (mn / 8) * sbo + k * 2,
        Major::Mn => start + (mn % (s / 2)) * 2 + (mn / (s / 2)) * lbo + (k % 8) * s + (k / 8) * sbo,
    };
    swizzle(lin, s)
}

/// The `(row, column)` within its warp group's 64-row slab that register `slot` of `lane` of
/// warp `warp` (0-3 in the group) holds in a `wgmma` f32 accumulator (PTX ISA "wgmma D
/// fragment"): each 8-column tile is an `m16n8` D fragment of the warp's 16 rows.
pub fn d_fragment(warp: usize, lane: usize, slot: usize) -> (usize, usize) {
    let (tile, q) = (slot / 4, slot % 4);
    (16 * warp + lane / 4 + 8 * (q / 2), 8 * tile + 2 * (lane % 4) + q % 2)
}

#[cfg(test)]
#[path = "wgmma_desc_tests.rs"]
mod tests;
