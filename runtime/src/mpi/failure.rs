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
const REMOTE_EVERY: Duration = Duration::from_millis(5);

impl Peers {
    /// This process's launch under way has failed (call before its closing step).
    pub(crate) fn publish_failed(&self) {
        self.sync().mine().failed.store(self.launches.load(Ordering::Relaxed), Ordering::Release);
    }

    /// The first other rank whose kernel failed in the launch under way, if any (this
    /// process's instances have waited `idle`).
    pub(crate) fn failed_peer(&self, watch: &mut Watch, idle: Duration) -> Option<usize> {
        let launch = self.launches.load(Ordering::Relaxed);
        let t = self.topology;
        let first = t.node_of(self.rank) * t.local_size;
        let sync = self.sync();
        let here = (0..t.local_size).find(|&q| first + q != self.rank && sync.slot_of(q).failed.load(Ordering::Acquire) == launch);
        if here.is_some() || t.nodes == 1 {
            return here.map(|q| first + q);
        }
        // Reads across nodes cost MPI calls: none for a short wait, then one round per period.
        if idle < REMOTE_EVERY || watch.last_remote_check.is_some_and(|at| at.elapsed() < REMOTE_EVERY) {
            return None;
        }
        watch.last_remote_check = Some(Instant::now());
        let disp = self.map_bytes() + offset_of!(Slot, failed);
        (0..t.world_size()).filter(|r| !(first..first + t.local_size).contains(r)).find(|&r| {
            let mut word = 0u64;
            // An unreadable slot (a broken MPI world) is left to the deadlock watch.
            self.get(&mut word as *mut u64 as *mut u8, 8, r, disp).and_then(|()| self.flush(r)).is_ok() && word == launch
        })
    }

    /// The error of a launch that stopped because rank `failed`'s kernel failed.
    pub(crate) fn peer_failed_error(&self, failed: usize, kernel: &str) -> MpiError {
        MpiError::PeerKernelFailed { rank: self.rank, failed, kernel: kernel.into() }
    }
}
