//! One emulated CTA: a program instance of the `local` runtime whose GPU threads are nested
//! fibers (stackful coroutines) on its stack. A thread runs until it reaches a scheduling
//! point (a barrier, a warp collective, a poll that saw nothing new, a runtime request) and
//! the CTA resumes the others round-robin. Runtime calls that may block the whole instance
//! (NVSHMEM waits and barriers) are made from the CTA's own stack, so the `local` scheduler
//! sees an ordinary blocked instance and its deadlock reports apply.

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::{Cell, RefCell};
use weft_runtime::abi::KernelCtx;

/// Stack bytes of one GPU thread's fiber (touched lazily; kernels' frames are small).
const THREAD_STACK: usize = 256 << 10;

/// Why a thread fiber gave the CTA its stack back.
pub enum Ev {
    /// Waiting (barrier, warp collective, poll): resume when released or next round.
    Park,
    /// Run the thread's pending request on the CTA stack, then resume it.
    Request,
}

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum St {
    /// Runnable.
    Run,
    /// Polling the `bytes`-wide word at `addr` (call site `site`) and saw nothing new.
    Spin { addr: usize, site: i32, bytes: i32 },
    /// At a CTA-wide meeting point (barrier or block-scope call).
    Block,
    /// At a warp collective.
    Warp,
    /// Waiting (call site `site`) for phase `phase` of the mbarrier at shared byte `off` to
    /// complete (see `mbarrier`).
    Mbar { site: i32, off: u32, phase: u64 },
    /// Returned from the kernel.
    Done,
}

/// A request to run on the CTA stack.
pub type Request = *mut (dyn FnMut(*mut KernelCtx) + 'static);

/// One GPU thread.
pub struct Lane {
    /// Index in the CTA.
    pub tid: u32,
    /// Its CTA.
    pub cta: *mut Cta,
    yielder: *const Yielder<(), Ev>,
    /// Where it is.
    pub state: St,
    /// The last poll: (address, value).
    pub last_poll: Option<(usize, u64)>,
    /// Its `cp.async` copies not yet waited for.
    pub copies: crate::cp_async::Pending,
    /// Its `wgmma` groups not yet retired.
    pub wgmma: crate::wgmma_groups::InFlight,
    request: Option<Request>,
}

/// A CTA-wide meeting in progress (barrier or block-scope call).
#[derive(Default)]
pub struct Meet {
    /// Threads arrived.
    pub count: usize,
    /// The call site all must arrive at.
    pub site: i32,
    /// Arguments all must pass.
    pub args: Vec<u64>,
}

/// A warp collective in progress.
#[derive(Default)]
pub struct WarpColl {
    /// Lanes arrived (bit per lane).
    pub arrived: u64,
    /// The call site.
    pub site: i32,
    /// The member mask all pass.
    pub mask: u64,
    /// Each lane's operands.
    pub input: Vec<[u64; 10]>,
    /// Each lane's results.
    pub out: Vec<[u64; 4]>,
}

/// One CTA's state.
pub struct Cta {
    /// The program instance's runtime context.
    pub ctx: *mut KernelCtx,
    /// Threads per CTA.
    pub threads: usize,
    /// Lanes per warp.
    pub warp: usize,
    /// Shared memory (u64 words, so it is 8-byte aligned; 16 is asked of none).
    pub smem: Vec<u64>,
    /// This rank's copy of the module globals.
    pub globals: *mut u8,
    /// Its bytes.
    pub global_bytes: usize,
    /// The threads.
    pub lanes: Vec<Lane>,
    /// The CTA-wide meeting in progress.
    pub meet: Meet,
    /// Warp collectives in progress.
    pub warps: Vec<WarpColl>,
    /// Whether any thread did something since the last round.
    pub moved: bool,
    /// Byte distance to each rank's heap (multimem), filled on first use.
    pub deltas: Vec<i64>,
    /// The shared-memory race checker, when enabled.
    pub race: Option<crate::race::Shadow>,
    /// Call sites (for reports).
    pub sites: &'static [weft_runtime::Site],
    /// Instructions its threads executed (when counting).
    pub executed: u64,
    /// AMD implicit kernel arguments (the grid's block counts; see `amd::implicit_args`).
    pub implicit: [u32; 4],
    /// The async proxy: mbarriers and TMA copies (see `tma`).
    pub tma: crate::tma::Proxy,
}

thread_local! {
    static CUR: Cell<*mut Lane> = const { Cell::new(std::ptr::null_mut()) };
    static STACKS: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
}

/// The thread running now.
pub fn lane() -> &'static mut Lane {
    // SAFETY: set by the CTA before it resumes a thread; runtime calls come only from threads.
    unsafe { &mut *CUR.with(|c| c.get()) }
}

impl Lane {
    /// Its CTA.
    pub fn cta(&self) -> &'static mut Cta {
        // SAFETY: the CTA outlives its threads.
        unsafe { &mut *self.cta }
    }

    /// Gives the CTA its stack back until resumed.
    pub fn park(&mut self) {
        // SAFETY: set when the fiber started.
        unsafe { (*self.yielder).suspend(Ev::Park) };
    }

    /// Runs `f` on the CTA stack (where runtime calls may block the instance) and returns its result.
    pub fn on_cta<R>(&mut self, f: impl FnOnce(*mut KernelCtx) -> R) -> R {
        let mut f = Some(f);
        let mut out = None;
        let mut call = |ctx: *mut KernelCtx| out = f.take().map(|f| f(ctx));
        let r: &mut dyn FnMut(*mut KernelCtx) = &mut call;
        // SAFETY: the CTA runs the request before resuming this fiber, while `call` lives.
        self.request = Some(unsafe { std::mem::transmute::<*mut (dyn FnMut(*mut KernelCtx) + '_), Request>(r) });
        unsafe { (*self.yielder).suspend(Ev::Request) };
        self.cta().moved = true;
        out.expect("the CTA ran the request")
    }

    /// `thread T (warp W, lane L)`.
    pub fn who(&self) -> String {
        let w = self.cta().warp as u32;
        format!("thread {} (warp {}, lane {})", self.tid, self.tid / w, self.tid % w)
    }

    /// Stops the launch with a fault naming this thread.
    pub fn fault(&mut self, site: i32, msg: &str) -> ! {
        let text = format!("{}: {msg}", self.who());
        loop {
            self.on_cta(|ctx| fault_on_cta(ctx, site, &text));
        }
    }
}

/// Reports a fault from the CTA stack (never returns to the kernel).
pub fn fault_on_cta(ctx: *mut KernelCtx, site: i32, text: &str) {
    // SAFETY: `ctx` is the live instance context; the runtime copies the message.
    unsafe { ((*(*ctx).fns).fault)(ctx, text.as_ptr(), text.len(), site) };
}

impl Cta {
    /// The op name of a call site.
    pub fn op(&self, site: i32) -> String {
        self.sites.get(site as usize).map(|s| format!("`{}` ({})", s.op, s.loc)).unwrap_or_else(|| format!("site #{site}"))
    }

    /// Releases every thread waiting in state `st` whose index `pick` accepts.
    pub fn release(&mut self, st: St, pick: impl Fn(u32) -> bool) {
        for l in self.lanes.iter_mut().filter(|l| l.state == st && pick(l.tid)) {
            l.state = St::Run;
        }
        self.moved = true;
    }
}

type Fiber = Coroutine<(), Ev, (), DefaultStack>;

/// Runs one CTA of `threads` threads to completion: the body of [`crate::rt`]'s `run_cta`.
pub fn run(ctx: *mut KernelCtx, args: *const u64, thread_fn: extern "C" fn(*const u64), d: &'static crate::rt::KernelDesc, globals: *mut u8) {
    let (threads, warp, smem, sites, race) = (d.threads, d.warp, d.smem_bytes, &d.sites[..], d.race);
    let mut cta = Box::new(Cta {
        ctx,
        threads,
        warp,
        smem: vec![0; smem.div_ceil(8)],
        globals,
        global_bytes: d.global_bytes,
        lanes: Vec::with_capacity(threads),
        meet: Meet::default(),
        warps: (0..threads.div_ceil(warp)).map(|_| WarpColl { input: vec![[0; 10]; warp], out: vec![[0; 4]; warp], ..Default::default() }).collect(),
        moved: false,
        deltas: vec![],
        race: race.then(|| crate::race::Shadow::new(smem)),
        sites,
        executed: 0,
        implicit: [0; 4],
        tma: Default::default(),
    });
    let cta_ptr: *mut Cta = &mut *cta;
    for t in 0..threads {
        cta.lanes.push(Lane { tid: t as u32, cta: cta_ptr, yielder: std::ptr::null(), state: St::Run, last_poll: None, copies: Default::default(), wgmma: Default::default(), request: None });
    }
    let mut fibers: Vec<Option<Fiber>> = Vec::with_capacity(threads);
    for t in 0..threads {
        let lane_ptr: *mut Lane = &mut cta.lanes[t];
        let lane_addr = lane_ptr as usize;
        let stack = STACKS.with(|s| s.borrow_mut().pop()).map(Ok).unwrap_or_else(|| DefaultStack::new(THREAD_STACK));
        let Ok(stack) = stack else {
            fault_on_cta(ctx, -1, "cannot allocate a GPU thread's fiber stack");
            return;
        };
        fibers.push(Some(Coroutine::with_stack(stack, move |y: &Yielder<(), Ev>, ()| {
            // SAFETY: the lane lives in the boxed CTA for the whole run.
            unsafe { (*(lane_addr as *mut Lane)).yielder = y };
            thread_fn(args);
        })));
    }
    // WEFT_EMU_ORDER=reverse resumes threads last to first: a result that changes with the
    // order depends on an ordering the kernel does not enforce.
    let reverse = std::env::var("WEFT_EMU_ORDER").is_ok_and(|v| v == "reverse");
    loop {
        cta.moved = false;
        let mut live = 0;
        for i in 0..threads {
            let t = if reverse { threads - 1 - i } else { i };
            if matches!(cta.lanes[t].state, St::Done) {
                continue;
            }
            live += 1;
            if !matches!(cta.lanes[t].state, St::Run | St::Spin { .. }) {
                continue;
            }
            let lane_ptr: *mut Lane = &mut cta.lanes[t];
            loop {
                CUR.with(|c| c.set(lane_ptr));
                let Some(fiber) = fibers[t].as_mut() else { break };
                match fiber.resume(()) {
                    CoroutineResult::Return(()) => {
                        cta.lanes[t].state = St::Done;
                        cta.moved = true;
                        if let Some(f) = fibers[t].take() {
                            let stack = f.into_stack();
                            STACKS.with(|s| s.borrow_mut().push(stack));
                        }
                        break;
                    }
                    CoroutineResult::Yield(Ev::Park) => break,
                    CoroutineResult::Yield(Ev::Request) => {
                        // SAFETY: set by `on_cta` just before this yield; valid until resumed.
                        if let Some(r) = cta.lanes[t].request.take() {
                            unsafe { (*r)(ctx) };
                        }
                    }
                }
            }
        }
        if live == 0 {
            if let Err((site, text)) = crate::tma::finish(&mut cta) {
                fault_on_cta(ctx, site, &text);
            }
            crate::rt::EXECUTED.fetch_add(cta.executed, std::sync::atomic::Ordering::Relaxed);
            return;
        }
        // A polled word that changed during this pass: resume its thread rather than yield, so
        // the word the scheduler reads at the yield (a new value there is progress) holds
        // the value the thread waited on, not the message it is about to take.
        if cta.moved || cta.lanes.iter().any(changed_since_parked) {
            continue;
        }
        // Nothing else can proceed: TMA loads in flight land now (as late as they may).
        match crate::tma::land(&mut cta) {
            Ok(true) => continue,
            Ok(false) => {}
            Err((site, text)) => fault_on_cta(ctx, site, &text),
        }
        match cta.lanes.iter().find_map(|l| if let St::Spin { addr, site, .. } = l.state { Some((addr, site)) } else { None }) {
            // Every thread waits for another instance: let the `local` scheduler run it.
            Some((addr, site)) => unsafe { ((*(*ctx).fns).spin_yield)(ctx, addr as *const u8, site) },
            None => {
                let text = crate::report::stuck(&cta);
                // An mbarrier wait names the deadlock better than the last barrier met.
                let site = cta.lanes.iter().find_map(|l| if let St::Mbar { site, .. } = l.state { Some(site) } else { None });
                fault_on_cta(ctx, site.unwrap_or(cta.meet.site), &text);
            }
        }
    }
}

/// True when `l` polls a word that no longer holds the value it parked on.
fn changed_since_parked(l: &Lane) -> bool {
    match (l.state, l.last_poll) {
        (St::Spin { addr, bytes, .. }, Some((p, v))) => p == addr && crate::rt::read_word(addr as *const u8, bytes) != v,
        _ => false,
    }
}
