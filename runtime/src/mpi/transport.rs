//! The `mpi` transport's host side: this process's rank, its heap view, host steps.

use super::call::{named, text_hash, LaunchCall};
use super::error::MpiError;
use super::phases::{self, Phase};
use super::{ops, MpiOptions, Peers};
use crate::buffer::RawBuf;
use crate::heap::Heap;
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::local::sched::{self, Here, Pool};
use crate::local::LocalOptions;
use crate::topology::Topology;
use crate::transport::Transport;
use crate::RuntimeError;
use std::sync::{Arc, Mutex};

/// This process's rank of an MPI world.
pub struct MpiTransport {
    peers: &'static Peers,
    heap: Heap,
    pool: Pool,
    opts: LocalOptions,
    launch_lock: Mutex<()>,
    /// Whether self-closing launches skip their closing step (`WEFT_MPI_SELF_CLOSING=0`: never,
    /// to measure what it saves).
    self_closing: bool,
}

static WORLD: Mutex<Option<Arc<MpiTransport>>> = Mutex::new(None);

/// The process's MPI world: MPI is initialised by the first call, and later calls share it.
pub fn open(opts: MpiOptions) -> Result<Arc<MpiTransport>, RuntimeError> {
    let mut world = WORLD.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = &*world {
        let nodes = t.opts.topology.nodes;
        if opts.nodes.is_some_and(|n| n != nodes) {
            return Err(MpiError::Layout(format!("this process's mpi world has {nodes} nodes, not {}", opts.nodes.unwrap_or(0))).into());
        }
        return Ok(t.clone());
    }
    let t = Arc::new(MpiTransport::new(&opts)?);
    *world = Some(t.clone());
    Ok(t)
}

/// Ends MPI in this process if a world was opened (call once, after the last launch; exiting
/// without it makes `mpirun` report the process as failed).
pub fn finalize() -> Result<(), RuntimeError> {
    match &*WORLD.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(t) => {
            if let Some(line) = phases::report(t.peers.rank) {
                eprintln!("weft mpi phases: {line}");
            }
            Ok(t.peers.finalize()?)
        }
        None => Ok(()),
    }
}

impl MpiTransport {
    /// The element-wise maximum of `vals` over every process (benches agree on timings).
    pub fn agree_max(&self, what: &str, vals: &[u64]) -> Result<Vec<u64>, RuntimeError> {
        Ok(self.peers.agree(what, vals)?)
    }

    pub(super) fn new(o: &MpiOptions) -> Result<MpiTransport, RuntimeError> {
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
        // The deadlock watch tells workers apart by a slot entry each; sharing one could hide a
        // computing instance and raise a false deadlock.
        opts.workers = opts.workers.min(super::sync::WATCHED_WORKERS);
        let heap = Heap::from_segments(segs.bases, usable, peers.rank);
        let pool = Pool::new(opts.workers)?;
        let self_closing = std::env::var("WEFT_MPI_SELF_CLOSING").map_or(true, |v| v.trim() != "0");
        Ok(MpiTransport { peers, heap, pool, opts, launch_lock: Mutex::new(()), self_closing })
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

    /// Checks every process issued the call with fingerprint `h` here (a barrier too);
    /// `call` says what it was, for errors.
    fn same_call(&self, h: u64, call: impl Fn() -> String) -> Result<(), RuntimeError> {
        let max = self.peers.agree("a host step", &[h, !h]).map_err(|e| named(e, &call))?;
        if max != [h, !h] {
            return Err(MpiError::Mismatch { rank: self.peers.rank, call: call() }.into());
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
        let call = || format!("alloc of {bytes} bytes");
        self.same_call(text_hash(&call()), call)?;
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
        self.peers.launches.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Every process's host writes are done before any kernel touches a peer's memory:
        // each kernel waits for a peer's arrival at its first access to it (see `arrival`).
        let call = LaunchCall { kernel: &kernel.name, grid, args };
        let h = call.hash();
        {
            let _t = phases::time(Phase::Announce);
            self.peers.announce(h)?;
        }
        let here = Here { fns: &ops::MPI_FNS, ranks: self.host_ranks(), remote: Some(self.peers) };
        let r = {
            let _t = phases::time(Phase::Kernel);
            sched::run(&self.pool, &self.heap, &self.opts, &here, kernel, grid, args, opts)
        };
        // Tell the processes waiting on this one now, not at the deadlock timeout (a deadlock
        // or a peer's failure is theirs to see too).
        if matches!(&r, Err(e) if !matches!(e, RuntimeError::Deadlock(_) | RuntimeError::Mpi(MpiError::PeerKernelFailed { .. }))) {
            self.peers.publish_failed();
        }
        self.peers.arrival_done();
        if opts.self_closing && self.self_closing {
            // The kernel's own waits ordered it (see `sync`); its success is confirmed by the
            // next step that completes, and its failure ends this world (see `deferred`).
            // Its phases are recorded all the same (no closing phases).
            phases::closing(false);
            // Matched by reference: moving the result through combinators copied it twice.
            match &r {
                Ok(_) => self.peers.defer_close(),
                Err(_) => self.peers.break_world(),
            }
            return r;
        }
        // And no process reads results or reuses memory before every kernel is done; a kernel
        // that touched no peer learns here whether the others launched the same.
        let sync = self.peers.sync();
        phases::closing(true);
        let m = self.peers.agree("a launch", &[u64::from(r.is_err()), h, !h, sync.kernel_steps()]);
        phases::closing(false);
        let m = m.map_err(|e| named(e, || call.describe()))?;
        sync.resync_kernel(m[3]);
        match r {
            Ok(_) if m[1..3] != [h, !h] => Err(MpiError::Mismatch { rank: self.peers.rank, call: call.describe() }.into()),
            Ok(_) if m[0] != 0 => Err(MpiError::PeerFailed { rank: self.peers.rank, what: format!("launch of `{}`", kernel.name) }.into()),
            r => r,
        }
    }
}
