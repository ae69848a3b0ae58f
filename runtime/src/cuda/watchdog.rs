//! Bounded waits on the `cuda` transport's stream. A GPU fault or a peer that never arrives
//! would otherwise hang every PE of the job in a blocking stream sync; instead the stream is
//! polled (`cuStreamQuery`) against a deadline, and on expiry the PE says what it was waiting
//! for, calls `nvshmem_global_exit` (which ends every PE of the job) and, where that returns,
//! gives back a typed error.

use super::CudaError;
use std::time::{Duration, Instant};

/// How long a wait polls the stream back to back before it starts to sleep between polls.
const SPIN: Duration = Duration::from_micros(300);

/// What the watchdog needs of a PE: its stream's state, and the job-wide exit.
pub trait Watched {
    /// Whether everything queued on the stream has finished (`cuStreamQuery`).
    fn stream_done(&self) -> Result<bool, CudaError>;
    /// `nvshmem_global_exit(status)`: ends every PE's process.
    fn global_exit(&self, status: i32);
}

/// What a PE waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// Its own kernel: this PE is stuck (or waits on a PE that is).
    Kernel,
    /// The barrier of every PE: its kernel finished, another PE is stuck.
    Barrier,
}

/// Waits until `pe`'s stream is done or `deadline` has passed; then reports, exits the job
/// and returns [`CudaError::LaunchTimeout`].
pub fn wait(w: &dyn Watched, kernel: &str, pe: usize, waiting: Waiting, deadline: Duration) -> Result<(), CudaError> {
    let start = Instant::now();
    let mut nap = Duration::from_micros(5);
    while !w.stream_done()? {
        // Poll without sleeping first: a launch of tens of microseconds would otherwise pay a
        // sleep's wake-up (measured on an H200: 0.2 ms a launch over three waits, ten times
        // the kernel), and the tuner would time the wake-ups instead of the kernels.
        if start.elapsed() < SPIN {
            std::thread::yield_now();
            continue;
        }
        if start.elapsed() >= deadline {
            let err = CudaError::LaunchTimeout { kernel: kernel.into(), pe, waiting, waited_ms: deadline.as_millis() };
            // Printed first: the global exit normally ends this process too.
            eprintln!("weft: {err}; calling nvshmem_global_exit(1)");
            w.global_exit(1);
            return Err(err);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
    Ok(())
}
