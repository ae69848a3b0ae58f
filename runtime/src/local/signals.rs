//! The signals written during a launch, and whether a wait saw each: the unobserved-signal
//! warning's record. Split by address over [`SHARDS`] locks: with one lock for the whole
//! launch, the two workers of a 2-core machine queued on it at every signal and every
//! satisfied wait (and slept in the kernel when they met), a third of `gemm_ar` 1x8's time at
//! 256x160x256 (`weft run`, bf16, 0.68-0.71 ms with the record against 0.49 without).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

/// A signal written during the launch.
pub(crate) struct SignalTrack {
    pub rank: usize,
    pub value: u64,
    pub observed: bool,
}

/// Locks the record is split over (a power of two).
const SHARDS: usize = 16;

/// One shard: signal address to its record.
pub(crate) type Shard = HashMap<usize, SignalTrack, BuildHasherDefault<WordHasher>>;

/// Every signal written during one launch.
pub(crate) struct SignalTable {
    shards: [Mutex<Shard>; SHARDS],
}

impl SignalTable {
    /// An empty record (it allocates only as signals are written).
    pub fn new() -> SignalTable {
        SignalTable { shards: std::array::from_fn(|_| Mutex::new(Shard::default())) }
    }

    /// The locked shard that holds `addr`'s record.
    pub fn shard(&self, addr: usize) -> MutexGuard<'_, Shard> {
        self.shards[spread(addr) >> (64 - SHARDS.trailing_zeros())].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `(address, rank, value)` of every signal no wait saw and `seen_beside` does not know
    /// of, by address.
    pub fn unobserved(&self, seen_beside: impl Fn(usize) -> bool) -> Vec<(usize, usize, u64)> {
        let mut out: Vec<_> = (0..SHARDS)
            .flat_map(|i| {
                let shard = self.shards[i].lock().unwrap_or_else(|e| e.into_inner());
                shard.iter().filter(|&(&a, s)| !s.observed && !seen_beside(a)).map(|(&a, s)| (a, s.rank, s.value)).collect::<Vec<_>>()
            })
            .collect();
        out.sort_by_key(|&(a, _, _)| a);
        out
    }
}

/// Mixes a word address (its low 3 bits are zero) into all 64 bits.
fn spread(addr: usize) -> usize {
    (addr as u64 >> 3).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize
}

/// Hashes the shard's keys, aligned addresses, by one multiplication (the default SipHash
/// showed in the profiles of signal-heavy launches).
#[derive(Default)]
pub(crate) struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = spread(n) as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::{SignalTable, SignalTrack};

    #[test]
    fn reports_the_unobserved_signals_by_address() {
        let table = SignalTable::new();
        // Neighbouring words, and words far apart, land in various shards.
        let addrs: Vec<usize> = (0..40).map(|i| 0x1000 + 8 * i).chain((0..8).map(|i| 0x10_0000 * (i + 1))).collect();
        for (i, &a) in addrs.iter().enumerate() {
            table.shard(a).insert(a, SignalTrack { rank: i % 3, value: i as u64, observed: false });
        }
        for &a in addrs.iter().step_by(2) {
            table.shard(a).get_mut(&a).expect("recorded").observed = true;
        }
        let beside = addrs[1];
        let got = table.unobserved(|a| a == beside);
        let want: Vec<_> = addrs.iter().enumerate().skip(3).step_by(2).map(|(i, &a)| (a, i % 3, i as u64)).collect();
        assert_eq!(got, want);
    }
}
