//! The other processes of an `mpi` world: node layout, the symmetric heap's windows, and the
//! MPI calls kernels and the host make. Every MPI call goes through one lock (the library is
//! initialised `MPI_THREAD_SERIALIZED`); none is held across a coroutine switch.

use super::error::MpiError;
use super::idle::Idle;
use super::sync::{slot_bytes, Chan, NodeSync, Slot};
use super::sys::{self, Mpi, MPI_Comm, MPI_Win};
use crate::local::state::{Blocked, Inst};
use crate::topology::Topology;
use std::ffi::c_void;
use std::sync::atomic::AtomicU64;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// This process's rank, the layout, and the windows over the symmetric heap.
pub struct Peers {
    pub(crate) mpi: Mpi,
    lock: Mutex<()>,
    /// This process's world rank.
    pub rank: usize,
    /// Nodes × ranks per node.
    pub topology: Topology,
    /// For barriers inside kernels.
    kernel_comm: MPI_Comm,
    /// For the host's collective steps (launch, alloc, verdicts).
    host_comm: MPI_Comm,
    /// The world window over every rank's heap, for ranks on other nodes (`None` on one node).
    world_win: Option<MPI_Win>,
    /// How long a host step waits for the other processes.
    pub host_timeout: Duration,
    /// How long a wait spins, then yields, before it sleeps (see `idle`).
    pub(super) budget: super::idle::Budget,
    /// Whether Open MPI yields the core inside an idle progress call (see `idle`).
    mpi_yields: bool,
    /// Whether puts, gets and their flushes keep Open MPI's yield when idle
    /// (`WEFT_MPI_FLUSH_YIELD=1`; see [`Peers::no_yield`]).
    flush_yields: bool,
    /// MPI progress calls (`MPI_Iprobe`, `MPI_Test`) so far, for benches.
    pub(super) progress_calls: AtomicU64,
    /// Host steps and kernel barriers through the node's shared memory (set once the heap is mapped).
    sync: Option<NodeSync>,
    /// One host step at a time in this process.
    pub(super) host_step: Mutex<()>,
    /// Heap bytes mapped per rank: the slot of [`NodeSync`] follows them.
    map_bytes: usize,
    /// Launches so far (activity published to other processes tells them apart).
    pub(crate) launches: AtomicU64,
    /// The host step of the launch under way, joined lazily (0: none; see `arrival`).
    pub(super) arrival_seq: AtomicU64,
    /// That launch's call hash.
    pub(super) arrival_hash: AtomicU64,
    /// The last launch whose closing step was deferred, if no full step has confirmed it
    /// since (0: none; see `deferred`).
    pub(super) unconfirmed: AtomicU64,
    /// A launch without a closing step that failed here (0: none; see `deferred`).
    pub(super) broken: AtomicU64,
}

// SAFETY: the handles are used under `lock`.
unsafe impl Send for Peers {}
unsafe impl Sync for Peers {}

const PAGE: usize = 4096;

/// The heap as this process sees it, from [`Peers::open`].
pub struct Segments {
    /// Each rank's arena in this address space (null for ranks on other nodes).
    pub bases: Vec<*mut u8>,
}

fn info(mpi: &Mpi, rank: i32, pairs: &[(&str, &str)]) -> Result<sys::MPI_Info, MpiError> {
    let mut i: sys::MPI_Info = std::ptr::null_mut();
    mpi.check(unsafe { mpi.f.MPI_Info_create(&mut i) }, rank, "MPI_Info_create")?;
    for (k, v) in pairs {
        let (k, v) = (std::ffi::CString::new(*k).unwrap_or_default(), std::ffi::CString::new(*v).unwrap_or_default());
        mpi.check(unsafe { mpi.f.MPI_Info_set(i, k.as_ptr(), v.as_ptr()) }, rank, "MPI_Info_set")?;
    }
    Ok(i)
}

impl Peers {
    /// Initialises MPI, splits the processes into `nodes` groups (`None`: the machines they
    /// run on) and maps a `map_bytes` heap per rank: one shared window per node, plus a world
    /// window when there are several nodes.
    pub fn open(nodes: Option<usize>, map_bytes: usize, host_timeout: Duration) -> Result<(Peers, Segments), MpiError> {
        if std::env::var_os("OMPI_MCA_osc").is_none() {
            // osc/ucx hangs without an RDMA network; sm (one node) and rdma/pt2pt work anywhere.
            // SAFETY: set before MPI starts any thread; weft reads no environment concurrently here.
            unsafe { std::env::set_var("OMPI_MCA_osc", "^ucx") };
        }
        let mpi = Mpi::load()?;
        let f = &mpi.f;
        let mut inited = 0;
        mpi.check(unsafe { f.MPI_Initialized(&mut inited) }, -1, "MPI_Initialized")?;
        if inited != 0 {
            return Err(MpiError::Layout("MPI is already initialised in this process (open one mpi world per process)".into()));
        }
        let mut provided = 0;
        mpi.check(unsafe { f.MPI_Init_thread(std::ptr::null_mut(), std::ptr::null_mut(), sys::MPI_THREAD_SERIALIZED as i32, &mut provided) }, -1, "MPI_Init_thread")?;
        mpi.check(unsafe { f.MPI_Comm_set_errhandler(mpi.comm_world, mpi.errors_return) }, -1, "MPI_Comm_set_errhandler")?;
        let (mut rank, mut size) = (0, 0);
        mpi.check(unsafe { f.MPI_Comm_rank(mpi.comm_world, &mut rank) }, -1, "MPI_Comm_rank")?;
        mpi.check(unsafe { f.MPI_Comm_size(mpi.comm_world, &mut size) }, rank, "MPI_Comm_size")?;
        let dup = |what: &str| -> Result<MPI_Comm, MpiError> {
            let mut c: MPI_Comm = std::ptr::null_mut();
            mpi.check(unsafe { f.MPI_Comm_dup(mpi.comm_world, &mut c) }, rank, what)?;
            Ok(c)
        };
        let (kernel_comm, host_comm) = (dup("MPI_Comm_dup (kernel barriers)")?, dup("MPI_Comm_dup (host steps)")?);
        let mut node_comm: MPI_Comm = std::ptr::null_mut();
        mpi.check(unsafe { f.MPI_Comm_split_type(mpi.comm_world, sys::MPI_COMM_TYPE_SHARED as i32, rank, mpi.info_null, &mut node_comm) }, rank, "MPI_Comm_split_type")?;
        let mut local_size = 0;
        mpi.check(unsafe { f.MPI_Comm_size(node_comm, &mut local_size) }, rank, "MPI_Comm_size (node)")?;
        if let Some(n) = nodes {
            // Emulated nodes: consecutive groups of size/n ranks, within the real machines.
            if n == 0 || !(size as usize).is_multiple_of(n) {
                return Err(MpiError::Layout(format!("{size} processes cannot be split into {n} nodes")));
            }
            let per = size / n as i32;
            let mut sub: MPI_Comm = std::ptr::null_mut();
            mpi.check(unsafe { f.MPI_Comm_split(node_comm, rank / per, rank, &mut sub) }, rank, "MPI_Comm_split (nodes)")?;
            node_comm = sub;
            mpi.check(unsafe { f.MPI_Comm_size(node_comm, &mut local_size) }, rank, "MPI_Comm_size (node)")?;
        }
        let mut local_rank = 0;
        mpi.check(unsafe { f.MPI_Comm_rank(node_comm, &mut local_rank) }, rank, "MPI_Comm_rank (node)")?;
        let topology = Topology { nodes: (size / local_size.max(1)) as usize, local_size: local_size as usize };
        let mut peers = Peers {
            mpi,
            lock: Mutex::new(()),
            rank: rank as usize,
            topology,
            kernel_comm,
            host_comm,
            world_win: None,
            host_timeout,
            budget: super::idle::Budget::from_env(local_size as usize),
            mpi_yields: super::idle::mpi_yields(local_size as usize),
            flush_yields: std::env::var("WEFT_MPI_FLUSH_YIELD").is_ok_and(|v| v.trim() == "1"),
            progress_calls: AtomicU64::new(0),
            sync: None,
            host_step: Mutex::new(()),
            map_bytes,
            launches: AtomicU64::new(0),
            arrival_seq: AtomicU64::new(0),
            arrival_hash: AtomicU64::new(0),
            unconfirmed: AtomicU64::new(0),
            broken: AtomicU64::new(0),
        };
        // weft's topology numbers ranks node by node; check every process sees that layout.
        let fits = size % local_size == 0 && local_rank == rank % local_size;
        let worst = peers.agree("checking the node layout", &[u64::from(!fits), local_size as u64, u64::MAX - local_size as u64])?;
        if worst[0] != 0 || worst[1] + worst[2] != u64::MAX {
            return Err(MpiError::Layout(format!("ranks must fill nodes in order with the same count per node (rank {rank} is local rank {local_rank} of {local_size}); run mpirun with --map-by slot")));
        }
        let segs = peers.map_heap(node_comm, local_rank, map_bytes)?;
        Ok((peers, segs))
    }

    fn check(&self, rc: i32, call: &str) -> Result<(), MpiError> {
        self.mpi.check(rc, self.rank as i32, call)
    }

    /// The communicator of host steps (benches time MPI's collectives on it).
    pub(crate) fn host_comm(&self) -> MPI_Comm {
        self.host_comm
    }

    /// Holds the MPI lock for a sequence of host-side calls.
    pub(crate) fn lock_for_host(&self) -> MutexGuard<'_, ()> {
        self.locked()
    }

    fn locked(&self) -> MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn map_heap(&mut self, node_comm: MPI_Comm, local_rank: i32, map_bytes: usize) -> Result<Segments, MpiError> {
        let f = &self.mpi.f;
        let rank = self.rank as i32;
        // Each rank's segment page-aligned on its own (not packed after its neighbour's).
        let inf = info(&self.mpi, rank, &[("alloc_shared_noncontig", "true")])?;
        let mut base: *mut c_void = std::ptr::null_mut();
        let mut win: MPI_Win = std::ptr::null_mut();
        // MPI's segments are only 8-byte aligned: each rank's heap starts at the next page.
        let seg_bytes = map_bytes + slot_bytes(self.topology.world_size());
        let rc = unsafe { f.MPI_Win_allocate_shared((seg_bytes + PAGE) as _, 1, inf, node_comm, &mut base as *mut *mut c_void as *mut c_void, &mut win) };
        let mut inf = inf;
        unsafe { f.MPI_Info_free(&mut inf) };
        self.check(rc, &format!("MPI_Win_allocate_shared ({map_bytes} bytes per rank; lower WEFT_HEAP_SIZE)"))?;
        self.check(unsafe { f.MPI_Win_set_errhandler(win, self.mpi.errors_return) }, "MPI_Win_set_errhandler")?;
        let t = self.topology;
        let first = self.rank - local_rank as usize;
        let mut bases = vec![std::ptr::null_mut(); t.world_size()];
        for q in 0..t.local_size {
            let (mut sz, mut disp, mut ptr) = (0, 0, std::ptr::null_mut::<c_void>());
            self.check(unsafe { f.MPI_Win_shared_query(win, q as i32, &mut sz, &mut disp, &mut ptr as *mut *mut c_void as *mut c_void) }, "MPI_Win_shared_query")?;
            bases[first + q] = (ptr as *mut u8).wrapping_add((ptr as usize).next_multiple_of(PAGE) - ptr as usize);
        }
        if t.nodes > 1 {
            let mut w: MPI_Win = std::ptr::null_mut();
            // Displacements count from the aligned heap start.
            let mine = bases[self.rank] as *mut c_void;
            self.check(unsafe { f.MPI_Win_create(mine, seg_bytes as _, 1, self.mpi.info_null, self.kernel_comm, &mut w) }, "MPI_Win_create (world window)")?;
            self.check(unsafe { f.MPI_Win_set_errhandler(w, self.mpi.errors_return) }, "MPI_Win_set_errhandler")?;
            self.check(unsafe { f.MPI_Win_lock_all(sys::MPI_MODE_NOCHECK as i32, w) }, "MPI_Win_lock_all")?;
            self.world_win = Some(w);
        }
        // The slots: each process clears its own, and nobody reads one before all are clear.
        let slots: Vec<*const Slot> = bases[first..first + t.local_size].iter().map(|b| unsafe { b.add(map_bytes) } as *const Slot).collect();
        unsafe { std::ptr::write_bytes(slots[local_rank as usize] as *mut u8, 0, slot_bytes(t.world_size())) };
        self.agree("clearing the node's step slots", &[0])?;
        self.sync = Some(NodeSync::new(slots, local_rank as usize, t.world_size()));
        Ok(Segments { bases })
    }

    /// The node's step slots (mapped by [`Peers::open`]).
    pub(crate) fn sync(&self) -> &NodeSync {
        self.sync.as_ref().expect("the heap is mapped when Peers::open returns")
    }

    /// Heap bytes mapped per rank (a rank's slot follows them).
    pub(crate) fn map_bytes(&self) -> usize {
        self.map_bytes
    }

    /// Waits for `req`, polling without holding the lock; `Err` after `timeout`.
    pub(crate) fn wait(&self, req: &mut sys::MPI_Request, what: &str, timeout: Duration) -> Result<(), MpiError> {
        let mut idle = Idle::new(self.budget);
        loop {
            if self.test(req, what)? {
                return Ok(());
            }
            if idle.waited() > timeout {
                return Err(MpiError::Timeout { rank: self.rank, what: what.into(), waited_ms: timeout.as_millis() });
            }
            // MPI only progresses inside MPI_Test: poll again after the pause.
            idle.pause_after(self.mpi_yields);
        }
    }

    /// The element-wise maximum of `vals` over every process (a host step, so also a barrier).
    pub fn agree(&self, what: &str, vals: &[u64]) -> Result<Vec<u64>, MpiError> {
        self.check_broken()?;
        if self.sync.is_some() && vals.len() <= super::sync::VALS {
            return self.agree_on_node(what, vals);
        }
        let mut out = vec![0u64; vals.len()];
        let mut req: sys::MPI_Request = std::ptr::null_mut();
        let rc = {
            let _g = self.locked();
            unsafe { self.mpi.f.MPI_Iallreduce(vals.as_ptr() as *const c_void, out.as_mut_ptr() as *mut c_void, vals.len() as i32, self.mpi.u64, self.mpi.max, self.host_comm, &mut req) }
        };
        self.check(rc, &format!("MPI_Iallreduce ({what})"))?;
        self.wait(&mut req, what, self.host_timeout)?;
        Ok(out)
    }

    /// Lets MPI move one-sided traffic that needs the target's help (accumulates: a polling
    /// instance calls it). Whether the call may have given the core away already (pass it to
    /// [`Peers::pause`] or [`Idle::pause_after`]).
    pub(crate) fn progress(&self) -> bool {
        if self.world_win.is_none() {
            return false;
        }
        let Ok(_g) = self.lock.try_lock() else { return false };
        self.progress_calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut flag = 0;
        unsafe { self.mpi.f.MPI_Iprobe(sys::MPI_ANY_SOURCE, sys::MPI_ANY_TAG, self.kernel_comm, &mut flag, sys::status_ignore()) };
        self.mpi_yields
    }

    /// MPI progress calls this process has made (`MPI_Iprobe`, `MPI_Test`; benches count
    /// them per launch).
    pub fn progress_calls(&self) -> u64 {
        self.progress_calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The process-level half of `barrier_all`: complete this process's one-sided traffic,
    /// then meet every other process, yielding while they have not all arrived.
    pub(crate) fn barrier(&self, i: &mut Inst, site: i32) {
        if let Err(e) = self.flush_all() {
            i.fault(site, e.to_string());
        }
        let step = match self.start_step(Chan::Kernel, &[]) {
            Ok(s) => s,
            Err(e) => i.fault(site, e.to_string()),
        };
        while self.poll_step(&step).is_none() {
            i.block(Blocked::Barrier { site });
        }
    }

    fn win(&self) -> Result<MPI_Win, MpiError> {
        self.world_win.ok_or_else(|| MpiError::Layout("no world window: every rank is on this node".into()))
    }

    /// `MPI_Put` of `bytes` from `src` to byte `disp` of `pe`'s heap.
    pub(crate) fn put(&self, src: *const u8, bytes: usize, pe: usize, disp: usize) -> Result<(), MpiError> {
        let w = self.win()?;
        let _g = self.locked();
        self.no_yield(|| {
            for (s, d, n) in chunks(src as usize, disp, bytes) {
                self.check(unsafe { self.mpi.f.MPI_Put(s as *const c_void, n, self.mpi.byte, pe as i32, d as _, n, self.mpi.byte, w) }, "MPI_Put")?;
            }
            Ok(())
        })
    }

    /// `MPI_Get` of `bytes` from byte `disp` of `pe`'s heap into `dst`.
    pub(crate) fn get(&self, dst: *mut u8, bytes: usize, pe: usize, disp: usize) -> Result<(), MpiError> {
        let w = self.win()?;
        let _g = self.locked();
        self.no_yield(|| {
            for (s, d, n) in chunks(dst as usize, disp, bytes) {
                self.check(unsafe { self.mpi.f.MPI_Get(s as *mut c_void, n, self.mpi.byte, pe as i32, d as _, n, self.mpi.byte, w) }, "MPI_Get")?;
            }
            Ok(())
        })
    }

    /// Sets (`add == false`) or adds `value` to the u64 at byte `disp` of `pe`'s heap, complete
    /// at the target when this returns.
    pub(crate) fn signal(&self, value: u64, add: bool, pe: usize, disp: usize) -> Result<(), MpiError> {
        let w = self.win()?;
        let _g = self.locked();
        let op = if add { self.mpi.sum } else { self.mpi.replace };
        let v = value;
        self.check(unsafe { self.mpi.f.MPI_Accumulate(&v as *const u64 as *const c_void, 1, self.mpi.u64, pe as i32, disp as _, 1, self.mpi.u64, op, w) }, "MPI_Accumulate (signal)")?;
        self.check(unsafe { self.mpi.f.MPI_Win_flush(pe as i32, w) }, "MPI_Win_flush")
    }

    /// Completes every one-sided operation to `pe` at the target (puts and gets only: a
    /// signal completes its own).
    pub(crate) fn flush(&self, pe: usize) -> Result<(), MpiError> {
        let w = self.win()?;
        let _g = self.locked();
        self.no_yield(|| self.check(unsafe { self.mpi.f.MPI_Win_flush(pe as i32, w) }, "MPI_Win_flush"))
    }

    /// Completes every one-sided operation of this process (nothing to do on one node).
    pub(crate) fn flush_all(&self) -> Result<(), MpiError> {
        let Some(w) = self.world_win else { return Ok(()) };
        let _g = self.locked();
        self.no_yield(|| self.check(unsafe { self.mpi.f.MPI_Win_flush_all(w) }, "MPI_Win_flush_all"))
    }

    /// Runs `f` (MPI calls, under the lock) with Open MPI's yield when idle off. Puts and gets
    /// complete in the caller (vader's single copy, CMA: no help from the target), yet every
    /// `MPI_Win_flush` makes at least one progress call, which on oversubscribed cores gives the
    /// core away when it found nothing to do: to another rank, for its time slice, in the middle
    /// of this rank's step (64-byte put + flush, 4 processes on 2 cores under load: 1.7 µs
    /// without, 24-98 µs with). Accumulates need the target's progress and keep the yield, as
    /// do waits ([`Peers::progress`]) and Open MPI's own collectives.
    fn no_yield<T>(&self, f: impl FnOnce() -> T) -> T {
        let Some(p) = self.mpi.yield_when_idle.filter(|_| !self.flush_yields) else { return f() };
        // SAFETY: Open MPI's global flag, read only inside MPI calls, which this lock serialises.
        let was = unsafe { p.read_volatile() };
        unsafe { p.write_volatile(false) };
        let r = f();
        unsafe { p.write_volatile(was) };
        r
    }

    /// Ends MPI in this process (after every launch).
    pub(crate) fn finalize(&self) -> Result<(), MpiError> {
        let _g = self.locked();
        self.check(unsafe { self.mpi.f.MPI_Finalize() }, "MPI_Finalize")
    }
}

/// MPI counts are `int`: splits a transfer into pieces of at most 1 GiB.
fn chunks(local: usize, disp: usize, bytes: usize) -> impl Iterator<Item = (usize, usize, i32)> {
    const MAX: usize = 1 << 30;
    (0..bytes.div_ceil(MAX)).map(move |c| {
        let o = c * MAX;
        (local + o, disp + o, (bytes - o).min(MAX) as i32)
    })
}
