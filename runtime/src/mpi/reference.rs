//! Open MPI's own collectives on the same processes, timed for the benches' comparison.

use super::error::MpiError;
use super::peers::Peers;
use super::MpiCollective;
use std::ffi::c_void;
use std::time::{Duration, Instant};

impl Peers {
    /// Median time of one `which` over `bytes` (NCCL's convention: the larger buffer), after one
    /// warm-up, as the slowest process saw it. Every process must call it with the same values.
    pub fn time_mpi_collective(&self, which: MpiCollective, bytes: usize, iters: usize) -> Result<Duration, MpiError> {
        let ranks = self.topology.world_size();
        let floats = bytes / 4;
        let share = floats / ranks;
        let src = vec![1.0f32; floats];
        let mut dst = vec![0.0f32; floats];
        let m = &self.mpi;
        let comm = self.host_comm();
        let run = || -> Result<(), MpiError> {
            let (s, d) = (src.as_ptr() as *const c_void, dst.as_ptr() as *mut c_void);
            let rc = unsafe {
                match which {
                    MpiCollective::Allgather => m.f.MPI_Allgather(s, share as i32, m.f32, d, share as i32, m.f32, comm),
                    MpiCollective::Allreduce => m.f.MPI_Allreduce(s, d, floats as i32, m.f32, m.sum, comm),
                    MpiCollective::ReduceScatterBlock => m.f.MPI_Reduce_scatter_block(s, d, share as i32, m.f32, m.sum, comm),
                }
            };
            // Named only on failure: formatting every call would slow MPI's side of the table.
            m.check_with(rc, self.rank as i32, || format!("{which:?}"))
        };
        let _g = self.lock_for_host();
        run()?;
        m.check(unsafe { m.f.MPI_Barrier(comm) }, self.rank as i32, "MPI_Barrier")?;
        let mut times = Vec::with_capacity(iters.max(1));
        for _ in 0..iters.max(1) {
            let start = Instant::now();
            run()?;
            times.push(start.elapsed());
        }
        times.sort();
        let mine = times[times.len() / 2];
        drop(_g);
        std::hint::black_box(&mut dst);
        let slowest = self.agree("timing", &[mine.as_nanos() as u64])?;
        Ok(Duration::from_nanos(slowest[0]))
    }
}
