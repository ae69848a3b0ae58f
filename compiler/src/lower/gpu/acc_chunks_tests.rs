//! The chunk plan checked element by element: every accumulator element is written once, in
//! one chunk, at a scratch slot no other element of that chunk uses, and the blocked thread
//! that holds it reads that slot in that chunk.

use super::*;
use std::collections::HashMap;

fn check(acc: AccLayout, budget: usize) -> AccChunks {
    let (m, n) = acc.shape();
    let blocked = Blocked::new(m * n, acc.threads()).unwrap();
    let plan = AccChunks::plan(acc, blocked, 4, budget).unwrap_or_else(|| panic!("{acc:?} cuts into chunks of {budget} B"));
    let chunk_elems = m * n / plan.count;
    assert!(chunk_elems * 4 <= budget, "{plan:?}");
    let sub = plan.chunk_layout();
    // (chunk, slot in scratch) -> element written there.
    let mut written: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    for t in 0..acc.threads() {
        let (r, c) = sub.base(t);
        for slot in 0..acc.slots() {
            let (chunk, off) = plan.acc_slot(slot);
            let at = r * n + c + off;
            assert!(chunk < plan.count && at < chunk_elems, "thread {t} slot {slot}: chunk {chunk} at {at}");
            assert!(written.insert((chunk, at), acc.element(t, slot)).is_none(), "two elements at chunk {chunk} slot {at}");
        }
    }
    assert_eq!(written.len(), m * n, "every element is written");
    for t in 0..blocked.threads {
        let (chunk, at) = plan.blocked_thread(t);
        for s in 0..blocked.per {
            let e = blocked.element(t, s);
            assert_eq!(written.get(&(chunk, at + s)), Some(&(e / n, e % n)), "thread {t} slot {s} reads element {e}");
        }
    }
    plan
}

#[test]
fn mma_accumulators_cut_into_chunks_that_round_trip() {
    for (m, n, warps, budget, count) in [(128, 128, 8, CHUNK_BYTES, 2), (128, 256, 8, CHUNK_BYTES, 4), (64, 64, 4, 8192, 2), (128, 64, 4, 8192, 4)] {
        let acc = AccLayout::mma(m, n, warps).unwrap();
        assert_eq!(check(acc, budget).count, count, "{m}x{n} w{warps}");
    }
}

#[test]
fn mfma_accumulators_cut_into_chunks_that_round_trip() {
    // Bands of one 32-row block per wavefront cut into 8-row slices; 16x16 blocks into 16.
    for (m, n, k, warps, budget, count) in [(128, 128, 64, 8, CHUNK_BYTES, 2), (128, 256, 64, 8, CHUNK_BYTES, 4), (64, 64, 32, 4, 4096, 4), (128, 16, 32, 4, 4096, 2)] {
        let acc = AccLayout::mfma(m, n, k, warps).unwrap();
        assert_eq!(check(acc, budget).count, count, "{m}x{n} w{warps}: {acc:?}");
    }
}

#[test]
fn fma_accumulators_cut_into_chunks_that_round_trip() {
    for (m, n, threads, budget) in [(64, 64, 64, 4096), (128, 32, 128, 4096)] {
        check(AccLayout::fma(m, n, threads).unwrap(), budget);
    }
}

#[test]
fn a_small_accumulator_or_an_uneven_one_is_not_cut() {
    let acc = AccLayout::mma(64, 64, 4).unwrap();
    assert_eq!(AccChunks::plan(acc, Blocked::new(64 * 64, 128).unwrap(), 4, CHUNK_BYTES), None, "16 KiB fits one chunk");
    // One warp band of 16 rows cannot be sliced into whole mma tiles.
    let thin = AccLayout::mma(16, 256, 1).unwrap();
    assert_eq!(AccChunks::plan(thin, Blocked::new(16 * 256, 32).unwrap(), 4, 1024), None);
}
