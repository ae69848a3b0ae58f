//! Which ring operands a TMA copy can fill (sm_90a's `wgmma` and sm_100a's `ldmatrix`
//! stagings, both the swizzled layout a box writes): a masked load of a row-major
//! matrix whose base pointer, row stride and both bounds are kernel arguments,
//! `ptr + (R * ld + C)` under `R < rows & C < cols`, where `R` (`[tile rows, 1]`) and `C`
//! (`[1, tile cols]`) are contiguous index runs. The copy's box origin is then element 0 of
//! `R` and of `C`, and its out-of-bounds zero fill is the mask with `other = 0`, so the
//! tensor map (made at launch from those arguments, see `weft_runtime::cuda::tensor_map`)
//! describes exactly what the load reads. Anything else keeps the `cp.async` ring.

use super::emit::{num_elem, Gx};
use super::tma::TmaPlan;
use super::wgmma_desc::SwizzledTile;
use crate::ir::{BinOp, CastKind, CmpPred, Elem, Op, OpData, OpKind, Scalar, Value};
use weft_runtime::cuda::tensor_map::{TmaElem, TmaParam};

/// One ring operand filled by TMA.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TmaOperand {
    /// The boxes of its staging.
    pub plan: TmaPlan,
    /// The tensor map the kernel takes for it.
    pub param: TmaParam,
    /// Its row and column index tiles: element 0 of each is the box origin.
    pub row: Value,
    pub col: Value,
}

impl Gx<'_> {
    /// The A and B of ringed dot `dot` (staged swizzled, for `wgmma` or `ldmatrix`) when TMA
    /// can fill both.
    pub(crate) fn tma_operands(&self, dot: Op) -> Option<[TmaOperand; 2]> {
        let (ta, tb) = self.swizzled_staging(dot)?;
        let d = self.k.op(dot);
        let a = self.tma_operand(*self.defs.get(&d.operands[0])?, ta)?;
        let b = self.tma_operand(*self.defs.get(&d.operands[1])?, tb)?;
        Some([a, b])
    }

    /// The TMA form of `load`, staged as `tile`.
    fn tma_operand(&self, load: Op, tile: SwizzledTile) -> Option<TmaOperand> {
        let d = self.k.op(load);
        let OpKind::Load { mask: true, .. } = d.kind else { return None };
        let elem = match num_elem(self.ty(d.results[0])) {
            Scalar::BF16 => TmaElem::Bf16,
            Scalar::F16 => TmaElem::F16,
            _ => return None,
        };
        let (base, off) = self.pair(d.operands[0], |k| *k == OpKind::AddPtr)?;
        let base = self.param_index(base)?;
        let (x, y) = self.pair(off, |k| *k == OpKind::Binary(BinOp::Add))?;
        let (ld, row, col) = [(x, y), (y, x)].into_iter().find_map(|(p, q)| self.scaled(p).map(|(ld, r)| (ld, r, q)))?;
        let contiguous = |v: Value, dim: usize, n: usize| {
            let shape = self.ty(v).shape();
            let want = if dim == 0 { [n, 1] } else { [1, n] };
            shape == want && self.rematerializable(v, 0) && self.axis.get(self.k, v).contiguity.get(dim).is_some_and(|&c| c as usize >= n)
        };
        if !contiguous(row, 0, tile.rows) || !contiguous(col, 1, tile.cols) {
            return None;
        }
        let (m1, m2) = self.pair(d.operands[1], |k| *k == OpKind::Binary(BinOp::And))?;
        let (b1, b2) = (self.bound(m1)?, self.bound(m2)?);
        let (rows, cols) = match (b1, b2) {
            ((r, rows), (c, cols)) | ((c, cols), (r, rows)) if r == row && c == col => (rows, cols),
            _ => return None,
        };
        let plan = TmaPlan::new(tile)?;
        let param = plan.param([base, rows, cols, ld], elem)?;
        Some(TmaOperand { plan, param, row, col })
    }

    /// `v` without broadcasts, splats and integer conversions around it.
    fn peel(&self, mut v: Value) -> Value {
        while let Some(d) = self.def_data(v) {
            let ints = |x: Value| matches!(self.ty(x).elem(), Some(Elem::Num(s)) if s.is_int());
            match d.kind {
                OpKind::Broadcast | OpKind::Splat => v = d.operands[0],
                OpKind::Cast(CastKind::Convert) if ints(v) && ints(d.operands[0]) => v = d.operands[0],
                _ => break,
            }
        }
        v
    }

    fn def_data(&self, v: Value) -> Option<&OpData> {
        self.defs.get(&v).map(|&o| self.k.op(o))
    }

    /// The two operands of the op (under [`Self::peel`]) defining `v`, when `kind` holds.
    fn pair(&self, v: Value, kind: impl Fn(&OpKind) -> bool) -> Option<(Value, Value)> {
        let d = self.def_data(self.peel(v))?;
        (kind(&d.kind) && d.operands.len() == 2).then(|| (self.peel(d.operands[0]), self.peel(d.operands[1])))
    }

    /// The kernel argument index of scalar `v`.
    fn param_index(&self, v: Value) -> Option<usize> {
        let v = self.peel(v);
        self.k.params.iter().position(|p| p.value == v)
    }

    /// `(ld, r)` of `v = r * ld` with `ld` a kernel argument.
    fn scaled(&self, v: Value) -> Option<(usize, Value)> {
        let (a, b) = self.pair(v, |k| *k == OpKind::Binary(BinOp::Mul))?;
        match (self.param_index(a), self.param_index(b)) {
            (_, Some(ld)) => Some((ld, a)),
            (Some(ld), None) => Some((ld, b)),
            _ => None,
        }
    }

    /// `(x, n)` of a mask term `x < n` with `n` a kernel argument.
    fn bound(&self, v: Value) -> Option<(Value, usize)> {
        let (x, n) = self.pair(v, |k| *k == OpKind::Cmp(CmpPred::Lt))?;
        Some((x, self.param_index(n)?))
    }
}
