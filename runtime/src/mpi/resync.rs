//! Putting the node leaders' kernel-barrier communicator back in step after a failed launch.
//! A kernel barrier's cross-node part is one `MPI_Iallreduce` per barrier between the node
//! leaders. When a launch fails, some leaders may have started a barrier's collective that
//! others never reached; MPI matches collectives by order, so the next launch's first barrier
//! would pair one leader's barrier `s` with another's `s + 1`, and the last barrier of that
//! launch would wait forever. After a failed launch every process learns the most collectives
//! any leader started, and each leader that started fewer joins the missing ones (their
//! results are discarded; the abandoned requests of the leaders ahead complete with them).

use super::error::MpiError;
use super::sync::{Chan, VALS};
use super::Peers;
use std::sync::atomic::Ordering;

impl Peers {
    /// After a launch that failed on some process (every process calls this at the same point).
    pub(crate) fn catch_up_leaders(&self) -> Result<(), MpiError> {
        if self.topology.nodes == 1 {
            return Ok(());
        }
        let sync = self.sync();
        let mine = sync.leader_steps[Chan::Kernel as usize].load(Ordering::Acquire);
        let most = self.agree("catching up the node leaders' kernel barriers", &[mine])?[0];
        let Some(comm) = sync.leader_comm(Chan::Kernel) else { return Ok(()) };
        for _ in mine..most {
            let mut buf = Box::new([0u64; 2 * VALS]);
            let mut req = self.start_leaders(Chan::Kernel, comm, &mut buf)?;
            self.wait(&mut req, "MPI_Iallreduce (node leaders catching up)", self.host_timeout)?;
        }
        Ok(())
    }
}
