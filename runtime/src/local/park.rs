//! Where an idle worker sleeps until some instance makes progress. A timed sleep (the old
//! policy: 20 µs, ~70 µs with the kernel's timer slack) wakes late when the awaited signal
//! comes early and needlessly when nothing happened; a futex that [`Park::wake`] releases
//! wakes the sleepers as soon as a signal, put or barrier arrival is made. Only the first
//! progress after a worker went to sleep pays for the wake-up system call; the rest, and all
//! progress while nobody sleeps, cost one load.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The futex word: [`ARMED`] while some worker sleeps (or is about to) and no wake came since.
#[derive(Default)]
pub(crate) struct Park {
    word: AtomicU32,
}

const ARMED: u32 = 1;

impl Park {
    /// Sleeps for at most `timeout` unless `still_idle()`, checked once this worker is
    /// registered as asleep, is false, or until the next [`Park::wake`].
    pub fn sleep(&self, timeout: Duration, still_idle: impl FnOnce() -> bool) {
        self.word.store(ARMED, Ordering::SeqCst);
        // A waker that bumped progress before the store above is seen here; one after it sees
        // ARMED and clears it, so the futex returns at once or is woken.
        if still_idle() {
            futex_wait(&self.word, ARMED, timeout);
        }
    }

    /// Wakes every sleeping worker; called after progress was made (SeqCst, see `sleep`).
    pub fn wake(&self) {
        if self.word.load(Ordering::SeqCst) == ARMED && self.word.swap(0, Ordering::SeqCst) == ARMED {
            futex_wake(&self.word);
        }
    }

    /// Whether a worker is (about to be) asleep and not yet woken.
    #[cfg(test)]
    fn armed(&self) -> bool {
        self.word.load(Ordering::SeqCst) == ARMED
    }
}

#[cfg(target_os = "linux")]
fn futex_wait(word: &AtomicU32, seen: u32, timeout: Duration) {
    let ts = libc::timespec { tv_sec: timeout.as_secs() as libc::time_t, tv_nsec: timeout.subsec_nanos() as libc::c_long };
    // SAFETY: `word` is a live, aligned u32; the kernel only reads it. EAGAIN (the word
    // changed), EINTR and ETIMEDOUT all mean: look again.
    unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG, seen, &ts as *const libc::timespec) };
}

#[cfg(target_os = "linux")]
fn futex_wake(word: &AtomicU32) {
    // SAFETY: as in `futex_wait`.
    unsafe { libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, i32::MAX) };
}

#[cfg(not(target_os = "linux"))]
fn futex_wait(word: &AtomicU32, seen: u32, timeout: Duration) {
    if word.load(Ordering::SeqCst) == seen {
        std::thread::sleep(timeout.min(Duration::from_micros(20)));
    }
}

#[cfg(not(target_os = "linux"))]
fn futex_wake(_: &AtomicU32) {}

#[cfg(test)]
mod tests {
    use super::Park;
    use std::time::{Duration, Instant};

    #[test]
    fn a_wake_ends_the_sleep_long_before_its_timeout() {
        let park = Park::default();
        std::thread::scope(|s| {
            let t = Instant::now();
            s.spawn(|| {
                while !park.armed() {
                    std::hint::spin_loop();
                }
                park.wake();
            });
            park.sleep(Duration::from_secs(20), || true);
            assert!(t.elapsed() < Duration::from_secs(10), "slept {:?}", t.elapsed());
        });
    }

    #[test]
    fn no_sleep_when_progress_came_first_and_the_timeout_bounds_it() {
        let park = Park::default();
        let t = Instant::now();
        park.sleep(Duration::from_secs(20), || false);
        assert!(t.elapsed() < Duration::from_secs(10));
        let t = Instant::now();
        park.sleep(Duration::from_millis(2), || true);
        let slept = t.elapsed();
        assert!(slept >= Duration::from_millis(1) && slept < Duration::from_secs(10), "slept {slept:?}");
    }
}
