//! `tile.dot` on the CPU: a register-blocked microkernel, BLIS style.
//!
//! The operands sit row-major in stack buffers (a 2-D load already leaves them there). The
//! output tile is walked in `MR x (NV * W)` blocks whose accumulators stay in vector registers
//! for the whole `K` loop: each step loads `NV` vectors of a row of B, broadcasts `MR`
//! elements of a column of A, and issues `MR * NV` FMAs. 16-bit inputs are widened to f32 once
//! per tile, so the inner loop is pure f32 (or i32) FMA.

use super::emit::{num_elem, Cx};
use super::half::cpu_ty;
use crate::ir::{Op, Scalar};
use crate::lower::LowerError;

/// Register blocking of the microkernel for one `dot` shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blocking {
    /// Lanes per vector.
    pub w: usize,
    /// Vectors per row of the block.
    pub nv: usize,
    /// Rows of the block.
    pub mr: usize,
}

/// Vector registers the accumulators may take (the rest hold B vectors and a broadcast).
fn accumulator_budget(lanes: usize) -> usize {
    if lanes >= 16 { 24 } else { 12 }
}

/// The largest power of two that divides `n` (at least 1), capped at `cap`.
fn pow2_divisor(n: usize, cap: usize) -> usize {
    let mut d = 1;
    while d * 2 <= cap && n % (d * 2) == 0 {
        d *= 2;
    }
    d
}

/// Chooses the blocking for an `[m, n]` output tile with `lanes`-wide vectors.
pub(crate) fn blocking(m: usize, n: usize, lanes: usize) -> Blocking {
    let w = pow2_divisor(n, lanes);
    let nv = pow2_divisor(n / w, 4);
    let nv = if nv >= 4 && m >= 4 { 2 } else { nv };
    let budget = accumulator_budget(lanes);
    let mr = [8, 6, 4, 3, 2, 1].into_iter().find(|&r| m % r == 0 && r * nv <= budget).unwrap_or(1);
    Blocking { w, nv, mr }
}

impl Cx<'_> {
    pub(crate) fn dot(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (a, b, acc, r) = (d.operands[0], d.operands[1], d.operands[2], d.results[0]);
        let (m, k) = match self.ty(a).shape() {
            [m, k] => (*m, *k),
            _ => return Err(self.malformed(op, "A is not 2-D")),
        };
        let n = match self.ty(b).shape() {
            [_, n] => *n,
            _ => return Err(self.malformed(op, "B is not 2-D")),
        };
        let acc_s = num_elem(self.ty(acc));
        if !matches!(acc_s, Scalar::F32 | Scalar::I32) {
            return Err(self.unsupported(op, "the accumulator must be f32 or i32"));
        }
        let pa = self.operand_buffer(a, acc_s);
        let pb = self.operand_buffer(b, acc_s);
        let ct = self.vty(acc);
        // A loop-carried accumulator that only this dot reads is updated where it lives.
        let pc = match self.mem.get(&acc).cloned() {
            Some(buf) if self.updates_in_place(acc, r) => buf,
            _ => {
                let pc = self.alloca(acc_s, m * n);
                let accv = self.name(acc);
                self.line(&format!("llvm.store {accv}, {pc} {{alignment = 64 : i64}} : {ct}, !llvm.ptr"));
                pc
            }
        };
        let blk = blocking(m, n, self.lanes);
        self.microkernel(&pa, &pb, &pc, (m, n, k), blk, acc_s);
        let out = self.def(r);
        self.line(&format!("{out} = llvm.load {pc} {{alignment = 64 : i64}} : !llvm.ptr -> {ct}"));
        self.mem.insert(r, pc);
        Ok(())
    }

    /// A buffer holding `v` as `s` elements: `v`'s own when it already is `s`, else a widened copy.
    fn operand_buffer(&mut self, v: crate::ir::Value, s: Scalar) -> String {
        if num_elem(self.ty(v)) == s {
            return self.in_memory(v);
        }
        self.converted_buffer(v, s)
    }

    /// `C[m, n] += A[m, k] · B[k, n]` over row-major buffers, register-blocked by `blk`.
    fn microkernel(&mut self, pa: &str, pb: &str, pc: &str, (m, n, k): (usize, usize, usize), blk: Blocking, s: Scalar) {
        let Blocking { w, nv, mr } = blk;
        let e = cpu_ty(s);
        let vt = format!("vector<{w}x{e}>");
        let c = |cx: &mut Self, x: usize| cx.const_int(x as i64, "index");
        let (c0, c1, cm, cn, ck, cmr, cnr) = (c(self, 0), c(self, 1), c(self, m), c(self, n), c(self, k), c(self, mr), c(self, nv * w));
        let i64c = |cx: &mut Self, x: usize| cx.const_int(x as i64, "i64");
        let (n64, k64) = (i64c(self, n), i64c(self, k));
        let (i0, j0) = (self.fresh(), self.fresh());
        self.line(&format!("scf.for {i0} = {c0} to {cm} step {cmr} {{"));
        self.line(&format!("  scf.for {j0} = {c0} to {cn} step {cnr} {{"));
        self.depth += 2;
        let (i, j) = (self.index_i64(&i0), self.index_i64(&j0));
        // Element offset of C[i0, j0]; block element (r, v) is at + r*n + v*w.
        let row = self.fresh();
        self.line(&format!("{row} = arith.muli {i}, {n64} : i64"));
        let cbase = self.fresh();
        self.line(&format!("{cbase} = arith.addi {row}, {j} : i64"));
        let slots: Vec<(usize, usize)> = (0..mr).flat_map(|r| (0..nv).map(move |v| (r, v))).collect();
        let c_ptrs: Vec<String> = slots.iter().map(|&(r, v)| self.offset_ptr(pc, &cbase, r * n + v * w, s)).collect();
        let init: Vec<String> = c_ptrs.iter().map(|p| self.vload(p, &vt)).collect();
        let (kk, res) = (self.fresh(), self.fresh());
        let iters: Vec<String> = slots.iter().map(|_| self.fresh()).collect();
        let binds: Vec<String> = iters.iter().zip(&init).map(|(a, i)| format!("{a} = {i}")).collect();
        let tys = vec![vt.clone(); slots.len()].join(", ");
        self.line(&format!("{res}:{} = scf.for {kk} = {c0} to {ck} step {c1} iter_args({}) -> ({tys}) {{", slots.len(), binds.join(", ")));
        self.depth += 1;
        let kv = self.index_i64(&kk);
        // B row k from column j0; A column k from row i0.
        let brow = self.fresh();
        self.line(&format!("{brow} = arith.muli {kv}, {n64} : i64"));
        let bbase = self.fresh();
        self.line(&format!("{bbase} = arith.addi {brow}, {j} : i64"));
        let bvec: Vec<String> = (0..nv)
            .map(|v| {
                let p = self.offset_ptr(pb, &bbase, v * w, s);
                self.vload(&p, &vt)
            })
            .collect();
        let arow = self.fresh();
        self.line(&format!("{arow} = arith.muli {i}, {k64} : i64"));
        let abase = self.fresh();
        self.line(&format!("{abase} = arith.addi {arow}, {kv} : i64"));
        let mut next = Vec::with_capacity(slots.len());
        for r in 0..mr {
            let p = self.offset_ptr(pa, &abase, r * k, s);
            let x = self.fresh();
            self.line(&format!("{x} = llvm.load {p} {{alignment = 4 : i64}} : !llvm.ptr -> {e}"));
            let xs = self.broadcast(&x, e, w);
            for v in 0..nv {
                let acc = &iters[r * nv + v];
                let y = self.fresh();
                if s.is_float() {
                    self.line(&format!("{y} = vector.fma {xs}, {}, {acc} : {vt}", bvec[v]));
                } else {
                    let prod = self.fresh();
                    self.line(&format!("{prod} = arith.muli {xs}, {} : {vt}", bvec[v]));
                    self.line(&format!("{y} = arith.addi {prod}, {acc} : {vt}"));
                }
                next.push(y);
            }
        }
        self.line(&format!("scf.yield {} : {tys}", next.join(", ")));
        self.depth -= 1;
        self.line("}");
        for (idx, p) in c_ptrs.iter().enumerate() {
            self.line(&format!("llvm.store {res}#{idx}, {p} {{alignment = 4 : i64}} : {vt}, !llvm.ptr"));
        }
        self.depth -= 2;
        self.line("  }");
        self.line("}");
    }

    fn index_i64(&mut self, i: &str) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = arith.index_cast {i} : index to i64"));
        r
    }

    /// `buf + base + delta` elements of `s`.
    fn offset_ptr(&mut self, buf: &str, base: &str, delta: usize, s: Scalar) -> String {
        let off = if delta == 0 {
            base.to_string()
        } else {
            let d = self.const_int(delta as i64, "i64");
            let o = self.fresh();
            self.line(&format!("{o} = arith.addi {base}, {d} : i64"));
            o
        };
        self.gep(buf, &off, s)
    }

    fn vload(&mut self, p: &str, vt: &str) -> String {
        let v = self.fresh();
        self.line(&format!("{v} = llvm.load {p} {{alignment = 4 : i64}} : !llvm.ptr -> {vt}"));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::{blocking, Blocking};

    #[test]
    fn blocking_fits_the_tile_and_the_register_file() {
        for (m, n) in [(64, 64), (32, 128), (16, 16), (8, 8), (1, 1), (3, 5), (128, 32)] {
            for lanes in [4, 8, 16] {
                let Blocking { w, nv, mr } = blocking(m, n, lanes);
                assert_eq!(m % mr, 0, "{m}x{n}");
                assert_eq!(n % (w * nv), 0, "{m}x{n}");
                assert!(w <= lanes && mr * nv <= 24);
            }
        }
        assert_eq!(blocking(64, 64, 16), Blocking { w: 16, nv: 2, mr: 8 });
    }
}
