//! The launch's opening step, joined lazily on one node. A launch must not touch a peer's
//! memory before that peer's host has finished writing it and has issued the same launch;
//! a full step before every launch made every process wait for the slowest to arrive, one
//! more synchronisation than MPI's own collectives pay. Instead each process publishes its
//! arrival (the launch's hash) in its slot and starts its kernel at once; the first access of
//! an instance to a node peer (put, get, signal, remote_ptr) waits until that peer has
//! published the same launch. A kernel's own waits then order the rest. Across nodes the
//! launch keeps its full step (a peer's slot on another node is not a load away).

use super::error::MpiError;
use super::sync::Chan;
use super::Peers;
use crate::local::state::{Blocked, Inst};
use std::sync::atomic::Ordering;
use super::idle::Idle;

impl Peers {
    /// Publishes this process's arrival at a launch with call hash `h` (one node only).
    pub(crate) fn announce(&self, h: u64) {
        let _one = self.host_step.lock().unwrap_or_else(|e| e.into_inner());
        let step = self.sync().start(Chan::Host, &[h, !h]);
        self.arrival_hash.store(h, Ordering::Relaxed);
        self.arrival_seq.store(step.seq(), Ordering::Release);
    }

    /// The launch has ended (its closing step is a full one).
    pub(crate) fn arrival_done(&self) {
        self.arrival_seq.store(0, Ordering::Release);
    }

    /// Waits (yielding) until node peer `pe` has arrived at this launch; a fault if it issued
    /// another call, or never arrives within the host timeout.
    pub(crate) fn await_arrival(&self, i: &mut Inst, pe: usize, site: i32) {
        let seq = self.arrival_seq.load(Ordering::Acquire);
        if seq == 0 || pe == self.rank {
            return;
        }
        let h = self.arrival_hash.load(Ordering::Relaxed);
        let q = self.topology.local_rank(pe);
        let mut idle: Option<Idle> = None;
        loop {
            match self.sync().published(q, seq, [h, !h]) {
                Some(true) => return,
                Some(false) => i.fault(site, MpiError::Mismatch { rank: self.rank, call: format!("this launch (rank {pe} issued another call)") }.to_string()),
                None => {}
            }
            let idle = idle.get_or_insert_with(|| Idle::new(self.spin));
            if idle.waited() > self.host_timeout {
                i.fault(site, MpiError::Timeout { rank: self.rank, what: format!("waiting for rank {pe} to launch"), waited_ms: self.host_timeout.as_millis() }.to_string());
            }
            // The peer is in its host code (compiling, seeding), not in a kernel: no deadlock
            // here, so this wait counts as progress; and when processes outnumber cores it
            // must not take the core that host code needs.
            i.shared().bump();
            idle.pause();
            i.block(Blocked::Barrier { site });
        }
    }
}
