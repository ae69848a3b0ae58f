//! Data movement between threads: layout conversions (blocked ⇄ accumulator), data-moving
//! broadcasts and axis reductions of tiles. Each first checks, by enumerating every thread,
//! whether a thread already holds all it needs at the same slots (then it is a register
//! shuffle); otherwise the source goes through the CTA's scratch shared memory, row-major, and
//! each thread reads what it needs (Triton's `convert_layout`). Scratch is one buffer shared by
//! every use, so each use starts with a barrier (earlier readers are done) and has one between
//! its writes and reads.

use super::acc_layout::AccLayout;
use super::emit::{elem_ty, num_elem, Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::{Op, OpData, ReduceKind, Scalar, Type, Value};
use crate::lower::LowerError;

/// The module global of the scratch buffer: a static array, or (`dynamic`, above what a CTA
/// has without opting in) the dynamic shared memory the launch sizes.
pub(crate) fn scratch_decl(bytes: usize, dynamic: bool, align: usize) -> String {
    if dynamic {
        return format!("@__weft_smem = external addrspace(3) global [0 x i8], align {align}");
    }
    format!("@__weft_smem = internal addrspace(3) global [{bytes} x i8] undef, align {align}")
}

/// Which source elements make each result element: result index `i` (row-major over
/// `res`) reads source `sum(coef[d] * i_d) + j * step` for `j < count`.
pub(crate) struct Gather {
    pub res: Vec<usize>,
    pub coef: Vec<usize>,
    pub step: usize,
    pub count: usize,
}

/// Row-major strides of `shape`.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

impl Gather {
    /// `src` broadcast to `res` (equal ranks; dims of size 1 repeat).
    pub fn broadcast(src: &[usize], res: &[usize]) -> Gather {
        let st = strides(src);
        let coef = (0..res.len()).map(|d| if src[d] == res[d] { st[d] } else { 0 }).collect();
        Gather { res: res.to_vec(), coef, step: 0, count: 1 }
    }

    /// `src` reduced along `axis`.
    pub fn reduce(src: &[usize], axis: usize) -> Gather {
        let st = strides(src);
        let (mut res, mut coef) = (src.to_vec(), st.clone());
        res.remove(axis);
        coef.remove(axis);
        Gather { res, coef, step: st[axis], count: src[axis] }
    }

    /// The source elements of result element `e`.
    pub fn sources(&self, e: usize) -> Vec<usize> {
        let rs = strides(&self.res);
        let base: usize = (0..self.res.len()).map(|d| (e / rs[d]) % self.res[d] * self.coef[d]).sum();
        (0..self.count).map(|j| base + j * self.step).collect()
    }

    /// Per result slot, the source slots that hold its sources in every thread, when that is
    /// the same for all threads (the move needs no other thread).
    pub fn local(&self, src: &Blocked, res: &Blocked) -> Option<Vec<Vec<usize>>> {
        let mut map: Option<Vec<Vec<usize>>> = None;
        for t in 0..res.threads {
            let mine: Option<Vec<Vec<usize>>> = (0..res.per)
                .map(|s| self.sources(res.element(t, s)).into_iter().map(|e| (0..src.per).find(|&k| src.element(t, k) == e)).collect())
                .collect();
            match (&map, mine) {
                (_, None) => return None,
                (None, Some(m)) => map = Some(m),
                (Some(a), Some(m)) if *a != m => return None,
                _ => {}
            }
        }
        map
    }
}

impl Gx<'_> {
    /// Claims `bytes` of scratch shared memory for `op`.
    pub(crate) fn scratch(&mut self, op: Op, bytes: usize) -> Result<(), LowerError> {
        let max = self.t.shared_limits().1;
        if bytes > max {
            return Err(self.unsupported(op, &format!("needs {bytes} bytes of shared memory, more than the {max} a CTA can have; use smaller tiles")));
        }
        self.smem_bytes = self.smem_bytes.max(bytes);
        Ok(())
    }

    /// The address of element `idx` (an i32) of type `elem` in scratch from byte `base` on.
    pub(crate) fn smem_at(&mut self, base: usize, elem: &str, idx: &str) -> String {
        self.assign(&format!("getelementptr inbounds {elem}, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 {base}), i32 {idx}"))
    }

    /// Writes the owned elements of tile `v` (element `s`, layout `l`) row-major to scratch.
    pub(crate) fn stash_blocked(&mut self, v: &str, s: Scalar, l: &Blocked, base: usize) {
        let (e, per) = (s.mem(), l.per);
        let v = if s == Scalar::I1 { self.assign(&format!("zext <{per} x i1> {v} to <{per} x i8>")) } else { v.to_string() };
        let b = self.layout_base(l);
        let p = self.smem_at(base, e, &b);
        match self.owner(l) {
            Some(own) => {
                let x = self.extract(&v, &format!("<1 x {e}>"), 0);
                self.only_where(&own, |g| {
                    g.line(&format!("store {e} {x}, ptr addrspace(3) {p}"));
                    vec![]
                }, "0");
            }
            None => {
                let align = vector_align(s.bytes() * per);
                self.line(&format!("store <{per} x {e}> {v}, ptr addrspace(3) {p}, align {align}"));
            }
        }
    }

    /// Reads a tile of element `s` in blocked layout `l` from row-major scratch.
    pub(crate) fn unstash_blocked(&mut self, s: Scalar, l: &Blocked, base: usize) -> String {
        let (e, per) = (s.mem(), l.per);
        let b = self.layout_base(l);
        let p = self.smem_at(base, e, &b);
        let v = self.assign(&format!("load <{per} x {e}>, ptr addrspace(3) {p}, align {}", vector_align(s.bytes() * per)));
        if s == Scalar::I1 { self.assign(&format!("trunc <{per} x i8> {v} to <{per} x i1>")) } else { v }
    }

    /// This thread's first element of accumulator layout `l`, as a row-major index.
    pub(crate) fn acc_base(&mut self, l: &AccLayout) -> String {
        let tid = self.tid();
        let (_, n) = l.shape();
        self.entry_value(&format!("acc.base.{l:?}"), |_, r| {
            let (row, col) = (format!("{r}.row"), format!("{r}.col"));
            let mut v = match *l {
                AccLayout::Mma { m, n, warps_m, warps_n } => vec![
                    format!("{r}.w = udiv i32 {tid}, 32"),
                    format!("{r}.l = urem i32 {tid}, 32"),
                    format!("{r}.wm = udiv i32 {r}.w, {warps_n}"),
                    format!("{r}.wn = urem i32 {r}.w, {warps_n}"),
                    format!("{r}.g = udiv i32 {r}.l, 4"),
                    format!("{r}.q = urem i32 {r}.l, 4"),
                    format!("{r}.r0 = mul i32 {r}.wm, {}", m / warps_m),
                    format!("{row} = add i32 {r}.r0, {r}.g"),
                    format!("{r}.c0 = mul i32 {r}.wn, {}", n / warps_n),
                    format!("{r}.c1 = mul i32 {r}.q, 2"),
                    format!("{col} = add i32 {r}.c0, {r}.c1"),
                ],
                AccLayout::Mfma { m, n, warps_m, warps_n, instr } => vec![
                    format!("{r}.w = udiv i32 {tid}, {}", super::mfma::WAVE),
                    format!("{r}.l = urem i32 {tid}, {}", super::mfma::WAVE),
                    format!("{r}.wm = udiv i32 {r}.w, {warps_n}"),
                    format!("{r}.wn = urem i32 {r}.w, {warps_n}"),
                    format!("{r}.g = udiv i32 {r}.l, {instr}"),
                    format!("{r}.q = urem i32 {r}.l, {instr}"),
                    format!("{r}.r0 = mul i32 {r}.wm, {}", m / warps_m),
                    format!("{r}.r1 = mul i32 {r}.g, 4"),
                    format!("{row} = add i32 {r}.r0, {r}.r1"),
                    format!("{r}.c0 = mul i32 {r}.wn, {}", n / warps_n),
                    format!("{col} = add i32 {r}.c0, {r}.q"),
                ],
                AccLayout::Fma { threads_n, .. } => {
                    let (bm, bn) = l.reps();
                    vec![
                        format!("{r}.tm = udiv i32 {tid}, {threads_n}"),
                        format!("{r}.tn = urem i32 {tid}, {threads_n}"),
                        format!("{row} = mul i32 {r}.tm, {bm}"),
                        format!("{col} = mul i32 {r}.tn, {bn}"),
                    ]
                }
            };
            v.push(format!("{r}.rn = mul i32 {row}, {n}"));
            v.push(format!("{r} = add i32 {r}.rn, {col}"));
            v
        })
    }

    /// Writes accumulator `v` (layout `l`, element `s`) row-major to scratch.
    fn stash_acc(&mut self, v: &str, s: Scalar, l: &AccLayout, base: usize) {
        let (e, n) = (s.llvm(), l.shape().1);
        let b = self.acc_base(l);
        let p = self.smem_at(base, e, &b);
        let vty = format!("<{} x {e}>", l.slots());
        for slot in 0..l.slots() {
            let (dr, dc) = l.offset(slot);
            let x = self.extract(v, &vty, slot);
            let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {}", dr * n + dc));
            self.line(&format!("store {e} {x}, ptr addrspace(3) {q}"));
        }
    }

    /// Reads an accumulator of layout `l` from row-major scratch.
    fn unstash_acc(&mut self, s: Scalar, l: &AccLayout, base: usize) -> String {
        let (e, n) = (s.llvm(), l.shape().1);
        let b = self.acc_base(l);
        let p = self.smem_at(base, e, &b);
        let vty = format!("<{} x {e}>", l.slots());
        let mut v = "poison".to_string();
        for slot in 0..l.slots() {
            let (dr, dc) = l.offset(slot);
            let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {}", dr * n + dc));
            let x = self.assign(&format!("load {e}, ptr addrspace(3) {q}"));
            v = self.assign(&format!("insertelement {vty} {v}, {e} {x}, i64 {slot}"));
        }
        v
    }

    /// Accumulator `v` (layout `l`, IR type `t`) in the blocked layout.
    pub(crate) fn acc_to_blocked(&mut self, op: Op, v: &str, l: &AccLayout, t: &Type) -> Result<String, LowerError> {
        if let Some(b) = self.acc_to_blocked_chunked(op, v, l, t)? {
            return Ok(b);
        }
        let (s, bl) = (num_elem(t), self.layout_of(op, t)?);
        self.scratch(op, t.numel() * s.bytes())?;
        self.barrier();
        self.stash_acc(v, s, l, 0);
        self.barrier();
        Ok(self.unstash_blocked(s, &bl, 0))
    }

    /// Blocked tile `v` of IR type `t` in accumulator layout `l`.
    pub(crate) fn blocked_to_acc(&mut self, op: Op, v: &str, l: &AccLayout, t: &Type) -> Result<String, LowerError> {
        let (s, bl) = (num_elem(t), self.layout_of(op, t)?);
        self.scratch(op, t.numel() * s.bytes())?;
        self.barrier();
        self.stash_blocked(v, s, &bl, 0);
        self.barrier();
        Ok(self.unstash_acc(s, l, 0))
    }

    /// Value `v` in accumulator layout `l`, converting (or re-splatting a uniform tile).
    pub(crate) fn in_acc_layout(&mut self, op: Op, v: Value, l: &AccLayout) -> Result<String, LowerError> {
        if self.accs.layout.get(&v) == Some(l) {
            return Ok(self.name(v));
        }
        let e = elem_ty(self.ty(v).elem().unwrap_or(crate::ir::Elem::Num(Scalar::F32)));
        if let Some(u) = self.uniform.get(&v).cloned() {
            return Ok(self.splat(&u, e, l.slots()));
        }
        let b = self.blocked_form.get(&v).cloned().unwrap_or_else(|| self.name(v));
        let t = self.ty(v);
        self.blocked_to_acc(op, &b, l, t)
    }

    /// Right after `v` is defined in an accumulator layout: makes its blocked copy if an op
    /// reads it blocked.
    pub(crate) fn settle(&mut self, op: Op, v: Value) -> Result<(), LowerError> {
        let Some(l) = self.accs.layout.get(&v).copied() else { return Ok(()) };
        if self.accs.needs_blocked.contains(&v) {
            let n = self.name(v);
            let b = self.acc_to_blocked(op, &n, &l, self.ty(v))?;
            self.blocked_form.insert(v, b);
        }
        Ok(())
    }

    /// The lowered name of operand `i` of `d` in the layout `d` reads it in.
    pub(crate) fn operand_name(&self, d: &OpData, i: usize) -> String {
        let v = d.operands[i];
        match self.accs.layout.get(&v) {
            Some(l) if !super::layout_infer::keeps_layout(self.k, &self.accs.layout, d, i, l) => self.blocked_form.get(&v).cloned().unwrap_or_else(|| self.name(v)),
            _ => self.name(v),
        }
    }

    /// Rebinds the accumulator-layout operands that `d` reads blocked to their blocked copies;
    /// returns what to restore.
    pub(crate) fn swap_in_blocked(&mut self, d: &OpData) -> Vec<(Value, String, AccLayout)> {
        let mut saved = vec![];
        for i in 0..d.operands.len() {
            let v = d.operands[i];
            let Some(&l) = self.accs.layout.get(&v) else { continue };
            let b = self.operand_name(d, i);
            if b != self.name(v) && !saved.iter().any(|s: &(Value, String, AccLayout)| s.0 == v) {
                saved.push((v, self.name(v), l));
                self.bind(v, b);
                self.accs.layout.remove(&v);
            }
        }
        saved
    }

    /// Undoes [`Gx::swap_in_blocked`].
    pub(crate) fn swap_back(&mut self, saved: Vec<(Value, String, AccLayout)>) {
        for (v, n, l) in saved {
            self.bind(v, n);
            self.accs.layout.insert(v, l);
        }
    }

    /// Result tile `r` (blocked) made from source tile `src` by `g`, combining several
    /// sources with `kind`.
    pub(crate) fn move_elements(&mut self, op: Op, src: Value, r: Value, g: &Gather, kind: ReduceKind) -> Result<String, LowerError> {
        let (sty, rty) = (self.ty(src), self.ty(r));
        let (sl, rl) = (self.layout_of(op, sty)?, self.layout_of(op, rty)?);
        let s = num_elem(sty);
        let acc = if g.count > 1 && matches!(s, Scalar::F16 | Scalar::BF16) { Scalar::F32 } else { s };
        let (e, sv) = (s.llvm(), self.name(src));
        let svty = format!("<{} x {e}>", sl.per);
        if let Some(map) = g.local(&sl, &rl) {
            if g.count == 1 {
                let mask: Vec<String> = map.iter().map(|m| format!("i32 {}", m[0])).collect();
                return Ok(self.assign(&format!("shufflevector {svty} {sv}, {svty} poison, <{} x i32> <{}>", rl.per, mask.join(", "))));
            }
            let slots: Vec<Vec<String>> = map.iter().map(|m| m.iter().map(|&k| self.extract(&sv, &svty, k)).collect()).collect();
            return Ok(self.combine_slots(slots, kind, s, acc));
        }
        self.scratch(op, sty.numel() * s.bytes())?;
        self.barrier();
        self.stash_blocked(&sv, s, &sl, 0);
        self.barrier();
        let base = self.layout_base(&rl);
        let rs = strides(&g.res);
        let mut slots = vec![];
        for slot in 0..rl.per {
            let el = self.assign(&format!("add i32 {base}, {slot}"));
            let mut first = "0".to_string();
            for d in 0..g.res.len() {
                if g.coef[d] == 0 {
                    continue;
                }
                let q = self.assign(&format!("udiv i32 {el}, {}", rs[d]));
                let i = self.assign(&format!("urem i32 {q}, {}", g.res[d]));
                let t = self.assign(&format!("mul i32 {i}, {}", g.coef[d]));
                first = self.assign(&format!("add i32 {first}, {t}"));
            }
            let p = self.smem_at(0, s.mem(), &first);
            let mut xs = vec![];
            for j in 0..g.count {
                let q = self.assign(&format!("getelementptr inbounds {}, ptr addrspace(3) {p}, i32 {}", s.mem(), j * g.step));
                let x = self.assign(&format!("load {}, ptr addrspace(3) {q}", s.mem()));
                xs.push(if s == Scalar::I1 { self.assign(&format!("trunc i8 {x} to i1")) } else { x });
            }
            slots.push(xs);
        }
        Ok(self.combine_slots(slots, kind, s, acc))
    }

    /// A `<slots x s>` tile whose slot `i` combines `slots[i]` with `kind` (in `acc`).
    fn combine_slots(&mut self, slots: Vec<Vec<String>>, kind: ReduceKind, s: Scalar, acc: Scalar) -> String {
        let vty = format!("<{} x {}>", slots.len(), s.llvm());
        let mut v = "poison".to_string();
        for (i, xs) in slots.into_iter().enumerate() {
            let mut x = String::new();
            for (j, y) in xs.iter().enumerate() {
                let y = self.convert(y, s, acc, None);
                x = if j == 0 { y } else { self.combine(kind, &x, &y, acc.llvm(), acc, None) };
            }
            let x = self.convert(&x, acc, s, None);
            v = self.assign(&format!("insertelement {vty} {v}, {} {x}, i64 {i}", s.llvm()));
        }
        v
    }
}

/// The alignment of a vector access of `bytes` bytes at a multiple of its size (at most 16).
pub(super) fn vector_align(bytes: usize) -> usize {
    (1usize << bytes.trailing_zeros()).min(16)
}

#[cfg(test)]
#[path = "convert_tests.rs"]
mod tests;
