//! Reports of the `local` transport's memory checks: an op whose span leaves its allocation
//! (always checked), and a race or a missing ordering between two ops (with `racecheck`).

use crate::error::Origin;
use std::fmt;

/// Where in the symmetric heap a span lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapSpan {
    /// The rank whose memory it is.
    pub rank: usize,
    /// The live allocation it starts in: (id, bytes the host asked for), or `None` when it
    /// starts outside every allocation.
    pub alloc: Option<(u64, usize)>,
    /// Byte offset in that allocation (in the rank's heap when there is none).
    pub offset: usize,
    /// Bytes.
    pub len: usize,
}

impl fmt::Display for HeapSpan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = self.offset + self.len;
        match self.alloc {
            Some((id, bytes)) => write!(f, "bytes {}..{end} of allocation #{id} ({bytes} bytes) on rank {}", self.offset, self.rank),
            None => write!(f, "bytes {}..{end} of rank {}'s heap, outside every allocation", self.offset, self.rank),
        }
    }
}

/// A shmem op whose span does not fit in the allocation it starts in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundsFault {
    /// Kernel name.
    pub kernel: String,
    /// The op.
    pub origin: Origin,
    /// Which operand (`destination`, `source`, `signal`).
    pub operand: &'static str,
    /// The span it asked for.
    pub span: HeapSpan,
}

impl fmt::Display for BoundsFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel `{}` out of bounds: {}: {} is {}", self.kernel, self.origin, self.operand, self.span)?;
        if let Some((_, bytes)) = self.span.alloc {
            write!(f, ", past its end by {} bytes", (self.span.offset + self.span.len).saturating_sub(bytes))?;
        }
        Ok(())
    }
}

/// Whether an access reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// Reads the span.
    Read,
    /// Writes the span.
    Write,
}

/// One access to symmetric memory, as the race detector saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// The op and the instance that issued it.
    pub origin: Origin,
    /// Read or write.
    pub kind: AccessKind,
    /// The memory it touched.
    pub span: HeapSpan,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.kind == AccessKind::Read { "reads" } else { "writes" };
        write!(f, "{} {verb} {}", self.origin, self.span)
    }
}

/// What the race detector found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RaceKind {
    /// Two accesses to the same bytes, at least one a write, with no happens-before between them.
    DataRace {
        /// The earlier access (in the order the detector saw them).
        first: Access,
        /// The later one.
        second: Access,
    },
    /// A signal sent to a rank after a non-blocking put to it, with no fence or quiet between:
    /// the signal may arrive before the data it guards.
    UnfencedSignal {
        /// The non-blocking put.
        put: Access,
        /// The signal op.
        signal: Origin,
    },
}

/// A race or missing ordering found by `racecheck`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceReport {
    /// Kernel name.
    pub kernel: String,
    /// What was found.
    pub kind: RaceKind,
}

impl fmt::Display for RaceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RaceKind::DataRace { first, second } => write!(
                f,
                "data race in kernel `{}`:\n  {first}\n  {second}\n  missing ordering: nothing orders the first before the second \
                 (no signal it released was waited for, no barrier_all between them)",
                self.kernel
            ),
            RaceKind::UnfencedSignal { put, signal } => write!(
                f,
                "unordered signal in kernel `{}`:\n  {put} (non-blocking)\n  {signal} signals rank {}\n  missing ordering: \
                 no fence or quiet between the put and the signal, so the signal may arrive before the data",
                self.kernel, put.span.rank
            ),
        }
    }
}
