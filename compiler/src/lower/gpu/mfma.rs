//! AMD matrix cores (`v_mfma_f32_{32x32x8,16x16x16}_{bf16,f16}`, CDNA2 gfx90a and CDNA3 gfx942)
//! for `tile.dot` with 16-bit operands and f32 accumulation; f32 operands keep the FMA path
//! (`v_mfma_f32_32x32x2f32` moves 4x less data per instruction and is not used).
//!
//! One wavefront instruction multiplies an `S x K` A block by a `K x S` B block (`S` = 32,
//! `K` = 8, or `S` = 16, `K` = 16) into an `S x S` f32 block. The register maps (AMD's CDNA3
//! ISA, "Matrix fused multiply-add", as the AMD Matrix Instruction Calculator prints them):
//! - A: lane `l` holds row `l % S`, the 4 consecutive k from `4 (l / S)`;
//! - B: lane `l` holds column `l % S`, the same 4 k;
//! - D: lane `l`, register `v` holds column `l % S` of row `8 (v / 4) + 4 (l / S) + v % 4`
//!   (for `S` = 16 only `v` < 4, so row `4 (l / 16) + v`).
//!
//! Operands are staged in LDS as A `[M][K + pad]` and B transposed, `[N][K + pad]`, so that
//! each lane's 4 k are 8 contiguous bytes (one `ds_read_b64`), the pad making 16 lanes' reads
//! of consecutive rows fall in 16 different 8-byte bank pairs.

use super::acc_layout::AccLayout;
use super::emit::{Gx, LlvmScalar};
use super::layout::Blocked;
use super::ldmatrix::Staging;
use crate::ir::{Op, Scalar};
use crate::lower::LowerError;

/// Lanes of a wavefront.
pub const WAVE: usize = 64;

/// The reduction depth of one MFMA instruction whose output block is `s x s` (32: 8, 16: 16).
pub fn mfma_k(s: usize) -> usize {
    4 * WAVE / s
}

/// Rows after which a lane's D registers repeat their pattern within a block (the 4-row
/// groups of the `WAVE / s` lane groups): a slice of whole periods holds whole registers.
pub fn mfma_row_period(s: usize) -> usize {
    4 * WAVE / s
}

/// The A fragment of `lane` for `s x s` output blocks: its 4 (row, k) elements in register
/// order.
pub fn mfma_a_fragment(lane: usize, s: usize) -> [(usize, usize); 4] {
    let (i, k) = (lane % s, 4 * (lane / s));
    [(i, k), (i, k + 1), (i, k + 2), (i, k + 3)]
}

/// The B fragment of `lane`: its 4 (k, column) elements in register order.
pub fn mfma_b_fragment(lane: usize, s: usize) -> [(usize, usize); 4] {
    mfma_a_fragment(lane, s).map(|(c, k)| (k, c))
}

/// The (row, column) in its `s x s` block of D register `v` of `lane`.
pub fn mfma_d_element(lane: usize, v: usize, s: usize) -> (usize, usize) {
    (8 * (v / 4) + 4 * (lane / s) + v % 4, lane % s)
}

/// The intrinsic for `s x s` blocks of `a`-element operands and its operand type, if any.
pub fn mfma_intrinsic(a: Scalar, s: usize) -> Option<(&'static str, &'static str)> {
    match (a, s) {
        (Scalar::BF16, 32) => Some(("llvm.amdgcn.mfma.f32.32x32x8bf16.1k", "<4 x i16>")),
        (Scalar::BF16, 16) => Some(("llvm.amdgcn.mfma.f32.16x16x16bf16.1k", "<4 x i16>")),
        (Scalar::F16, 32) => Some(("llvm.amdgcn.mfma.f32.32x32x8f16", "<4 x half>")),
        (Scalar::F16, 16) => Some(("llvm.amdgcn.mfma.f32.16x16x16f16", "<4 x half>")),
        _ => None,
    }
}

/// Elements after each `k`-element LDS row of a staged operand: the row stride in 8-byte
/// units becomes odd (16 lanes reading 16 consecutive rows then hit 16 bank pairs).
fn mfma_pad(k: usize) -> usize {
    if (k / 4) % 2 == 0 { 4 } else { 0 }
}

/// The row pads of MFMA-staged A and transposed B (rows of `k`) when A's blocked layout holds
/// `per_a` elements per thread: none where the rows are swizzled instead (see
/// [`super::mfma_swizzle`]); A's vector stores need a thread's elements within one row, or
/// whole rows, else A is not padded (its reads may then conflict); B's stores are scalar.
pub fn mfma_pads(k: usize, per_a: usize) -> (usize, usize) {
    if super::mfma_swizzle::swizzled(k) {
        return (0, 0);
    }
    let whole = (per_a <= k && k % per_a == 0) || per_a % k == 0;
    (if whole { mfma_pad(k) } else { 0 }, mfma_pad(k))
}

impl Staging {
    /// The MFMA staging of an `m x k` by `k x n` dot of `elem`-byte operands: A `[m][k + pad_a]`,
    /// B transposed `[n][k + pad_b]` (see [`mfma_pads`]).
    pub fn mfma(m: usize, n: usize, k: usize, elem: usize, per_a: usize) -> Staging {
        let (pad_a, pad_b) = mfma_pads(k, per_a);
        let b_at = (m * (k + pad_a) * elem).div_ceil(16) * 16;
        Staging { pad_a, pad_b, b_at, bytes: b_at + n * (k + pad_b) * elem }
    }
}

impl AccLayout {
    /// The MFMA layout of an `m x n` accumulator of a depth-`k` dot over `warps` wavefronts:
    /// 32x32 blocks where the warps split the shape into whole ones, else 16x16.
    pub fn mfma(m: usize, n: usize, k: usize, warps: usize) -> Option<AccLayout> {
        [32, 16].into_iter().find_map(|s| {
            if m % s != 0 || n % s != 0 || k % mfma_k(s) != 0 {
                return None;
            }
            let (warps_m, warps_n) = super::acc_layout::warp_grid(m / s, n / s, warps)?;
            Some(AccLayout::Mfma { m, n, warps_m, warps_n, instr: s })
        })
    }
}

impl Gx<'_> {
    /// Writes B (`[k][n]`, blocked `l`) transposed to scratch at byte `base`: element
    /// `(kk, c)` at `c * (k + pad) + kk`, one 16-bit store each (the transposition's price,
    /// paid once per stage; every read is then a vector), `at` more elements on.
    pub(crate) fn stash_transposed(&mut self, v: &str, s: Scalar, l: &Blocked, (k, n): (usize, usize), pad: usize, base: usize, at: Option<&str>) {
        let (e, per, kp) = (s.mem(), l.per, k + pad);
        let b = self.layout_base(l);
        let idx = self.entry_value(&format!("bt.{l:?}.{n}.{kp}"), |_, r| {
            vec![format!("{r}.k = udiv i32 {b}, {n}"), format!("{r}.c = urem i32 {b}, {n}"), format!("{r}.ck = mul i32 {r}.c, {kp}"), format!("{r} = add i32 {r}.ck, {r}.k")]
        });
        let idx = match at {
            Some(o) => self.assign(&format!("add i32 {idx}, {o}")),
            None => idx,
        };
        let p = self.smem_at(base, e, &idx);
        let own = self.owner(l);
        let vty = format!("<{per} x {e}>");
        let mut stores = vec![];
        for i in 0..per {
            // A thread's elements lie in one row or fill whole rows (`n % per == 0` or
            // `per % n == 0`: tiles split evenly over power-of-two thread counts).
            let off = (i % n) * kp + i / n;
            let x = self.extract(v, &vty, i);
            let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {off}"));
            stores.push(format!("store {e} {x}, ptr addrspace(3) {q}"));
        }
        self.lines_where(own.as_deref(), &stores);
    }

    /// The MFMA steps over K: per step, one `ds_read_b64` per A block row and B block
    /// column of the warp, then `rep_m * rep_n` MFMAs on per-block accumulator vectors;
    /// `slot` offsets both operands (a buffer's, in elements).
    pub(crate) fn mfma_steps(&mut self, op: Op, l: &AccLayout, s: Scalar, k: usize, st: &Staging, slot: Option<&str>, accs: &mut [String]) -> Result<(), LowerError> {
        let AccLayout::Mfma { instr, .. } = *l else { unreachable!("mfma_steps takes MFMA layouts") };
        let (f, opty) = mfma_intrinsic(s, instr).ok_or_else(|| self.unsupported(op, &format!("no MFMA for {} operands", s.mlir())))?;
        let ((rm, rn), per) = (l.reps(), instr * instr / WAVE);
        let (kpa, kpb) = (k + st.pad_a, k + st.pad_b);
        // Swizzled rows: the bases are the rows' starts, each step's k offset a lane's own.
        let swz = super::mfma_swizzle::swizzled(k);
        let (a0, b0) = self.mfma_bases(l, kpa, kpb, !swz);
        let (a0, b0) = match slot {
            Some(o) => (self.assign(&format!("add i32 {a0}, {o}")), self.assign(&format!("add i32 {b0}, {o}"))),
            None => (a0, b0),
        };
        let e = s.llvm();
        let (pa, pb) = (self.smem_at(0, e, &a0), self.smem_at(st.b_at, e, &b0));
        let vty = format!("<{per} x float>");
        self.declare(f, &format!("declare {vty} @{f}({opty}, {opty}, {vty}, i32 immarg, i32 immarg, i32 immarg)"));
        let mut blocks: Vec<String> = accs
            .chunks(per)
            .map(|c| {
                let mut v = "poison".to_string();
                for (i, x) in c.iter().enumerate() {
                    v = self.assign(&format!("insertelement {vty} {v}, float {x}, i64 {i}"));
                }
                v
            })
            .collect();
        for k0 in (0..k).step_by(mfma_k(instr)) {
            let (kc, kx) = if swz { (0, Some(self.swizzled_k(instr, k0))) } else { (k0, None) };
            let av: Vec<String> = (0..rm).map(|im| self.mfma_operand(&pa, e, im * instr * kpa + kc, kx.as_deref(), opty)).collect();
            let bv: Vec<String> = (0..rn).map(|jn| self.mfma_operand(&pb, e, jn * instr * kpb + kc, kx.as_deref(), opty)).collect();
            for im in 0..rm {
                for jn in 0..rn {
                    let c = &blocks[im * rn + jn];
                    let d = self.assign(&format!("call {vty} @{f}({opty} {}, {opty} {}, {vty} {c}, i32 0, i32 0, i32 0)", av[im], bv[jn]));
                    blocks[im * rn + jn] = d;
                }
            }
        }
        for (b, v) in blocks.iter().enumerate() {
            for i in 0..per {
                accs[b * per + i] = self.extract(v, &vty, i);
            }
        }
        Ok(())
    }

    /// A lane's 4 operand elements at element `off` from `p`, as the intrinsic's type.
    fn mfma_operand(&mut self, p: &str, e: &str, off: usize, dynamic: Option<&str>, opty: &str) -> String {
        let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {off}"));
        let q = match dynamic {
            Some(x) => self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {q}, i32 {x}")),
            None => q,
        };
        let x = self.assign(&format!("load <4 x {e}>, ptr addrspace(3) {q}, align 8"));
        if opty == format!("<4 x {e}>") { x } else { self.assign(&format!("bitcast <4 x {e}> {x} to {opty}")) }
    }

    /// This lane's element offsets into staged A (`[m][kpa]`) and B (`[n][kpb]`) of its warp's
    /// first blocks: row (column) `l % S` of the warp's rows (columns), k `4 (l / S)` when
    /// `lane_k`.
    fn mfma_bases(&mut self, l: &AccLayout, kpa: usize, kpb: usize, lane_k: bool) -> (String, String) {
        let AccLayout::Mfma { m, n, warps_m, warps_n, instr } = *l else { unreachable!("mfma_bases takes MFMA layouts") };
        let tid = self.tid();
        let key = format!("mfma.{l:?}.{lane_k}");
        let lane = self.entry_value(&format!("{key}.lane"), |_, r| {
            vec![
                format!("{r}.w = udiv i32 {tid}, {WAVE}"),
                format!("{r}.wm = udiv i32 {r}.w, {warps_n}"),
                format!("{r}.wn = urem i32 {r}.w, {warps_n}"),
                format!("{r} = urem i32 {tid}, {WAVE}"),
                format!("{r}.i = urem i32 {r}, {instr}"),
                format!("{r}.kq = udiv i32 {r}, {instr}"),
                format!("{r}.k = mul i32 {r}.kq, 4"),
            ]
        });
        let side = |g: &mut Self, which: &str, w: &str, span: usize, kp: usize| {
            g.entry_value(&format!("{key}.{which}.{kp}"), |_, r| {
                vec![
                    format!("{r}.r0 = mul i32 {lane}.{w}, {span}"),
                    format!("{r}.row = add i32 {r}.r0, {lane}.i"),
                    format!("{r}.rk = mul i32 {r}.row, {kp}"),
                    format!("{r} = add i32 {r}.rk, {}", if lane_k { format!("{lane}.k") } else { "0".into() }),
                ]
            })
        };
        let a = side(self, "a", "wm", m / warps_m, kpa);
        let b = side(self, "b", "wn", n / warps_n, kpb);
        (a, b)
    }
}

#[cfg(test)]
#[path = "mfma_tests.rs"]
mod tests;
