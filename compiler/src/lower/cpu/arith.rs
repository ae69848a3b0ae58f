//! Lowering of elementwise `arith` / `math` ops on tiles (vectors) and scalars.

use super::emit::{num_elem, Affine, Cx};
use crate::ir::print::{binary_name, cast_name, const_literal, unary_name};
use crate::ir::{BinOp, CastKind, CmpPred, Op, OpKind, Scalar};
use crate::lower::LowerError;

/// The lowered type of scalar `s` as a scalar or an `n`-lane vector.
pub(crate) fn shaped(s: Scalar, n: Option<usize>) -> String {
    match n {
        Some(n) => format!("vector<{n}x{}>", s.mlir()),
        None => s.mlir().to_string(),
    }
}

impl Cx<'_> {
    pub(crate) fn arith(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let r = d.results[0];
        let rty = self.ty(r);
        let lty = self.lty(rty);
        let ops: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
        match &d.kind {
            OpKind::Const(c) => {
                let s = num_elem(rty);
                let lit = const_literal(*c, s);
                let scalar_lit = if s == Scalar::I1 { lit.clone() } else { format!("{lit} : {}", s.mlir()) };
                if rty.is_tensor() {
                    let sc = self.fresh();
                    self.line(&format!("{sc} = arith.constant {scalar_lit}"));
                    self.splat.insert(r, sc);
                    let n = self.def(r);
                    self.line(&format!("{n} = arith.constant dense<{lit}> : {lty}"));
                } else {
                    let n = self.def(r);
                    self.line(&format!("{n} = arith.constant {scalar_lit}"));
                }
            }
            OpKind::Binary(b) => {
                let float = num_elem(rty).is_float();
                let name = binary_name(*b, float);
                self.track_binary(*b, d.operands[0], d.operands[1], r, name);
                self.track_grid_binary(*b, d.operands[0], d.operands[1], r);
                let n = self.def(r);
                self.line(&format!("{n} = {name} {}, {} : {lty}", ops[0], ops[1]));
            }
            OpKind::Cmp(p) => {
                let t = self.ty(d.operands[0]);
                let (name, pred) = if num_elem(t).is_float() { ("cmpf", p.float_name()) } else { ("cmpi", p.int_name()) };
                let oty = self.lty(t);
                let n = self.def(r);
                self.line(&format!("{n} = arith.{name} {pred}, {}, {} : {oty}", ops[0], ops[1]));
            }
            OpKind::Select => {
                let cty = self.vty(d.operands[0]);
                let n = self.def(r);
                self.line(&format!("{n} = arith.select {}, {}, {} : {cty}, {lty}", ops[0], ops[1], ops[2]));
            }
            OpKind::Unary(u) => {
                let name = unary_name(*u, num_elem(rty).is_float());
                let n = self.def(r);
                self.line(&format!("{n} = {name} {} : {lty}", ops[0]));
            }
            OpKind::Cast(kind) => {
                let from_t = self.ty(d.operands[0]);
                let (from, to) = (num_elem(from_t), num_elem(rty));
                let lanes = rty.is_tensor().then(|| rty.numel());
                let v = if *kind == CastKind::Bitcast {
                    let v = self.fresh();
                    self.line(&format!("{v} = arith.bitcast {} : {} to {lty}", ops[0], self.lty(from_t)));
                    v
                } else {
                    if from.is_int() && to == Scalar::I64 {
                        if let Some(a) = self.affine.get(&d.operands[0]).cloned() {
                            self.affine.insert(r, a);
                        }
                        self.track_grid_cast(d.operands[0], r, from);
                    }
                    if let Some(s) = self.splat.get(&d.operands[0]).cloned() {
                        let sc = self.convert(&s, from, to, None);
                        self.splat.insert(r, sc);
                    }
                    self.convert(&ops[0], from, to, lanes)
                };
                self.bind(r, v);
            }
            _ => return Err(self.malformed(op, "not an arith op")),
        }
        Ok(())
    }

    /// Propagates splat and affine-range facts through `+`, `-` and `*`.
    fn track_binary(&mut self, b: BinOp, x: crate::ir::Value, y: crate::ir::Value, r: crate::ir::Value, name: &str) {
        let s = num_elem(self.ty(r));
        if let (Some(a), Some(c)) = (self.splat.get(&x).cloned(), self.splat.get(&y).cloned()) {
            let n = self.fresh();
            self.line(&format!("{n} = {name} {a}, {c} : {}", s.mlir()));
            self.splat.insert(r, n);
            return;
        }
        if b != BinOp::Add || !s.is_int() {
            return;
        }
        let (aff, sp) = match (self.affine.get(&x).cloned(), self.affine.get(&y).cloned()) {
            (Some(a), None) => (a, self.splat.get(&y).cloned()),
            (None, Some(a)) => (a, self.splat.get(&x).cloned()),
            _ => return,
        };
        let Some(sp) = sp else { return };
        let sp = self.to_i64(&sp, s, None);
        let scalar = match aff.scalar {
            Some(prev) => {
                let n = self.fresh();
                self.line(&format!("{n} = arith.addi {prev}, {sp} : i64"));
                n
            }
            None => sp,
        };
        self.affine.insert(r, Affine { scalar: Some(scalar), start: aff.start });
    }

    /// Numeric conversion of SSA `v` from `from` to `to` (vector of `lanes` or scalar).
    /// f32 → bf16 is rounded to nearest even inline: LLVM would otherwise call a libgcc helper
    /// per element.
    pub(crate) fn convert(&mut self, v: &str, from: Scalar, to: Scalar, lanes: Option<usize>) -> String {
        if from == to {
            return v.to_string();
        }
        if to == Scalar::BF16 {
            let f = self.convert(v, from, Scalar::F32, lanes);
            return self.f32_to_bf16(&f, lanes);
        }
        if from == Scalar::BF16 && to != Scalar::F32 {
            let f = self.convert(v, from, Scalar::F32, lanes);
            return self.convert(&f, Scalar::F32, to, lanes);
        }
        let r = self.fresh();
        let name = cast_name(CastKind::Convert, from, to);
        self.line(&format!("{r} = {name} {v} : {} to {}", shaped(from, lanes), shaped(to, lanes)));
        r
    }

    fn f32_to_bf16(&mut self, f: &str, lanes: Option<usize>) -> String {
        let (i32t, i16t, ft) = (shaped(Scalar::I32, lanes), format!("{}", shaped(Scalar::I32, lanes).replace("i32", "i16")), shaped(Scalar::F32, lanes));
        let c = |cx: &mut Self, x: i64| -> String {
            let n = cx.fresh();
            match lanes {
                Some(_) => cx.line(&format!("{n} = arith.constant dense<{x}> : {i32t}")),
                None => cx.line(&format!("{n} = arith.constant {x} : i32")),
            }
            n
        };
        let bits = self.fresh();
        self.line(&format!("{bits} = arith.bitcast {f} : {ft} to {i32t}"));
        let (c16, c1, c7fff, cnan) = (c(self, 16), c(self, 1), c(self, 0x7FFF), c(self, 0x7FC0_0000));
        let sh = self.fresh();
        self.line(&format!("{sh} = arith.shrui {bits}, {c16} : {i32t}"));
        let lsb = self.fresh();
        self.line(&format!("{lsb} = arith.andi {sh}, {c1} : {i32t}"));
        let bias = self.fresh();
        self.line(&format!("{bias} = arith.addi {lsb}, {c7fff} : {i32t}"));
        let rounded = self.fresh();
        self.line(&format!("{rounded} = arith.addi {bits}, {bias} : {i32t}"));
        let isnan = self.fresh();
        self.line(&format!("{isnan} = arith.cmpf uno, {f}, {f} : {ft}"));
        let fixed = self.fresh();
        let cty = match lanes {
            Some(n) => format!("vector<{n}xi1>, {i32t}"),
            None => i32t.clone(),
        };
        self.line(&format!("{fixed} = arith.select {isnan}, {cnan}, {rounded} : {cty}"));
        let hi = self.fresh();
        self.line(&format!("{hi} = arith.shrui {fixed}, {c16} : {i32t}"));
        let t16 = self.fresh();
        self.line(&format!("{t16} = arith.trunci {hi} : {i32t} to {i16t}"));
        let out = self.fresh();
        self.line(&format!("{out} = arith.bitcast {t16} : {i16t} to {}", shaped(Scalar::BF16, lanes)));
        out
    }

    /// Combines two lowered values with a reduction op of element type `s`.
    pub(crate) fn combine(&mut self, kind: crate::ir::ReduceKind, a: &str, b: &str, ty: &str, s: Scalar) -> String {
        let r = self.fresh();
        let name = binary_name(kind.combine(), s.is_float());
        self.line(&format!("{r} = {name} {a}, {b} : {ty}"));
        r
    }

    /// `i1` SSA that is true where lowered `a` compares `pred` to `b` (integers).
    pub(crate) fn icmp(&mut self, pred: CmpPred, a: &str, b: &str, ty: &str) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = arith.cmpi {}, {a}, {b} : {ty}", pred.int_name()));
        r
    }
}
