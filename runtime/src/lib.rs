//! weft's host runtime: a symmetric heap, transports behind one interface, and multi-rank
//! launch of compiled kernels with a coroutine scheduler, deadlock reports and checks for
//! unfinished work.

pub mod abi;
mod buffer;
mod checks;
pub mod copy_engine;
mod deadlock_text;
pub mod cuda;
mod dtype;
mod error;
pub mod fp8;
pub mod heap;
mod launch;
pub mod local;
pub mod mpi;
pub mod per_process;
mod topology;
mod transport;
pub mod variants;
mod world;

pub use buffer::{RawBuf, SymBuf};
pub use copy_engine::{At, CopyError, CopyOp, CopyPlan};
pub use dtype::{DType, Element};
pub use checks::{Access, AccessKind, BoundsFault, HeapSpan, RaceKind, RaceReport};
pub use error::{BlockedWait, DeadlockReport, KernelFault, LaunchWarning, Origin, RuntimeError, WaitKind};
pub use cuda::CudaOptions;
pub use launch::{Arg, GpuCode, GpuParam, KernelCode, LaunchOptions, LaunchReport, Launchable, Site};
pub use local::LocalOptions;
pub use mpi::{MpiError, MpiOptions};
pub use topology::Topology;
pub use transport::Transport;
pub use world::World;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod deadlock_tests;
