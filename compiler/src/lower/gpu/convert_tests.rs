//! Gathers checked against naive index math, and their register fast path against the
//! layouts' thread → element ownership.

use super::*;

/// Every (thread, slot) of the result reads, from the same thread's slots, exactly the
/// source elements the naive math names.
fn check_local(g: &Gather, src: &Blocked, res: &Blocked, map: &[Vec<usize>]) {
    for t in 0..res.threads {
        for (s, slots) in map.iter().enumerate() {
            let held: Vec<usize> = slots.iter().map(|&k| src.element(t, k)).collect();
            assert_eq!(held, g.sources(res.element(t, s)), "thread {t} slot {s}");
        }
    }
}

#[test]
fn broadcast_sources_match_naive_indexing() {
    for (m, n) in [(4, 8), (64, 32), (128, 64)] {
        let rows = Gather::broadcast(&[m, 1], &[m, n]);
        let cols = Gather::broadcast(&[1, n], &[m, n]);
        for i in 0..m {
            for j in 0..n {
                assert_eq!(rows.sources(i * n + j), vec![i]);
                assert_eq!(cols.sources(i * n + j), vec![j]);
            }
        }
    }
}

#[test]
fn axis_reduction_sources_match_naive_indexing() {
    let (m, n) = (8, 16);
    let r1 = Gather::reduce(&[m, n], 1);
    let r0 = Gather::reduce(&[m, n], 0);
    for i in 0..m {
        assert_eq!(r1.sources(i), (0..n).map(|j| i * n + j).collect::<Vec<_>>());
    }
    for j in 0..n {
        assert_eq!(r0.sources(j), (0..m).map(|i| i * n + j).collect::<Vec<_>>());
    }
}

#[test]
fn row_broadcasts_and_row_reductions_stay_in_registers_when_threads_hold_whole_rows() {
    for threads in [32, 128, 256] {
        for (m, n) in [(64, 32), (128, 64), (256, 16), (16, 64)] {
            let (src, res) = (Blocked::new(m, threads).unwrap(), Blocked::new(m * n, threads).unwrap());
            let g = Gather::broadcast(&[m, 1], &[m, n]);
            // A thread's slots of [M, N] lie in one row (or whole rows) and, with replicated
            // rows sitting in neighbouring threads, that thread holds the row's [M, 1] value.
            let map = g.local(&src, &res).unwrap_or_else(|| panic!("[{m},1] -> [{m},{n}] over {threads} moves data"));
            check_local(&g, &src, &res, &map);
            let g = Gather::reduce(&[m, n], 1);
            if res.per >= n {
                let map = g.local(&res, &src).expect("whole rows reduce in registers");
                check_local(&g, &res, &src, &map);
            } else {
                assert!(g.local(&res, &src).is_none(), "a row split over threads needs shared memory");
            }
        }
    }
    // Columns of a row-major [M, N] tile are spread over threads: through shared memory.
    let (src, res) = (Blocked::new(64, 128).unwrap(), Blocked::new(64 * 64, 128).unwrap());
    assert!(Gather::broadcast(&[1, 64], &[64, 64]).local(&src, &res).is_none());
}
