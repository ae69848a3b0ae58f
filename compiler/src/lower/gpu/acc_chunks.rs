//! The accumulator's way out in chunks: converting a large dot accumulator to the blocked
//! layout through all of scratch at once needs `M*N*4` bytes (64 KiB for 128x128 f32), more
//! than a CTA has without opting in. Instead every band of rows that one warp (mma) or one
//! thread (FMA) covers is cut into `count` slices of `height` rows; chunk `c` is slice `c` of
//! every band, written compactly (band-major) to scratch, read back by the blocked threads whose
//! row falls in it, and the buffer is reused by the next chunk. The peak register count does
//! not grow: each element still moves from one register to one other.

use super::acc_layout::{AccLayout, MMA_M};
use super::emit::{num_elem, Gx, LlvmScalar};
use super::layout::Blocked;
use crate::ir::{Op, Type};
use crate::lower::LowerError;

/// Scratch bytes one chunk of the epilogue may use: a quarter of an sm_90a CTA's shared
/// memory leaves the rest to the main loop's operand staging.
pub const CHUNK_BYTES: usize = 32 * 1024;

/// How an accumulator is cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccChunks {
    /// The accumulator's layout.
    pub acc: AccLayout,
    /// The blocked layout it converts to.
    pub blocked: Blocked,
    /// Chunks (slices per band).
    pub count: usize,
    /// Rows of a band in one chunk.
    pub height: usize,
}

impl AccChunks {
    /// The fewest chunks of at most `budget` bytes (elements of `elem_bytes`) each, or `None`
    /// when one chunk is enough or the layouts do not cut evenly (each blocked thread must hold
    /// part of one row; mma slices must be whole 16-row tiles).
    pub fn plan(acc: AccLayout, blocked: Blocked, elem_bytes: usize, budget: usize) -> Option<AccChunks> {
        let (m, n) = acc.shape();
        if m * n * elem_bytes <= budget || blocked.replicated() || blocked.numel != m * n || n % blocked.per != 0 {
            return None;
        }
        let band = m / acc.bands();
        let min_height = match acc {
            AccLayout::Mma { .. } => MMA_M,
            AccLayout::Mfma { instr, .. } => super::mfma::mfma_row_period(instr),
            AccLayout::Fma { .. } => 1,
        };
        let mut count = 2;
        while band % count == 0 && band / count >= min_height && (band / count) % min_height == 0 {
            if m / count * n * elem_bytes <= budget {
                return Some(AccChunks { acc, blocked, count, height: band / count });
            }
            count *= 2;
        }
        None
    }

    /// The layout of one chunk: the accumulator with every band `height` rows tall, so its
    /// per-thread base is the thread's compact position in the chunk.
    pub fn chunk_layout(&self) -> AccLayout {
        match self.acc {
            AccLayout::Mma { n, warps_m, warps_n, .. } => AccLayout::Mma { m: self.height * warps_m, n, warps_m, warps_n },
            AccLayout::Fma { n, threads_m, threads_n, .. } => AccLayout::Fma { m: self.height * threads_m, n, threads_m, threads_n },
            AccLayout::Mfma { n, warps_m, warps_n, instr, .. } => AccLayout::Mfma { m: self.height * warps_m, n, warps_m, warps_n, instr },
        }
    }

    /// The chunk of accumulator slot `slot` and its offset (in elements) from the thread's
    /// compact base: the same for every thread.
    pub fn acc_slot(&self, slot: usize) -> (usize, usize) {
        let (dr, dc) = self.acc.offset(slot);
        let n = self.acc.shape().1;
        (dr / self.height, (dr % self.height) * n + dc)
    }

    /// The chunk that blocked `thread` reads from, and where its first element is there.
    pub fn blocked_thread(&self, thread: usize) -> (usize, usize) {
        let n = self.acc.shape().1;
        let band = self.acc.shape().0 / self.acc.bands();
        let (row, col) = (thread * self.blocked.per / n, thread * self.blocked.per % n);
        let (b, inner) = (row / band, row % band);
        (inner / self.height, (b * self.height + inner % self.height) * n + col)
    }
}

impl AccLayout {
    /// Bands of rows the layout's row owners split the accumulator into (warps along rows for
    /// mma, threads along rows for FMA).
    pub fn bands(&self) -> usize {
        match *self {
            AccLayout::Mma { warps_m, .. } | AccLayout::Mfma { warps_m, .. } => warps_m,
            AccLayout::Fma { threads_m, .. } => threads_m,
        }
    }
}

impl Gx<'_> {
    /// Accumulator `v` (layout `l`, IR type `t`) in the blocked layout, in chunks when the
    /// whole accumulator would need more than [`CHUNK_BYTES`] of scratch; `None` when it
    /// cannot be cut (the caller converts it whole).
    pub(crate) fn acc_to_blocked_chunked(&mut self, op: Op, v: &str, l: &AccLayout, t: &Type) -> Result<Option<String>, LowerError> {
        let (s, bl) = (num_elem(t), self.layout_of(op, t)?);
        let Some(plan) = AccChunks::plan(*l, bl, s.bytes(), CHUNK_BYTES) else { return Ok(None) };
        let (m, n) = l.shape();
        self.scratch(op, m / plan.count * n * s.bytes())?;
        let (e, mem) = (s.llvm(), s.mem());
        let (vty, bty) = (format!("<{} x {e}>", l.slots()), format!("<{} x {mem}>", bl.per));
        let acc_base = self.acc_base(&plan.chunk_layout());
        let (my_chunk, my_at) = self.blocked_chunk_position(&plan);
        // Zeros, not poison, where a thread's chunk is not read yet: a poison phi leaves the
        // value undefined on that path, so inside a persistent tile loop ptxas keeps it live
        // from the last tile's epilogue through the next tile's K loop (64 registers at
        // 128x128 w8: 226 instead of 162).
        let mut out = "zeroinitializer".to_string();
        for c in 0..plan.count {
            self.barrier();
            let p = self.smem_at(0, e, &acc_base);
            for slot in (0..l.slots()).filter(|&slot| plan.acc_slot(slot).0 == c) {
                let x = self.extract(v, &vty, slot);
                let q = self.assign(&format!("getelementptr inbounds {e}, ptr addrspace(3) {p}, i32 {}", plan.acc_slot(slot).1));
                self.line(&format!("store {e} {x}, ptr addrspace(3) {q}"));
            }
            self.barrier();
            let mine = self.assign(&format!("icmp eq i32 {my_chunk}, {c}"));
            let q = self.smem_at(0, mem, &my_at);
            let align = super::convert::vector_align(s.bytes() * bl.per);
            out = self
                .only_where(&mine, |g| vec![(g.assign(&format!("load {bty}, ptr addrspace(3) {q}, align {align}")), bty.clone())], &out)
                .remove(0);
        }
        Ok(Some(out))
    }

    /// This thread's chunk and compact element index under `plan` (see
    /// [`AccChunks::blocked_thread`]), computed once at entry.
    fn blocked_chunk_position(&mut self, plan: &AccChunks) -> (String, String) {
        let tid = self.tid();
        let (m, n) = plan.acc.shape();
        let (per, band, h) = (plan.blocked.per, m / plan.acc.bands(), plan.height);
        let key = format!("chunk.{per}.{n}.{band}.{h}");
        let at = self.entry_value(&format!("{key}.at"), |_, r| {
            vec![
                format!("{r}.e = mul i32 {tid}, {per}"),
                format!("{r}.row = udiv i32 {r}.e, {n}"),
                format!("{r}.col = urem i32 {r}.e, {n}"),
                format!("{r}.b = udiv i32 {r}.row, {band}"),
                format!("{r}.in = urem i32 {r}.row, {band}"),
                format!("{r}.sub = urem i32 {r}.in, {h}"),
                format!("{r}.bh = mul i32 {r}.b, {h}"),
                format!("{r}.cr = add i32 {r}.bh, {r}.sub"),
                format!("{r}.crn = mul i32 {r}.cr, {n}"),
                format!("{r} = add i32 {r}.crn, {r}.col"),
            ]
        });
        let chunk = self.entry_value(&format!("{key}.c"), |_, r| {
            vec![
                format!("{r}.e = mul i32 {tid}, {per}"),
                format!("{r}.row = udiv i32 {r}.e, {n}"),
                format!("{r}.in = urem i32 {r}.row, {band}"),
                format!("{r} = udiv i32 {r}.in, {h}"),
            ]
        });
        (chunk, at)
    }
}

#[cfg(test)]
#[path = "acc_chunks_tests.rs"]
mod tests;
