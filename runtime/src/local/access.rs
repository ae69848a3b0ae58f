//! Tile loads and stores of kernels compiled with race checks (`RtFns::access`). The lanes
//! become byte ranges (consecutive lanes merge, so a contiguous tile is one range); each range
//! is located in the rank's heap that holds it and checked by the race detector as a shmem op's
//! span is, under the load's or store's own site. Memory in no rank's heap is private to the
//! instance that touches it, so it is skipped. LL stores are writes that then release, an
//! `ll_recv` an acquire and a polled read of its words. Without a detector the call returns at
//! once.

use super::ops::enter;
use super::race::{self, Use};
use crate::abi::{access as kind, KernelCtx};

/// The byte ranges `(address, bytes)` of lanes `0..n` (`None`: the lane is off), in lane
/// order, a lane that starts where the previous range ends extending it.
fn runs(n: usize, lane_bytes: usize, addr: impl Fn(usize) -> Option<usize>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = vec![];
    for a in (0..n).filter_map(addr) {
        match out.last_mut() {
            Some((at, len)) if *at + *len == a => *len += lane_bytes,
            _ => out.push((a, lane_bytes)),
        }
    }
    out
}

/// The runs `[start, end)` of lanes that are on in `mask` (a byte per lane, nonzero: on).
/// Masks are mostly one run (a ragged tail), so they are scanned eight lanes at a time: a
/// 1024-lane tile costs 128 word tests, not 1024 pushes.
fn mask_runs(mask: &[u8]) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut j = 0;
    while j < mask.len() {
        let on = find(mask, j, true);
        if on == mask.len() {
            break;
        }
        j = find(mask, on, false);
        out.push((on, j));
    }
    out
}

/// The first lane at or after `from` that is on (`on`) or off (`!on`); `mask.len()` if none.
fn find(mask: &[u8], from: usize, on: bool) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let is = |b: u8| (b != 0) == on;
    let mut j = from;
    while j < mask.len() && j % 8 != 0 {
        if is(mask[j]) {
            return j;
        }
        j += 1;
    }
    for w in mask[j..].chunks_exact(8) {
        let w = u64::from_ne_bytes(w.try_into().unwrap_or_default());
        // Some byte on: w != 0; some byte off (zero): the classic has-zero-byte test.
        let hit = if on { w != 0 } else { w.wrapping_sub(ONES) & !w & (ONES << 7) != 0 };
        if hit {
            break;
        }
        j += 8;
    }
    mask[j..].iter().position(|&b| is(b)).map_or(mask.len(), |k| j + k)
}

/// `RtFns::access`: see the ABI for the arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn access(ctx: *mut KernelCtx, base: u64, lanes: *const u64, mask: *const u8, n: i64, lane_bytes: i64, k: i32, site: i32) {
    let i = unsafe { enter(ctx) };
    if i.shared().race.is_none() {
        return;
    }
    let how = match k {
        kind::READ => Use::Read,
        kind::WRITE | kind::LL_RELEASE => Use::Write,
        kind::LL_ACQUIRE => Use::Polled,
        other => i.fault(site, format!("unknown access kind {other}")),
    };
    if k == kind::LL_ACQUIRE {
        race::ll_acquire(i);
    }
    let (n, lb) = (n.max(0) as usize, lane_bytes.max(0) as usize);
    // SAFETY: the lowering passes `n` lanes in each buffer it passes at all.
    let lanes = (!lanes.is_null()).then(|| unsafe { std::slice::from_raw_parts(lanes, n) });
    let mask = (!mask.is_null()).then(|| unsafe { std::slice::from_raw_parts(mask, n) });
    let spans = match (mask, lanes) {
        // A whole contiguous tile: one range, no walk over its lanes.
        (None, None) => vec![(base as usize, n * lb)],
        (Some(m), None) => mask_runs(m).into_iter().map(|(s, e)| (base as usize + s * lb, (e - s) * lb)).collect(),
        _ => runs(n, lb, |j| match (mask, lanes) {
            (Some(m), _) if m[j] == 0 => None,
            (_, Some(l)) => (l[j] != 0).then_some(l[j] as usize),
            (_, None) => Some(base as usize + j * lb),
        }),
    };
    for (at, len) in spans {
        if let Some((pe, off)) = i.shared().heap.locate(at) {
            race::access(i, how, pe, off, len, site);
        }
    }
    // An LL store is a write like any other (another store or a plain load of its words
    // races with it), and then a release: it is recorded at the epoch the release publishes.
    if k == kind::LL_RELEASE {
        race::ll_release(i);
    }
}

#[cfg(test)]
mod tests {
    use super::{mask_runs, runs};
    use rand::{rngs::StdRng, Rng, SeedableRng};
    use std::collections::BTreeSet;

    /// Random lane addresses (some off, some adjacent, some repeated): the ranges cover exactly
    /// the bytes of the lanes that are on, and no range ends where the next one starts.
    #[test]
    fn runs_cover_exactly_the_bytes_of_the_lanes_that_are_on() {
        let mut rng = StdRng::seed_from_u64(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move || rng.random::<u64>();
        for _ in 0..200 {
            let n = 1 + (next() % 40) as usize;
            let lb = [1usize, 2, 4, 8][(next() % 4) as usize];
            let mut at = 4096;
            let lanes: Vec<Option<usize>> = (0..n)
                .map(|_| {
                    at = match next() % 4 {
                        0 => at + lb,
                        1 => at + lb * (2 + (next() % 5) as usize),
                        2 => 4096 + lb * (next() % 64) as usize,
                        _ => at,
                    };
                    (next() % 5 != 0).then_some(at)
                })
                .collect();
            let got = runs(n, lb, |j| lanes[j]);
            let want: BTreeSet<usize> = lanes.iter().flatten().flat_map(|&a| a..a + lb).collect();
            let covered: BTreeSet<usize> = got.iter().flat_map(|&(a, l)| a..a + l).collect();
            assert_eq!(covered, want, "lanes {lanes:?} lane bytes {lb}: {got:?}");
            assert!(got.windows(2).all(|w| w[0].0 + w[0].1 != w[1].0), "{got:?}");
        }
    }

    /// Random masks (mostly long runs, some lone lanes, lengths not a multiple of 8): the word
    /// scan finds exactly the runs a lane-by-lane walk does.
    #[test]
    fn mask_runs_match_a_lane_walk() {
        let mut rng = StdRng::seed_from_u64(0x2545_f491_4f6c_dd1du64);
        let mut next = move || rng.random::<u64>();
        for _ in 0..500 {
            let n = (next() % 300) as usize;
            let mut on = next() % 2 == 0;
            let mask: Vec<u8> = (0..n)
                .map(|_| {
                    if next() % 23 == 0 {
                        on = !on;
                    }
                    if on { 1 + (next() % 3) as u8 } else { 0 }
                })
                .collect();
            let want = runs(n, 1, |j| (mask[j] != 0).then_some(j));
            let got: Vec<(usize, usize)> = mask_runs(&mask).into_iter().map(|(s, e)| (s, e - s)).collect();
            assert_eq!(got, want, "{mask:?}");
        }
    }
}
