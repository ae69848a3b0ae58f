//! The layout pass: one encoding per tile value, decided once, read by the GPU lowering.

use super::encoding::{for_flat, same_map, Encoding};
use crate::ir::{Kernel, OpData, OpKind, Type, Value};
use crate::lower::gpu::acc_layout::AccLayout;
use crate::lower::gpu::layout::Blocked;
use crate::lower::gpu::layout_infer::{self, keeps_layout, AccLayouts};
use crate::lower::gpu::target::TargetInfo;
use std::collections::HashMap;

/// The encoding of every tile value of a kernel, for one CTA shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayoutMap {
    /// Warps per CTA.
    pub num_warps: usize,
    /// Threads per warp (32 on NVIDIA, 64 on AMD).
    pub warp_size: usize,
    /// Each tile value's encoding (where it is defined). Tiles no layout splits are absent;
    /// the lowering reports them.
    pub enc: HashMap<Value, Encoding>,
}

impl LayoutMap {
    /// Threads per CTA.
    pub fn threads(&self) -> usize {
        self.num_warps * self.warp_size
    }

    /// The accumulator layouts the lowering holds values in: dot results whose encoding is an
    /// accumulator's, the loops that carry them, and which of them some op reads blocked.
    pub(crate) fn acc_layouts(&self, k: &Kernel) -> AccLayouts {
        let mut dots = HashMap::new();
        for d in k.ops.iter().filter(|d| d.kind == OpKind::Dot) {
            let r = d.results[0];
            if let Some(l) = self.enc.get(&r).and_then(|e| e.acc_layout(k.ty(r).shape(), self.threads(), self.warp_size)) {
                dots.insert(r, l);
            }
        }
        layout_infer::complete(k, dots)
    }

    /// The blocked (row-major distribution) encoding of a tile of type `t`.
    pub fn blocked(&self, t: &Type) -> Encoding {
        for_flat(t.shape(), self.threads(), self.warp_size)
    }

    /// The encoding op `d` reads its operand `i` in: an accumulator where the op keeps it
    /// (a dot's accumulator, a loop's carried value), the dot-operand encoding for a dot's A
    /// and B, and the defining encoding (blocked) otherwise.
    pub(crate) fn read_encoding(&self, k: &Kernel, accs: &AccLayouts, d: &OpData, i: usize) -> Option<Encoding> {
        let v = d.operands[i];
        if !k.ty(v).is_tensor() {
            return None;
        }
        let acc_of = |x: Value| accs.layout.get(&x).map(|l| Encoding::from_acc(l, self.warp_size));
        if d.kind == OpKind::Dot && i < 2 {
            let parent = self.enc.get(&d.results[0])?.clone();
            let k_width = match parent {
                Encoding::Mma { .. } => 2,
                Encoding::Mfma { .. } => 4,
                _ => 1,
            };
            return Some(Encoding::DotOperand { op_idx: i, parent: Box::new(parent), k_width });
        }
        if d.kind == OpKind::Dot && i == 2 {
            return acc_of(d.results[0]).or_else(|| self.enc.get(&v).cloned());
        }
        if d.kind == OpKind::For && i >= 3 {
            if let Some(e) = acc_of(k.block(d.regions[0]).args[i - 2]) {
                return Some(e);
            }
        }
        match accs.layout.get(&v) {
            Some(l) if keeps_layout(k, &accs.layout, d, i, l) => acc_of(v),
            Some(_) => Some(self.blocked(k.ty(v))),
            None => self.enc.get(&v).cloned(),
        }
    }
}

/// Every value of `k` (parameters, block arguments and op results), in definition order.
pub(crate) fn all_values(k: &Kernel) -> impl Iterator<Item = Value> + '_ {
    (0..k.values.len() as u32).map(Value)
}

/// The layout pass: encodings of `k`'s tiles for `warps` warps on `t`.
pub fn assign(k: &Kernel, t: &dyn TargetInfo, warps: usize) -> LayoutMap {
    let warp = t.warp_size();
    let threads = warps * warp;
    let accs = layout_infer::infer(k, t, warps);
    let mut map = LayoutMap { num_warps: warps, warp_size: warp, enc: HashMap::new() };
    let mut flat: HashMap<Vec<usize>, Encoding> = HashMap::new();
    for v in all_values(k) {
        let ty = k.ty(v);
        if !ty.is_tensor() {
            continue;
        }
        let e = match accs.layout.get(&v) {
            Some(l) => Encoding::from_acc(l, warp),
            None if Blocked::new(ty.numel(), threads).is_ok() => flat.entry(ty.shape().to_vec()).or_insert_with(|| for_flat(ty.shape(), threads, warp)).clone(),
            None => continue,
        };
        map.enc.insert(v, e);
    }
    name_slices(k, &mut map, &accs.layout);
    map
}

/// Spells as a slice of its 2-D neighbour every 1-D tile that is one: a reduction's result
/// (of its operand) and an `expand_dims` operand (of the tile it is broadcast to).
fn name_slices(k: &Kernel, map: &mut LayoutMap, accs: &HashMap<Value, AccLayout>) {
    let (threads, warp) = (map.threads(), map.warp_size);
    let broadcast_of: HashMap<Value, Value> = k.ops.iter().filter(|d| d.kind == OpKind::Broadcast).map(|d| (d.operands[0], d.results[0])).collect();
    let mut tried: HashMap<(usize, Encoding, Vec<usize>), bool> = HashMap::new();
    let free = free_values(k);
    for d in &k.ops {
        let (small, big, dim) = match d.kind {
            OpKind::Reduce(_, axis) if d.operands.len() == 1 && k.ty(d.results[0]).is_tensor() => (d.results[0], d.operands[0], axis as usize),
            OpKind::ExpandDims(axis) => (d.operands[0], *broadcast_of.get(&d.results[0]).unwrap_or(&d.results[0]), axis as usize),
            _ => continue,
        };
        if k.ty(small).shape().len() != 1 || !free.contains(&small) {
            continue;
        }
        // An accumulator is read by these ops in its blocked copy.
        let parent = if accs.contains_key(&big) { Some(map.blocked(k.ty(big))) } else { map.enc.get(&big).cloned() };
        let (Some(parent), Some(cur)) = (parent, map.enc.get(&small).cloned()) else { continue };
        if matches!(cur, Encoding::Slice { .. }) || !matches!(parent, Encoding::Blocked { .. }) {
            continue;
        }
        let shape = k.ty(small).shape().to_vec();
        let slice = Encoding::Slice { dim, parent: Box::new(parent.clone()) };
        let ok = *tried.entry((dim, parent, shape.clone())).or_insert_with(|| same_map(&slice, &cur, &shape, threads, warp));
        if ok {
            map.enc.insert(small, slice);
        }
    }
}

/// Tiles whose encoding can change alone: made by `make_range` or a reduction (ops that set
/// their result's layout), and read only by ops whose operand types are not tied to another
/// value's (the `arith` ops, loops, `addptr`'s pointers and `select` need equal types).
fn free_values(k: &Kernel) -> std::collections::HashSet<Value> {
    let mut out: std::collections::HashSet<Value> =
        k.ops.iter().filter(|d| matches!(d.kind, OpKind::MakeRange(..) | OpKind::Reduce(..))).flat_map(|d| d.results.iter().copied()).collect();
    for d in &k.ops {
        for (i, v) in d.operands.iter().enumerate() {
            let untied = matches!((&d.kind, i), (OpKind::ExpandDims(_) | OpKind::Broadcast | OpKind::Reduce(..), _) | (OpKind::AddPtr | OpKind::Store { .. }, 1));
            if !untied {
                out.remove(v);
            }
        }
    }
    out
}
