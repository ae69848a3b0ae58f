//! The `local` transport: N ranks as threads of this process, sharing one address space.
//! The embedded default, used by tests and benches: no setup at all.

pub(crate) mod access;
pub(crate) mod bounds;
pub(crate) mod ops;
pub(crate) mod race;
mod park;
mod pool;
mod reuse;
pub(crate) mod signals;
mod slot;
pub(crate) mod sched;
pub(crate) mod state;

use crate::buffer::RawBuf;
use crate::copy_engine::CopyPlan;
use crate::heap::{parse_size, Heap, DEFAULT_HEAP_BYTES};
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::topology::Topology;
use crate::transport::Transport;
use crate::RuntimeError;
use std::time::Duration;

pub use ops::RT_FNS;

/// Options of the `local` transport.
#[derive(Clone, Debug)]
pub struct LocalOptions {
    /// Rank layout.
    pub topology: Topology,
    /// Symmetric heap bytes per rank (`WEFT_HEAP_SIZE`).
    pub heap_bytes: usize,
    /// Stack bytes per program instance.
    pub stack_bytes: usize,
    /// Worker threads (`WEFT_WORKERS`; default: available cores).
    pub workers: usize,
    /// No progress for this long while everything waits is a deadlock (`WEFT_DEADLOCK_TIMEOUT_MS`).
    pub deadlock_timeout: Duration,
    /// The GPU architecture whose code this world runs in the SIMT emulator (`sm_80`,
    /// `sm_90a`, ...), or `None` for CPU code.
    pub emulate: Option<&'static str>,
    /// Run every launch under the race detector (`WEFT_RACECHECK=1`); slow, for finding bugs.
    pub racecheck: bool,
    /// Check shmem ops' spans against their allocations (`WEFT_BOUNDS_CHECK=0` turns it off,
    /// only to measure what it costs).
    pub bounds_check: bool,
}

/// Streaming multiprocessors an emulated GPU reports: GPU GEMM grids are sized from it, and a
/// few keep emulated launches small.
pub const EMULATED_SMS: usize = 4;

impl LocalOptions {
    /// Defaults, overridden by the environment.
    pub fn from_env() -> LocalOptions {
        let env = |k: &str| std::env::var(k).ok();
        LocalOptions {
            topology: Topology::single_node(1),
            heap_bytes: env("WEFT_HEAP_SIZE").and_then(|s| parse_size(&s)).unwrap_or(DEFAULT_HEAP_BYTES),
            stack_bytes: 1 << 20,
            workers: env("WEFT_WORKERS")
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)),
            deadlock_timeout: crate::launch::deadlock_timeout(&env),
            emulate: None,
            racecheck: env("WEFT_RACECHECK").is_some_and(|v| !matches!(v.trim(), "" | "0" | "false")),
            bounds_check: env("WEFT_BOUNDS_CHECK").is_none_or(|v| !matches!(v.trim(), "0" | "false")),
        }
    }
}

impl Default for LocalOptions {
    fn default() -> Self {
        LocalOptions::from_env()
    }
}

/// Ranks as threads in this process.
pub struct LocalTransport {
    opts: LocalOptions,
    heap: Heap,
    pool: pool::Pool,
    /// Launches on one world run one at a time (like one stream): interleaving two launches'
    /// jobs on the shared workers could make each wait for the other.
    launch_lock: std::sync::Mutex<()>,
}

impl LocalTransport {
    /// Creates the ranks and reserves their heaps.
    pub fn new(opts: LocalOptions) -> Result<LocalTransport, RuntimeError> {
        opts.topology.validate()?;
        let heap = Heap::new(opts.topology.world_size(), opts.heap_bytes)?;
        let pool = pool::Pool::lingering(opts.workers.max(1), pool::linger_from_env())?;
        Ok(LocalTransport { opts, heap, pool, launch_lock: std::sync::Mutex::new(()) })
    }
}

impl Transport for LocalTransport {
    fn name(&self) -> &'static str {
        "local"
    }

    fn topology(&self) -> Topology {
        self.opts.topology
    }

    fn gpu_arch(&self) -> Option<&'static str> {
        self.opts.emulate
    }

    fn gpu_sms(&self) -> Option<usize> {
        self.opts.emulate.map(|_| EMULATED_SMS)
    }

    fn racecheck(&self) -> bool {
        self.opts.racecheck
    }

    fn host_ranks(&self) -> std::ops::Range<usize> {
        0..self.opts.topology.world_size()
    }

    fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        self.heap.alloc(bytes)
    }

    fn free(&self, buf: RawBuf) {
        self.heap.free(buf)
    }

    fn write_bytes(&self, buf: RawBuf, rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError> {
        let p = self.heap.span(buf, rank, offset, data.len())?;
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
        Ok(())
    }

    fn read_bytes(&self, buf: RawBuf, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError> {
        let p = self.heap.span(buf, rank, offset, out.len())?;
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError> {
        if grid.contains(&0) || grid.iter().map(|&g| g as u64).product::<u64>() > 1 << 20 {
            return Err(RuntimeError::BadLaunch { kernel: kernel.name.clone(), message: format!("grid {grid:?} must be non-empty and at most 2^20 instances") });
        }
        let _one_at_a_time = self.launch_lock.lock().unwrap_or_else(|e| e.into_inner());
        sched::run(&self.pool, &self.heap, &self.opts, &sched::Here::all(self.opts.topology.world_size()), kernel, grid, args, opts)
    }

    fn launch_with_copies(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions, plan: &CopyPlan) -> Result<LaunchReport, RuntimeError> {
        let ranks = 0..self.opts.topology.world_size();
        crate::copy_engine::local::with_copies(&self.heap, plan, ranks, self.opts.deadlock_timeout, opts, |o| self.launch(kernel, grid, args, o))
    }
}
