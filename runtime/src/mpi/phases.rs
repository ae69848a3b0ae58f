//! Where a launch's time goes on this process (`WEFT_MPI_PHASES=1`): the time each host-side
//! phase of every launch took, printed per process at `finalize` as medians and 90th
//! percentiles (on oversubscribed cores a few launches lose whole time slices, so means say
//! little). For finding small-message latency; off, it costs one load per phase.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// A launch's phases, in order.
#[derive(Clone, Copy)]
pub(crate) enum Phase {
    /// Publishing the arrival (slot store, a record put per other node, flush).
    Announce,
    /// The kernel on the local scheduler.
    Kernel,
    /// The closing step's start (slot store, record puts, flush).
    ClosePublish,
    /// The closing step's wait for every process.
    CloseWait,
}

const NAMES: [&str; 4] = ["announce", "kernel", "close publish", "close wait"];
static SUMS: [AtomicU64; 4] = [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)];
/// Each finished launch's phase times (ns).
static LAUNCHES: Mutex<Vec<[u64; 4]>> = Mutex::new(Vec::new());
static IN_LAUNCH: AtomicBool = AtomicBool::new(false);

fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("WEFT_MPI_PHASES").is_ok_and(|v| v.trim() == "1"))
}

/// Times `phase` from now until the guard is dropped, however the phase ends (closing
/// phases count only inside a launch); a no-op when phases are off.
pub(crate) fn time(phase: Phase) -> Timed {
    Timed(phase, on().then(Instant::now))
}

/// A phase being timed (see [`time`]).
pub(crate) struct Timed(Phase, Option<Instant>);

impl Drop for Timed {
    fn drop(&mut self) {
        let (phase, Some(t)) = (self.0, self.1) else { return };
        if matches!(phase, Phase::ClosePublish | Phase::CloseWait) && !IN_LAUNCH.load(Ordering::Relaxed) {
            return;
        }
        SUMS[phase as usize].fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }
}

/// Marks the launch's closing step (`true`) and its end (`false`).
pub(crate) fn closing(yes: bool) {
    if on() {
        IN_LAUNCH.store(yes, Ordering::Relaxed);
        if !yes {
            let one = SUMS.each_ref().map(|s| s.swap(0, Ordering::Relaxed));
            LAUNCHES.lock().unwrap_or_else(|e| e.into_inner()).push(one);
        }
    }
}

/// The median and 90th percentile µs of each phase over the launches (`None` when off or
/// nothing launched).
pub(crate) fn report(rank: usize) -> Option<String> {
    let all = LAUNCHES.lock().unwrap_or_else(|e| e.into_inner());
    if !on() || all.is_empty() {
        return None;
    }
    let mut parts = vec![];
    for (k, name) in NAMES.iter().enumerate() {
        let mut v: Vec<u64> = all.iter().map(|l| l[k]).collect();
        v.sort_unstable();
        let at = |q: usize| v[(v.len() - 1) * q / 100] as f64 / 1e3;
        parts.push(format!("{name} {:.1}/{:.1}", at(50), at(90)));
    }
    Some(format!("rank {rank}: {} launches, µs median/p90: {}", all.len(), parts.join(", ")))
}
