//! The kernel body: every program instance looks up its thread block's shape and table row,
//! then runs the shape's steps once per pipeline iteration. Thread blocks with the same
//! shape share one code body; their peers and chunk indices come from the table.

use super::layout::{buffer_slot, Layout, RowField, StepShape, TbShape, HEADER_FIELDS, ROW_HEADER, STEP_FIELDS};
use super::proto::{for_words, Link, Span};
use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::{Kernel, Scalar};
use crate::msccl::ir::StepKind;
use crate::msccl::protocol::Protocol;

/// Kernel arguments, in ABI order.
pub const ARGS: [&str; 11] = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"];

/// Values every step of one pipeline iteration uses.
struct Iter<'a> {
    link: &'a Link,
    t: Scalar,
    acc: Scalar,
    block: i64,
    bufs: [Val; 3],
    table_row: Val,
    ce: Val,
    /// Pipeline iteration.
    it: Val,
    /// Pipeline iterations.
    tiles: Val,
    /// Element offset of this iteration's tile within a chunk.
    off: Val,
    /// Elements in this iteration's tile.
    len: Val,
    sig: Val,
    deps_base: i64,
    me: Val,
}

/// Builds the kernel `name` for `layout` with element type `t` and elementwise tile `block`.
pub fn build(name: &str, layout: &Layout, t: Scalar, block: i64, constexprs: &Constexprs) -> Result<Kernel, DslError> {
    kernel(name, constexprs, |a| {
        let slot_ty = if layout.protocol == Protocol::Simple { t } else { Scalar::I64 };
        let bufs = [a.ptr(ARGS[0], t), a.ptr(ARGS[1], t), a.ptr(ARGS[2], t)];
        let (slot_buf, stage, sig, table) = (a.ptr(ARGS[3], slot_ty), a.ptr(ARGS[4], t), a.ptr(ARGS[5], Scalar::I64), a.ptr(ARGS[6], Scalar::I64));
        let (ce, te, seg, base) = (a.i64(ARGS[7]), a.i64(ARGS[8]), a.i64(ARGS[9]), a.i64(ARGS[10]));
        let (me, pid) = (my_pe(), program_id(0));
        let header = table + (me.to(Scalar::I64) * layout.grid as i64 + pid.to(Scalar::I64)) * HEADER_FIELDS as i64;
        let (shape_id, row) = (load(header), load(header + 1));
        let max_count = layout.max_count as i64;
        let field = |f: RowField| load(table + row + f as i64);
        for (id, shape) in layout.shapes.iter().enumerate() {
            if_(shape_id.eq_(id as i64), || {
                let link = Link {
                    protocol: layout.protocol,
                    t,
                    block,
                    slots: layout.slots as i64,
                    max_count,
                    slot_buf,
                    stage: stage + pid.to(Scalar::I64) * (te * max_count),
                    sig,
                    credit_base: layout.max_in as i64,
                    te,
                    seg,
                    base,
                    send_peer: field(RowField::SendPeer).to(Scalar::I32),
                    peer_in: field(RowField::PeerInIdx),
                    my_out: field(RowField::MyOutIdx),
                    recv_peer: field(RowField::RecvPeer).to(Scalar::I32),
                    my_in: field(RowField::MyInIdx),
                    peer_out: field(RowField::PeerOutIdx),
                };
                let acc = if t == Scalar::I32 { Scalar::I32 } else { Scalar::F32 };
                let tiles = cdiv(ce, te);
                for_range(constant(0, Scalar::I64, &[]), tiles, 1, |it| {
                    let off = it * te;
                    let len = minimum(te, ce - off);
                    let deps_base = (layout.max_in + layout.max_out) as i64;
                    let cx = Iter { link: &link, t, acc, block, bufs, table_row: table + row, ce, it, tiles, off, len, sig, deps_base, me };
                    run_steps(&cx, shape);
                });
            });
        }
        Ok(())
    })
}

/// One pipeline iteration of a thread block.
fn run_steps(cx: &Iter, shape: &TbShape) {
    for (s, step) in shape.steps.iter().enumerate() {
        let field = |f: usize| load(cx.table_row + (ROW_HEADER + s * STEP_FIELDS + f) as i64);
        if step.dep {
            let _ = wait_until(cx.sig + cx.deps_base + field(2), Cmp::Ge, cx.link.base + cx.it + 1);
        }
        run_step(cx, step, shape, |f| field(f));
        if step.done {
            signal_op(cx.sig + cx.deps_base + field(3), cx.link.base + cx.it + 1, Signal::Set, cx.me);
        }
    }
}

/// The data movement of one step.
fn run_step(cx: &Iter, step: &StepShape, shape: &TbShape, field: impl Fn(usize) -> Val) {
    let chunk = |b: Option<crate::msccl::Buffer>, f: usize| {
        let b = b.expect("the layout records the buffer of every operand the kind uses");
        Span { ptr: cx.bufs[buffer_slot(b)] + field(f) * cx.ce + cx.off, stride: cx.ce }
    };
    let (n, len) = (step.count, cx.len);
    let send_k = step.send_j.map(|j| cx.it * shape.sends as i64 + j as i64);
    let recv_k = step.recv_j.map(|j| cx.it * shape.recvs as i64 + j as i64);
    let msg = recv_k.map(|k| cx.link.recv(n, len, k));
    let send = |from: Span| cx.link.send(from, n, len, send_k.expect("a sending kind has a send index"));
    let stage = Span { ptr: cx.link.stage, stride: cx.link.te };
    match step.kind {
        StepKind::Send => send(chunk(step.src, 0)),
        StepKind::Recv => copy(cx, chunk(step.dst, 1), msg.expect("recv"), n),
        StepKind::RecvCopySend => {
            let m = msg.expect("rcs");
            copy(cx, chunk(step.dst, 1), m, n);
            send(m);
        }
        StepKind::RecvReduceSend => {
            add(cx, stage, msg.expect("rrs"), chunk(step.src, 0), n);
            send(stage);
        }
        StepKind::RecvReduceCopy => add(cx, chunk(step.dst, 1), msg.expect("rrc"), chunk(step.src, 0), n),
        StepKind::RecvReduceCopySend => {
            let dst = chunk(step.dst, 1);
            add(cx, dst, msg.expect("rrcs"), chunk(step.src, 0), n);
            send(dst);
        }
        StepKind::Copy => copy(cx, chunk(step.dst, 1), chunk(step.src, 0), n),
        StepKind::Reduce => {
            let dst = chunk(step.dst, 1);
            add(cx, dst, dst, chunk(step.src, 0), n);
        }
        StepKind::Nop => {}
    }
    if let Some(k) = recv_k {
        cx.link.credit(k, cx.tiles * shape.recvs as i64);
    }
}

/// `dst = src` over `count` tiles.
fn copy(cx: &Iter, dst: Span, src: Span, count: usize) {
    for i in 0..count {
        elementwise(cx, |o, m| store_masked(dst.at(i) + o, load_masked(src.at(i) + o, m, 0), m));
    }
}

/// `dst = a + b` over `count` tiles, summed in the accumulator type and rounded once.
fn add(cx: &Iter, dst: Span, a: Span, b: Span, count: usize) {
    for i in 0..count {
        elementwise(cx, |o, m| {
            let sum = load_masked(a.at(i) + o, m, 0).to(cx.acc) + load_masked(b.at(i) + o, m, 0).to(cx.acc);
            store_masked(dst.at(i) + o, sum.to(cx.t), m);
        });
    }
}

/// Runs `body(offsets, mask)` over this iteration's tile.
fn elementwise(cx: &Iter, body: impl FnMut(Val, Val)) {
    for_words(cx.len, cx.block, body)
}
