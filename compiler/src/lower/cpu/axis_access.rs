//! Contiguous accesses proven by axis info (`crate::analysis`, shared with the GPU lowering)
//! where the emitter's own splat/range tracking, which also names the base address, did not
//! see them (pointer tiles carried through loops and advanced there, or built through ops the
//! tracking does not follow): a tile contiguous along its whole length is addressed from its
//! first lane, a 2-D tile with contiguous rows through row pointers.

use super::emit::Cx;
use super::grid::Grid;
use crate::ir::Value;

impl Cx<'_> {
    /// Records, from axis info, how pointer tile `p` is contiguous when nothing else did.
    pub(crate) fn contiguity_from_axis(&mut self, p: Value) {
        let t = self.ty(p);
        let known = self.contig.contains_key(&p) || matches!(self.grid.get(&p), Some(Grid::RowPtrs(_)));
        // Tiles held in stack buffers have no address vector to take lanes from.
        if !t.is_tensor() || known || self.mem.contains_key(&p) {
            return;
        }
        let shape = t.shape().to_vec();
        let (Some(&cols), n) = (shape.last(), t.numel()) else { return };
        let info = self.axis.get(self.k, p);
        if cols < 2 || info.contiguity[info.rank() - 1] as usize != cols {
            return;
        }
        let v = self.name(p);
        let vt = format!("vector<{n}xi64>");
        if n == cols {
            let (a, base) = (self.fresh(), self.fresh());
            self.line(&format!("{a} = vector.extract {v}[0] : i64 from {vt}"));
            self.line(&format!("{base} = llvm.inttoptr {a} : i64 to !llvm.ptr"));
            self.contig.insert(p, base);
        } else if shape.len() == 2 {
            let starts: Vec<String> = (0..n / cols).map(|r| (r * cols).to_string()).collect();
            let rows = self.fresh();
            self.line(&format!("{rows} = vector.shuffle {v}, {v} [{}] : {vt}, {vt}", starts.join(", ")));
            self.grid.insert(p, Grid::RowPtrs(rows));
        }
    }
}
