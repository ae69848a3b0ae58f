//! `shmem` ops: OpenSHMEM-style one-sided communication, signals and ordering, plus
//! multimem and the LL protocol.

use super::arith::{cast_at, constant, Operand};
use super::tile::masked_operands;
use super::{emit, emit0, fail, with, DslErrorKind, Val};
use crate::ir::{CastKind, CmpPred, Elem, Loc, OpKind, Scalar, Scope, SigOp, Type};

pub use crate::ir::{CmpPred as Cmp, Scope as ShmemScope, SigOp as Signal};

fn int(o: impl Into<Operand>, s: Scalar, loc: &Loc) -> Val {
    match o.into() {
        Operand::Val(v) => cast_at(v, s, CastKind::Convert, loc),
        lit => constant(lit, s, &[]),
    }
}

fn expect_ptr(v: Val, elem: Option<Scalar>, op: &str, loc: &Loc) -> bool {
    let ok = match (v.ty(), elem) {
        (Type::Val { elem: Elem::Ptr(s), shape }, want) => shape.is_empty() && want.is_none_or(|w| w == s),
        _ => false,
    };
    if !ok {
        let expected = match elem {
            Some(s) => format!("a scalar !tile.ptr<{}>", s.mlir()),
            None => "a scalar pointer".into(),
        };
        let got = v.ty().to_string();
        with(|b| b.fail(DslErrorKind::DTypeMismatch { op: op.into(), expected, got }, loc.clone()));
    }
    ok
}

/// This rank (PE) index.
#[track_caller]
pub fn my_pe() -> Val {
    emit(OpKind::MyPe, &[], Type::scalar(Scalar::I32), Loc::caller())
}

/// The number of ranks (PEs).
#[track_caller]
pub fn n_pes() -> Val {
    emit(OpKind::NPes, &[], Type::scalar(Scalar::I32), Loc::caller())
}

/// The address of symmetric `ptrs` on rank `pe` (OpenSHMEM `shmem_ptr`, Triton-distributed `symm_at`).
#[track_caller]
pub fn remote_ptr(ptrs: Val, pe: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    if !matches!(ptrs.elem(), Elem::Ptr(_)) {
        let kind = DslErrorKind::DTypeMismatch { op: "shmem.remote_ptr".into(), expected: "pointers".into(), got: ptrs.ty().to_string() };
        return fail(kind, loc, ptrs.ty());
    }
    let pe = int(pe, Scalar::I32, &loc);
    emit(OpKind::RemotePtr, &[ptrs, pe], ptrs.ty(), loc)
}

fn transfer(kind: OpKind, dst: Val, src: Val, nelems: impl Into<Operand>, pe: impl Into<Operand>, loc: Loc) {
    let name = kind.name();
    let elem = match dst.elem() {
        Elem::Ptr(s) => Some(s),
        _ => None,
    };
    if !expect_ptr(dst, None, name, &loc) || !expect_ptr(src, elem, name, &loc) {
        return;
    }
    let n = int(nelems, Scalar::I64, &loc);
    let pe = int(pe, Scalar::I32, &loc);
    emit0(kind, &[dst, src, n, pe], loc);
}

/// Copies `nelems` from local `src` to symmetric `dst` on `pe`; returns when `src` is reusable.
#[track_caller]
pub fn put(dst: Val, src: Val, nelems: impl Into<Operand>, pe: impl Into<Operand>, scope: Scope) {
    transfer(OpKind::Put { scope, nbi: false }, dst, src, nelems, pe, Loc::caller())
}

/// Non-blocking `put`: complete only after `quiet` or `barrier_all`.
#[track_caller]
pub fn put_nbi(dst: Val, src: Val, nelems: impl Into<Operand>, pe: impl Into<Operand>, scope: Scope) {
    transfer(OpKind::Put { scope, nbi: true }, dst, src, nelems, pe, Loc::caller())
}

/// Copies `nelems` from symmetric `src` on `pe` to local `dst`.
#[track_caller]
pub fn get(dst: Val, src: Val, nelems: impl Into<Operand>, pe: impl Into<Operand>, scope: Scope) {
    transfer(OpKind::Get { scope, nbi: false }, dst, src, nelems, pe, Loc::caller())
}

/// Non-blocking `get`.
#[track_caller]
pub fn get_nbi(dst: Val, src: Val, nelems: impl Into<Operand>, pe: impl Into<Operand>, scope: Scope) {
    transfer(OpKind::Get { scope, nbi: true }, dst, src, nelems, pe, Loc::caller())
}

/// Options of [`put_signal`].
#[derive(Clone, Copy, Debug)]
pub struct PutSignal {
    /// Cooperation scope.
    pub scope: Scope,
    /// Non-blocking.
    pub nbi: bool,
    /// Signal update.
    pub sig_op: SigOp,
}

impl Default for PutSignal {
    fn default() -> Self {
        PutSignal { scope: Scope::Block, nbi: false, sig_op: SigOp::Set }
    }
}

/// Puts `nelems` to `dst` on `pe`, then applies `opts.sig_op` with `sigval` to `sig` on `pe`,
/// with the data visible before the signal.
#[track_caller]
pub fn put_signal(
    dst: Val,
    src: Val,
    nelems: impl Into<Operand>,
    sig: Val,
    sigval: impl Into<Operand>,
    pe: impl Into<Operand>,
    opts: PutSignal,
) {
    let loc = Loc::caller();
    let elem = match dst.elem() {
        Elem::Ptr(s) => Some(s),
        _ => None,
    };
    let name = "shmem.put_signal";
    if !expect_ptr(dst, None, name, &loc) || !expect_ptr(src, elem, name, &loc) || !expect_ptr(sig, Some(Scalar::I64), name, &loc) {
        return;
    }
    let n = int(nelems, Scalar::I64, &loc);
    let v = int(sigval, Scalar::I64, &loc);
    let pe = int(pe, Scalar::I32, &loc);
    let kind = OpKind::PutSignal { scope: opts.scope, nbi: opts.nbi, sig_op: opts.sig_op };
    emit0(kind, &[dst, src, n, sig, v, pe], loc);
}

/// Applies `op` with `value` to the signal `sig` on `pe`.
#[track_caller]
pub fn signal_op(sig: Val, value: impl Into<Operand>, op: SigOp, pe: impl Into<Operand>) {
    let loc = Loc::caller();
    if !expect_ptr(sig, Some(Scalar::I64), "shmem.signal_op", &loc) {
        return;
    }
    let v = int(value, Scalar::I64, &loc);
    let pe = int(pe, Scalar::I32, &loc);
    emit0(OpKind::SignalOp(op), &[sig, v, pe], loc);
}

/// Waits until the local signal `sig` compares `cmp` to `value`; returns a token.
#[track_caller]
pub fn wait_until(sig: Val, cmp: CmpPred, value: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    if !expect_ptr(sig, Some(Scalar::I64), "shmem.signal_wait_until", &loc) {
        return with(|b| Val(b.kernel.new_value(Type::Token)));
    }
    let v = int(value, Scalar::I64, &loc);
    emit(OpKind::WaitUntil(cmp), &[sig, v], Type::Token, loc)
}

/// Returns `value`, ordered after the wait that produced `token` (loads through it cannot move above the wait).
#[track_caller]
pub fn consume_token(value: Val, token: Val) -> Val {
    let loc = Loc::caller();
    if token.ty() != Type::Token {
        let kind = DslErrorKind::DTypeMismatch { op: "shmem.consume_token".into(), expected: "!shmem.token".into(), got: token.ty().to_string() };
        return fail(kind, loc, value.ty());
    }
    emit(OpKind::ConsumeToken, &[value, token], value.ty(), loc)
}

/// Orders this instance's earlier puts before later ones to the same PE.
#[track_caller]
pub fn fence() {
    emit0(OpKind::Fence, &[], Loc::caller())
}

/// Completes this instance's outstanding non-blocking operations.
#[track_caller]
pub fn quiet() {
    emit0(OpKind::Quiet, &[], Loc::caller())
}

/// Quiet, then synchronise every program instance of every rank.
#[track_caller]
pub fn barrier_all() {
    emit0(OpKind::BarrierAll, &[], Loc::caller())
}

/// Stores `value` at `ptrs` on every rank of this node.
#[track_caller]
pub fn multimem_st(ptrs: Val, value: Val, mask: Option<Val>) {
    let loc = Loc::caller();
    let Some((s, mut ops)) = masked_operands(ptrs, mask, "shmem.multimem_st", &loc) else { return };
    if value.ty() != ptrs.ty().with_elem(Elem::Num(s)) {
        let kind = DslErrorKind::ShapeMismatch { op: "shmem.multimem_st".into(), lhs: ptrs.ty().to_string(), rhs: value.ty().to_string() };
        with(|b| b.fail(kind, loc.clone()));
        return;
    }
    ops.insert(1, value);
    emit0(OpKind::MultimemSt { mask: mask.is_some() }, &ops, loc);
}

/// Loads `ptrs` on every rank of this node and returns the elementwise sum.
#[track_caller]
pub fn multimem_ld_reduce(ptrs: Val, mask: Option<Val>) -> Val {
    let loc = Loc::caller();
    let ty = ptrs.ty();
    let Some((s, ops)) = masked_operands(ptrs, mask, "shmem.multimem_ld_reduce", &loc) else {
        return with(|b| Val(b.kernel.new_value(ty.with_elem(Elem::Num(Scalar::F32)))));
    };
    emit(OpKind::MultimemLdReduce { mask: mask.is_some() }, &ops, ty.with_elem(Elem::Num(s)), loc)
}

/// LL protocol: pairs each 32-bit word of `data` with `flag` as one 64-bit word (flag high).
#[track_caller]
pub fn ll_pack(data: Val, flag: impl Into<Operand>) -> Val {
    let loc = Loc::caller();
    if data.elem() != Elem::Num(Scalar::I32) || !data.ty().is_tensor() {
        let kind = DslErrorKind::DTypeMismatch { op: "shmem.ll_pack".into(), expected: "an i32 tile".into(), got: data.ty().to_string() };
        return fail(kind, loc, data.ty().with_elem(Elem::Num(Scalar::I64)));
    }
    let flag = int(flag, Scalar::I32, &loc);
    emit(OpKind::LlPack, &[data, flag], data.ty().with_elem(Elem::Num(Scalar::I64)), loc)
}

/// LL protocol: waits until every (masked) 64-bit word at `ptrs` carries `flag`, then returns the data words.
#[track_caller]
pub fn ll_recv(ptrs: Val, flag: impl Into<Operand>, mask: Option<Val>) -> Val {
    let loc = Loc::caller();
    let ty = ptrs.ty();
    let res = ty.with_elem(Elem::Num(Scalar::I32));
    let Some((s, mut ops)) = masked_operands(ptrs, mask, "shmem.ll_recv", &loc) else {
        return with(|b| Val(b.kernel.new_value(res)));
    };
    if s != Scalar::I64 || !ty.is_tensor() {
        let kind = DslErrorKind::DTypeMismatch { op: "shmem.ll_recv".into(), expected: "a tile of !tile.ptr<i64>".into(), got: ty.to_string() };
        return fail(kind, loc, res);
    }
    ops.insert(1, int(flag, Scalar::I32, &loc));
    emit(OpKind::LlRecv { mask: mask.is_some() }, &ops, res, loc)
}
