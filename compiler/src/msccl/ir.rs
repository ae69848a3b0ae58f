//! MSCCL-IR in memory: algo -> gpus -> thread blocks -> ordered steps. The scheduler
//! produces it, the XML importer reads it, the exporter writes it and the lowering consumes
//! it. It mirrors the XML one to one, so import -> export -> import is lossless.

use std::collections::BTreeMap;

use super::buffer::Buffer;
use super::collective::Collective;
use super::error::Result;
use super::protocol::Protocol;

/// A chunk position within one of a gpu's buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufRef {
    /// The buffer.
    pub buffer: Buffer,
    /// Chunk index.
    pub index: usize,
}

impl BufRef {
    /// A position.
    pub const fn new(buffer: Buffer, index: usize) -> Self {
        BufRef { buffer, index }
    }
}

/// The step types of MSCCL-IR and the msccl interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// `s`: send `src` to the thread block's send peer.
    Send,
    /// `r`: receive from the recv peer into `dst`.
    Recv,
    /// `rcs`: receive into `dst` and forward the same data to the send peer.
    RecvCopySend,
    /// `rrs`: receive, add local `src`, forward the sum (nothing written locally).
    RecvReduceSend,
    /// `rrc`: receive, add local `src`, write the sum to `dst`.
    RecvReduceCopy,
    /// `rrcs`: receive, add local `src`, write the sum to `dst` and forward it.
    RecvReduceCopySend,
    /// `cpy`: local copy `src` -> `dst`.
    Copy,
    /// `re`: local reduction `dst = dst + src`.
    Reduce,
    /// `nop`: no data; carries a dependency.
    Nop,
}

impl StepKind {
    /// Every step type.
    pub const ALL: [StepKind; 9] = [
        StepKind::Send,
        StepKind::Recv,
        StepKind::RecvCopySend,
        StepKind::RecvReduceSend,
        StepKind::RecvReduceCopy,
        StepKind::RecvReduceCopySend,
        StepKind::Copy,
        StepKind::Reduce,
        StepKind::Nop,
    ];

    /// MSCCL-IR spelling (`type` attribute).
    pub const fn mnemonic(self) -> &'static str {
        match self {
            StepKind::Send => "s",
            StepKind::Recv => "r",
            StepKind::RecvCopySend => "rcs",
            StepKind::RecvReduceSend => "rrs",
            StepKind::RecvReduceCopy => "rrc",
            StepKind::RecvReduceCopySend => "rrcs",
            StepKind::Copy => "cpy",
            StepKind::Reduce => "re",
            StepKind::Nop => "nop",
        }
    }

    /// Parses the MSCCL-IR spelling.
    pub fn parse(s: &str) -> Option<StepKind> {
        StepKind::ALL.into_iter().find(|k| k.mnemonic() == s)
    }

    /// Whether the step sends to the thread block's send peer.
    pub const fn sends(self) -> bool {
        matches!(
            self,
            StepKind::Send | StepKind::RecvCopySend | StepKind::RecvReduceSend | StepKind::RecvReduceCopySend
        )
    }

    /// Whether the step receives from the thread block's recv peer.
    pub const fn receives(self) -> bool {
        matches!(
            self,
            StepKind::Recv
                | StepKind::RecvCopySend
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
        )
    }

    /// Whether the step adds a local operand (`src`, or `dst` for `re`).
    pub const fn reduces(self) -> bool {
        matches!(
            self,
            StepKind::RecvReduceSend | StepKind::RecvReduceCopy | StepKind::RecvReduceCopySend | StepKind::Reduce
        )
    }

    /// Whether `src` names a local slot the step reads (for `s`: what it sends).
    pub const fn reads_src(self) -> bool {
        matches!(
            self,
            StepKind::Send
                | StepKind::RecvReduceSend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
                | StepKind::Copy
                | StepKind::Reduce
        )
    }

    /// Whether `dst` names a local slot the step writes (`re` also reads it).
    pub const fn writes_dst(self) -> bool {
        matches!(
            self,
            StepKind::Recv
                | StepKind::RecvCopySend
                | StepKind::RecvReduceCopy
                | StepKind::RecvReduceCopySend
                | StepKind::Copy
                | StepKind::Reduce
        )
    }
}

/// A cross-thread-block dependency: wait until thread block `tb` of the same gpu has
/// completed step `step` (which must have `has_dep` set, so the interpreter signals it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dep {
    /// Thread block id.
    pub tb: usize,
    /// Step index in that thread block.
    pub step: usize,
}

/// One instruction of a thread block.
///
/// `src` / `dst` name local slots where the step type reads / writes them (see
/// [`StepKind::reads_src`], [`StepKind::writes_dst`]); otherwise they record the peer's slot
/// (where a send lands, where a receive came from), as msccl-tools writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Step type.
    pub kind: StepKind,
    /// Source (`None`: offset -1).
    pub src: Option<BufRef>,
    /// Destination (`None`: offset -1).
    pub dst: Option<BufRef>,
    /// Consecutive chunks moved.
    pub count: usize,
    /// Dependency on another thread block's step.
    pub dep: Option<Dep>,
    /// Whether another step depends on this one (the interpreter then signals it).
    pub has_dep: bool,
}

impl Step {
    /// A `nop` carrying a dependency.
    pub fn nop(dep: Dep) -> Step {
        Step { kind: StepKind::Nop, src: None, dst: None, count: 0, dep: Some(dep), has_dep: false }
    }
}

/// A thread block: a sequential list of steps with at most one send and one receive peer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadBlock {
    /// Id (equal to its position in [`Gpu::tbs`]).
    pub id: usize,
    /// Send peer.
    pub send: Option<usize>,
    /// Receive peer.
    pub recv: Option<usize>,
    /// Channel of both connections.
    pub channel: usize,
    /// Steps in execution order.
    pub steps: Vec<Step>,
}

/// One rank's part of the algorithm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gpu {
    /// Rank (equal to its position in [`MscclIr::gpus`]).
    pub id: usize,
    /// Input buffer chunks.
    pub input_chunks: usize,
    /// Output buffer chunks.
    pub output_chunks: usize,
    /// Scratch buffer chunks.
    pub scratch_chunks: usize,
    /// Thread blocks.
    pub tbs: Vec<ThreadBlock>,
}

impl Gpu {
    /// Chunks of `buffer`.
    pub fn chunks(&self, buffer: Buffer) -> usize {
        match buffer {
            Buffer::Input => self.input_chunks,
            Buffer::Output => self.output_chunks,
            Buffer::Scratch => self.scratch_chunks,
        }
    }
}

/// A whole MSCCL-IR algorithm (the `<algo>` element).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MscclIr {
    /// Algorithm name.
    pub name: String,
    /// Collective name (`coll`).
    pub collective: String,
    /// Protocol.
    pub protocol: Protocol,
    /// Channels used (every thread block's channel is below it).
    pub nchannels: usize,
    /// Chunks the buffers are divided into per loop iteration.
    pub nchunksperloop: usize,
    /// Whether input and output alias.
    pub inplace: bool,
    /// msccl runtime's `outofplace` flag, when present.
    pub outofplace: Option<bool>,
    /// msccl runtime's `minBytes`, when present.
    pub min_bytes: Option<u64>,
    /// msccl runtime's `maxBytes`, when present.
    pub max_bytes: Option<u64>,
    /// Other `<algo>` attributes, kept verbatim.
    pub extra_attrs: BTreeMap<String, String>,
    /// One entry per rank, in rank order.
    pub gpus: Vec<Gpu>,
}

/// A point-to-point connection the algorithm uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connection {
    /// Sending gpu.
    pub from: usize,
    /// Receiving gpu.
    pub to: usize,
    /// Channel.
    pub channel: usize,
    /// Sending thread block (on `from`).
    pub send_tb: usize,
    /// Receiving thread block (on `to`).
    pub recv_tb: usize,
    /// Number of send steps on it.
    pub messages: usize,
}

impl MscclIr {
    /// Number of gpus (ranks).
    pub fn ngpus(&self) -> usize {
        self.gpus.len()
    }

    /// Checks the structure: ids, peers, channels, buffer bounds, dependencies, and that
    /// every send has a matching receive of the same count on the peer.
    pub fn validate(&self) -> Result<()> {
        super::ir_check::check(self).map_err(|p| p.into_error())
    }

    /// Every connection with at least one message, in (from, to, channel) order.
    /// The IR should have passed [`MscclIr::validate`].
    pub fn connections(&self) -> Vec<Connection> {
        super::ir_check::connections(self)
    }

    /// The collective the header describes; rooted collectives get `root` (the XML does not
    /// record roots).
    pub fn collective_with_root(&self, root: usize) -> Result<Collective> {
        Collective::from_xml(&self.collective, self.ngpus(), self.nchunksperloop, root)
    }

    /// [`MscclIr::collective_with_root`] with root 0.
    pub fn inferred_collective(&self) -> Result<Collective> {
        self.collective_with_root(0)
    }
}
