//! The copy engine on `local`: one transfer thread per rank with a non-empty queue, running
//! while the kernel's instances run on the scheduler's workers. The scheduler counts the
//! engine's signal writes as progress and never declares a deadlock while a queue is still
//! running, since a pending transfer may be what every instance waits for.

use super::{CopyError, CopyOp, CopyPlan};
use crate::heap::Heap;
use crate::launch::{LaunchOptions, LaunchReport};
use crate::RuntimeError;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Work running beside a launch that may write signals its instances wait for.
#[derive(Debug, Default)]
pub struct BackgroundWork {
    /// Queues still running.
    active: AtomicUsize,
    /// Signals written so far.
    progress: AtomicU64,
    /// Set when the launch has ended: a queue still waiting gives up.
    stop: AtomicBool,
    /// Addresses of signals a queue's `Wait` saw reach their value: observed, as a kernel's
    /// wait would have, so the launch does not warn that nobody read them.
    observed: Mutex<HashSet<usize>>,
}

impl BackgroundWork {
    /// Whether some queue is still running.
    pub(crate) fn busy(&self) -> bool {
        self.active.load(Ordering::Acquire) > 0
    }

    /// Whether a queue waited for the signal at `addr` and saw it.
    pub(crate) fn observed(&self, addr: usize) -> bool {
        self.observed.lock().unwrap_or_else(|e| e.into_inner()).contains(&addr)
    }

    /// Signals written so far (the scheduler adds this to its own progress count).
    pub(crate) fn progress(&self) -> u64 {
        self.progress.load(Ordering::Acquire)
    }
}

/// Runs `launch` with `plan`'s queues of `ranks` on transfer threads beside it; returns once
/// the kernel and every queue have finished. A queue's failure outranks the kernel's
/// deadlock it causes; a queue stopped by the launch's end outranks nothing.
pub(crate) fn with_copies(
    heap: &Heap,
    plan: &CopyPlan,
    ranks: std::ops::Range<usize>,
    timeout: Duration,
    opts: &LaunchOptions,
    launch: impl FnOnce(&LaunchOptions) -> Result<LaunchReport, RuntimeError>,
) -> Result<LaunchReport, RuntimeError> {
    let busy: Vec<usize> = ranks.filter(|&r| !plan.queue(r).is_empty()).collect();
    let work = Arc::new(BackgroundWork { active: AtomicUsize::new(busy.len()), ..Default::default() });
    let lopts = LaunchOptions { background: Some(work.clone()), ..opts.clone() };
    std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(busy.len());
        let mut spawn_err = None;
        for (i, &rank) in busy.iter().enumerate() {
            let w = &*work;
            let spawned = std::thread::Builder::new().name(format!("weft-ce{rank}")).spawn_scoped(s, move || {
                let r = run_queue(heap, rank, plan.queue(rank), w, timeout);
                w.active.fetch_sub(1, Ordering::AcqRel);
                r
            });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    // The queues never started are not running either.
                    work.active.fetch_sub(busy.len() - i, Ordering::AcqRel);
                    work.stop.store(true, Ordering::Release);
                    spawn_err = Some(RuntimeError::System { what: "copy-engine thread".into(), message: e.to_string() });
                    break;
                }
            }
        }
        let report = match spawn_err {
            Some(e) => Err(e),
            None => launch(&lopts),
        };
        work.stop.store(true, Ordering::Release);
        let mut copy_err = None;
        for h in handles {
            let r = h.join().unwrap_or(Err(CopyError::Stopped { rank: usize::MAX, index: 0 }));
            if let Err(e) = r {
                copy_err.get_or_insert(e);
            }
        }
        match (report, copy_err) {
            (Err(k), Some(CopyError::Stopped { .. })) => Err(k),
            (_, Some(c)) => Err(c.into()),
            (report, None) => report,
        }
    })
}

/// Runs `rank`'s queue in order.
fn run_queue(heap: &Heap, rank: usize, ops: &[CopyOp], work: &BackgroundWork, timeout: Duration) -> Result<(), CopyError> {
    for (index, op) in ops.iter().enumerate() {
        // Spans were validated against their allocations; the heap checks the rank's arena.
        let at = |buf, pe: usize, off, len| {
            heap.span(buf, pe, off, len).map_err(|e| CopyError::Unreachable { rank, index, pe, why: e.to_string() })
        };
        match *op {
            CopyOp::Put { dst, src, bytes, pe } => {
                let (s, d) = (at(src.buf, rank, src.offset, bytes)?, at(dst.buf, pe, dst.offset, bytes)?);
                // SAFETY: both spans lie in live allocations; `copy` allows overlap.
                unsafe { std::ptr::copy(s, d, bytes) };
            }
            CopyOp::Get { dst, src, bytes, pe } => {
                let (s, d) = (at(src.buf, pe, src.offset, bytes)?, at(dst.buf, rank, dst.offset, bytes)?);
                // SAFETY: as for `Put`.
                unsafe { std::ptr::copy(s, d, bytes) };
            }
            CopyOp::Signal { sig, value, pe } => {
                let p = at(sig.buf, pe, sig.offset, 8)?;
                // SAFETY: an aligned word of a live allocation (validated). The release store
                // orders every copy above before it: a signal never overtakes its data.
                unsafe { (*(p as *const AtomicU64)).store(value, Ordering::Release) };
                work.progress.fetch_add(1, Ordering::AcqRel);
            }
            CopyOp::Wait { sig, value } => {
                let p = at(sig.buf, rank, sig.offset, 8)?;
                // SAFETY: as for `Signal`.
                let word = unsafe { &*(p as *const AtomicU64) };
                wait(word, value, work, timeout).map_err(|current| match current {
                    Some(current) => CopyError::WaitTimeout { rank, index, expected: value, current, waited_ms: timeout.as_millis() },
                    None => CopyError::Stopped { rank, index },
                })?;
                // Recorded before the ops that follow, so before any kernel wait they enable.
                work.observed.lock().unwrap_or_else(|e| e.into_inner()).insert(p as usize);
            }
        }
    }
    Ok(())
}

/// Polls `word` until it reaches `value`: `Err(Some(current))` after `timeout`, `Err(None)`
/// when the launch has ended.
fn wait(word: &AtomicU64, value: u64, work: &BackgroundWork, timeout: Duration) -> Result<(), Option<u64>> {
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        if word.load(Ordering::Acquire) >= value {
            return Ok(());
        }
        if work.stop.load(Ordering::Acquire) {
            // One last look: the kernel may have written it just before it finished.
            return if word.load(Ordering::Acquire) >= value { Ok(()) } else { Err(None) };
        }
        if start.elapsed() > timeout {
            return Err(Some(word.load(Ordering::Acquire)));
        }
        spins += 1;
        if spins < 64 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(20));
        }
    }
}
