//! What a launch takes (a compiled kernel, a grid, arguments) and what it returns.

use crate::abi::KernelFn;
use crate::buffer::SymBuf;
use crate::dtype::Element;
use crate::error::LaunchWarning;
use crate::RuntimeError;
use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

/// A runtime call site in a kernel: the op and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// Op name (`shmem.signal_wait_until`).
    pub op: String,
    /// Source location.
    pub loc: String,
}

/// How a GPU kernel takes one parameter (the GPU ABI: buffers as pointers, scalars by value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuParam {
    /// A device pointer ([`Arg::Buf`]).
    Ptr,
    /// A scalar of this many bytes (4: [`Arg::I32`] / [`Arg::F32`], 8: [`Arg::I64`] / [`Arg::U64`]).
    Scalar(u8),
}

/// A kernel compiled for one GPU architecture, and how to launch it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuCode {
    /// Architecture (`sm_80`, `sm_90a`, `sm_100a`); it must match the GPU exactly.
    pub arch: String,
    /// The code object (a cubin).
    pub image: Vec<u8>,
    /// Entry symbol in it.
    pub symbol: String,
    /// Warps per CTA; a program instance is one CTA.
    pub num_warps: u32,
    /// Dynamic shared memory bytes per CTA (the launch opts in above 48 KiB).
    pub dynamic_smem: u32,
    /// Whether every CTA must be resident at once (its programs wait on each other or on
    /// other PEs): a cooperative launch, refused when the grid does not fit.
    pub cooperative: bool,
    /// Whether it translates peer addresses with `nvshmem_ptr` (`remote_ptr`).
    pub remote_ptr: bool,
    /// Whether it uses the node's multicast address (`nvshmemx_mc_ptr`, multimem ops).
    pub multimem: bool,
    /// Parameters in order.
    pub params: Vec<GpuParam>,
    /// The tensor maps (TMA) the kernel takes after `params`, encoded at each launch from
    /// the arguments they name.
    pub tma: Vec<crate::cuda::tensor_map::TmaParam>,
}

impl GpuCode {
    /// Threads per CTA (32-thread warps).
    pub fn threads(&self) -> u32 {
        self.num_warps * 32
    }
}

/// The code a [`Launchable`] runs.
#[derive(Clone)]
pub enum KernelCode {
    /// Native code for the `local` transport.
    Cpu(KernelFn),
    /// A GPU code object for the `cuda` transport.
    Gpu(Arc<GpuCode>),
}

impl KernelCode {
    /// What it is, for errors (`CPU code`, `a cubin for sm_90a`).
    pub fn describe(&self) -> String {
        match self {
            KernelCode::Cpu(_) => "CPU code".into(),
            KernelCode::Gpu(g) => format!("a cubin for {}", g.arch),
        }
    }
}

/// A compiled kernel ready to launch.
#[derive(Clone)]
pub struct Launchable {
    /// Kernel name.
    pub name: String,
    /// The code.
    pub code: KernelCode,
    /// Call sites, indexed by the ABI's `site` arguments.
    pub sites: Vec<Site>,
    /// Keeps the code loaded while launches use it.
    pub keepalive: Option<Arc<dyn Any + Send + Sync>>,
    /// Variants specialized on argument facts, picked per launch (see `variants`).
    pub variants: Option<Arc<crate::variants::Variants>>,
}

impl Launchable {
    /// A kernel of native code.
    pub fn cpu(name: impl Into<String>, entry: KernelFn, sites: Vec<Site>, keepalive: Option<Arc<dyn Any + Send + Sync>>) -> Launchable {
        Launchable { name: name.into(), code: KernelCode::Cpu(entry), sites, keepalive, variants: None }
    }

    /// A kernel of GPU code.
    pub fn gpu(name: impl Into<String>, code: GpuCode) -> Launchable {
        Launchable { name: name.into(), code: KernelCode::Gpu(Arc::new(code)), sites: vec![], keepalive: None, variants: None }
    }

    /// The site `i`, or a placeholder for unknown sites.
    pub fn site(&self, i: i32) -> Site {
        self.sites.get(i as usize).cloned().unwrap_or(Site { op: "?".into(), loc: format!("site #{i}") })
    }

    /// The error for code that `transport` cannot run.
    pub fn wrong_code(&self, transport: &str, needs: &str) -> RuntimeError {
        RuntimeError::WrongCode { kernel: self.name.clone(), has: self.code.describe(), transport: transport.into(), needs: needs.into() }
    }
}

/// One kernel argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A symmetric buffer: each rank gets its own local address.
    Buf(crate::buffer::RawBuf),
    /// `i32` scalar.
    I32(i32),
    /// `i64` scalar.
    I64(i64),
    /// `f32` scalar.
    F32(f32),
    /// `u64` scalar.
    U64(u64),
}

impl<T: Element> From<&SymBuf<T>> for Arg {
    fn from(b: &SymBuf<T>) -> Arg {
        Arg::Buf(b.raw)
    }
}

impl Arg {
    /// The 64-bit ABI slot of this argument on a rank whose heap starts at `base`.
    pub fn slot(&self, base: *mut u8) -> u64 {
        match *self {
            Arg::Buf(b) => base as u64 + b.offset as u64,
            Arg::I32(x) => x as i64 as u64,
            Arg::I64(x) => x as u64,
            Arg::F32(x) => x.to_bits() as u64,
            Arg::U64(x) => x,
        }
    }
}

/// How long a launch may make no progress before it is reported as stuck
/// (`WEFT_DEADLOCK_TIMEOUT_MS`, default 5 s): the `local` transport's deadlock timeout and the
/// `cuda` transport's launch deadline.
pub fn deadlock_timeout(env: &dyn Fn(&str) -> Option<String>) -> Duration {
    Duration::from_millis(env("WEFT_DEADLOCK_TIMEOUT_MS").and_then(|s| s.trim().parse().ok()).unwrap_or(5000))
}

/// Options of one launch.
#[derive(Clone, Debug)]
pub struct LaunchOptions {
    /// Treat unfinished-work warnings as errors.
    pub warnings_as_errors: bool,
    /// Track signals written but never observed (costs a lock per signal op).
    pub track_signals: bool,
    /// Run this launch under the race detector (`local` only; also on for every launch of a
    /// world whose `LocalOptions::racecheck` is set).
    pub racecheck: bool,
    /// Check shmem ops' spans against their allocations (`local`; where the world's
    /// `LocalOptions::bounds_check` is on too). Off only to measure what the checks cost.
    pub bounds_check: bool,
    /// Work beside the launch that may write signals its instances wait for (the copy
    /// engine's queues, set by `World::launch_with_copies`): no deadlock while it runs.
    pub background: Option<std::sync::Arc<crate::copy_engine::BackgroundWork>>,
    /// The kernel's protocol orders the next launch by itself (see `mpi::sync`): every peer's
    /// access to a rank's memory ends before that rank's kernel does, and a rank's kernel ends
    /// only after every rank started it (the LL AllGathers: every word is written once and
    /// awaited by its owner). Transports that close a launch with a step between processes
    /// (`mpi`) skip it. Set by the kernel's host code, never for a kernel without it.
    pub self_closing: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions { warnings_as_errors: false, track_signals: true, racecheck: false, bounds_check: true, background: None, self_closing: false }
    }
}

/// A finished launch.
#[derive(Clone, Debug)]
pub struct LaunchReport {
    /// Wall time from start to the last instance finishing.
    pub elapsed: Duration,
    /// The kernel's time on the GPU, between events recorded around it on the stream (`cuda`;
    /// `None` where the program instances run on the CPU).
    pub device: Option<Duration>,
    /// Unfinished work found at exit.
    pub warnings: Vec<LaunchWarning>,
}

impl LaunchReport {
    /// The time to compare launches by: the GPU's own where there is one (no host wake-ups,
    /// no barriers), else the wall time.
    pub fn timed(&self) -> Duration {
        self.device.unwrap_or(self.elapsed)
    }
}
