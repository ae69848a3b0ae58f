//! Lowering of `tile` ops: ids, ranges, splat / broadcast, pointer arithmetic, masked
//! loads and stores (vector loads when contiguous, gathers otherwise) and reductions.

use super::half::cpu_ty;
use super::emit::{num_elem, Affine, Cx};
use crate::ir::{Elem, Op, OpKind, ReduceKind, Scalar, Value};
use crate::lower::LowerError;
use weft_runtime::abi::{access, ctx_offset};

/// Flat source index for each flat index of `to`, broadcasting size-1 dims of `from`.
fn broadcast_indices(from: &[usize], to: &[usize]) -> Vec<usize> {
    let n: usize = to.iter().product();
    (0..n)
        .map(|flat| {
            let (mut rem, mut src, mut stride) = (flat, 0, 1);
            for d in (0..to.len()).rev() {
                let coord = rem % to[d];
                rem /= to[d];
                let c = if from[d] == 1 { 0 } else { coord };
                src += c * stride;
                stride *= from[d];
            }
            src
        })
        .collect()
}

/// Where a memory access goes: a contiguous base, or a vector of addresses.
pub(crate) enum Addr {
    /// `base + i` elements for lane `i`.
    Contig(String),
    /// One `i64` address per lane.
    Lanes(String),
    /// A scalar pointer.
    Scalar(String),
}

impl Cx<'_> {
    pub(crate) fn tile_shape(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let r = d.results[0];
        let rty = self.ty(r);
        match &d.kind {
            OpKind::ProgramId(a) | OpKind::NumPrograms(a) => {
                let base = if matches!(d.kind, OpKind::ProgramId(_)) { ctx_offset::PROGRAM_ID } else { ctx_offset::NUM_PROGRAMS };
                let v = self.ctx_i32(base + 4 * *a as usize);
                self.bind(r, v);
            }
            OpKind::MakeRange(s, e) => {
                let items: Vec<String> = (*s..*e).map(|i| i.to_string()).collect();
                let n = self.def(r);
                self.line(&format!("{n} = arith.constant dense<[{}]> : vector<{}xi32>", items.join(", "), e - s));
                self.affine.insert(r, Affine { scalar: None, start: *s as i64 });
            }
            OpKind::Splat => {
                let src = d.operands[0];
                let sname = self.name(src);
                let (scalar, elem) = match self.ty(src).elem() {
                    Some(Elem::Ptr(_)) => {
                        let i = self.fresh();
                        self.line(&format!("{i} = llvm.ptrtoint {sname} : !llvm.ptr to i64"));
                        (i, "i64".to_string())
                    }
                    _ => (sname, cpu_ty(num_elem(rty)).to_string()),
                };
                let v = self.broadcast(&scalar, &elem, rty.numel());
                self.splat.insert(r, scalar);
                self.bind(r, v);
            }
            OpKind::Broadcast => {
                let src = d.operands[0];
                let from = self.ty(src).shape().to_vec();
                let idx = broadcast_indices(&from, rty.shape());
                let s = self.name(src);
                let sty = self.vty(src);
                let n = self.def(r);
                let idx: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
                self.line(&format!("{n} = vector.shuffle {s}, {s} [{}] : {sty}, {sty}", idx.join(", ")));
                if let Some(sp) = self.splat.get(&src).cloned() {
                    self.splat.insert(r, sp);
                }
                self.track_broadcast(src, r);
            }
            OpKind::ExpandDims(_) | OpKind::PtrCast => {
                // Same flattened data: an alias, with every 1-D fact carried over.
                let src = d.operands[0];
                let n = self.name(src);
                self.bind(r, n);
                self.alias_facts(src, r, false);
            }
            OpKind::AddPtr => self.addptr(op)?,
            OpKind::Reduce(kind, axis) => self.reduce(op, *kind, *axis as usize)?,
            OpKind::Dot => self.dot(op)?,
            _ => return Err(self.malformed(op, "not a tile shape op")),
        }
        Ok(())
    }

    /// Carries facts from `from` to its alias `to`; 2-D facts only when the shape and element
    /// size are unchanged (`same_tile`).
    pub(crate) fn alias_facts(&mut self, from: Value, to: Value, same_tile: bool) {
        if let Some(x) = self.mem.get(&from).cloned() {
            self.mem.insert(to, x);
        }
        if same_tile {
            if let Some(x) = self.grid.get(&from).cloned() {
                self.grid.insert(to, x);
            }
        }
        if let Some(x) = self.splat.get(&from).cloned() {
            self.splat.insert(to, x);
        }
        if let Some(x) = self.affine.get(&from).cloned() {
            self.affine.insert(to, x);
        }
        if let Some(x) = self.contig.get(&from).cloned() {
            self.contig.insert(to, x);
        }
    }

    fn addptr(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (p, off, r) = (d.operands[0], d.operands[1], d.results[0]);
        let elem = num_elem(self.ty(p));
        let os = num_elem(self.ty(off));
        if !self.ty(p).is_tensor() {
            let o = self.name(off);
            let o = self.to_i64(&o, os, None);
            let base = self.name(p);
            let g = self.gep(&base, &o, elem);
            self.bind(r, g);
            return Ok(());
        }
        let n = self.ty(r).numel();
        let base_i64 = self.splat.get(&p).cloned();
        self.track_addptr(p, off, r, base_i64);
        // Contiguity: splat(p) + range, or contiguous + splat.
        let pscalar = self.splat_ptr(p);
        if let (Some(base), Some(aff)) = (pscalar.clone(), self.affine.get(&off).cloned()) {
            let start = self.const_int(aff.start, "i64");
            let total = match &aff.scalar {
                Some(s) => {
                    let t = self.fresh();
                    self.line(&format!("{t} = arith.addi {s}, {start} : i64"));
                    t
                }
                None => start,
            };
            let g = self.gep(&base, &total, elem);
            self.contig.insert(r, g);
        } else if let (Some(base), Some(sp)) = (self.contig.get(&p).cloned(), self.splat.get(&off).cloned()) {
            let sp = self.to_i64(&sp, os, None);
            let g = self.gep(&base, &sp, elem);
            self.contig.insert(r, g);
        }
        if let (Some(base), Some(sp)) = (pscalar, self.splat.get(&off).cloned()) {
            let sp = self.to_i64(&sp, os, None);
            let g = self.gep(&base, &sp, elem);
            let i = self.fresh();
            self.line(&format!("{i} = llvm.ptrtoint {g} : !llvm.ptr to i64"));
            self.splat.insert(r, i);
        }
        let o = self.name(off);
        let o = self.to_i64(&o, os, Some(n));
        let size = self.const_int(elem.bytes() as i64, "i64");
        let sizev = self.broadcast(&size, "i64", n);
        let bytes = self.fresh();
        self.line(&format!("{bytes} = arith.muli {o}, {sizev} : vector<{n}xi64>"));
        let pn = self.name(p);
        let out = self.def(r);
        self.line(&format!("{out} = arith.addi {pn}, {bytes} : vector<{n}xi64>"));
        Ok(())
    }

    /// The scalar `!llvm.ptr` a pointer tile is a splat of, if it is one.
    fn splat_ptr(&mut self, p: Value) -> Option<String> {
        let s = self.splat.get(&p)?.clone();
        let r = self.fresh();
        self.line(&format!("{r} = llvm.inttoptr {s} : i64 to !llvm.ptr"));
        Some(r)
    }

    /// How to address pointer value `p`, optionally displaced by `delta` bytes (i64 SSA).
    pub(crate) fn addr_of(&mut self, p: Value, delta: Option<&str>) -> Addr {
        let t = self.ty(p);
        let name = self.name(p);
        let shift_ptr = |cx: &mut Self, base: String| match delta {
            Some(dl) => cx.gep(&base, dl, Scalar::I8),
            None => base,
        };
        if !t.is_tensor() {
            return Addr::Scalar(shift_ptr(self, name));
        }
        if let Some(base) = self.contig.get(&p).cloned() {
            return Addr::Contig(shift_ptr(self, base));
        }
        match delta {
            Some(dl) => {
                let n = t.numel();
                let dv = self.broadcast(dl, "i64", n);
                let r = self.fresh();
                self.line(&format!("{r} = arith.addi {name}, {dv} : vector<{n}xi64>"));
                Addr::Lanes(r)
            }
            None => Addr::Lanes(name),
        }
    }

    /// Loads `n` lanes (or a scalar) of `elem` from `addr` under an optional mask.
    /// bf16 and f16 move as i16 (see `half::cpu_ty`); a contiguous masked load whose mask is
    /// all in is a plain load, else masked 16-bit ones take `masked_load_pairs`, since LLVM
    /// legalises them lane by lane.
    pub(crate) fn load_from(&mut self, addr: &Addr, elem: Scalar, n: usize, mask: Option<&str>, other: Option<&str>) -> String {
        self.load_raw(addr, super::half::cpu_scalar(elem), n, mask, other)
    }

    fn load_raw(&mut self, addr: &Addr, elem: Scalar, n: usize, mask: Option<&str>, other: Option<&str>) -> String {
        let al = elem.bytes();
        let vt = format!("vector<{n}x{}>", elem.mlir());
        let r = self.fresh();
        match addr {
            Addr::Scalar(p) => match mask {
                None => self.line(&format!("{r} = llvm.load {p} {{alignment = {al} : i64}} : !llvm.ptr -> {}", elem.mlir())),
                Some(m) => {
                    let o = other.map(str::to_string).unwrap_or_else(|| self.zero(elem.mlir()));
                    self.line(&format!("{r} = scf.if {m} -> ({}) {{", elem.mlir()));
                    let v = self.fresh();
                    self.line(&format!("  {v} = llvm.load {p} {{alignment = {al} : i64}} : !llvm.ptr -> {}", elem.mlir()));
                    self.line(&format!("  scf.yield {v} : {}", elem.mlir()));
                    self.line("} else {");
                    self.line(&format!("  scf.yield {o} : {}", elem.mlir()));
                    self.line("}");
                }
            },
            Addr::Contig(p) => match mask {
                None => self.line(&format!("{r} = llvm.load {p} {{alignment = {al} : i64}} : !llvm.ptr -> {vt}")),
                Some(m) => {
                    // Full tiles take a plain load; only the last tile pays for the mask (16-bit
                    // lanes too: their pair load was flash_decode's hottest instruction).
                    let pairs = al == 2 && n % 2 == 0;
                    let o = if pairs { None } else { Some(other.map(str::to_string).unwrap_or_else(|| self.zero(&vt))) };
                    let all = self.fresh();
                    self.line(&format!("{all} = vector.reduction <and>, {m} : vector<{n}xi1> into i1"));
                    self.open_plain_or(&r, &all, p, al, &vt);
                    let b = match o {
                        None => self.masked_load_pairs(p, m, other, n),
                        Some(o) => {
                            let b = self.fresh();
                            self.line(&format!(
                                "{b} = llvm.intr.masked.load {p}, {m}, {o} {{alignment = {al} : i32}} : (!llvm.ptr, vector<{n}xi1>, {vt}) -> {vt}"
                            ));
                            b
                        }
                    };
                    self.line(&format!("scf.yield {b} : {vt}"));
                    self.depth -= 1;
                    self.line("}");
                }
            },
            Addr::Lanes(a) if Self::gathers_by_loop(elem, n) => return self.lanes_load(a, elem, n, mask, other),
            Addr::Lanes(a) => {
                let pv = self.lane_ptrs(a, n);
                let m = mask.map(str::to_string).unwrap_or_else(|| self.all_true(n));
                let o = other.map(str::to_string).unwrap_or_else(|| self.zero(&vt));
                self.line(&format!(
                    "{r} = llvm.intr.masked.gather {pv}, {m}, {o} {{alignment = {al} : i32}} : (vector<{n}x!llvm.ptr>, vector<{n}xi1>, {vt}) -> {vt}"
                ));
            }
        }
        r
    }

    /// Stores `v` (`n` lanes or a scalar of `elem`) to `addr` under an optional mask.
    pub(crate) fn store_to(&mut self, addr: &Addr, v: &str, elem: Scalar, n: usize, mask: Option<&str>) {
        self.store_raw(addr, v, super::half::cpu_scalar(elem), n, mask)
    }

    /// Opens `r = scf.if all -> (vt) { plain load of p } else {`, the else branch open one level
    /// deeper for the masked read: a contiguous masked load whose mask is all in is a plain one.
    pub(crate) fn open_plain_or(&mut self, r: &str, all: &str, p: &str, al: usize, vt: &str) {
        self.line(&format!("{r} = scf.if {all} -> ({vt}) {{"));
        self.depth += 1;
        let a = self.fresh();
        self.line(&format!("{a} = llvm.load {p} {{alignment = {al} : i64}} : !llvm.ptr -> {vt}"));
        self.line(&format!("scf.yield {a} : {vt}"));
        self.depth -= 1;
        self.line("} else {");
        self.depth += 1;
    }

    /// A masked load of 16-bit lanes as a masked load of 32-bit lane pairs (which AVX2 does
    /// natively) and a select. LLVM would otherwise scalarise it into one branch per lane.
    /// A pair with one lane masked in reads its neighbour too: at most 2 bytes past the last
    /// requested element (symmetric heaps keep slack for that).
    fn masked_load_pairs(&mut self, p: &str, m: &str, other: Option<&str>, n: usize) -> String {
        let m32 = self.pair_mask(m, n);
        self.load_pairs(p, m, &m32, other, n)
    }

    /// The `n / 2`-lane mask of the 32-bit pairs of 16-bit lane mask `m`: a pair is in when
    /// either of its lanes is. Its shuffles cost a branch-free lane-by-lane rebuild on AVX2, so
    /// a row loop forms it once for a mask every row shares (`grid::RowLoadMask`).
    pub(crate) fn pair_mask(&mut self, m: &str, n: usize) -> String {
        let h = n / 2;
        let (evens, odds): (Vec<String>, Vec<String>) = (0..h).map(|j| ((2 * j).to_string(), (2 * j + 1).to_string())).unzip();
        let (me, mo, m32) = (self.fresh(), self.fresh(), self.fresh());
        self.line(&format!("{me} = vector.shuffle {m}, {m} [{}] : vector<{n}xi1>, vector<{n}xi1>", evens.join(", ")));
        self.line(&format!("{mo} = vector.shuffle {m}, {m} [{}] : vector<{n}xi1>, vector<{n}xi1>", odds.join(", ")));
        self.line(&format!("{m32} = arith.ori {me}, {mo} : vector<{h}xi1>"));
        m32
    }

    /// [`Self::masked_load_pairs`] with the pair mask `m32` of `m` already formed.
    pub(crate) fn load_pairs(&mut self, p: &str, m: &str, m32: &str, other: Option<&str>, n: usize) -> String {
        let h = n / 2;
        let z = self.zero(&format!("vector<{h}xi32>"));
        let words = self.fresh();
        self.line(&format!(
            "{words} = llvm.intr.masked.load {p}, {m32}, {z} {{alignment = 2 : i32}} : (!llvm.ptr, vector<{h}xi1>, vector<{h}xi32>) -> vector<{h}xi32>"
        ));
        let lanes = self.fresh();
        self.line(&format!("{lanes} = vector.bitcast {words} : vector<{h}xi32> to vector<{n}xi16>"));
        let Some(o) = other else { return lanes };
        let r = self.fresh();
        self.line(&format!("{r} = arith.select {m}, {lanes}, {o} : vector<{n}xi1>, vector<{n}xi16>"));
        r
    }

    fn store_raw(&mut self, addr: &Addr, v: &str, elem: Scalar, n: usize, mask: Option<&str>) {
        let al = elem.bytes();
        let vt = format!("vector<{n}x{}>", elem.mlir());
        match addr {
            Addr::Scalar(p) => {
                let st = format!("llvm.store {v}, {p} {{alignment = {al} : i64}} : {}, !llvm.ptr", elem.mlir());
                match mask {
                    None => self.line(&st),
                    Some(m) => {
                        self.line(&format!("scf.if {m} {{"));
                        self.line(&format!("  {st}"));
                        self.line("}");
                    }
                }
            }
            Addr::Contig(p) => match mask {
                None => self.line(&format!("llvm.store {v}, {p} {{alignment = {al} : i64}} : {vt}, !llvm.ptr")),
                Some(m) if al == 2 => self.masked_store_16(p, v, m, n),
                Some(m) => {
                    // Full tiles (all but the last) take a plain store: masked stores are slow.
                    let all = self.fresh();
                    self.line(&format!("{all} = vector.reduction <and>, {m} : vector<{n}xi1> into i1"));
                    self.line(&format!("scf.if {all} {{"));
                    self.line(&format!("  llvm.store {v}, {p} {{alignment = {al} : i64}} : {vt}, !llvm.ptr"));
                    self.line("} else {");
                    self.line(&format!(
                        "  llvm.intr.masked.store {v}, {p}, {m} {{alignment = {al} : i32}} : {vt}, vector<{n}xi1> into !llvm.ptr"
                    ));
                    self.line("}");
                }
            },
            Addr::Lanes(a) => self.lanes_store(a, v, elem, n, mask),
        }
    }

    fn lane_ptrs(&mut self, a: &str, n: usize) -> String {
        let pv = self.fresh();
        self.line(&format!("{pv} = llvm.inttoptr {a} : vector<{n}xi64> to vector<{n}x!llvm.ptr>"));
        pv
    }

    pub(crate) fn all_true(&mut self, n: usize) -> String {
        let m = self.fresh();
        self.line(&format!("{m} = arith.constant dense<true> : vector<{n}xi1>"));
        m
    }

    pub(crate) fn zero(&mut self, ty: &str) -> String {
        let z = self.fresh();
        self.line(&format!("{z} = llvm.mlir.zero : {ty}"));
        z
    }

    pub(crate) fn tile_memory(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let p = d.operands[0];
        let elem = num_elem(self.ty(p));
        let n = self.ty(p).numel();
        self.contiguity_from_axis(p);
        if let (None, Some(super::grid::Grid::RowPtrs(rows))) = (self.contig.get(&p), self.grid.get(&p).cloned()) {
            return self.rows_memory(op, &rows);
        }
        let addr = self.addr_of(p, None);
        let site = self.race_site(op);
        match d.kind {
            OpKind::Load { mask, other } => {
                let m = mask.then(|| self.name(d.operands[1]));
                let o = other.then(|| self.name(d.operands[2]));
                self.record_access(site.as_deref(), access::READ, &addr, elem, n, m.as_deref());
                let v = self.load_from(&addr, elem, n, m.as_deref(), o.as_deref());
                self.bind(d.results[0], v);
            }
            OpKind::Store { mask } => {
                let v = self.name(d.operands[1]);
                let m = mask.then(|| self.name(d.operands[2]));
                let kind = self.store_kind(d.operands[1]);
                self.record_access(site.as_deref(), kind, &addr, elem, n, m.as_deref());
                self.store_to(&addr, &v, elem, n, m.as_deref());
            }
            _ => return Err(self.malformed(op, "not a load or store")),
        }
        Ok(())
    }

    fn reduce(&mut self, op: Op, kind: ReduceKind, axis: usize) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (src, r) = (d.operands[0], d.results[0]);
        let s = num_elem(self.ty(src));
        let shape = self.ty(src).shape().to_vec();
        let v = self.name(src);
        let vt = self.vty(src);
        let red = match (kind, s.is_float()) {
            (ReduceKind::Sum, true) => "<add>, {} fastmath<reassoc>",
            (ReduceKind::Sum, false) => "<add>, {}",
            (ReduceKind::Max, true) => "<maximumf>, {}",
            (ReduceKind::Max, false) => "<maxsi>, {}",
            (ReduceKind::Min, true) => "<minimumf>, {}",
            (ReduceKind::Min, false) => "<minsi>, {}",
        };
        if shape.len() == 1 && super::half::is_half(s) {
            // Reduce in f32, round once.
            let wide = self.half_to_f32(&v, s, Some(shape[0]));
            let (acc, f32t) = (self.fresh(), format!("vector<{}xf32>", shape[0]));
            self.line(&format!("{acc} = vector.reduction {} : {f32t} into f32", red.replace("{}", &wide)));
            let out = self.f32_to_half(&acc, s, None);
            self.bind(r, out);
            return Ok(());
        }
        if shape.len() == 1 {
            let n = self.def(r);
            self.line(&format!("{n} = vector.reduction {} : {vt} into {}", red.replace("{}", &v), cpu_ty(s)));
            return Ok(());
        }
        // Multi-dimensional: combine the `len` slices along `axis` elementwise.
        let len = shape[axis];
        let mut out_shape = shape.clone();
        out_shape.remove(axis);
        let m: usize = out_shape.iter().product();
        let inner: usize = shape[axis + 1..].iter().product();
        let ot = format!("vector<{m}x{}>", cpu_ty(s));
        let mut acc: Option<String> = None;
        for k in 0..len {
            let idx: Vec<String> = (0..m)
                .map(|o| {
                    let (outer, inn) = (o / inner, o % inner);
                    (outer * len * inner + k * inner + inn).to_string()
                })
                .collect();
            let slice = self.fresh();
            self.line(&format!("{slice} = vector.shuffle {v}, {v} [{}] : {vt}, {vt}", idx.join(", ")));
            acc = Some(match acc {
                None => slice,
                Some(a) => self.combine(kind, &a, &slice, &ot, s, Some(m)),
            });
        }
        let acc = acc.ok_or_else(|| self.malformed(op, "reduction over an empty axis"))?;
        self.bind(r, acc);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::broadcast_indices;

    #[test]
    fn broadcast_rows_and_columns() {
        assert_eq!(broadcast_indices(&[1, 3], &[2, 3]), vec![0, 1, 2, 0, 1, 2]);
        assert_eq!(broadcast_indices(&[2, 1], &[2, 3]), vec![0, 0, 0, 1, 1, 1]);
    }
}
