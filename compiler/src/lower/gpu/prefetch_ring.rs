//! The `num_stages` pipeline where there are no asynchronous copies (AMD): a K loop of the
//! ring's shape (see [`super::pipeline_ring`]: address arithmetic, the two loads of one MFMA
//! dot's operands, that dot) loads step `k + 1`'s tiles into registers before the MFMAs of
//! step `k`, and stages them in two LDS buffers, so one barrier per step suffices.
//!
//! The loop runs one extra iteration. Iteration `i` issues the loads of step `i` (skipped
//! past the last step), then stores the tiles loaded one iteration earlier (zeros at the
//! first, whose product adds nothing) to buffer `i % 2`, meets the CTA at the barrier and
//! multiplies that buffer while its own loads are in flight. A thread writes buffer `i % 2`
//! only after the barrier of iteration `i - 1`, which no thread passes before it is done
//! reading that buffer in iteration `i - 2`.

use super::acc_layout::AccLayout;
use super::emit::Gx;
use crate::ir::{Op, OpKind};
use crate::lower::LowerError;

/// The prefetching loop being lowered, as its dot and loads see it.
#[derive(Clone, Debug)]
pub(crate) struct Prefetch {
    /// The dot, and the loads of its A and B.
    pub dot: Op,
    pub loads: [Op; 2],
    /// `i1`: this iteration's step exists (its loads run).
    pub live: String,
    /// Element offset (i32) of this iteration's LDS buffer.
    pub slot: String,
    /// The tiles loaded one iteration earlier (phis), which the dot multiplies.
    pub prev: [String; 2],
}

/// What the loop lowering needs from the preheader on.
pub(crate) struct PrefetchLoop {
    pub dot: Op,
    pub loads: [Op; 2],
    /// The extended trip bound (`ub + step`).
    pub bound: String,
    /// Names of the buffer-parity phi and of the two carried tiles' phis.
    pub parity: String,
    pub prev: [String; 2],
    /// Elements per LDS buffer.
    pub slot_el: usize,
}

impl Gx<'_> {
    /// The dot and operand loads of `for_op` when it gets the prefetching pipeline:
    /// `num_stages` at least 2, no `cp.async` on the target, the body the ring's K loop with
    /// an MFMA dot whose operands are loads of the body used by it alone.
    fn prefetch_plan(&self, for_op: Op) -> Result<Option<(Op, [Op; 2])>, LowerError> {
        if self.t.cp_async() || self.num_stages(for_op)? < 2 {
            return Ok(None);
        }
        let Some((dot, ops)) = self.k_loop_dot(for_op) else { return Ok(None) };
        let dd = self.k.op(dot);
        if !matches!(self.accs.layout.get(&dd.results[0]), Some(AccLayout::Mfma { .. })) {
            return Ok(None);
        }
        let load_of = |i: usize| {
            let v = dd.operands[i];
            let l = *self.defs.get(&v)?;
            let only_dot = self.k.ops.iter().filter(|o| o.operands.contains(&v)).count() == 1;
            (ops.contains(&l) && matches!(self.k.op(l).kind, OpKind::Load { .. }) && only_dot).then_some(l)
        };
        let (Some(la), Some(lb)) = (load_of(0), load_of(1)) else { return Ok(None) };
        let plain = ops.iter().all(|&o| o == dot || o == la || o == lb || self.address_arith(o));
        Ok((plain && la != lb).then_some((dot, [la, lb])))
    }

    /// Before the loop: claims two LDS buffers and computes the extended bound; `None` when
    /// `for_op` does not prefetch.
    pub(crate) fn prefetch_prologue(&mut self, for_op: Op, ub: &str, step: &str, ity: &str) -> Result<Option<PrefetchLoop>, LowerError> {
        let Some((dot, loads)) = self.prefetch_plan(for_op)? else { return Ok(None) };
        let st = self.dot_staging(dot)?;
        let slot_bytes = st.bytes.div_ceil(16) * 16;
        if 2 * slot_bytes > self.t.shared_limits().1 {
            return Ok(None);
        }
        self.scratch(dot, 2 * slot_bytes)?;
        // Whatever used scratch before is done with it before the first stores.
        self.barrier();
        let bound = self.assign(&format!("add {ity} {ub}, {step}"));
        let (parity, prev) = (self.fresh(), [self.fresh(), self.fresh()]);
        let elem = super::emit::num_elem(self.ty(self.k.op(dot).operands[0])).bytes();
        Ok(Some(PrefetchLoop { dot, loads, bound, parity, prev, slot_el: slot_bytes / elem }))
    }

    /// At the top of the body: this iteration's buffer and liveness; returns the next parity.
    pub(crate) fn prefetch_enter(&mut self, pl: &PrefetchLoop, iv: &str, ub: &str, ity: &str) -> String {
        let slot = self.assign(&format!("mul i32 {}, {}", pl.parity, pl.slot_el));
        let live = self.assign(&format!("icmp slt {ity} {iv}, {ub}"));
        self.prefetch = Some(Prefetch { dot: pl.dot, loads: pl.loads, live, slot, prev: pl.prev.clone() });
        self.assign(&format!("xor i32 {}, 1", pl.parity))
    }

    /// At the latch: the header phis of the parity and the carried tiles.
    pub(crate) fn prefetch_phis(&mut self, pl: &PrefetchLoop, next: &str, pre: &str, latch: &str) -> String {
        let mut phis = format!("  {} = phi i32 [ 0, %{pre} ], [ {next}, %{latch} ]\n", pl.parity);
        for (i, &l) in pl.loads.iter().enumerate() {
            let r = self.k.op(l).results[0];
            let (t, cur) = (self.vty(r), self.name(r));
            phis.push_str(&format!("  {} = phi {t} [ zeroinitializer, %{pre} ], [ {cur}, %{latch} ]\n", pl.prev[i]));
        }
        self.prefetch = None;
        phis
    }

    /// Lowers `load` if it is a prefetched one: only while its step exists, zeros past it.
    pub(crate) fn prefetched_load(&mut self, load: Op) -> Result<bool, LowerError> {
        let Some(pf) = self.prefetch.clone().filter(|p| p.loads.contains(&load)) else { return Ok(false) };
        let r = self.k.op(load).results[0];
        let ty = self.vty(r);
        self.prefetch = None;
        let mut done = Ok(());
        let v = self.only_where(&pf.live, |g| {
            done = g.load(load);
            if done.is_ok() { vec![(g.name(r), ty)] } else { vec![] }
        }, "zeroinitializer");
        self.prefetch = Some(pf);
        done?;
        self.bind(r, v[0].clone());
        Ok(true)
    }

    /// The prefetching loop feeding `dot`, if the loop being lowered is one.
    pub(crate) fn prefetch_of(&self, dot: Op) -> Option<Prefetch> {
        self.prefetch.clone().filter(|p| p.dot == dot)
    }
}

#[cfg(test)]
#[path = "prefetch_ring_tests.rs"]
mod tests;
