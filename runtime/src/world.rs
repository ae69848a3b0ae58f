//! `World`: the user-facing handle on a set of ranks, whatever the transport.

use crate::buffer::{RawBuf, SymBuf};
use crate::copy_engine::CopyPlan;
use crate::cuda::CudaOptions;
use crate::dtype::Element;
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::local::{LocalOptions, LocalTransport};
use crate::topology::Topology;
use crate::transport::Transport;
use crate::RuntimeError;
use std::sync::Arc;

/// A set of ranks with a symmetric heap.
#[derive(Clone)]
pub struct World {
    transport: Arc<dyn Transport>,
}

impl World {
    /// `n` ranks on one node, as threads in this process.
    pub fn local(n: usize) -> Result<World, RuntimeError> {
        World::local_with(LocalOptions { topology: Topology::single_node(n), ..LocalOptions::from_env() })
    }

    /// In-process ranks with explicit options (topology, heap size, ...).
    pub fn local_with(opts: LocalOptions) -> Result<World, RuntimeError> {
        Ok(World { transport: Arc::new(LocalTransport::new(opts)?) })
    }

    /// This process's PE of a CUDA/NVSHMEM world, placed and bootstrapped from the environment
    /// (see [`crate::cuda::bootstrap`]). Without a driver, NVSHMEM's host library or a GPU, a
    /// [`RuntimeError::Cuda`] saying which.
    pub fn cuda() -> Result<World, RuntimeError> {
        Ok(World { transport: crate::cuda::open(None)? })
    }

    /// [`World::cuda`] with explicit options.
    pub fn cuda_with(opts: CudaOptions) -> Result<World, RuntimeError> {
        Ok(World { transport: crate::cuda::open(Some(opts))? })
    }

    /// This process's rank of an MPI world started by `mpirun` / `srun` (see [`crate::mpi`]).
    /// Without MPI, a [`RuntimeError::Mpi`] saying why.
    pub fn mpi(opts: crate::mpi::MpiOptions) -> Result<World, RuntimeError> {
        Ok(World { transport: crate::mpi::open(opts)? })
    }

    /// Combines this process's verification verdict (passed, largest error) with the other
    /// processes' (a collective step on multi-process transports).
    pub fn agree_verdict(&self, ok: bool, max_err: f64) -> Result<(bool, f64), RuntimeError> {
        self.transport.agree_verdict(ok, max_err)
    }

    /// A world over any transport.
    pub fn with_transport(transport: Arc<dyn Transport>) -> World {
        World { transport }
    }

    /// The transport behind this world.
    pub(crate) fn shared_transport(&self) -> Arc<dyn Transport> {
        self.transport.clone()
    }

    /// Transport name.
    pub fn transport(&self) -> &'static str {
        self.transport.name()
    }

    /// Number of ranks.
    pub fn n_ranks(&self) -> usize {
        self.transport.topology().world_size()
    }

    /// Ranks whose memory this process reads and writes (all of them on `local`, its own on `cuda`).
    pub fn host_ranks(&self) -> std::ops::Range<usize> {
        self.transport.host_ranks()
    }

    /// The GPU architecture kernels must be compiled for (`sm_90a`); `None` for CPU code.
    pub fn gpu_arch(&self) -> Option<&'static str> {
        self.transport.gpu_arch()
    }

    /// Streaming multiprocessors of this process's GPU; `None` for CPU code.
    pub fn gpu_sms(&self) -> Option<usize> {
        self.transport.gpu_sms()
    }

    /// Whether every launch runs under the race detector (compile its kernels with race checks).
    pub fn racecheck(&self) -> bool {
        self.transport.racecheck()
    }

    /// Rank layout.
    pub fn topology(&self) -> Topology {
        self.transport.topology()
    }

    /// Allocates `len` elements of `T` (zeroed) on every rank.
    pub fn alloc<T: Element>(&self, len: usize) -> Result<SymBuf<T>, RuntimeError> {
        let bytes = len.checked_mul(std::mem::size_of::<T>()).ok_or(RuntimeError::OutOfMemory {
            requested: usize::MAX,
            free: 0,
            capacity: 0,
        })?;
        Ok(SymBuf::new(self.transport.alloc(bytes)?, len))
    }

    /// Frees a buffer on every rank.
    pub fn free<T: Element>(&self, buf: SymBuf<T>) {
        self.transport.free(buf.raw)
    }

    fn check_rank(&self, rank: usize) -> Result<(), RuntimeError> {
        let world = self.n_ranks();
        if rank >= world || !self.transport.host_ranks().contains(&rank) {
            return Err(RuntimeError::RankOutOfRange { rank, world });
        }
        Ok(())
    }

    /// Writes `data` (exactly `buf.len()` elements) into `rank`'s part of `buf`.
    pub fn write<T: Element>(&self, buf: &SymBuf<T>, rank: usize, data: &[T]) -> Result<(), RuntimeError> {
        self.check_rank(rank)?;
        if data.len() != buf.len {
            return Err(RuntimeError::SizeMismatch { expected: buf.len, got: data.len() });
        }
        // SAFETY: `T` is plain data (sealed `Element`).
        let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data)) };
        self.transport.write_bytes(buf.raw, rank, 0, bytes)
    }

    /// Reads `rank`'s part of `buf`.
    pub fn read<T: Element>(&self, buf: &SymBuf<T>, rank: usize) -> Result<Vec<T>, RuntimeError> {
        self.check_rank(rank)?;
        let mut out = vec![T::default(); buf.len];
        // SAFETY: as in `write`.
        let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, std::mem::size_of_val(out.as_slice())) };
        self.transport.read_bytes(buf.raw, rank, 0, bytes)?;
        Ok(out)
    }

    /// Writes raw bytes into `rank`'s part of an allocation at byte `offset`.
    pub fn write_bytes(&self, buf: RawBuf, rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError> {
        self.check_rank(rank)?;
        self.transport.write_bytes(buf, rank, offset, data)
    }

    /// Reads raw bytes of `rank`'s part of an allocation from byte `offset`.
    pub fn read_bytes(&self, buf: RawBuf, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError> {
        self.check_rank(rank)?;
        self.transport.read_bytes(buf, rank, offset, out)
    }

    /// Allocates `bytes` (zeroed) on every rank, untyped.
    pub fn alloc_bytes(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        self.transport.alloc(bytes)
    }

    /// Frees an untyped allocation.
    pub fn free_raw(&self, buf: RawBuf) {
        self.transport.free(buf)
    }

    /// Sets every element of `buf` on every rank to `value`.
    pub fn fill<T: Element>(&self, buf: &SymBuf<T>, value: T) -> Result<(), RuntimeError> {
        let data = vec![value; buf.len];
        for r in self.host_ranks() {
            self.write(buf, r, &data)?;
        }
        Ok(())
    }

    /// Launches `kernel` over `grid` program instances on every rank and waits for it.
    pub fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg]) -> Result<LaunchReport, RuntimeError> {
        self.launch_with(kernel, grid, args, &LaunchOptions::default())
    }

    /// [`World::launch`] with options.
    pub fn launch_with(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError> {
        // The variant specialized for these arguments' facts, if the kernel has variants.
        self.transport.launch(&kernel.for_args(args), grid, args, opts)
    }

    /// Launches `kernel` with the copy engine running `plan`'s queues beside it (each rank's
    /// queue in order, no program instances taken); returns when both are done. A bad plan
    /// is a [`crate::CopyError`] before anything runs.
    pub fn launch_with_copies(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], plan: &CopyPlan) -> Result<LaunchReport, RuntimeError> {
        plan.validate(self.n_ranks())?;
        self.transport.launch_with_copies(&kernel.for_args(args), grid, args, &LaunchOptions::default(), plan)
    }

    /// The raw allocation behind a buffer.
    pub fn raw<T: Element>(buf: &SymBuf<T>) -> RawBuf {
        buf.raw
    }
}
