//! Layout inference: which values live in a dot accumulator layout instead of the blocked
//! one. A `tile.dot` result takes the accumulator layout its instruction produces (mma
//! fragments where the target has a matrix instruction for the operand type, else the FMA
//! layout); a loop that carries it (`scf.for` iter_arg, its yield and the loop's result) keeps
//! it, so an accumulation loop never leaves it. Every other use converts the value to the
//! blocked layout once, right after it is defined (Triton's `convert_layout`).

use super::acc_layout::{AccLayout, MMA_K};
use super::emit::num_elem;
use super::target::TargetInfo;
use crate::ir::{Kernel, OpKind, Value};
use std::collections::{HashMap, HashSet};

/// The accumulator layouts of a kernel's values.
#[derive(Default)]
pub(crate) struct AccLayouts {
    /// Values held in an accumulator layout.
    pub layout: HashMap<Value, AccLayout>,
    /// Those among them that some op reads in the blocked layout.
    pub needs_blocked: HashSet<Value>,
}

/// The accumulator layout of a dot computing an `[m, n]` result from `[m, k]` operands of
/// element `a` on `t` with `warps` warps, or `None` when no layout tiles the shape.
pub(crate) fn dot_layout(t: &dyn TargetInfo, a: crate::ir::Scalar, m: usize, n: usize, k: usize, warps: usize) -> Option<AccLayout> {
    // AMD matrix cores take 16-bit operands; f32 dots stay on the FMA path.
    let sixteen = matches!(a, crate::ir::Scalar::BF16 | crate::ir::Scalar::F16);
    if t.mfma() && sixteen && t.warp_size() == super::mfma::WAVE {
        if let Some(l) = AccLayout::mfma(m, n, k, warps) {
            return Some(l);
        }
    }
    let mma = t.mma(a).is_some() && t.warp_size() == 32 && k % MMA_K == 0;
    // `wgmma`'s D fragment: each warp group holds 64 rows, its warps 16 each.
    if mma && t.wgmma() && super::wgmma_desc::plan(m, n, k, warps).is_some() {
        return Some(AccLayout::Mma { m, n, warps_m: warps, warps_n: 1 });
    }
    mma.then(|| AccLayout::mma(m, n, warps)).flatten().or_else(|| AccLayout::fma(m, n, warps * t.warp_size()))
}

/// Infers the accumulator layouts of `k`'s values for `warps` warps on `t`.
pub(crate) fn infer(k: &Kernel, t: &dyn TargetInfo, warps: usize) -> AccLayouts {
    let mut layout = HashMap::new();
    for d in &k.ops {
        if d.kind == OpKind::Dot {
            let (a, r) = (d.operands[0], d.results[0]);
            let (ash, rsh) = (k.ty(a).shape(), k.ty(r).shape());
            if let ([m, kk], [_, n]) = (ash, rsh) {
                if let Some(l) = dot_layout(t, num_elem(k.ty(a)), *m, *n, *kk, warps) {
                    layout.insert(r, l);
                }
            }
        }
    }
    complete(k, layout)
}

/// Completes the accumulator layouts of dot results, `layout`: loops carry the layout of what
/// they yield (outward through nested loops), and every other reader of one gets it blocked.
pub(crate) fn complete(k: &Kernel, layout: HashMap<Value, AccLayout>) -> AccLayouts {
    let mut out = AccLayouts { layout, needs_blocked: HashSet::new() };
    let mut changed = true;
    while changed {
        changed = false;
        for d in k.ops.iter().filter(|d| d.kind == OpKind::For) {
            let body = k.block(d.regions[0]);
            let Some(&y) = body.ops.last() else { continue };
            for (i, &yv) in k.op(y).operands.iter().enumerate() {
                let (arg, res) = (body.args[i + 1], d.results[i]);
                if let Some(&l) = out.layout.get(&yv) {
                    if !out.layout.contains_key(&arg) {
                        out.layout.insert(arg, l);
                        out.layout.insert(res, l);
                        changed = true;
                    }
                }
            }
        }
    }
    for d in &k.ops {
        for (i, v) in d.operands.iter().enumerate() {
            let Some(l) = out.layout.get(v) else { continue };
            if !keeps_layout(k, &out.layout, d, i, l) {
                out.needs_blocked.insert(*v);
            }
        }
    }
    out
}

/// Whether operand `i` of `d` is read in accumulator layout `l`: a dot's accumulator, or a
/// yielded value whose loop slot carries `l`.
pub(crate) fn keeps_layout(k: &Kernel, layouts: &HashMap<Value, AccLayout>, d: &crate::ir::OpData, i: usize, l: &AccLayout) -> bool {
    match d.kind {
        OpKind::Dot => i == 2 && layouts.get(&d.results[0]) == Some(l),
        OpKind::For if i >= 3 => layouts.get(&k.block(d.regions[0]).args[i - 2]) == Some(l),
        OpKind::Yield => k.ops.iter().filter(|f| f.kind == OpKind::For).any(|f| {
            let body = k.block(f.regions[0]);
            body.ops.last().is_some_and(|&y| std::ptr::eq(k.op(y), d)) && layouts.get(&body.args[i + 1]) == Some(l)
        }),
        _ => false,
    }
}
