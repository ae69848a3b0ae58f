//! Checks run on the host before a kernel is launched on the `cuda` transport, so that what
//! would fault or deadlock on the GPU is a typed error instead: every CTA of a kernel whose
//! programs wait on each other must be co-resident, and the peer and multicast addresses a
//! kernel translates on the device (`nvshmem_ptr`, `nvshmemx_mc_ptr`, both NULL where the
//! platform gives no load/store path) must exist. The NVSHMEM queries sit behind
//! [`PeerPointers`] so the check runs against a stub on machines without a GPU.

use super::CudaError;
use crate::launch::GpuCode;

/// The host-callable NVSHMEM address queries the pre-launch check needs.
pub trait PeerPointers {
    /// `nvshmem_ptr(addr, pe)`: `pe`'s copy of symmetric `addr` as this GPU can load and
    /// store it; 0 where there is no such path (no P2P / NVLink to `pe`).
    fn ptr(&self, addr: u64, pe: usize) -> u64;
    /// `nvshmemx_mc_ptr(NVSHMEMX_TEAM_NODE, addr)`: the node's multicast address of `addr`; 0
    /// without NVLink SHARP (fewer than 2 PEs in the node, PCIe parts, no fabric manager).
    fn mc_ptr(&self, addr: u64) -> u64;
}

/// Checks that `code`'s device-side translations will find an address: for a kernel using
/// `remote_ptr`, every buffer argument on every PE; for one using multimem, every buffer's
/// node multicast address. `me` is this PE, `pes` the world size, `bufs` the device addresses
/// of the buffer arguments.
pub fn check_peer_access(kernel: &str, code: &GpuCode, me: usize, pes: usize, bufs: &[u64], api: &dyn PeerPointers) -> Result<(), CudaError> {
    for &addr in bufs {
        if code.multimem && api.mc_ptr(addr) == 0 {
            let reason = format!(
                "it uses multimem, but nvshmemx_mc_ptr(NVSHMEMX_TEAM_NODE, {addr:#x}) is NULL: no NVLink SHARP multicast here (it needs 2 or more PEs in the node on an NVLS platform with the fabric manager running)"
            );
            return Err(CudaError::PeerAccess { kernel: kernel.into(), pe: me, reason });
        }
        if code.remote_ptr
            && let Some(pe) = (0..pes).find(|&pe| api.ptr(addr, pe) == 0)
        {
            let reason = format!("it uses remote_ptr, but nvshmem_ptr({addr:#x}, {pe}) on PE {me} is NULL: PE {pe}'s memory is not reachable by load/store from this GPU (no P2P or NVLink path)");
            return Err(CudaError::PeerAccess { kernel: kernel.into(), pe, reason });
        }
    }
    Ok(())
}

/// Checks that `ctas` CTAs fit on the GPU at once: `per_sm` resident per SM (the driver's
/// occupancy answer for this kernel) times `sms`.
pub fn check_co_resident(kernel: &str, gpu: &str, ctas: u64, per_sm: u64, sms: u64) -> Result<(), CudaError> {
    let resident = per_sm.saturating_mul(sms);
    if ctas > resident {
        return Err(CudaError::NotCoResident { kernel: kernel.into(), gpu: gpu.into(), ctas, per_sm, sms });
    }
    Ok(())
}
