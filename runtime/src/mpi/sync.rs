//! Host steps and kernel barriers between the processes of a node through their shared
//! window, without MPI: MPI's own collectives cost several microseconds each, and a launch
//! needs two host steps plus a barrier or two in the kernel, which made small collectives many
//! times slower than `MPI_Allgather` itself. Across nodes one process per node (the node's
//! leader) meets the other leaders with MPI, between a node-level gather and a node-level
//! release through shared memory.
//!
//! Each process owns a [`Slot`] at the end of its shared segment. A step `s` on a channel:
//! write this process's values into the slot's buffer `s % 4`, then publish `seq = s`; once
//! every node peer has published `s`, each reads everyone's values and takes the maximum. A
//! launch's opening step is joined lazily (published, never waited for as a whole; see
//! `arrival`), but it is always followed by a full step, so no two steps in a row are lazy.
//! Four buffers then suffice: a process starting step `s + 4` has completed a full step
//! `s + 2` or `s + 3`, for which every peer had published it, that is, finished step `s`.
//! (Two would not: after a full `s`, a lazy `s + 1` and a full `s + 2` a fast process could
//! overwrite buffer `s % 2` while a slow one still reads its step `s`.)

use super::error::MpiError;
use super::idle::Idle;
use super::sys::{self, MPI_Comm, MPI_Request};
use super::Peers;
use std::sync::atomic::{AtomicU64, Ordering};

/// Values a step carries (more go through MPI).
pub(crate) const VALS: usize = 4;
/// Value buffers per channel (see the module notes).
const BUFS: usize = 4;

/// One channel's words in a slot. Host steps and kernel barriers use separate channels (as
/// they used separate communicators): a process whose kernel failed and went on to the
/// host's failure step must not meet another's kernel barrier.
///
/// Plain `repr(C)` with padding rather than `align(128)`: MPI hands out segments that are only
/// 8-byte aligned, and the cross-node reads of [`Slot`] need the same offsets everywhere.
#[repr(C)]
struct Channel {
    seq: AtomicU64,
    vals: [[AtomicU64; VALS]; BUFS],
    /// The leader's result of the cross-node step (several nodes only).
    result_seq: AtomicU64,
    result: [[AtomicU64; VALS]; 2],
    /// Keeps channels on separate cache lines.
    _pad: [u64; 6],
}

/// What other processes can see of this one: its channels and its launch activity.
/// All zeroes is the initial state.
#[repr(C)]
pub(crate) struct Slot {
    chans: [Channel; 2],
    /// The launch's progress counter, as of this process's worker's last round (with the
    /// launch number in the high bits, so consecutive launches differ).
    pub progress: AtomicU64,
    /// Per worker thread, bumped when it enters an instance and again when it leaves: odd
    /// while inside (per worker, so that one worker computing shows through others polling).
    pub resumes: [AtomicU64; WATCHED_WORKERS],
    /// The number of this process's last launch whose kernel failed (see `failure`).
    pub failed: AtomicU64,
}

/// Worker threads whose instance entries a slot records (the transport runs at most this many:
/// two sharing an entry could look idle while both compute).
pub(crate) const WATCHED_WORKERS: usize = 64;

/// Bytes reserved at the end of each process's shared segment for its slot.
pub(crate) const SLOT_BYTES: usize = 4096;
const _: () = assert!(std::mem::size_of::<Slot>() <= SLOT_BYTES);

/// Which channel a step uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chan {
    /// Host steps (launch, alloc, verdicts, timings).
    Host = 0,
    /// `barrier_all` inside kernels.
    Kernel = 1,
}

/// The node's slots and the leaders' communicators.
pub(crate) struct NodeSync {
    /// Every node peer's slot, by local rank.
    slots: Vec<*const Slot>,
    local_rank: usize,
    /// One communicator per channel between the node leaders (several nodes, leaders only).
    leaders: Option<[MPI_Comm; 2]>,
    next: [AtomicU64; 2],
    /// Collectives this leader started on each channel's leaders' communicator (see `resync`).
    pub(super) leader_steps: [AtomicU64; 2],
}

/// A step under way.
pub(crate) struct Step {
    chan: Chan,
    seq: u64,
    phase: Phase,
    /// MPI's buffers (the leaders' phase only: a node's steps allocate nothing): they must not
    /// move while a request is pending.
    buf: Option<Box<[u64; 2 * VALS]>>,
}

impl Step {
    /// The step's number on its channel.
    pub(crate) fn seq(&self) -> u64 {
        self.seq
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        // A step abandoned mid-flight (a timeout, an aborted kernel) may leave MPI a request
        // that still writes into `buf`: leak it rather than let MPI write into freed memory.
        if matches!(self.phase, Phase::Leaders(_)) {
            std::mem::forget(self.buf.take());
        }
    }
}

enum Phase {
    Node,
    Leaders(MPI_Request),
    Result,
}

impl NodeSync {
    /// `slots[q]` is local rank `q`'s slot; `leaders` the leaders' communicators (one per
    /// channel) when there are several nodes and this process leads its node.
    pub(crate) fn new(slots: Vec<*const Slot>, local_rank: usize, leaders: Option<[MPI_Comm; 2]>) -> NodeSync {
        NodeSync { slots, local_rank, leaders, next: Default::default(), leader_steps: Default::default() }
    }

    /// The leaders' communicator of `chan` (several nodes, leaders only).
    pub(super) fn leader_comm(&self, chan: Chan) -> Option<MPI_Comm> {
        self.leaders.map(|c| c[chan as usize])
    }

    /// Local rank `q`'s slot.
    pub(crate) fn slot_of(&self, q: usize) -> &Slot {
        // SAFETY: the shared window outlives the process's MPI world (never freed).
        unsafe { &*self.slots[q] }
    }

    /// This process's slot.
    pub(crate) fn mine(&self) -> &Slot {
        self.slot_of(self.local_rank)
    }

    /// Publishes `vals` (at most [`VALS`]) and starts a step; poll it with [`Peers::poll_step`].
    pub(crate) fn start(&self, chan: Chan, vals: &[u64]) -> Step {
        let c = chan as usize;
        let seq = self.next[c].fetch_add(1, Ordering::AcqRel) + 1;
        let ch = &self.mine().chans[c];
        for (k, w) in ch.vals[(seq % BUFS as u64) as usize].iter().enumerate() {
            w.store(vals.get(k).copied().unwrap_or(0), Ordering::Relaxed);
        }
        ch.seq.store(seq, Ordering::Release);
        Step { chan, seq, phase: Phase::Node, buf: None }
    }
}

impl NodeSync {
    /// Kernel barriers this process has started.
    pub(crate) fn kernel_steps(&self) -> u64 {
        self.next[Chan::Kernel as usize].load(Ordering::Acquire)
    }

    /// Catches up with the processes that started `steps` kernel barriers: after a failed
    /// launch some processes met a barrier that others never reached, and without this the
    /// next launch's barriers would pair one process's step `s` with another's `s + 1`.
    pub(crate) fn resync_kernel(&self, steps: u64) {
        self.next[Chan::Kernel as usize].fetch_max(steps, Ordering::AcqRel);
    }
}

impl Peers {
    /// Advances `step`; its values' maxima over every process once everyone took part.
    pub(crate) fn poll_step(&self, step: &mut Step) -> Result<Option<[u64; VALS]>, MpiError> {
        let sync = self.sync();
        let (c, buf, par) = (step.chan as usize, (step.seq % BUFS as u64) as usize, (step.seq % 2) as usize);
        loop {
            match &mut step.phase {
                Phase::Node => {
                    let n = sync.slots.len();
                    if (0..n).any(|q| sync.slot_of(q).chans[c].seq.load(Ordering::Acquire) < step.seq) {
                        return Ok(None);
                    }
                    let mut max = [0u64; VALS];
                    for q in 0..n {
                        for (m, w) in max.iter_mut().zip(&sync.slot_of(q).chans[c].vals[buf]) {
                            *m = (*m).max(w.load(Ordering::Relaxed));
                        }
                    }
                    if self.topology.nodes == 1 {
                        return Ok(Some(max));
                    }
                    step.phase = match sync.leaders {
                        Some(comms) => {
                            let buf = step.buf.insert(Box::new([0; 2 * VALS]));
                            buf[..VALS].copy_from_slice(&max);
                            Phase::Leaders(self.start_leaders(step.chan, comms[c], buf)?)
                        }
                        None => Phase::Result,
                    };
                }
                Phase::Leaders(req) => {
                    if !self.test(req, "MPI_Iallreduce (node leaders)")? {
                        return Ok(None);
                    }
                    let ch = &sync.mine().chans[c];
                    let mut out = [0u64; VALS];
                    if let Some(buf) = &step.buf {
                        out.copy_from_slice(&buf[VALS..]);
                    }
                    for (w, v) in ch.result[par].iter().zip(out) {
                        w.store(v, Ordering::Relaxed);
                    }
                    ch.result_seq.store(step.seq, Ordering::Release);
                    return Ok(Some(out));
                }
                Phase::Result => {
                    let ch = &sync.slot_of(0).chans[c];
                    if ch.result_seq.load(Ordering::Acquire) < step.seq {
                        return Ok(None);
                    }
                    let mut out = [0u64; VALS];
                    for (o, w) in out.iter_mut().zip(&ch.result[par]) {
                        *o = w.load(Ordering::Relaxed);
                    }
                    return Ok(Some(out));
                }
            }
        }
    }

    /// Starts the leaders' maximum of `buf`'s first half into its second on `chan`'s `comm`.
    pub(super) fn start_leaders(&self, chan: Chan, comm: MPI_Comm, buf: &mut [u64; 2 * VALS]) -> Result<MPI_Request, MpiError> {
        self.sync().leader_steps[chan as usize].fetch_add(1, Ordering::AcqRel);
        let mut req: MPI_Request = std::ptr::null_mut();
        let (src, dst) = buf.split_at_mut(VALS);
        let rc = {
            let _g = self.lock_for_host();
            unsafe { self.mpi.f.MPI_Iallreduce(src.as_ptr() as *const _, dst.as_mut_ptr() as *mut _, VALS as i32, self.mpi.u64, self.mpi.max, comm, &mut req) }
        };
        self.mpi.check(rc, self.rank as i32, "MPI_Iallreduce (node leaders)")?;
        Ok(req)
    }

    /// Whether `req` completed (`MPI_Test`).
    pub(crate) fn test(&self, req: &mut MPI_Request, what: &str) -> Result<bool, MpiError> {
        let mut done = 0;
        self.progress_calls.fetch_add(1, Ordering::Relaxed);
        let rc = {
            let _g = self.lock_for_host();
            unsafe { self.mpi.f.MPI_Test(req, &mut done, sys::status_ignore()) }
        };
        self.mpi.check(rc, self.rank as i32, what)?;
        Ok(done != 0)
    }
}

impl Peers {
    /// [`Peers::agree`] through the node's slots: the element-wise maximum of `vals` (at most
    /// [`VALS`]) over every process, waiting at most the host timeout.
    pub(crate) fn agree_on_node(&self, what: &str, vals: &[u64]) -> Result<Vec<u64>, MpiError> {
        let _one = self.host_step.lock().unwrap_or_else(|e| e.into_inner());
        let mut step = self.sync().start(Chan::Host, vals);
        let mut idle = Idle::new(self.spin);
        loop {
            if let Some(max) = self.poll_step(&mut step)? {
                return Ok(max[..vals.len()].to_vec());
            }
            if idle.waited() > self.host_timeout {
                return Err(MpiError::Timeout { rank: self.rank, what: what.into(), waited_ms: self.host_timeout.as_millis() });
            }
            // One-sided traffic from other nodes may need this process's help to complete.
            let yielded = self.progress();
            idle.pause_after(yielded);
        }
    }
}

impl NodeSync {
    /// Whether local rank `q` has published host step `seq` (`None`: not yet), and with the
    /// values `vals` (`Some(false)`: a different call).
    pub(crate) fn published(&self, q: usize, seq: u64, vals: [u64; 2]) -> Option<bool> {
        let ch = &self.slot_of(q).chans[Chan::Host as usize];
        if ch.seq.load(Ordering::Acquire) < seq {
            return None;
        }
        let got = &ch.vals[(seq % BUFS as u64) as usize];
        Some(got[0].load(Ordering::Relaxed) == vals[0] && got[1].load(Ordering::Relaxed) == vals[1])
    }

    /// [`NodeSync::published`] on a copy of a slot's first [`HOST_WORDS`] words (a rank on
    /// another node, read with `MPI_Get`).
    pub(crate) fn published_in(words: &[u64; HOST_WORDS], seq: u64, vals: [u64; 2]) -> Option<bool> {
        if words[0] < seq {
            return None;
        }
        let at = 1 + (seq % BUFS as u64) as usize * VALS;
        Some(words[at..at + 2] == vals)
    }
}

/// The words of a host channel's `seq` and value buffers, as `MPI_Get` reads them.
pub(crate) const HOST_WORDS: usize = 1 + BUFS * VALS;

/// The byte offset of the host channel in a slot.
pub(crate) const fn host_channel_offset() -> usize {
    std::mem::offset_of!(Slot, chans) + Chan::Host as usize * std::mem::size_of::<Channel>()
}

/// Keeps [`NodeSync::published_in`]'s reading of a channel's layout.
const _: () = assert!(std::mem::offset_of!(Channel, seq) == 0 && std::mem::offset_of!(Channel, vals) == 8);
