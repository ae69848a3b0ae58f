//! `cp.async` staging of dot operands (sm_80+): a load whose only use is an mma dot's A or B
//! copies its tile from global memory straight into the dot's padded scratch buffer (see
//! [`super::ldmatrix::Staging`]), 16 bytes per `cp.async.cg.shared.global`, masked-off chunks
//! zero-filled (`src-size` 0), instead of loading to registers and storing them again. The
//! copies are spread over the CTA (chunk `j` of thread `t` is chunk `j * threads + t` of the
//! tile) so that each warp's `cp.async` covers contiguous rows. The dot then commits the
//! group, waits for it and meets the CTA at a barrier before `ldmatrix` (in a `num_stages`
//! ring, see [`super::pipeline_ring`], the wait is for an older step).
//!
//! Only where nothing can go wrong: the load's tile is 16-byte vectorised with proven
//! alignment and per-chunk mask, its `other` (if any) is zero, and between the load and the
//! dot in the same block only ops that touch no scratch run (so the buffer is the dot's).

use super::acc_layout::AccLayout;
use super::emit::{num_elem, Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::{ConstVal, Op, OpKind, Value};
use crate::lower::LowerError;

/// The `cp.async` copy with a source size (bytes beyond it are zero-filled).
const CP_ASYNC: &str = "llvm.nvvm.cp.async.cg.shared.global.16.s";

/// A masked `cp.async` (inline PTX: shared address, global address, `ignore-src` predicate),
/// zero-filling its 16 bytes where the predicate is set. The predicate form keeps chunk
/// masks predicates: through the intrinsic's source size they became selects of 16 or 0,
/// each compared with zero again by ptxas. `L2::128B` (Triton's too) lets L2 fetch the whole
/// 128-byte line a warp's copies cover on a miss, not one 32-byte sector at a time.
pub const CP_ASYNC_MASKED: &str = "cp.async.cg.shared.global.L2::128B [$0], [$1], 16, $2;";

impl Gx<'_> {
    /// The dot that load `load` feeds through `cp.async`, and which operand (0 A, 1 B) it is.
    pub(crate) fn staged_load(&self, load: Op) -> Option<(Op, usize)> {
        let d = self.k.op(load);
        let OpKind::Load { mask, other } = d.kind else { return None };
        if !self.t.cp_async() || (other && !self.is_zero(d.operands[2])) {
            return None;
        }
        let r = d.results[0];
        let s = num_elem(self.ty(r));
        if s.bytes() != 2 {
            return None;
        }
        let mut users = self.k.ops.iter().enumerate().filter(|(_, o)| o.operands.contains(&r));
        let (dot, user) = users.next()?;
        if users.next().is_some() || user.kind != OpKind::Dot {
            return None;
        }
        let which = user.operands.iter().position(|&v| v == r).filter(|&i| i < 2)?;
        if !matches!(self.accs.layout.get(&user.results[0]), Some(AccLayout::Mma { .. })) {
            return None;
        }
        let dot = Op(dot as u32);
        let between = self.ops_between(load, dot)?;
        if !between.iter().all(|&o| touches_no_scratch(&self.k.op(o).kind)) {
            return None;
        }
        let per = self.slots(self.ty(r))?;
        let plan = self.vector_plan(d.operands[0], mask.then(|| d.operands[1]), per)?;
        (plan.proven() && plan.bytes(s) == 16).then_some((dot, which))
    }

    /// Which of `dot`'s operands (A, B) their loads stage through `cp.async`.
    pub(crate) fn staged_operands(&self, dot: Op) -> [bool; 2] {
        let d = self.k.op(dot);
        std::array::from_fn(|i| self.defs.get(&d.operands[i]).is_some_and(|&l| self.staged_load(l) == Some((dot, i))))
    }

    /// Lowers staged load `load` of operand `which` of `dot`: one `cp.async` per 16-byte chunk
    /// into the operand's padded buffer. The first staged operand of the dot first meets the
    /// CTA at a barrier, so no thread still reads the scratch buffer the copies overwrite.
    pub(crate) fn load_to_shared(&mut self, load: Op, dot: Op, which: usize) -> Result<(), LowerError> {
        let d = self.k.op(load);
        let OpKind::Load { mask, .. } = d.kind else { return Err(self.malformed(load, "not a load")) };
        let (p, r) = (d.operands[0], d.results[0]);
        self.order_load(p);
        let dd = self.k.op(dot);
        let s = num_elem(self.ty(r));
        let st = self.dot_staging(dot)?;
        let l = self.layout_of(dot, self.ty(dd.operands[which]))?;
        let cols = *self.ty(dd.operands[which]).shape().last().unwrap_or(&1);
        let (pad, base) = if which == 0 { (st.pad_a, 0) } else { (st.pad_b, st.b_at) };
        let ring = self.ring_of(dot);
        let other_first = self.defs.get(&dd.operands[1 - which]).is_some_and(|&o| self.staged_load(o) == Some((dot, 1 - which)) && self.ops_between(o, load).is_some());
        // A TMA ring: the first operand's place holds the step's wait and copies of both
        // operands (see `tma_ring`).
        if let Some((r, t)) = ring.as_ref().and_then(|r| r.tma.clone().map(|t| (r.clone(), t))) {
            if !other_first {
                self.tma_step(dot, r, t);
            }
            self.bind(d.results[0], "poison".into());
            return Ok(());
        }
        if !other_first {
            // In a ring: the copies of the step computed now have landed (all but the
            // newest S - 2 groups), and the slot written next was read before this barrier.
            if let Some(r) = &ring {
                self.wait_copies(r.stages - 2);
            }
            self.barrier();
        }
        // A `wgmma` ring writes its slot after the dot retires the group that read it.
        let defer = ring.is_some() && self.wgmma_in_flight(dot) == 1;
        let mark = self.out.len();
        let per = l.per;
        let m = mask.then(|| d.operands[1]);
        let plan = self.vector_plan(p, m, per).ok_or_else(|| self.malformed(load, "a staged load has no vector plan"))?;
        // Which chunks this thread copies: `(layout, stride)` place its chunk `j` at slot
        // `j * stride` of `layout`, with its pointer and mask from `src` / `on` below.
        let spread = self.spread_chunks(p, m, &l, cols, plan.w);
        let (cl, stride) = spread.map_or((l, plan.w), |c| (c, c.threads * c.per));
        let ptrs = match spread {
            Some(_) => vec![],
            None => {
                let pn = self.name(p);
                self.chunk_ptrs(&pn, &plan)
            }
        };
        let ons = match (mask, spread) {
            (true, None) => {
                let mn = self.name(d.operands[1]);
                Some(self.chunk_masks(load, d.operands[1], &mn, per, plan.w)?)
            }
            _ => None,
        };
        let e = s.mem();
        // The slot's (or the buffer's) first element; chunks are placed from it, so the
        // slot offset is one add per chunk (an add folded into the chunk offsets turns into
        // bit operations on the swizzle's XOR).
        let slot = match &ring {
            Some(r) => self.smem_at(base, e, &r.write),
            None => self.smem_at(base, e, "0"),
        };
        let idx = self.padded_index(&cl, cols, pad);
        let dst0 = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {slot}, i32 {idx}"));
        self.declare(CP_ASYNC, &format!("declare void @{CP_ASYNC}(ptr addrspace(3), ptr addrspace(1), i32)"));
        let swizzled = self.swizzled_staging(dot).map(|t| if which == 0 { t.0 } else { t.1 });
        for j in 0..per / plan.w {
            let first = j * stride;
            let (src, chunk_on) = match spread {
                Some(c) => {
                    let q = self.remat_at(p, &c, first).ok_or_else(|| self.malformed(load, "a spread chunk's pointer"))?;
                    let on = m.map(|m| self.remat_at(m, &c, first).ok_or_else(|| self.malformed(load, "a spread chunk's mask"))).transpose()?;
                    (self.assign(&format!("addrspacecast ptr {q} to ptr addrspace(1)")), on)
                }
                None => (ptrs[j].clone(), ons.as_ref().map(|o| o[j].clone())),
            };
            let dst = match swizzled {
                // `wgmma` staging: each chunk's place, XOR included, is computed once at entry.
                Some(tile) => {
                    let at = self.swizzled_chunk(&cl, tile, first);
                    self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {slot}, i32 {at}"))
                }
                // A thread's chunks lie in one row, fill whole rows (`row_pad`) or (spread)
                // start rows.
                None => self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {dst0}, i32 {}", first + (first / cols) * pad)),
            };
            let on = match (chunk_on, &ring) {
                (Some(on), Some(r)) => Some(self.assign(&format!("and i1 {on}, {}", r.live))),
                (Some(on), None) => Some(on),
                (None, Some(r)) => Some(r.live.clone()),
                (None, None) => None,
            };
            match on {
                Some(on) => {
                    let off = self.assign(&format!("xor i1 {on}, true"));
                    self.line(&format!("call void asm sideeffect \"{CP_ASYNC_MASKED}\", \"r,l,b\"(ptr addrspace(3) {dst}, ptr addrspace(1) {src}, i1 {off})"));
                }
                None => self.line(&format!("call void @{CP_ASYNC}(ptr addrspace(3) {dst}, ptr addrspace(1) {src}, i32 16)")),
            }
        }
        if defer {
            let text = self.out.split_off(mark);
            self.deferred.get_or_insert_with(String::new).push_str(&text);
        }
        // Only the dot reads the result, from shared memory.
        self.bind(r, "poison".into());
        Ok(())
    }

    /// The layout whose slot `j * threads * w` is chunk `j` of this thread when the copies
    /// of a `[rows][cols]` tile can be spread across the CTA (`None`: each thread copies the
    /// chunks of its own `l.per` elements). Spread, the 32 lanes of a warp copy 32 consecutive
    /// 16-byte chunks, 512 contiguous bytes per `cp.async`; a thread's own elements lie in one
    /// row, so each `cp.async` of a warp would touch 16 rows and every 32-byte sector would be
    /// fetched by two of them. Needs the pointer and mask to be index expressions (each chunk's
    /// is recomputed at its coordinates) and whole rows per round of chunks.
    fn spread_chunks(&self, p: Value, mask: Option<Value>, l: &Blocked, cols: usize, w: usize) -> Option<Blocked> {
        let round = l.threads * w;
        let two_d = self.ty(p).shape().len() == 2;
        let exprs = self.rematerializable(p, 0) && mask.is_none_or(|m| self.rematerializable(m, 0));
        (two_d && exprs && l.per > w && round % cols == 0).then_some(Blocked { numel: round, threads: l.threads, per: w })
    }

    /// The ops strictly between `a` and `b` when both are in one block, `a` first.
    fn ops_between(&self, a: Op, b: Op) -> Option<Vec<Op>> {
        let block = self.k.blocks.iter().find(|bl| bl.ops.contains(&a))?;
        let (i, j) = (block.ops.iter().position(|&o| o == a)?, block.ops.iter().position(|&o| o == b)?);
        (i < j).then(|| block.ops[i + 1..j].to_vec())
    }

    /// Whether `v` is a zero constant (or a splat of one).
    fn is_zero(&self, v: Value) -> bool {
        let Some(&o) = self.defs.get(&v) else { return false };
        let d = self.k.op(o);
        match d.kind {
            OpKind::Const(c) => c == ConstVal::Int(0) || c == ConstVal::Float(0.0),
            OpKind::Splat => self.is_zero(d.operands[0]),
            _ => false,
        }
    }
}

/// Ops whose GPU lowering uses no scratch shared memory.
fn touches_no_scratch(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::Load { .. } | OpKind::Const(_) | OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Unary(_) | OpKind::Cast(_) | OpKind::Splat | OpKind::AddPtr | OpKind::MakeRange(..)
    )
}
