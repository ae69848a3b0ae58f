//! A rank's copy-engine queue as the GPU stream operations the `cuda` transport issues on its
//! side stream: device-to-device copies (peer addresses from `nvshmem_ptr`), 64-bit value
//! writes (`cuStreamWriteValue64`, ordered after the copies before them on the stream) and
//! waits (`cuStreamWaitValue64` with GEQ). Kept apart from the driver calls so the address
//! translation and its errors are tested without a GPU.

use super::{At, CopyError, CopyOp};

/// One operation on the side stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StreamOp {
    /// `cuMemcpyAsync(dst, src, bytes)`.
    Copy { dst: u64, src: u64, bytes: usize },
    /// `cuStreamWriteValue64(addr, value)`.
    Write { addr: u64, value: u64 },
    /// `cuStreamWaitValue64(addr, value, GEQ)`.
    WaitGeq { addr: u64, value: u64 },
}

/// Lowers `rank`'s queue; `addr(at, pe)` is the address this GPU uses for `at` on rank `pe`
/// (`None`: not reachable by load/store, e.g. another node).
pub(crate) fn lower(rank: usize, ops: &[CopyOp], addr: &dyn Fn(At, usize) -> Option<u64>) -> Result<Vec<StreamOp>, CopyError> {
    ops.iter()
        .enumerate()
        .map(|(index, op)| {
            let reach = |at: At, pe: usize| {
                addr(at, pe).ok_or_else(|| CopyError::Unreachable { rank, index, pe, why: "nvshmem_ptr gives no peer address (no P2P or NVLink path)".into() })
            };
            Ok(match *op {
                CopyOp::Put { dst, src, bytes, pe } => StreamOp::Copy { dst: reach(dst, pe)?, src: reach(src, rank)?, bytes },
                CopyOp::Get { dst, src, bytes, pe } => StreamOp::Copy { dst: reach(dst, rank)?, src: reach(src, pe)?, bytes },
                CopyOp::Signal { sig, value, pe } => StreamOp::Write { addr: reach(sig, pe)?, value },
                CopyOp::Wait { sig, value } => StreamOp::WaitGeq { addr: reach(sig, rank)?, value },
            })
        })
        .collect()
}
