//! One [`World`] per rank over a shared transport, as separate processes see a multi-process
//! transport (`cuda`, an MPI or OpenSHMEM one): each view's host reaches only its own rank, and
//! allocations, frees and launches are collective, so every view must issue them in the same
//! order. Each view records its sequence of collective calls; a call that disagrees with
//! another view's at the same point is a [`RuntimeError::CollectiveMismatch`], and one that some
//! view never joins a [`RuntimeError::CollectiveTimeout`], never a hang. Host code run on these
//! views in N threads is checked to touch only `host_ranks()` and to keep collectives in order.

use crate::buffer::RawBuf;
use crate::launch::{Arg, LaunchOptions, LaunchReport, Launchable};
use crate::topology::Topology;
use crate::transport::Transport;
use crate::{RuntimeError, World};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One collective call, as a view issued it.
#[derive(Clone, Debug, PartialEq)]
pub enum Collective {
    /// `alloc` of this many bytes.
    Alloc {
        /// Bytes asked for.
        bytes: usize,
    },
    /// `free` of this allocation.
    Free {
        /// Allocation id.
        id: u64,
    },
    /// A launch.
    Launch {
        /// Kernel name.
        kernel: String,
        /// Grid.
        grid: [u32; 3],
        /// Arguments (buffers and scalars must agree across PEs).
        args: Vec<Arg>,
    },
}

/// What the one executor of a collective hands the others.
#[derive(Clone)]
enum Outcome {
    Buf(RawBuf),
    Report(LaunchReport),
    Done,
    Failed { by: usize, message: String },
}

#[derive(Default)]
struct Round {
    generation: u64,
    calls: Vec<Option<Collective>>,
    last: Option<Outcome>,
}

/// The meeting point of the views' collective calls.
struct Rendezvous {
    inner: Arc<dyn Transport>,
    timeout: Duration,
    round: Mutex<Round>,
    arrived: Condvar,
    logs: Vec<Mutex<Vec<Collective>>>,
}

impl Rendezvous {
    fn lock(&self) -> MutexGuard<'_, Round> {
        self.round.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Joins `call` as `rank`; the last PE to arrive checks every PE issued the same call and
    /// runs it once on the shared transport for all of them.
    fn join(&self, rank: usize, call: Collective, run: impl FnOnce(&dyn Transport) -> Result<Outcome, RuntimeError>) -> Result<Outcome, RuntimeError> {
        self.logs[rank].lock().unwrap_or_else(|e| e.into_inner()).push(call.clone());
        let mut r = self.lock();
        let generation = r.generation;
        r.calls[rank] = Some(call.clone());
        if r.calls.iter().all(Option::is_some) {
            let calls: Vec<Option<Collective>> = r.calls.iter_mut().map(Option::take).collect();
            let outcome = match calls.iter().enumerate().find(|(_, c)| c.as_ref() != Some(&call)) {
                Some((other_rank, other)) => Err(RuntimeError::CollectiveMismatch { rank, call: format!("{call:?}"), other_rank, other: other.as_ref().map(|c| format!("{c:?}")).unwrap_or_else(|| "nothing".into()) }),
                None => run(&*self.inner),
            };
            let (shared, mine) = match outcome {
                Ok(o) => (o.clone(), Ok(o)),
                Err(e) => (Outcome::Failed { by: rank, message: e.to_string() }, Err(e)),
            };
            r.last = Some(shared);
            r.generation += 1;
            self.arrived.notify_all();
            return mine;
        }
        let deadline = Instant::now() + self.timeout;
        while r.generation == generation {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let missing = r.calls.iter().enumerate().filter(|(_, c)| c.is_none()).map(|(i, _)| i).collect();
                r.calls[rank] = None;
                return Err(RuntimeError::CollectiveTimeout { rank, call: format!("{call:?}"), missing, waited_ms: self.timeout.as_millis() });
            }
            r = self.arrived.wait_timeout(r, left).unwrap_or_else(|e| e.into_inner()).0;
        }
        match r.last.clone() {
            Some(Outcome::Failed { by, message }) => Err(RuntimeError::BadLaunch { kernel: format!("{call:?}"), message: format!("failed on PE {by}: {message}") }),
            Some(o) => Ok(o),
            None => Err(RuntimeError::BadLaunch { kernel: format!("{call:?}"), message: "no outcome recorded".into() }),
        }
    }
}

/// One view: the shared transport as the process holding `rank` sees it.
struct View {
    rank: usize,
    meet: Arc<Rendezvous>,
}

/// The views of [`per_process`] and their records.
pub struct ProcessViews {
    /// One world per rank, each holding only that rank.
    pub worlds: Vec<World>,
    meet: Arc<Rendezvous>,
}

impl ProcessViews {
    /// Each view's collective calls so far, in the order it issued them.
    pub fn logs(&self) -> Vec<Vec<Collective>> {
        self.meet.logs.iter().map(|l| l.lock().unwrap_or_else(|e| e.into_inner()).clone()).collect()
    }
}

/// Splits `world` into one view per rank; a collective call that not every view joins within
/// `timeout` fails with [`RuntimeError::CollectiveTimeout`].
pub fn per_process(world: &World, timeout: Duration) -> ProcessViews {
    let inner = world.shared_transport();
    let n = inner.topology().world_size();
    let meet = Arc::new(Rendezvous {
        inner,
        timeout,
        round: Mutex::new(Round { calls: vec![None; n], ..Round::default() }),
        arrived: Condvar::new(),
        logs: (0..n).map(|_| Mutex::new(vec![])).collect(),
    });
    let worlds = (0..n).map(|rank| World::with_transport(Arc::new(View { rank, meet: meet.clone() }))).collect();
    ProcessViews { worlds, meet }
}

impl Transport for View {
    fn name(&self) -> &'static str {
        self.meet.inner.name()
    }

    fn topology(&self) -> Topology {
        self.meet.inner.topology()
    }

    fn host_ranks(&self) -> std::ops::Range<usize> {
        self.rank..self.rank + 1
    }

    fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        match self.meet.join(self.rank, Collective::Alloc { bytes }, |t| t.alloc(bytes).map(Outcome::Buf))? {
            Outcome::Buf(b) => Ok(b),
            _ => Err(RuntimeError::BadLaunch { kernel: "alloc".into(), message: "the collective returned no buffer".into() }),
        }
    }

    fn free(&self, buf: RawBuf) {
        // `free` reports nothing; a disagreement shows in the logs and in the next collective.
        if let Err(e) = self.meet.join(self.rank, Collective::Free { id: buf.id }, |t| {
            t.free(buf);
            Ok(Outcome::Done)
        }) {
            eprintln!("weft: free on PE {}: {e}", self.rank);
        }
    }

    fn write_bytes(&self, buf: RawBuf, rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError> {
        self.meet.inner.write_bytes(buf, rank, offset, data)
    }

    fn read_bytes(&self, buf: RawBuf, rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError> {
        self.meet.inner.read_bytes(buf, rank, offset, out)
    }

    fn gpu_arch(&self) -> Option<&'static str> {
        self.meet.inner.gpu_arch()
    }

    fn gpu_sms(&self) -> Option<usize> {
        self.meet.inner.gpu_sms()
    }

    fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError> {
        let call = Collective::Launch { kernel: kernel.name.clone(), grid, args: args.to_vec() };
        match self.meet.join(self.rank, call, |t| t.launch(kernel, grid, args, opts).map(Outcome::Report))? {
            Outcome::Report(r) => Ok(r),
            _ => Err(RuntimeError::BadLaunch { kernel: kernel.name.clone(), message: "the collective returned no report".into() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_own_one_rank_and_record_the_same_collectives() {
        let views = per_process(&World::local(3).unwrap(), Duration::from_secs(30));
        std::thread::scope(|s| {
            for (r, w) in views.worlds.iter().enumerate() {
                s.spawn(move || {
                    assert_eq!(w.host_ranks(), r..r + 1);
                    let b = w.alloc::<i32>(4).unwrap();
                    w.write(&b, r, &[r as i32; 4]).unwrap();
                    let other = (r + 1) % 3;
                    assert!(matches!(w.write(&b, other, &[0; 4]), Err(RuntimeError::RankOutOfRange { .. })));
                    assert!(matches!(w.read(&b, other), Err(RuntimeError::RankOutOfRange { .. })));
                    assert_eq!(w.read(&b, r).unwrap(), vec![r as i32; 4]);
                    w.free(b);
                });
            }
        });
        let logs = views.logs();
        assert_eq!(logs[0].len(), 2);
        assert!(matches!(logs[0][0], Collective::Alloc { bytes: 16 }));
        assert!(logs.iter().all(|l| *l == logs[0]));
    }

    #[test]
    fn collectives_out_of_order_are_an_error_not_a_hang() {
        let views = per_process(&World::local(2).unwrap(), Duration::from_secs(30));
        let results: Vec<_> = std::thread::scope(|s| {
            let hs: Vec<_> = views.worlds.iter().enumerate().map(|(r, w)| s.spawn(move || w.alloc_bytes(if r == 0 { 8 } else { 16 }))).collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let texts: Vec<String> = results.iter().map(|r| r.as_ref().unwrap_err().to_string()).collect();
        assert!(texts.iter().any(|t| t.contains("collective calls out of order") && t.contains("Alloc { bytes: 8 }") && t.contains("Alloc { bytes: 16 }")), "{texts:?}");
        // A PE that never joins is reported by name after the timeout.
        let views = per_process(&World::local(2).unwrap(), Duration::from_millis(50));
        match views.worlds[1].alloc_bytes(8) {
            Err(RuntimeError::CollectiveTimeout { rank: 1, missing, .. }) => assert_eq!(missing, vec![0]),
            other => panic!("{other:?}"),
        }
    }
}
