use super::{Job, Pool};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// Runs `f` while pool worker 0 is inside another launch's job, which ends when `f` sends on
/// the channel it is given (or when `f` returns).
fn with_worker_busy(pool: &Pool, f: impl FnOnce(mpsc::Sender<()>)) {
    let (release, held) = mpsc::channel::<()>();
    let (entered, inside) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            pool.run(vec![Box::new(move || {
                entered.send(()).unwrap();
                let _ = held.recv();
            })])
        });
        inside.recv().unwrap();
        f(release);
    });
}

/// The name of the thread this runs on.
fn here() -> String {
    std::thread::current().name().unwrap_or("").to_string()
}

#[test]
fn a_job_its_worker_has_not_started_runs_once_on_the_caller_and_the_worker_skips_it() {
    let pool = Pool::new(1).unwrap();
    let (runs, ran_on, sum) = (AtomicUsize::new(0), Mutex::new(String::new()), AtomicUsize::new(0));
    with_worker_busy(&pool, |release| {
        // Data on this stack frame, gone before the worker reaches the slot.
        let borrowed: Vec<usize> = (1..=4).collect();
        let jobs: Vec<Job<'_>> = vec![
            Box::new(|| {}),
            Box::new(|| {
                runs.fetch_add(1, Ordering::SeqCst);
                *ran_on.lock().unwrap() = here();
                sum.store(borrowed.iter().sum(), Ordering::SeqCst);
            }),
        ];
        pool.run_here_with(jobs, true);
        assert_eq!(runs.load(Ordering::SeqCst), 1, "the caller ran the unstarted job before returning");
        drop(borrowed);
        release.send(()).unwrap();
    });
    // Joining the worker makes it drain its queue, the taken slot included.
    drop(pool);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(*ran_on.lock().unwrap(), here());
    assert_eq!(sum.load(Ordering::SeqCst), 1 + 2 + 3 + 4);
}

#[test]
fn a_job_its_worker_started_is_waited_for() {
    let pool = Pool::new(1).unwrap();
    let (started, finished, ran_on) = (AtomicBool::new(false), AtomicBool::new(false), Mutex::new(String::new()));
    let jobs: Vec<Job<'_>> = vec![
        // The caller's own job ends only once the worker is inside its job.
        Box::new(|| {
            let t = Instant::now();
            while !started.load(Ordering::SeqCst) {
                assert!(t.elapsed() < Duration::from_secs(30), "the worker never started its job");
                std::thread::yield_now();
            }
        }),
        Box::new(|| {
            started.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            *ran_on.lock().unwrap() = here();
            finished.store(true, Ordering::SeqCst);
        }),
    ];
    pool.run_here_with(jobs, true);
    assert!(finished.load(Ordering::SeqCst));
    assert_eq!(*ran_on.lock().unwrap(), "weft-worker-0");
}

#[test]
fn without_claiming_the_caller_waits_for_the_worker_to_run_its_job() {
    let pool = Pool::new(1).unwrap();
    let ran_on = Mutex::new(String::new());
    with_worker_busy(&pool, |release| {
        let jobs: Vec<Job<'_>> = vec![
            Box::new(move || release.send(()).unwrap()),
            Box::new(|| *ran_on.lock().unwrap() = here()),
        ];
        pool.run_here_with(jobs, false);
    });
    assert_eq!(*ran_on.lock().unwrap(), "weft-worker-0");
}

#[test]
fn when_the_callers_job_panics_an_unstarted_job_is_dropped_unrun() {
    let pool = Pool::new(1).unwrap();
    let runs = AtomicUsize::new(0);
    with_worker_busy(&pool, |release| {
        let jobs: Vec<Job<'_>> = vec![
            Box::new(|| panic!("the caller's job fails")),
            Box::new(|| {
                runs.fetch_add(1, Ordering::SeqCst);
            }),
        ];
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.run_here_with(jobs, true)));
        assert!(unwound.is_err());
        release.send(()).unwrap();
    });
    drop(pool);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn every_job_runs_once_across_many_launches_whether_workers_sleep_or_linger() {
    for pool in [Pool::new(3).unwrap(), Pool::lingering(3, Duration::from_micros(200)).unwrap()] {
        for launch in 0..300 {
            let counts: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
            let jobs: Vec<Job<'_>> = counts
                .iter()
                .map(|c| {
                    Box::new(move || {
                        c.fetch_add(1, Ordering::SeqCst);
                    }) as Job<'_>
                })
                .collect();
            pool.run_here_with(jobs, launch % 3 != 0);
            assert!(counts.iter().all(|c| c.load(Ordering::SeqCst) == 1), "launch {launch}");
        }
    }
}
