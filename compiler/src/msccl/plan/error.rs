//! Errors of MSCCL++ plan import and lowering; each names where in the JSON it happened, as a
//! path such as `gpus[1].threadblocks[0].ops[3]`.

use crate::msccl::buffer::Buffer;

/// A plan that cannot be imported or run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// Not JSON at all.
    #[error("MSCCL++ plan: malformed JSON at line {line} column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A field is missing, has the wrong type or an inconsistent value.
    #[error("MSCCL++ plan {at}: {message}")]
    Field {
        /// JSON path.
        at: String,
        /// What is wrong.
        message: String,
    },
    /// An operation weft does not run.
    #[error("MSCCL++ plan {at}: operation `{op}` is not supported (weft runs nop, barrier, put, pws, pwsf, get, copy, signal, wait, rlxsignal, rlxwait, flush, re, res, rre, rres, and with the LL protocol ppkt, rppkt, cpkt, upkt, repkt, respkt, recpkt, recspkt)")]
    UnsupportedOp {
        /// JSON path of the operation.
        at: String,
        /// Its name.
        op: String,
    },
    /// A buffer reference names no buffer.
    #[error("MSCCL++ plan {at}: unknown buffer {what}")]
    UnknownBuffer {
        /// JSON path.
        at: String,
        /// The reference, e.g. `type "x"` or `buffer_id 3 (the thread block has 1 memory remote buffers)`.
        what: String,
    },
    /// A channel or remote buffer names a rank that is not a peer.
    #[error("MSCCL++ plan {at}: rank {peer} is not a peer (the plan has ranks 0..{ranks}, and a rank is not its own peer)")]
    MissingPeer {
        /// JSON path.
        at: String,
        /// The named rank.
        peer: usize,
        /// Ranks in the plan.
        ranks: usize,
    },
    /// Chunks past the end of a buffer.
    #[error("MSCCL++ plan {at}: chunks {index}..{end} of rank {rank}'s {buffer} buffer are out of range (it has {chunks} chunks)", end = index + count)]
    ChunkOutOfRange {
        /// JSON path.
        at: String,
        /// Owning rank.
        rank: usize,
        /// Buffer.
        buffer: Buffer,
        /// First chunk.
        index: usize,
        /// Chunks.
        count: usize,
        /// Chunks in the buffer.
        chunks: usize,
    },
    /// A collective weft has no plain-math reference for: its plans import but do not run.
    #[error("MSCCL++ plan: collective `{name}` cannot be checked against plain math (weft checks {})", super::CHECKED_COLLECTIVES)]
    UnsupportedCollective {
        /// The plan's `collective`.
        name: String,
    },
    /// Signals and waits (or barrier arrivals, or packet writes and reads) that do not pair
    /// up: the plan would hang, leave semaphores raised for the next launch, or race.
    #[error("MSCCL++ plan {at}: {message}")]
    Unmatched {
        /// JSON path.
        at: String,
        /// What does not pair up.
        message: String,
    },
}
