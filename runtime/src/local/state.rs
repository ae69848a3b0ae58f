//! Per-launch shared state and per-instance state, reached from the ABI's `ctx.inst`.

use crate::error::{KernelFault, Origin};
use crate::heap::Heap;
use crate::launch::Launchable;
use crate::topology::Topology;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Why a coroutine gave the worker back its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Yield {
    /// Waiting for something another instance must do.
    Blocked,
    /// Faulted or aborted: never resume.
    Stop,
}

pub(crate) type Yielder = corosensei::Yielder<(), Yield>;

/// What a blocked instance waits for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Blocked {
    Signal { site: i32, addr: usize, cmp: i32, expected: u64 },
    Barrier { site: i32 },
    Spin { site: i32, addr: usize },
}

/// State shared by every instance of one launch.
pub(crate) struct Shared<'a> {
    pub heap: &'a Heap,
    pub kernel: &'a Launchable,
    pub topology: Topology,
    pub bases: &'a [usize],
    pub heap_bytes: usize,
    /// Program instances run in this process.
    pub total: usize,
    /// Ranks run in this process.
    pub ranks_here: usize,
    /// The other processes' ranks, when there are any (the `mpi` transport).
    pub remote: Option<&'a crate::mpi::Peers>,
    /// Bumped whenever an instance does something another might be waiting for.
    pub progress: AtomicU64,
    /// Where idle workers sleep until `progress` moves.
    pub park: super::park::Park,
    pub abort: AtomicBool,
    pub deadlock: AtomicBool,
    /// The first fault (a [`KernelFault`], a bounds fault or a race report).
    pub fault: Mutex<Option<crate::RuntimeError>>,
    /// The live allocations, for bounds checks.
    pub allocs: super::bounds::AllocTable,
    /// Whether spans are checked against `allocs`.
    pub bounds_check: bool,
    /// The race detector, when `racecheck` is on.
    pub race: Option<Mutex<super::race::Detector>>,
    pub barrier_arrived: AtomicUsize,
    pub barrier_gen: AtomicUsize,
    pub signals: Option<super::signals::SignalTable>,
    /// Per-rank launch memory handed out by `rank_scratch`.
    pub rank_scratch: Mutex<HashMap<usize, Box<[u64]>>>,
    /// The copy engine's queues running beside this launch, if any.
    pub background: Option<&'a crate::copy_engine::BackgroundWork>,
}

impl Shared<'_> {
    pub fn bump(&self) {
        self.progress.fetch_add(1, Ordering::SeqCst);
        self.park.wake();
    }

    /// Progress of the instances and of the work beside them (copy-engine signal writes).
    pub fn progress_now(&self) -> u64 {
        self.progress.load(Ordering::Acquire).wrapping_add(self.background.map_or(0, |b| b.progress()))
    }

    /// Whether work beside the launch may still unblock its instances.
    pub fn background_busy(&self) -> bool {
        self.background.is_some_and(|b| b.busy())
    }

    /// The (allocation id, offset) of an absolute address, for reports.
    pub fn alloc_of(&self, addr: usize) -> Option<(u64, usize)> {
        let (_, off) = self.heap.locate(addr)?;
        self.heap.allocation_of(off)
    }
}

/// One program instance.
pub(crate) struct Inst {
    pub shared: *const Shared<'static>,
    pub yielder: *const Yielder,
    pub rank: usize,
    pub program: [i32; 3],
    /// Position among the launch's instances (the race detector's clock index).
    pub index: usize,
    pub blocked: Option<Blocked>,
    pub nbi_pending: usize,
    pub last_nbi_site: i32,
    /// Site of the polling loop this instance last yielded from.
    pub spinning: Option<i32>,
    /// Site, polled address and value seen (low 32 bits) of the last poll that yielded.
    pub last_poll: Option<(i32, usize, u32)>,
    pub finished: bool,
}

impl Inst {
    pub fn shared(&self) -> &Shared<'static> {
        // SAFETY: the launch outlives every instance.
        unsafe { &*self.shared }
    }

    pub fn origin(&self, site: i32) -> Origin {
        let s = self.shared().kernel.site(site);
        Origin { rank: self.rank, program: self.program, op: s.op, loc: s.loc }
    }

    /// Gives the thread back to the scheduler until resumed.
    pub fn suspend(&self, why: Yield) {
        // SAFETY: set by the coroutine body before the kernel runs.
        unsafe { (*self.yielder).suspend(why) };
    }

    /// Records a fault, stops the launch, and never returns to the kernel.
    pub fn fault(&mut self, site: i32, message: String) -> ! {
        let sh = self.shared();
        self.fail(crate::RuntimeError::KernelFault(KernelFault { kernel: sh.kernel.name.clone(), origin: self.origin(site), message }))
    }

    /// Records `error` as the launch's result (unless one came first), stops the launch, and
    /// never returns to the kernel.
    pub fn fail(&mut self, error: crate::RuntimeError) -> ! {
        let sh = self.shared();
        let mut f = sh.fault.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            *f = Some(error);
        }
        drop(f);
        sh.abort.store(true, Ordering::Release);
        loop {
            self.suspend(Yield::Stop);
        }
    }

    /// Blocks on `b` once; the caller re-checks its condition after this returns.
    pub fn block(&mut self, b: Blocked) {
        self.blocked = Some(b);
        self.suspend(Yield::Blocked);
        if self.shared().abort.load(Ordering::Acquire) {
            // Still blocked: a deadlock declared while another worker re-polled this wait
            // must still list it in the report.
            loop {
                self.suspend(Yield::Stop);
            }
        }
        self.blocked = None;
    }

    /// A polling loop this instance was in has ended: that is progress.
    pub fn leave_spin(&mut self) {
        if self.spinning.take().is_some() {
            self.shared().bump();
        }
    }
}
