//! What a launch takes (a compiled kernel, a grid, arguments) and what it returns.

use crate::abi::KernelFn;
use crate::buffer::SymBuf;
use crate::dtype::Element;
use crate::error::LaunchWarning;
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

/// A compiled kernel ready to launch.
#[derive(Clone)]
pub struct Launchable {
    /// Kernel name.
    pub name: String,
    /// Entry point.
    pub entry: KernelFn,
    /// Call sites, indexed by the ABI's `site` arguments.
    pub sites: Vec<Site>,
    /// Keeps the code loaded while launches use it.
    pub keepalive: Option<Arc<dyn Any + Send + Sync>>,
}

impl Launchable {
    /// The site `i`, or a placeholder for unknown sites.
    pub fn site(&self, i: i32) -> Site {
        self.sites.get(i as usize).cloned().unwrap_or(Site { op: "?".into(), loc: format!("site #{i}") })
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

/// Options of one launch.
#[derive(Clone, Debug)]
pub struct LaunchOptions {
    /// Treat unfinished-work warnings as errors.
    pub warnings_as_errors: bool,
    /// Track signals written but never observed (costs a lock per signal op).
    pub track_signals: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions { warnings_as_errors: false, track_signals: true }
    }
}

/// A finished launch.
#[derive(Clone, Debug)]
pub struct LaunchReport {
    /// Wall time from start to the last instance finishing.
    pub elapsed: Duration,
    /// Unfinished work found at exit.
    pub warnings: Vec<LaunchWarning>,
}
