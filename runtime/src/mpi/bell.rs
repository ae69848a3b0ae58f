//! A process's doorbell: a word in its slot that node peers ring after they write a signal
//! into its memory. A waiter past its yield budget sleeps on the word (a futex on the shared
//! window) instead of for a fixed time, so a signal that lands mid-sleep wakes it at once:
//! on oversubscribed cores a timed sleep of up to 1 ms after each wait was added to every
//! link of a kernel's chain of waits (flash_decode's partials to the block's owner, its
//! output rows back). Host steps ring the node too (a process asleep in a closing step wakes
//! when the last one publishes). The timeout stays as the bound for what rings nothing
//! (arrivals, other nodes' records and signals). A ring costs a system call only while the
//! peer sleeps. `WEFT_MPI_BELL=0` turns the doorbells off (timed sleeps only), to measure them.

use super::Peers;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// A doorbell (two words of a process's slot, see `sync::Slot`).
#[repr(C)]
#[derive(Default)]
pub(crate) struct Bell {
    /// Bumped by every ring.
    rings: AtomicU32,
    /// Threads of the owning process asleep on `rings` (a ring wakes only when some are).
    sleepers: AtomicU32,
}

impl Bell {
    /// The ring count now: a later [`Bell::sleep`] from this value returns at once if a ring
    /// came in between.
    pub(crate) fn seen(&self) -> u32 {
        self.rings.load(Ordering::SeqCst)
    }

    /// Sleeps until a ring after `seen`, or for `timeout`; false when the timeout ended it
    /// (true: a ring, one before the call included, or a spurious wake).
    pub(crate) fn sleep(&self, seen: u32, timeout: Duration) -> bool {
        // Counted before the futex compares `rings`: a ringer that reads no sleeper rang
        // before this count, so the futex sees its ring and does not sleep.
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
        // SAFETY: `rings` is a live, aligned 4-byte word; shared (not private) futex, since
        // the ringers are other processes mapping the same window.
        let r = unsafe { libc::syscall(libc::SYS_futex, self.rings.as_ptr(), libc::FUTEX_WAIT, seen, &ts as *const libc::timespec) };
        let timed_out = r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ETIMEDOUT);
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        !timed_out
    }

    /// Rings: wakes the owner's sleepers, if any (after the signal's write, which they then see).
    pub(crate) fn ring(&self) {
        self.rings.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            // SAFETY: as in `sleep`.
            unsafe { libc::syscall(libc::SYS_futex, self.rings.as_ptr(), libc::FUTEX_WAKE, i32::MAX) };
        }
    }
}

/// Whether doorbells are on (`WEFT_MPI_BELL`, default on).
pub(crate) fn on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("WEFT_MPI_BELL").ok().is_none_or(|v| v.trim() != "0"))
}

impl Peers {
    /// Rings rank `pe`'s doorbell if it is on this node (others poll MPI's records).
    pub(crate) fn ring(&self, pe: usize) {
        let t = self.topology;
        if on() && t.node_of(pe) == t.node_of(self.rank) {
            self.sync().slot_of(t.local_rank(pe)).bell.ring();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_ring_wakes_a_sleeper_and_one_before_the_sleep_is_not_lost() {
        let bell = Arc::new(Bell::default());
        let seen = bell.seen();
        let ringer = {
            let bell = bell.clone();
            std::thread::spawn(move || {
                // Once the sleeper is counted (asleep or about to be), ring.
                while bell.sleepers.load(Ordering::SeqCst) == 0 {
                    std::thread::yield_now();
                }
                bell.ring();
            })
        };
        // A lost ring would end this sleep by its (long) timeout instead.
        assert!(bell.sleep(seen, Duration::from_secs(60)), "slept through the ring");
        ringer.join().unwrap();
        assert_ne!(bell.seen(), seen);
        // Rung before the sleep, from the value seen before the ring: no sleep at all.
        let seen = bell.seen();
        bell.ring();
        assert!(bell.sleep(seen, Duration::from_secs(60)), "a ring before the sleep was lost");
    }

    #[test]
    fn without_a_ring_the_timeout_ends_the_sleep() {
        let bell = Bell::default();
        assert!(!bell.sleep(bell.seen(), Duration::from_millis(2)));
        assert_eq!(bell.sleepers.load(Ordering::SeqCst), 0);
    }
}
