//! A job handed to a worker thread that the launching thread may take back. A worker asleep
//! when a launch starts can wake milliseconds late under load, long after the caller ran every
//! instance alone; waiting for it to find nothing to do would cost the launch that wake-up.
//! Whoever wins the slot's one compare-and-swap runs the job; the loser never touches it, so
//! the data the job borrows is used by one thread, once.

use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU8, Ordering};

/// A job with the lifetime of its borrows erased (`Pool::send` says why that is sound).
pub(super) type StaticJob = Box<dyn FnOnce() + Send + 'static>;

/// Who took a slot's job.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Taker {
    /// The worker thread the job was sent to.
    Worker = 1,
    /// The thread that launched it (or dropped it unrun while unwinding).
    Caller = 2,
}

const QUEUED: u8 = 0;

/// One job, run by whichever of its worker and its caller takes it first.
pub(super) struct Slot {
    state: AtomicU8,
    job: UnsafeCell<Option<StaticJob>>,
}

// SAFETY: `job` is only touched by the one thread whose compare-and-swap in `take` won.
unsafe impl Sync for Slot {}

impl Slot {
    /// A slot holding `job`, not yet taken.
    pub fn new(job: StaticJob) -> Slot {
        Slot { state: AtomicU8::new(QUEUED), job: UnsafeCell::new(Some(job)) }
    }

    /// The job, for the first taker only; `None` once anyone took it.
    pub fn take(&self, by: Taker) -> Option<StaticJob> {
        self.state.compare_exchange(QUEUED, by as u8, Ordering::AcqRel, Ordering::Acquire).ok()?;
        // SAFETY: the swap above succeeds once, so this thread alone reaches the cell.
        unsafe { (*self.job.get()).take() }
    }

    /// Whether the caller took the job (so no worker will report it finished).
    pub fn taken_by_caller(&self) -> bool {
        self.state.load(Ordering::Acquire) == Taker::Caller as u8
    }
}

#[cfg(test)]
mod tests {
    use super::{Slot, Taker};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[test]
    fn only_the_first_taker_gets_the_job() {
        for first in [Taker::Worker, Taker::Caller] {
            let slot = Slot::new(Box::new(|| {}));
            assert!(slot.take(first).is_some());
            assert!(slot.take(Taker::Worker).is_none() && slot.take(Taker::Caller).is_none());
            assert_eq!(slot.taken_by_caller(), first == Taker::Caller);
        }
    }

    #[test]
    fn racing_takers_run_the_job_exactly_once() {
        for _ in 0..200 {
            let runs = Arc::new(AtomicUsize::new(0));
            let r = runs.clone();
            let slot = Slot::new(Box::new(move || {
                r.fetch_add(1, Ordering::SeqCst);
            }));
            std::thread::scope(|s| {
                for by in [Taker::Worker, Taker::Caller] {
                    let slot = &slot;
                    s.spawn(move || slot.take(by).map(|job| job()));
                }
            });
            assert_eq!(runs.load(Ordering::SeqCst), 1);
        }
    }
}
