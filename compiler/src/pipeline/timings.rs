//! Where a compilation spends its time, step by step (`WEFT_TIMINGS=1`, or `weft compile
//! --timings`): each step's wall time and CPU time, printed to stderr as it ends. CPU time
//! (user + system of this thread, plus that of the tools it waited for, such as ptxas) is the
//! number to compare on a shared machine, where wall time also counts other processes' turns.
//! Benches read the same steps back with [`collect`] and [`take`].

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// One timed step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What ran (`llvm.opt`, `cubin.ptxas`, ...).
    pub name: &'static str,
    /// Wall-clock time.
    pub wall: Duration,
    /// CPU time of this thread and of the child processes it waited for.
    pub cpu: Duration,
}

thread_local! {
    /// Steps recorded on this thread since [`collect`], when collecting.
    static STEPS: RefCell<Option<Vec<Step>>> = const { RefCell::new(None) };
    /// What this thread compiles (kernel and target), for the printed lines.
    static LABEL: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Names what this thread compiles in the printed lines until dropped.
pub struct Label(String);

/// Labels the steps that follow on this thread `what` (a kernel and target) until the guard drops.
pub fn label(what: String) -> Label {
    Label(LABEL.with(|l| std::mem::replace(&mut *l.borrow_mut(), what)))
}

impl Drop for Label {
    fn drop(&mut self) {
        LABEL.with(|l| *l.borrow_mut() = std::mem::take(&mut self.0));
    }
}

static FORCED: AtomicBool = AtomicBool::new(false);

/// Whether steps are printed: `WEFT_TIMINGS` set to anything but `0`, or [`print`] called.
pub fn printing() -> bool {
    static ENV: OnceLock<bool> = OnceLock::new();
    FORCED.load(Ordering::Relaxed) || *ENV.get_or_init(|| std::env::var("WEFT_TIMINGS").is_ok_and(|v| !matches!(v.trim(), "" | "0")))
}

/// Prints every step of this process from now on (`weft compile --timings`).
pub fn print() {
    FORCED.store(true, Ordering::Relaxed);
}

/// Starts recording this thread's steps (replacing any not yet taken).
pub fn collect() {
    STEPS.with(|s| *s.borrow_mut() = Some(vec![]));
}

/// The steps recorded on this thread since [`collect`]; recording stops.
pub fn take() -> Vec<Step> {
    STEPS.with(|s| s.borrow_mut().take()).unwrap_or_default()
}

/// CPU time so far of this thread (to the nanosecond: `getrusage` counts whole scheduler
/// ticks per thread) plus that of the waited-for children of the process.
fn cpu_now() -> Duration {
    // SAFETY: both calls only write the structs they are given.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32) + tv(u.ru_utime) + tv(u.ru_stime)
}

/// Runs `f` as step `name`, recording and printing it when asked; otherwise just runs it.
pub fn time<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    let collecting = STEPS.with(|s| s.borrow().is_some());
    if !collecting && !printing() {
        return f();
    }
    let (wall0, cpu0) = (Instant::now(), cpu_now());
    let r = f();
    let step = Step { name, wall: wall0.elapsed(), cpu: cpu_now().saturating_sub(cpu0) };
    if printing() {
        let what = LABEL.with(|l| l.borrow().clone());
        eprintln!("weft timings: {what} {name:<18} {:8.1} ms wall {:8.1} ms cpu", ms(step.wall), ms(step.cpu));
    }
    STEPS.with(|s| {
        if let Some(v) = s.borrow_mut().as_mut() {
            v.push(step);
        }
    });
    r
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_steps_in_order_only_while_collecting() {
        time("before", || ());
        collect();
        let _l = label("k sm_90a".into());
        let v = time("sum", || (0..200_000u64).map(std::hint::black_box).sum::<u64>());
        time("sleep", || std::thread::sleep(Duration::from_millis(20)));
        let steps = take();
        assert_eq!(v, 199_999 * 200_000 / 2);
        assert_eq!(steps.iter().map(|s| s.name).collect::<Vec<_>>(), ["sum", "sleep"]);
        // A sleep takes wall time but (almost) no CPU time.
        assert!(steps[1].wall >= Duration::from_millis(20), "{steps:?}");
        assert!(steps[1].cpu < steps[1].wall, "{steps:?}");
        assert!(take().is_empty(), "recording stops at take");
    }
}
