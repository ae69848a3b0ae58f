//! Ordering inside a CTA and across the grid: CTA barriers, the store → load tracking that
//! decides where a barrier is needed, single-thread sections, and the grid barrier that
//! `barrier_all` needs when a launch has several CTAs per PE.

use super::emit::Gx;
use super::target::Sreg;
use crate::ir::{Block, Elem, Kernel, OpKind, Value};
use std::collections::{BTreeSet, HashMap};

/// The buffer a pointer was derived from: a kernel parameter, or not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Root {
    /// Derived from kernel parameter `i`.
    Param(usize),
    /// Could be any buffer.
    Unknown,
}

/// Roots of every pointer value of `k`. Distinct pointer parameters are assumed not to
/// overlap, as Triton assumes of its kernel arguments.
pub(crate) fn pointer_roots(k: &Kernel) -> HashMap<Value, Root> {
    let mut roots = HashMap::new();
    for (i, p) in k.params.iter().enumerate() {
        if matches!(k.ty(p.value).elem(), Some(Elem::Ptr(_))) {
            roots.insert(p.value, Root::Param(i));
        }
    }
    for d in &k.ops {
        let is_ptr = |v: &Value| matches!(k.ty(*v).elem(), Some(Elem::Ptr(_)));
        let from = |v: &Value| roots.get(v).copied().unwrap_or(Root::Unknown);
        let root = match d.kind {
            OpKind::AddPtr | OpKind::PtrCast | OpKind::RemotePtr | OpKind::ConsumeToken | OpKind::Splat | OpKind::Broadcast | OpKind::ExpandDims(_) => {
                Some(from(&d.operands[0]))
            }
            OpKind::Select if from(&d.operands[1]) == from(&d.operands[2]) => Some(from(&d.operands[1])),
            _ => None,
        };
        for r in d.results.iter().filter(|r| is_ptr(r)) {
            roots.insert(*r, root.unwrap_or(Root::Unknown));
        }
    }
    // Ops are kept in creation order, so operands come first, except loop-carried and
    // region-yielded values: those were left out above and read as `Unknown`.
    roots
}

/// Roots stored to anywhere inside `b` (nested regions included).
pub(crate) fn stores_in(k: &Kernel, roots: &HashMap<Value, Root>, b: Block, out: &mut BTreeSet<Root>) {
    for &op in &k.block(b).ops {
        let d = k.op(op);
        if matches!(d.kind, OpKind::Store { .. }) {
            out.insert(roots.get(&d.operands[0]).copied().unwrap_or(Root::Unknown));
        }
        for &r in &d.regions {
            stores_in(k, roots, r, out);
        }
    }
}

impl Gx<'_> {
    /// A CTA-wide barrier (`bar.sync 0`, `s_barrier`): every thread's earlier memory accesses
    /// are visible to every thread of the CTA after it.
    pub(crate) fn barrier(&mut self) {
        let bar = self.t.barrier();
        let text: Vec<String> = bar.lines.iter().map(|l| format!("  {l}")).collect();
        // Two barriers in a row (one op's closing, the next op's opening) order nothing more.
        if !self.out.trim_end().ends_with(text.join("\n").trim_start()) {
            self.emit(bar);
        }
        self.pending.clear();
    }

    /// Records a store through `p`.
    pub(crate) fn note_store(&mut self, p: Value) {
        let r = self.roots.get(&p).copied().unwrap_or(Root::Unknown);
        self.pending.insert(r);
    }

    /// Puts a barrier before a load through `p` if another thread may have stored to its
    /// buffer since the last barrier.
    pub(crate) fn order_load(&mut self, p: Value) {
        let r = self.roots.get(&p).copied().unwrap_or(Root::Unknown);
        let conflict = self.pending.contains(&r) || self.pending.contains(&Root::Unknown) || (r == Root::Unknown && !self.pending.is_empty());
        if conflict {
            self.barrier();
        }
    }

    /// Emits `lines` in the threads where `cond` holds (every thread when there is none): a
    /// replicated layout's stores, made by the one owner of each element.
    pub(crate) fn lines_where(&mut self, cond: Option<&str>, lines: &[String]) {
        match cond {
            Some(cond) => {
                self.only_where(cond, |g| {
                    lines.iter().for_each(|l| g.line(l));
                    vec![]
                }, "0");
            }
            None => lines.iter().for_each(|l| self.line(l)),
        }
    }

    /// Runs `body` in the threads where `cond` holds, then joins. Returns, for each value
    /// `body` produced (with its LLVM type), a phi that is `default` in the other threads.
    pub(crate) fn only_where(&mut self, cond: &str, body: impl FnOnce(&mut Self) -> Vec<(String, String)>, default: &str) -> Vec<String> {
        let (yes, end) = (self.label("one.do"), self.label("one.end"));
        let from = self.cur.clone();
        self.cond_br(cond, &yes, &end);
        self.start(&yes);
        let vals = body(self);
        let yes_end = self.cur.clone();
        self.br(&end);
        self.start(&end);
        vals.iter().map(|(v, ty)| self.assign(&format!("phi {ty} [ {v}, %{yes_end} ], [ {default}, %{from} ]"))).collect()
    }

    /// `i1`: this is thread 0 of the CTA.
    pub(crate) fn is_thread0(&mut self) -> String {
        let tid = self.tid();
        self.entry_value("tid0", |_, r| vec![format!("{r} = icmp eq i32 {tid}, 0")])
    }

    /// `i1`: this thread is in warp 0.
    pub(crate) fn in_warp0(&mut self) -> String {
        let tid = self.tid();
        let ws = self.t.warp_size();
        self.entry_value("warp0", |_, r| vec![format!("{r} = icmp ult i32 {tid}, {ws}")])
    }

    /// A barrier over every CTA of the grid, which must all be resident (a cooperative
    /// launch). Thread 0 of each CTA arrives on a counter; the last one resets it and bumps a
    /// generation word that the others wait on, so it works for any grid size and launch.
    pub(crate) fn grid_barrier(&mut self) {
        self.declare("__weft_grid_count", "@__weft_grid_count = internal addrspace(1) global i32 0, align 4");
        self.declare("__weft_grid_gen", "@__weft_grid_gen = internal addrspace(1) global i32 0, align 4");
        let (x, y, z) = (self.sreg(Sreg::NCtaId(0)), self.sreg(Sreg::NCtaId(1)), self.sreg(Sreg::NCtaId(2)));
        self.barrier();
        let t0 = self.is_thread0();
        self.only_where(
            &t0,
            |g| {
                let xy = g.assign(&format!("mul i32 {x}, {y}"));
                let n = g.assign(&format!("mul i32 {xy}, {z}"));
                let last_idx = g.assign(&format!("sub i32 {n}, 1"));
                g.line("fence acq_rel");
                let generation = g.assign("load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4");
                // Release this CTA's writes (to every PE) before arriving.
                let old = g.assign("atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4");
                // LLVM 22 emits the RMW as a relaxed `atom`; the fences around it make the
                // release (above) and acquire (here) patterns explicit.
                g.line("fence acq_rel");
                let last = g.assign(&format!("icmp eq i32 {old}, {last_idx}"));
                let (reset, wait, done) = (g.label("grid.reset"), g.label("grid.wait"), g.label("grid.done"));
                g.cond_br(&last, &reset, &wait);
                g.start(&reset);
                g.line("store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4");
                let next = g.assign(&format!("add i32 {generation}, 1"));
                g.line(&format!("store atomic i32 {next}, ptr addrspace(1) @__weft_grid_gen release, align 4"));
                g.br(&done);
                g.start(&wait);
                let now = g.assign("load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4");
                let same = g.assign(&format!("icmp eq i32 {now}, {generation}"));
                g.cond_br(&same, &wait, &done);
                g.start(&done);
                vec![]
            },
            "0",
        );
        self.barrier();
    }
}
