//! The blocked layout of a tile over the threads of a CTA.
//!
//! A tile of `numel` elements (any rank, flattened row-major) is spread over the CTA's
//! `threads` threads: when there are at least as many elements as threads, thread `t` holds
//! the `per = numel / threads` contiguous elements `[t*per, (t+1)*per)`, so a thread's slots
//! are consecutive in memory and its loads and stores vectorise. A smaller tile is replicated:
//! thread `t` holds element `t * numel / threads` (neighbouring threads share an element, so
//! a `[M, 1]` tile sits in the threads that hold the rows of the `[M, N]` tile it broadcasts
//! to), and the first thread of each run owns (stores) it.
//! Every tile of the same element count has the same layout, so elementwise ops never move
//! data between threads.

/// Why a tile cannot be laid out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a tile of {numel} elements does not split evenly over {threads} threads")]
pub struct LayoutError {
    /// Elements in the tile.
    pub numel: usize,
    /// Threads in the CTA.
    pub threads: usize,
}

/// Where each element of a tile lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Blocked {
    /// Elements in the tile.
    pub numel: usize,
    /// Threads in the CTA (`num_warps * warp_size`).
    pub threads: usize,
    /// Elements (register slots) held by each thread.
    pub per: usize,
}

impl Blocked {
    /// The layout of a `numel`-element tile over `threads` threads.
    pub fn new(numel: usize, threads: usize) -> Result<Blocked, LayoutError> {
        if numel == 0 || threads == 0 || (numel > threads && numel % threads != 0) {
            return Err(LayoutError { numel, threads });
        }
        Ok(Blocked { numel, threads, per: (numel / threads).max(1) })
    }

    /// Whether threads hold copies of one element (tiles smaller than the CTA).
    pub fn replicated(&self) -> bool {
        self.numel < self.threads
    }

    /// The element that `thread` holds in register slot `slot`.
    pub fn element(&self, thread: usize, slot: usize) -> usize {
        if self.replicated() { thread * self.numel / self.threads } else { thread * self.per + slot }
    }

    /// Whether `thread` owns the elements it holds: it is the one thread that stores them
    /// and contributes them to reductions.
    pub fn owns(&self, thread: usize) -> bool {
        // The first of the threads that hold an element: the product steps past a multiple
        // of `threads` there.
        !self.replicated() || (thread * self.numel) % self.threads < self.numel
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_element_is_owned_by_exactly_one_thread() {
        // NVIDIA warps of 32 and AMD wavefronts of 64 (up to 1024 threads).
        for (warp, num_warps) in [32, 64].into_iter().flat_map(|w| [1, 2, 4, 8, 16].map(move |n| (w, n))) {
            let threads = warp * num_warps;
            for numel in [1, 3, 16, 32, 48, 100, 128, 256, 1024, 4096, 16384] {
                let Ok(l) = Blocked::new(numel, threads) else {
                    assert!(numel > threads && numel % threads != 0, "{numel} over {threads} should lay out");
                    continue;
                };
                let mut owners = vec![0usize; numel];
                for t in 0..threads {
                    for s in 0..l.per {
                        let e = l.element(t, s);
                        assert!(e < numel, "thread {t} slot {s} holds {e} of {numel}");
                        if l.owns(t) {
                            owners[e] += 1;
                        }
                    }
                }
                assert!(owners.iter().all(|&c| c == 1), "N={numel} warps={num_warps}: owners {owners:?}");
                if !l.replicated() {
                    // A thread's slots are consecutive: that is what makes its accesses vectors.
                    for t in 0..threads {
                        for s in 1..l.per {
                            assert_eq!(l.element(t, s), l.element(t, 0) + s);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn uneven_tiles_are_an_error() {
        assert_eq!(Blocked::new(200, 128), Err(LayoutError { numel: 200, threads: 128 }));
        assert!(Blocked::new(0, 128).is_err());
        assert_eq!(Blocked::new(1024, 128).unwrap().per, 8);
        assert_eq!(Blocked::new(64, 128).unwrap().per, 1);
    }
}
