//! Persistent worker threads for launches. Spawning threads and mapping a coroutine stack per
//! program instance cost more than a small collective itself, so both live across launches:
//! the threads here, the stacks in a per-thread cache.

use crate::RuntimeError;
use corosensei::stack::DefaultStack;
use std::cell::RefCell;
use std::sync::mpsc;
use std::thread::JoinHandle;

/// Work for one worker during one launch.
pub(crate) type Job<'a> = Box<dyn FnOnce() + Send + 'a>;
type StaticJob = Box<dyn FnOnce() + Send + 'static>;

struct Worker {
    tx: Option<mpsc::Sender<StaticJob>>,
    handle: Option<JoinHandle<()>>,
}

/// A fixed set of worker threads.
pub(crate) struct Pool {
    workers: Vec<Worker>,
}

impl Pool {
    /// Starts `n` workers.
    pub fn new(n: usize) -> Result<Pool, RuntimeError> {
        let mut workers = Vec::with_capacity(n);
        for i in 0..n {
            let (tx, rx) = mpsc::channel::<StaticJob>();
            let handle = std::thread::Builder::new()
                .name(format!("weft-worker-{i}"))
                .spawn(move || {
                    for job in rx {
                        job();
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
    /// feel.
    pub fn run_here(&self, jobs: Vec<Job<'_>>) {
        let mut jobs = jobs.into_iter();
        let Some(first) = jobs.next() else { return };
        let _others = self.send(jobs.collect());
        first();
    }

    /// Hands `jobs[i]` to worker `i`; the returned guard waits for all of them when dropped
    /// (also while unwinding, so borrowed data outlives every job).
    fn send<'a>(&self, jobs: Vec<Job<'a>>) -> Pending<'a> {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let mut sent = 0;
        for (w, job) in self.workers.iter().zip(jobs) {
            // SAFETY: the guard does not let `send`'s caller go on before the job has run to
            // completion (each job signals `done` when it ends, even by panicking), so
            // borrowed data outlives it.
            let job: StaticJob = unsafe { std::mem::transmute::<Job<'_>, StaticJob>(job) };
            let done = done_tx.clone();
            let wrapped: StaticJob = Box::new(move || {
                let _guard = Signal(done);
                job();
            });
            if let Some(tx) = &w.tx {
                if tx.send(wrapped).is_ok() {
                    sent += 1;
                }
            }
        }
        Pending { done: done_rx, sent, _jobs: std::marker::PhantomData }
    }
}

/// Jobs handed to workers and not yet known to be finished: dropping it waits for them.
struct Pending<'a> {
    done: mpsc::Receiver<()>,
    sent: usize,
    _jobs: std::marker::PhantomData<Job<'a>>,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        for _ in 0..self.sent {
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
