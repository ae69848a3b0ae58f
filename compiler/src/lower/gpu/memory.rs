//! Masked loads and stores of tiles. A thread whose slots are consecutive in memory (see
//! `Gx::contig`) moves them with one vector access when all its slots are enabled and the
//! address is aligned for it, checked at run time; otherwise each enabled slot moves alone
//! (LLVM's masked gather / scatter, which the NVPTX back end scalarises). Replicated tiles are
//! stored by their owner threads only.
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
        let mask = m.unwrap_or_else(|| "splat (i1 true)".into());
        let pty = format!("<{per} x ptr>");
        let v = if self.contig.contains(&p) && per > 1 {
            let (vec, fallback, end) = (self.label("ld.vec"), self.label("ld.slots"), self.label("ld.end"));
            let (p0, align) = self.vector_guard(&pn, &mask, s.bytes(), per, &vec, &fallback);
            self.start(&vec);
            let g0 = self.global(&p0, "ptr");
            let a = self.assign(&format!("load {mty}, ptr addrspace(1) {g0}, align {align}"));
            let a = self.select_other(&mask, &a, &other, &mty);
            self.br(&end);
            self.start(&fallback);
            let b = self.gather(&pn, &pty, &mask, &other, s, per);
            let fb = self.cur.clone();
            self.br(&end);
            self.start(&end);
            self.assign(&format!("phi {mty} [ {a}, %{vec} ], [ {b}, %{fb} ]"))
        } else {
            self.gather(&pn, &pty, &mask, &other, s, per)
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
        if self.contig.contains(&p) && per > 1 {
            let (vec, fallback, end) = (self.label("st.vec"), self.label("st.slots"), self.label("st.end"));
            let (p0, align) = self.vector_guard(&pn, &mask, s.bytes(), per, &vec, &fallback);
            self.start(&vec);
            let g0 = self.global(&p0, "ptr");
            self.line(&format!("store {mty} {v}, ptr addrspace(1) {g0}, align {align}"));
            self.br(&end);
            self.start(&fallback);
            self.scatter(&v, &pn, &pty, &mask, s, per);
            self.br(&end);
            self.start(&end);
        } else {
            self.scatter(&v, &pn, &pty, &mask, s, per);
        }
        Ok(())
    }

    /// Branches to `vec` when every slot is enabled and slot 0's address is aligned for a
    /// vector access, else to `fallback`. Returns slot 0's pointer and the alignment.
    fn vector_guard(&mut self, pn: &str, mask: &str, bytes: usize, per: usize, vec: &str, fallback: &str) -> (String, usize) {
        let p0 = self.extract(pn, &format!("<{per} x ptr>"), 0);
        // PTX vector accesses move at most 16 bytes; LLVM splits wider ones into aligned parts.
        let align = (bytes * per).min(16);
        let all = self.call(&format!("llvm.vector.reduce.and.v{per}i1"), "i1", &[(mask, &format!("<{per} x i1>"))]).unwrap_or_default();
        let addr = self.assign(&format!("ptrtoint ptr {p0} to i64"));
        let low = self.assign(&format!("and i64 {addr}, {}", align - 1));
        let aligned = self.assign(&format!("icmp eq i64 {low}, 0"));
        let ok = self.assign(&format!("and i1 {all}, {aligned}"));
        self.cond_br(&ok, vec, fallback);
        (p0, align)
    }

    /// `mask ? a : other` per slot (a vector load reads every slot; masked-off ones get `other`).
    fn select_other(&mut self, mask: &str, a: &str, other: &str, mty: &str) -> String {
        if mask == "splat (i1 true)" {
            return a.to_string();
        }
        let per = mty.trim_start_matches('<').split(' ').next().unwrap_or("1").to_string();
        self.assign(&format!("select <{per} x i1> {mask}, {mty} {a}, {mty} {other}"))
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
