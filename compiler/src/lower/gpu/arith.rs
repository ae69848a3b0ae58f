//! Elementwise `arith` / `math` ops. A tile is a vector of the thread's slots and every tile
//! of one size shares a layout, so each op is one LLVM vector instruction per thread.

use super::emit::{literal, num_elem, shaped, splat_literal, suffix, Gx, LlvmScalar};
use crate::ir::{BinOp, CastKind, Op, OpKind, Scalar, UnOp};
use crate::lower::LowerError;

impl Gx<'_> {
    pub(crate) fn arith(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let r = d.results[0];
        let rty = self.ty(r);
        let lty = self.lty(rty);
        let p = self.slots(rty);
        let ops: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
        let s = num_elem(rty);
        match &d.kind {
            OpKind::Const(c) => {
                let lit = literal(*c, s);
                if rty.is_tensor() {
                    self.uniform.insert(r, lit.clone());
                }
                self.bind(r, splat_literal(&lit, s.llvm(), p));
            }
            OpKind::Binary(b) => {
                let x = self.binary(*b, &ops[0], &ops[1], &lty, s, p);
                self.track_binary(*b, d.operands[0], d.operands[1], r, s);
                self.bind(r, x);
            }
            OpKind::Cmp(pred) => {
                let t = self.ty(d.operands[0]);
                let oty = self.lty(t);
                let x = if num_elem(t).is_float() {
                    self.assign(&format!("fcmp {} {oty} {}, {}", pred.float_name(), ops[0], ops[1]))
                } else {
                    self.assign(&format!("icmp {} {oty} {}, {}", pred.int_name(), ops[0], ops[1]))
                };
                self.bind(r, x);
            }
            OpKind::Select => {
                let cty = self.vty(d.operands[0]);
                let x = self.assign(&format!("select {cty} {}, {lty} {}, {lty} {}", ops[0], ops[1], ops[2]));
                self.bind(r, x);
            }
            OpKind::Unary(u) => {
                let x = match (u, s.is_float()) {
                    (UnOp::Neg, true) => self.assign(&format!("fneg {lty} {}", ops[0])),
                    (UnOp::Neg, false) => self.assign(&format!("sub {lty} {}, {}", splat_literal("0", s.llvm(), p), ops[0])),
                    (UnOp::Abs, false) => {
                        let f = format!("llvm.abs.{}", suffix(s, p));
                        self.call(&f, &lty, &[(&ops[0], &lty), ("false", "i1")]).unwrap_or_default()
                    }
                    (_, false) => return Err(self.unsupported(op, "exp / log / sqrt of integers")),
                    (UnOp::Log, true) if self.t.base2_exp_log() && s != Scalar::F32 => {
                        return Err(self.unsupported(op, "log of 16-bit floats (convert to f32 first)"))
                    }
                    (u @ (UnOp::Exp | UnOp::Log), true) if self.t.base2_exp_log() => self.base2(*u, &ops[0], &lty, s, p),
                    (u, true) => {
                        let name = match u {
                            UnOp::Abs => "fabs",
                            UnOp::Exp => "exp",
                            UnOp::Log => "log",
                            _ => "sqrt",
                        };
                        let f = format!("llvm.{name}.{}", suffix(s, p));
                        self.call(&f, &lty, &[(&ops[0], &lty)]).unwrap_or_default()
                    }
                };
                self.bind(r, x);
            }
            OpKind::Cast(kind) => {
                let from = num_elem(self.ty(d.operands[0]));
                let x = if *kind == CastKind::Bitcast {
                    let fty = self.vty(d.operands[0]);
                    self.assign(&format!("bitcast {fty} {} to {lty}", ops[0]))
                } else {
                    self.convert(&ops[0], from, s, p)
                };
                if let Some(u) = self.uniform.get(&d.operands[0]).cloned() {
                    let su = if *kind == CastKind::Bitcast { None } else { Some(self.convert(&u, from, s, None)) };
                    if let Some(su) = su {
                        self.uniform.insert(r, su);
                    }
                }
                self.bind(r, x);
            }
            _ => return Err(self.malformed(op, "not an arith op")),
        }
        Ok(())
    }

    /// `e^x` as `2^(x log2 e)`, `ln x` as `log2(x) ln 2`, on LLVM type `ty` (element `s`).
    fn base2(&mut self, u: UnOp, x: &str, ty: &str, s: Scalar, p: Option<usize>) -> String {
        let lit = |v: f64| splat_literal(&literal(crate::ir::ConstVal::Float(v), s), s.llvm(), p);
        let f = |name: &str| format!("llvm.{name}.{}", suffix(s, p));
        if u == UnOp::Exp {
            let y = self.assign(&format!("fmul {ty} {x}, {}", lit(std::f64::consts::LOG2_E)));
            self.call(&f("exp2"), ty, &[(&y, ty)]).unwrap_or_default()
        } else {
            // LLVM's NVPTX back end lowers `llvm.exp2` but not `llvm.log2`: call `lg2.approx`
            // lane by lane (callers checked the element is f32).
            let lg2 = |g: &mut Self, v: &str| g.call("llvm.nvvm.lg2.approx.f", "float", &[(v, "float")]).unwrap_or_default();
            let y = match p {
                None => lg2(self, x),
                Some(n) => (0..n).fold("poison".to_string(), |acc, i| {
                    let e = self.assign(&format!("extractelement {ty} {x}, i32 {i}"));
                    let l = lg2(self, &e);
                    self.assign(&format!("insertelement {ty} {acc}, float {l}, i32 {i}"))
                }),
            };
            self.assign(&format!("fmul {ty} {y}, {}", lit(std::f64::consts::LN_2)))
        }
    }

    /// `a <b> b` on LLVM type `ty` with IR element `s`.
    pub(crate) fn binary(&mut self, b: BinOp, a: &str, c: &str, ty: &str, s: Scalar, p: Option<usize>) -> String {
        let float = s.is_float();
        let inst = match (b, float) {
            (BinOp::Add, true) => "fadd",
            (BinOp::Add, false) => "add",
            (BinOp::Sub, true) => "fsub",
            (BinOp::Sub, false) => "sub",
            (BinOp::Mul, true) => "fmul",
            (BinOp::Mul, false) => "mul",
            (BinOp::Div, true) => "fdiv",
            (BinOp::Div, false) => "sdiv",
            (BinOp::Rem, true) => "frem",
            (BinOp::Rem, false) => "srem",
            (BinOp::And, _) => "and",
            (BinOp::Or, _) => "or",
            (BinOp::Xor, _) => "xor",
            (BinOp::Shl, _) => "shl",
            (BinOp::Shr, _) => "ashr",
            (BinOp::ShrU, _) => "lshr",
            (BinOp::Max | BinOp::Min, _) => {
                // arith.maximumf / minimumf propagate NaN, as llvm.maximum / minimum do.
                let name = match (b, float) {
                    (BinOp::Max, true) => "maximum",
                    (BinOp::Min, true) => "minimum",
                    (BinOp::Max, false) => "smax",
                    _ => "smin",
                };
                let f = format!("llvm.{name}.{}", suffix(s, p));
                return self.call(&f, ty, &[(a, ty), (c, ty)]).unwrap_or_default();
            }
        };
        self.assign(&format!("{inst} {ty} {a}, {c}"))
    }

    /// Keeps the uniform fact (the scalar every slot holds) through binary ops.
    fn track_binary(&mut self, b: BinOp, x: crate::ir::Value, y: crate::ir::Value, r: crate::ir::Value, s: Scalar) {
        if let (Some(a), Some(c)) = (self.uniform.get(&x).cloned(), self.uniform.get(&y).cloned()) {
            let lit = self.binary(b, &a, &c, s.llvm(), s, None);
            self.uniform.insert(r, lit);
        }
    }

    /// Numeric conversion of `v` from `from` to `to` (scalar, or `p` slots).
    pub(crate) fn convert(&mut self, v: &str, from: Scalar, to: Scalar, p: Option<usize>) -> String {
        if from == to {
            return v.to_string();
        }
        if from.is_fp8() || to.is_fp8() {
            return self.convert_fp8(v, from, to, p);
        }
        let (ft, tt) = (shaped(from.llvm(), p), shaped(to.llvm(), p));
        let inst = match (from.is_float(), to.is_float()) {
            (true, true) if from == Scalar::BF16 && to == Scalar::F16 || from == Scalar::F16 && to == Scalar::BF16 => {
                let f = self.convert(v, from, Scalar::F32, p);
                return self.convert(&f, Scalar::F32, to, p);
            }
            (true, true) if to.bits() > from.bits() => "fpext",
            (true, true) => "fptrunc",
            (false, false) if to.bits() > from.bits() && from == Scalar::I1 => "zext",
            (false, false) if to.bits() > from.bits() => "sext",
            (false, false) => "trunc",
            (false, true) if from == Scalar::I1 => "uitofp",
            (false, true) => "sitofp",
            (true, false) => "fptosi",
        };
        self.assign(&format!("{inst} {ft} {v} to {tt}"))
    }

    /// `a` combined with `b` by a reduction's binary op.
    pub(crate) fn combine(&mut self, kind: crate::ir::ReduceKind, a: &str, b: &str, ty: &str, s: Scalar, p: Option<usize>) -> String {
        self.binary(kind.combine(), a, b, ty, s, p)
    }
}
