//! 32-bit index compares: a comparison of 64-bit integers whose operands both provably fit in
//! `i32` ([`IntRanges`]) becomes a comparison of their truncations. The library's GEMMs index
//! in `i64`, so without this every K-loop mask (`k0 + arange(BLOCK_K) < K`) is a 64-bit
//! compare per element (two SASS instructions each, plus 64-bit adds); with the variant fact
//! that `K` is small ([`super::Specialization::small`]) it is 32-bit, as Triton's is.
//! The rewrite is exact: truncation is the identity on values within `i32`.

use super::int_range::IntRanges;
use super::Specialization;
use std::borrow::Cow;
use crate::ir::{Block, CastKind, Elem, Kernel, Op, OpKind, Scalar};

/// The kernel a variant lowers: with its compares narrowed when it has small-integer facts
/// (the GPU pipeline and the SIMT emulator both lower this).
pub fn for_variant(kernel: &Kernel) -> Cow<'_, Kernel> {
    if Specialization::of(kernel).small.contains(&true) { Cow::Owned(narrow_compares(kernel)) } else { Cow::Borrowed(kernel) }
}

/// `kernel` with every 64-bit compare whose operands fit in `i32` done in 32 bits; the kernel
/// itself when there is none.
pub fn narrow_compares(kernel: &Kernel) -> Kernel {
    let ranges = IntRanges::analyze(kernel);
    let i32r = (i32::MIN as i128, i32::MAX as i128);
    let fits = |v| ranges.get(kernel, v).is_some_and(|r| r.0 >= i32r.0 && r.1 <= i32r.1);
    let mut todo: Vec<(Block, Op)> = vec![];
    let mut stack = vec![kernel.body];
    while let Some(b) = stack.pop() {
        for &op in &kernel.block(b).ops {
            let d = kernel.op(op);
            stack.extend(&d.regions);
            let wide = d.operands.first().is_some_and(|&v| matches!(kernel.ty(v).elem(), Some(Elem::Num(s)) if s.is_int() && s.bits() > 32));
            if matches!(d.kind, OpKind::Cmp(_)) && wide && d.operands.iter().all(|&v| fits(v)) {
                todo.push((b, op));
            }
        }
    }
    let mut k = kernel.clone();
    for (b, op) in todo {
        let operands = k.op(op).operands.clone();
        let loc = k.op(op).loc.clone();
        let mut narrowed = vec![];
        for v in operands {
            let t = k.ty(v).with_elem(Elem::Num(Scalar::I32));
            // Appended to the block, then moved in front of the compare.
            let cast = k.push_op(b, OpKind::Cast(CastKind::Convert), vec![v], vec![t], vec![], loc.clone());
            let ops = &mut k.blocks[b.0 as usize].ops;
            ops.pop();
            let at = ops.iter().position(|&o| o == op).unwrap_or(ops.len());
            ops.insert(at, cast);
            narrowed.push(k.op(cast).results[0]);
        }
        k.ops[op.0 as usize].operands = narrowed;
    }
    k
}
