//! A failed kernel tells the other processes at once. Without this a process waiting on a
//! signal from a peer whose kernel had already faulted saw only silence, and reported a
//! deadlock after the full deadlock timeout. A process whose launch fails publishes that
//! launch's number in its slot; a waiting process checks its node peers' slots every idle
//! round (a load each) and, once a wait has lasted a few milliseconds, the other nodes' every few
//! milliseconds (an `MPI_Get` each), and
//! ends its launch with an error naming the failed rank.

use super::error::MpiError;
use super::sync::Slot;
use super::watch::Watch;
use super::Peers;
use std::mem::offset_of;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often a waiting process reads the failure words of ranks on other nodes.
pub(super) const REMOTE_EVERY: Duration = Duration::from_millis(5);

impl Peers {
    /// This process's launch under way has failed (call before its closing step).
    pub(crate) fn publish_failed(&self) {
        self.sync().mine().failed.store(self.launches.load(Ordering::Relaxed), Ordering::Release);
    }

    /// The first other rank whose kernel failed in the launch under way, or in the last
    /// launch whose closing step was deferred and is not yet confirmed (see `deferred`), if any
    /// (this process's instances have waited `idle`).
    pub(crate) fn failed_peer(&self, watch: &mut Watch, idle: Duration) -> Option<usize> {
        let (launch, unconfirmed) = (self.launches.load(Ordering::Relaxed), self.unconfirmed.load(Ordering::Acquire));
        let failed = |w: u64| w == launch || (unconfirmed != 0 && w == unconfirmed);
        let t = self.topology;
        let first = t.node_of(self.rank) * t.local_size;
        let here = (first..first + t.local_size).find(|&r| r != self.rank && self.failed_word(r).is_some_and(failed));
        if here.is_some() || t.nodes == 1 {
            return here;
        }
        // Reads across nodes cost MPI calls: none for a short wait, then one round per period.
        if idle < REMOTE_EVERY || watch.last_remote_check.is_some_and(|at| at.elapsed() < REMOTE_EVERY) {
            return None;
        }
        watch.last_remote_check = Some(Instant::now());
        (0..t.world_size()).filter(|r| !(first..first + t.local_size).contains(r)).find(|&r| self.failed_word(r).is_some_and(failed))
    }

    /// Rank `pe`'s failure word: the number of its last launch whose kernel failed (a load on
    /// this node, an `MPI_Get` across nodes; `None` if unreadable: a broken MPI world is left
    /// to the deadlock watch and the host timeout).
    pub(super) fn failed_word(&self, pe: usize) -> Option<u64> {
        let t = self.topology;
        if t.node_of(pe) == t.node_of(self.rank) {
            return Some(self.sync().slot_of(t.local_rank(pe)).failed.load(Ordering::Acquire));
        }
        let mut word = 0u64;
        let disp = self.map_bytes() + offset_of!(Slot, failed);
        self.get(&mut word as *mut u64 as *mut u8, 8, pe, disp).and_then(|()| self.flush(pe)).ok().map(|()| word)
    }

    /// The error of a launch that stopped because rank `failed`'s kernel failed.
    pub(crate) fn peer_failed_error(&self, failed: usize, kernel: &str) -> MpiError {
        MpiError::PeerKernelFailed { rank: self.rank, failed, kernel: kernel.into() }
    }
}
