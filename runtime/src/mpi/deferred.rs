//! Launches without a closing step (`LaunchOptions::self_closing`; why that is safe is in
//! `sync`). Their success is confirmed later: a process that finishes such a launch knows
//! every process announced it, so none had stopped before it; and any full step that
//! completes confirms every launch before it. What is left is a failure of the deferred
//! launch itself. The process that failed publishes it (its slot's failure word), marks its
//! world broken and takes no further step; the others learn it wherever they next wait on
//! it: a kernel's wait (`failure`), a launch's arrival wait (`arrival`) or a host step
//! (`sync`), all of which read the failure words of the ranks they wait for.

use super::error::MpiError;
use super::failure::REMOTE_EVERY;
use super::Peers;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl Peers {
    /// This process finished a launch whose closing step it skips: the launches before it are
    /// confirmed, this one is not yet.
    pub(crate) fn defer_close(&self) {
        self.unconfirmed.store(self.launches.load(Ordering::Relaxed), Ordering::Release);
    }

    /// A full step completed: every launch before it is confirmed.
    pub(crate) fn confirm(&self) {
        self.unconfirmed.store(0, Ordering::Release);
    }

    /// A launch without a closing step failed here: tell the others, and take no more steps.
    pub(crate) fn break_world(&self) {
        self.publish_failed();
        self.broken.store(self.launches.load(Ordering::Relaxed), Ordering::Release);
    }

    /// An error if this process's world is broken (see [`Peers::break_world`]).
    pub(crate) fn check_broken(&self) -> Result<(), MpiError> {
        match self.broken.load(Ordering::Acquire) {
            0 => Ok(()),
            launch => Err(MpiError::Broken { rank: self.rank, launch }),
        }
    }

    /// The error naming the unconfirmed launch if one of `ranks` failed it.
    fn failed_deferred(&self, mut ranks: impl Iterator<Item = usize>) -> Result<(), MpiError> {
        let launch = self.unconfirmed.load(Ordering::Acquire);
        if launch == 0 || !ranks.any(|r| r != self.rank && self.failed_word(r) == Some(launch)) {
            return Ok(());
        }
        Err(MpiError::PeerFailed { rank: self.rank, what: format!("launch {launch} (its closing step deferred)") })
    }
}

/// Checks of the failure words during one wait: node peers' every round (a load each), other
/// nodes' once per [`REMOTE_EVERY`] (an `MPI_Get` each).
#[derive(Default)]
pub(crate) struct DeferredCheck {
    last_remote: Option<Instant>,
}

impl DeferredCheck {
    /// An error if one of `ranks` failed the launch whose closing step was deferred.
    pub(crate) fn check(&mut self, peers: &Peers, ranks: impl Iterator<Item = usize> + Clone) -> Result<(), MpiError> {
        if peers.unconfirmed.load(Ordering::Relaxed) == 0 {
            return Ok(());
        }
        let t = peers.topology;
        let here = t.node_of(peers.rank);
        peers.failed_deferred(ranks.clone().filter(|&r| t.node_of(r) == here))?;
        if self.last_remote.is_some_and(|at| at.elapsed() < REMOTE_EVERY) {
            return Ok(());
        }
        if self.last_remote.is_none() {
            // No MPI calls for a short wait.
            self.last_remote = Some(Instant::now());
            return Ok(());
        }
        self.last_remote = Some(Instant::now());
        peers.failed_deferred(ranks.filter(|&r| t.node_of(r) != here))
    }
}
