//! Integer ranges: per integer value of a kernel, an interval holding every element it can
//! take, seeded from the types (an `i32` is within `i32`), constants, `make_range`, program ids,
//! loop bounds and the variant's small-integer facts ([`Specialization::small`]), and carried
//! through casts, shape ops, `+ - * / %`, `min` / `max` and `select`. [`super::narrow_index`]
//! uses it to compare 64-bit indices in 32 bits where both sides provably fit.

use super::specialize::{Specialization, SMALL_BOUND};
use crate::ir::{BinOp, Block, ConstVal, Elem, Kernel, OpData, OpKind, Type, Value};
use std::collections::HashMap;

/// A closed interval `[lo, hi]` (i128, so that interval arithmetic on i64 bounds cannot
/// overflow).
pub type Range = (i128, i128);

/// Ranges of the integer values of one kernel.
#[derive(Clone, Debug, Default)]
pub struct IntRanges {
    map: HashMap<Value, Range>,
}

/// Every value an integer of type `t` can hold (`None` for floats, pointers, tokens).
pub fn type_range(t: &Type) -> Option<Range> {
    match t.elem()? {
        Elem::Num(s) if s.is_int() && s.bits() > 1 => {
            let half = 1i128 << (s.bits() - 1);
            Some((-half, half - 1))
        }
        Elem::Num(s) if s.is_int() => Some((0, 1)),
        _ => None,
    }
}

impl IntRanges {
    /// Analyses `k` under the facts of its specialization.
    pub fn analyze(k: &Kernel) -> IntRanges {
        let spec = Specialization::of(k);
        let mut r = IntRanges::default();
        for (i, p) in k.params.iter().enumerate() {
            if spec.small_at(i) {
                r.set(k, p.value, (-(SMALL_BOUND as i128), SMALL_BOUND as i128 - 1));
            }
        }
        r.block(k, k.body);
        r
    }

    /// The range of integer value `v` (its type's when nothing narrower is known).
    pub fn get(&self, k: &Kernel, v: Value) -> Option<Range> {
        self.map.get(&v).copied().or_else(|| type_range(k.ty(v)))
    }

    /// Records `r` for `v`, clamped to its type: a result outside it wraps, so only the type's
    /// range is then known.
    fn set(&mut self, k: &Kernel, v: Value, r: Range) {
        if let Some(t) = type_range(k.ty(v)) {
            let inside = r.0 >= t.0 && r.1 <= t.1 && r.0 <= r.1;
            self.map.insert(v, if inside { r } else { t });
        }
    }

    fn block(&mut self, k: &Kernel, b: Block) {
        for &op in &k.block(b).ops {
            self.op(k, k.op(op));
        }
    }

    fn op(&mut self, k: &Kernel, d: &OpData) {
        if matches!(d.kind, OpKind::For) {
            return self.for_loop(k, d);
        }
        for &region in &d.regions {
            self.block(k, region);
        }
        let Some(&r) = d.results.first() else { return };
        let ins: Vec<Option<Range>> = d.operands.iter().map(|&o| self.get(k, o)).collect();
        let arg = |i: usize| ins.get(i).copied().flatten();
        let range = match &d.kind {
            OpKind::Const(ConstVal::Int(c)) => Some((*c as i128, *c as i128)),
            OpKind::MakeRange(s, e) => Some((*s as i128, *e as i128 - 1)),
            OpKind::ProgramId(_) | OpKind::NumPrograms(_) => Some((0, i32::MAX as i128)),
            OpKind::Splat | OpKind::Broadcast | OpKind::ExpandDims(_) | OpKind::Cast(crate::ir::CastKind::Convert) => arg(0),
            OpKind::Select => arg(1).zip(arg(2)).map(|(a, b)| (a.0.min(b.0), a.1.max(b.1))),
            OpKind::Binary(b) => arg(0).zip(arg(1)).and_then(|(x, y)| binary(*b, x, y)),
            _ => None,
        };
        if let Some(range) = range {
            self.set(k, r, range);
        }
    }

    /// `scf.for` with a positive step: the induction variable is at least the lower bound and
    /// below the upper bound. Carried values keep their types' ranges.
    fn for_loop(&mut self, k: &Kernel, d: &OpData) {
        let body = k.block(d.regions[0]);
        let (lb, ub, step) = (self.get(k, d.operands[0]), self.get(k, d.operands[1]), self.get(k, d.operands[2]));
        if let (Some(lb), Some(ub), Some(step)) = (lb, ub, step)
            && step.0 > 0
        {
            self.set(k, body.args[0], (lb.0, (ub.1 - 1).max(lb.0)));
        }
        self.block(k, d.regions[0]);
    }
}

/// The range of `x op y`, where interval arithmetic knows it.
fn binary(op: BinOp, x: Range, y: Range) -> Option<Range> {
    let corners = |f: fn(i128, i128) -> i128| {
        let c = [f(x.0, y.0), f(x.0, y.1), f(x.1, y.0), f(x.1, y.1)];
        (c.iter().copied().min().unwrap_or(0), c.iter().copied().max().unwrap_or(0))
    };
    match op {
        BinOp::Add => Some((x.0 + y.0, x.1 + y.1)),
        BinOp::Sub => Some((x.0 - y.1, x.1 - y.0)),
        // Products of i64 bounds fit in i128.
        BinOp::Mul => Some(corners(|a, b| a * b)),
        BinOp::Min => Some((x.0.min(y.0), x.1.min(y.1))),
        BinOp::Max => Some((x.0.max(y.0), x.1.max(y.1))),
        // Signed division truncates toward zero, so a positive divisor keeps the quotient
        // between the corners.
        BinOp::Div if y.0 > 0 => Some(corners(|a, b| a / b)),
        // The remainder has the dividend's sign and is smaller than the divisor.
        BinOp::Rem if y.0 > 0 => {
            let m = y.1 - 1;
            Some(if x.0 >= 0 { (0, x.1.min(m)) } else { ((-m).max(x.0), m.min(x.1.max(0))) })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator (no dependency).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, lo: i64, hi: i64) -> i64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + ((self.0 >> 33) % (hi - lo + 1) as u64) as i64
        }
    }

    /// Every operation's result on random members of random intervals lies in the interval
    /// `binary` computes (checked against plain Rust arithmetic).
    #[test]
    fn binary_ranges_hold_every_result() {
        let mut r = Lcg(7);
        let ops = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Min, BinOp::Max, BinOp::Div, BinOp::Rem];
        for _ in 0..4000 {
            let (a, b) = (r.next(-1000, 1000), r.next(-1000, 1000));
            let x = (a.min(b) as i128, a.max(b) as i128);
            let (c, d) = (r.next(-50, 50), r.next(-50, 50));
            let y = (c.min(d) as i128, c.max(d) as i128);
            for op in ops {
                let Some(range) = binary(op, x, y) else {
                    assert!(matches!(op, BinOp::Div | BinOp::Rem) && y.0 <= 0);
                    continue;
                };
                for _ in 0..8 {
                    let (u, v) = (r.next(x.0 as i64, x.1 as i64) as i128, r.next(y.0 as i64, y.1 as i64) as i128);
                    let got = match op {
                        BinOp::Add => u + v,
                        BinOp::Sub => u - v,
                        BinOp::Mul => u * v,
                        BinOp::Min => u.min(v),
                        BinOp::Max => u.max(v),
                        BinOp::Div => u / v,
                        _ => u % v,
                    };
                    assert!(range.0 <= got && got <= range.1, "{op:?} {x:?} {y:?}: {u} {v} -> {got} outside {range:?}");
                }
            }
        }
    }
}
