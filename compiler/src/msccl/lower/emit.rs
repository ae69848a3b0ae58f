//! The kernel body: every program instance looks up its thread block's shape and table row,
//! then runs its steps once per pipeline iteration. Thread blocks with the same shape share one
//! code body; their peers and chunk indices come from the table. Algorithms with many step
//! bodies instead run one table-driven step loop, with one code body per step kind.

use super::layout::{buffer_slot, Layout, RowField, StepField, TbShape, HEADER_FIELDS, ROW_HEADER, STEP_FIELDS};
use super::proto::{for_count, for_words, Link, Span};
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

/// One step's operands, static or read from the table.
struct StepOps {
    kind: StepKind,
    count: Val,
    src: Option<Span>,
    dst: Option<Span>,
    send_k: Option<Val>,
    recv_k: Option<Val>,
    /// Messages the thread block receives per launch.
    recv_total: Val,
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
        let bodies: Vec<Option<&TbShape>> = if layout.generic { vec![None] } else { layout.shapes.iter().map(Some).collect() };
        for (id, shape) in bodies.into_iter().enumerate() {
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
                    match shape {
                        Some(shape) => run_shape(&cx, shape),
                        None => run_table(&cx, &layout.kinds),
                    }
                });
            });
        }
        Ok(())
    })
}

impl Iter<'_> {
    /// The table entry `at` places past the start of this thread block's row.
    fn field(&self, at: Val) -> Val {
        load(self.table_row + at)
    }

    /// Chunks `chunk..` of the buffer whose base is `base`, from this iteration's tile on.
    fn chunks_of(&self, base: Val, chunk: Val) -> Span {
        Span { ptr: base + chunk * self.ce + self.off, stride: self.ce }
    }

    /// [`Iter::chunks_of`] the buffer numbered `buf` at run time.
    fn chunk(&self, buf: Val, chunk: Val) -> Span {
        let picked = if_else(buf.eq_(0i64), || vec![self.bufs[0]], || if_else(buf.eq_(1i64), || vec![self.bufs[1]], || vec![self.bufs[2]]));
        self.chunks_of(picked[0], chunk)
    }

    /// Waits for the step's dependency, runs it, signals its completion.
    fn step(&self, dep: Option<Val>, done: Option<Val>, ops: impl FnOnce()) {
        if let Some(d) = dep {
            let _ = wait_until(self.sig + self.deps_base + d, Cmp::Ge, self.link.base + self.it + 1);
        }
        ops();
        if let Some(d) = done {
            signal_op(self.sig + self.deps_base + d, self.link.base + self.it + 1, Signal::Set, self.me);
        }
    }
}

/// One pipeline iteration of a thread block whose steps are known at compile time.
fn run_shape(cx: &Iter, shape: &TbShape) {
    for (s, st) in shape.steps.iter().enumerate() {
        let f = |field: StepField| cx.field(constant((ROW_HEADER + s * STEP_FIELDS + field as usize) as i64, Scalar::I64, &[]));
        let base = |b: crate::msccl::Buffer| cx.bufs[buffer_slot(b)];
        let ops = StepOps {
            kind: st.kind,
            count: constant(st.count as i64, Scalar::I64, &[]),
            src: st.src.map(|b| cx.chunks_of(base(b), f(StepField::SrcChunk))),
            dst: st.dst.map(|b| cx.chunks_of(base(b), f(StepField::DstChunk))),
            send_k: st.send_j.map(|j| cx.it * shape.sends as i64 + j as i64),
            recv_k: st.recv_j.map(|j| cx.it * shape.recvs as i64 + j as i64),
            recv_total: cx.tiles * shape.recvs as i64,
        };
        cx.step(st.dep.then(|| f(StepField::Dep)), st.done.then(|| f(StepField::Done)), || run_step(cx, ops));
    }
}

/// One pipeline iteration of any thread block, its steps read from the table.
fn run_table(cx: &Iter, kinds: &[StepKind]) {
    let row = |field: RowField| cx.field(constant(field as i64, Scalar::I64, &[]));
    let (sends, recvs) = (row(RowField::Sends), row(RowField::Recvs));
    for_range(constant(0, Scalar::I64, &[]), row(RowField::Steps), 1, |s| {
        let f = |field: StepField| cx.field(s * STEP_FIELDS as i64 + (ROW_HEADER + field as usize) as i64);
        let (dep, done) = (f(StepField::Dep), f(StepField::Done));
        if_(dep.ge(0i64), || cx.step(Some(dep), None, || {}));
        let kind = f(StepField::Kind);
        for &k in kinds {
            let code = StepKind::ALL.iter().position(|&x| x == k).unwrap_or(0) as i64;
            if_(kind.eq_(code), || {
                let ops = StepOps {
                    kind: k,
                    count: f(StepField::Count),
                    src: k.reads_src().then(|| cx.chunk(f(StepField::SrcBuf), f(StepField::SrcChunk))),
                    dst: k.writes_dst().then(|| cx.chunk(f(StepField::DstBuf), f(StepField::DstChunk))),
                    send_k: k.sends().then(|| cx.it * sends + f(StepField::SendJ)),
                    recv_k: k.receives().then(|| cx.it * recvs + f(StepField::RecvJ)),
                    recv_total: cx.tiles * recvs,
                };
                run_step(cx, ops);
            });
        }
        if_(done.ge(0i64), || cx.step(None, Some(done), || {}));
    });
}

/// The data movement of one step.
fn run_step(cx: &Iter, op: StepOps) {
    let (n, len) = (op.count, cx.len);
    let msg = op.recv_k.map(|k| cx.link.recv(n, len, k));
    let send = |from: Span| cx.link.send(from, n, len, op.send_k.expect("a sending kind has a send index"));
    let stage = Span { ptr: cx.link.stage, stride: cx.link.te };
    let (src, dst) = (|| op.src.expect("a reading kind has a source"), || op.dst.expect("a writing kind has a destination"));
    match op.kind {
        StepKind::Send => send(src()),
        StepKind::Recv => copy(cx, dst(), msg.expect("recv"), n),
        StepKind::RecvCopySend => {
            let m = msg.expect("rcs");
            copy(cx, dst(), m, n);
            send(m);
        }
        StepKind::RecvReduceSend => {
            add(cx, stage, msg.expect("rrs"), src(), n);
            send(stage);
        }
        StepKind::RecvReduceCopy => add(cx, dst(), msg.expect("rrc"), src(), n),
        StepKind::RecvReduceCopySend => {
            add(cx, dst(), msg.expect("rrcs"), src(), n);
            send(dst());
        }
        StepKind::Copy => copy(cx, dst(), src(), n),
        StepKind::Reduce => add(cx, dst(), dst(), src(), n),
        StepKind::Nop => {}
    }
    if let Some(k) = op.recv_k {
        cx.link.credit(k, op.recv_total);
    }
}

/// `dst = src` over `count` tiles.
fn copy(cx: &Iter, dst: Span, src: Span, count: Val) {
    for_count(count, |i| elementwise(cx, |o, m| store_masked(dst.at(i) + o, load_masked(src.at(i) + o, m, 0), m)));
}

/// `dst = a + b` over `count` tiles, summed in the accumulator type and rounded once.
fn add(cx: &Iter, dst: Span, a: Span, b: Span, count: Val) {
    for_count(count, |i| {
        elementwise(cx, |o, m| {
            let sum = load_masked(a.at(i) + o, m, 0).to(cx.acc) + load_masked(b.at(i) + o, m, 0).to(cx.acc);
            store_masked(dst.at(i) + o, sum.to(cx.t), m);
        });
    });
}

/// Runs `body(offsets, mask)` over this iteration's tile.
fn elementwise(cx: &Iter, body: impl FnMut(Val, Val)) {
    for_words(cx.len, cx.block, body)
}
