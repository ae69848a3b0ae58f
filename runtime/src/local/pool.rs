//! Persistent worker threads for launches. Spawning threads and mapping a coroutine stack per
//! program instance cost more than a small collective itself, so both live across launches:
//! the threads here, the stacks in a per-thread cache.

use super::slot::{Slot, StaticJob, Taker};
use crate::RuntimeError;
use corosensei::stack::DefaultStack;
use std::cell::RefCell;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Work for one worker during one launch.
pub(crate) type Job<'a> = Box<dyn FnOnce() + Send + 'a>;

/// What a worker receives: a job it may find already taken, and where to report its end.
type Message = (Arc<Slot>, mpsc::Sender<()>);

struct Worker {
    tx: Option<mpsc::Sender<Message>>,
    handle: Option<JoinHandle<()>>,
}

/// A fixed set of worker threads.
pub(crate) struct Pool {
    workers: Vec<Worker>,
}

impl Pool {
    /// Starts `n` workers that sleep as soon as they have no job.
    pub fn new(n: usize) -> Result<Pool, RuntimeError> {
        Pool::lingering(n, Duration::ZERO)
    }

    /// Starts `n` workers that poll for their next job for `linger` before they sleep.
    pub fn lingering(n: usize, linger: Duration) -> Result<Pool, RuntimeError> {
        let mut workers = Vec::with_capacity(n);
        for i in 0..n {
            let (tx, rx) = mpsc::channel::<Message>();
            let handle = std::thread::Builder::new()
                .name(format!("weft-worker-{i}"))
                .spawn(move || {
                    while let Some((slot, done)) = next_message(&rx, linger) {
                        // A job the caller took is skipped untouched (it may be gone already).
                        if let Some(job) = slot.take(Taker::Worker) {
                            let _guard = Signal(done);
                            job();
                        }
                    }
                })
                .map_err(|e| RuntimeError::System { what: "starting a worker thread".into(), message: e.to_string() })?;
            workers.push(Worker { tx: Some(tx), handle: Some(handle) });
        }
        Ok(Pool { workers })
    }

    /// Number of workers.
    pub fn size(&self) -> usize {
        self.workers.len()
    }

    /// Runs `jobs[i]` on worker `i` and returns when every job has finished.
    pub fn run(&self, jobs: Vec<Job<'_>>) {
        drop(self.send(jobs));
    }

    /// Runs `jobs[0]` on the calling thread and `jobs[i]` on worker `i - 1`, and returns when
    /// every job has finished: the caller would only sleep until the workers are done, and
    /// each thread hand-off (a wake-up, then a sleep) costs several µs, which small launches
    /// feel. A job whose worker has not started it by the time `jobs[0]` ends runs here
    /// instead (`WEFT_CLAIM=0`: wait for the worker, only to measure the difference).
    pub fn run_here(&self, jobs: Vec<Job<'_>>) {
        self.run_here_with(jobs, claims());
    }

    /// [`Pool::run_here`], taking back unstarted jobs only if `claim`.
    fn run_here_with(&self, jobs: Vec<Job<'_>>, claim: bool) {
        let mut jobs = jobs.into_iter();
        let Some(first) = jobs.next() else { return };
        let others = self.send(jobs.collect());
        first();
        if claim {
            others.run_unstarted();
        }
    }

    /// Hands `jobs[i]` to worker `i`; the returned guard waits for all of them when dropped
    /// (also while unwinding, so borrowed data outlives every job).
    fn send<'a>(&self, jobs: Vec<Job<'a>>) -> Pending<'a> {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let mut slots = Vec::with_capacity(jobs.len());
        for (w, job) in self.workers.iter().zip(jobs) {
            // SAFETY: the guard does not let `send`'s caller go on before the job has run to
            // completion on its worker (which signals `done` when it ends, even by panicking)
            // or was taken back by the caller, so borrowed data outlives it.
            let job: StaticJob = unsafe { std::mem::transmute::<Job<'_>, StaticJob>(job) };
            let slot = Arc::new(Slot::new(job));
            if !w.tx.as_ref().is_some_and(|tx| tx.send((slot.clone(), done_tx.clone())).is_ok()) {
                // No worker to run it (as before: it does not run).
                drop(slot.take(Taker::Caller));
            }
            slots.push(slot);
        }
        Pending { done: done_rx, slots, _jobs: std::marker::PhantomData }
    }
}

/// How long a `local` worker polls for its next job before it sleeps (`WEFT_LINGER_US`,
/// default 200): launches come back to back, and a worker that sleeps wakes late under load
/// (≈ms at load 2), after the caller has started every instance of a short launch alone,
/// where a pair of workers from the start would have shared it (1 MiB ring, 2 ranks: 93-100 %
/// of memcpy against 74-93 % without, load 18).
pub(crate) fn linger_from_env() -> Duration {
    Duration::from_micros(std::env::var("WEFT_LINGER_US").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(200))
}

/// The next message, or `None` once the pool is dropped.
fn next_message(rx: &mpsc::Receiver<Message>, linger: Duration) -> Option<Message> {
    let since = Instant::now();
    loop {
        match rx.try_recv() {
            Ok(m) => return Some(m),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) if since.elapsed() < linger => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Empty) => return rx.recv().ok(),
        }
    }
}

/// `WEFT_CLAIM=0` turns off [`Pool::run_here`]'s taking back of unstarted jobs.
fn claims() -> bool {
    static CLAIMS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CLAIMS.get_or_init(|| std::env::var("WEFT_CLAIM").ok().is_none_or(|v| v.trim() != "0"))
}

/// Jobs handed to workers and not yet known to be finished: dropping it waits for them.
struct Pending<'a> {
    done: mpsc::Receiver<()>,
    slots: Vec<Arc<Slot>>,
    _jobs: std::marker::PhantomData<Job<'a>>,
}

impl Pending<'_> {
    /// Runs on this thread every job that no worker has started yet.
    fn run_unstarted(self) {
        for slot in &self.slots {
            if let Some(job) = slot.take(Taker::Caller) {
                job();
            }
        }
    }
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // The launch is over: a job no worker started is dropped unrun, not waited for.
            for slot in &self.slots {
                drop(slot.take(Taker::Caller));
            }
        }
        // Every job not taken by the caller is (or will be) taken by its worker, which
        // reports its end; until then it may use borrowed data.
        for _ in self.slots.iter().filter(|s| !s.taken_by_caller()) {
            let _ = self.done.recv();
        }
    }
}

/// Sends on drop, so a job that panics still reports that it ended.
struct Signal(mpsc::Sender<()>);

impl Drop for Signal {
    fn drop(&mut self) {
        let _ = self.0.send(());
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for w in &mut self.workers {
            w.tx.take();
        }
        for w in &mut self.workers {
            if let Some(h) = w.handle.take() {
                let _ = h.join();
            }
        }
    }
}

thread_local! {
    static STACKS: RefCell<Vec<(usize, DefaultStack)>> = const { RefCell::new(Vec::new()) };
}

/// A coroutine stack of `bytes`, reused from this thread's cache when one is free.
pub(super) fn take_stack(bytes: usize) -> Result<DefaultStack, RuntimeError> {
    let cached = STACKS.with(|s| {
        let mut s = s.borrow_mut();
        let i = s.iter().position(|(b, _)| *b == bytes)?;
        Some(s.swap_remove(i).1)
    });
    match cached {
        Some(stack) => Ok(stack),
        None => DefaultStack::new(bytes).map_err(|e| RuntimeError::System {
            what: format!("allocating a {bytes}-byte coroutine stack"),
            message: e.to_string(),
        }),
    }
}

/// Keeps a stack for the next launch on this thread (at most 256 are kept).
pub(super) fn return_stack(bytes: usize, stack: DefaultStack) {
    STACKS.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < 256 {
            s.push((bytes, stack));
        }
    });
}

#[cfg(test)]
#[path = "pool_tests.rs"]
mod tests;
