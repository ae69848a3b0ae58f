//! The `cuda` transport: one NVSHMEM PE per process on its own GPU, driven through the CUDA
//! driver (cudarc, loaded at run time) and NVSHMEM's host library (bindgen, loaded at run
//! time), so weft builds and links without CUDA. Where something is missing, opening it is a
//! [`CudaError`] that says what, checked in order: the driver (`libcuda.so.1`), NVSHMEM's
//! host library, a GPU. Placement and bootstrap come from the environment ([`bootstrap`]).

pub mod bootstrap;
// Without NVSHMEM bindings the transport is not built, so its driver and library helpers
// are only reached by the checks that report what is missing.
#[cfg_attr(not(weft_nvshmem), allow(dead_code))]
mod driver;
pub mod device_transport;
mod error;
#[cfg_attr(not(weft_nvshmem), allow(dead_code))]
mod nvshmem;
pub mod preflight;
pub mod tensor_map;
pub mod tensor_map_emu;
pub mod tma_launch;
#[cfg(weft_nvshmem)]
mod transport;
pub mod watchdog;

pub use bootstrap::{Bootstrap, Placement};
pub use driver::GpuInfo;
pub use error::{BootstrapError, CudaError};

use crate::transport::Transport;
use std::sync::Arc;

/// Options of the `cuda` transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CudaOptions {
    /// This process's rank, the world and how the ranks meet.
    pub placement: Placement,
    /// GPU ordinal (`WEFT_CUDA_DEVICE`); default: the local rank.
    pub device: Option<usize>,
    /// How long one kernel may run before the watchdog ends the job
    /// (`WEFT_DEADLOCK_TIMEOUT_MS`, as on `local`).
    pub deadline: std::time::Duration,
    /// How long a barrier of every PE may take (`WEFT_BARRIER_TIMEOUT_MS`, default 300 s):
    /// longer, since it also waits for slower PEs' host work, such as compiling a kernel.
    pub barrier_deadline: std::time::Duration,
    /// PEs that share this PE's GPU (`WEFT_PES_PER_GPU`); default: see [`pes_per_gpu`].
    pub pes_per_gpu: Option<usize>,
}

impl CudaOptions {
    /// Options from the process environment (see [`bootstrap`]).
    pub fn from_env() -> Result<CudaOptions, CudaError> {
        CudaOptions::from_vars(&|k| std::env::var(k).ok())
    }

    /// Options from a variable lookup.
    pub fn from_vars(env: &dyn Fn(&str) -> Option<String>) -> Result<CudaOptions, CudaError> {
        let device = match env("WEFT_CUDA_DEVICE") {
            Some(v) => Some(v.trim().parse().map_err(|_| BootstrapError::BadValue {
                var: "WEFT_CUDA_DEVICE".into(),
                value: v.clone(),
                why: "expected a device ordinal",
            })?),
            None => None,
        };
        let barrier_ms = match env("WEFT_BARRIER_TIMEOUT_MS") {
            Some(v) => v.trim().parse().map_err(|_| BootstrapError::BadValue { var: "WEFT_BARRIER_TIMEOUT_MS".into(), value: v.clone(), why: "expected milliseconds" })?,
            None => 300_000,
        };
        let pes_per_gpu = match env("WEFT_PES_PER_GPU") {
            Some(v) => Some(v.trim().parse().ok().filter(|&n: &usize| n >= 1).ok_or_else(|| BootstrapError::BadValue {
                var: "WEFT_PES_PER_GPU".into(),
                value: v.clone(),
                why: "expected a count of at least 1",
            })?),
            None => None,
        };
        Ok(CudaOptions {
            placement: Placement::from_vars(env)?,
            device,
            pes_per_gpu,
            deadline: crate::launch::deadlock_timeout(env),
            barrier_deadline: std::time::Duration::from_millis(barrier_ms),
        })
    }
}

/// How many PEs share one GPU: `given`, else, where the ordinal was chosen
/// (`WEFT_CUDA_DEVICE`) and a node has more PEs than GPUs, the node's PEs spread over its
/// GPUs (e.g. 4 PEs on one GPU under MPS); else 1. Kernels whose programs wait on other PEs
/// then size their grids to this PE's share of the SMs: every PE's cooperative grid must be
/// resident at once, or a PE spins on a peer whose kernel cannot start.
pub fn pes_per_gpu(given: Option<usize>, device_given: bool, local_size: usize, gpus: usize) -> usize {
    given.unwrap_or(if device_given && local_size > gpus { local_size.div_ceil(gpus.max(1)) } else { 1 }).max(1)
}

/// The architecture weft compiles for a GPU of compute capability `cc`: a cubin runs only on
/// its own major version, and arch-specific (`a`) code only on exactly its version.
pub fn arch_for(cc: (i32, i32)) -> Option<&'static str> {
    match cc {
        (8, _) => Some("sm_80"),
        (9, 0) => Some("sm_90a"),
        (10, 0) => Some("sm_100a"),
        _ => None,
    }
}

/// The GPUs this process can use, after checking the driver and NVSHMEM's host library.
pub fn devices() -> Result<Vec<GpuInfo>, CudaError> {
    driver::probe_driver()?;
    drop(nvshmem::Nvshmem::load()?);
    (0..driver::device_count()?).map(driver::describe).collect()
}

/// Opens the transport (options from the environment when `None`, read after the driver,
/// NVSHMEM and GPU checks so that a machine without a GPU says so first).
pub(crate) fn open(opts: Option<CudaOptions>) -> Result<Arc<dyn Transport>, CudaError> {
    driver::probe_driver()?;
    let nv = nvshmem::Nvshmem::load()?;
    let count = driver::device_count()?;
    let opts = match opts {
        Some(o) => o,
        None => CudaOptions::from_env()?,
    };
    #[cfg(weft_nvshmem)]
    return transport::CudaTransport::open(nv, count, opts);
    #[cfg(not(weft_nvshmem))]
    {
        let _ = (count, opts);
        match *nv.get() {}
    }
}

#[cfg(test)]
mod tests;
