//! The `mpi` transport: one rank per process, started by `mpirun` / `srun`, over the system
//! MPI (Open MPI; bound at build time, loaded at run time). The symmetric heap is an
//! `MPI_Win_allocate_shared` window per node, so ranks of a node reach each other by
//! load/store (`remote_ptr` and vectorised peer access work as on NVLink) and every shmem op
//! between them is the `local` transport's own code; ranks on other nodes are reached with MPI
//! one-sided calls on a world window (see [`ops`]). A launch runs this rank's program
//! instances on the `local` scheduler; host steps (alloc, launch) check that every process
//! issued the same call, and time out rather than hang.

mod error;
mod ops;
mod peers;
mod sys;

pub use error::MpiError;
pub use peers::Peers;

use crate::buffer::RawBuf;
use crate::heap::{parse_size, Heap};
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::local::sched::{self, Here, Pool};
use crate::local::LocalOptions;
use crate::topology::Topology;
use crate::transport::Transport;
use crate::RuntimeError;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

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

/// This process's rank of an MPI world.
pub struct MpiTransport {
    peers: &'static Peers,
    heap: Heap,
    pool: Pool,
    opts: LocalOptions,
    launch_lock: Mutex<()>,
}

static WORLD: OnceLock<Result<Arc<MpiTransport>, String>> = OnceLock::new();

/// The process's MPI world (MPI is initialised once per process; later calls share it).
pub fn open(opts: MpiOptions) -> Result<Arc<MpiTransport>, RuntimeError> {
    let made = WORLD.get_or_init(|| MpiTransport::new(&opts).map(Arc::new).map_err(|e| e.to_string()));
    match made {
        Ok(t) if opts.nodes.is_some_and(|n| n != t.opts.topology.nodes) => {
            Err(MpiError::Layout(format!("this process's mpi world has {} nodes, not {}", t.opts.topology.nodes, opts.nodes.unwrap_or(0))).into())
        }
        Ok(t) => Ok(t.clone()),
        Err(e) => Err(MpiError::Layout(format!("the mpi world could not be opened: {e}")).into()),
    }
}

/// Ends MPI in this process if a world was opened (call once, after the last launch; exiting
/// without it makes `mpirun` report the process as failed).
pub fn finalize() -> Result<(), RuntimeError> {
    match WORLD.get() {
        Some(Ok(t)) => Ok(t.peers.finalize()?),
        _ => Ok(()),
    }
}

impl MpiTransport {
    fn new(o: &MpiOptions) -> Result<MpiTransport, RuntimeError> {
        let (usable, map) = Heap::sizes(o.heap_bytes);
        let (peers, segs) = Peers::open(o.nodes, map, o.host_timeout)?;
        // MPI stays initialised for the life of the process; so do the peers.
        let peers: &'static Peers = Box::leak(Box::new(peers));
        let topology = peers.topology;
        topology.validate()?;
        let mut opts = LocalOptions { topology, ..LocalOptions::from_env() };
        if std::env::var_os("WEFT_WORKERS").is_none() {
            // The node's cores are shared by its ranks.
            opts.workers = (opts.workers / topology.local_size).max(1);
        }
        let heap = Heap::from_segments(segs.bases, usable, peers.rank);
        let pool = Pool::new(opts.workers)?;
        Ok(MpiTransport { peers, heap, pool, opts, launch_lock: Mutex::new(()) })
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.peers.rank
    }

    /// The peers (for benches comparing with MPI's own collectives).
    pub fn peers(&self) -> &'static Peers {
        self.peers
    }

    fn own(&self, rank: usize) -> Result<(), RuntimeError> {
        if rank != self.peers.rank {
            return Err(RuntimeError::RankOutOfRange { rank, world: self.opts.topology.world_size() });
        }
        Ok(())
    }

    /// Checks every process issued `call` here (a barrier too).
    fn same_call(&self, call: String) -> Result<(), RuntimeError> {
        let h = call_hash(&call);
        let max = self.peers.agree(&call, &[h, !h])?;
        if max != [h, !h] {
            return Err(MpiError::Mismatch { rank: self.peers.rank, call }.into());
        }
        Ok(())
    }

    /// Fails every process if `mine` failed on any.
    fn all_succeeded<T>(&self, what: &str, mine: Result<T, RuntimeError>) -> Result<T, RuntimeError> {
        let failed = self.peers.agree(what, &[u64::from(mine.is_err())])?;
        match mine {
            Ok(_) if failed[0] != 0 => Err(MpiError::PeerFailed { rank: self.peers.rank, what: what.into() }.into()),
            r => r,
        }
    }
}

fn call_hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

impl Transport for MpiTransport {
    fn name(&self) -> &'static str {
        "mpi"
    }

    fn topology(&self) -> Topology {
        self.opts.topology
    }

    fn host_ranks(&self) -> std::ops::Range<usize> {
        self.peers.rank..self.peers.rank + 1
    }

    fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        self.same_call(format!("alloc of {bytes} bytes"))?;
        // Zeroes only this rank's part; the step below is the barrier before anyone writes.
        let mine = self.heap.alloc(bytes);
        if let Ok(b) = &mine {
            let b = *b;
            return self.all_succeeded("alloc", Ok(b)).inspect_err(|_| self.heap.free(b));
        }
        self.all_succeeded("alloc", mine)
    }

    fn free(&self, buf: RawBuf) {
        self.heap.free(buf)
    }

    fn write_bytes(&self, buf: RawBuf, rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError> {
        self.own(rank)?;
        let p = self.heap.span(buf, rank, offset, data.len())?;
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
        Ok(())
    }

    fn read_bytes(&self, buf: RawBuf, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError> {
        self.own(rank)?;
        let p = self.heap.span(buf, rank, offset, out.len())?;
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    fn agree_verdict(&self, ok: bool, max_err: f64) -> Result<(bool, f64), RuntimeError> {
        // Non-negative f64 bit patterns order as the numbers do.
        let m = self.peers.agree("verdict", &[u64::from(!ok), max_err.abs().to_bits()])?;
        Ok((m[0] == 0, f64::from_bits(m[1])))
    }

    fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError> {
        if grid.contains(&0) || grid.iter().map(|&g| g as u64).product::<u64>() > 1 << 20 {
            return Err(RuntimeError::BadLaunch { kernel: kernel.name.clone(), message: format!("grid {grid:?} must be non-empty and at most 2^20 instances") });
        }
        let _one_at_a_time = self.launch_lock.lock().unwrap_or_else(|e| e.into_inner());
        // Every process's host writes are done before any kernel touches a peer's memory.
        self.same_call(format!("launch of `{}` grid {grid:?} args {args:?}", kernel.name))?;
        let here = Here { fns: &ops::MPI_FNS, ranks: self.host_ranks(), remote: Some(self.peers) };
        let r = sched::run(&self.pool, &self.heap, &self.opts, &here, kernel, grid, args, opts);
        // And no process reads results or reuses memory before every kernel is done.
        self.all_succeeded(&format!("launch of `{}`", kernel.name), r)
    }
}
