//! Tile construction and pointer arithmetic: program ids, ranges over the layout, splat /
//! broadcast / expand_dims (aliases or re-splats when no data moves, else see `convert`),
//! `addptr` and `ptr_cast`.

use super::emit::{num_elem, Gx, LlvmScalar};
use super::target::Sreg;
use crate::ir::{Elem, Op, OpKind, Scalar};
use crate::lower::LowerError;

impl Gx<'_> {
    pub(crate) fn tile(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let r = d.results[0];
        let rty = self.ty(r);
        match &d.kind {
            OpKind::ProgramId(a) | OpKind::NumPrograms(a) => {
                if *a > 2 {
                    return Err(self.malformed(op, "axis must be 0, 1 or 2"));
                }
                let reg = if matches!(d.kind, OpKind::ProgramId(_)) { Sreg::CtaId(*a as u8) } else { Sreg::NCtaId(*a as u8) };
                let v = self.sreg(reg);
                let v = self.convert(&v, Scalar::I32, num_elem(rty), None);
                self.bind(r, v);
            }
            OpKind::MakeRange(s, e) => {
                let l = self.layout_of(op, rty)?;
                let base = self.layout_base(&l);
                let first = self.assign(&format!("add i32 {base}, {s}"));
                let v = self.splat(&first, "i32", l.per);
                let steps: Vec<String> = (0..l.per).map(|i| format!("i32 {i}")).collect();
                let x = self.assign(&format!("add <{} x i32> {v}, <{}>", l.per, steps.join(", ")));
                let x = self.convert(&x, Scalar::I32, num_elem(rty), Some(l.per));
                let _ = e;
                self.bind(r, x);
            }
            OpKind::Splat => {
                let src = d.operands[0];
                let l = self.layout_of(op, rty)?;
                let s = self.name(src);
                let elem = super::emit::elem_ty(rty.elem().unwrap_or(Elem::Num(Scalar::I1)));
                let v = self.splat(&s, elem, l.per);
                self.uniform.insert(r, s);
                self.bind(r, v);
            }
            OpKind::Broadcast | OpKind::ExpandDims(_) => {
                let src = d.operands[0];
                let sty = self.ty(src);
                if sty.numel() == rty.numel() {
                    // Same element count, so the same flattened layout: nothing moves.
                    self.alias(src, r);
                } else if let Some(u) = self.uniform.get(&src).cloned() {
                    let l = self.layout_of(op, rty)?;
                    let elem = super::emit::elem_ty(rty.elem().unwrap_or(Elem::Num(Scalar::I1)));
                    let v = self.splat(&u, elem, l.per);
                    self.uniform.insert(r, u);
                    self.bind(r, v);
                } else if let Some(v) = self.remat_broadcast(op, src, r)? {
                    self.bind(r, v);
                } else if sty.shape().len() == rty.shape().len() {
                    let g = super::convert::Gather::broadcast(sty.shape(), rty.shape());
                    let v = self.move_elements(op, src, r, &g, crate::ir::ReduceKind::Sum)?;
                    self.bind(r, v);
                } else {
                    return Err(self.malformed(op, &format!("broadcast of {sty} to {rty} changes the rank")));
                }
            }
            OpKind::PtrCast => {
                let src = d.operands[0];
                // Pointers are opaque, so the value is unchanged; slots stay consecutive only
                // when the element size does.
                let n = self.name(src);
                self.bind(r, n);
                if let Some(u) = self.uniform.get(&src).cloned() {
                    self.uniform.insert(r, u);
                }
            }
            OpKind::AddPtr => self.addptr(op)?,
            _ => return Err(self.malformed(op, "not a tile op")),
        }
        Ok(())
    }

    /// Makes `to` an alias of `from`, with its facts.
    pub(crate) fn alias(&mut self, from: crate::ir::Value, to: crate::ir::Value) {
        let n = self.name(from);
        self.bind(to, n);
        if let Some(u) = self.uniform.get(&from).cloned() {
            self.uniform.insert(to, u);
        }
    }

    fn addptr(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (p, off, r) = (d.operands[0], d.operands[1], d.results[0]);
        let elem = num_elem(self.ty(p)).mem();
        let rp = self.slots(self.ty(r));
        let os = num_elem(self.ty(off));
        let o = self.name(off);
        let o = self.to_i64(&o, os, self.slots(self.ty(off)));
        let (pty, oty) = (self.vty(p), self.lty(&self.ty(off).with_elem(Elem::Num(Scalar::I64))));
        let pn = self.name(p);
        let x = self.assign(&format!("getelementptr {elem}, {pty} {pn}, {oty} {o}"));
        if rp.is_some() {
            let (pu, ou) = (self.uniform.contains_key(&p) || !self.ty(p).is_tensor(), self.uniform.contains_key(&off) || !self.ty(off).is_tensor());
            if let (true, true) = (pu, ou) {
                let (ps, os_) = (self.uniform.get(&p).cloned().unwrap_or(pn.clone()), self.uniform.get(&off).cloned());
                let os_ = match os_ {
                    Some(u) => self.to_i64(&u, os, None),
                    None => o.clone(),
                };
                let s = self.assign(&format!("getelementptr {elem}, ptr {ps}, i64 {os_}"));
                self.uniform.insert(r, s);
            }
        }
        self.bind(r, x);
        Ok(())
    }
}
