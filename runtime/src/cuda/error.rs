//! Errors of the CUDA transport: what is missing (driver, NVSHMEM, GPUs), what failed, and
//! what in the launcher's environment is wrong.

use std::path::PathBuf;

/// Why the CUDA transport cannot start or run.
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    /// The CUDA driver library cannot be loaded (no NVIDIA driver on this machine).
    #[error("CUDA driver not found: {lib} could not be loaded ({reason}); the cuda transport needs an NVIDIA GPU driver")]
    DriverNotFound {
        /// The library looked for.
        lib: &'static str,
        /// The loader's answer.
        reason: String,
    },
    /// weft was built without NVSHMEM's host bindings.
    #[error("NVSHMEM host library unavailable: {why}; run ./setup.sh (installs nvidia-nvshmem-cu12 into .tools/) and rebuild")]
    NvshmemUnbound {
        /// What the build found.
        why: String,
    },
    /// `libnvshmem_host.so.3` cannot be loaded.
    #[error("NVSHMEM host library not found: {path} could not be loaded ({reason}); run ./setup.sh or set WEFT_NVSHMEM_LIB")]
    NvshmemNotFound {
        /// The path or name tried.
        path: String,
        /// The loader's answer.
        reason: String,
    },
    /// The driver sees no GPU.
    #[error("no CUDA GPU visible: {0} (check nvidia-smi and CUDA_VISIBLE_DEVICES)")]
    NoGpu(String),
    /// A GPU weft does not compile for.
    #[error("GPU {device} ({name}) has compute capability {major}.{minor}; weft compiles for sm_80 (8.x), sm_90a (9.0) and sm_100a (10.0)")]
    UnsupportedGpu {
        /// Device ordinal.
        device: usize,
        /// Device name.
        name: String,
        /// Compute capability, major.
        major: i32,
        /// Compute capability, minor.
        minor: i32,
    },
    /// This process's local rank has no GPU of its own.
    #[error("local rank {local_rank} would use GPU {device}, but only {count} are visible (one GPU per process)")]
    DeviceOutOfRange {
        /// Local rank.
        local_rank: usize,
        /// Device ordinal it maps to.
        device: usize,
        /// Visible devices.
        count: usize,
    },
    /// A driver call failed.
    #[error("CUDA driver call {call} failed: {message}")]
    Driver {
        /// The call.
        call: &'static str,
        /// The driver's error name and text.
        message: String,
    },
    /// An NVSHMEM call failed.
    #[error("NVSHMEM call {call} failed: {message}")]
    Nvshmem {
        /// The call.
        call: &'static str,
        /// Status and meaning.
        message: String,
    },
    /// A kernel compiled for NVSHMEM's proxy transport, where NVSHMEM selected another.
    #[error("kernel `{kernel}` cannot run on PE {pe}: it was compiled for NVSHMEM's proxy transport, but NVSHMEM selected {transport}; compile it with `-D nvshmem_transport=any` (picked by itself when NVSHMEM_IB_ENABLE_IBGDA or NVSHMEM_GPUNETIO_ENABLE_GDAKI is set)")]
    DeviceTransport {
        /// Kernel name.
        kernel: String,
        /// This PE.
        pe: usize,
        /// The transport NVSHMEM selected.
        transport: String,
    },
    /// A peer or multicast address the kernel needs does not exist on this platform.
    #[error("kernel `{kernel}` cannot run: PE {pe}: {reason}")]
    PeerAccess {
        /// Kernel name.
        kernel: String,
        /// The PE whose address is missing.
        pe: usize,
        /// Which query returned NULL, and what that means.
        reason: String,
    },
    /// A kernel whose programs wait on each other has more CTAs than the GPU holds at once.
    #[error("kernel `{kernel}` waits across its CTAs, so all {ctas} must be resident at once, but {gpu} holds {per_sm} per SM x {sms} SMs; use a smaller grid")]
    NotCoResident {
        /// Kernel name.
        kernel: String,
        /// GPU name.
        gpu: String,
        /// CTAs asked for.
        ctas: u64,
        /// Resident CTAs per SM (the driver's occupancy answer).
        per_sm: u64,
        /// SMs.
        sms: u64,
    },
    /// A launch did not finish before its deadline (the job was told to exit).
    #[error("{}", match waiting {
        super::watchdog::Waiting::Kernel => format!("PE {pe} is stuck: kernel `{kernel}` did not finish within {waited_ms} ms (WEFT_DEADLOCK_TIMEOUT_MS)"),
        super::watchdog::Waiting::Barrier => format!("PE {pe}: the barrier of every PE at `{kernel}` did not complete within {waited_ms} ms: another PE is stuck or never got there (WEFT_BARRIER_TIMEOUT_MS)"),
    })]
    LaunchTimeout {
        /// Kernel name (or the collective call, for a barrier outside a launch).
        kernel: String,
        /// This PE.
        pe: usize,
        /// What it was waiting for.
        waiting: super::watchdog::Waiting,
        /// The deadline.
        waited_ms: u128,
    },
    /// NVSHMEM ran and was finalized in this process; it cannot start twice.
    #[error("NVSHMEM was finalized in this process and cannot be initialized again; keep one World::cuda() alive for the process")]
    Finalized,
    /// The launcher's environment is unusable.
    #[error(transparent)]
    Bootstrap(#[from] BootstrapError),
}

/// What is wrong with the process placement or the unique-id exchange.
#[derive(Debug, thiserror::Error)]
pub enum BootstrapError {
    /// A variable that does not parse.
    #[error("{var}={value:?} is not valid: {why}")]
    BadValue {
        /// Variable name.
        var: String,
        /// Its value.
        value: String,
        /// What it must be.
        why: &'static str,
    },
    /// Values that contradict each other.
    #[error("inconsistent placement: {0}")]
    Inconsistent(String),
    /// Several ranks but no way for them to meet.
    #[error("{size} ranks but no bootstrap: set WEFT_NVSHMEM_UID_FILE to a path every rank can reach, or NVSHMEM_BOOTSTRAP (MPI, PMI, ...) for NVSHMEM's own")]
    NoBootstrap {
        /// World size.
        size: usize,
    },
    /// The unique-id file cannot be written or read.
    #[error("unique-id file {}: {message}", path.display())]
    UidFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Rank 0 never published the unique id.
    #[error("unique-id file {} did not appear within {waited_ms} ms (is rank 0 running, on a shared filesystem?)", path.display())]
    UidTimeout {
        /// The file.
        path: PathBuf,
        /// How long we waited.
        waited_ms: u128,
    },
}

impl CudaError {
    /// A failed driver call.
    pub(crate) fn driver(call: &'static str) -> impl FnOnce(cudarc::driver::DriverError) -> CudaError {
        move |e| {
            let name = e.error_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|_| format!("{:?}", e.0));
            let text = e.error_string().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            CudaError::Driver { call, message: format!("{name}: {text}") }
        }
    }
}
