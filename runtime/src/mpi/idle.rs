//! How a process waits for its peers. A peer on a core of its own answers within a microsecond
//! or two, and giving the core away (`sched_yield` on a loaded machine) costs a time slice: so
//! spin, as Open MPI does when every process has a core. When processes outnumber cores the
//! peer waited for may need this very core: yield at once, as Open MPI's `yield_when_idle`
//! does. Once a wait has lasted long enough that the peer is clearly busy elsewhere (a host
//! reference, compiling, a slow peer), sleep.

use std::time::{Duration, Instant};

/// How long a process with a core of its own spins before yielding.
const SPIN: Duration = Duration::from_micros(100);
/// How long an oversubscribed process spins before yielding (a peer may be on the other core).
const SPIN_OVERSUBSCRIBED: Duration = Duration::from_micros(0);
/// How long a wait yields before it sleeps.
const YIELD: Duration = Duration::from_millis(200);
/// Polls between clock reads (a clock read costs about as much as a poll).
const CLOCK_EVERY: u32 = 32;

/// How long a wait spins before it yields: `WEFT_MPI_SPIN_US` microseconds, else by whether
/// this node's processes outnumber its cores.
pub(crate) fn spin_budget(local_size: usize) -> Duration {
    match std::env::var("WEFT_MPI_SPIN_US").ok().and_then(|s| s.trim().parse().ok()) {
        Some(us) => Duration::from_micros(us),
        None if oversubscribed(local_size) => SPIN_OVERSUBSCRIBED,
        None => SPIN,
    }
}

/// Whether Open MPI gives the core away (`sched_yield`) inside a progress call that found
/// nothing to do: its `mpi_yield_when_idle`, on by default when processes outnumber cores.
pub(crate) fn mpi_yields(local_size: usize) -> bool {
    match std::env::var("OMPI_MCA_mpi_yield_when_idle") {
        Ok(v) => matches!(v.trim(), "1" | "true"),
        Err(_) => oversubscribed(local_size),
    }
}

/// Whether this node's processes outnumber its cores: Open MPI's own verdict when it started
/// them, else the count of online CPUs.
fn oversubscribed(local_size: usize) -> bool {
    if let Ok(v) = std::env::var("OMPI_MCA_mpi_oversubscribe") {
        return v.trim() == "1";
    }
    // SAFETY: sysconf has no preconditions.
    let cpus = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    cpus > 0 && local_size > cpus as usize
}

/// One wait's back-off.
pub(crate) struct Idle {
    start: Instant,
    spin: Duration,
    polls: u32,
    /// How long the wait had lasted at the last clock read.
    waited: Duration,
    phase: Phase,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Spin,
    Yield,
    Sleep,
}

impl Idle {
    /// A wait starting now that spins for `spin` before it yields.
    pub(crate) fn new(spin: Duration) -> Idle {
        Idle { start: Instant::now(), spin, polls: 0, waited: Duration::ZERO, phase: if spin.is_zero() { Phase::Yield } else { Phase::Spin } }
    }

    /// How long the wait had lasted when [`Idle::pause`] last read the clock.
    pub(crate) fn waited(&self) -> Duration {
        self.waited
    }

    /// One unsuccessful poll: spin, yield or sleep.
    pub(crate) fn pause(&mut self) {
        self.pause_after(false)
    }

    /// [`Idle::pause`] right after an MPI progress call; `yielded`: that call gave the core
    /// away already (Open MPI's yield when idle), so a second yield would only cost another
    /// trip through the scheduler.
    pub(crate) fn pause_after(&mut self, yielded: bool) {
        if self.polls.is_multiple_of(CLOCK_EVERY) || self.phase != Phase::Spin {
            self.waited = self.start.elapsed();
            if self.waited > YIELD {
                self.phase = Phase::Sleep;
            } else if self.waited > self.spin && self.phase == Phase::Spin {
                self.phase = Phase::Yield;
            }
        }
        self.polls = self.polls.wrapping_add(1);
        match self.phase {
            Phase::Spin => std::hint::spin_loop(),
            Phase::Yield if yielded => {}
            Phase::Yield => std::thread::yield_now(),
            Phase::Sleep => std::thread::sleep(Duration::from_micros(50)),
        }
    }
}
