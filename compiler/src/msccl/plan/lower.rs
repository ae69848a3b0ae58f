//! Lowers a [`Plan`] onto one `tile` / `shmem` kernel: program instance `t` of rank `r` runs
//! thread block `t` of gpu `r`, its operations in order, each as the one-sided `shmem` code
//! the module documentation lists.
//!
//! Semaphores are i64 words of a symmetric signal buffer: on each rank its memory channels,
//! then its port channels, then its barriers. They are never reset: the kernel takes the
//! number of earlier launches, and the n-th wait of a launch on a semaphore that counts `k`
//! signals per launch waits for `launch * k + n`. Packets carry the flag `launch + 1`, and
//! with a double scratch buffer odd launches use its second half, as MSCCL++'s executor does.

use std::collections::BTreeMap;

use super::{ChannelKind, Chunks, Plan, PlanGpu, PlanOp, PlanOpKind, PlanTb};
use crate::msccl::buffer::Buffer;
use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::{Kernel, Scalar};
use crate::msccl::error::{MscclError, Result};
use crate::msccl::lower::{for_words, kernel_name, DTYPES};

/// Kernel arguments, in ABI order: the three buffers, the signal words, the chunk length in
/// elements (a whole number of 16-byte units) and the number of earlier launches. The scratch
/// buffer holds [`Plan::scratch_chunks`] chunks, twice the bytes with packets, twice again
/// with a double scratch buffer.
pub const PLAN_ARGS: [&str; 6] = ["inp", "out", "scratch", "sig", "ce", "launch"];

/// A lowered plan.
#[derive(Debug, Clone)]
pub struct PlanLowered {
    /// The kernel (arguments: [`PLAN_ARGS`]).
    pub kernel: Kernel,
    /// Program instances per rank (the most thread blocks of any gpu).
    pub grid: usize,
    /// i64 signal words per rank.
    pub signal_words: usize,
}

/// Lowers `plan` for element type `dtype`, with elementwise loops `block` wide.
pub fn lower_plan(plan: &Plan, dtype: Scalar, block: i64) -> Result<PlanLowered> {
    if !DTYPES.contains(&dtype) {
        return Err(MscclError::InvalidConfig(format!("cannot lower for {}: use f32, f16, bf16 or i32", dtype.mlir())));
    }
    if !(16..=1 << 14).contains(&block) || block.count_ones() != 1 {
        return Err(MscclError::InvalidConfig(format!("block {block} is not a power of two in 16..=16384")));
    }
    let name = kernel_name(&format!("pp_{}", plan.name));
    let constexprs = Constexprs::new().with("T", dtype.mlir()).with("BLOCK", block);
    let waits = wait_counts(plan);
    let kernel = kernel(&name, &constexprs, |a| {
        let bufs = [a.ptr(PLAN_ARGS[0], dtype), a.ptr(PLAN_ARGS[1], dtype), a.ptr(PLAN_ARGS[2], dtype)];
        let (sig, ce, launch) = (a.ptr(PLAN_ARGS[3], Scalar::I64), a.i64(PLAN_ARGS[4]), a.i64(PLAN_ARGS[5]));
        let (me, pid) = (my_pe().to(Scalar::I64), program_id(0).to(Scalar::I64));
        let flag = (launch + 1i64).to(Scalar::I32);
        let half = plan.scratch_chunks() as i64 * if plan.packets { 2 } else { 1 };
        let scratch_off = plan.double_scratch.then(|| launch % 2i64 * ce * half);
        for g in &plan.gpus {
            if_(me.eq_(g.id as i64), || {
                for tb in &g.tbs {
                    if_(pid.eq_(tb.id as i64), || {
                        let cx = Cx { plan, g, t: dtype, block, sig, ce, launch, flag, scratch_off, waits: &waits };
                        cx.threadblock(tb, bufs);
                    });
                }
            });
        }
        Ok(())
    })
    .map_err(|e| MscclError::Lowering(format!("{name}: {e}")))?;
    let grid = plan.gpus.iter().map(|g| g.tbs.len()).max().unwrap_or(0).max(1);
    let signal_words = plan.gpus.iter().map(|g| g.memory.len() + g.port.len() + barriers(g).len()).max().unwrap_or(0).max(1);
    Ok(PlanLowered { kernel, grid, signal_words })
}

/// Waits per launch on each (rank, channel kind, channel) semaphore.
fn wait_counts(plan: &Plan) -> BTreeMap<(usize, ChannelKind, usize), usize> {
    let mut out = BTreeMap::new();
    for g in &plan.gpus {
        for op in g.tbs.iter().flat_map(|t| &t.ops).filter(|o| o.kind == PlanOpKind::Wait) {
            for &(kind, c) in &op.channels {
                *out.entry((g.id, kind, c)).or_default() += 1;
            }
        }
    }
    out
}

/// A rank's barrier ids with (thread blocks, uses per thread block), in id order.
fn barriers(g: &PlanGpu) -> BTreeMap<usize, (usize, usize)> {
    let mut out: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for tb in &g.tbs {
        let mut uses: BTreeMap<usize, usize> = BTreeMap::new();
        for op in &tb.ops {
            if let PlanOpKind::Barrier { id, threadblocks } = op.kind {
                *uses.entry(id).or_default() += 1;
                out.insert(id, (threadblocks, 0));
            }
        }
        for (id, n) in uses {
            out.entry(id).or_default().1 = n;
        }
    }
    out
}

/// The signal word of `kind` channel `c` on rank `g`.
fn word(g: &PlanGpu, kind: ChannelKind, c: usize) -> i64 {
    (match kind {
        ChannelKind::Memory => c,
        ChannelKind::Port => g.memory.len() + c,
    }) as i64
}

/// What one thread block's code needs.
pub(super) struct Cx<'a> {
    plan: &'a Plan,
    g: &'a PlanGpu,
    pub(super) t: Scalar,
    pub(super) block: i64,
    sig: Val,
    ce: Val,
    launch: Val,
    /// This launch's packet flag (i32).
    pub(super) flag: Val,
    /// Elements from the scratch buffer's start to this launch's half (double scratch only).
    scratch_off: Option<Val>,
    waits: &'a BTreeMap<(usize, ChannelKind, usize), usize>,
}

impl Cx<'_> {
    fn threadblock(&self, tb: &PlanTb, mut bufs: [Val; 3]) {
        let mut waited: BTreeMap<(ChannelKind, usize), i64> = BTreeMap::new();
        let mut met: BTreeMap<usize, i64> = BTreeMap::new();
        let all_barriers = barriers(self.g);
        for op in &tb.ops {
            match op.kind {
                PlanOpKind::Nop => barrier(),
                PlanOpKind::Barrier { id, threadblocks } => {
                    let j = met.entry(id).or_default();
                    *j += 1;
                    let at = all_barriers.keys().position(|&b| b == id).unwrap_or(0);
                    let w = self.sig + (self.g.memory.len() + self.g.port.len() + at) as i64;
                    let n = threadblocks as i64;
                    let per_launch = n * all_barriers.get(&id).map_or(0, |b| b.1) as i64;
                    self.release();
                    signal_op(w, 1i64, Signal::Add, my_pe());
                    let tok = wait_until(w, Cmp::Ge, self.launch * per_launch + n * *j);
                    bufs = bufs.map(|b| consume_token(b, tok));
                }
                PlanOpKind::Put | PlanOpKind::PutSignal => {
                    let (lo, n) = self.part(op);
                    for (s, d) in op.srcs.iter().zip(&op.dsts) {
                        put(self.at(bufs, d) + lo, self.at(bufs, s) + lo, n, d.rank.unwrap_or(0) as i64, ShmemScope::Block);
                    }
                    if op.kind == PlanOpKind::PutSignal {
                        self.signal(op);
                    }
                }
                PlanOpKind::Get => {
                    let (lo, n) = self.part(op);
                    for (s, d) in op.srcs.iter().zip(&op.dsts) {
                        get(self.at(bufs, d) + lo, self.at(bufs, s) + lo, n, s.rank.unwrap_or(0) as i64, ShmemScope::Block);
                    }
                }
                PlanOpKind::Copy | PlanOpKind::Reduce => self.elementwise(op, bufs),
                PlanOpKind::Signal => self.signal(op),
                PlanOpKind::Wait => {
                    for &(kind, c) in &op.channels {
                        let n = waited.entry((kind, c)).or_default();
                        *n += 1;
                        let per_launch = self.waits.get(&(self.g.id, kind, c)).copied().unwrap_or(0) as i64;
                        let tok = wait_until(self.sig + word(self.g, kind, c), Cmp::Ge, self.launch * per_launch + *n);
                        bufs = bufs.map(|b| consume_token(b, tok));
                    }
                }
                PlanOpKind::Flush => quiet(),
                PlanOpKind::PutPackets | PlanOpKind::CopyPackets => self.write_packets(op, bufs),
                PlanOpKind::ReadPutPackets | PlanOpKind::UnpackPackets => self.read_packets(op, bufs),
                PlanOpKind::ReducePackets { .. } => self.reduce_packets(op, bufs),
            }
        }
    }

    /// The start of this launch's scratch buffer (half of it with a double scratch buffer).
    fn scratch(&self, bufs: [Val; 3]) -> Val {
        match self.scratch_off {
            Some(off) => bufs[Buffer::Scratch.slot()] + off,
            None => bufs[Buffer::Scratch.slot()],
        }
    }

    /// The symmetric address of `c`'s first element (on its owner, for remote chunks).
    fn at(&self, bufs: [Val; 3], c: &Chunks) -> Val {
        let (buffer, index) = self.plan.storage(c.rank.unwrap_or(self.g.id), c.buffer, c.index);
        let base = if buffer == Buffer::Scratch { self.scratch(bufs) } else { bufs[buffer.slot()] };
        base + self.ce * index as i64
    }

    /// The symmetric address of packet operand `c`'s first LL word: packets sit at twice the
    /// data's byte offset, one 64-bit word per 32-bit data word.
    fn packet_at(&self, bufs: [Val; 3], c: &Chunks) -> Val {
        ptr_cast(self.scratch(bufs), Scalar::I64) + self.ce * (c.index * self.t.bytes()) as i64 / 4i64
    }

    /// The element range `op` moves in each operand: (first, length), its thread block's
    /// part of the whole, cut at 16-byte units as MSCCL++ cuts it.
    pub(super) fn part(&self, op: &PlanOp) -> (Val, Val) {
        let (i, parts) = (op.part.0 as i64, op.part.1 as i64);
        let unit = 16 / self.t.bytes() as i64;
        let units = self.ce * op.srcs[0].count as i64 / unit;
        let lo = units * i / parts * unit;
        (lo, units * (i + 1) / parts * unit - lo)
    }

    /// The address this rank loads or stores `c` through: packet operands as i64 LL words,
    /// data as elements.
    pub(super) fn access(&self, bufs: [Val; 3], c: &Chunks) -> Val {
        let local = if c.packet { self.packet_at(bufs, c) } else { self.at(bufs, c) };
        match c.rank {
            Some(r) => remote_ptr(local, r as i64),
            None => local,
        }
    }

    /// Every thread of the instance is done, and its writes are visible everywhere.
    fn release(&self) {
        barrier();
        quiet();
    }

    /// Adds one to the semaphore paired with each of `op`'s channels.
    fn signal(&self, op: &PlanOp) {
        self.release();
        for &(kind, c) in &op.channels {
            let ch = self.g.channels(kind)[c];
            let w = word(&self.plan.gpus[ch.peer], kind, ch.paired);
            signal_op(self.sig + w, 1i64, Signal::Add, ch.peer as i64);
        }
    }

    /// The type sums accumulate in.
    pub(super) fn acc(&self) -> Scalar {
        if self.t == Scalar::I32 { Scalar::I32 } else { Scalar::F32 }
    }

    /// `copy` and the reductions: the sum of the sources, stored to every destination.
    fn elementwise(&self, op: &PlanOp, bufs: [Val; 3]) {
        let (lo, n) = self.part(op);
        let srcs: Vec<Val> = op.srcs.iter().map(|c| self.access(bufs, c) + lo).collect();
        let dsts: Vec<Val> = op.dsts.iter().map(|c| self.access(bufs, c) + lo).collect();
        let acc = self.acc();
        for_words(n, self.block, |o, m| {
            let value = if srcs.len() == 1 {
                load_masked(srcs[0] + o, m, 0)
            } else {
                let sum = srcs[1..].iter().fold(load_masked(srcs[0] + o, m, 0).to(acc), |s, &p| s + load_masked(p + o, m, 0).to(acc));
                sum.to(self.t)
            };
            for &d in &dsts {
                store_masked(d + o, value, m);
            }
        });
    }
}
