//! Host steps and kernel barriers between processes through their slots, without MPI's
//! collectives: those cost several microseconds each, and a launch needs two host steps plus a
//! barrier or two in the kernel, which made small collectives many times slower than
//! `MPI_Allgather` itself.
//!
//! Each process owns a [`Slot`] at the end of its shared segment, followed by its records (see
//! below). A step `s` on a channel: write this process's values into the slot's buffer
//! `s % 4`, then publish `seq = s`, so node peers see it by load; and put the same values as
//! one record into each other node, into the records of the rank there with this process's
//! local index (a `MPI_Put` per other node, one flush), where that rank's node peers read it
//! by load too. Once every node peer has published `s` and every other rank's record for `s`
//! has arrived, each reads everyone's values and takes the maximum: one wait, on its node's
//! memory. (A record into every rank of another node cost `local` puts per node, and each put
//! is a system call (CMA) on the critical path of every launch.) (It was three: the node's gather, the node leaders'
//! `MPI_Iallreduce`, the node's release.) A put needs nothing from its target (on one machine
//! it is a CMA copy), where an accumulate or a message waits until the target enters MPI.
//! A record's words carry a checksum, so a reader never takes a record the put is still
//! writing (a put is not atomic; a torn record fails the checksum and is read again).
//!
//! A launch's opening step is joined lazily (published, never waited for as a whole; see
//! `arrival`), but it is always followed by a full step, so no two steps in a row are lazy.
//! Four buffers then suffice: a process starting step `s + 4` has completed a full step
//! `s + 2` or `s + 3`, for which every peer had published it, that is, finished step `s`.
//! (Two would not: after a full `s`, a lazy `s + 1` and a full `s + 2` a fast process could
//! overwrite buffer `s % 2` while a slow one still reads its step `s`.) The same holds for
//! records, which are buffered the same way.
//!
//! A launch with `LaunchOptions::self_closing` (the AllGathers) has no closing step at all:
//! its opening step is lazy and the next step may be lazy too. The kernel's protocol stands in
//! for the step: (a) every peer's access to a rank's memory in the launch ends before that
//! rank's kernel does (each word is written once and awaited by its owner), so the host may
//! read results and reuse memory at once; (b) a rank's kernel ends only after every rank
//! announced the launch (it waits for every rank's row). Its next launch touches a peer only
//! once that peer announced it (see `arrival`), that is, finished this one: so the LL rows
//! need no second buffer, and one flag per launch tells launches apart. The four buffers
//! still hold: a process starting step `u` comes from a full step `u - 1`, a self-closing
//! launch `u - 1` (every peer published `u - 1`, by (b)), or a launch's opening step `u - 1`
//! after a full `u - 2`; so every peer has published `u - 2` and finished reading step
//! `u - 3` and all before (reads of a step end before the next step is published), and
//! the buffer `u % 4` it overwrites held step `u - 4`. What the closing step also did, its
//! failure verdict, is deferred (see `deferred`).

use super::bell::Bell;
use super::deferred::DeferredCheck;
use super::error::MpiError;
use super::idle::Idle;
use super::phases::{self, Phase};
use super::sys;
use super::Peers;
use std::sync::atomic::{AtomicU64, Ordering};

/// Values a step carries (more go through MPI).
pub(crate) const VALS: usize = 4;
/// Value buffers per channel (see the module notes).
const BUFS: usize = 4;

/// One channel's words in a slot. Host steps and kernel barriers use separate channels: a
/// process whose kernel failed and went on to the host's failure step must not meet
/// another's kernel barrier.
///
/// Plain `repr(C)` with padding rather than `align(128)`: MPI hands out segments that are only
/// 8-byte aligned, and the cross-node reads of [`Slot`] need the same offsets everywhere.
#[repr(C)]
struct Channel {
    seq: AtomicU64,
    vals: [[AtomicU64; VALS]; BUFS],
    /// Keeps channels on separate cache lines.
    _pad: [u64; 15],
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
    /// Rung by node peers after they write a signal here (see `bell`).
    pub bell: Bell,
}

/// Worker threads whose instance entries a slot records (the transport runs at most this many:
/// two sharing an entry could look idle while both compute).
pub(crate) const WATCHED_WORKERS: usize = 64;

/// A step's values as put into a rank on another node: `seq`, the values, a checksum.
const RECORD_WORDS: usize = 2 + VALS;
/// Where a slot's records start (after the slot, on a cache line of their own).
const RECORDS_AT: usize = std::mem::size_of::<Slot>().next_multiple_of(64);

/// Bytes reserved at the end of each process's shared segment for its slot and its records
/// (one per channel, writer and buffer) in a world of `world` ranks.
pub(crate) fn slot_bytes(world: usize) -> usize {
    (RECORDS_AT + 2 * world * BUFS * RECORD_WORDS * 8).next_multiple_of(4096)
}

/// The word index of writer `from`'s record for step `seq` on `chan` among a slot's records.
fn record_at(chan: Chan, world: usize, from: usize, seq: u64) -> usize {
    ((chan as usize * world + from) * BUFS + (seq % BUFS as u64) as usize) * RECORD_WORDS
}

/// A record's checksum (any torn mix of two records' words fails it, but for a 2^-64 chance).
fn checksum(words: &[u64]) -> u64 {
    words.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, &w| {
        let mut z = (h ^ w).wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

/// Which channel a step uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chan {
    /// Host steps (launch, alloc, verdicts, timings).
    Host = 0,
    /// `barrier_all` inside kernels.
    Kernel = 1,
}

/// The node's slots and this process's records.
pub(crate) struct NodeSync {
    /// Every node peer's slot, by local rank.
    slots: Vec<*const Slot>,
    local_rank: usize,
    /// The world's size (records are per world rank).
    world: usize,
    next: [AtomicU64; 2],
}

/// A step under way.
pub(crate) struct Step {
    chan: Chan,
    seq: u64,
}

impl Step {
    /// The step's number on its channel.
    pub(crate) fn seq(&self) -> u64 {
        self.seq
    }
}

impl NodeSync {
    /// `slots[q]` is local rank `q`'s slot (each followed by its records) in a world of `world`.
    pub(crate) fn new(slots: Vec<*const Slot>, local_rank: usize, world: usize) -> NodeSync {
        NodeSync { slots, local_rank, world, next: Default::default() }
    }

    /// Writer `from`'s record for step `seq` on `chan` (on another node), as read now from the
    /// records of the node peer with `from`'s local index: `None` until the whole record of
    /// that step is there.
    fn record(&self, chan: Chan, from: usize, seq: u64) -> Option<[u64; VALS]> {
        // SAFETY: the records follow each slot inside its segment (`slot_bytes`).
        let base = unsafe { (self.slots[from % self.slots.len()] as *const u8).add(RECORDS_AT) } as *const AtomicU64;
        let at = record_at(chan, self.world, from, seq);
        let mut w = [0u64; RECORD_WORDS];
        for (k, x) in w.iter_mut().enumerate() {
            *x = unsafe { &*base.add(at + k) }.load(Ordering::Acquire);
        }
        (w[0] == seq && w[RECORD_WORDS - 1] == checksum(&w[..RECORD_WORDS - 1])).then(|| {
            let mut v = [0u64; VALS];
            v.copy_from_slice(&w[1..1 + VALS]);
            v
        })
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

    /// This process's doorbell, for waits that outlive a borrow of the transport.
    pub(crate) fn my_bell(&self) -> &'static Bell {
        // SAFETY: as in `slot_of`: the window is never freed.
        unsafe { &(*self.slots[self.local_rank]).bell }
    }

    /// Publishes `vals` (at most [`VALS`]) to the node and starts a step (see
    /// [`Peers::start_step`], which tells the other nodes).
    fn start(&self, chan: Chan, vals: &[u64]) -> Step {
        let c = chan as usize;
        let seq = self.next[c].fetch_add(1, Ordering::AcqRel) + 1;
        let ch = &self.mine().chans[c];
        for (k, w) in ch.vals[(seq % BUFS as u64) as usize].iter().enumerate() {
            w.store(vals.get(k).copied().unwrap_or(0), Ordering::Relaxed);
        }
        ch.seq.store(seq, Ordering::Release);
        // Node peers asleep in this step wake now (see `bell`).
        if super::bell::on() {
            (0..self.slots.len()).filter(|&q| q != self.local_rank).for_each(|q| self.slot_of(q).bell.ring());
        }
        Step { chan, seq }
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
    /// Publishes `vals` (at most [`VALS`]) and starts a step: stored in this process's slot for
    /// the node, put into one rank of every other node (the one with this process's local
    /// index) as a record. Poll it with [`Peers::poll_step`].
    pub(crate) fn start_step(&self, chan: Chan, vals: &[u64]) -> Result<Step, MpiError> {
        let sync = self.sync();
        let step = sync.start(chan, vals);
        let t = self.topology;
        if t.nodes == 1 {
            return Ok(step);
        }
        let mut rec = [0u64; RECORD_WORDS];
        rec[0] = step.seq;
        for (r, v) in rec[1..1 + VALS].iter_mut().zip(vals) {
            *r = *v;
        }
        rec[RECORD_WORDS - 1] = checksum(&rec[..RECORD_WORDS - 1]);
        let here = t.node_of(self.rank);
        for to in (0..t.nodes).filter(|&n| n != here).map(|n| n * t.local_size + t.local_rank(self.rank)) {
            let disp = self.map_bytes() + RECORDS_AT + record_at(chan, t.world_size(), self.rank, step.seq) * 8;
            self.put(rec.as_ptr() as *const u8, RECORD_WORDS * 8, to, disp)?;
        }
        // `rec` is on this stack: complete the puts before it goes.
        self.flush_all()?;
        Ok(step)
    }

    /// The maxima of `step`'s values over every process once everyone took part.
    pub(crate) fn poll_step(&self, step: &Step) -> Option<[u64; VALS]> {
        let sync = self.sync();
        let (c, buf) = (step.chan as usize, (step.seq % BUFS as u64) as usize);
        let n = sync.slots.len();
        if (0..n).any(|q| sync.slot_of(q).chans[c].seq.load(Ordering::Acquire) < step.seq) {
            return None;
        }
        let mut max = [0u64; VALS];
        for q in 0..n {
            for (m, w) in max.iter_mut().zip(&sync.slot_of(q).chans[c].vals[buf]) {
                *m = (*m).max(w.load(Ordering::Relaxed));
            }
        }
        let t = self.topology;
        let here = t.node_of(self.rank);
        for from in (0..t.world_size()).filter(|&r| t.node_of(r) != here) {
            for (m, v) in max.iter_mut().zip(sync.record(step.chan, from, step.seq)?) {
                *m = (*m).max(v);
            }
        }
        Some(max)
    }

    /// Whether `req` completed (`MPI_Test`).
    pub(crate) fn test(&self, req: &mut sys::MPI_Request, what: &str) -> Result<bool, MpiError> {
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
        let step = {
            let _t = phases::time(Phase::ClosePublish);
            self.start_step(Chan::Host, vals)?
        };
        let _waited = phases::time(Phase::CloseWait);
        let mut idle = Idle::new(self.budget).with_bell(self.sync().my_bell());
        let mut deferred = DeferredCheck::default();
        loop {
            if let Some(max) = self.poll_step(&step) {
                self.confirm();
                return Ok(max[..vals.len()].to_vec());
            }
            // A process that failed the last launch without a closing step never joins.
            deferred.check(self, 0..self.topology.world_size())?;
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
    /// Whether rank `pe` (local rank `q` on this node, or on another node) has published host
    /// step `seq` (`None`: not yet), and with the values `vals` (`Some(false)`: a different call).
    pub(crate) fn published(&self, pe: usize, q: Option<usize>, seq: u64, vals: [u64; 2]) -> Option<bool> {
        let got = match q {
            Some(q) => {
                let ch = &self.slot_of(q).chans[Chan::Host as usize];
                if ch.seq.load(Ordering::Acquire) < seq {
                    return None;
                }
                let got = &ch.vals[(seq % BUFS as u64) as usize];
                [got[0].load(Ordering::Relaxed), got[1].load(Ordering::Relaxed)]
            }
            None => {
                let r = self.record(Chan::Host, pe, seq)?;
                [r[0], r[1]]
            }
        };
        Some(got == vals)
    }
}
