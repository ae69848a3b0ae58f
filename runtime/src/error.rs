//! The runtime's error type and its reports (faults, deadlocks, unfinished work).

use std::fmt;

/// A runtime failure.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// A rank index outside the world.
    #[error("rank {rank} out of range: the world has {world} ranks")]
    RankOutOfRange {
        /// Requested rank.
        rank: usize,
        /// World size.
        world: usize,
    },
    /// Host data of the wrong length.
    #[error("size mismatch: buffer holds {expected} elements per rank, got {got}")]
    SizeMismatch {
        /// Buffer length.
        expected: usize,
        /// Given length.
        got: usize,
    },
    /// The symmetric heap is full.
    #[error("symmetric heap exhausted: {requested} bytes requested, {free} free of {capacity} (raise WEFT_HEAP_SIZE)")]
    OutOfMemory {
        /// Requested bytes.
        requested: usize,
        /// Free bytes.
        free: usize,
        /// Heap size.
        capacity: usize,
    },
    /// An unusable topology.
    #[error("bad topology: {0}")]
    BadTopology(String),
    /// A bad launch (grid, arguments).
    #[error("bad launch of `{kernel}`: {message}")]
    BadLaunch {
        /// Kernel name.
        kernel: String,
        /// Why.
        message: String,
    },
    /// A kernel compiled for something this transport does not run.
    #[error("kernel `{kernel}` is {has}, but the {transport} transport runs {needs}")]
    WrongCode {
        /// Kernel name.
        kernel: String,
        /// What the kernel holds.
        has: String,
        /// Transport name.
        transport: String,
        /// What it runs.
        needs: String,
    },
    /// PEs issued different collective calls at the same point of their sequence (on a real
    /// multi-process transport this pairs unrelated calls and hangs).
    #[error("collective calls out of order: PE {rank} issued {call}, but PE {other_rank} issued {other}")]
    CollectiveMismatch {
        /// The PE whose call is reported.
        rank: usize,
        /// Its call.
        call: String,
        /// A PE that disagrees.
        other_rank: usize,
        /// That PE's call.
        other: String,
    },
    /// A collective call that some PEs never joined.
    #[error("collective {call} of PE {rank}: PEs {missing:?} did not join within {waited_ms} ms")]
    CollectiveTimeout {
        /// The PE that waited.
        rank: usize,
        /// Its call.
        call: String,
        /// PEs that never arrived.
        missing: Vec<usize>,
        /// How long it waited.
        waited_ms: u128,
    },
    /// The CUDA transport is unavailable here or failed.
    #[error(transparent)]
    Cuda(#[from] crate::cuda::CudaError),
    /// A copy-engine plan was bad or its run failed.
    #[error(transparent)]
    CopyEngine(#[from] crate::copy_engine::CopyError),
    /// The MPI transport is unavailable here or failed.
    #[error(transparent)]
    Mpi(#[from] crate::mpi::MpiError),
    /// The operating system refused a resource.
    #[error("{what}: {message}")]
    System {
        /// What we asked for.
        what: String,
        /// The OS's answer.
        message: String,
    },
    /// A kernel misused a runtime operation.
    #[error("{0}")]
    KernelFault(KernelFault),
    /// The launch can never finish.
    #[error("{0}")]
    Deadlock(DeadlockReport),
    /// A shmem op's span leaves the allocation it starts in.
    #[error("{0}")]
    OutOfBounds(crate::checks::BoundsFault),
    /// `racecheck` found a data race or a missing ordering.
    #[error("{0}")]
    Race(crate::checks::RaceReport),
    /// Warnings were raised and `warnings_as_errors` is set.
    #[error("launch of `{kernel}` finished with warnings: {}", warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>().join("; "))]
    Warnings {
        /// Kernel name.
        kernel: String,
        /// The warnings.
        warnings: Vec<LaunchWarning>,
    },
}

/// Which op of which program instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Rank.
    pub rank: usize,
    /// Program id.
    pub program: [i32; 3],
    /// Op name.
    pub op: String,
    /// IR source location.
    pub loc: String,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.program;
        write!(f, "rank {} program ({x},{y},{z}) `{}` at {}", self.rank, self.op, self.loc)
    }
}

/// A kernel misused a runtime operation (bad rank, pointer outside the heap, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelFault {
    /// Kernel name.
    pub kernel: String,
    /// Where.
    pub origin: Origin,
    /// What.
    pub message: String,
}

impl fmt::Display for KernelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel `{}` faulted: {}: {}", self.kernel, self.origin, self.message)
    }
}

/// What a blocked program instance waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitKind {
    /// `signal_wait_until`.
    Signal {
        /// Signal as (allocation id, byte offset) in the symmetric heap.
        alloc: Option<(u64, usize)>,
        /// Rank-local address.
        addr: usize,
        /// Comparison.
        cmp: &'static str,
        /// Expected value.
        expected: u64,
        /// Value when the deadlock was declared.
        current: u64,
    },
    /// `barrier_all`.
    Barrier {
        /// Instances arrived.
        arrived: usize,
        /// Instances in the launch.
        total: usize,
    },
    /// A polling loop (`ll_recv`) that never saw its flag.
    Spin {
        /// Allocation id and offset of the polled word.
        alloc: Option<(u64, usize)>,
        /// Rank-local address.
        addr: usize,
    },
}

/// One blocked wait in a deadlock report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedWait {
    /// Where.
    pub origin: Origin,
    /// On what.
    pub kind: WaitKind,
}

fn alloc_str(alloc: &Option<(u64, usize)>, addr: usize) -> String {
    match alloc {
        Some((id, off)) => format!("allocation #{id} + {off} bytes (address {addr:#x})"),
        None => format!("address {addr:#x} (not in the symmetric heap)"),
    }
}

impl fmt::Display for BlockedWait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            WaitKind::Signal { alloc, addr, cmp, expected, current } => write!(
                f,
                "{} waits for signal at {} {cmp} {expected}, but it is {current}",
                self.origin,
                alloc_str(alloc, *addr)
            ),
            WaitKind::Barrier { arrived, total } => {
                write!(f, "{} waits at barrier_all: {arrived} of {total} program instances arrived", self.origin)
            }
            WaitKind::Spin { alloc, addr } => {
                write!(f, "{} polls {} for a flag that never arrives", self.origin, alloc_str(alloc, *addr))
            }
        }
    }
}

/// A launch that can never finish, with every blocked wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadlockReport {
    /// Kernel name.
    pub kernel: String,
    /// Program instances that finished.
    pub finished: usize,
    /// The blocked waits.
    pub waits: Vec<BlockedWait>,
}

impl fmt::Display for DeadlockReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "deadlock in kernel `{}`: {} program instances blocked, {} finished",
            self.kernel,
            self.waits.len(),
            self.finished
        )?;
        crate::deadlock_text::write_waits(f, &self.waits)
    }
}

/// Work left unfinished at the end of a launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaunchWarning {
    /// Non-blocking operations never completed by `quiet` / `barrier_all`.
    UnquietedNbi {
        /// Where the last one was issued.
        origin: Origin,
        /// How many.
        count: usize,
    },
    /// A signal was written but no wait on its rank ever observed it.
    UnobservedSignal {
        /// Rank holding the signal.
        rank: usize,
        /// Allocation id and byte offset.
        alloc: Option<(u64, usize)>,
        /// Its value at exit.
        value: u64,
    },
}

impl fmt::Display for LaunchWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchWarning::UnquietedNbi { origin, count } => write!(
                f,
                "{origin}: {count} non-blocking operation(s) were never completed by quiet or barrier_all"
            ),
            LaunchWarning::UnobservedSignal { rank, alloc, value } => write!(
                f,
                "rank {rank}: signal at {} was set to {value} but no wait observed it",
                alloc_str(alloc, 0)
            ),
        }
    }
}
