//! `tile.reduce` of a 1-D tile to a scalar (axis reductions of larger tiles move data as in
//! `convert`): each thread combines its slots, warps combine
//! their threads with butterfly shuffles, and lane 0 of each warp leaves its partial in shared
//! memory, from which every thread combines all warps, so the result is uniform as scalars
//! must be. Half-precision tiles are reduced in f32 and rounded once.

use super::emit::{num_elem, shaped, suffix, Gx, LlvmScalar};
use crate::ir::{Op, OpKind, ReduceKind, Scalar};
use crate::lower::LowerError;

/// The identity of `kind` on `s`, as an LLVM literal.
fn identity(kind: ReduceKind, s: Scalar) -> String {
    match (kind, s.is_float()) {
        (ReduceKind::Sum, true) => "0.0".into(),
        (ReduceKind::Sum, false) => "0".into(),
        (ReduceKind::Max, true) => "0xFFF0000000000000".into(),
        (ReduceKind::Min, true) => "0x7FF0000000000000".into(),
        (ReduceKind::Max, false) => format!("{}", if s == Scalar::I64 { i64::MIN } else { i32::MIN as i64 }),
        (ReduceKind::Min, false) => format!("{}", if s == Scalar::I64 { i64::MAX } else { i32::MAX as i64 }),
    }
}

impl Gx<'_> {
    pub(crate) fn reduce(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let OpKind::Reduce(kind, _) = d.kind else { return Err(self.malformed(op, "not a reduce")) };
        let (src, r) = (d.operands[0], d.results[0]);
        let sty = self.ty(src);
        let rty = self.ty(r);
        if rty.is_tensor() {
            if rty.numel() == sty.numel() {
                // Reducing a size-1 axis keeps every element where it is.
                self.alias(src, r);
                return Ok(());
            }
            let OpKind::Reduce(_, axis) = d.kind else { return Err(self.malformed(op, "not a reduce")) };
            let g = super::convert::Gather::reduce(sty.shape(), axis as usize);
            let v = self.move_elements(op, src, r, &g, kind)?;
            self.bind(r, v);
            return Ok(());
        }
        let s = num_elem(sty);
        if !matches!(s, Scalar::F32 | Scalar::F16 | Scalar::BF16 | Scalar::I32 | Scalar::I64) {
            return Err(self.unsupported(op, &format!("reductions of {} tiles", s.mlir())));
        }
        let l = self.layout_of(op, sty)?;
        let acc = if matches!(s, Scalar::F16 | Scalar::BF16) { Scalar::F32 } else { s };
        let p = l.per;
        let v = self.name(src);
        let v = self.convert(&v, s, acc, Some(p));
        // 1. This thread's slots.
        let name = match (kind, acc.is_float()) {
            (ReduceKind::Sum, true) => "fadd",
            (ReduceKind::Sum, false) => "add",
            (ReduceKind::Max, true) => "fmaximum",
            (ReduceKind::Min, true) => "fminimum",
            (ReduceKind::Max, false) => "smax",
            (ReduceKind::Min, false) => "smin",
        };
        let vty = shaped(acc.llvm(), Some(p));
        let f = format!("llvm.vector.reduce.{name}.{}", suffix(acc, Some(p)));
        let id = identity(kind, acc);
        let mut x = if name == "fadd" {
            self.call(&f, acc.llvm(), &[(&id, acc.llvm()), (&v, &vty)]).unwrap_or_default()
        } else {
            self.call(&f, acc.llvm(), &[(&v, &vty)]).unwrap_or_default()
        };
        if let Some(own) = self.owner(&l) {
            // Copies held by non-owner threads must not count twice.
            x = self.assign(&format!("select i1 {own}, {} {x}, {} {id}", acc.llvm(), acc.llvm()));
        }
        // 2. The warp, by butterfly shuffles: afterwards every lane holds the warp's result.
        let mut off = self.t.warp_size() / 2;
        while off > 0 {
            let o = self.shuffle_xor(&x, acc, off);
            x = self.combine(kind, &x, &o, acc.llvm(), acc, None);
            off /= 2;
        }
        // 3. The CTA, through one shared-memory slot per warp.
        if self.num_warps > 1 {
            self.declare("__weft_red", "@__weft_red = internal addrspace(3) global [32 x i64] undef, align 8");
            let tid = self.tid();
            let ws = self.t.warp_size();
            let warp = self.entry_value("warp", |_, r| vec![format!("{r} = udiv i32 {tid}, {ws}")]);
            let lane = self.assign(&format!("urem i32 {tid}, {ws}"));
            let first = self.assign(&format!("icmp eq i32 {lane}, 0"));
            // No barrier before writing: the previous reduction ended with one after its reads.
            let ty = acc.llvm().to_string();
            let xv = x.clone();
            self.only_where(
                &first,
                |g| {
                    let slot = g.assign(&format!("getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 {warp}"));
                    g.line(&format!("store {ty} {xv}, ptr addrspace(3) {slot}, align 8"));
                    vec![]
                },
                "0",
            );
            self.barrier();
            let mut all = String::new();
            for w in 0..self.num_warps {
                let slot = self.assign(&format!("getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 {w}"));
                let y = self.assign(&format!("load {ty}, ptr addrspace(3) {slot}, align 8"));
                all = if w == 0 { y } else { self.combine(kind, &all, &y, &ty, acc, None) };
            }
            // The slots are reused by the next reduction.
            self.barrier();
            x = all;
        }
        let out = self.convert(&x, acc, s, None);
        self.bind(r, out);
        Ok(())
    }

    /// `x` from the lane whose index differs from this one's in bit `off`.
    fn shuffle_xor(&mut self, x: &str, s: Scalar, off: usize) -> String {
        let tid = self.tid();
        let shfl = |g: &mut Self, x: &str, ty: &str| g.emit_value(|t, r| t.shuffle_xor(r, x, ty, off, &tid));
        match s {
            Scalar::F32 => shfl(self, x, "float"),
            Scalar::I32 => shfl(self, x, "i32"),
            _ => {
                // 64-bit values move as two 32-bit halves.
                let v = self.assign(&format!("bitcast i64 {x} to <2 x i32>"));
                let lo = self.extract(&v, "<2 x i32>", 0);
                let hi = self.extract(&v, "<2 x i32>", 1);
                let lo = shfl(self, &lo, "i32");
                let hi = shfl(self, &hi, "i32");
                let a = self.assign(&format!("insertelement <2 x i32> poison, i32 {lo}, i64 0"));
                let b = self.assign(&format!("insertelement <2 x i32> {a}, i32 {hi}, i64 1"));
                self.assign(&format!("bitcast <2 x i32> {b} to i64"))
            }
        }
    }
}
