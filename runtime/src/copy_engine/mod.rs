//! The copy engine: per rank, an ordered queue of host-issued transfers that runs beside a
//! launched kernel without taking any of its program instances, as a GPU's DMA engine does
//! when the host queues `cuMemcpyAsync` on a side stream (Triton-distributed's copy-engine
//! AllGather and ReduceScatter). A queue's ops complete in order: a [`CopyOp::Signal`] is
//! written only after every transfer before it has landed, so a kernel that waits on it
//! with the ordinary `signal_wait_until` sees the data. A [`CopyOp::Wait`] holds the queue
//! until a signal (written by the kernel or another rank's queue) reaches a value, which is
//! how pull mode and producer-driven scatters order the engine after other work.
//!
//! Plans are checked before anything runs ([`CopyPlan::validate`]): a bad rank, a span
//! outside its allocation or a misaligned signal is a [`CopyError`], never a stray write.
//! `local` runs one transfer thread per rank ([`local`]); `cuda` issues the queue on a side
//! stream with `cuMemcpyAsync` and `cuStreamWriteValue64` / `cuStreamWaitValue64`.

#[cfg(weft_nvshmem)]
pub(crate) mod cuda;
mod error;
pub(crate) mod local;
#[cfg_attr(not(weft_nvshmem), allow(dead_code))]
pub(crate) mod stream_ops;

pub use error::CopyError;
pub use local::BackgroundWork;

use crate::buffer::RawBuf;

/// A place in a symmetric allocation: byte `offset` of `buf` (on a rank the op names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    /// The allocation.
    pub buf: RawBuf,
    /// Byte offset inside it.
    pub offset: usize,
}

impl At {
    /// Byte `offset` of `buf`.
    pub fn new(buf: RawBuf, offset: usize) -> At {
        At { buf, offset }
    }
}

/// One op of a rank's copy-engine queue (the issuing rank is the queue's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyOp {
    /// Copies `bytes` from `src` on the issuing rank to `dst` on rank `pe`.
    Put { dst: At, src: At, bytes: usize, pe: usize },
    /// Copies `bytes` from `src` on rank `pe` to `dst` on the issuing rank.
    Get { dst: At, src: At, bytes: usize, pe: usize },
    /// Sets the 64-bit signal at `sig` on rank `pe` to `value`, after every op before it.
    Signal { sig: At, value: u64, pe: usize },
    /// Holds the queue until the issuing rank's 64-bit signal at `sig` is at least `value`.
    Wait { sig: At, value: u64 },
}

/// Every rank's queue for one launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyPlan {
    queues: Vec<Vec<CopyOp>>,
}

impl CopyPlan {
    /// Empty queues for `world` ranks.
    pub fn new(world: usize) -> CopyPlan {
        CopyPlan { queues: vec![vec![]; world] }
    }

    /// Appends `op` to `rank`'s queue (a rank outside the plan is caught by [`validate`](Self::validate)).
    pub fn push(&mut self, rank: usize, op: CopyOp) {
        if rank >= self.queues.len() {
            self.queues.resize(rank + 1, vec![]);
        }
        self.queues[rank].push(op);
    }

    /// `rank`'s queue (empty past the plan's ranks).
    pub fn queue(&self, rank: usize) -> &[CopyOp] {
        self.queues.get(rank).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Ranks with a queue (some possibly empty).
    pub fn ranks(&self) -> usize {
        self.queues.len()
    }

    /// Ops over every queue.
    pub fn len(&self) -> usize {
        self.queues.iter().map(Vec::len).sum()
    }

    /// Whether no queue has an op.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks every op against a world of `world` ranks: ranks in range, every span inside
    /// its allocation, signals 8-byte aligned words.
    pub fn validate(&self, world: usize) -> Result<(), CopyError> {
        if self.queues.len() > world {
            return Err(CopyError::TooManyQueues { queues: self.queues.len(), world });
        }
        for (rank, q) in self.queues.iter().enumerate() {
            for (index, op) in q.iter().enumerate() {
                let rank_ok = |pe: usize| if pe < world { Ok(()) } else { Err(CopyError::BadRank { rank, index, pe, world }) };
                let span = |what: &'static str, at: At, bytes: usize| match at.offset.checked_add(bytes) {
                    Some(end) if end <= at.buf.bytes => Ok(()),
                    _ => Err(CopyError::OutOfBounds { rank, index, what, offset: at.offset, bytes, alloc_bytes: at.buf.bytes }),
                };
                let signal = |at: At| {
                    span("signal", at, 8)?;
                    if (at.buf.offset + at.offset) % 8 != 0 {
                        return Err(CopyError::Misaligned { rank, index, offset: at.offset });
                    }
                    Ok(())
                };
                match *op {
                    CopyOp::Put { dst, src, bytes, pe } | CopyOp::Get { dst, src, bytes, pe } => {
                        rank_ok(pe)?;
                        span("source", src, bytes)?;
                        span("destination", dst, bytes)?;
                    }
                    CopyOp::Signal { sig, pe, .. } => {
                        rank_ok(pe)?;
                        signal(sig)?;
                    }
                    CopyOp::Wait { sig, .. } => signal(sig)?,
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
