//! The copy engine on `cuda`: a rank's lowered queue ([`super::stream_ops`]) issued on a side
//! stream that starts after everything already queued on the launch stream, and joined back
//! into it, so the launch's watchdog wait covers the transfers too.

use super::stream_ops::StreamOp;
use crate::cuda::CudaError;
use cudarc::driver::sys::{self, CUstream};

fn check(call: &'static str, r: sys::CUresult) -> Result<(), CudaError> {
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(CudaError::driver(call)(cudarc::driver::DriverError(e))),
    }
}

/// A side stream carrying one launch's transfers.
pub(crate) struct SideStream {
    stream: CUstream,
    events: Vec<sys::CUevent>,
}

impl SideStream {
    /// Creates the side stream and makes it wait for `main`'s work so far (the launch's
    /// opening barrier). Called before the kernel is queued on `main`; the transfers are
    /// queued after it ([`SideStream::queue`]). The calling thread has the context current.
    pub(crate) fn open(main: CUstream) -> Result<SideStream, CudaError> {
        let mut s = SideStream { stream: std::ptr::null_mut(), events: vec![] };
        // SAFETY: plain driver calls on handles this struct owns and the caller's live stream.
        unsafe {
            check("cuStreamCreate", sys::cuStreamCreate(&mut s.stream, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32))?;
            let start = s.event()?;
            check("cuEventRecord", sys::cuEventRecord(start, main))?;
            check("cuStreamWaitEvent", sys::cuStreamWaitEvent(s.stream, start, 0))?;
        }
        Ok(s)
    }

    /// Queues `ops` on the side stream. Called once the kernel is queued: a queue's first
    /// operation waits for a signal the kernel sets, and a driver call that blocks the host
    /// until the stream reaches it would otherwise hold back the kernel's own launch.
    pub(crate) fn queue(&mut self, ops: &[StreamOp]) -> Result<(), CudaError> {
        // SAFETY: plain driver calls on a stream this struct owns; addresses were translated
        // from validated spans of live symmetric allocations.
        unsafe {
            for op in ops {
                match *op {
                    StreamOp::Copy { dst, src, bytes } => check("cuMemcpyAsync", sys::cuMemcpyAsync(dst, src, bytes, self.stream))?,
                    StreamOp::Write { addr, value } => check("cuStreamWriteValue64_v2", sys::cuStreamWriteValue64_v2(self.stream, addr, value, 0))?,
                    StreamOp::WaitGeq { addr, value } => {
                        let geq = sys::CUstreamWaitValue_flags::CU_STREAM_WAIT_VALUE_GEQ as u32;
                        check("cuStreamWaitValue64_v2", sys::cuStreamWaitValue64_v2(self.stream, addr, value, geq))?
                    }
                }
            }
        }
        Ok(())
    }

    fn event(&mut self) -> Result<sys::CUevent, CudaError> {
        let mut e = std::ptr::null_mut();
        // SAFETY: creates an event owned by `self`.
        check("cuEventCreate", unsafe { sys::cuEventCreate(&mut e, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32) })?;
        self.events.push(e);
        Ok(e)
    }

    /// Makes `main` wait for every transfer (queue after the kernel's launch).
    pub(crate) fn join_into(&mut self, main: CUstream) -> Result<(), CudaError> {
        let done = self.event()?;
        // SAFETY: handles owned by `self` and the caller's live stream.
        unsafe {
            check("cuEventRecord", sys::cuEventRecord(done, self.stream))?;
            check("cuStreamWaitEvent", sys::cuStreamWaitEvent(main, done, 0))
        }
    }
}

impl Drop for SideStream {
    fn drop(&mut self) {
        // SAFETY: destroying handles this struct created; the driver defers the release of a
        // stream or event still in use until its work completes.
        unsafe {
            for &e in &self.events {
                let _ = sys::cuEventDestroy_v2(e);
            }
            if !self.stream.is_null() {
                let _ = sys::cuStreamDestroy_v2(self.stream);
            }
        }
    }
}
