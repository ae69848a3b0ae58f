//! The transport interface: how ranks, their memory and launches are provided. `local` runs
//! ranks as threads in this process; `mpi` (one process per rank under `mpirun`, see
//! `crate::mpi`) and `cuda` (one NVSHMEM PE per process) fit the same interface, so kernels and
//! host code never change.

use crate::buffer::RawBuf;
use crate::copy_engine::CopyPlan;
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::topology::Topology;
use crate::RuntimeError;

/// A way of running ranks.
pub trait Transport: Send + Sync {
    /// Transport name (`local`, ...).
    fn name(&self) -> &'static str;
    /// Rank layout.
    fn topology(&self) -> Topology;
    /// Ranks whose memory this process can read and write from the host.
    fn host_ranks(&self) -> std::ops::Range<usize>;
    /// Allocates `bytes` (zeroed) at the same offset on every rank (collective).
    fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError>;
    /// Frees an allocation (collective).
    fn free(&self, buf: RawBuf);
    /// Copies `data` into `rank`'s part of `buf` at byte `offset`.
    fn write_bytes(&self, buf: RawBuf, rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError>;
    /// Copies `rank`'s part of `buf` from byte `offset` into `out`.
    fn read_bytes(&self, buf: RawBuf, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError>;
    /// The GPU architecture kernels must be compiled for (`sm_90a`); `None` for CPU code.
    fn gpu_arch(&self) -> Option<&'static str> {
        None
    }
    /// Streaming multiprocessors of this process's GPU; `None` for CPU code.
    fn gpu_sms(&self) -> Option<usize> {
        None
    }
    /// Whether every launch runs under the race detector, so kernels for it should be compiled
    /// with race checks (`local` with `racecheck`).
    fn racecheck(&self) -> bool {
        false
    }
    /// Combines this process's verification verdict (passed, largest error) with every other
    /// process's, for transports whose ranks live in several processes.
    fn agree_verdict(&self, ok: bool, max_err: f64) -> Result<(bool, f64), RuntimeError> {
        Ok((ok, max_err))
    }
    /// Runs every program instance of `grid` on every rank this transport drives.
    fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError>;
    /// [`Transport::launch`] with the copy engine running the queues of `plan` (validated)
    /// of the ranks this transport drives beside the kernel; returns when both are done.
    fn launch_with_copies(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions, plan: &CopyPlan) -> Result<LaunchReport, RuntimeError> {
        let _ = (kernel, grid, args, opts, plan);
        Err(crate::copy_engine::CopyError::Unsupported { transport: self.name() }.into())
    }
}
