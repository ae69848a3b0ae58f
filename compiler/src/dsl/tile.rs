//! `tile` ops: program ids, ranges, splat / broadcast, pointers, masked memory access,
//! reductions and `dot`.

use super::arith::{binary_at, broadcast_shape, broadcast_to_at, constant, Operand};
use super::{emit, emit0, fail, with, DslErrorKind, Val};
use crate::ir::{BinOp, CastKind, Elem, Loc, OpKind, ReduceKind, Scalar, Type};

fn check_axis(axis: u32, op: &str, loc: &Loc) -> bool {
    if axis > 2 {
        with(|b| b.fail(DslErrorKind::Invalid { op: op.into(), message: format!("axis {axis} is not 0, 1 or 2") }, loc.clone()));
        return false;
    }
    true
}

/// This program instance's index along `axis` (0..=2).
#[track_caller]
pub fn program_id(axis: u32) -> Val {
    let loc = Loc::caller();
    check_axis(axis, "tile.program_id", &loc);
    emit(OpKind::ProgramId(axis.min(2)), &[], Type::scalar(Scalar::I32), loc)
}

/// The number of program instances along `axis` (0..=2).
#[track_caller]
pub fn num_programs(axis: u32) -> Val {
    let loc = Loc::caller();
    check_axis(axis, "tile.num_programs", &loc);
    emit(OpKind::NumPrograms(axis.min(2)), &[], Type::scalar(Scalar::I32), loc)
}

/// `[start, end)` as an `i32` tile.
#[track_caller]
pub fn arange(start: i32, end: i32) -> Val {
    let loc = Loc::caller();
    if end <= start {
        let kind = DslErrorKind::Invalid { op: "tile.make_range".into(), message: format!("empty range {start}..{end}") };
        return fail(kind, loc, Type::tensor(Elem::Num(Scalar::I32), vec![1]));
    }
    emit(OpKind::MakeRange(start, end), &[], Type::tensor(Elem::Num(Scalar::I32), vec![(end - start) as usize]), loc)
}

/// A tile of `shape` filled with `value` of type `s`.
#[track_caller]
pub fn full(shape: &[usize], value: impl Into<Operand>, s: Scalar) -> Val {
    constant(value, s, shape)
}

/// A tile of zeros.
#[track_caller]
pub fn zeros(shape: &[usize], s: Scalar) -> Val {
    constant(0, s, shape)
}

/// Splats a scalar (number or pointer) to a tile of `shape`.
#[track_caller]
pub fn splat(v: Val, shape: &[usize]) -> Val {
    let loc = Loc::caller();
    if v.ty().is_tensor() {
        let kind = DslErrorKind::Invalid { op: "tile.splat".into(), message: format!("operand is already a tile ({})", v.ty()) };
        return fail(kind, loc, v.ty());
    }
    emit(OpKind::Splat, &[v], v.ty().with_shape(shape.to_vec()), loc)
}

/// Broadcasts `v` to `shape` (size-1 dims grow; scalars splat).
#[track_caller]
pub fn broadcast_to(v: Val, shape: &[usize]) -> Val {
    broadcast_to_at(v, shape, &Loc::caller())
}

/// Inserts a size-1 dimension at `axis` (`x[None, :]` is `expand_dims(x, 0)`).
#[track_caller]
pub fn expand_dims(v: Val, axis: u32) -> Val {
    let loc = Loc::caller();
    let mut shape = v.shape();
    if axis as usize > shape.len() || shape.is_empty() {
        let kind = DslErrorKind::Invalid { op: "tile.expand_dims".into(), message: format!("axis {axis} out of range for {}", v.ty()) };
        return fail(kind, loc, v.ty());
    }
    shape.insert(axis as usize, 1);
    emit(OpKind::ExpandDims(axis), &[v], v.ty().with_shape(shape), loc)
}

/// `ptrs + offsets` in elements (also reached through `+` on pointers).
#[track_caller]
pub fn addptr(ptrs: Val, offsets: impl Into<Operand>) -> Val {
    addptr_at(ptrs, offsets.into(), &Loc::caller())
}

pub(crate) fn addptr_at(ptrs: Val, off: Operand, loc: &Loc) -> Val {
    let off = match off {
        Operand::Val(v) => v,
        Operand::Int(i) => constant(i, Scalar::I64, &[]),
        Operand::Float(f) => {
            let kind = DslErrorKind::DTypeMismatch { op: "tile.addptr".into(), expected: "an integer offset".into(), got: f.to_string() };
            return fail(kind, loc.clone(), ptrs.ty());
        }
    };
    match off.elem() {
        Elem::Num(s) if s.is_int() && s != Scalar::I1 => {}
        _ => {
            let kind = DslErrorKind::DTypeMismatch { op: "tile.addptr".into(), expected: "an integer offset".into(), got: off.ty().to_string() };
            return fail(kind, loc.clone(), ptrs.ty());
        }
    }
    if !matches!(ptrs.elem(), Elem::Ptr(_)) {
        let kind = DslErrorKind::DTypeMismatch { op: "tile.addptr".into(), expected: "a pointer".into(), got: ptrs.ty().to_string() };
        return fail(kind, loc.clone(), ptrs.ty());
    }
    let Some(shape) = broadcast_shape(ptrs.ty().shape(), off.ty().shape()) else {
        let kind = DslErrorKind::ShapeMismatch { op: "tile.addptr".into(), lhs: ptrs.ty().to_string(), rhs: off.ty().to_string() };
        return fail(kind, loc.clone(), ptrs.ty());
    };
    let ptrs = broadcast_to_at(ptrs, &shape, loc);
    let off = broadcast_to_at(off, &shape, loc);
    emit(OpKind::AddPtr, &[ptrs, off], ptrs.ty(), loc.clone())
}

/// Reinterprets pointers as pointers to `elem`.
#[track_caller]
pub fn ptr_cast(ptrs: Val, elem: Scalar) -> Val {
    let loc = Loc::caller();
    if !matches!(ptrs.elem(), Elem::Ptr(_)) {
        let kind = DslErrorKind::DTypeMismatch { op: "tile.ptr_cast".into(), expected: "a pointer".into(), got: ptrs.ty().to_string() };
        return fail(kind, loc, ptrs.ty());
    }
    emit(OpKind::PtrCast, &[ptrs], ptrs.ty().with_elem(Elem::Ptr(elem)), loc)
}

fn pointee(ptrs: Val, op: &str, loc: &Loc) -> Option<Scalar> {
    match ptrs.elem() {
        Elem::Ptr(s) => Some(s),
        Elem::Num(_) => {
            let kind = DslErrorKind::DTypeMismatch { op: op.into(), expected: "pointers".into(), got: ptrs.ty().to_string() };
            with(|b| b.fail(kind, loc.clone()));
            None
        }
    }
}

/// Checks that an optional mask is `i1` and broadcasts it to `shape`.
fn mask_for(mask: Val, shape: &[usize], op: &str, loc: &Loc) -> Option<Val> {
    if mask.elem() != Elem::Num(Scalar::I1) {
        let kind = DslErrorKind::DTypeMismatch { op: op.into(), expected: "an i1 mask".into(), got: mask.ty().to_string() };
        with(|b| b.fail(kind, loc.clone()));
        return None;
    }
    match broadcast_shape(shape, mask.ty().shape()) {
        Some(s) if s == shape => Some(broadcast_to_at(mask, shape, loc)),
        _ => {
            let kind = DslErrorKind::ShapeMismatch { op: op.into(), lhs: format!("{shape:?}"), rhs: mask.ty().to_string() };
            with(|b| b.fail(kind, loc.clone()));
            None
        }
    }
}

pub(crate) fn masked_operands(ptrs: Val, mask: Option<Val>, op: &str, loc: &Loc) -> Option<(Scalar, Vec<Val>)> {
    let s = pointee(ptrs, op, loc)?;
    let mut ops = vec![ptrs];
    if let Some(m) = mask {
        ops.push(mask_for(m, ptrs.ty().shape(), op, loc)?);
    }
    Some((s, ops))
}

/// Loads from every pointer.
#[track_caller]
pub fn load(ptrs: Val) -> Val {
    load_at(ptrs, None, None, &Loc::caller())
}

/// Loads where `mask` is set; other lanes are `other`.
#[track_caller]
pub fn load_masked(ptrs: Val, mask: Val, other: impl Into<Operand>) -> Val {
    load_at(ptrs, Some(mask), Some(other.into()), &Loc::caller())
}

fn load_at(ptrs: Val, mask: Option<Val>, other: Option<Operand>, loc: &Loc) -> Val {
    let ty = ptrs.ty();
    let Some((s, mut ops)) = masked_operands(ptrs, mask, "tile.load", loc) else {
        return with(|b| Val(b.kernel.new_value(ty.with_elem(Elem::Num(Scalar::I32)))));
    };
    let res = ty.with_elem(Elem::Num(s));
    if let Some(o) = other {
        let o = match o {
            Operand::Val(v) => super::arith::cast_at(v, s, CastKind::Convert, loc),
            lit => constant(lit, s, &[]),
        };
        ops.push(broadcast_to_at(o, ty.shape(), loc));
    }
    let kind = OpKind::Load { mask: mask.is_some(), other: other.is_some() };
    emit(kind, &ops, res, loc.clone())
}

/// Stores `value` to every pointer.
#[track_caller]
pub fn store(ptrs: Val, value: impl Into<Operand>) {
    store_at(ptrs, value.into(), None, &Loc::caller())
}

/// Stores `value` where `mask` is set.
#[track_caller]
pub fn store_masked(ptrs: Val, value: impl Into<Operand>, mask: Val) {
    store_at(ptrs, value.into(), Some(mask), &Loc::caller())
}

fn store_at(ptrs: Val, value: Operand, mask: Option<Val>, loc: &Loc) {
    let Some((s, mut ops)) = masked_operands(ptrs, mask, "tile.store", loc) else { return };
    let v = match value {
        Operand::Val(v) => v,
        lit => constant(lit, s, &[]),
    };
    if v.elem() != Elem::Num(s) {
        let kind = DslErrorKind::DTypeMismatch { op: "tile.store".into(), expected: s.mlir().into(), got: v.ty().to_string() };
        with(|b| b.fail(kind, loc.clone()));
        return;
    }
    if broadcast_shape(ptrs.ty().shape(), v.ty().shape()).as_deref() != Some(ptrs.ty().shape()) {
        let kind = DslErrorKind::ShapeMismatch { op: "tile.store".into(), lhs: ptrs.ty().to_string(), rhs: v.ty().to_string() };
        with(|b| b.fail(kind, loc.clone()));
        return;
    }
    let v = broadcast_to_at(v, ptrs.ty().shape(), loc);
    ops.insert(1, v);
    emit0(OpKind::Store { mask: mask.is_some() }, &ops, loc.clone());
}

fn reduce(v: Val, axis: u32, kind: ReduceKind, loc: Loc) -> Val {
    let mut shape = v.shape();
    if axis as usize >= shape.len() {
        let k = DslErrorKind::Invalid { op: "tile.reduce".into(), message: format!("axis {axis} out of range for {}", v.ty()) };
        return fail(k, loc, v.ty());
    }
    if !matches!(v.elem(), Elem::Num(s) if s != Scalar::I1) {
        let k = DslErrorKind::DTypeMismatch { op: "tile.reduce".into(), expected: "numbers".into(), got: v.ty().to_string() };
        return fail(k, loc, v.ty());
    }
    if let Elem::Num(s) = v.elem().clone() {
        if s.is_fp8() {
            return fail(super::arith::fp8_arith("tile.reduce", s), loc, v.ty());
        }
    }
    shape.remove(axis as usize);
    emit(OpKind::Reduce(kind, axis), &[v], v.ty().with_shape(shape), loc)
}

/// Sum along `axis` (a 1-D tile reduces to a scalar).
#[track_caller]
pub fn sum(v: Val, axis: u32) -> Val {
    reduce(v, axis, ReduceKind::Sum, Loc::caller())
}

/// Maximum along `axis`.
#[track_caller]
pub fn max(v: Val, axis: u32) -> Val {
    reduce(v, axis, ReduceKind::Max, Loc::caller())
}

/// Minimum along `axis`.
#[track_caller]
pub fn min(v: Val, axis: u32) -> Val {
    reduce(v, axis, ReduceKind::Min, Loc::caller())
}

/// `acc + a @ b` for `a: MxK`, `b: KxN`, `acc: MxN` (f32 accumulation).
#[track_caller]
pub fn dot(a: Val, b: Val, acc: Val) -> Val {
    let loc = Loc::caller();
    let (sa, sb, sc) = (a.shape(), b.shape(), acc.shape());
    if sa.len() != 2 || sb.len() != 2 || sc.len() != 2 || sa[1] != sb[0] || sc != [sa[0], sb[1]] {
        let k = DslErrorKind::ShapeMismatch { op: "tile.dot".into(), lhs: format!("{} x {}", a.ty(), b.ty()), rhs: acc.ty().to_string() };
        return fail(k, loc, acc.ty());
    }
    if a.elem() != b.elem() || matches!(a.elem(), Elem::Num(s) if s.is_fp8()) || !matches!(acc.elem(), Elem::Num(Scalar::F32) | Elem::Num(Scalar::I32)) {
        let k = DslErrorKind::DTypeMismatch { op: "tile.dot".into(), expected: "matching a/b and an f32 accumulator".into(), got: format!("{}, {}, {}", a.ty(), b.ty(), acc.ty()) };
        return fail(k, loc, acc.ty());
    }
    emit(OpKind::Dot, &[a, b, acc], acc.ty(), loc)
}

/// Ceiling division of two scalars or tiles.
#[track_caller]
pub fn cdiv(a: impl Into<Operand>, b: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    let (a, b) = (a.into(), b.into());
    let sum = binary_at(BinOp::Add, a, b, &loc);
    let sum = binary_at(BinOp::Sub, Operand::Val(sum), Operand::Int(1), &loc);
    binary_at(BinOp::Div, Operand::Val(sum), b, &loc)
}

/// Orders the program instance's memory accesses: every access before the barrier completes
/// before any after it. Loads and stores of one buffer are already ordered where a GPU's
/// threads split tiles alike; this is for a buffer reused with another thread split (a load
/// in one tile layout, then a store of the same bytes in another).
#[track_caller]
pub fn barrier() {
    emit0(OpKind::Barrier, &[], Loc::caller())
}
