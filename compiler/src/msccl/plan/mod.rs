//! MSCCL++ execution plans: the JSON format MSCCL++'s executor runs (gpus -> thread blocks ->
//! operations over memory / port channels and input / output / scratch buffers), imported into
//! a checked in-memory [`Plan`] and lowered onto one `tile` / `shmem` kernel.
//!
//! MSCCL++ operations are one-sided, and so are weft's `shmem` ops, so the plan is lowered op
//! for op instead of being forced into MSCCL-IR's two-sided send / receive steps (a put lands
//! in the peer's buffer when its owner is not looking; a remote read needs no step on the
//! owner). The mapping:
//! * a memory / port channel is a connection to one peer with a semaphore: `signal` adds one to
//!   the peer's semaphore of the paired channel (after the instance's writes are complete),
//!   `wait` waits until this side's semaphore has counted one more signal;
//! * `put` / `get` are `shmem.put` / `shmem.get` on the symmetric buffers; `pws` / `pwsf` are a
//!   put then a signal; `flush` is `shmem.quiet`;
//! * `copy`, `re`, `res`, `rre`, `rres` are elementwise loops whose remote operands are loads
//!   and stores through `shmem.remote_ptr`, as MSCCL++'s memory channels access peer memory;
//! * `nop` (MSCCL++'s `__syncthreads`) is a block barrier; `barrier` counts the thread blocks
//!   of one rank on a local semaphore;
//! * packet operations (`"protocol": "LL"`: `ppkt`, `rppkt`, `cpkt`, `upkt`, `repkt`,
//!   `respkt`, `recpkt`, `recspkt`) use weft's LL words: each 32-bit data word travels with a
//!   32-bit flag in one 64-bit store (`shmem.ll_pack`), bit for bit MSCCL++'s `LL16Packet`
//!   (16 bytes: two data words, two flags), and readers poll the words (`shmem.ll_recv`).
//!   The flag is the launch number plus one, as MSCCL++'s executor counts; packets live in
//!   the scratch buffer at twice the data offset.
//!
//! Thread block groups (`tbg_info`) split every operand of an op into parts of whole 16-byte
//! units, one per block. Switch channels (NVLS multimem), `pipeline` and semaphores are
//! rejected with [`PlanError::UnsupportedOp`] or [`PlanError::Field`].
//! Chunk `c` of every buffer starts at element `c * ce`, one chunk length for all buffers, as
//! in MSCCL++; `ce` is a whole number of 16-byte units (MSCCL++'s buffer alignment).

mod check;
mod collective;
mod error;
mod import;
mod json;
mod lower;
mod packets;

pub use collective::CHECKED_COLLECTIVES;
pub use error::PlanError;
pub use import::from_json;
pub use lower::{lower_plan, PlanLowered, PLAN_ARGS};

use super::buffer::Buffer;

/// The kind of a point-to-point channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChannelKind {
    /// Peer memory mapped into this GPU (loads, stores, semaphores).
    Memory,
    /// A proxy-driven channel (puts, signals, flush).
    Port,
}

impl ChannelKind {
    /// JSON spelling.
    pub const fn name(self) -> &'static str {
        match self {
            ChannelKind::Memory => "memory",
            ChannelKind::Port => "port",
        }
    }
}

/// One channel of a rank: a connection to `peer`, paired with channel `paired` of the same
/// kind on the peer (the k-th channel of r to p pairs with the k-th channel of p to r).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channel {
    /// Kind.
    pub kind: ChannelKind,
    /// The rank at the other end.
    pub peer: usize,
    /// Index of the paired channel among the peer's channels of this kind.
    pub paired: usize,
}

/// Chunks of a buffer, local or on a peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunks {
    /// Owning rank (`None`: this rank).
    pub rank: Option<usize>,
    /// Buffer.
    pub buffer: Buffer,
    /// First chunk.
    pub index: usize,
    /// Chunks.
    pub count: usize,
    /// Whether the operand is in packet format (LL words in the scratch buffer).
    pub packet: bool,
}

/// The operations weft runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanOpKind {
    /// `nop`: block-wide barrier.
    Nop,
    /// `barrier`: the rank's thread blocks meet (`barrier_id`, `num_threadblocks`).
    Barrier {
        /// Barrier id.
        id: usize,
        /// Thread blocks taking part.
        threadblocks: usize,
    },
    /// `put`: local sources to remote destinations, pairwise.
    Put,
    /// `pws` / `pwsf`: put, then signal the op's channels.
    PutSignal,
    /// `get`: remote sources to local destinations, pairwise.
    Get,
    /// `copy`: one local source to one local destination.
    Copy,
    /// `signal` / `rlxsignal`.
    Signal,
    /// `wait` / `rlxwait`.
    Wait,
    /// `flush`: completes the outstanding puts.
    Flush,
    /// `re`, `res`, `rre`, `rres`: the sum of all sources to every destination.
    Reduce,
    /// `ppkt`: local data to remote packets, pairwise.
    PutPackets,
    /// `rppkt`: local packets forwarded to remote packets, pairwise.
    ReadPutPackets,
    /// `cpkt`: local data to local packets.
    CopyPackets,
    /// `upkt`: local packets to local data.
    UnpackPackets,
    /// `repkt`, `recpkt`, `respkt`, `recspkt`: the first source (data) plus the other sources
    /// (local packets) to the first destination (data); every other destination gets the sum
    /// as packets: with `copy` the second is local, with `send` the rest are remote.
    ReducePackets {
        /// `recpkt` / `recspkt`: the second destination is a local packet copy.
        copy: bool,
        /// `respkt` / `recspkt`: remote packet destinations follow.
        send: bool,
    },
}

impl PlanOpKind {
    /// Whether source `i` of this kind of op is in packet format.
    pub fn packet_src(self, i: usize) -> bool {
        match self {
            PlanOpKind::ReadPutPackets | PlanOpKind::UnpackPackets => true,
            PlanOpKind::ReducePackets { .. } => i > 0,
            _ => false,
        }
    }

    /// Whether destination `i` of this kind of op is in packet format.
    pub fn packet_dst(self, i: usize) -> bool {
        match self {
            PlanOpKind::PutPackets | PlanOpKind::ReadPutPackets | PlanOpKind::CopyPackets => true,
            PlanOpKind::ReducePackets { .. } => i > 0,
            _ => false,
        }
    }

    /// Whether the op reads or writes packets.
    pub fn uses_packets(self) -> bool {
        self.packet_src(1) || self.packet_dst(1)
    }
}

/// One operation, its channels and operands resolved to ranks and buffers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanOp {
    /// The JSON name (`rres`, `put`, ...).
    pub name: String,
    /// What it does.
    pub kind: PlanOpKind,
    /// Channels it signals or waits on: (kind, index among this rank's channels of that kind).
    pub channels: Vec<(ChannelKind, usize)>,
    /// Sources (`src_buff`).
    pub srcs: Vec<Chunks>,
    /// Destinations (`dst_buff`).
    pub dsts: Vec<Chunks>,
    /// Thread block group (`tbg_info`): this block moves part `.0` of `.1` equal parts of
    /// every operand; `(0, 1)` without a group.
    pub part: (usize, usize),
}

/// One thread block: operations in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanTb {
    /// Id (its position).
    pub id: usize,
    /// Operations.
    pub ops: Vec<PlanOp>,
}

/// One rank's part of the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanGpu {
    /// Rank.
    pub id: usize,
    /// Input, output and scratch chunks (indexed by [`Buffer::slot`]).
    pub chunks: [usize; 3],
    /// Memory channels, in plan order.
    pub memory: Vec<Channel>,
    /// Port channels, in plan order.
    pub port: Vec<Channel>,
    /// Thread blocks.
    pub tbs: Vec<PlanTb>,
}

impl PlanGpu {
    /// This rank's channels of `kind`.
    pub fn channels(&self, kind: ChannelKind) -> &[Channel] {
        match kind {
            ChannelKind::Memory => &self.memory,
            ChannelKind::Port => &self.port,
        }
    }
}

/// A whole execution plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Plan name.
    pub name: String,
    /// Collective (`allreduce`, ...).
    pub collective: String,
    /// Whether output aliases input.
    pub inplace: bool,
    /// `"protocol": "LL"`: the scratch buffer holds packets (twice the data's bytes).
    pub packets: bool,
    /// `use_double_scratch_buffer`: launches alternate between two scratch halves, so a rank
    /// that starts the next launch early cannot overwrite packets a peer has yet to read.
    pub double_scratch: bool,
    /// One entry per rank.
    pub gpus: Vec<PlanGpu>,
}

impl Plan {
    /// Ranks.
    pub fn ngpus(&self) -> usize {
        self.gpus.len()
    }

    /// Scratch chunks of the largest scratch buffer (every rank allocates it, symmetric).
    pub fn scratch_chunks(&self) -> usize {
        self.gpus.iter().map(|g| g.chunks[Buffer::Scratch.slot()]).max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests;
