//! Structured control flow (`scf.for`, `scf.if`) built from closures.

use super::arith::{cast_at, Operand};
use super::{fail, with, DslErrorKind, Val};
use crate::ir::{Block, CastKind, Elem, Loc, OpKind, Scalar, Type, Value};

fn int_operand(o: Operand, s: Scalar, loc: &Loc) -> Val {
    match o {
        Operand::Val(v) => cast_at(v, s, CastKind::Convert, loc),
        lit => super::arith::constant(lit, s, &[]),
    }
}

fn loop_scalar(ops: &[Operand]) -> Scalar {
    let wide = ops.iter().any(|o| matches!(o, Operand::Val(v) if v.elem() == Elem::Num(Scalar::I64)));
    if wide { Scalar::I64 } else { Scalar::I32 }
}

/// Runs `body` inside a fresh block with `args`, returning the block and its yielded values.
fn region(args: &[Type], body: impl FnOnce(&[Val]) -> Vec<Val>) -> (Block, Vec<Val>) {
    let (block, vals) = with(|b| {
        let blk = b.kernel.new_block();
        let vals: Vec<Val> = args.iter().map(|t| Val(b.kernel.add_block_arg(blk, t.clone()))).collect();
        b.insert.push(blk);
        (blk, vals)
    });
    let out = body(&vals);
    (block, out)
}

fn close_region(block: Block, yielded: &[Val], loc: &Loc) {
    with(|b| {
        b.push(OpKind::Yield, yielded.iter().map(|v| v.0).collect(), vec![], vec![], loc.clone());
        debug_assert_eq!(b.insert.last(), Some(&block));
        b.insert.pop();
    });
}

/// `for i in (lo..hi).step_by(step) { body(i) }` (i32 unless a bound is i64).
#[track_caller]
pub fn for_range(lo: impl Into<Operand>, hi: impl Into<Operand>, step: impl Into<Operand>, body: impl FnOnce(Val)) {
    let loc = Loc::caller();
    for_carry_at(lo.into(), hi.into(), step.into(), &[], |i, _| {
        body(i);
        vec![]
    }, &loc);
}

/// A loop carrying `init` values: `body(i, carried) -> next`; returns the final values.
#[track_caller]
pub fn for_range_carry(
    lo: impl Into<Operand>,
    hi: impl Into<Operand>,
    step: impl Into<Operand>,
    init: &[Val],
    body: impl FnOnce(Val, &[Val]) -> Vec<Val>,
) -> Vec<Val> {
    for_carry_at(lo.into(), hi.into(), step.into(), init, body, &Loc::caller())
}

fn for_carry_at(lo: Operand, hi: Operand, step: Operand, init: &[Val], body: impl FnOnce(Val, &[Val]) -> Vec<Val>, loc: &Loc) -> Vec<Val> {
    let s = loop_scalar(&[lo, hi, step]);
    let (lo, hi, step) = (int_operand(lo, s, loc), int_operand(hi, s, loc), int_operand(step, s, loc));
    let mut arg_tys = vec![Type::scalar(s)];
    arg_tys.extend(init.iter().map(|v| v.ty()));
    let (block, yielded) = region(&arg_tys, |a| body(a[0], &a[1..]));
    let init_tys: Vec<Type> = init.iter().map(|v| v.ty()).collect();
    let yielded_tys: Vec<Type> = yielded.iter().map(|v| v.ty()).collect();
    if init_tys != yielded_tys {
        close_region(block, &[], loc);
        let kind = DslErrorKind::DTypeMismatch {
            op: "scf.for".into(),
            expected: format!("loop-carried types {init_tys:?}"),
            got: format!("{yielded_tys:?}"),
        };
        return init.iter().map(|v| fail(kind.clone(), loc.clone(), v.ty())).collect();
    }
    close_region(block, &yielded, loc);
    with(|b| {
        let mut operands: Vec<Value> = vec![lo.0, hi.0, step.0];
        operands.extend(init.iter().map(|v| v.0));
        let op = b.push(OpKind::For, operands, init_tys, vec![block], loc.clone());
        b.kernel.op(op).results.iter().map(|&r| Val(r)).collect()
    })
}

fn check_cond(cond: Val, loc: &Loc) -> bool {
    if cond.ty() != Type::scalar(Scalar::I1) {
        let kind = DslErrorKind::DTypeMismatch { op: "scf.if".into(), expected: "a scalar i1 condition".into(), got: cond.ty().to_string() };
        with(|b| b.fail(kind, loc.clone()));
        return false;
    }
    true
}

/// `if cond { then() }`.
#[track_caller]
pub fn if_(cond: Val, then: impl FnOnce()) {
    let loc = Loc::caller();
    if_else_at(cond, || {
        then();
        vec![]
    }, Vec::new, &loc);
}

/// `if cond { then() } else { els() }`, yielding values of matching types.
#[track_caller]
pub fn if_else(cond: Val, then: impl FnOnce() -> Vec<Val>, els: impl FnOnce() -> Vec<Val>) -> Vec<Val> {
    if_else_at(cond, then, els, &Loc::caller())
}

fn if_else_at(cond: Val, then: impl FnOnce() -> Vec<Val>, els: impl FnOnce() -> Vec<Val>, loc: &Loc) -> Vec<Val> {
    check_cond(cond, loc);
    let (tb, tv) = region(&[], |_| then());
    close_region(tb, &tv, loc);
    let (eb, ev) = region(&[], |_| els());
    let t_tys: Vec<Type> = tv.iter().map(|v| v.ty()).collect();
    let e_tys: Vec<Type> = ev.iter().map(|v| v.ty()).collect();
    if t_tys != e_tys {
        close_region(eb, &[], loc);
        let kind = DslErrorKind::DTypeMismatch { op: "scf.if".into(), expected: format!("{t_tys:?}"), got: format!("{e_tys:?}") };
        return tv.iter().map(|v| fail(kind.clone(), loc.clone(), v.ty())).collect();
    }
    close_region(eb, &ev, loc);
    with(|b| {
        let op = b.push(OpKind::If, vec![cond.0], t_tys, vec![tb, eb], loc.clone());
        b.kernel.op(op).results.iter().map(|&r| Val(r)).collect()
    })
}
