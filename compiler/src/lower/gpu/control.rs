//! Structured control flow to LLVM blocks and phis: `scf.for` (a loop whose header phis are
//! written once the body's yields are known), `scf.if` and `func.return`. Conditions and
//! bounds are scalars, hence uniform, so no branch here diverges within a CTA.

use super::emit::Gx;
use super::sync::stores_in;
use crate::ir::{Op, OpKind};
use crate::lower::LowerError;
use std::collections::BTreeSet;

impl Gx<'_> {
    pub(crate) fn control(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        match d.kind {
            OpKind::For => self.for_loop(op),
            OpKind::If => self.if_else(op),
            OpKind::Return => {
                self.line("ret void");
                // Anything after a return is unreachable but must still sit in a block.
                let l = self.label("dead");
                self.start(&l);
                Ok(())
            }
            _ => Err(self.malformed(op, "not a control-flow op")),
        }
    }

    fn for_loop(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let body = d.regions[0];
        let args = self.k.block(body).args.clone();
        let (lb, ub, step) = (self.name(d.operands[0]), self.name(d.operands[1]), self.name(d.operands[2]));
        // A 64-bit loop whose bounds provably fit in i32 counts in i32 (a 64-bit counter
        // costs two registers and two instructions per add and compare); the body reads it
        // widened.
        let narrow = self.i32_counter(op);
        let (ity, lb, ub, step) = match narrow {
            true => {
                let t = |g: &mut Self, x: &str| g.assign(&format!("trunc i64 {x} to i32"));
                ("i32".to_string(), t(self, &lb), t(self, &ub), t(self, &step))
            }
            false => (self.vty(d.operands[0]), lb, ub, step),
        };
        // A carried accumulator enters the loop in its layout.
        let mut inits = vec![];
        for (i, &v) in d.operands[3..].iter().enumerate() {
            let init = match self.accs.layout.get(&args[i + 1]).copied() {
                Some(l) => self.in_acc_layout(op, v, &l)?,
                None => self.operand_name(d, i + 3),
            };
            inits.push(init);
        }
        let (head, body_l, latch, exit) = (self.label("for.head"), self.label("for.body"), self.label("for.latch"), self.label("for.exit"));
        // A store late in one iteration may be read by another thread early in the next.
        let mut stored = BTreeSet::new();
        stores_in(self.k, &self.roots, body, &mut stored);
        self.pending.extend(stored.iter().copied());
        // A K loop feeding an mma dot may keep a `num_stages` ring (see `pipeline_ring`).
        let ring = self.ring_prologue(op, &ub, &step, &ity)?;
        // Without `cp.async`, a register-prefetching loop instead (see `prefetch_ring`).
        let pf = if ring.is_none() { self.prefetch_prologue(op, &ub, &step, &ity)? } else { None };
        self.note_ring(ring.as_ref(), pf.as_ref());
        let bound = match (&ring, &pf) {
            (Some(r), _) => r.bound.clone(),
            (None, Some(p)) => p.bound.clone(),
            (None, None) => ub.clone(),
        };
        let pre = self.cur.clone();
        self.br(&head);
        self.start(&head);
        let phi_at = self.out.len();
        let iv = if narrow { self.fresh() } else { self.def(args[0]) };
        let iters: Vec<String> = args[1..].iter().map(|&a| self.def(a)).collect();
        let go = self.assign(&format!("icmp slt {ity} {iv}, {bound}"));
        self.cond_br(&go, &body_l, &exit);
        self.start(&body_l);
        if narrow {
            let wide = self.def(args[0]);
            self.line(&format!("{wide} = zext nneg i32 {iv} to i64"));
        }
        let (next_slot, next_phase) = match &ring {
            Some(r) => {
                let (s, p) = self.ring_enter(r, &iv, &ub, &ity)?;
                (Some(s), p)
            }
            None => (None, None),
        };
        let next_parity = pf.as_ref().map(|p| self.prefetch_enter(p, &iv, &ub, &ity));
        for &a in &args[1..] {
            self.settle(op, a)?;
        }
        let yields = self.block(body)?;
        self.br(&latch);
        self.start(&latch);
        let nsw = if narrow { " nsw" } else { "" };
        let next = self.assign(&format!("add{nsw} {ity} {iv}, {step}"));
        self.br(&head);
        let mut phis = format!("  {iv} = phi {ity} [ {lb}, %{pre} ], [ {next}, %{latch} ]\n");
        for (k, a) in args[1..].iter().enumerate() {
            let t = self.vty(*a);
            let y = yields.get(k).ok_or_else(|| self.malformed(op, "scf.for body yields fewer values than it carries"))?;
            phis.push_str(&format!("  {} = phi {t} [ {}, %{pre} ], [ {y}, %{latch} ]\n", iters[k], inits[k]));
        }
        if let (Some(r), Some(n)) = (&ring, next_slot) {
            phis.push_str(&format!("  {} = phi i32 [ {}, %{pre} ], [ {n}, %{latch} ]\n", r.slot, 0));
        }
        // A TMA ring's first reads (of the zeroed slots) wait on parity 1.
        if let (Some((_, _, _, phase)), Some(n)) = (ring.as_ref().and_then(|r| r.tma.as_ref()), next_phase) {
            phis.push_str(&format!("  {phase} = phi i32 [ 1, %{pre} ], [ {n}, %{latch} ]\n"));
        }
        if let (Some(p), Some(n)) = (&pf, next_parity) {
            let more = self.prefetch_phis(p, &n, &pre, &latch);
            phis.push_str(&more);
        }
        self.out.insert_str(phi_at, &phis);
        self.start(&exit);
        let mut iters = iters;
        if let Some(r) = &ring {
            self.ring_exit();
            iters[0] = self.wgmma_drain(r.dot, &iters[0]);
        }
        self.pending.extend(stored);
        for (r, it) in d.results.iter().zip(iters) {
            self.bind(*r, it);
            self.settle(op, *r)?;
        }
        Ok(())
    }

    /// Whether `scf.for` `op` counts in i64 from a non-negative start by a positive step to a
    /// bound that, with up to 8 steps beyond it (a ring's extra iterations), fits in i32.
    fn i32_counter(&self, op: Op) -> bool {
        let d = self.k.op(op);
        let r = |i: usize| self.ranges.get(self.k, d.operands[i]);
        let (Some(lb), Some(ub), Some(step)) = (r(0), r(1), r(2)) else { return false };
        self.vty(d.operands[0]) == "i64" && lb.0 >= 0 && step.0 > 0 && ub.1 + 8 * step.1 <= i32::MAX as i128
    }

    fn if_else(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let c = self.name(d.operands[0]);
        let (then_l, else_l, end) = (self.label("if.then"), self.label("if.else"), self.label("if.end"));
        self.cond_br(&c, &then_l, &else_l);
        let before = self.pending.clone();
        self.start(&then_l);
        let yt = self.block(d.regions[0])?;
        let then_end = self.cur.clone();
        self.br(&end);
        let after_then = std::mem::replace(&mut self.pending, before);
        self.start(&else_l);
        let ye = self.block(d.regions[1])?;
        let else_end = self.cur.clone();
        self.br(&end);
        self.start(&end);
        self.pending.extend(after_then);
        for (k, &r) in d.results.iter().enumerate() {
            let t = self.vty(r);
            let (a, b) = (yt.get(k), ye.get(k));
            let (Some(a), Some(b)) = (a, b) else { return Err(self.malformed(op, "scf.if branches yield fewer values than it returns")) };
            let x = self.assign(&format!("phi {t} [ {a}, %{then_end} ], [ {b}, %{else_end} ]"));
            self.bind(r, x);
        }
        Ok(())
    }
}
