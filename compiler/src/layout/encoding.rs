//! Tensor encodings, after Triton's TritonGPU attributes: where each element of a tile lives
//! (which thread, which register slot) or, for shared memory, at which offset.
//!
//! Each register encoding answers [`Encoding::holds`]: the row-major element index that
//! `(thread, slot)` holds, for a tile of a given shape. Threads whose coordinates fall past the
//! tile wrap around (Triton's replication), so several threads may hold one element; the first
//! one in thread order is its owner.

use crate::lower::gpu::acc_layout::{mma_a_fragment, mma_b_fragment, AccLayout, MMA_K, MMA_M, MMA_N};
use crate::lower::gpu::mfma::{mfma_a_fragment, mfma_b_fragment, mfma_k, WAVE};

/// Where the elements of a tile live.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Triton's blocked layout: each thread holds a `sizePerThread` block, lanes and warps tile
    /// the shape with `threadsPerWarp` and `warpsPerCTA`, `order` lists dimensions fastest first.
    Blocked { size_per_thread: Vec<usize>, threads_per_warp: Vec<usize>, warps_per_cta: Vec<usize>, order: Vec<usize> },
    /// weft's row-major distribution where no blocked layout spells it: thread `t` holds the
    /// `per` consecutive elements from `t * per`, or (a tile smaller than the CTA) element
    /// `t * numel / threads`.
    Flat { per: usize },
    /// The layout of `parent` with dimension `dim` removed (what a reduction along `dim`
    /// leaves, or what `expand_dims` along `dim` reads).
    Slice { dim: usize, parent: Box<Encoding> },
    /// The `m16n8k16` accumulator (`mma.sync`, version 2): warps tile the shape
    /// `warpsPerCTA`, each warp holding D fragments of 16x8 tiles.
    Mma { warps_per_cta: [usize; 2] },
    /// The AMD MFMA accumulator (Triton's `amd_mfma`): wavefronts tile the shape
    /// `warpsPerCTA`, each holding D fragments of `instr x instr` blocks (32 or 16).
    Mfma { warps_per_cta: [usize; 2], instr: usize },
    /// An operand (`op_idx` 0: A, 1: B) of a dot whose accumulator has encoding `parent`, as
    /// its instruction reads it (`k_width` consecutive k per 32-bit register for mma, per
    /// lane for MFMA).
    DotOperand { op_idx: usize, parent: Box<Encoding>, k_width: usize },
    /// A tile in shared memory: Triton's swizzled layout (`vec` elements stay together, the
    /// vector index is XORed with `(row / per_phase) % max_phase`); `order` fastest first;
    /// `pad` elements follow each row (how `ldmatrix` reads stay free of bank conflicts).
    /// `swizzle` (bytes, 0 for none) cuts rows into atoms that wide stored one after another
    /// (Triton's NVMMA layout, what TMA and `wgmma` use); `slot` says where the lowering put it.
    Shared { vec: usize, per_phase: usize, max_phase: usize, order: Vec<usize>, pad: usize, swizzle: usize, slot: Option<Box<Slot>> },
}

/// Where the GPU lowering keeps a staged `tile.dot` operand, and how it fills and reads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Byte offset of the operand in its slot (A first, B after it).
    pub at: usize,
    /// Slots of the `num_stages` ring (1: no ring) and the bytes of each.
    pub stages: usize,
    pub slot_bytes: usize,
    /// Alignment (bytes) of the scratch buffer the slots are in.
    pub align: usize,
    /// How the operand gets there: `cp.async`, `tma`, `st.shared` or `ds_write`.
    pub fill: String,
    /// How the dot reads it: `ldmatrix`, `wgmma` (descriptors), `ld.shared` or `ds_read`.
    pub read: String,
}

impl Encoding {
    /// Whether it places elements in registers (everything but [`Encoding::Shared`]).
    pub fn in_registers(&self) -> bool {
        !matches!(self, Encoding::Shared { .. })
    }

    /// The accumulator layout the GPU lowering implements for this encoding of an `[m, n]`
    /// dot result with `threads` threads of `warp`-lane warps, if it is one: mma, or the FMA
    /// layout (a blocked layout of `tm x tn` blocks, rows of threads along dimension 1).
    pub fn acc_layout(&self, shape: &[usize], threads: usize, warp: usize) -> Option<AccLayout> {
        let &[m, n] = shape else { return None };
        match self {
            Encoding::Mma { warps_per_cta: [wm, wn] } => {
                let ok = warp == 32 && wm * wn * 32 == threads && m % (MMA_M * wm) == 0 && n % (MMA_N * wn) == 0;
                ok.then_some(AccLayout::Mma { m, n, warps_m: *wm, warps_n: *wn })
            }
            Encoding::Mfma { warps_per_cta: [wm, wn], instr: s } => {
                let ok = warp == WAVE && matches!(s, 16 | 32) && wm * wn * WAVE == threads && m % (s * wm) == 0 && n % (s * wn) == 0;
                ok.then_some(AccLayout::Mfma { m, n, warps_m: *wm, warps_n: *wn, instr: *s })
            }
            Encoding::Blocked { size_per_thread: spt, .. } if spt.len() == 2 && spt[0] > 0 && spt[1] > 0 => {
                let (tm, tn) = (m / spt[0], n / spt[1]);
                let l = AccLayout::Fma { m, n, threads_m: tm, threads_n: tn };
                // Compared as spelled (the canonical spelling `from_acc` prints), not by
                // enumeration: dot operands ask this for every element they place.
                (m % spt[0] == 0 && n % spt[1] == 0 && tm * tn == threads && *self == Encoding::from_acc(&l, warp)).then_some(l)
            }
            _ => None,
        }
    }

    /// The encoding of accumulator layout `l` with `warp`-lane warps.
    pub fn from_acc(l: &AccLayout, warp: usize) -> Encoding {
        match *l {
            AccLayout::Mma { warps_m, warps_n, .. } => Encoding::Mma { warps_per_cta: [warps_m, warps_n] },
            AccLayout::Mfma { warps_m, warps_n, instr, .. } => Encoding::Mfma { warps_per_cta: [warps_m, warps_n], instr },
            AccLayout::Fma { m, n, threads_m, threads_n } => {
                let lanes_n = threads_n.min(warp);
                let lanes_m = warp / lanes_n;
                Encoding::Blocked {
                    size_per_thread: vec![m / threads_m, n / threads_n],
                    threads_per_warp: vec![lanes_m, lanes_n],
                    warps_per_cta: vec![(threads_m / lanes_m).max(1), threads_n / lanes_n],
                    order: vec![1, 0],
                }
            }
        }
    }

    /// Whether the row-major index of what `thread` holds in `slot` is a sum of a part that
    /// depends only on the thread and one that depends only on the slot (no wrapping).
    fn additive(&self, shape: &[usize], threads: usize) -> bool {
        match self {
            Encoding::Blocked { size_per_thread: spt, threads_per_warp: tpw, warps_per_cta: wpc, .. } => {
                (0..shape.len()).all(|d| shape[d] % (spt[d] * tpw[d] * wpc[d]) == 0)
            }
            Encoding::Flat { .. } => shape.iter().product::<usize>() >= threads,
            Encoding::Mma { .. } | Encoding::Mfma { .. } => true,
            _ => false,
        }
    }

    /// Register slots each thread holds of a tile of `shape` (0 for shared memory).
    pub fn slots(&self, shape: &[usize], threads: usize, warp: usize) -> usize {
        match self {
            Encoding::Blocked { size_per_thread, threads_per_warp, warps_per_cta, .. } => {
                (0..shape.len()).map(|d| size_per_thread[d] * reps(shape[d], size_per_thread[d] * threads_per_warp[d] * warps_per_cta[d])).product()
            }
            Encoding::Flat { per } => *per,
            Encoding::Slice { dim, parent } => slice_slots(parent, *dim, shape, threads, warp).len(),
            Encoding::Mma { .. } | Encoding::Mfma { .. } => self.acc_layout(shape, threads, warp).map_or(0, |l| l.slots()),
            Encoding::DotOperand { op_idx, parent, .. } => operand_slots(*op_idx, parent, shape, threads, warp),
            Encoding::Shared { .. } => 0,
        }
    }

    /// The row-major index of the element `thread` holds in register `slot` of a tile of
    /// `shape`, or `None` when the encoding does not place one there.
    pub fn holds(&self, shape: &[usize], threads: usize, warp: usize, thread: usize, slot: usize) -> Option<usize> {
        let coords = self.coords(shape, threads, warp, thread, slot)?;
        Some(coords.iter().zip(shape).fold(0, |acc, (&c, &s)| acc * s + c % s))
    }

    /// What every `(thread, slot)` holds, thread-major ([`Encoding::holds`] of each, with a
    /// slice's kept parent slots found once).
    fn table(&self, shape: &[usize], threads: usize, warp: usize) -> Vec<Option<usize>> {
        let mut out = vec![];
        if let Encoding::Slice { dim, parent } = self {
            let (pshape, keep) = (insert(shape, *dim, 1), slice_slots(parent, *dim, shape, threads, warp));
            for t in 0..threads {
                for &ps in &keep {
                    let c = parent.coords(&pshape, threads, warp, t, ps).map(|mut c| {
                        c.remove(*dim);
                        c
                    });
                    out.push(c.map(|c| c.iter().zip(shape).fold(0, |acc, (&x, &s)| acc * s + x % s)));
                }
            }
            return out;
        }
        let slots = self.slots(shape, threads, warp);
        for t in 0..threads {
            out.extend((0..slots).map(|s| self.holds(shape, threads, warp, t, s)));
        }
        out
    }

    /// The coordinates (before wrapping) of what `thread` holds in `slot`.
    fn coords(&self, shape: &[usize], threads: usize, warp: usize, thread: usize, slot: usize) -> Option<Vec<usize>> {
        if thread >= threads || slot >= self.slots(shape, threads, warp) {
            return None;
        }
        match self {
            Encoding::Blocked { size_per_thread: spt, threads_per_warp: tpw, warps_per_cta: wpc, order } => {
                let r = shape.len();
                let lane = split(thread % warp, tpw, order);
                let w = split(thread / warp, wpc, order);
                let cover: Vec<usize> = (0..r).map(|d| spt[d] * tpw[d] * wpc[d]).collect();
                let rep_n: Vec<usize> = (0..r).map(|d| reps(shape[d], cover[d])).collect();
                let inner = split(slot % spt.iter().product::<usize>(), spt, order);
                let rep = split(slot / spt.iter().product::<usize>(), &rep_n, order);
                Some((0..r).map(|d| rep[d] * cover[d] + (w[d] * tpw[d] + lane[d]) * spt[d] + inner[d]).collect())
            }
            Encoding::Flat { per } => {
                let numel: usize = shape.iter().product();
                let flat = if numel < threads { thread * numel / threads } else { thread * per + slot };
                Some(unflatten(flat, shape))
            }
            Encoding::Slice { dim, parent } => {
                let pshape = insert(shape, *dim, 1);
                let pslot = *slice_slots(parent, *dim, shape, threads, warp).get(slot)?;
                let mut c = parent.coords(&pshape, threads, warp, thread, pslot)?;
                c.remove(*dim);
                Some(c)
            }
            Encoding::Mma { .. } | Encoding::Mfma { .. } => {
                let (r, c) = self.acc_layout(shape, threads, warp)?.element(thread, slot);
                Some(vec![r, c])
            }
            Encoding::DotOperand { op_idx, parent, .. } => operand_coords(*op_idx, parent, shape, threads, warp, thread, slot),
            Encoding::Shared { .. } => None,
        }
    }

    /// For shared memory: the element offset of row-major element `index` of a 2-D tile.
    pub fn shared_offset(&self, shape: &[usize], index: usize) -> Option<usize> {
        let Encoding::Shared { vec, per_phase, max_phase, order, pad, swizzle, .. } = self else { return None };
        let [fast, slow] = order[..] else { return None };
        let c = unflatten(index, shape);
        let (row, col, width) = (c[slow], c[fast], shape[fast]);
        // A swizzle of S bytes holds `vec`-element 16-byte chunks, S / 16 of them per atom row.
        let atom = if *swizzle > 0 { (swizzle / 16 * vec).min(width) } else { width };
        let (a, col) = (col / atom, col % atom);
        let phase = (row / per_phase) % max_phase;
        let vcol = ((col / vec) ^ phase) * vec + col % vec;
        let rows = shape[slow];
        (vcol < atom).then_some((a * rows + row) * (atom + pad) + vcol)
    }
}

/// Repetitions of a layout covering `cover` elements along a dimension of `size`.
fn reps(size: usize, cover: usize) -> usize {
    size.div_ceil(cover).max(1)
}

/// `x` split into mixed-radix digits over `dims`, the `order[0]` digit fastest.
fn split(mut x: usize, dims: &[usize], order: &[usize]) -> Vec<usize> {
    let mut out = vec![0; dims.len()];
    for &d in order {
        out[d] = x % dims[d].max(1);
        x /= dims[d].max(1);
    }
    out
}

/// Row-major coordinates of element `flat` of `shape`.
pub(crate) fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = flat % shape[d].max(1);
        flat /= shape[d].max(1);
    }
    c
}

fn insert(shape: &[usize], dim: usize, size: usize) -> Vec<usize> {
    let mut s = shape.to_vec();
    s.insert(dim.min(s.len()), size);
    s
}

/// The parent slots a slice keeps: those at the first position along `dim` (thread 0's view;
/// a blocked layout's slots move along `dim` the same way in every thread).
fn slice_slots(parent: &Encoding, dim: usize, shape: &[usize], threads: usize, warp: usize) -> Vec<usize> {
    let pshape = insert(shape, dim, 1);
    let first = |s: usize| parent.coords(&pshape, threads, warp, 0, s).map(|c| c[dim]);
    let base = first(0).unwrap_or(0);
    (0..parent.slots(&pshape, threads, warp)).filter(|&s| first(s) == Some(base)).collect()
}

/// Slots of a dot operand: mma fragments per (row or column tile, k16 step), or an FMA
/// thread's rows of A / columns of B over all of k.
fn operand_slots(op_idx: usize, parent: &Encoding, shape: &[usize], threads: usize, warp: usize) -> usize {
    let &[r, c] = shape else { return 0 };
    let acc_shape = operand_acc_shape(op_idx, parent, shape);
    match parent.acc_layout(&acc_shape, threads, warp) {
        Some(l @ AccLayout::Mma { .. }) => {
            let (rm, rn) = l.reps();
            if op_idx == 0 { rm * (c / MMA_K) * 8 } else { rn * (r / MMA_K) * 4 }
        }
        Some(l @ AccLayout::Fma { .. }) => {
            let (bm, bn) = l.reps();
            if op_idx == 0 { bm * c } else { r * bn }
        }
        Some(l @ AccLayout::Mfma { instr, .. }) => {
            let (rm, rn) = l.reps();
            if op_idx == 0 { rm * (c / mfma_k(instr)) * 4 } else { rn * (r / mfma_k(instr)) * 4 }
        }
        None => 0,
    }
}

/// An accumulator shape for a dot operand's parent: the dimension the operand shares with
/// the accumulator (A's rows, B's columns) is the operand's, the other one what the parent's
/// warps or threads cover once (an operand's placement does not depend on it).
fn operand_acc_shape(op_idx: usize, parent: &Encoding, shape: &[usize]) -> Vec<usize> {
    let other = match parent {
        Encoding::Mma { warps_per_cta: [wm, wn] } => {
            if op_idx == 0 { MMA_N * wn } else { MMA_M * wm }
        }
        Encoding::Mfma { warps_per_cta: [wm, wn], instr } => {
            if op_idx == 0 { instr * wn } else { instr * wm }
        }
        Encoding::Blocked { size_per_thread: spt, threads_per_warp: tpw, warps_per_cta: wpc, .. } if spt.len() == 2 => {
            let d = if op_idx == 0 { 1 } else { 0 };
            spt[d] * tpw[d] * wpc[d]
        }
        _ => 1,
    };
    if op_idx == 0 { vec![shape[0], other] } else { vec![other, shape[1]] }
}

fn operand_coords(op_idx: usize, parent: &Encoding, shape: &[usize], threads: usize, warp: usize, thread: usize, slot: usize) -> Option<Vec<usize>> {
    let &[r, c] = shape else { return None };
    let l = parent.acc_layout(&operand_acc_shape(op_idx, parent, shape), threads, warp)?;
    match l {
        AccLayout::Mma { .. } => {
            let (rm, rn) = l.reps();
            let (lane, (row0, col0)) = (thread % 32, l.base(thread - thread % 32));
            if op_idx == 0 {
                let (tile, q) = (slot / 8, slot % 8);
                let (im, kk) = (tile / (c / MMA_K), tile % (c / MMA_K));
                let (fr, fk) = mma_a_fragment(lane)[q];
                Some(vec![row0 + im * MMA_M + fr, kk * MMA_K + fk]).filter(|_| im < rm)
            } else {
                let (tile, q) = (slot / 4, slot % 4);
                let (kk, jn) = (tile / rn, tile % rn);
                let (fk, fc) = mma_b_fragment(lane)[q];
                Some(vec![kk * MMA_K + fk, col0 + jn * MMA_N + fc]).filter(|_| kk < r / MMA_K)
            }
        }
        AccLayout::Mfma { instr: s, .. } => {
            // Per (block, k step) the lane's 4 elements, blocks outer.
            let ((rm, rn), kd) = (l.reps(), mfma_k(s));
            let (lane, (row0, col0)) = (thread % WAVE, l.base(thread - thread % WAVE));
            let (tile, q) = (slot / 4, slot % 4);
            if op_idx == 0 {
                let (im, kk) = (tile / (c / kd), tile % (c / kd));
                let (fr, fk) = mfma_a_fragment(lane, s)[q];
                Some(vec![row0 + im * s + fr, kk * kd + fk]).filter(|_| im < rm)
            } else {
                let (jn, kk) = (tile / (r / kd), tile % (r / kd));
                let (fk, fc) = mfma_b_fragment(lane, s)[q];
                Some(vec![kk * kd + fk, col0 + jn * s + fc]).filter(|_| jn < rn)
            }
        }
        AccLayout::Fma { .. } => {
            let (bm, bn) = l.reps();
            let (row0, col0) = l.base(thread);
            if op_idx == 0 { Some(vec![row0 + slot / c, slot % c]).filter(|_| slot / c < bm) } else { Some(vec![slot / bn, col0 + slot % bn]) }
        }
    }
}

/// Whether `a` and `b` put the same element in every `(thread, slot)` of a tile of `shape`.
pub fn same_map(a: &Encoding, b: &Encoding, shape: &[usize], threads: usize, warp: usize) -> bool {
    let slots = a.slots(shape, threads, warp);
    let at = |t: usize, s: usize| a.holds(shape, threads, warp, t, s) == b.holds(shape, threads, warp, t, s);
    if slots == 0 || slots != b.slots(shape, threads, warp) {
        return false;
    }
    // Where both place `thread`'s `slot` at a thread part plus a slot part, comparing each
    // part once (thread 0's slots, every thread's slot 0) compares them all: the layout pass
    // asks this of every tile shape, and 128x128 tiles have 16384 places.
    if a.additive(shape, threads) && b.additive(shape, threads) {
        return (0..threads).all(|t| at(t, 0)) && (0..slots).all(|s| at(0, s));
    }
    a.table(shape, threads, warp) == b.table(shape, threads, warp)
}

/// The blocked encoding that spells weft's row-major distribution of a tile of `shape` over
/// `threads` threads, when one does; else [`Encoding::Flat`].
pub fn for_flat(shape: &[usize], threads: usize, warp: usize) -> Encoding {
    let numel: usize = shape.iter().product::<usize>().max(1);
    let flat = Encoding::Flat { per: (numel / threads).max(1) };
    match blocked_candidate(shape, threads, warp) {
        Some(b) if same_map(&b, &flat, shape, threads, warp) => b,
        _ => flat,
    }
}

/// A blocked layout filling dimensions innermost first: the thread's slots, then lanes, then
/// warps. A tile smaller than the CTA puts the spare threads on a trailing dimension of size 1
/// (so neighbouring threads share an element, as the row-major distribution replicates).
fn blocked_candidate(shape: &[usize], threads: usize, warp: usize) -> Option<Encoding> {
    let r = shape.len();
    if r == 0 || threads % warp != 0 {
        return None;
    }
    let numel: usize = shape.iter().product();
    let mut per = (numel / threads).max(1);
    let mut spt = vec![1; r];
    for d in (0..r).rev() {
        let take = per.min(shape[d]);
        if per % take != 0 || shape[d] % take != 0 {
            return None;
        }
        spt[d] = take;
        per /= take;
    }
    let mut th = vec![1; r];
    let mut left = threads;
    if numel < threads {
        if shape[r - 1] != 1 || threads % numel != 0 {
            return None;
        }
        th[r - 1] = threads / numel;
        left = numel;
    }
    for d in (0..r).rev() {
        let avail = shape[d] / spt[d];
        let take = avail.min(left).max(1);
        if th[d] == 1 && (left % take != 0 || avail % take != 0) {
            return None;
        }
        if th[d] == 1 {
            th[d] = take;
            left /= take;
        }
    }
    if left != 1 {
        return None;
    }
    let (mut tpw, mut wpc, mut lanes) = (vec![1; r], vec![1; r], warp);
    for d in (0..r).rev() {
        let take = th[d].min(lanes);
        if lanes % take != 0 || th[d] % take != 0 {
            return None;
        }
        tpw[d] = take;
        wpc[d] = th[d] / take;
        lanes /= take;
    }
    if lanes != 1 {
        return None;
    }
    Some(Encoding::Blocked { size_per_thread: spt, threads_per_warp: tpw, warps_per_cta: wpc, order: (0..r).rev().collect() })
}
