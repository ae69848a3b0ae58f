//! MFMA operands in LDS without padding, for rows of `k` a multiple of 64 elements: each row
//! is cut into 4-element (8-byte) units and unit `u` of row `r` is stored at unit
//! `u ^ (r % 16)` (Triton's swizzled shared layout with vec 4, maxPhase 16). The 16 lanes that
//! read one unit of 16 consecutive rows then hit 16 different bank pairs, as the pad makes
//! them do for shorter rows, and two stages of 128x128x64 bf16 operands fit in 64 KiB of LDS
//! (padded they would take 68).

use super::emit::{Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::Scalar;

/// Elements of a unit.
pub const UNIT: usize = 4;
/// Rows over which the unit permutation repeats.
pub const PHASES: usize = 16;

/// Whether MFMA operands with rows of `k` elements are swizzled (else padded).
pub fn swizzled(k: usize) -> bool {
    k % (UNIT * PHASES) == 0
}

/// The element offset of `(row, col)` in a swizzled operand of `k`-element rows.
pub fn swizzle(row: usize, col: usize, k: usize) -> usize {
    row * k + ((col / UNIT) ^ (row % PHASES)) * UNIT + col % UNIT
}

impl Gx<'_> {
    /// Writes tile `v` (row-major `[rows][cols]`, blocked `l`) swizzled to scratch at byte
    /// `base`, `at` more elements on: as A (`[m][k]`, rows of `k`) or, `transposed`, as B
    /// (`[k][n]` stored `[n][k]`). A thread's run of elements goes in pieces that stay within
    /// one unit (up to 4 along a row of A, single elements of B).
    pub(crate) fn stash_swizzled(&mut self, v: &str, s: Scalar, l: &Blocked, (cols, k): (usize, usize), transposed: bool, base: usize, at: Option<&str>) {
        let (e, per) = (s.mem(), l.per);
        let piece = if transposed { 1 } else { [4, 2, 1].into_iter().find(|p| per % p == 0).unwrap_or(1) };
        let b = self.layout_base(l);
        let own = self.owner(l);
        let mut stores = vec![];
        for j in 0..per / piece {
            let ei = self.assign(&format!("add i32 {b}, {}", j * piece));
            let (x, y) = (self.assign(&format!("udiv i32 {ei}, {cols}")), self.assign(&format!("urem i32 {ei}, {cols}")));
            let (row, col) = if transposed { (y, x) } else { (x, y) };
            let u = self.assign(&format!("lshr i32 {col}, 2"));
            let ph = self.assign(&format!("and i32 {row}, {}", PHASES - 1));
            let ux = self.assign(&format!("xor i32 {u}, {ph}"));
            let u4 = self.assign(&format!("shl i32 {ux}, 2"));
            let rk = self.assign(&format!("mul i32 {row}, {k}"));
            let c3 = self.assign(&format!("and i32 {col}, {}", UNIT - 1));
            let o = self.assign(&format!("add i32 {rk}, {u4}"));
            let mut off = self.assign(&format!("add i32 {o}, {c3}"));
            if let Some(a) = at {
                off = self.assign(&format!("add i32 {off}, {a}"));
            }
            let p = self.smem_at(base, e, &off);
            if piece == 1 {
                let x = self.extract(v, &format!("<{per} x {e}>"), j);
                stores.push(format!("store {e} {x}, ptr addrspace(3) {p}"));
            } else {
                let lanes: Vec<String> = (j * piece..(j + 1) * piece).map(|i| format!("i32 {i}")).collect();
                let part = self.assign(&format!("shufflevector <{per} x {e}> {v}, <{per} x {e}> poison, <{piece} x i32> <{}>", lanes.join(", ")));
                stores.push(format!("store <{piece} x {e}> {part}, ptr addrspace(3) {p}, align {}", piece * s.bytes()));
            }
        }
        self.lines_where(own.as_deref(), &stores);
    }

    /// The swizzled element offset, within its row, of this lane's 4 k at step `k0` (the same
    /// for A and B: lane `l` reads k `k0 + 4 (l / S)` of row `... + l % S`, whose phase is
    /// `l % 16`).
    pub(crate) fn swizzled_k(&mut self, instr: usize, k0: usize) -> String {
        let tid = self.tid();
        let lane = self.entry_value(&format!("swz.{instr}"), |_, r| {
            vec![format!("{r}.l = urem i32 {tid}, {}", super::mfma::WAVE), format!("{r}.kq = udiv i32 {r}.l, {instr}"), format!("{r} = and i32 {r}.l, {}", PHASES - 1)]
        });
        let u = self.assign(&format!("add i32 {lane}.kq, {}", k0 / UNIT));
        let ux = self.assign(&format!("xor i32 {u}, {lane}"));
        self.assign(&format!("shl i32 {ux}, 2"))
    }
}
