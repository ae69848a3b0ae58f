//! Rematerialization of index expressions (Triton's layout removal by rematerialization): a
//! broadcast whose source is a pure function of its element coordinates (ranges, splats,
//! constants, expand_dims / broadcast, elementwise arithmetic, compares and `addptr` over
//! scalars) is recomputed in the result's layout from each slot's coordinates, instead of
//! moving the source's elements between threads through shared memory (two barriers each).
//! The recomputation is loop invariant where its source was, so LLVM hoists it.

use super::emit::{elem_ty, literal, num_elem, Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::{CastKind, Elem, Op, OpKind, Scalar, Value};
use std::collections::HashMap;

/// The most ops one rematerialization may recompute (beyond, moving the data is cheaper).
const MAX_OPS: usize = 40;

/// One rematerialization: the destination's slots and what was already recomputed.
struct Remat {
    per: usize,
    done: HashMap<(Value, Vec<String>), String>,
    ops: usize,
}

impl Gx<'_> {
    /// `src` recomputed at the slots of `r` (a broadcast of it), or `None` when `src` is not an
    /// index expression (nothing is emitted then).
    pub(crate) fn remat_broadcast(&mut self, op: Op, src: Value, r: crate::ir::Value) -> Result<Option<String>, crate::lower::LowerError> {
        let rty = self.ty(r);
        if !self.rematerializable(src, 0) {
            return Ok(None);
        }
        let l = self.layout_of(op, rty)?;
        let shape = rty.shape().to_vec();
        let base = self.layout_base(&l);
        let per = l.per;
        let b = self.splat(&base, "i32", per);
        let steps: Vec<String> = (0..per).map(|i| format!("i32 {}", if l.replicated() { 0 } else { i })).collect();
        let flat = self.assign(&format!("add <{per} x i32> {b}, <{}>", steps.join(", ")));
        let mut coords = vec![];
        let mut stride = 1;
        for &n in shape.iter().rev() {
            let q = self.assign(&format!("udiv <{per} x i32> {flat}, splat (i32 {stride})"));
            coords.push(self.assign(&format!("urem <{per} x i32> {q}, splat (i32 {n})")));
            stride *= n;
        }
        coords.reverse();
        // Broadcast dims of the source read coordinate 0.
        let sshape = self.ty(src).shape().to_vec();
        let scoords: Vec<String> = coords.iter().zip(&sshape).map(|(c, &n)| if n == 1 { "zeroinitializer".into() } else { c.clone() }).collect();
        let mut st = Remat { per, done: HashMap::new(), ops: 0 };
        Ok(Some(self.remat(src, &scoords, &mut st)))
    }

    /// Slot `slot` of this thread's part of tile `v` as a scalar, recomputed from the slot's
    /// coordinates when `v` is an index expression (`None` otherwise). Per-chunk masks are
    /// taken this way: one compare per chunk, where extracting lanes of the `<per x i1>` mask
    /// keeps the whole vector (bit-packed by the NVPTX back end) live across a K loop.
    pub(crate) fn remat_slot(&mut self, op: Op, v: Value, slot: usize) -> Result<Option<String>, crate::lower::LowerError> {
        let t = self.ty(v);
        if let Some(u) = self.uniform.get(&v) {
            return Ok(Some(u.clone()));
        }
        if !t.is_tensor() {
            return Ok(None);
        }
        let l = self.layout_of(op, t)?;
        Ok(if l.replicated() { None } else { self.remat_at(v, &l, slot) })
    }

    /// Element `slot` of tile `v` under layout `l` (not replicated; `l` need not be `v`'s own:
    /// a `cp.async` copy reads chunks other threads hold) as a scalar, recomputed from its
    /// coordinates when `v` is an index expression (`None` otherwise).
    pub(crate) fn remat_at(&mut self, v: Value, l: &Blocked, slot: usize) -> Option<String> {
        let t = self.ty(v);
        if let Some(u) = self.uniform.get(&v) {
            return Some(u.clone());
        }
        if !t.is_tensor() || !self.rematerializable(v, 0) {
            return None;
        }
        let shape = t.shape().to_vec();
        let base = self.layout_base(l);
        // `base` is a multiple of `per` below `threads * per`: its bits and the slot's are
        // disjoint when the slot is below `per` or a multiple of `threads * per`.
        let disjoint = slot < l.per || (l.threads.is_power_of_two() && slot % (l.threads * l.per) == 0);
        let pow2 = disjoint && l.per.is_power_of_two() && shape.iter().all(|n| n.is_power_of_two());
        let mut coords = vec![];
        let mut stride = 1;
        for &n in shape.iter().rev() {
            let c = if pow2 {
                // Disjoint bits: each coordinate is the base's ORed with the slot's (a constant).
                let q = self.assign(&format!("udiv i32 {base}, {stride}"));
                let c = self.assign(&format!("urem i32 {q}, {n}"));
                match (slot / stride) % n {
                    0 => c,
                    k => self.assign(&format!("or disjoint i32 {c}, {k}")),
                }
            } else {
                let flat = self.assign(&format!("add i32 {base}, {slot}"));
                let q = self.assign(&format!("udiv i32 {flat}, {stride}"));
                self.assign(&format!("urem i32 {q}, {n}"))
            };
            coords.push(self.splat(&c, "i32", 1));
            stride *= n;
        }
        coords.reverse();
        let mut st = Remat { per: 1, done: HashMap::new(), ops: 0 };
        let x = self.remat(v, &coords, &mut st);
        let elem = elem_ty(t.elem().unwrap_or(Elem::Num(Scalar::I64)));
        Some(self.extract(&x, &format!("<1 x {elem}>"), 0))
    }

    /// Element `[0, .., 0]` of tile `v` as a scalar, recomputed when `v` is an index
    /// expression (`None` otherwise).
    pub(crate) fn remat_origin(&mut self, v: Value) -> Option<String> {
        let t = self.ty(v);
        if let Some(u) = self.uniform.get(&v) {
            return Some(u.clone());
        }
        if !t.is_tensor() || !self.rematerializable(v, 0) {
            return None;
        }
        let coords = vec!["zeroinitializer".to_string(); t.shape().len()];
        let mut st = Remat { per: 1, done: HashMap::new(), ops: 0 };
        let x = self.remat(v, &coords, &mut st);
        let elem = elem_ty(t.elem().unwrap_or(Elem::Num(Scalar::I64)));
        Some(self.extract(&x, &format!("<1 x {elem}>"), 0))
    }

    /// The mask of each 16-byte (or narrower) chunk `j` of an access under mask tile `m`
    /// (named `name`, `per` slots, chunks of `w`): its first slot's value.
    pub(crate) fn chunk_masks(&mut self, op: Op, m: Value, name: &str, per: usize, w: usize) -> Result<Vec<String>, crate::lower::LowerError> {
        (0..per / w)
            .map(|j| match self.remat_slot(op, m, j * w)? {
                Some(x) => Ok(x),
                None => Ok(self.extract(name, &format!("<{per} x i1>"), j * w)),
            })
            .collect()
    }

    /// Whether `v` is an index expression of at most `MAX_OPS` ops (scalars are leaves).
    pub(crate) fn rematerializable(&self, v: Value, depth: usize) -> bool {
        if !self.ty(v).is_tensor() || self.uniform.contains_key(&v) {
            return true;
        }
        if depth > MAX_OPS || self.accs.layout.contains_key(&v) {
            return false;
        }
        let Some(d) = self.defining_op(v) else { return false };
        let pure = matches!(
            d.kind,
            OpKind::MakeRange(..)
                | OpKind::Splat
                | OpKind::Const(_)
                | OpKind::Broadcast
                | OpKind::ExpandDims(_)
                | OpKind::Binary(_)
                | OpKind::Cmp(_)
                | OpKind::Select
                | OpKind::Cast(CastKind::Convert)
                | OpKind::AddPtr
        );
        pure && d.operands.iter().all(|&o| self.rematerializable(o, depth + 1))
    }

    fn defining_op(&self, v: Value) -> Option<&crate::ir::OpData> {
        self.defs.get(&v).map(|&op| self.k.op(op))
    }

    /// `v` at coordinates `coords` (one `<per x i32>` per dimension of `v`).
    fn remat(&mut self, v: Value, coords: &[String], st: &mut Remat) -> String {
        let per = st.per;
        let t = self.ty(v);
        let s = num_elem(t);
        let elem = elem_ty(t.elem().unwrap_or(Elem::Num(Scalar::I64)));
        if !t.is_tensor() {
            let n = self.name(v);
            return self.splat(&n, elem, per);
        }
        if let Some(u) = self.uniform.get(&v).cloned() {
            return self.splat(&u, elem, per);
        }
        let key = (v, coords.to_vec());
        if let Some(x) = st.done.get(&key) {
            return x.clone();
        }
        st.ops += 1;
        let d = self.defining_op(v).cloned().expect("rematerializable values have a defining op");
        let lty = format!("<{per} x {elem}>");
        let x = match d.kind {
            OpKind::MakeRange(start, _) => self.assign(&format!("add <{per} x i32> {}, splat (i32 {start})", coords[0])),
            OpKind::Const(c) => format!("splat ({elem} {})", literal(c, s)),
            OpKind::Splat => {
                let n = self.name(d.operands[0]);
                self.splat(&n, elem, per)
            }
            OpKind::Broadcast => {
                let sshape = self.ty(d.operands[0]).shape().to_vec();
                let c: Vec<String> = coords.iter().zip(&sshape).map(|(c, &n)| if n == 1 { "zeroinitializer".into() } else { c.clone() }).collect();
                self.remat(d.operands[0], &c, st)
            }
            OpKind::ExpandDims(axis) => {
                let mut c = coords.to_vec();
                c.remove(axis as usize);
                self.remat(d.operands[0], &c, st)
            }
            OpKind::Binary(b) => {
                let (a, c) = (self.remat(d.operands[0], coords, st), self.remat(d.operands[1], coords, st));
                self.binary(b, &a, &c, &lty, s, Some(per))
            }
            OpKind::Cmp(pred) => {
                let ot = self.ty(d.operands[0]);
                let (os, oe) = (num_elem(ot), elem_ty(ot.elem().unwrap_or(Elem::Num(Scalar::I64))));
                let (a, c) = (self.remat(d.operands[0], coords, st), self.remat(d.operands[1], coords, st));
                let (inst, p) = if os.is_float() { ("fcmp", pred.float_name()) } else { ("icmp", pred.int_name()) };
                self.assign(&format!("{inst} {p} <{per} x {oe}> {a}, {c}"))
            }
            OpKind::Select => {
                let (c, a, b) = (self.remat(d.operands[0], coords, st), self.remat(d.operands[1], coords, st), self.remat(d.operands[2], coords, st));
                self.assign(&format!("select <{per} x i1> {c}, {lty} {a}, {lty} {b}"))
            }
            OpKind::Cast(_) => {
                let from = num_elem(self.ty(d.operands[0]));
                let a = self.remat(d.operands[0], coords, st);
                self.convert(&a, from, s, Some(per))
            }
            OpKind::AddPtr => {
                let os = num_elem(self.ty(d.operands[1]));
                let (p, o) = (self.remat(d.operands[0], coords, st), self.remat(d.operands[1], coords, st));
                let o = self.to_i64(&o, os, Some(per));
                self.assign(&format!("getelementptr {}, <{per} x ptr> {p}, <{per} x i64> {o}", s.mem()))
            }
            _ => unreachable!("checked by rematerializable"),
        };
        st.done.insert(key, x.clone());
        x
    }
}
