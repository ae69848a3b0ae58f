//! 2-D tiles built from a row vector and a column vector, the shape of every GEMM operand
//! access (`base + rows[:, None] * stride + cols[None, :]`). Tracking how such tiles were built
//! lets a load or store move one contiguous row at a time instead of gathering every lane, and
//! lets masks be formed per row from their row and column halves.

use super::half::cpu_ty;
use super::emit::{num_elem, Affine, Cx};
use super::tile::Addr;
use crate::ir::{BinOp, Op, OpKind, Scalar, Value};
use crate::lower::LowerError;
use weft_runtime::abi::access;

/// What is known about a 2-D tile `[R, C]`. Vector operands are SSA names.
#[derive(Clone, Debug)]
pub(crate) enum Grid {
    /// `v[i, j] = rows[i]` (`rows`: `vector<R x T>` of the tile's element type).
    Rows(String),
    /// `v[i, j] = cols[j]` (`cols`: `vector<C x T>`), with its affine form when known.
    Cols(String, Option<Affine>),
    /// Integer `v[i, j] = rows[i] + cols(j)` with `rows: vector<R x i64>`, `cols` affine.
    Offsets { rows: String, cols: Affine },
    /// Boolean `v[i, j] = rows[i] & cols[j]`.
    Mask { rows: String, cols: String },
    /// Pointer tile whose row `i` starts at byte address `rows[i]` and is contiguous.
    RowPtrs(String),
}

/// Where the per-row masks of a 2-D access come from.
enum RowMask {
    /// `rows[i] & cols` from the mask's row half and column half (either may be absent).
    Halves(Option<String>, Option<String>),
    /// A row-major byte buffer of the whole mask.
    Bytes(String),
}

/// The row-invariant parts of a 2-D load's mask `rows[i] & cols`, formed once before its row
/// loop: a row whose bit is out reads nothing, one whose bit is in reads plainly when every
/// column is in, else under the column mask alone. Forming `rows[i] & cols` in every row, and
/// its 16-bit pair mask, was a third of a 16-bit GEMM's CPU time at ragged edges (perf, gemm_ar
/// 1x8 256x160x800 bf16: the lane-by-lane mask rebuild and its checks per row).
struct RowLoadMask {
    /// The row half, `vector<R x i1>`.
    rows: Option<String>,
    /// The column half, `vector<C x i1>`.
    cols: Option<String>,
    /// Whether every column is in (`i1`; `true` without a column half).
    all_cols: String,
    /// The column half's pair mask (`Cx::pair_mask`) for 16-bit lanes.
    pairs: Option<String>,
}

impl Cx<'_> {
    /// Records the row or column fact of a broadcast from `[R, 1]` or `[1, C]` to `[R, C]`.
    pub(crate) fn track_broadcast(&mut self, src: Value, r: Value) {
        let (from, to) = (self.ty(src).shape().to_vec(), self.ty(r).shape().to_vec());
        if from.len() != 2 || to.len() != 2 || from == to {
            return;
        }
        let name = self.name(src);
        if from[1] == 1 && from[0] == to[0] {
            self.grid.insert(r, Grid::Rows(name));
        } else if from[0] == 1 && from[1] == to[1] {
            let aff = self.affine.get(&src).cloned();
            self.grid.insert(r, Grid::Cols(name, aff));
        }
    }

    /// Combines row and column facts through `+` (integer offsets) and `&` (masks).
    pub(crate) fn track_grid_binary(&mut self, b: BinOp, x: Value, y: Value, r: Value) {
        let s = num_elem(self.ty(r));
        let rows_n = match self.ty(r).shape() {
            [rn, _] => *rn,
            _ => return,
        };
        let (gx, gy) = (self.grid.get(&x).cloned(), self.grid.get(&y).cloned());
        let fact = match (b, gx, gy) {
            (BinOp::And, Some(Grid::Rows(rw)), Some(Grid::Cols(c, _))) | (BinOp::And, Some(Grid::Cols(c, _)), Some(Grid::Rows(rw))) => {
                Grid::Mask { rows: rw, cols: c }
            }
            (BinOp::Add, Some(Grid::Rows(rw)), Some(Grid::Cols(_, Some(aff))))
            | (BinOp::Add, Some(Grid::Cols(_, Some(aff))), Some(Grid::Rows(rw)))
                if s.is_int() =>
            {
                let rows = self.to_i64(&rw, s, Some(rows_n));
                Grid::Offsets { rows, cols: aff }
            }
            (BinOp::Add, Some(Grid::Offsets { rows, cols }), None) | (BinOp::Add, None, Some(Grid::Offsets { rows, cols })) if s.is_int() => {
                let other = if self.grid.contains_key(&x) { y } else { x };
                let Some(sp) = self.splat.get(&other).cloned() else { return };
                let sp = self.to_i64(&sp, s, None);
                let scalar = self.add_opt(cols.scalar.as_deref(), &sp);
                Grid::Offsets { rows, cols: Affine { scalar: Some(scalar), start: cols.start } }
            }
            _ => return,
        };
        self.grid.insert(r, fact);
    }

    /// Carries facts through a widening of integer offsets to `i64`.
    pub(crate) fn track_grid_cast(&mut self, src: Value, r: Value, from: Scalar) {
        let shape = self.ty(r).shape().to_vec();
        let fact = match self.grid.get(&src).cloned() {
            Some(Grid::Rows(rw)) if shape.len() == 2 => Grid::Rows(self.to_i64(&rw, from, Some(shape[0]))),
            Some(Grid::Cols(c, aff)) if shape.len() == 2 => Grid::Cols(self.to_i64(&c, from, Some(shape[1])), aff),
            Some(g @ Grid::Offsets { .. }) => g,
            _ => return,
        };
        self.grid.insert(r, fact);
    }

    /// `a + b` for an optional i64 scalar `a`.
    fn add_opt(&mut self, a: Option<&str>, b: &str) -> String {
        match a {
            None => b.to_string(),
            Some(a) => {
                let n = self.fresh();
                self.line(&format!("{n} = arith.addi {a}, {b} : i64"));
                n
            }
        }
    }

    /// Row-pointer facts of `tile.addptr`: a splat base plus row/column offsets, or row
    /// pointers displaced by a splat.
    pub(crate) fn track_addptr(&mut self, p: Value, off: Value, r: Value, base_i64: Option<String>) {
        let shape = self.ty(r).shape().to_vec();
        if shape.len() != 2 {
            return;
        }
        let size = num_elem(self.ty(p)).bytes() as i64;
        let os = num_elem(self.ty(off));
        let rows_n = shape[0];
        let fact = match (base_i64, self.grid.get(&p).cloned(), self.grid.get(&off).cloned()) {
            (Some(base), _, Some(Grid::Offsets { rows, cols })) => {
                let start = self.const_int(cols.start, "i64");
                let col0 = self.add_opt(cols.scalar.as_deref(), &start);
                let elems = self.vec_add_scalar(&rows, &col0, rows_n);
                let bytes = self.vec_mul_const(&elems, size, rows_n);
                self.vec_add_scalar(&bytes, &base, rows_n)
            }
            (_, Some(Grid::RowPtrs(rows)), _) => {
                let Some(sp) = self.splat.get(&off).cloned() else { return };
                let sp = self.to_i64(&sp, os, None);
                let sz = self.const_int(size, "i64");
                let bytes = self.fresh();
                self.line(&format!("{bytes} = arith.muli {sp}, {sz} : i64"));
                self.vec_add_scalar(&rows, &bytes, rows_n)
            }
            _ => return,
        };
        self.grid.insert(r, Grid::RowPtrs(fact));
    }

    fn vec_add_scalar(&mut self, v: &str, s: &str, n: usize) -> String {
        let b = self.broadcast(s, "i64", n);
        let r = self.fresh();
        self.line(&format!("{r} = arith.addi {v}, {b} : vector<{n}xi64>"));
        r
    }

    fn vec_mul_const(&mut self, v: &str, c: i64, n: usize) -> String {
        let r = self.fresh();
        let k = self.fresh();
        self.line(&format!("{k} = arith.constant dense<{c}> : vector<{n}xi64>"));
        self.line(&format!("{r} = arith.muli {v}, {k} : vector<{n}xi64>"));
        r
    }

    /// The lanes of tile `v` in a row-major stack buffer: its own, or a fresh spill.
    pub(crate) fn in_memory(&mut self, v: Value) -> String {
        if let Some(b) = self.mem.get(&v) {
            return b.clone();
        }
        let s = num_elem(self.ty(v));
        let n = self.ty(v).numel();
        let buf = self.alloca(s, n);
        let name = self.name(v);
        let vt = self.vty(v);
        self.line(&format!("llvm.store {name}, {buf} {{alignment = 64 : i64}} : {vt}, !llvm.ptr"));
        self.mem.insert(v, buf.clone());
        buf
    }

    /// Opens `scf.for %i = 0 to rows` and returns `(i as index, i as i64)`.
    pub(crate) fn open_row_loop(&mut self, rows: usize) -> (String, String) {
        let (lo, hi, one) = (self.const_int(0, "index"), self.const_int(rows as i64, "index"), self.const_int(1, "index"));
        let i = self.fresh();
        self.line(&format!("scf.for {i} = {lo} to {hi} step {one} {{"));
        self.depth += 1;
        let i64v = self.fresh();
        self.line(&format!("{i64v} = arith.index_cast {i} : index to i64"));
        (i, i64v)
    }

    pub(crate) fn close_loop(&mut self) {
        self.depth -= 1;
        self.line("}");
    }

    /// Row `i` (`C` lanes) of a row-major buffer of `elem`.
    fn buffer_row(&mut self, buf: &str, elem: Scalar, i64v: &str, c: usize) -> (String, String) {
        let cc = self.const_int(c as i64, "i64");
        let off = self.fresh();
        self.line(&format!("{off} = arith.muli {i64v}, {cc} : i64"));
        let p = self.gep(buf, &off, elem);
        let e = if elem == Scalar::I1 { "i8" } else { cpu_ty(elem) };
        let v = self.fresh();
        self.line(&format!("{v} = llvm.load {p} {{alignment = 4 : i64}} : !llvm.ptr -> vector<{c}x{e}>"));
        (p, v)
    }

    /// How to form the mask of one row: from its row / column halves, or from a byte buffer.
    fn row_mask_source(&mut self, mask: Value) -> RowMask {
        match self.grid.get(&mask).cloned() {
            Some(Grid::Mask { rows, cols }) => RowMask::Halves(Some(rows), Some(cols)),
            Some(Grid::Rows(rows)) => RowMask::Halves(Some(rows), None),
            Some(Grid::Cols(cols, _)) => RowMask::Halves(None, Some(cols)),
            _ => {
                let n = self.ty(mask).numel();
                let m = self.name(mask);
                let bytes = self.fresh();
                self.line(&format!("{bytes} = arith.extui {m} : vector<{n}xi1> to vector<{n}xi8>"));
                let buf = self.alloca(Scalar::I8, n);
                self.line(&format!("llvm.store {bytes}, {buf} {{alignment = 64 : i64}} : vector<{n}xi8>, !llvm.ptr"));
                RowMask::Bytes(buf)
            }
        }
    }

    /// The `C`-lane mask of row `i` (index `i`, i64 `i64v`) from its source.
    fn row_mask(&mut self, src: &RowMask, rows: usize, i: &str, i64v: &str, c: usize) -> String {
        match src {
            RowMask::Halves(rw, cols) => {
                let bit = rw.as_ref().map(|rw| {
                    let b = self.fresh();
                    self.line(&format!("{b} = vector.extract {rw}[{i}] : i1 from vector<{rows}xi1>"));
                    self.broadcast(&b, "i1", c)
                });
                match (bit, cols) {
                    (Some(b), Some(cl)) => {
                        let m = self.fresh();
                        self.line(&format!("{m} = arith.andi {b}, {cl} : vector<{c}xi1>"));
                        m
                    }
                    (Some(b), None) => b,
                    (None, Some(cl)) => cl.clone(),
                    (None, None) => self.all_true(c),
                }
            }
            RowMask::Bytes(buf) => {
                let (_, bytes) = self.buffer_row(buf, Scalar::I8, i64v, c);
                let z = self.fresh();
                self.line(&format!("{z} = arith.constant dense<0> : vector<{c}xi8>"));
                let m = self.fresh();
                self.line(&format!("{m} = arith.cmpi ne, {bytes}, {z} : vector<{c}xi8>"));
                m
            }
        }
    }

    /// The byte address of row `i` of row-pointer vector `rows`.
    fn row_ptr(&mut self, rows: &str, n: usize, i: &str) -> String {
        let a = self.fresh();
        self.line(&format!("{a} = vector.extract {rows}[{i}] : i64 from vector<{n}xi64>"));
        let p = self.fresh();
        self.line(&format!("{p} = llvm.inttoptr {a} : i64 to !llvm.ptr"));
        p
    }

    /// The hoisted mask of a load whose mask has row / column halves (`None` for a byte buffer).
    fn row_load_mask(&mut self, src: &RowMask, elem: Scalar, c: usize) -> Option<RowLoadMask> {
        let RowMask::Halves(rows, cols) = src else { return None };
        let all_cols = match cols {
            Some(cl) => {
                let a = self.fresh();
                self.line(&format!("{a} = vector.reduction <and>, {cl} : vector<{c}xi1> into i1"));
                a
            }
            None => self.const_int(1, "i1"),
        };
        let pairs = match cols {
            Some(cl) if super::half::cpu_scalar(elem).bytes() == 2 && c % 2 == 0 => Some(self.pair_mask(cl, c)),
            _ => None,
        };
        Some(RowLoadMask { rows: rows.clone(), cols: cols.clone(), all_cols, pairs })
    }

    /// Row `i` of a load under hoisted mask `hm` from contiguous `p` (`c` lanes of `elem`), `o`
    /// where masked out (zero without it): plain when the row and every column are in, nothing
    /// read when the row is out, else masked by the columns alone.
    fn load_row_hoisted(&mut self, hm: &RowLoadMask, p: &str, elem: Scalar, c: usize, i: &str, r_n: usize, o: Option<&str>) -> String {
        let s = super::half::cpu_scalar(elem);
        let (al, vt) = (s.bytes(), format!("vector<{c}x{}>", s.mlir()));
        let bit = hm.rows.as_ref().map(|rw| {
            let b = self.fresh();
            self.line(&format!("{b} = vector.extract {rw}[{i}] : i1 from vector<{r_n}xi1>"));
            b
        });
        let all = match &bit {
            Some(b) => {
                let a = self.fresh();
                self.line(&format!("{a} = arith.andi {b}, {} : i1", hm.all_cols));
                a
            }
            None => hm.all_cols.clone(),
        };
        let out_value = |cx: &mut Self| o.map(str::to_string).unwrap_or_else(|| cx.zero(&vt));
        let r = self.fresh();
        self.open_plain_or(&r, &all, p, al, &vt);
        // With both halves the row's bit decides between the column mask and no read at all;
        // with one, the else branch is already one of the two.
        let in_row = match (&bit, &hm.cols) {
            (Some(b), Some(_)) => {
                let x = self.fresh();
                self.line(&format!("{x} = scf.if {b} -> ({vt}) {{"));
                self.depth += 1;
                Some(x)
            }
            _ => None,
        };
        let partial = match (&hm.cols, &hm.pairs) {
            (Some(cm), Some(m32)) => self.load_pairs(p, cm, m32, o, c),
            (Some(cm), None) => {
                let (b, ov) = (self.fresh(), out_value(self));
                self.line(&format!("{b} = llvm.intr.masked.load {p}, {cm}, {ov} {{alignment = {al} : i32}} : (!llvm.ptr, vector<{c}xi1>, {vt}) -> {vt}"));
                b
            }
            (None, _) => out_value(self),
        };
        self.line(&format!("scf.yield {partial} : {vt}"));
        if let Some(x) = in_row {
            self.depth -= 1;
            self.line("} else {");
            let ov = out_value(self);
            self.line(&format!("  scf.yield {ov} : {vt}"));
            self.line("}");
            self.line(&format!("scf.yield {x} : {vt}"));
        }
        self.depth -= 1;
        self.line("}");
        r
    }

    /// `tile.load` / `tile.store` through row pointers: one contiguous access per row.
    pub(crate) fn rows_memory(&mut self, op: Op, rows: &str) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let p = d.operands[0];
        let elem = num_elem(self.ty(p));
        let (r_n, c_n) = match self.ty(p).shape() {
            [r, c] => (*r, *c),
            _ => return Err(self.malformed(op, "row pointers on a tile that is not 2-D")),
        };
        match d.kind {
            OpKind::Load { mask, other } => {
                let msrc = mask.then(|| self.row_mask_source(d.operands[1]));
                let osrc = other.then(|| {
                    let o = d.operands[2];
                    match self.splat.get(&o).cloned() {
                        Some(s) => Err(s),
                        None => Ok(self.in_memory(o)),
                    }
                });
                let buf = self.alloca(elem, r_n * c_n);
                let site = self.race_site(op);
                // The race checker records each row's own mask, so it keeps the per-row form.
                let hoisted = match (&msrc, &site) {
                    (Some(g), None) => self.row_load_mask(g, elem, c_n),
                    _ => None,
                };
                let (i, i64v) = self.open_row_loop(r_n);
                let row = self.row_ptr(rows, r_n, &i);
                let o = match &osrc {
                    Some(Err(scalar)) => Some(self.broadcast(scalar, cpu_ty(elem), c_n)),
                    Some(Ok(obuf)) => Some(self.buffer_row(obuf, elem, &i64v, c_n).1),
                    None => None,
                };
                let v = match &hoisted {
                    Some(hm) => self.load_row_hoisted(hm, &row, elem, c_n, &i, r_n, o.as_deref()),
                    None => {
                        let rp = Addr::Contig(row);
                        let m = msrc.as_ref().map(|g| self.row_mask(g, r_n, &i, &i64v, c_n));
                        self.record_access(site.as_deref(), access::READ, &rp, elem, c_n, m.as_deref());
                        self.load_from(&rp, elem, c_n, m.as_deref(), o.as_deref())
                    }
                };
                let cc = self.const_int(c_n as i64, "i64");
                let off = self.fresh();
                self.line(&format!("{off} = arith.muli {i64v}, {cc} : i64"));
                let dst = self.gep(&buf, &off, elem);
                self.line(&format!("llvm.store {v}, {dst} {{alignment = 4 : i64}} : vector<{c_n}x{}>, !llvm.ptr", cpu_ty(elem)));
                self.close_loop();
                let r = d.results[0];
                let out = self.def(r);
                let n = r_n * c_n;
                self.line(&format!("{out} = llvm.load {buf} {{alignment = 64 : i64}} : !llvm.ptr -> vector<{n}x{}>", cpu_ty(elem)));
                self.mem.insert(r, buf);
            }
            OpKind::Store { mask } => {
                let vbuf = self.in_memory(d.operands[1]);
                let msrc = mask.then(|| self.row_mask_source(d.operands[2]));
                let (site, kind) = (self.race_site(op), self.store_kind(d.operands[1]));
                let (i, i64v) = self.open_row_loop(r_n);
                let rp = Addr::Contig(self.row_ptr(rows, r_n, &i));
                let m = msrc.as_ref().map(|g| self.row_mask(g, r_n, &i, &i64v, c_n));
                let (_, v) = self.buffer_row(&vbuf, elem, &i64v, c_n);
                self.record_access(site.as_deref(), kind, &rp, elem, c_n, m.as_deref());
                self.store_to(&rp, &v, elem, c_n, m.as_deref());
                self.close_loop();
            }
            _ => return Err(self.malformed(op, "not a load or store")),
        }
        Ok(())
    }
}
