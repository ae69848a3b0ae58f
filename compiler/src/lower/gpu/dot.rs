//! `tile.dot`: `C[M, N] += A[M, K] · B[K, N]` with f32 accumulation. The operands (blocked)
//! are staged in scratch shared memory; the accumulator stays in the layout inference gave it:
//! - mma (the target's `m16n8k16` instruction, 16-bit operands): A row-major `[M][K]`, B
//!   transposed to `[N][K]` so that each 32-bit fragment register (two consecutive k) is one
//!   shared load; per k16 step each warp issues `rep_m * rep_n` instructions;
//! - FMA, the generic fallback (f32 operands, targets without a matrix instruction): A
//!   `[M][K]`, B `[K][N]`, and per k each thread reads `tm` values of A and `tn` of B and
//!   updates its `tm x tn` block.

use super::acc_layout::{mma_a_fragment, mma_b_fragment, AccLayout, MMA_K, MMA_M, MMA_N};
use super::emit::{num_elem, Gx, LlvmScalar};
use crate::ir::{Op, Scalar};
use crate::lower::LowerError;

impl Gx<'_> {
    pub(crate) fn dot(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (a, b, c, r) = (d.operands[0], d.operands[1], d.operands[2], d.results[0]);
        let (ash, bsh) = (self.ty(a).shape(), self.ty(b).shape());
        let ([m, k], [_, n]) = (ash, bsh) else { return Err(self.malformed(op, "tile.dot takes 2-D tiles")) };
        let (m, k, n) = (*m, *k, *n);
        let (s, cs) = (num_elem(self.ty(a)), num_elem(self.ty(c)));
        if cs != Scalar::F32 || !s.is_float() || num_elem(self.ty(b)) != s {
            return Err(self.unsupported(op, &format!("dots of {} operands into a {} accumulator; f32 accumulation of f32/f16/bf16 is lowered", s.mlir(), cs.mlir())));
        }
        let Some(l) = self.accs.layout.get(&r).copied() else {
            return Err(self.unsupported(op, &format!("no mma or FMA layout tiles a {m}x{n} accumulator over {} threads", self.threads())));
        };
        let acc = self.in_acc_layout(op, c, &l)?;
        let vty = format!("<{} x float>", l.slots());
        let mut accs: Vec<String> = (0..l.slots()).map(|i| self.extract(&acc, &vty, i)).collect();
        // Stage the operands: A row-major at 0, B after it (16-byte aligned).
        let b_at = (m * k * s.bytes()).div_ceil(16) * 16;
        self.scratch(op, b_at + k * n * s.bytes())?;
        let (al, bl) = (self.layout_of(op, self.ty(a))?, self.layout_of(op, self.ty(b))?);
        let (an, bn) = (self.name(a), self.name(b));
        self.barrier();
        self.stash_blocked(&an, s, &al, 0);
        let mma = matches!(l, AccLayout::Mma { .. });
        if mma {
            self.stash_transposed(&bn, s, &bl, k, n, b_at);
        } else {
            self.stash_blocked(&bn, s, &bl, b_at);
        }
        self.barrier();
        if mma {
            self.mma_steps(op, &l, s, k, b_at, &mut accs)?;
        } else {
            self.fma_steps(&l, s, k, b_at, &mut accs);
        }
        let mut v = "poison".to_string();
        for (i, x) in accs.iter().enumerate() {
            v = self.assign(&format!("insertelement {vty} {v}, float {x}, i64 {i}"));
        }
        self.bind(r, v);
        self.settle(op, r)
    }

    /// Writes B (`[k][n]`, blocked) to scratch as `[n][k]`.
    fn stash_transposed(&mut self, v: &str, s: Scalar, l: &super::layout::Blocked, k: usize, n: usize, base: usize) {
        let e = s.llvm();
        let b = self.layout_base(l);
        let vty = format!("<{} x {e}>", l.per);
        // Replicated copies write the same value to the same place, so every thread may store.
        for slot in 0..l.per {
            let el = self.assign(&format!("add i32 {b}, {slot}"));
            let (kk, nn) = (self.assign(&format!("udiv i32 {el}, {n}")), self.assign(&format!("urem i32 {el}, {n}")));
            let row = self.assign(&format!("mul i32 {nn}, {k}"));
            let idx = self.assign(&format!("add i32 {row}, {kk}"));
            let p = self.smem_at(base, e, &idx);
            let x = self.extract(v, &vty, slot);
            self.line(&format!("store {e} {x}, ptr addrspace(3) {p}"));
        }
    }

    /// The `m16n8k16` steps over K, each warp on its `rep_m x rep_n` tiles.
    fn mma_steps(&mut self, op: Op, l: &AccLayout, s: Scalar, k: usize, b_at: usize, accs: &mut [String]) -> Result<(), LowerError> {
        let spec = self.t.mma(s).ok_or_else(|| self.unsupported(op, &format!("no matrix instruction for {} operands", s.mlir())))?;
        let AccLayout::Mma { n, warps_n, .. } = *l else { return Err(self.malformed(op, "not an mma layout")) };
        let (rm, rn) = l.reps();
        // Lane-dependent parts of the fragment addresses: (warp row + lane/4) * K + 2*(lane%4)
        // for A, (warp column + lane/4) * K + 2*(lane%4) for B (stored [N][K]).
        let base = self.acc_base(l);
        let (tid, e) = (self.tid(), s.llvm());
        let a0 = self.entry_value(&format!("mma.a.{l:?}.{k}"), |_, r| {
            vec![
                format!("{r}.row = udiv i32 {base}, {n}"),
                format!("{r}.col = urem i32 {base}, {n}"),
                format!("{r}.c = urem i32 {r}.col, 8"),
                format!("{r}.rk = mul i32 {r}.row, {k}"),
                format!("{r} = add i32 {r}.rk, {r}.c"),
            ]
        });
        let b0 = self.entry_value(&format!("mma.b.{l:?}.{k}"), |_, r| {
            vec![
                format!("{r}.w = udiv i32 {tid}, 32"),
                format!("{r}.wn = urem i32 {r}.w, {warps_n}"),
                format!("{r}.l = urem i32 {tid}, 32"),
                format!("{r}.g = udiv i32 {r}.l, 4"),
                format!("{r}.q = urem i32 {r}.l, 4"),
                format!("{r}.c0 = mul i32 {r}.wn, {}", n / warps_n),
                format!("{r}.n = add i32 {r}.c0, {r}.g"),
                format!("{r}.nk = mul i32 {r}.n, {k}"),
                format!("{r}.k2 = mul i32 {r}.q, 2"),
                format!("{r} = add i32 {r}.nk, {r}.k2"),
            ]
        });
        let (pa, pb) = (self.smem_at(0, e, &a0), self.smem_at(b_at, e, &b0));
        let reg = spec.reg;
        let (fa, fb) = (mma_a_fragment(0), mma_b_fragment(0));
        for k0 in (0..k).step_by(MMA_K) {
            let mut bregs = vec![];
            for jn in 0..rn {
                let regs: Vec<String> = (0..2).map(|i| {
                    let (dk, _) = fb[2 * i];
                    self.shared_reg(&pb, e, reg, jn * MMA_N * k + k0 + dk)
                }).collect();
                bregs.push(regs);
            }
            for im in 0..rm {
                let aregs: Vec<String> = (0..4).map(|i| {
                    let (dr, dk) = fa[2 * i];
                    self.shared_reg(&pa, e, reg, (im * MMA_M + dr) * k + k0 + dk)
                }).collect();
                for (jn, br) in bregs.iter().enumerate() {
                    let at = l.mma_slot(im, jn);
                    let mut args: Vec<String> = aregs.iter().chain(br).map(|x| format!("{reg} {x}")).collect();
                    args.extend((0..4).map(|q| format!("float {}", accs[at + q])));
                    let tys = vec![reg; 6].into_iter().chain(["float"; 4]).collect::<Vec<_>>().join(", ");
                    let f = spec.intrinsic;
                    self.declare(f, &format!("declare {{float, float, float, float}} @{f}({tys})"));
                    let d = self.assign(&format!("call {{float, float, float, float}} @{f}({})", args.join(", ")));
                    for q in 0..4 {
                        accs[at + q] = self.assign(&format!("extractvalue {{float, float, float, float}} {d}, {q}"));
                    }
                }
            }
        }
        Ok(())
    }

    /// One 32-bit fragment register (two 16-bit elements) at element `off` from `p`.
    fn shared_reg(&mut self, p: &str, e: &str, reg: &str, off: usize) -> String {
        let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {off}"));
        self.assign(&format!("load {reg}, ptr addrspace(3) {q}, align 4"))
    }

    /// FMA steps: per k, `tm` loads of A and `tn` of B, then `tm * tn` fused multiply-adds.
    fn fma_steps(&mut self, l: &AccLayout, s: Scalar, k: usize, b_at: usize, accs: &mut [String]) {
        let (tm, tn) = l.reps();
        let n = l.shape().1;
        let base = self.acc_base(l);
        let e = s.llvm();
        // The base is row * N + col; A needs row * K, B col.
        let a0 = self.entry_value(&format!("fma.a.{l:?}.{k}"), |_, r| vec![format!("{r}.row = udiv i32 {base}, {n}"), format!("{r} = mul i32 {r}.row, {k}")]);
        let b0 = self.entry_value(&format!("fma.b.{l:?}"), |_, r| vec![format!("{r} = urem i32 {base}, {n}")]);
        let (pa, pb) = (self.smem_at(0, e, &a0), self.smem_at(b_at, e, &b0));
        self.declare("llvm.fma.f32", "declare float @llvm.fma.f32(float, float, float)");
        for kk in 0..k {
            let av: Vec<String> = (0..tm).map(|i| self.shared_f32(&pa, s, i * k + kk)).collect();
            let bv: Vec<String> = (0..tn).map(|j| self.shared_f32(&pb, s, kk * n + j)).collect();
            for i in 0..tm {
                for j in 0..tn {
                    let x = &accs[i * tn + j];
                    accs[i * tn + j] = self.assign(&format!("call float @llvm.fma.f32(float {}, float {}, float {x})", av[i], bv[j]));
                }
            }
        }
    }

    /// The element at `off` from `p` (of IR element `s`), as f32.
    fn shared_f32(&mut self, p: &str, s: Scalar, off: usize) -> String {
        let q = self.assign(&format!("getelementptr inbounds {}, ptr addrspace(3) {p}, i32 {off}", s.llvm()));
        let x = self.assign(&format!("load {}, ptr addrspace(3) {q}", s.llvm()));
        self.convert(&x, s, Scalar::F32, None)
    }
}
