//! The `mpi` transport in a build without MPI bindings: opening it is the typed error saying
//! why; the types exist so that callers build, but no value of them can be made.

use super::{MpiCollective, MpiError, MpiOptions};
use crate::local::state::Inst;
use crate::RuntimeError;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// Stands for the peers of an MPI world: none can exist.
pub struct Peers {
    never: Infallible,
}

/// Stands for a worker's view of other processes (never consulted).
#[derive(Default)]
pub(crate) struct Watch;

impl Watch {
    pub(crate) fn active(&mut self) {}
}

/// Stands for the verdict on a wait (never given).
#[allow(dead_code)]
pub(crate) enum Verdict {
    Wait,
    Active,
    Stuck,
    PeerFailed(usize),
}

impl Peers {
    pub(crate) fn progress(&self) -> bool {
        match self.never {}
    }

    pub(crate) fn resume_edge(&self, _w: usize) {
        match self.never {}
    }

    pub(crate) fn publish(&self, _progress: u64) {
        match self.never {}
    }

    pub(crate) fn judge(&self, _w: &mut Watch, _idle: Duration, _timeout: Duration) -> Verdict {
        match self.never {}
    }

    pub(crate) fn pause(&self, _w: &mut Watch, _yielded: bool) {
        match self.never {}
    }

    pub(crate) fn peer_failed_error(&self, _failed: usize, _kernel: &str) -> MpiError {
        match self.never {}
    }

    pub(crate) fn barrier(&self, _i: &mut Inst, _site: i32) {
        match self.never {}
    }

    /// Unreachable: no value of this type exists.
    pub fn time_mpi_collective(&self, _which: MpiCollective, _bytes: usize, _iters: usize) -> Result<Duration, MpiError> {
        match self.never {}
    }
}

/// Stands for an MPI world: none can exist.
pub struct MpiTransport {
    never: Infallible,
}

impl MpiTransport {
    /// Unreachable: no value of this type exists.
    pub fn agree_max(&self, _what: &str, _vals: &[u64]) -> Result<Vec<u64>, RuntimeError> {
        match self.never {}
    }

    /// Unreachable: no value of this type exists.
    pub fn peers(&self) -> &'static Peers {
        match self.never {}
    }
}

impl crate::transport::Transport for MpiTransport {
    fn name(&self) -> &'static str {
        match self.never {}
    }
    fn topology(&self) -> crate::Topology {
        match self.never {}
    }
    fn host_ranks(&self) -> std::ops::Range<usize> {
        match self.never {}
    }
    fn alloc(&self, _bytes: usize) -> Result<crate::RawBuf, RuntimeError> {
        match self.never {}
    }
    fn free(&self, _buf: crate::RawBuf) {
        match self.never {}
    }
    fn write_bytes(&self, _buf: crate::RawBuf, _rank: usize, _offset: usize, _data: &[u8]) -> Result<(), RuntimeError> {
        match self.never {}
    }
    fn read_bytes(&self, _buf: crate::RawBuf, _rank: usize, _offset: usize, _out: &mut [u8]) -> Result<(), RuntimeError> {
        match self.never {}
    }
    fn launch(&self, _k: &crate::Launchable, _grid: [u32; 3], _args: &[crate::Arg], _opts: &crate::LaunchOptions) -> Result<crate::LaunchReport, RuntimeError> {
        match self.never {}
    }
}

/// Always the error saying why there are no bindings.
pub fn open(_opts: MpiOptions) -> Result<Arc<MpiTransport>, RuntimeError> {
    Err(super::sys::Mpi::load().map(|_| ()).expect_err("no bindings").into())
}

/// Nothing to end: MPI was never started.
pub fn finalize() -> Result<(), RuntimeError> {
    Ok(())
}
