//! The launch's opening step, joined lazily. A launch must not touch a peer's memory before
//! that peer's host has finished writing it and has issued the same launch; a full step
//! before every launch made every process wait for the slowest to arrive, one more
//! synchronisation than MPI's own collectives pay (across nodes three more hops: the node's
//! gather, the leaders' `MPI_Iallreduce`, the node's release). Instead each process publishes
//! its arrival (the launch's hash) in its slot and starts its kernel at once; the first access
//! of an instance to a peer (put, get, signal, remote_ptr) waits until that peer has published
//! the same launch: a load for a node peer, an `MPI_Get` of its slot for a rank on another
//! node (once per peer and launch: a confirmed arrival is remembered). A kernel's own waits
//! then order the rest.

use super::error::MpiError;
use super::sync::{host_channel_offset, Chan, NodeSync, HOST_WORDS};
use super::Peers;
use crate::local::state::{Blocked, Inst};
use std::sync::atomic::Ordering;
use super::idle::Idle;

impl Peers {
    /// Publishes this process's arrival at a launch with call hash `h`.
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

    /// Waits (yielding) until peer `pe` has arrived at this launch; a fault if it issued
    /// another call, or never arrives within the host timeout.
    pub(crate) fn await_arrival(&self, i: &mut Inst, pe: usize, site: i32) {
        let seq = self.arrival_seq.load(Ordering::Acquire);
        if seq == 0 || pe == self.rank {
            return;
        }
        let h = self.arrival_hash.load(Ordering::Relaxed);
        let t = self.topology;
        let remote = t.node_of(pe) != t.node_of(self.rank);
        if remote && self.arrived[pe].load(Ordering::Acquire) == seq {
            return;
        }
        let mut idle: Option<Idle> = None;
        loop {
            let seen = if remote { self.published_remote(pe, seq, [h, !h]) } else { Ok(self.sync().published(t.local_rank(pe), seq, [h, !h])) };
            match seen {
                Ok(Some(true)) => {
                    if remote {
                        self.arrived[pe].store(seq, Ordering::Release);
                    }
                    return;
                }
                Ok(Some(false)) => i.fault(site, MpiError::Mismatch { rank: self.rank, call: format!("this launch (rank {pe} issued another call)") }.to_string()),
                Ok(None) => {}
                Err(e) => i.fault(site, e.to_string()),
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

    /// [`NodeSync::published`] for a rank on another node, read with one `MPI_Get` of its
    /// slot's host channel. The read is not atomic: a mismatch is read a second time before it
    /// counts (the values of step `seq` are final once its `seq` shows, and stay until every
    /// process has finished this launch).
    fn published_remote(&self, pe: usize, seq: u64, vals: [u64; 2]) -> Result<Option<bool>, MpiError> {
        let mut seen = None;
        for _ in 0..2 {
            let mut words = [0u64; HOST_WORDS];
            self.get(words.as_mut_ptr() as *mut u8, std::mem::size_of_val(&words), pe, self.map_bytes() + host_channel_offset())?;
            self.flush(pe)?;
            seen = NodeSync::published_in(&words, seq, vals);
            if seen != Some(false) {
                break;
            }
        }
        Ok(seen)
    }
}
