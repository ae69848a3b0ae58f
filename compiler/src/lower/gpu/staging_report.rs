//! What the lowering did with each `tile.dot`, for the `layout` stage to print (Triton shows
//! the same as the encodings of its ttgir): each operand's shared encoding (padded rows,
//! `wgmma` / TMA swizzle, MFMA's XOR swizzle) with where it sits in the `num_stages` ring and
//! how it is filled and read, and the instruction and accumulator layout in registers. Read
//! from the lowering's own decisions after it ran ([`Gx::dot_staging`],
//! [`Gx::swizzled_staging`], the rings its loops noted), so the dump cannot disagree with the
//! code.

use super::acc_layout::AccLayout;
use super::emit::{num_elem, Gx};
use super::ldmatrix::Staging;
use super::mfma::mfma_intrinsic;
use super::mfma_swizzle::{self, PHASES, UNIT};
use super::wgmma_desc::{SwizzledTile, WG_M, WG_WARPS};
use crate::ir::{Op, OpKind};
use crate::layout::encoding::{Encoding, Slot};
use crate::lower::LowerError;

/// How one `tile.dot` was lowered.
#[derive(Clone, Debug, PartialEq)]
pub struct DotStaging {
    /// The dot.
    pub dot: Op,
    /// The shared encodings of A and B (with their [`Slot`]s).
    pub shared: [Encoding; 2],
    /// The matrix instruction and accumulator layout, in words.
    pub instr: String,
}

/// A loop's ring as the lowering made it: slots, bytes per slot, and how it is filled
/// (`None`: by each operand's own staging).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingNote {
    pub stages: usize,
    pub slot_bytes: usize,
    pub fill: Option<&'static str>,
}

impl Gx<'_> {
    /// The alignment of the scratch buffer: `wgmma`'s swizzled operands and TMA boxes (which
    /// swizzle by shared address) need the 128-byte swizzle's 1024-byte period aligned.
    pub(crate) fn scratch_align(&self) -> usize {
        if self.decls.contains_key(super::wgmma::FENCE) || !self.tma_params.is_empty() { 1024 } else { 16 }
    }

    /// Every dot of the kernel as lowered (call after the body is lowered).
    pub(crate) fn staging_report(&self) -> Result<Vec<DotStaging>, LowerError> {
        let dots = (0..self.k.ops.len() as u32).map(Op).filter(|&o| self.k.op(o).kind == OpKind::Dot);
        dots.map(|dot| self.dot_report(dot)).collect()
    }

    fn dot_report(&self, dot: Op) -> Result<DotStaging, LowerError> {
        let d = self.k.op(dot);
        let st = self.dot_staging(dot)?;
        let acc = self.accs.layout.get(&d.results[0]).copied();
        let tiles = self.swizzled_staging(dot);
        let wgmma = self.wgmma_plan(dot).is_some();
        let ([m, k], [_, n]) = (self.ty(d.operands[0]).shape(), self.ty(d.operands[1]).shape()) else {
            return Err(self.malformed(dot, "tile.dot takes 2-D tiles"));
        };
        let amd = self.t.warp_size() == super::mfma::WAVE;
        let read = match acc {
            _ if wgmma => "wgmma",
            Some(AccLayout::Mma { .. }) => "ldmatrix",
            _ if amd => "ds_read",
            _ => "ld.shared",
        };
        let ring = self.rings.get(&dot).copied();
        let (stages, slot_bytes) = ring.map_or((1, st.bytes), |r| (r.stages, r.slot_bytes));
        let staged = self.staged_operands(dot);
        let shared = std::array::from_fn(|i| {
            let fill = match ring.and_then(|r| r.fill) {
                Some(f) => f,
                None if staged[i] => "cp.async",
                None if amd => "ds_write",
                None => "st.shared",
            };
            let slot = Slot { at: if i == 0 { 0 } else { st.b_at }, stages, slot_bytes, align: self.scratch_align(), fill: fill.into(), read: read.into() };
            let tile = tiles.map(|(a, b)| if i == 0 { a } else { b });
            let mfma = matches!(acc, Some(AccLayout::Mfma { .. }));
            placement(i, &st, tile, mfma.then_some(*k), Some(Box::new(slot)))
        });
        let s = num_elem(self.ty(d.operands[0]));
        let instr = match acc {
            Some(AccLayout::Mma { warps_m, .. }) if wgmma => {
                let groups = warps_m / WG_WARPS;
                format!("wgmma.mma_async.m{WG_M}n{n}k16 from two descriptors: {groups} warp group(s) of {WG_WARPS} warps along M, {m}x{n} f32 accumulator, {} registers per thread", acc.map_or(0, |l| l.slots()))
            }
            Some(l @ AccLayout::Mma { warps_m, warps_n, .. }) => {
                let name = self.t.mma(s).map_or("mma.sync", |spec| spec.intrinsic);
                format!("{name} (m16n8k16): warps {warps_m}x{warps_n}, {}x{} each, {} f32 registers per thread", m / warps_m, n / warps_n, l.slots())
            }
            Some(l @ AccLayout::Mfma { warps_m, warps_n, instr, .. }) => {
                let name = mfma_intrinsic(s, instr).map_or("mfma", |f| f.0);
                format!("{name}: wavefronts {warps_m}x{warps_n}, {}x{} each, {} f32 registers per lane", m / warps_m, n / warps_n, l.slots())
            }
            Some(l @ AccLayout::Fma { threads_m, threads_n, .. }) => format!("fma: threads {threads_m}x{threads_n}, {} accumulators per thread", l.slots()),
            None => "fma: blocked accumulator".into(),
        };
        Ok(DotStaging { dot, shared, instr })
    }
}

/// The shared encoding of operand `i` (A `[M][K]`, B `[K][N]`, or `[N][K]` for MFMA) staged as
/// `st`: swizzled as `tile` (TMA / `wgmma` atoms), XOR-swizzled for MFMA rows of `mfma_k`
/// elements where [`mfma_swizzle`] does, else rows padded as `st` says.
pub fn placement(i: usize, st: &Staging, tile: Option<SwizzledTile>, mfma_k: Option<usize>, slot: Option<Box<Slot>>) -> Encoding {
    let order = if i == 1 && mfma_k.is_some() { vec![0, 1] } else { vec![1, 0] };
    let (vec, (per_phase, max_phase), swizzle, pad) = match (tile, mfma_k) {
        (Some(t), _) => (8, t.phases(), t.swizzle, 0),
        (None, Some(k)) if mfma_swizzle::swizzled(k) => (UNIT, (1, PHASES), 0, 0),
        _ => (1, (1, 1), 0, if i == 0 { st.pad_a } else { st.pad_b }),
    };
    Encoding::Shared { vec, per_phase, max_phase, order, pad, swizzle, slot }
}

impl Gx<'_> {
    /// Notes the ring (`num_stages` slots filled by `cp.async` or TMA) or the LDS double
    /// buffer of a register-prefetching loop that a K loop got.
    pub(crate) fn note_ring(&mut self, ring: Option<&super::pipeline_ring::RingLoop>, pf: Option<&super::prefetch_ring::PrefetchLoop>) {
        if let Some(r) = ring {
            let fill = r.tma.is_some().then_some("tma");
            self.rings.insert(r.dot, RingNote { stages: r.stages, slot_bytes: r.slot_bytes, fill });
        }
        if let Some(p) = pf {
            let elem = num_elem(self.ty(self.k.op(p.dot).operands[0])).bytes();
            self.rings.insert(p.dot, RingNote { stages: 2, slot_bytes: p.slot_el * elem, fill: Some("ds_write") });
        }
    }
}
