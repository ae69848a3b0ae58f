//! What every process must agree it called: a host step's fingerprint, hashed from its parts
//! without formatting them. Formatting a launch's kernel, grid and arguments to hash the text
//! cost a good part of a microsecond per launch (a 4 KiB collective takes a few); the text is
//! now only made for an error message. The hash is a multiply-rotate mix, not SipHash:
//! it only has to tell honest calls apart, and SipHash cost ~0.1 µs of a 1 µs launch.

use super::error::MpiError;
use crate::launch::Arg;
use std::hash::{Hash, Hasher};

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
        let mut h = Mix::default();
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
    let mut h = Mix::default();
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

/// A fast, deterministic (same in every process) hasher: each word is mixed in by a
/// multiply and a rotate, and [`Hasher::finish`] avalanches the state.
#[derive(Default)]
struct Mix(u64);

impl Mix {
    fn word(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7C_C1_B7_27_22_0A_95);
    }
}

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            // The length too, so that trailing zero bytes still count.
            self.word(u64::from_le_bytes(last) ^ (rest.len() as u64) << 59);
        }
    }

    fn write_u8(&mut self, x: u8) {
        self.word(u64::from(x));
    }

    fn write_u32(&mut self, x: u32) {
        self.word(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        self.word(x);
    }

    fn write_usize(&mut self, x: usize) {
        self.word(x as u64);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::RawBuf;

    #[test]
    fn launches_that_differ_anywhere_hash_apart() {
        let buf = |id, offset| Arg::Buf(RawBuf { id, offset, bytes: 64 });
        let base = [buf(1, 0), Arg::I64(7), Arg::I32(3)];
        let h = |kernel, grid, args: &[Arg]| LaunchCall { kernel, grid, args }.hash();
        let mine = h("allgather", [1, 1, 1], &base);
        assert_eq!(mine, h("allgather", [1, 1, 1], &base), "not deterministic");
        let others = [
            h("allgather_ll", [1, 1, 1], &base),
            h("allgather", [2, 1, 1], &base),
            h("allgather", [1, 1, 1], &[buf(2, 0), Arg::I64(7), Arg::I32(3)]),
            h("allgather", [1, 1, 1], &[buf(1, 8), Arg::I64(7), Arg::I32(3)]),
            h("allgather", [1, 1, 1], &[buf(1, 0), Arg::I64(8), Arg::I32(3)]),
            h("allgather", [1, 1, 1], &[buf(1, 0), Arg::I32(7), Arg::I32(3)]),
            h("allgather", [1, 1, 1], &base[..2]),
        ];
        for (k, o) in others.iter().enumerate() {
            assert_ne!(mine, *o, "variant {k} hashes like the call");
        }
        assert_ne!(text_hash("alloc of 8 bytes"), text_hash("alloc of 80 bytes"));
        assert_ne!(text_hash("a"), text_hash("a\0"));
    }
}
