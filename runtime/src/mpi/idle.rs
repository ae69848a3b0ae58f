//! How a process waits for its peers. A peer on a core of its own answers within a microsecond
//! or two, and giving the core away (`sched_yield` on a loaded machine) costs a time slice: so
//! spin, as Open MPI does when every process has a core. When processes outnumber cores the
//! peer waited for may need this very core: yield at once, as Open MPI's `yield_when_idle`
//! does. A wait that outlasts the yield budget sleeps, for a share of the time it has waited
//! so far (at most [`SLEEP_SHARE`] added to it): a yielding process stays runnable, so
//! every waiter is one more task the scheduler shares the cores among, and the ranks still
//! computing (the ones waited for) got a smaller share. Measured at 1x4 on 2 cores under
//! other load: see the README's wait policy.

use super::bell::Bell;
use std::time::{Duration, Instant};

/// How long a process with a core of its own spins before yielding.
const SPIN: Duration = Duration::from_micros(100);
/// How long an oversubscribed process spins before yielding (a peer may be on the other core).
const SPIN_OVERSUBSCRIBED: Duration = Duration::from_micros(0);
/// How long a wait yields before it sleeps.
const YIELD: Duration = Duration::from_micros(200);
/// A sleep is at most this share of the time waited so far: it adds at most that much to a wait.
const SLEEP_SHARE: u32 = 8;
/// The shortest and longest sleep (the timer's slack is ~50 µs anyway; the longest bounds the
/// latency added to a wait that ends during it).
const SLEEP_MIN: Duration = Duration::from_micros(20);
const SLEEP_MAX: Duration = Duration::from_millis(1);
/// Polls between clock reads (a clock read costs about as much as a poll).
const CLOCK_EVERY: u32 = 32;

/// How long a wait spins, then yields, before it sleeps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    spin: Duration,
    yield_for: Duration,
    sleep_max: Duration,
}

fn env_us(key: &str) -> Option<Duration> {
    std::env::var(key).ok().and_then(|s| s.trim().parse().ok()).map(Duration::from_micros)
}

impl Budget {
    /// `WEFT_MPI_SPIN_US` microseconds of spinning, else by whether this node's processes
    /// outnumber its cores; then `WEFT_MPI_YIELD_US` of yielding (default 200).
    pub(crate) fn from_env(local_size: usize) -> Budget {
        let spin = env_us("WEFT_MPI_SPIN_US").unwrap_or(if oversubscribed(local_size) { SPIN_OVERSUBSCRIBED } else { SPIN });
        Budget { spin, yield_for: env_us("WEFT_MPI_YIELD_US").unwrap_or(YIELD), sleep_max: env_us("WEFT_MPI_SLEEP_MAX_US").unwrap_or(SLEEP_MAX) }
    }

    /// This budget for a pause inside a program instance (a wait for a peer's launch): the
    /// worker's other instances, which may have work, wait out any sleep too, so it only
    /// yields (for as long as waits did before they slept at all).
    pub(crate) fn in_instance(self) -> Budget {
        Budget { yield_for: IN_INSTANCE_YIELD, ..self }
    }
}

/// How long a pause inside an instance yields before it sleeps (a peer still compiling).
const IN_INSTANCE_YIELD: Duration = Duration::from_millis(200);

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
    /// When the wait started, as first read: a spinning wait reads the clock only after
    /// [`CLOCK_EVERY`] polls (most waits for a peer on its own core end sooner, and two clock
    /// reads were a tenth of a 1 µs launch); its spin lasts that much longer.
    start: Option<Instant>,
    budget: Budget,
    polls: u32,
    /// How long the wait had lasted at the last clock read.
    waited: Duration,
    phase: Phase,
    /// A doorbell that ends this wait's sleeps early, and its ring count as of the last pause
    /// (so before the poll that failed since; see `bell`).
    bell: Option<(&'static Bell, u32)>,
}

/// In the order a wait goes through them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Phase {
    Spin,
    Yield,
    Sleep,
}

impl Idle {
    /// A wait starting now.
    pub(crate) fn new(budget: Budget) -> Idle {
        let phase = if budget.spin.is_zero() { Phase::Yield } else { Phase::Spin };
        Idle { start: (phase != Phase::Spin).then(Instant::now), budget, polls: 0, waited: Duration::ZERO, phase, bell: None }
    }

    /// This wait's sleeps end when `bell` rings, not only at their timeout (if bells are on).
    pub(crate) fn with_bell(self, bell: &'static Bell) -> Idle {
        Idle { bell: super::bell::on().then(|| (bell, bell.seen())), ..self }
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
        if self.phase != Phase::Spin || (self.polls > 0 && self.polls.is_multiple_of(CLOCK_EVERY)) {
            self.waited = self.start.get_or_insert_with(Instant::now).elapsed();
            self.phase = self.phase_at(self.waited);
        }
        self.polls = self.polls.wrapping_add(1);
        match self.phase {
            Phase::Spin => std::hint::spin_loop(),
            Phase::Yield if yielded => {}
            Phase::Yield => std::thread::yield_now(),
            Phase::Sleep => {
                let d = sleep_for(self.waited).min(self.budget.sleep_max);
                match self.bell {
                    Some((bell, seen)) => drop(bell.sleep(seen, d)),
                    None => std::thread::sleep(d),
                }
            }
        }
        if let Some((bell, _)) = self.bell {
            self.bell = Some((bell, bell.seen()));
        }
    }

    /// The phase of a wait that has lasted `waited` (phases only move forward).
    fn phase_at(&self, waited: Duration) -> Phase {
        let b = self.budget;
        let due = if waited > b.spin + b.yield_for {
            Phase::Sleep
        } else if waited > b.spin {
            Phase::Yield
        } else {
            Phase::Spin
        };
        due.max(self.phase)
    }
}

/// How long a wait that has lasted `waited` sleeps before its next poll.
fn sleep_for(waited: Duration) -> Duration {
    (waited / SLEEP_SHARE).clamp(SLEEP_MIN, SLEEP_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_follow_the_budget_and_only_move_forward() {
        let b = Budget { spin: Duration::from_micros(10), yield_for: Duration::from_micros(100), sleep_max: SLEEP_MAX };
        let idle = Idle::new(b);
        assert_eq!(idle.phase, Phase::Spin);
        assert_eq!(idle.phase_at(Duration::from_micros(5)), Phase::Spin);
        assert_eq!(idle.phase_at(Duration::from_micros(50)), Phase::Yield);
        assert_eq!(idle.phase_at(Duration::from_micros(111)), Phase::Sleep);
        let no_spin = Idle::new(Budget { spin: Duration::ZERO, ..b });
        assert_eq!(no_spin.phase, Phase::Yield);
        let sleeping = Idle { phase: Phase::Sleep, ..Idle::new(b) };
        assert_eq!(sleeping.phase_at(Duration::from_micros(50)), Phase::Sleep);
        // Inside an instance a wait yields far longer before it sleeps.
        let inside = Idle::new(b.in_instance());
        assert_eq!(inside.phase_at(Duration::from_millis(50)), Phase::Yield);
        assert_eq!(inside.phase_at(IN_INSTANCE_YIELD * 2), Phase::Sleep);
    }

    #[test]
    fn a_sleep_adds_at_most_its_share_of_the_wait_within_bounds() {
        for us in [0u64, 100, 1_000, 8_000, 50_000, 10_000_000] {
            let w = Duration::from_micros(us);
            let s = sleep_for(w);
            assert!(s >= SLEEP_MIN && s <= SLEEP_MAX, "{w:?} -> {s:?}");
            assert!(s <= (w / SLEEP_SHARE).max(SLEEP_MIN), "{w:?} -> {s:?}");
        }
    }
}
