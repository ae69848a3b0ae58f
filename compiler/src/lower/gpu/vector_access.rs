//! Vector global accesses planned from axis info: a thread's `per` slots split into chunks of
//! `w` consecutive elements (at most 16 bytes, the widest PTX access), each one `ld.global.v*`
//! / `st.global.v*`. What the analysis proves needs no run-time check: alignment from the
//! divisibility of the pointers, and a mask that is one value per chunk (then each chunk is
//! predicated on its first slot). What it cannot prove is checked at run time, falling back
//! to per-slot accesses.

use super::emit::{shaped, Gx, LlvmScalar};
use crate::ir::{Scalar, Value};

/// How a thread's slots of one access move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VectorPlan {
    /// Elements per vector.
    pub w: usize,
    /// Slots per thread (`per / w` chunks).
    pub per: usize,
    /// Each chunk's address is proven aligned to `w` elements.
    pub aligned: bool,
    /// The mask (if any) is proven one value per chunk.
    pub chunk_mask: bool,
}

impl VectorPlan {
    /// Bytes per vector (its alignment).
    pub fn bytes(&self, s: Scalar) -> usize {
        self.w * s.bytes()
    }

    /// Whether the access needs no run-time check at all.
    pub fn proven(&self) -> bool {
        self.aligned && self.chunk_mask
    }
}

impl Gx<'_> {
    /// The vector plan of an access through pointer tile `p` (under `mask`, if any), or
    /// `None` when no chunk of two or more elements is contiguous.
    pub(crate) fn vector_plan(&self, p: Value, mask: Option<Value>, per: usize) -> Option<VectorPlan> {
        let t = self.ty(p);
        let l = super::layout::Blocked::new(t.numel(), self.threads()).ok()?;
        if l.replicated() || per < 2 {
            return None;
        }
        let s = super::emit::num_elem(t);
        let row = *t.shape().last()?;
        let info = self.axis.get(self.k, p);
        let w = info.vector_len(per, row, s.bytes(), 16);
        if w < 2 {
            return None;
        }
        let aligned = info.vector_align(w) % (w * s.bytes()) as u64 == 0;
        let chunk_mask = mask.is_none_or(|m| self.axis.get(self.k, m).uniform_chunks(w));
        Some(VectorPlan { w, per, aligned, chunk_mask })
    }

    /// Slot `j * w`'s pointer, for each chunk `j`, in the global address space.
    pub(crate) fn chunk_ptrs(&mut self, pn: &str, plan: &VectorPlan) -> Vec<String> {
        let pty = format!("<{} x ptr>", plan.per);
        (0..plan.per / plan.w)
            .map(|j| {
                let p = self.extract(pn, &pty, j * plan.w);
                self.assign(&format!("addrspacecast ptr {p} to ptr addrspace(1)"))
            })
            .collect()
    }

    /// `i1`: every slot enabled and, unless proven, every chunk aligned.
    pub(crate) fn vector_ok(&mut self, mask: &str, ptrs: &[String], plan: &VectorPlan, s: Scalar) -> String {
        let per = plan.per;
        let mut conds = vec![];
        if mask != "splat (i1 true)" {
            conds.push(self.call(&format!("llvm.vector.reduce.and.v{per}i1"), "i1", &[(mask, &format!("<{per} x i1>"))]).unwrap_or_default());
        }
        if !plan.aligned {
            let addrs: Vec<String> = ptrs.iter().map(|p| self.assign(&format!("ptrtoint ptr addrspace(1) {p} to i64"))).collect();
            let low = addrs.into_iter().reduce(|a, b| self.assign(&format!("or i64 {a}, {b}"))).unwrap_or_else(|| "0".into());
            let bits = self.assign(&format!("and i64 {low}, {}", plan.bytes(s) - 1));
            conds.push(self.assign(&format!("icmp eq i64 {bits}, 0")));
        }
        let ok = conds.into_iter().reduce(|a, b| self.assign(&format!("and i1 {a}, {b}"))).unwrap_or_else(|| "true".into());
        ok
    }

    /// Loads every chunk as one vector (each under its mask in `ons`, if given), masked-off
    /// chunks taking `other`; returns the thread's `<per x T>` in memory form.
    pub(crate) fn load_chunks(&mut self, ptrs: &[String], ons: Option<&[String]>, other: &str, mty: &str, plan: &VectorPlan, s: Scalar) -> String {
        let w = plan.w;
        let cty = shaped(s.mem(), Some(w));
        let mut acc = other.to_string();
        for (j, p) in ptrs.iter().enumerate() {
            let ld = format!("load {cty}, ptr addrspace(1) {p}, align {}", plan.bytes(s));
            let chunk = match ons {
                None => self.assign(&ld),
                Some(ons) => {
                    let on = ons[j].clone();
                    let (yes, end) = (self.label("ld.chunk"), self.label("ld.chunk.end"));
                    let from = self.cur.clone();
                    let old = self.assign(&format!("shufflevector {mty} {acc}, {mty} poison, <{w} x i32> <{}>", lanes(j * w..(j + 1) * w)));
                    self.cond_br(&on, &yes, &end);
                    self.start(&yes);
                    let v = self.assign(&ld);
                    let yes_end = self.cur.clone();
                    self.br(&end);
                    self.start(&end);
                    self.assign(&format!("phi {cty} [ {v}, %{yes_end} ], [ {old}, %{from} ]"))
                }
            };
            acc = self.insert_chunk(&acc, &chunk, j, mty, plan);
        }
        acc
    }

    /// Stores every chunk of `v` as one vector (each under its mask in `ons`, if given).
    pub(crate) fn store_chunks(&mut self, v: &str, ptrs: &[String], ons: Option<&[String]>, mty: &str, plan: &VectorPlan, s: Scalar) {
        let w = plan.w;
        let cty = shaped(s.mem(), Some(w));
        for (j, p) in ptrs.iter().enumerate() {
            let chunk = self.assign(&format!("shufflevector {mty} {v}, {mty} poison, <{w} x i32> <{}>", lanes(j * w..(j + 1) * w)));
            let st = format!("store {cty} {chunk}, ptr addrspace(1) {p}, align {}", plan.bytes(s));
            match ons {
                None => self.line(&st),
                Some(ons) => {
                    let on = &ons[j];
                    let (yes, end) = (self.label("st.chunk"), self.label("st.chunk.end"));
                    self.cond_br(&on, &yes, &end);
                    self.start(&yes);
                    self.line(&st);
                    self.br(&end);
                    self.start(&end);
                }
            }
        }
    }

    /// `acc` with slots `[j*w, (j+1)*w)` replaced by `chunk`.
    fn insert_chunk(&mut self, acc: &str, chunk: &str, j: usize, mty: &str, plan: &VectorPlan) -> String {
        let (w, per) = (plan.w, plan.per);
        if w == per {
            return chunk.to_string();
        }
        let cty = mty.replace(&format!("<{per} x"), &format!("<{w} x"));
        let wide = self.assign(&format!("shufflevector {cty} {chunk}, {cty} poison, <{per} x i32> <{}>", lanes((0..per).map(|i| i.min(w - 1)))));
        let pick = (0..per).map(|i| if i / w == j { per + i - j * w } else { i });
        self.assign(&format!("shufflevector {mty} {acc}, {mty} {wide}, <{per} x i32> <{}>", lanes(pick)))
    }
}

/// `i32 a, i32 b, ...` of a shuffle mask.
fn lanes(it: impl IntoIterator<Item = usize>) -> String {
    it.into_iter().map(|i| format!("i32 {i}")).collect::<Vec<_>>().join(", ")
}
