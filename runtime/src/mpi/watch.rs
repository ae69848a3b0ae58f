//! Deadlock detection across processes. A process whose instances all wait, with no progress
//! for the deadlock timeout, is stuck only if every other process is too: a peer computing
//! for longer than the timeout before it signals is slow, not stuck. Each process publishes
//! in its slot its launch's progress counter (every scheduling round) and, per worker thread,
//! a count of entries into and exits from program instances (odd while inside one). Halfway through the timeout
//! a waiting process takes a snapshot of every other process's pair; at the timeout it reads
//! them again. A peer is active if its progress moved, or if it is inside the very instance it
//! was inside at the snapshot (one resume spanning half a timeout: computing). Polling
//! instances that only yield change the count but never stay inside, so a world of waiters
//! is recognised.

use super::sync::{Slot, WATCHED_WORKERS};
use super::Peers;
use std::mem::offset_of;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// What a process sees of another: its progress and its workers' entry counts.
type Seen = [u64; 1 + WATCHED_WORKERS];

/// One worker's view of the other processes while it waits.
#[derive(Default)]
pub(crate) struct Watch {
    snapshot: Option<Vec<Seen>>,
    /// When the failure words of other nodes' ranks were last read (see `failure`).
    pub(super) last_remote_check: Option<std::time::Instant>,
    /// The back-off of the worker's idle rounds since its last progress.
    idle: Option<super::idle::Idle>,
}

/// The verdict on a wait of `idle` without local progress.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Too early to say.
    Wait,
    /// Another process did something: the wait is healthy (restart the clock).
    Active,
    /// Nobody anywhere moved: a deadlock.
    Stuck,
    /// This rank's kernel failed in this launch: nothing this process waits for may come.
    PeerFailed(usize),
}

impl Watch {
    /// The worker made progress: its next idle round starts a new wait.
    pub(crate) fn active(&mut self) {
        self.idle = None;
    }
}

impl Peers {
    /// A worker whose instances all wait on other processes pauses (spin, yield or sleep);
    /// `yielded`: its [`Peers::progress`] call just gave the core away.
    pub(crate) fn pause(&self, watch: &mut Watch, yielded: bool) {
        watch.idle.get_or_insert_with(|| super::idle::Idle::new(self.budget).with_bell(self.sync().my_bell())).pause_after(yielded);
    }

    /// Worker `w` enters (or leaves) a program instance.
    pub(crate) fn resume_edge(&self, w: usize) {
        self.sync().mine().resumes[w % WATCHED_WORKERS].fetch_add(1, Ordering::Relaxed);
    }

    /// Publishes this launch's progress counter.
    pub(crate) fn publish(&self, progress: u64) {
        let launch = self.launches.load(Ordering::Relaxed);
        self.sync().mine().progress.store(launch << 40 ^ progress, Ordering::Relaxed);
    }

    /// Judges a local wait that has lasted `idle` against the deadlock `timeout`.
    pub(crate) fn judge(&self, watch: &mut Watch, idle: Duration, timeout: Duration) -> Verdict {
        if let Some(rank) = self.failed_peer(watch, idle) {
            return Verdict::PeerFailed(rank);
        }
        if idle < timeout / 2 {
            watch.snapshot = None;
            return Verdict::Wait;
        }
        let Some(before) = &watch.snapshot else {
            watch.snapshot = Some(self.others());
            return Verdict::Wait;
        };
        if idle < timeout {
            return Verdict::Wait;
        }
        let now = self.others();
        let active = before.iter().zip(&now).any(|(b, n)| b[0] != n[0] || b[1..].iter().zip(&n[1..]).any(|(b, n)| n % 2 == 1 && b == n));
        watch.snapshot = None;
        if active {
            Verdict::Active
        } else {
            Verdict::Stuck
        }
    }

    /// Every other process's progress and entry counts: node peers' by load, other nodes' by
    /// `MPI_Get`.
    /// A peer whose slot cannot be read (a broken MPI world) shows no activity, so a wait on
    /// it ends in a report rather than never.
    fn others(&self) -> Vec<Seen> {
        let t = self.topology;
        let sync = self.sync();
        let first = t.node_of(self.rank) * t.local_size;
        let mut out = Vec::with_capacity(t.world_size());
        for r in (0..t.world_size()).filter(|&r| r != self.rank) {
            let mut seen = [0u64; 1 + WATCHED_WORKERS];
            if (first..first + t.local_size).contains(&r) {
                let s = sync.slot_of(r - first);
                seen[0] = s.progress.load(Ordering::Relaxed);
                for (x, c) in seen[1..].iter_mut().zip(&s.resumes) {
                    *x = c.load(Ordering::Relaxed);
                }
            } else {
                let disp = self.map_bytes() + offset_of!(Slot, progress);
                let read = self.get(seen.as_mut_ptr() as *mut u8, std::mem::size_of::<Seen>(), r, disp).and_then(|()| self.flush(r));
                if read.is_err() {
                    seen = [0; 1 + WATCHED_WORKERS];
                }
            }
            out.push(seen);
        }
        out
    }
}

/// Keeps the slot layout `others` reads with one `MPI_Get`.
const _: () = assert!(offset_of!(Slot, resumes) == offset_of!(Slot, progress) + 8);
