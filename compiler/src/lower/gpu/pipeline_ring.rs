//! The `num_stages` ring (sm_80+): a K loop whose body is only address arithmetic, the two
//! `cp.async`-staged operand loads of one mma dot and that dot (the GEMM family's
//! `tile_product`) keeps `S = num_stages` copies of the dot's operand buffers in scratch.
//!
//! The consumer runs `S - 1` iterations behind the copies: iteration `i` waits for the copies
//! of iteration `i - (S - 1)` (`cp.async.wait_group S-2`), meets the CTA at the one barrier of
//! the step, copies its own tiles into slot `i % S` (the slot read one iteration ago, before
//! that barrier) and multiplies slot `(i + 1) % S`, so the loads of step `k + S - 1` are in
//! flight while step `k` computes. The loop runs `S - 1` extra iterations whose copies are
//! zero-filled (no bytes read), and the slots read before any copy landed are zeroed before
//! the loop, so the extra products add zeros. After the loop every copy is waited for, so no
//! late zero-fill lands on the scratch the next op uses. Tiles whose slots do not fit the
//! CTA's shared memory get fewer slots (none below 2). A `wgmma` dot keeps its group in
//! flight into the next step, so its ring issues the step's copies after the dot, behind
//! `wgmma.wait_group 1` and a barrier (as Triton orders them): the slot written then was read
//! by the previous step's group, which every warp group has just retired, so the ring keeps
//! `S` slots instead of taking one more. A ring with swizzled slots (`wgmma` on sm_90a,
//! `ldmatrix` on sm_100a) is filled by TMA with one mbarrier per slot when both loads are
//! tensor-map shaped ([`super::tma_ring`]).

use super::emit::{num_elem, Gx};
use super::ldmatrix::Staging;
use super::tma_operand::TmaOperand;
use super::tma_ring::TmaSlots;
use crate::ir::{BinOp, Op, OpKind};
use crate::lower::LowerError;

/// The ring of the loop being lowered.
#[derive(Clone, Debug)]
pub(crate) struct Ring {
    /// The dot it feeds.
    pub dot: Op,
    /// Slots.
    pub stages: usize,
    /// Element offset (i32) of this iteration's write slot, and of the slot the dot reads.
    pub write: String,
    pub read: String,
    /// `i1`: the iteration exists (its copies read memory; else they zero-fill).
    pub live: String,
    /// The slots' barriers and TMA operands when TMA fills the ring.
    pub tma: Option<TmaSlots>,
}

/// What the lowering of a ringed loop needs from its header on.
pub(crate) struct RingLoop {
    /// The dot and the number of slots.
    pub dot: Op,
    pub stages: usize,
    /// Bytes per slot.
    pub slot_bytes: usize,
    /// The extended trip bound (`ub + (S - 1) * step`).
    pub bound: String,
    /// The slot counter's phi name.
    pub slot: String,
    /// A TMA ring: its barriers' scratch byte, A and B, B's byte in a slot, and the phi name
    /// of the read slot's phase parity.
    pub tma: Option<(usize, [TmaOperand; 2], usize, String)>,
}

impl Gx<'_> {
    /// The `num_stages` constexpr (1 without one).
    pub(crate) fn num_stages(&self, op: Op) -> Result<usize, LowerError> {
        let Some(v) = self.k.constexpr("num_stages") else { return Ok(1) };
        match v.trim().parse::<usize>() {
            Ok(n) if (1..=8).contains(&n) => Ok(n),
            _ => Err(LowerError::BadConstexpr { name: "num_stages".into(), value: v.into(), target: self.t.name().into(), why: format!("must be an integer from 1 to 8 (at {})", self.k.op(op).loc) }),
        }
    }

    /// The dot a ring of `num_stages` (at least 2) slots feeds in `for_op`'s body, when the
    /// body is a pure K loop: its one carried value is the dot's accumulator, both operands
    /// are staged loads, and every other op is address arithmetic that uses no scratch.
    fn ring_plan(&self, for_op: Op) -> Result<Option<(Op, usize)>, LowerError> {
        let stages = self.num_stages(for_op)?;
        let Some((dot, ops)) = self.k_loop_dot(for_op).filter(|_| stages >= 2) else { return Ok(None) };
        if self.staged_operands(dot) != [true, true] {
            return Ok(None);
        }
        let staged = |o: Op| self.staged_load(o).is_some_and(|(x, _)| x == dot);
        let plain = ops.iter().all(|&o| o == dot || staged(o) || self.address_arith(o));
        Ok(plain.then_some((dot, stages)))
    }

    /// The one dot of `for_op`'s body and the body's other ops (its yield excluded), when the
    /// loop carries one value, the dot's accumulator, and yields the dot's result.
    pub(crate) fn k_loop_dot(&self, for_op: Op) -> Option<(Op, &[Op])> {
        let d = self.k.op(for_op);
        let body = self.k.block(d.regions[0]);
        let (&y, ops) = body.ops.split_last().filter(|_| d.operands.len() == 4)?;
        let dots: Vec<Op> = ops.iter().copied().filter(|&o| self.k.op(o).kind == OpKind::Dot).collect();
        let [dot] = dots[..] else { return None };
        let dd = self.k.op(dot);
        (dd.operands[2] == body.args[1] && self.k.op(y).operands == [dd.results[0]]).then_some((dot, ops))
    }

    /// Whether `op` computes addresses or masks without scratch memory or a trap (no
    /// division: the ring's extra iterations evaluate it past the loop's end).
    pub(crate) fn address_arith(&self, op: Op) -> bool {
        let d = self.k.op(op);
        match &d.kind {
            OpKind::Binary(b) => !matches!(b, BinOp::Div | BinOp::Rem),
            OpKind::Const(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Cast(_) | OpKind::Splat | OpKind::AddPtr | OpKind::MakeRange(..) => true,
            OpKind::Broadcast | OpKind::ExpandDims(_) => {
                let src = d.operands[0];
                let same = self.ty(src).numel() == self.ty(d.results[0]).numel();
                let splat = self.defs.get(&src).is_some_and(|&o| self.k.op(o).kind == OpKind::Splat);
                same || splat || self.rematerializable(src, 0)
            }
            _ => false,
        }
    }

    /// Before the loop (in the preheader): claims the ring's scratch, zeroes the slots read
    /// before their first copy lands, and computes the extended bound. `None` when `for_op`
    /// gets no ring.
    pub(crate) fn ring_prologue(&mut self, for_op: Op, ub: &str, step: &str, ity: &str) -> Result<Option<RingLoop>, LowerError> {
        let Some((dot, stages)) = self.ring_plan(for_op)? else { return Ok(None) };
        let st = self.dot_staging(dot)?;
        let slot_bytes = st.bytes.div_ceil(16) * 16;
        let tma = self.tma_operands(dot);
        // A TMA ring's barriers (8 bytes a slot) follow the slots.
        let bar_bytes = |n: usize| if tma.is_some() { 8 * n } else { 0 };
        // As many slots as shared memory holds (large tiles get fewer stages, or none).
        let stages = stages.min((self.t.shared_limits().1 - bar_bytes(8)) / slot_bytes);
        if stages < 2 {
            return Ok(None);
        }
        self.scratch(dot, stages * slot_bytes + bar_bytes(stages))?;
        let acc = self.accs.layout.get(&self.k.op(dot).results[0]).map_or(0, |l| l.slots());
        self.ring_acc = Some(self.ring_acc.unwrap_or(0).max(acc));
        // Whatever used scratch before is done with it before the zeroes go in; the loop's
        // first barrier orders them before the first read and the copies into slot 0.
        self.barrier();
        let (chunks, threads) = ((stages - 1) * slot_bytes / 16, self.threads());
        let tid = self.tid();
        for j in 0..chunks.div_ceil(threads) {
            let c = self.assign(&format!("add i32 {tid}, {}", j * threads));
            let at = self.assign(&format!("mul i32 {c}, 16"));
            let p = self.smem_at(slot_bytes, "i8", &at);
            let st = format!("store <4 x i32> zeroinitializer, ptr addrspace(3) {p}, align 16");
            if (j + 1) * threads <= chunks {
                self.line(&st);
            } else {
                let on = self.assign(&format!("icmp ult i32 {c}, {chunks}"));
                self.only_where(&on, |g| {
                    g.line(&st);
                    vec![]
                }, "0");
            }
        }
        let tma = tma.map(|ops| {
            // The zeroes (fenced for the async proxy: `wgmma` reads through it, and the copies
            // that later overwrite them write through it) and the initialised barriers are
            // seen by every thread before the loop (its first barrier comes after the first
            // wait).
            let bars = stages * slot_bytes;
            self.intrinsic(super::wgmma::PROXY_FENCE);
            self.mbarriers(bars, stages, false);
            self.barrier();
            (bars, ops, st.b_at, self.fresh())
        });
        let extra = self.assign(&format!("mul {ity} {step}, {}", stages - 1));
        let bound = self.assign(&format!("add {ity} {ub}, {extra}"));
        let slot = self.fresh();
        Ok(Some(RingLoop { dot, stages, slot_bytes, bound, slot, tma }))
    }

    /// At the top of the body: this iteration's slots; returns the next slot counter and, in
    /// a TMA ring, the next phase parity (for the latch's phis).
    pub(crate) fn ring_enter(&mut self, rl: &RingLoop, iv: &str, ub: &str, ity: &str) -> Result<(String, Option<String>), LowerError> {
        let s = num_elem(self.ty(self.k.op(rl.dot).operands[0]));
        let slot_el = rl.slot_bytes / s.bytes();
        let (slot, stages) = (&rl.slot, rl.stages);
        let write = self.assign(&format!("mul i32 {slot}, {slot_el}"));
        // The slot written S - 1 iterations ago.
        let next = self.wrap_inc(slot, stages);
        let read = self.assign(&format!("mul i32 {next}, {slot_el}"));
        let live = self.assign(&format!("icmp slt {ity} {iv}, {ub}"));
        // The read slot's parity flips each time the read slot wraps to 0.
        let (tma, next_phase) = match &rl.tma {
            Some((bars, ops, b_at, phase)) => {
                let wraps = self.assign(&format!("icmp eq i32 {next}, {}", stages - 1));
                let flip = self.assign(&format!("zext i1 {wraps} to i32"));
                let np = self.assign(&format!("xor i32 {phase}, {flip}"));
                let t = TmaSlots { bars: *bars, write_slot: slot.clone(), read_slot: next.clone(), phase: phase.clone(), ops: *ops, b_at: *b_at };
                (Some(t), Some(np))
            }
            None => (None, None),
        };
        self.ring = Some(Ring { dot: rl.dot, stages, write, read, live, tma });
        Ok((next, next_phase))
    }

    /// `(x + 1) % n` for `x < n`.
    fn wrap_inc(&mut self, x: &str, n: usize) -> String {
        let up = self.assign(&format!("add i32 {x}, 1"));
        let wrap = self.assign(&format!("icmp eq i32 {up}, {n}"));
        self.assign(&format!("select i1 {wrap}, i32 0, i32 {up}"))
    }

    /// After the loop: every copy (the extra iterations' zero-fills too) has landed; a TMA
    /// ring's barriers (every copy consumed) are invalidated. No barrier first: every step of a
    /// TMA ring waits on its slot before the CTA barrier that precedes the refill (see
    /// `tma_ring`), so once thread 0 has left the loop no thread waits on them any more.
    pub(crate) fn ring_exit(&mut self) {
        match self.ring.take().and_then(|r| r.tma.map(|t| (t.bars, r.stages))) {
            Some((bars, n)) => self.mbarriers(bars, n, true),
            None => self.wait_copies(0),
        }
    }

    /// The staging of `dot`'s operands (as the dot lowers them).
    pub(crate) fn dot_staging(&self, dot: Op) -> Result<Staging, LowerError> {
        let d = self.k.op(dot);
        let (ta, tb) = (self.ty(d.operands[0]), self.ty(d.operands[1]));
        let ([m, k], [_, n]) = (ta.shape(), tb.shape()) else { return Err(self.malformed(dot, "tile.dot takes 2-D tiles")) };
        let (al, bl) = (self.layout_of(dot, ta)?, self.layout_of(dot, tb)?);
        if let Some(tiles) = self.swizzled_staging(dot) {
            return Ok(self.wgmma_staging(tiles));
        }
        let acc = self.accs.layout.get(&d.results[0]);
        if matches!(acc, Some(super::acc_layout::AccLayout::Mfma { .. })) {
            return Ok(Staging::mfma(*m, *n, *k, num_elem(ta).bytes(), al.per));
        }
        let mma = matches!(acc, Some(super::acc_layout::AccLayout::Mma { .. }));
        Ok(Staging::new(*m, *n, *k, num_elem(ta).bytes(), (al.per, bl.per), mma))
    }

    /// The CTAs per multiprocessor that registers should leave room for (`.minnctapersm`):
    /// 1, except in a kernel with a `num_stages` ring and no library calls, where it is as
    /// many as the multiprocessor's shared memory and threads hold, while each thread keeps
    /// at least its accumulator and 32 more registers. Unbounded, ptxas spends registers on
    /// scheduling slack (112 at 64x64x32 w4 on sm_80, where shared memory holds five CTAs
    /// and registers then allow only four).
    pub(crate) fn resident_ctas(&self) -> usize {
        let Some(acc) = self.ring_acc else { return 1 };
        if self.decls.keys().any(|k| k.contains("nvshmem")) {
            return 1;
        }
        // Per SM: shared memory is the per-CTA opt-in limit plus the 1 KiB each CTA reserves;
        // 2048 threads and 64 Ki registers (sm_80 to sm_100), allocated 8 per thread.
        let (threads, smem) = (self.threads(), self.smem_bytes + 1024);
        let by_smem = (self.t.shared_limits().1 + 1024) / smem;
        let by_regs = 65536 / (threads * (acc + 32).div_ceil(8) * 8);
        by_smem.min(2048 / threads).min(by_regs).max(1)
    }

    /// `cp.async.wait_group n`.
    pub(crate) fn wait_copies(&mut self, n: usize) {
        self.declare("llvm.nvvm.cp.async.wait.group", "declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)");
        self.line(&format!("call void @llvm.nvvm.cp.async.wait.group(i32 {n})"));
    }

    /// `cp.async.commit_group`.
    pub(crate) fn commit_copies(&mut self) {
        self.declare("llvm.nvvm.cp.async.commit.group", "declare void @llvm.nvvm.cp.async.commit.group()");
        self.line("call void @llvm.nvvm.cp.async.commit.group()");
    }

    /// The ring feeding `dot`, if the loop being lowered has one.
    pub(crate) fn ring_of(&self, dot: Op) -> Option<Ring> {
        self.ring.clone().filter(|r| r.dot == dot)
    }
}
