//! Masked loads and stores of tiles. Where axis info shows a thread's slots to be runs of
//! consecutive addresses they move as 16-byte (or narrower) vectors (see `vector_access`):
//! unchecked where alignment and a per-vector mask are proven, else behind a run-time check
//! with a fallback where each enabled slot moves alone (LLVM's masked gather / scatter, which
//! the NVPTX back end scalarises). Replicated tiles are stored by their owner threads only.
//!
//! Threads of a CTA do not see each other's global stores without a barrier, yet a program
//! instance is one sequential program. So a load that may read what another thread stored
//! since the last barrier (same root buffer, see `roots`) is preceded by a barrier.

use super::emit::{num_elem, shaped, suffix, Gx, LlvmScalar};
use crate::ir::{Op, OpKind};
use crate::lower::LowerError;

impl Gx<'_> {
    pub(crate) fn load(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let OpKind::Load { mask, other } = d.kind else { return Err(self.malformed(op, "not a load")) };
        if let Some((dot, which)) = self.staged_load(op) {
            return self.load_to_shared(op, dot, which);
        }
        if self.prefetched_load(op)? {
            return Ok(());
        }
        let (p, r) = (d.operands[0], d.results[0]);
        self.order_load(p);
        let s = num_elem(self.ty(r));
        let pn = self.name(p);
        let m = mask.then(|| self.name(d.operands[1]));
        let Some(per) = self.slots(self.ty(r)) else {
            let v = self.guarded_scalar_load(&pn, s, m.as_deref());
            let v = if let (true, Some(_)) = (other, &m) {
                let o = self.name(d.operands[2]);
                self.assign(&format!("select i1 {}, {} {v}, {} {o}", m.clone().unwrap_or_default(), s.llvm(), s.llvm()))
            } else {
                v
            };
            self.bind(r, v);
            return Ok(());
        };
        let mty = shaped(s.mem(), Some(per));
        let other = if other { self.name(d.operands[2]) } else { "zeroinitializer".into() };
        let other = self.to_mem(&other, s, per);
        let mask_on = m.is_some();
        let mask = m.unwrap_or_else(|| "splat (i1 true)".into());
        let pty = format!("<{per} x ptr>");
        let mask_v = mask_on.then(|| d.operands[1]);
        let v = match self.vector_plan(p, mask_v, per) {
            Some(plan) if plan.proven() => {
                let ptrs = self.chunk_ptrs(&pn, &plan);
                let ons = match mask_v {
                    Some(m) => Some(self.chunk_masks(op, m, &mask, per, plan.w)?),
                    None => None,
                };
                self.load_chunks(&ptrs, ons.as_deref(), &other, &mty, &plan, s)
            }
            Some(plan) => {
                let (vec, fallback, end) = (self.label("ld.vec"), self.label("ld.slots"), self.label("ld.end"));
                let ptrs = self.chunk_ptrs(&pn, &plan);
                let ok = self.vector_ok(&mask, &ptrs, &plan, s);
                self.cond_br(&ok, &vec, &fallback);
                self.start(&vec);
                let a = self.load_chunks(&ptrs, None, &other, &mty, &plan, s);
                let ve = self.cur.clone();
                self.br(&end);
                self.start(&fallback);
                let b = self.gather(&pn, &pty, &mask, &other, s, per);
                let fb = self.cur.clone();
                self.br(&end);
                self.start(&end);
                self.assign(&format!("phi {mty} [ {a}, %{ve} ], [ {b}, %{fb} ]"))
            }
            None => self.gather(&pn, &pty, &mask, &other, s, per),
        };
        let v = self.from_mem(&v, s, per);
        self.bind(r, v);
        Ok(())
    }

    pub(crate) fn store(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let OpKind::Store { mask } = d.kind else { return Err(self.malformed(op, "not a store")) };
        let (p, val) = (d.operands[0], d.operands[1]);
        self.note_store(p);
        let s = num_elem(self.ty(p));
        let (pn, vn) = (self.name(p), self.name(val));
        let m = mask.then(|| self.name(d.operands[2]));
        let Some(per) = self.slots(self.ty(p)) else {
            // Every thread stores the same value, so each one reads back its own write.
            let v = self.to_mem(&vn, s, 0);
            let st = format!("store {} {v}, ptr {pn}", s.mem());
            match m {
                None => self.line(&st),
                Some(m) => {
                    let (yes, end) = (self.label("st.one"), self.label("st.end"));
                    self.cond_br(&m, &yes, &end);
                    self.start(&yes);
                    self.line(&st);
                    self.br(&end);
                    self.start(&end);
                }
            }
            return Ok(());
        };
        let l = self.layout_of(op, self.ty(p))?;
        let mask_op = m.is_some();
        let mut mask = m.unwrap_or_else(|| "splat (i1 true)".into());
        if let Some(own) = self.owner(&l) {
            let o = self.splat(&own, "i1", per);
            mask = self.assign(&format!("and <{per} x i1> {mask}, {o}"));
        }
        let v = if self.ty(val).is_tensor() { vn } else { self.splat(&vn, s.llvm(), per) };
        let v = self.to_mem(&v, s, per);
        if self.ll_words.contains(&val) {
            self.ll_store(&v, &pn, &mask, per);
            return Ok(());
        }
        let mty = shaped(s.mem(), Some(per));
        let pty = format!("<{per} x ptr>");
        // Replicated tiles never vectorise, so the owner mask never needs to be per chunk.
        let mask_v = mask_op.then(|| d.operands[2]);
        match self.vector_plan(p, mask_v, per) {
            Some(plan) if plan.proven() => {
                let ptrs = self.chunk_ptrs(&pn, &plan);
                let ons = match mask_v {
                    Some(m) => Some(self.chunk_masks(op, m, &mask, per, plan.w)?),
                    None => None,
                };
                self.store_chunks(&v, &ptrs, ons.as_deref(), &mty, &plan, s);
            }
            Some(plan) => {
                let (vec, fallback, end) = (self.label("st.vec"), self.label("st.slots"), self.label("st.end"));
                let ptrs = self.chunk_ptrs(&pn, &plan);
                let ok = self.vector_ok(&mask, &ptrs, &plan, s);
                self.cond_br(&ok, &vec, &fallback);
                self.start(&vec);
                self.store_chunks(&v, &ptrs, None, &mty, &plan, s);
                self.br(&end);
                self.start(&fallback);
                self.scatter(&v, &pn, &pty, &mask, s, per);
                self.br(&end);
                self.start(&end);
            }
            None => self.scatter(&v, &pn, &pty, &mask, s, per),
        }
        Ok(())
    }

    fn gather(&mut self, pn: &str, pty: &str, mask: &str, other: &str, s: crate::ir::Scalar, per: usize) -> String {
        let mty = shaped(s.mem(), Some(per));
        let f = format!("llvm.masked.gather.{}.v{per}p1", suffix_mem(s, per));
        let g = self.global(pn, pty);
        // LLVM 22 takes the alignment as an attribute of the pointer operand.
        let gty = format!("<{per} x ptr addrspace(1)> align {}", s.bytes());
        self.call(&f, &mty, &[(&g, &gty), (mask, &format!("<{per} x i1>")), (other, &mty)]).unwrap_or_default()
    }

    fn scatter(&mut self, v: &str, pn: &str, pty: &str, mask: &str, s: crate::ir::Scalar, per: usize) {
        let mty = shaped(s.mem(), Some(per));
        let f = format!("llvm.masked.scatter.{}.v{per}p1", suffix_mem(s, per));
        let g = self.global(pn, pty);
        let gty = format!("<{per} x ptr addrspace(1)> align {}", s.bytes());
        self.call(&f, "void", &[(v, &mty), (&g, &gty), (mask, &format!("<{per} x i1>"))]);
    }

    /// `p` (of generic pointer type `pty`, scalar or vector) in the global address space:
    /// every pointer a kernel sees (arguments, the symmetric heap, peer and multicast
    /// addresses) is global memory, and saying so gives `ld.global` / `st.global`.
    fn global(&mut self, p: &str, pty: &str) -> String {
        let gty = pty.replace("ptr", "ptr addrspace(1)");
        self.assign(&format!("addrspacecast {pty} {p} to {gty}"))
    }

    /// A scalar load that only happens when `mask` (if any) is true; 0 otherwise.
    fn guarded_scalar_load(&mut self, pn: &str, s: crate::ir::Scalar, mask: Option<&str>) -> String {
        let ld = |g: &mut Self| {
            let v = g.assign(&format!("load {}, ptr {pn}", s.mem()));
            g.from_mem(&v, s, 0)
        };
        let Some(m) = mask else { return ld(self) };
        let (yes, end) = (self.label("ld.one"), self.label("ld.end"));
        let from = self.cur.clone();
        self.cond_br(m, &yes, &end);
        self.start(&yes);
        let v = ld(self);
        let yes_end = self.cur.clone();
        self.br(&end);
        self.start(&end);
        let zero = super::emit::literal(crate::ir::ConstVal::Int(0), s);
        self.assign(&format!("phi {} [ {v}, %{yes_end} ], [ {zero}, %{from} ]", s.llvm()))
    }

    /// `i1` tiles live in memory as bytes.
    fn to_mem(&mut self, v: &str, s: crate::ir::Scalar, per: usize) -> String {
        if s != crate::ir::Scalar::I1 || v == "zeroinitializer" {
            return v.to_string();
        }
        let p = (per > 0).then_some(per);
        self.assign(&format!("zext {} {v} to {}", shaped("i1", p), shaped("i8", p)))
    }

    fn from_mem(&mut self, v: &str, s: crate::ir::Scalar, per: usize) -> String {
        if s != crate::ir::Scalar::I1 {
            return v.to_string();
        }
        let p = (per > 0).then_some(per);
        self.assign(&format!("trunc {} {v} to {}", shaped("i8", p), shaped("i1", p)))
    }
}

/// The masked-intrinsic suffix of the in-memory element (`v4f32`, `v2i8` for `i1`).
fn suffix_mem(s: crate::ir::Scalar, per: usize) -> String {
    if s == crate::ir::Scalar::I1 { format!("v{per}i8") } else { suffix(s, Some(per)) }
}
