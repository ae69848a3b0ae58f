//! `tile.dot`: `C[M, N] += A[M, K] · B[K, N]` with f32 accumulation. The operands (blocked)
//! are staged in scratch shared memory; the accumulator stays in the layout inference gave it:
//! - mma (the target's `m16n8k16` instruction, 16-bit operands): A `[M][K]` and B `[K][N]`,
//!   rows padded against bank conflicts, read as fragments with `ldmatrix` (see
//!   [`super::ldmatrix`]); per k16 step each warp issues `rep_m * rep_n` instructions;
//! - MFMA (AMD matrix cores, 16-bit operands): A `[M][K]` and B transposed, `[N][K]`, rows
//!   padded, read as 8-byte fragments (see [`super::mfma`]);
//! - FMA, the generic fallback (f32 operands, targets without a matrix instruction): A
//!   `[M][K]`, B `[K][N]`, and per k each thread reads `tm` values of A and `tn` of B and
//!   updates its `tm x tn` block.

use super::acc_layout::{AccLayout, MMA_K, MMA_M, MMA_N};
use super::emit::{num_elem, Gx, LlvmScalar};
use super::ldmatrix::Staging;
use super::ldmatrix_swizzle::Reader;
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
        let mma = matches!(l, AccLayout::Mma { .. });
        let mfma = matches!(l, AccLayout::Mfma { .. });
        let (al, bl) = (self.layout_of(op, self.ty(a))?, self.layout_of(op, self.ty(b))?);
        // A row-major at 0, B after it; mma operands get padded rows for `ldmatrix`.
        let st = self.dot_staging(op)?;
        self.scratch(op, st.bytes)?;
        // Operands their loads copied straight to scratch (`cp.async`) are waited for; the
        // others are stored from registers.
        let staged = self.staged_operands(op);
        let ring = self.ring_of(op);
        // A prefetching loop stores the tiles loaded one iteration earlier to this
        // iteration's buffer, which no thread still reads (see `prefetch_ring`).
        let pf = self.prefetch_of(op);
        let at = pf.as_ref().map(|p| p.slot.clone());
        if let Some(r) = &ring {
            // The copies' wait and barrier were at the loop's top (`pipeline_ring`); a
            // `wgmma` ring's copies go out after the dot (`wgmma_copies`). An `ldmatrix` ring
            // filled by TMA has no `cp.async` group to commit (sm_90a's TMA ring still commits
            // an empty one, one SASS instruction a step, left as it was).
            let tma_ldmatrix = r.tma.is_some() && self.wgmma_plan(op).is_none();
            if self.deferred.is_none() && !tma_ldmatrix {
                self.commit_copies();
            }
        } else if staged.iter().any(|&x| x) {
            self.commit_copies();
            self.wait_copies(0);
        } else if pf.is_none() {
            self.barrier();
        }
        let operand = |g: &mut Self, i: usize| pf.as_ref().map_or_else(|| g.name(d.operands[i]), |p| p.prev[i].clone());
        // MFMA operands with long rows are swizzled instead of padded (see `mfma_swizzle`).
        let swizzled = mfma && super::mfma_swizzle::swizzled(k);
        if !staged[0] {
            let an = operand(self, 0);
            if swizzled {
                self.stash_swizzled(&an, s, &al, (k, k), false, 0, at.as_deref());
            } else {
                self.stash_padded(&an, s, &al, (k, st.pad_a), 0, at.as_deref());
            }
        }
        if !staged[1] {
            let bn = operand(self, 1);
            if swizzled {
                self.stash_swizzled(&bn, s, &bl, (n, k), true, st.b_at, at.as_deref());
            } else if mfma {
                self.stash_transposed(&bn, s, &bl, (k, n), st.pad_b, st.b_at, at.as_deref());
            } else {
                self.stash_padded(&bn, s, &bl, (n, st.pad_b), st.b_at, None);
            }
        }
        if ring.is_none() {
            self.barrier();
        }
        if let Some(tiles) = self.wgmma_plan(op) {
            self.wgmma_steps(s, tiles, st.b_at, ring.as_ref().map(|r| r.read.as_str()), &mut accs);
        } else if mfma {
            self.mfma_steps(op, &l, s, k, &st, at.as_deref(), &mut accs)?;
        } else if mma {
            self.mma_steps(op, &l, s, k, &st, ring.as_ref().map(|r| r.read.as_str()), &mut accs)?;
        } else {
            self.fma_steps(&l, s, k, st.b_at, &mut accs);
        }
        let mut v = "poison".to_string();
        for (i, x) in accs.iter().enumerate() {
            v = self.assign(&format!("insertelement {vty} {v}, float {x}, i64 {i}"));
        }
        self.bind(r, v);
        self.settle(op, r)
    }

    /// The `m16n8k16` steps over K, each warp on its `rep_m x rep_n` tiles: per k16 step one
    /// `ldmatrix.x4` per A tile and one `ldmatrix.x4.trans` per pair of B tiles (`.x2` for an
    /// odd last one); `slot` offsets both operands (a ring's slot, in elements).
    fn mma_steps(&mut self, op: Op, l: &AccLayout, s: Scalar, k: usize, st: &Staging, slot: Option<&str>, accs: &mut [String]) -> Result<(), LowerError> {
        let spec = self.t.mma(s).ok_or_else(|| self.unsupported(op, &format!("no matrix instruction for {} operands", s.mlir())))?;
        let (rm, rn) = l.reps();
        let (ks, ns) = (k + st.pad_a, l.shape().1 + st.pad_b);
        let e = s.llvm();
        // In a ring, `slot` is the slot this iteration reads (an element offset).
        let (mut ra, mut rb) = match self.ldmatrix_plan(op) {
            Some(tiles) => {
                let o = slot.unwrap_or("0");
                let ends = (self.smem_at(0, e, o), self.smem_at(st.b_at, e, o));
                self.swizzled_readers(l, tiles, ends)
            }
            None => {
                let (a0, b0) = self.ldmatrix_bases(l, ks, ns);
                let (a0, b0) = match slot {
                    Some(o) => (self.assign(&format!("add i32 {a0}, {o}")), self.assign(&format!("add i32 {b0}, {o}"))),
                    None => (a0, b0),
                };
                (Reader::Padded { p: self.smem_at(0, e, &a0), stride: ks }, Reader::Padded { p: self.smem_at(st.b_at, e, &b0), stride: ns })
            }
        };
        let reg = spec.reg;
        for k0 in (0..k).step_by(MMA_K) {
            let mut bregs: Vec<Vec<String>> = vec![];
            for jn in (0..rn).step_by(2) {
                let count = if jn + 1 < rn { 4 } else { 2 };
                let r = self.ldmatrix_block(&mut rb, e, (k0, jn * MMA_N), count, true, reg);
                bregs.extend(r.chunks(2).map(|c| c.to_vec()));
            }
            for im in 0..rm {
                let aregs = self.ldmatrix_block(&mut ra, e, (im * MMA_M, k0), 4, false, reg);
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
