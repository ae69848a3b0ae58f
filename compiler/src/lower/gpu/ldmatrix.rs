//! `ldmatrix` operands for `mma.sync.m16n8k16`: the dot's A (`[M][K]`) and B (`[K][N]`, as
//! loaded) tiles are stored row-major in scratch with each row padded so that the 8 rows one
//! `ldmatrix` phase reads fall in 8 different 16-byte bank groups, then each warp reads its
//! fragments with one `ldmatrix.x4` per 16x16 block (`.trans` for B, whose fragment runs
//! along K, across the stored rows).
//!
//! The PTX ISA's `ldmatrix.sync.aligned.m8n8.x4.b16`: lanes `8j..8j+7` give the addresses of
//! the 8 rows (16 bytes each) of matrix `j`, and register `j` of lane `l` receives row
//! `l / 4`, elements `2 (l % 4)` and `+1` (with `.trans`, column `l / 4`, rows `2 (l % 4)`
//! and `+1`). The x4 block order below makes register `j` the `j`-th A register of
//! `m16n8k16`, and for B the two registers of two adjacent 8-column tiles.

use super::acc_layout::AccLayout;
use super::emit::{Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::Scalar;

/// The `(row, column)` in a 16x16 block of the 8-element row whose address `lane` gives to an
/// `ldmatrix.x4`: matrices 0-3 are the blocks (rows 0-7, cols 0-7), (8-15, 0-7), (0-7, 8-15),
/// (8-15, 8-15).
pub fn x4_row(lane: usize) -> (usize, usize) {
    (lane % 16, (lane / 16) * 8)
}

/// The `(row, column)` of the 8x8 matrix that half `h` (0 low, 1 high) of `lane`'s register
/// receives.
pub fn received(lane: usize, h: usize, trans: bool) -> (usize, usize) {
    let (g, c) = (lane / 4, 2 * (lane % 4) + h);
    if trans { (c, g) } else { (g, c) }
}

/// Elements appended to each `cols`-element row of 16-bit elements so that 8 consecutive
/// rows start in 8 different 16-byte bank groups (a row stride of an odd number of 16-byte
/// chunks); 0 when the stride already is, or when a thread's `per` stored elements would
/// straddle a padded row boundary (then reads conflict but stay correct).
pub fn row_pad(cols: usize, per: usize) -> usize {
    let whole = (per <= cols && cols % per == 0) || per % cols == 0;
    if whole && cols % 8 == 0 && (cols / 8) % 2 == 0 { 8 } else { 0 }
}

/// Where a dot's operands live in scratch: A (`[m][k + pad_a]`) at byte 0, B
/// (`[k][n + pad_b]`) at byte `b_at`, `bytes` in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Staging {
    /// Elements after each row of A.
    pub pad_a: usize,
    /// Elements after each row of B.
    pub pad_b: usize,
    /// Byte offset of B (16-byte aligned).
    pub b_at: usize,
    /// Scratch bytes of both.
    pub bytes: usize,
}

impl Staging {
    /// The staging of an `m x k` by `k x n` dot of `elem`-byte operands whose blocked layouts
    /// hold `per_a` / `per_b` elements per thread; rows are padded for `ldmatrix` (`mma`) only.
    pub fn new(m: usize, n: usize, k: usize, elem: usize, (per_a, per_b): (usize, usize), mma: bool) -> Staging {
        let (pad_a, pad_b) = if mma { (row_pad(k, per_a), row_pad(n, per_b)) } else { (0, 0) };
        let b_at = (m * (k + pad_a) * elem).div_ceil(16) * 16;
        Staging { pad_a, pad_b, b_at, bytes: b_at + k * (n + pad_b) * elem }
    }
}

impl Gx<'_> {
    /// This thread's first element of blocked layout `l` in a tile of `cols`-element rows each
    /// followed by `pad` elements.
    pub(crate) fn padded_index(&mut self, l: &Blocked, cols: usize, pad: usize) -> String {
        let b = self.layout_base(l);
        if pad == 0 {
            return b;
        }
        self.entry_value(&format!("padded.{l:?}.{cols}.{pad}"), |_, r| {
            vec![format!("{r}.row = udiv i32 {b}, {cols}"), format!("{r}.skip = mul i32 {r}.row, {pad}"), format!("{r} = add i32 {b}, {r}.skip")]
        })
    }

    /// Writes tile `v` (blocked `l`, rows of `cols` elements) to scratch at byte `base`, each
    /// row followed by `pad` unused elements, `at` more elements on (a buffer's offset).
    pub(crate) fn stash_padded(&mut self, v: &str, s: Scalar, l: &Blocked, (cols, pad): (usize, usize), base: usize, at: Option<&str>) {
        if pad == 0 && at.is_none() {
            return self.stash_blocked(v, s, l, base);
        }
        let (e, per) = (s.mem(), l.per);
        let idx = self.padded_index(l, cols, pad);
        let idx = match at {
            Some(o) => self.assign(&format!("add i32 {idx}, {o}")),
            None => idx,
        };
        let p = self.smem_at(base, e, &idx);
        if let Some(own) = self.owner(l) {
            let x = self.extract(v, &format!("<1 x {e}>"), 0);
            self.only_where(&own, |g| {
                g.line(&format!("store {e} {x}, ptr addrspace(3) {p}"));
                vec![]
            }, "0");
            return;
        }
        // `row_pad` allows padding only when a thread's elements fill whole rows or lie in one.
        // Unpadded, a thread's elements are contiguous wherever its rows end.
        let w = if pad == 0 { per } else { per.min(cols) };
        // A row starts as aligned as its stride (MFMA's pad keeps only 8 bytes).
        let stride = (cols + pad) * s.bytes();
        let align = super::convert::vector_align(s.bytes() * w).min(1 << stride.trailing_zeros());
        for piece in 0..per / w {
            let part = if w == per {
                v.to_string()
            } else {
                let lanes: Vec<String> = (piece * w..(piece + 1) * w).map(|i| format!("i32 {i}")).collect();
                self.assign(&format!("shufflevector <{per} x {e}> {v}, <{per} x {e}> poison, <{w} x i32> <{}>", lanes.join(", ")))
            };
            let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {}", piece * (cols + pad)));
            self.line(&format!("store <{w} x {e}> {part}, ptr addrspace(3) {q}, align {align}"));
        }
    }

    /// This thread's lane in its warp (`{lane}.wm` / `{lane}.wn`: its warp's place in the
    /// `warps_m x warps_n` grid of mma layout `l`).
    pub(crate) fn ldmatrix_lane(&mut self, l: &AccLayout) -> String {
        let AccLayout::Mma { warps_n, .. } = *l else { unreachable!("ldmatrix feeds mma layouts only") };
        let tid = self.tid();
        self.entry_value(&format!("ldm.{l:?}.lane"), |_, r| {
            vec![
                format!("{r}.w = udiv i32 {tid}, 32"),
                format!("{r}.wm = udiv i32 {r}.w, {warps_n}"),
                format!("{r}.wn = urem i32 {r}.w, {warps_n}"),
                format!("{r} = urem i32 {tid}, 32"),
            ]
        })
    }

    /// This lane's element offsets into the padded A (`[m][k + pad_a]`) and B (`[k][n + pad_b]`)
    /// buffers of its warp's first `ldmatrix.x4` (see [`x4_row`]).
    pub(crate) fn ldmatrix_bases(&mut self, l: &AccLayout, k_stride: usize, n_stride: usize) -> (String, String) {
        let AccLayout::Mma { m, n, warps_m, warps_n } = *l else { unreachable!("ldmatrix feeds mma layouts only") };
        let key = format!("ldm.{l:?}.{k_stride}.{n_stride}");
        let lane = self.ldmatrix_lane(l);
        let a = self.entry_value(&format!("{key}.a"), |_, r| {
            vec![
                format!("{r}.r = urem i32 {lane}, 16"),
                format!("{r}.c = udiv i32 {lane}, 16"),
                format!("{r}.c8 = mul i32 {r}.c, 8"),
                format!("{r}.r0 = mul i32 {lane}.wm, {}", m / warps_m),
                format!("{r}.row = add i32 {r}.r0, {r}.r"),
                format!("{r}.rk = mul i32 {r}.row, {k_stride}"),
                format!("{r} = add i32 {r}.rk, {r}.c8"),
            ]
        });
        let b = self.entry_value(&format!("{key}.b"), |_, r| {
            vec![
                format!("{r}.r = urem i32 {lane}, 16"),
                format!("{r}.c = udiv i32 {lane}, 16"),
                format!("{r}.c8 = mul i32 {r}.c, 8"),
                format!("{r}.c0 = mul i32 {lane}.wn, {}", n / warps_n),
                format!("{r}.col = add i32 {r}.c0, {r}.c8"),
                format!("{r}.rk = mul i32 {r}.r, {n_stride}"),
                format!("{r} = add i32 {r}.rk, {r}.col"),
            ]
        });
        (a, b)
    }

    /// `ldmatrix` of `count` (2 or 4) 8x8 matrices at element `off` from `p`: the registers,
    /// as the mma operand type `reg`.
    pub(crate) fn ldmatrix(&mut self, p: &str, e: &str, off: usize, count: usize, trans: bool, reg: &str) -> Vec<String> {
        let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {off}"));
        let f = format!("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{count}{}.b16", if trans { ".trans" } else { "" });
        let sty = format!("{{{}}}", vec!["i32"; count].join(", "));
        self.declare(&f, &format!("declare {sty} @{f}(ptr addrspace(3))"));
        let d = self.assign(&format!("call {sty} @{f}(ptr addrspace(3) {q})"));
        (0..count)
            .map(|i| {
                let x = self.assign(&format!("extractvalue {sty} {d}, {i}"));
                if reg == "i32" { x } else { self.assign(&format!("bitcast i32 {x} to {reg}")) }
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "ldmatrix_tests.rs"]
mod tests;
