//! The `mpi` transport: one rank per process, started by `mpirun` / `srun`, over the system
//! MPI (Open MPI; bound at build time, loaded at run time). The symmetric heap is an
//! `MPI_Win_allocate_shared` window per node, so ranks of a node reach each other by
//! load/store (`remote_ptr` and vectorised peer access work as on NVLink) and every shmem op
//! between them is the `local` transport's own code; ranks on other nodes are reached with MPI
//! one-sided calls on a world window (see [`ops`]). A launch runs this rank's program
//! instances on the `local` scheduler; host steps (alloc, launch) check that every process
//! issued the same call, and time out rather than hang.

#[cfg(weft_mpi)]
mod arrival;
#[cfg(weft_mpi)]
mod bell;
#[cfg(weft_mpi)]
mod call;
mod error;
#[cfg(weft_mpi)]
mod deferred;
#[cfg(weft_mpi)]
mod failure;
#[cfg(weft_mpi)]
mod idle;
mod sys;
#[cfg(weft_mpi)]
mod ops;
#[cfg(weft_mpi)]
mod peers;
#[cfg(weft_mpi)]
mod phases;
#[cfg(weft_mpi)]
mod reference;
#[cfg(weft_mpi)]
mod sync;
#[cfg(weft_mpi)]
mod watch;
#[cfg(weft_mpi)]
mod transport;
#[cfg(not(weft_mpi))]
mod unbound;

pub use error::MpiError;
#[cfg(weft_mpi)]
pub use {
    peers::Peers,
    transport::{finalize, open, MpiTransport},
};
#[cfg(not(weft_mpi))]
pub use unbound::{finalize, open, MpiTransport, Peers};
#[cfg(weft_mpi)]
pub(crate) use watch::{Verdict, Watch};
#[cfg(not(weft_mpi))]
pub(crate) use unbound::{Verdict, Watch};

use crate::heap::parse_size;
use std::time::Duration;

/// An MPI collective to time (benches compare weft's kernels with them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpiCollective {
    /// `MPI_Allgather` of `bytes / ranks` bytes from each rank.
    Allgather,
    /// `MPI_Allreduce` (f32 sum) of `bytes`.
    Allreduce,
    /// `MPI_Reduce_scatter_block` (f32 sum) of `bytes` in, `bytes / ranks` out per rank.
    ReduceScatterBlock,
}

/// Options of the `mpi` transport.
#[derive(Clone, Debug)]
pub struct MpiOptions {
    /// Split the processes into this many nodes of consecutive ranks (emulating several
    /// machines on one; `WEFT_MPI_NODES`); `None`: the machines they run on.
    pub nodes: Option<usize>,
    /// Symmetric heap bytes per rank (`WEFT_HEAP_SIZE`, default 1 GiB: it is shared memory).
    pub heap_bytes: usize,
    /// How long a host step (alloc, launch) waits for every process (`WEFT_MPI_TIMEOUT_MS`, 120 s).
    pub host_timeout: Duration,
}

impl MpiOptions {
    /// Defaults, overridden by the environment.
    pub fn from_env() -> MpiOptions {
        let env = |k: &str| std::env::var(k).ok();
        MpiOptions {
            nodes: env("WEFT_MPI_NODES").and_then(|s| s.trim().parse().ok()),
            heap_bytes: env("WEFT_HEAP_SIZE").and_then(|s| parse_size(&s)).unwrap_or(1 << 30),
            host_timeout: Duration::from_millis(env("WEFT_MPI_TIMEOUT_MS").and_then(|s| s.trim().parse().ok()).unwrap_or(120_000)),
        }
    }
}

