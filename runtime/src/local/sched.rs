//! The launch scheduler: every program instance of every rank is a stackful coroutine; worker
//! threads resume them round-robin, and an instance whose wait is not yet satisfied yields
//! instead of spinning, so spin-waiting kernels finish on two cores.
//!
//! Instances start lazily, from one shared queue: a worker starts the next one when it has
//! none, or when all of its own came back blocked. A static split would put every compute
//! instance of an overlap kernel (program 0 of each rank) on one worker and every comm
//! instance on the other, leaving half the machine idle.
//!
//! Deadlock: when every worker has resumed all of its live instances twice in a row, each
//! came back blocked, and nothing anywhere made progress in between, no instance can ever
//! unblock another. A wall-clock timeout without progress backs this up, but only while no
//! worker is inside an instance: an instance that computes for longer than the timeout
//! before it signals is running, not stuck, and the instances waiting for it are healthy.

use super::ops::{compare, RT_FNS};
use super::pool::{return_stack, take_stack, Job};
use super::reuse::Reused;
pub(crate) use super::pool::Pool;
use super::state::{Blocked, Inst, Shared, Yield};
use super::LocalOptions;
use crate::abi::{cmp, KernelCtx};
use crate::error::{BlockedWait, DeadlockReport, LaunchWarning, WaitKind};
use crate::heap::Heap;
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::RuntimeError;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One program instance's memory: its context and state. Its arguments are its rank's row of
/// the launch's argument slots.
struct Task {
    ctx: KernelCtx,
    inst: Inst,
    args: *const u64,
}

const DONE: u64 = u64::MAX;
/// A worker's state while it is inside an instance (between resume and yield).
const RUNNING: u64 = u64::MAX - 1;
const ROUNDS_BITS: u64 = 8;

/// What a launch runs in this process: which ranks, with which runtime table, and how to reach
/// ranks that live in other processes (none on `local`).
pub(crate) struct Here<'a> {
    /// The function table kernels call.
    pub fns: &'static crate::abi::RtFns,
    /// The ranks whose instances run here.
    pub ranks: std::ops::Range<usize>,
    /// The other processes (the `mpi` transport).
    pub remote: Option<&'a crate::mpi::Peers>,
}

impl Here<'static> {
    /// Every rank, in this process.
    pub fn all(n: usize) -> Here<'static> {
        Here { fns: &RT_FNS, ranks: 0..n, remote: None }
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    pool: &Pool,
    heap: &Heap,
    opts: &LocalOptions,
    here: &Here<'_>,
    kernel: &Launchable,
    grid: [u32; 3],
    args: &[Arg],
    lopts: &LaunchOptions,
) -> Result<LaunchReport, RuntimeError> {
    let crate::KernelCode::Cpu(entry) = kernel.code else { return Err(kernel.wrong_code(if here.remote.is_some() { "mpi" } else { "local" }, "CPU code")) };
    let topo = opts.topology;
    let n = topo.world_size();
    let per_rank = (grid[0] * grid[1] * grid[2]) as usize;
    let total = here.ranks.len() * per_rank;
    let shared = Shared {
        heap,
        kernel,
        topology: topo,
        bases: heap.bases(),
        heap_bytes: heap.capacity(),
        total,
        ranks_here: here.ranks.len(),
        remote: here.remote,
        progress: AtomicU64::new(0),
        park: Default::default(),
        abort: Default::default(),
        deadlock: Default::default(),
        fault: Mutex::new(None),
        barrier_arrived: Default::default(),
        barrier_gen: Default::default(),
        allocs: super::bounds::AllocTable::new(heap.live_allocations()),
        bounds_check: opts.bounds_check && lopts.bounds_check,
        race: (here.remote.is_none() && (lopts.racecheck || opts.racecheck))
            .then(|| Mutex::new(super::race::Detector::new(total, super::race::Numbering { first_rank: here.ranks.start, grid }))),
        signals: (lopts.track_signals && here.remote.is_none()).then(super::signals::SignalTable::new),
        rank_scratch: Default::default(),
        background: lopts.background.as_deref(),
    };
    // SAFETY: `shared` outlives every task (the scope below joins all workers first).
    let shared_ptr = &shared as *const Shared as *const Shared<'static>;
    // Every program of a rank gets the same argument slots: one row per rank.
    let mut slots = Reused::take(&SLOTS, here.ranks.len() * args.len());
    for rank in here.ranks.clone() {
        slots.extend(args.iter().map(|a| a.slot(heap.base(rank))));
    }
    // Tasks live in one allocation that never grows, so their addresses (the contexts point at
    // their own `inst`) stay put.
    let mut tasks = Reused::take(&TASKS, total);
    for (row, rank) in here.ranks.clone().enumerate() {
        for z in 0..grid[2] as i32 {
            for y in 0..grid[1] as i32 {
                for x in 0..grid[0] as i32 {
                    let index = tasks.len();
                    tasks.push(Task {
                        ctx: KernelCtx {
                            fns: here.fns,
                            rank: rank as i32,
                            n_ranks: n as i32,
                            program_id: [x, y, z],
                            num_programs: [grid[0] as i32, grid[1] as i32, grid[2] as i32],
                            local_rank: topo.local_rank(rank) as i32,
                            local_size: topo.local_size as i32,
                            inst: std::ptr::null_mut(),
                        },
                        inst: Inst {
                            shared: shared_ptr,
                            yielder: std::ptr::null(),
                            rank,
                            program: [x, y, z],
                            index,
                            blocked: None,
                            nbi_pending: 0,
                            last_nbi_site: -1,
                            spinning: None,
                            last_poll: None,
                            finished: false,
                        },
                        args: slots[row * args.len()..].as_ptr(),
                    });
                }
            }
        }
    }
    let mut task_ptrs = Reused::take(&TASK_PTRS, total);
    for t in tasks.iter_mut() {
        t.ctx.inst = &mut t.inst as *mut Inst as *mut std::ffi::c_void;
        task_ptrs.push(t as *mut Task as usize);
    }
    let workers = pool.size().clamp(1, total);
    let mut states = Reused::take(&STATES, workers);
    states.extend((0..workers).map(|_| AtomicU64::new(0)));
    let start = Instant::now();
    let spawn_err: Mutex<Option<RuntimeError>> = Mutex::new(None);
    let queue = Queue { tasks: &task_ptrs, next: AtomicUsize::new(0) };
    let (stack, timeout) = (opts.stack_bytes, opts.deadlock_timeout);
    let job = |w: usize| {
        if let Err(e) = worker(w, &queue, &states, &shared, entry, stack, timeout) {
            *spawn_err.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
            shared.abort.store(true, Ordering::Release);
        }
    };
    if workers == 1 && here.remote.is_some() {
        // One worker (ranks of a node sharing its cores): run it here, sparing two thread
        // hand-offs per launch, which dominate small collectives (and the jobs' boxes).
        job(0);
    } else {
        let job = &job;
        let jobs: Vec<Job<'_>> = (0..workers).map(|w| Box::new(move || job(w)) as Job<'_>).collect();
        if here.remote.is_none() {
            pool.run_here(jobs);
        } else {
            pool.run(jobs);
        }
    }
    let elapsed = start.elapsed();
    if let Some(e) = spawn_err.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if let Some(f) = shared.fault.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(f);
    }
    if shared.deadlock.load(Ordering::Acquire) {
        return Err(RuntimeError::Deadlock(deadlock_report(&shared, &tasks)));
    }
    let warnings = warnings(&shared, &tasks);
    if lopts.warnings_as_errors && !warnings.is_empty() {
        return Err(RuntimeError::Warnings { kernel: kernel.name.clone(), warnings });
    }
    Ok(LaunchReport { elapsed, device: None, warnings })
}

type Co = Coroutine<(), Yield, (), DefaultStack>;

/// The instances not yet started, shared by the workers.
struct Queue<'a> {
    tasks: &'a [usize],
    next: AtomicUsize,
}

impl Queue<'_> {
    /// Starts the next instance as a coroutine in `live`; false when none is left.
    fn start(&self, live: &mut Vec<(usize, Co)>, shared: &Shared, entry: crate::abi::KernelFn, stack_bytes: usize) -> Result<bool, RuntimeError> {
        let Some(&t) = self.tasks.get(self.next.fetch_add(1, Ordering::AcqRel)) else { return Ok(false) };
        let stack = take_stack(stack_bytes)?;
        let co = Coroutine::with_stack(stack, move |y: &corosensei::Yielder<(), Yield>, ()| {
            let task = t as *mut Task;
            // SAFETY: each task is driven by exactly one worker; the launch outlives it.
            unsafe {
                (*task).inst.yielder = y as *const _;
                entry(&mut (*task).ctx, (*task).args);
            }
        });
        live.push((t, co));
        // A start is progress: the new instance may be the one the others wait for.
        shared.bump();
        Ok(true)
    }
}

fn worker(
    w: usize,
    queue: &Queue,
    states: &[AtomicU64],
    shared: &Shared,
    entry: crate::abi::KernelFn,
    stack_bytes: usize,
    timeout: Duration,
) -> Result<(), RuntimeError> {
    let mut live = Reused::take(&LIVE, 1);
    let result = run_instances(w, queue, &mut live, states, shared, entry, stack_bytes, timeout);
    if result.is_err() {
        shared.abort.store(true, Ordering::Release);
    }
    states[w].store(DONE, Ordering::Release);
    for (_, mut co) in live.drain(..) {
        // SAFETY: suspended kernels hold no Rust objects that need dropping (runtime entry
        // points keep none across a suspend), and JIT frames cannot be unwound.
        unsafe { co.force_reset() };
        return_stack(stack_bytes, co.into_stack());
    }
    result
}

thread_local! {
    // A launch's memory, kept by the thread across launches (see `reuse`).
    static TASKS: Cell<Vec<Task>> = const { Cell::new(Vec::new()) };
    static TASK_PTRS: Cell<Vec<usize>> = const { Cell::new(Vec::new()) };
    static SLOTS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    static STATES: Cell<Vec<AtomicU64>> = const { Cell::new(Vec::new()) };
    static LIVE: Cell<Vec<(usize, Co)>> = const { Cell::new(Vec::new()) };
}

#[allow(clippy::too_many_arguments)]
fn run_instances(
    w: usize,
    queue: &Queue,
    live: &mut Vec<(usize, Co)>,
    states: &[AtomicU64],
    shared: &Shared,
    entry: crate::abi::KernelFn,
    stack_bytes: usize,
    timeout: Duration,
) -> Result<(), RuntimeError> {
    let (mut idle_rounds, mut idle_at, mut idle_since) = (0u64, u64::MAX, None::<Instant>);
    let mut watch = crate::mpi::Watch::default();
    // Whether this idle round's MPI progress call already gave the core away.
    let mut yielded = false;
    while !shared.abort.load(Ordering::Acquire) {
        if live.is_empty() && !queue.start(live, shared, entry, stack_bytes)? {
            break;
        }
        let before = shared.progress_now();
        let mut all_blocked = true;
        let mut i = 0;
        while i < live.len() {
            let idle = states[w].swap(RUNNING, Ordering::AcqRel);
            shared.remote.inspect(|p| p.resume_edge(w));
            let resumed = live[i].1.resume(());
            shared.remote.inspect(|p| p.resume_edge(w));
            states[w].store(idle, Ordering::Release);
            match resumed {
                CoroutineResult::Return(()) => {
                    let task = live[i].0 as *mut Task;
                    unsafe { (*task).inst.finished = true };
                    return_stack(stack_bytes, live.swap_remove(i).1.into_stack());
                    shared.bump();
                    all_blocked = false;
                    continue;
                }
                CoroutineResult::Yield(Yield::Stop) => break,
                CoroutineResult::Yield(Yield::Blocked) => {}
            }
            i += 1;
            if shared.abort.load(Ordering::Acquire) {
                break;
            }
        }
        if all_blocked && !live.is_empty() && queue.start(live, shared, entry, stack_bytes)? {
            continue;
        }
        let now = shared.progress_now();
        shared.remote.inspect(|p| p.publish(now));
        if all_blocked && now == before && !live.is_empty() {
            if idle_at == now {
                idle_rounds += 1;
            } else {
                (idle_at, idle_rounds, idle_since) = (now, 1, None);
            }
            // How long this wait has lasted, counted from its `CLOCK_AFTER`th idle round.
            let idle_for = if idle_rounds < CLOCK_AFTER { Duration::ZERO } else { idle_since.get_or_insert_with(Instant::now).elapsed() };
            states[w].store(now << ROUNDS_BITS | idle_rounds.min(255), Ordering::Release);
            let stuck = match shared.remote {
                None => everyone_stuck(states, shared, now) || (idle_for > timeout && !anyone_running(states)),
                // Another process may still unblock these instances: the timeout decides, once
                // every other process has been idle through it too.
                Some(peers) => {
                    yielded = peers.progress();
                    match peers.judge(&mut watch, idle_for, timeout) {
                        crate::mpi::Verdict::PeerFailed(rank) => return Err(peers.peer_failed_error(rank, &shared.kernel.name).into()),
                        _ if anyone_running(states) => false,
                        crate::mpi::Verdict::Stuck => true,
                        crate::mpi::Verdict::Active => {
                            idle_since = Some(Instant::now());
                            false
                        }
                        crate::mpi::Verdict::Wait => false,
                    }
                }
            };
            // Checked before `everyone_stuck` re-reads progress: a queue's last signal write
            // happens before it stops being busy, so it shows as progress there.
            if stuck && !shared.background_busy() && shared.progress_now() == now {
                shared.deadlock.store(true, Ordering::Release);
                shared.abort.store(true, Ordering::Release);
                shared.park.wake();
            }
            // Under MPI a peer process, not a thread here, is what everyone waits for (see
            // `mpi::idle`). On `local` the waits are for other workers' instances.
            if let Some(peers) = shared.remote {
                peers.pause(&mut watch, yielded);
            } else {
                idle(shared, states, live, idle_rounds, idle_for, now);
            }
        } else {
            idle_rounds = 0;
            idle_at = u64::MAX;
            watch.active();
            states[w].store(0, Ordering::Release);
        }
    }
    Ok(())
}

/// Idle rounds before a wait reads the clock: most waits (for a peer on its own core, for a
/// chunk another worker is copying) end sooner, and a clock read costs about as much as a
/// round, so the first rounds count as no time waited.
const CLOCK_AFTER: u64 = 32;
/// Spinning this long while another worker is inside an instance catches a signal that is a
/// chunk's copy away without a sleep and a wakeup (a few µs each way).
const SPIN: Duration = Duration::from_micros(50);
/// The longest sleep on progress: a bound for waits that nothing here bumps progress for
/// (a copy engine's writes, a signal word stored through a remote pointer).
const PARK: Duration = Duration::from_micros(200);
/// Sleep between polls of words written by plain stores (LL payloads), which bump nothing.
const POLL: Duration = Duration::from_micros(20);

/// Backs off after an idle round at progress `now`, so that a worker sharing a core (other
/// load, more workers than cores) lets the instance that everyone waits for run.
fn idle(shared: &Shared, states: &[AtomicU64], live: &[(usize, Co)], idle_rounds: u64, idle_for: Duration, now: u64) {
    // SAFETY: this worker drives these tasks; nothing else touches their `blocked`.
    let plain = live.iter().any(|&(t, _)| matches!(unsafe { (*(t as *const Task)).inst.blocked }, Some(Blocked::Spin { .. })));
    if plain || !parks() {
        // Another worker inside an instance may be storing the very words these instances poll
        // (LL stores are plain stores, not progress): keep the core a while rather than lose it
        // for a timer tick (ep_dispatch's receivers waited out whole ticks for such stores).
        if idle_rounds < 1024 && anyone_running(states) {
            std::hint::spin_loop();
        } else if idle_rounds < 64 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(POLL);
        }
    } else if idle_for < SPIN && anyone_running(states) {
        std::hint::spin_loop();
    } else {
        // Signals, puts and barrier arrivals bump progress, which wakes this sleep at once; the
        // core is free for the instance being waited for meanwhile.
        let timeout = if shared.background.is_some() { POLL } else { PARK };
        shared.park.sleep(timeout, || !shared.abort.load(Ordering::Acquire) && shared.progress_now() == now);
    }
}

/// False under `WEFT_IDLE=spin`: every wait backs off as polls of plain stores do (the policy
/// before parking on progress), only to measure one against the other.
fn parks() -> bool {
    static PARKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PARKS.get_or_init(|| std::env::var("WEFT_IDLE").ok().is_none_or(|v| v.trim() != "spin"))
}

/// True when some worker is inside an instance right now.
fn anyone_running(states: &[AtomicU64]) -> bool {
    states.iter().any(|s| s.load(Ordering::Acquire) == RUNNING)
}

/// True when every worker is done or has had two idle rounds at progress value `now`.
fn everyone_stuck(states: &[AtomicU64], shared: &Shared, now: u64) -> bool {
    states.iter().all(|s| {
        let v = s.load(Ordering::Acquire);
        v == DONE || (v >> ROUNDS_BITS == now && v & 0xFF >= 2)
    }) && shared.progress_now() == now
}

fn cmp_name(c: i32) -> &'static str {
    match c {
        cmp::EQ => "==",
        cmp::NE => "!=",
        cmp::GT => ">",
        cmp::GE => ">=",
        cmp::LT => "<",
        cmp::LE => "<=",
        _ => "?",
    }
}

fn deadlock_report(shared: &Shared, tasks: &[Task]) -> DeadlockReport {
    let mut waits = vec![];
    let mut finished = 0;
    let arrived = shared.barrier_arrived.load(Ordering::Acquire);
    for t in tasks {
        if t.inst.finished {
            finished += 1;
            continue;
        }
        let Some(b) = t.inst.blocked else { continue };
        let (site, kind) = match b {
            Blocked::Signal { site, addr, cmp, expected } => {
                // SAFETY: the address was validated when the wait started.
                let current = unsafe { (*(addr as *const AtomicU64)).load(Ordering::Acquire) };
                debug_assert_eq!(compare(current, cmp, expected), Some(false));
                (site, WaitKind::Signal { alloc: shared.alloc_of(addr), addr, cmp: cmp_name(cmp), expected, current })
            }
            Blocked::Barrier { site } => (site, WaitKind::Barrier { arrived, total: shared.total }),
            Blocked::Spin { site, addr } => (site, WaitKind::Spin { alloc: shared.alloc_of(addr), addr }),
        };
        waits.push(BlockedWait { origin: t.inst.origin(site), kind });
    }
    DeadlockReport { kernel: shared.kernel.name.clone(), finished, waits }
}

fn warnings(shared: &Shared, tasks: &[Task]) -> Vec<LaunchWarning> {
    let mut out: Vec<LaunchWarning> = tasks
        .iter()
        .filter(|t| t.inst.nbi_pending > 0)
        .map(|t| LaunchWarning::UnquietedNbi { origin: t.inst.origin(t.inst.last_nbi_site), count: t.inst.nbi_pending })
        .collect();
    if let Some(sig) = &shared.signals {
        let unobserved = sig.unobserved(|addr| shared.background.is_some_and(|b| b.observed(addr)));
        out.extend(unobserved.into_iter().map(|(addr, rank, value)| LaunchWarning::UnobservedSignal { rank, alloc: shared.alloc_of(addr), value }));
    }
    out
}
