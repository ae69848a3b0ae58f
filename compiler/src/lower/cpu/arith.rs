//! Lowering of elementwise `arith` / `math` ops on tiles (vectors) and scalars.

use super::emit::{num_elem, Affine, Cx};
use super::half::{cpu_ty, is_half};
use crate::ir::print::{binary_name, cast_name, const_literal, half_bits, unary_name};
use crate::ir::{BinOp, CastKind, CmpPred, Op, OpKind, Scalar};
use crate::lower::LowerError;

/// Lanes converted at a time by `converted_buffer`.
const CHUNK: usize = 64;

/// The lowered type of scalar `s` as a scalar or an `n`-lane vector.
pub(crate) fn shaped(s: Scalar, n: Option<usize>) -> String {
    match n {
        Some(n) => format!("vector<{n}x{}>", cpu_ty(s)),
        None => cpu_ty(s).to_string(),
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
                // Half constants are their bits, as every half value in this lowering.
                let lit = if is_half(s) { (half_bits(*c, s) as i16).to_string() } else { const_literal(*c, s) };
                let scalar_lit = if s == Scalar::I1 { lit.clone() } else { format!("{lit} : {}", cpu_ty(s)) };
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
                let s = num_elem(rty);
                let name = binary_name(*b, s.is_float());
                self.track_binary(*b, d.operands[0], d.operands[1], r, name);
                self.track_grid_binary(*b, d.operands[0], d.operands[1], r);
                if is_half(s) {
                    let v = self.float_binop(name, &ops[0], &ops[1], s, lanes_of(rty));
                    self.bind(r, v);
                } else {
                    let n = self.def(r);
                    self.line(&format!("{n} = {name} {}, {} : {lty}", ops[0], ops[1]));
                }
            }
            OpKind::Cmp(p) => {
                let t = self.ty(d.operands[0]);
                let s = num_elem(t);
                let (name, pred) = if s.is_float() { ("cmpf", p.float_name()) } else { ("cmpi", p.int_name()) };
                let (mut a, mut b, mut oty) = (ops[0].clone(), ops[1].clone(), self.lty(t));
                if is_half(s) {
                    let l = lanes_of(t);
                    (a, b, oty) = (self.half_to_f32(&a, s, l), self.half_to_f32(&b, s, l), shaped(Scalar::F32, l));
                }
                let n = self.def(r);
                self.line(&format!("{n} = arith.{name} {pred}, {a}, {b} : {oty}"));
            }
            OpKind::Select => {
                let cty = self.vty(d.operands[0]);
                let n = self.def(r);
                self.line(&format!("{n} = arith.select {}, {}, {} : {cty}, {lty}", ops[0], ops[1], ops[2]));
            }
            OpKind::Unary(u) => {
                let s = num_elem(rty);
                let name = unary_name(*u, s.is_float());
                if is_half(s) {
                    let l = lanes_of(rty);
                    let x = self.half_to_f32(&ops[0], s, l);
                    let y = self.fresh();
                    self.line(&format!("{y} = {name} {x} : {}", shaped(Scalar::F32, l)));
                    let v = self.f32_to_half(&y, s, l);
                    self.bind(r, v);
                } else {
                    let n = self.def(r);
                    self.line(&format!("{n} = {name} {} : {lty}", ops[0]));
                }
            }
            OpKind::Cast(kind) => {
                let from_t = self.ty(d.operands[0]);
                let (from, to) = (num_elem(from_t), num_elem(rty));
                let lanes = rty.is_tensor().then(|| rty.numel());
                let v = if *kind == CastKind::Bitcast && self.lty(from_t) == lty {
                    ops[0].clone()
                } else if *kind == CastKind::Bitcast {
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
                    match lanes {
                        // Wide half-precision casts convert through memory in chunks.
                        Some(n) if n > CHUNK && (is_half(from) || is_half(to)) => {
                            let buf = self.converted_buffer(d.operands[0], to);
                            let v = self.fresh();
                            self.line(&format!("{v} = llvm.load {buf} {{alignment = 64 : i64}} : !llvm.ptr -> {lty}"));
                            self.mem.insert(r, buf);
                            v
                        }
                        _ => self.convert(&ops[0], from, to, lanes),
                    }
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
            let n = if s.is_float() { self.float_binop(name, &a, &c, s, None) } else { self.int_binop(name, &a, &c, s) };
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
    /// Half precision goes through f32 with the integer sequences of `half`.
    pub(crate) fn convert(&mut self, v: &str, from: Scalar, to: Scalar, lanes: Option<usize>) -> String {
        if from == to {
            return v.to_string();
        }
        if is_half(to) {
            let f = self.convert(v, from, Scalar::F32, lanes);
            return self.f32_to_half(&f, to, lanes);
        }
        if is_half(from) {
            let f = self.half_to_f32(v, from, lanes);
            return self.convert(&f, Scalar::F32, to, lanes);
        }
        let r = self.fresh();
        let name = cast_name(CastKind::Convert, from, to);
        self.line(&format!("{r} = {name} {v} : {} to {}", shaped(from, lanes), shaped(to, lanes)));
        r
    }

    /// A stack buffer holding tile `v` converted to `to`, converted `CHUNK` lanes at a time:
    /// one conversion over a whole tile would be straight-line code of tens of thousands of
    /// instructions, which LLVM's machine passes take seconds to minutes over.
    pub(crate) fn converted_buffer(&mut self, v: crate::ir::Value, to: Scalar) -> String {
        let from = num_elem(self.ty(v));
        let src = self.in_memory(v);
        let n = self.ty(v).numel();
        let ch = (1..=CHUNK).rev().find(|c| n % c == 0).unwrap_or(1);
        let dst = self.alloca(to, n);
        let (_, i) = self.open_row_loop(n / ch);
        let c = self.const_int(ch as i64, "i64");
        let off = self.fresh();
        self.line(&format!("{off} = arith.muli {i}, {c} : i64"));
        let (ps, pd) = (self.gep(&src, &off, from), self.gep(&dst, &off, to));
        let x = self.fresh();
        self.line(&format!("{x} = llvm.load {ps} {{alignment = 2 : i64}} : !llvm.ptr -> {}", shaped(from, Some(ch))));
        let y = self.convert(&x, from, to, Some(ch));
        self.line(&format!("llvm.store {y}, {pd} {{alignment = 2 : i64}} : {}, !llvm.ptr", shaped(to, Some(ch))));
        self.close_loop();
        dst
    }

    fn int_binop(&mut self, name: &str, a: &str, b: &str, s: Scalar) -> String {
        let n = self.fresh();
        self.line(&format!("{n} = {name} {a}, {b} : {}", cpu_ty(s)));
        n
    }

    /// Combines two lowered values with a reduction op of element type `s`.
    /// Half precision is combined in f32 and rounded back (`lanes` is `ty`'s lane count).
    pub(crate) fn combine(&mut self, kind: crate::ir::ReduceKind, a: &str, b: &str, ty: &str, s: Scalar, lanes: Option<usize>) -> String {
        let name = binary_name(kind.combine(), s.is_float());
        if is_half(s) {
            return self.float_binop(name, a, b, s, lanes);
        }
        let r = self.fresh();
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

/// The lane count of a tile type, `None` for a scalar.
pub(crate) fn lanes_of(t: &crate::ir::Type) -> Option<usize> {
    t.is_tensor().then(|| t.numel())
}

