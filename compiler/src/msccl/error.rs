//! The MSCCL front end's error type. Every variant names the thing it happened to (the
//! operation, the rank and slot, the XML element and attribute) so a user can find it.

use std::fmt;

use super::buffer::{Buffer, Loc};
use super::protocol::Protocol;
use super::value::ChunkValue;

/// Result alias for the MSCCL front end.
pub type Result<T> = std::result::Result<T, MscclError>;

/// A failure anywhere in the MSCCL front end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MscclError {
    /// The program, collective or parameters are malformed (zero ranks, bad root, ...).
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    /// An operation named a rank the program does not have.
    #[error("{op}: rank {rank} is out of range (the program has {ranks} ranks)")]
    RankOutOfRange {
        /// The operation.
        op: String,
        /// The offending rank.
        rank: usize,
        /// Ranks in the program.
        ranks: usize,
    },
    /// An operation named chunks past the end of a buffer.
    #[error("{op}: chunks {index}..{end} of r{rank}.{buffer} are out of range (the buffer has {size} chunks)", end = index + count)]
    IndexOutOfRange {
        /// The operation.
        op: String,
        /// Rank of the buffer.
        rank: usize,
        /// The buffer.
        buffer: Buffer,
        /// First chunk.
        index: usize,
        /// Number of chunks.
        count: usize,
        /// Chunks in the buffer.
        size: usize,
    },
    /// A reduce combined references of different lengths, or a count was zero.
    #[error("{op}: chunk counts differ ({left} vs {right})")]
    CountMismatch {
        /// The operation.
        op: String,
        /// Count of the destination (or the expected count).
        left: usize,
        /// Count of the source (or the actual count).
        right: usize,
    },
    /// An operation read a chunk nothing has written.
    #[error("{op}: reads uninitialized chunk {slot}")]
    UninitializedChunk {
        /// The operation.
        op: String,
        /// The slot read.
        slot: Loc,
    },
    /// A reference was used after a later operation overwrote one of its slots.
    #[error("{used_by}: uses a stale reference to {slot}, which {overwritten_by} overwrote")]
    StaleReference {
        /// The operation that used the stale reference.
        used_by: String,
        /// The operation that overwrote the slot after the reference was taken.
        overwritten_by: String,
        /// The overwritten slot.
        slot: Loc,
    },
    /// Building the lowered kernel failed.
    #[error("lowering to tile/shmem: {0}")]
    Lowering(String),
    /// Source and destination of an operation overlap.
    #[error("{op}: source and destination overlap")]
    Overlap {
        /// The operation.
        op: String,
    },
    /// A chunk reference from another program was used.
    #[error("{op}: the chunk reference belongs to a different program")]
    ForeignReference {
        /// The operation.
        op: String,
    },
    /// The program (or IR) does not meet the collective's postcondition.
    #[error("rank {rank} {buffer}[{index}]: expected {expected}, found {actual}{more}",
        actual = show_contents(actual.as_ref()),
        more = if *others > 0 { format!(" (and {others} more wrong chunks)") } else { String::new() })]
    WrongOutput {
        /// Rank whose output is wrong.
        rank: usize,
        /// The buffer checked (the output buffer).
        buffer: Buffer,
        /// Chunk index in that buffer.
        index: usize,
        /// What the postcondition requires.
        expected: ChunkValue,
        /// What the algorithm left there (`None`: uninitialized).
        actual: Option<ChunkValue>,
        /// How many other output chunks are wrong.
        others: usize,
    },
    /// A thread-block or channel hint cannot be honored.
    #[error("{op}: {reason}")]
    HintConflict {
        /// The operation carrying the hint.
        op: String,
        /// Why it cannot be honored.
        reason: String,
    },
    /// More sends would be outstanding on a connection than it has FIFO slots: the schedule
    /// could deadlock, so it is rejected.
    #[error(
        "connection gpu {from} -> gpu {to} on channel {channel} would have {outstanding} sends outstanding before their receives, but {protocol} has {slots} FIFO slots"
    )]
    FifoOverflow {
        /// Sending rank.
        from: usize,
        /// Receiving rank.
        to: usize,
        /// Channel of the connection.
        channel: usize,
        /// Outstanding sends the schedule needs.
        outstanding: usize,
        /// FIFO slots available.
        slots: usize,
        /// The protocol whose slot count applies.
        protocol: Protocol,
    },
    /// Automatic channel assignment ran out of channels.
    #[error("{op}: no channel below {limit} can carry this operation")]
    TooManyChannels {
        /// The operation.
        op: String,
        /// Channel limit.
        limit: usize,
    },
    /// MSCCL-IR XML that cannot be parsed or is inconsistent.
    #[error("{0}")]
    Xml(#[from] XmlError),
    /// An MSCCL++ execution plan that cannot be imported.
    #[error("{0}")]
    Plan(#[from] super::plan::PlanError),
    /// An in-memory MSCCL-IR is structurally inconsistent.
    #[error("MSCCL-IR {location}: `{attribute}`: {message}")]
    InvalidIr {
        /// `gpu g tb t step s`.
        location: String,
        /// The attribute at fault (XML spelling).
        attribute: &'static str,
        /// What is wrong.
        message: String,
    },
    /// Executing an MSCCL-IR step symbolically failed.
    #[error("gpu {gpu} tb {tb} step {step}: {message}")]
    IrExecution {
        /// GPU (rank).
        gpu: usize,
        /// Thread block.
        tb: usize,
        /// Step index.
        step: usize,
        /// What went wrong.
        message: String,
    },
    /// Symbolic execution of an MSCCL-IR stopped with thread blocks still waiting.
    #[error("deadlock: {}", blocked.join("; "))]
    Deadlock {
        /// One line per blocked thread block: what it waits for.
        blocked: Vec<String>,
    },
    /// Two steps touch the same slot with no ordering between them.
    #[error("data race on gpu {gpu} {slot}: {first} and {second} are not ordered by dependencies")]
    DataRace {
        /// GPU (rank).
        gpu: usize,
        /// The slot, e.g. `i[3]`.
        slot: String,
        /// The earlier access.
        first: String,
        /// The later access.
        second: String,
    },
    /// No built-in algorithm has this name.
    #[error("unknown MSCCL algorithm `{name}` (known: {})", known.join(", "))]
    UnknownAlgorithm {
        /// The requested name.
        name: String,
        /// Registered names.
        known: Vec<String>,
    },
    /// A parameter outside the supported range (topology, slot size, ...).
    #[error("invalid configuration: {0}")]
    InvalidConfig(String),
}

fn show_contents(value: Option<&ChunkValue>) -> String {
    value.map_or_else(|| "uninitialized".to_string(), ToString::to_string)
}

/// Where an MSCCL-IR XML document is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct XmlError {
    /// 1-based line of the element (0 when unknown).
    pub line: u32,
    /// Element name, e.g. `step` (empty for syntax errors).
    pub element: String,
    /// Attribute name, when one attribute is at fault.
    pub attribute: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for XmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MSCCL-IR XML line {}", self.line)?;
        if !self.element.is_empty() {
            write!(f, ": <{}>", self.element)?;
        }
        if let Some(attribute) = &self.attribute {
            write!(f, " attribute `{attribute}`")?;
        }
        write!(f, ": {}", self.message)
    }
}
