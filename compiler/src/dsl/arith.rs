//! Elementwise arithmetic: operators on [`Val`], comparisons, casts and math, with
//! Triton-style implicit splat / broadcast and integer widening.

use super::{emit, fail, with, DslErrorKind, Val};
use crate::ir::{BinOp, CastKind, CmpPred, ConstVal, Elem, Loc, OpKind, Scalar, Type, UnOp};

/// Something usable as an operand: a [`Val`] or a Rust literal that takes the other side's type.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    /// A kernel value.
    Val(Val),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
}

impl From<Val> for Operand {
    fn from(v: Val) -> Self {
        Operand::Val(v)
    }
}
impl From<i32> for Operand {
    fn from(v: i32) -> Self {
        Operand::Int(v as i64)
    }
}
impl From<i64> for Operand {
    fn from(v: i64) -> Self {
        Operand::Int(v)
    }
}
impl From<usize> for Operand {
    fn from(v: usize) -> Self {
        Operand::Int(v as i64)
    }
}
impl From<f32> for Operand {
    fn from(v: f32) -> Self {
        Operand::Float(v as f64)
    }
}
impl From<f64> for Operand {
    fn from(v: f64) -> Self {
        Operand::Float(v)
    }
}

/// A constant of scalar type `s`, splat to `shape` when non-empty.
#[track_caller]
pub fn constant(c: impl Into<Operand>, s: Scalar, shape: &[usize]) -> Val {
    let loc = Loc::caller();
    let c = match c.into() {
        Operand::Int(i) => ConstVal::Int(i),
        Operand::Float(f) => ConstVal::Float(f),
        Operand::Val(v) => return v,
    };
    if s.is_fp8() {
        let f = emit(OpKind::Const(c), &[], Type::tensor(Elem::Num(Scalar::F32), shape.to_vec()), loc.clone());
        return cast_at(f, s, CastKind::Convert, &loc);
    }
    emit(OpKind::Const(c), &[], Type::tensor(Elem::Num(s), shape.to_vec()), loc)
}

/// Splats a scalar to `shape`; returns tiles unchanged.
pub(crate) fn splat_to(v: Val, shape: &[usize], loc: &Loc) -> Val {
    let ty = v.ty();
    if ty.is_tensor() || shape.is_empty() {
        return v;
    }
    emit(OpKind::Splat, &[v], ty.with_shape(shape.to_vec()), loc.clone())
}

/// Broadcasts `v` (scalar or same-rank tile with size-1 dims) to `shape`.
pub(crate) fn broadcast_to_at(v: Val, shape: &[usize], loc: &Loc) -> Val {
    let ty = v.ty();
    if ty.shape() == shape {
        return v;
    }
    if !ty.is_tensor() {
        return splat_to(v, shape, loc);
    }
    let ok = ty.shape().len() == shape.len() && ty.shape().iter().zip(shape).all(|(&a, &b)| a == b || a == 1);
    if !ok {
        let kind = DslErrorKind::ShapeMismatch {
            op: "tile.broadcast".into(),
            lhs: ty.to_string(),
            rhs: format!("{:?}", shape),
        };
        return fail(kind, loc.clone(), ty.with_shape(shape.to_vec()));
    }
    emit(OpKind::Broadcast, &[v], ty.with_shape(shape.to_vec()), loc.clone())
}

/// The broadcast shape of two shapes, numpy style (same rank or a scalar).
pub(crate) fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    if a.is_empty() {
        return Some(b.to_vec());
    }
    if b.is_empty() || a == b {
        return Some(a.to_vec());
    }
    if a.len() != b.len() {
        return None;
    }
    a.iter()
        .zip(b)
        .map(|(&x, &y)| if x == y || y == 1 { Some(x) } else if x == 1 { Some(y) } else { None })
        .collect()
}

fn num(v: Val) -> Option<Scalar> {
    match v.elem() {
        Elem::Num(s) => Some(s),
        Elem::Ptr(_) => None,
    }
}

/// Converts `v` elementwise to scalar type `to` (numeric conversion).
#[track_caller]
pub fn cast(v: Val, to: Scalar) -> Val {
    cast_at(v, to, CastKind::Convert, &Loc::caller())
}

/// Reinterprets the bits of `v` as `to` (same width).
#[track_caller]
pub fn bitcast(v: Val, to: Scalar) -> Val {
    let loc = Loc::caller();
    match num(v) {
        Some(s) if s.bits() == to.bits() => cast_at(v, to, CastKind::Bitcast, &loc),
        _ => {
            let kind = DslErrorKind::DTypeMismatch {
                op: "arith.bitcast".into(),
                expected: format!("a {}-bit number", to.bits()),
                got: v.ty().to_string(),
            };
            fail(kind, loc, v.ty().with_elem(Elem::Num(to)))
        }
    }
}

pub(crate) fn cast_at(v: Val, to: Scalar, kind: CastKind, loc: &Loc) -> Val {
    match num(v) {
        Some(s) if s == to => v,
        Some(_) => emit(OpKind::Cast(kind), &[v], v.ty().with_elem(Elem::Num(to)), loc.clone()),
        None => {
            let kind = DslErrorKind::DTypeMismatch { op: "arith.cast".into(), expected: "a number".into(), got: v.ty().to_string() };
            fail(kind, loc.clone(), v.ty().with_elem(Elem::Num(to)))
        }
    }
}

/// Resolves two operands to values of one type (splat, broadcast, literal typing, int widening).
fn unify(op: &str, a: Operand, b: Operand, loc: &Loc) -> Option<(Val, Val)> {
    let (a, b) = match (a, b) {
        (Operand::Val(a), Operand::Val(b)) => (a, b),
        (Operand::Val(a), lit) => (a, literal_like(lit, a, loc)?),
        (lit, Operand::Val(b)) => (literal_like(lit, b, loc)?, b),
        _ => {
            with(|bd| bd.fail(DslErrorKind::Invalid { op: op.into(), message: "needs at least one kernel value".into() }, loc.clone()));
            return None;
        }
    };
    let (ta, tb) = (a.ty(), b.ty());
    let (Some(sa), Some(sb)) = (num(a), num(b)) else {
        let kind = DslErrorKind::DTypeMismatch { op: op.into(), expected: "numbers".into(), got: format!("{ta}, {tb}") };
        with(|bd| bd.fail(kind, loc.clone()));
        return None;
    };
    let Some(shape) = broadcast_shape(ta.shape(), tb.shape()) else {
        let kind = DslErrorKind::ShapeMismatch { op: op.into(), lhs: ta.to_string(), rhs: tb.to_string() };
        with(|bd| bd.fail(kind, loc.clone()));
        return None;
    };
    // FP8 is storage: moved, selected and converted, never computed on (no implicit promotion,
    // so the rounding a kernel pays is the one it writes).
    if (sa.is_fp8() || sb.is_fp8()) && !(op == "arith.select" && sa == sb) {
        with(|bd| bd.fail(fp8_arith(op, if sa.is_fp8() { sa } else { sb }), loc.clone()));
        return None;
    }
    let s = if sa == sb {
        sa
    } else if sa.is_int() && sb.is_int() && sa != Scalar::I1 && sb != Scalar::I1 {
        if sa.bits() > sb.bits() { sa } else { sb }
    } else if sa.is_float() && sb.is_float() {
        if sa == Scalar::F32 || sb == Scalar::F32 { Scalar::F32 } else { sa }
    } else {
        let kind = DslErrorKind::DTypeMismatch { op: op.into(), expected: sa.mlir().into(), got: sb.mlir().into() };
        with(|bd| bd.fail(kind, loc.clone()));
        return None;
    };
    let a = broadcast_to_at(cast_at(a, s, CastKind::Convert, loc), &shape, loc);
    let b = broadcast_to_at(cast_at(b, s, CastKind::Convert, loc), &shape, loc);
    Some((a, b))
}

/// The error for arithmetic on an FP8 operand of type `s`.
pub(crate) fn fp8_arith(op: &str, s: Scalar) -> DslErrorKind {
    DslErrorKind::DTypeMismatch { op: op.into(), expected: "f32, f16 or bf16 (FP8 only moves and converts: cast it to f32 first)".into(), got: s.mlir().into() }
}

fn literal_like(lit: Operand, like: Val, loc: &Loc) -> Option<Val> {
    let s = match like.elem() {
        Elem::Num(s) => s,
        Elem::Ptr(_) => Scalar::I64,
    };
    if s.is_fp8() {
        // An FP8 literal is an f32 one, converted (rounded as every FP8 conversion is).
        let f = literal_like(lit, constant(0.0f64, Scalar::F32, &[]), loc)?;
        return Some(cast_at(f, s, CastKind::Convert, loc));
    }
    let c = match (lit, s.is_float()) {
        (Operand::Int(i), _) => ConstVal::Int(i),
        (Operand::Float(f), true) => ConstVal::Float(f),
        (Operand::Float(f), false) => {
            let kind = DslErrorKind::DTypeMismatch { op: "arith.constant".into(), expected: s.mlir().into(), got: format!("float literal {f}") };
            with(|bd| bd.fail(kind, loc.clone()));
            return None;
        }
        (Operand::Val(v), _) => return Some(v),
    };
    Some(emit(OpKind::Const(c), &[], Type::scalar(s), loc.clone()))
}

/// Applies a binary op with implicit splat / broadcast.
pub(crate) fn binary_at(op: BinOp, a: Operand, b: Operand, loc: &Loc) -> Val {
    let Some((a, b)) = unify("arith.binary", a, b, loc) else {
        return with(|bd| Val(bd.kernel.new_value(Type::scalar(Scalar::I32))));
    };
    let s = num(a).unwrap_or(Scalar::I32);
    let int_only = matches!(op, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr | BinOp::ShrU);
    if int_only && s.is_float() {
        let kind = DslErrorKind::DTypeMismatch { op: format!("{op:?}").to_lowercase(), expected: "integers".into(), got: s.mlir().into() };
        return fail(kind, loc.clone(), a.ty());
    }
    emit(OpKind::Binary(op), &[a, b], a.ty(), loc.clone())
}

/// Elementwise comparison producing an `i1` tile (or scalar).
#[track_caller]
pub fn cmp(pred: CmpPred, a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    let Some((a, b)) = unify("arith.cmp", a.into(), b.into(), &loc) else {
        return with(|bd| Val(bd.kernel.new_value(Type::scalar(Scalar::I1))));
    };
    emit(OpKind::Cmp(pred), &[a, b], a.ty().with_elem(Elem::Num(Scalar::I1)), loc)
}

/// Elementwise `cond ? a : b`.
#[track_caller]
pub fn select(cond: Val, a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    let (a, b) = (a.into(), b.into());
    if let (Operand::Val(pa), Operand::Val(pb)) = (&a, &b) {
        if matches!(pa.elem(), Elem::Ptr(_)) || matches!(pb.elem(), Elem::Ptr(_)) {
            return select_ptr(cond, *pa, *pb, loc);
        }
    }
    let Some((a, b)) = unify("arith.select", a, b, &loc) else {
        return with(|bd| Val(bd.kernel.new_value(Type::scalar(Scalar::I32))));
    };
    if num(cond) != Some(Scalar::I1) {
        let kind = DslErrorKind::DTypeMismatch { op: "arith.select".into(), expected: "an i1 condition".into(), got: cond.ty().to_string() };
        return fail(kind, loc, a.ty());
    }
    let Some(shape) = broadcast_shape(cond.ty().shape(), a.ty().shape()) else {
        let kind = DslErrorKind::ShapeMismatch { op: "arith.select".into(), lhs: cond.ty().to_string(), rhs: a.ty().to_string() };
        return fail(kind, loc, a.ty());
    };
    let (a, b) = (broadcast_to_at(a, &shape, &loc), broadcast_to_at(b, &shape, &loc));
    let cond = if cond.ty().is_tensor() { broadcast_to_at(cond, &shape, &loc) } else { cond };
    emit(OpKind::Select, &[cond, a, b], a.ty(), loc)
}

/// `cond ? a : b` of two scalar pointers to one element type, on a scalar `i1` (a tile reads
/// from one buffer or another, e.g. its own or a peer's, without duplicating the code that
/// reads it in both arms of an `if`).
fn select_ptr(cond: Val, a: Val, b: Val, loc: Loc) -> Val {
    let scalar_ptr = |v: Val| matches!(v.ty(), Type::Val { elem: Elem::Ptr(_), ref shape } if shape.is_empty());
    if !scalar_ptr(a) || a.ty() != b.ty() {
        let kind = DslErrorKind::DTypeMismatch { op: "arith.select".into(), expected: format!("two scalar pointers of one type, {}", a.ty()), got: b.ty().to_string() };
        return fail(kind, loc, a.ty());
    }
    if cond.ty() != Type::scalar(Scalar::I1) {
        let kind = DslErrorKind::DTypeMismatch { op: "arith.select".into(), expected: "a scalar i1 condition (pointers)".into(), got: cond.ty().to_string() };
        return fail(kind, loc, a.ty());
    }
    emit(OpKind::Select, &[cond, a, b], a.ty(), loc)
}

fn unary(op: UnOp, a: Val, loc: Loc) -> Val {
    match num(a) {
        Some(s) if s.is_fp8() => fail(fp8_arith(&format!("math.{op:?}").to_lowercase(), s), loc, a.ty()),
        Some(s) if s.is_float() || (op == UnOp::Abs && s != Scalar::I1) => emit(OpKind::Unary(op), &[a], a.ty(), loc),
        _ => {
            let kind = DslErrorKind::DTypeMismatch { op: format!("math.{op:?}").to_lowercase(), expected: "a float".into(), got: a.ty().to_string() };
            fail(kind, loc, a.ty())
        }
    }
}

/// Elementwise `e^x`.
#[track_caller]
pub fn exp(a: Val) -> Val {
    unary(UnOp::Exp, a, Loc::caller())
}
/// Elementwise natural log.
#[track_caller]
pub fn log(a: Val) -> Val {
    unary(UnOp::Log, a, Loc::caller())
}
/// Elementwise square root.
#[track_caller]
pub fn sqrt(a: Val) -> Val {
    unary(UnOp::Sqrt, a, Loc::caller())
}
/// Elementwise absolute value.
#[track_caller]
pub fn abs(a: Val) -> Val {
    unary(UnOp::Abs, a, Loc::caller())
}
/// Elementwise maximum.
#[track_caller]
pub fn maximum(a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    binary_at(BinOp::Max, a.into(), b.into(), &Loc::caller())
}
/// Elementwise minimum.
#[track_caller]
pub fn minimum(a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    binary_at(BinOp::Min, a.into(), b.into(), &Loc::caller())
}
/// Elementwise logical shift right.
#[track_caller]
pub fn shr_u(a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    binary_at(BinOp::ShrU, a.into(), b.into(), &Loc::caller())
}

impl Val {
    /// `self < rhs`
    #[track_caller]
    pub fn lt(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Lt, self, rhs)
    }
    /// `self <= rhs`
    #[track_caller]
    pub fn le(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Le, self, rhs)
    }
    /// `self > rhs`
    #[track_caller]
    pub fn gt(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Gt, self, rhs)
    }
    /// `self >= rhs`
    #[track_caller]
    pub fn ge(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Ge, self, rhs)
    }
    /// `self == rhs`
    #[track_caller]
    pub fn eq_(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Eq, self, rhs)
    }
    /// `self != rhs`
    #[track_caller]
    pub fn ne_(self, rhs: impl Into<Operand>) -> Val {
        cmp(CmpPred::Ne, self, rhs)
    }
    /// Numeric conversion to `to`.
    #[track_caller]
    pub fn to(self, to: Scalar) -> Val {
        cast_at(self, to, CastKind::Convert, &Loc::caller())
    }
}

macro_rules! binop_impl {
    ($trait:ident, $method:ident, $op:expr) => {
        impl<R: Into<Operand>> std::ops::$trait<R> for Val {
            type Output = Val;
            #[track_caller]
            fn $method(self, rhs: R) -> Val {
                let loc = Loc::caller();
                let rhs = rhs.into();
                if matches!(self.elem(), Elem::Ptr(_)) && $op == BinOp::Add {
                    return super::tile::addptr_at(self, rhs, &loc);
                }
                if matches!(self.elem(), Elem::Ptr(_)) && $op == BinOp::Sub {
                    let neg = match rhs {
                        Operand::Int(i) => Operand::Int(-i),
                        other => Operand::Val(binary_at(BinOp::Sub, Operand::Int(0), other, &loc)),
                    };
                    return super::tile::addptr_at(self, neg, &loc);
                }
                binary_at($op, Operand::Val(self), rhs, &loc)
            }
        }
        impl std::ops::$trait<Val> for i32 {
            type Output = Val;
            #[track_caller]
            fn $method(self, rhs: Val) -> Val {
                binary_at($op, Operand::Int(self as i64), Operand::Val(rhs), &Loc::caller())
            }
        }
        impl std::ops::$trait<Val> for i64 {
            type Output = Val;
            #[track_caller]
            fn $method(self, rhs: Val) -> Val {
                binary_at($op, Operand::Int(self), Operand::Val(rhs), &Loc::caller())
            }
        }
        impl std::ops::$trait<Val> for f32 {
            type Output = Val;
            #[track_caller]
            fn $method(self, rhs: Val) -> Val {
                binary_at($op, Operand::Float(self as f64), Operand::Val(rhs), &Loc::caller())
            }
        }
    };
}

binop_impl!(Add, add, BinOp::Add);
binop_impl!(Sub, sub, BinOp::Sub);
binop_impl!(Mul, mul, BinOp::Mul);
binop_impl!(Div, div, BinOp::Div);
binop_impl!(Rem, rem, BinOp::Rem);
binop_impl!(BitAnd, bitand, BinOp::And);
binop_impl!(BitOr, bitor, BinOp::Or);
binop_impl!(BitXor, bitxor, BinOp::Xor);
binop_impl!(Shl, shl, BinOp::Shl);
binop_impl!(Shr, shr, BinOp::Shr);

impl std::ops::Neg for Val {
    type Output = Val;
    #[track_caller]
    fn neg(self) -> Val {
        let loc = Loc::caller();
        match num(self) {
            Some(s) if s.is_fp8() => fail(fp8_arith("arith.negf", s), loc, self.ty()),
            Some(s) if s.is_float() => emit(OpKind::Unary(UnOp::Neg), &[self], self.ty(), loc),
            _ => binary_at(BinOp::Sub, Operand::Int(0), Operand::Val(self), &loc),
        }
    }
}
