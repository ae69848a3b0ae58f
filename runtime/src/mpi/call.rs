//! What every process must agree it called: a host step's fingerprint, hashed from its parts
//! without formatting them. Formatting a launch's kernel, grid and arguments to hash the text
//! cost a good part of a microsecond per launch (a 4 KiB collective takes a few); the text is
//! now only made for an error message.

use super::error::MpiError;
use crate::launch::Arg;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A launch as the processes must agree on it.
pub(super) struct LaunchCall<'a> {
    /// The kernel's name.
    pub kernel: &'a str,
    /// The grid.
    pub grid: [u32; 3],
    /// The arguments.
    pub args: &'a [Arg],
}

impl LaunchCall<'_> {
    /// The fingerprint every process compares.
    pub fn hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.kernel.hash(&mut h);
        self.grid.hash(&mut h);
        for a in self.args {
            match *a {
                Arg::Buf(b) => (0u8, b.id, b.offset, b.bytes).hash(&mut h),
                Arg::I32(x) => (1u8, x).hash(&mut h),
                Arg::I64(x) => (2u8, x).hash(&mut h),
                Arg::F32(x) => (3u8, x.to_bits()).hash(&mut h),
                Arg::U64(x) => (4u8, x).hash(&mut h),
            }
        }
        h.finish()
    }

    /// The call in words (for errors).
    pub fn describe(&self) -> String {
        format!("launch of `{}` grid {:?} args {:?}", self.kernel, self.grid, self.args)
    }
}

/// The fingerprint of a host step named by `text`.
pub(super) fn text_hash(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// `e`, naming the step `what` if it is a timeout (steps on the fast path are named only when
/// they fail).
pub(super) fn named(e: MpiError, what: impl FnOnce() -> String) -> MpiError {
    match e {
        MpiError::Timeout { rank, waited_ms, .. } => MpiError::Timeout { rank, what: what(), waited_ms },
        e => e,
    }
}
