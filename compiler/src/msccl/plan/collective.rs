//! The collective a plan implements, rebuilt from its name and chunk counts: runs are checked
//! against its plain math, and in-place plans alias input and output as MSCCL++ callers do
//! (AllGather's input is the rank's slice of the output, ReduceScatter's output the rank's
//! slice of the input, otherwise output is input).

use super::json::{field_error, Result};
use super::{Plan, PlanError};
use crate::msccl::buffer::Buffer;
use crate::msccl::collective::{Collective, CollectiveKind};

/// The collectives whose plans weft checks against plain math.
pub const CHECKED_COLLECTIVES: &str = "allreduce, allgather, reducescatter, alltoall, broadcast, reduce, gather, scatter";

impl Plan {
    /// The collective, its chunk counts checked against every gpu's; rooted collectives get
    /// `root` (plans do not record it).
    pub fn collective(&self, root: usize) -> Result<Collective> {
        if CollectiveKind::from_xml_name(&self.collective).is_none() {
            return Err(PlanError::UnsupportedCollective { name: self.collective.clone() });
        }
        let n = self.ngpus();
        let first = self.gpus[0].chunks;
        // MSCCL-IR's chunks per loop: the larger buffer's count (n * c for per-rank slices).
        let per_loop = first[Buffer::Input.slot()].max(first[Buffer::Output.slot()]);
        let coll = Collective::from_xml(&self.collective, n, per_loop, root).map_err(|e| field_error("gpus[0]", e.to_string()))?;
        for g in &self.gpus {
            for (b, key) in [(Buffer::Input, "input_chunks"), (Buffer::Output, "output_chunks")] {
                let (want, have) = (coll.buffer_chunks(b), g.chunks[b.slot()]);
                let aliased = coll.canonical_chunks(b, self.inplace) == 0;
                if have != want && !(aliased && have == 0) {
                    let msg = format!("{} on {n} ranks with {} chunks per rank needs {want} {b} chunks, not {have}", self.collective, coll.chunk_factor());
                    return Err(field_error(&format!("gpus[{}].{key}", g.id), msg));
                }
            }
        }
        Ok(coll)
    }

    /// Where chunk `index` of `owner`'s `buffer` really lives (in-place aliasing; a plan for
    /// a collective weft cannot rebuild aliases output to input).
    pub fn storage(&self, owner: usize, buffer: Buffer, index: usize) -> (Buffer, usize) {
        match self.collective(0) {
            Ok(c) => c.canonical(owner, buffer, index, self.inplace),
            Err(_) if self.inplace && buffer == Buffer::Output => (Buffer::Input, index),
            Err(_) => (buffer, index),
        }
    }
}
