//! Accumulator layouts checked by enumeration: every element owned once, and the `m16n8k16`
//! fragments, assembled the way the lowering loads them, multiply to a naive GEMM.

use super::*;

fn assert_covers(l: &AccLayout) {
    let (m, n) = l.shape();
    let mut owners = vec![0usize; m * n];
    for t in 0..l.threads() {
        for s in 0..l.slots() {
            let (r, c) = l.element(t, s);
            assert!(r < m && c < n, "{l:?}: thread {t} slot {s} at ({r}, {c})");
            owners[r * n + c] += 1;
        }
    }
    assert!(owners.iter().all(|&k| k == 1), "{l:?}: ownership counts {owners:?}");
}

#[test]
fn mma_and_fma_layouts_own_every_element_once() {
    for warps in [1, 2, 4, 8] {
        for (m, n) in [(16, 8), (64, 64), (128, 64), (128, 128), (64, 256), (256, 128), (32, 16)] {
            if let Some(l) = AccLayout::mma(m, n, warps) {
                assert_eq!(l.threads(), warps * 32, "{l:?}");
                assert_covers(&l);
            }
            if let Some(l) = AccLayout::fma(m, n, warps * 32) {
                assert_eq!(l.slots() * l.threads(), m * n);
                assert_covers(&l);
            }
        }
    }
    // 128x128 over 4 warps: 2x2 warps of 4x8 tiles, as Triton's mma v2 layout.
    assert_eq!(AccLayout::mma(128, 128, 4), Some(AccLayout::Mma { m: 128, n: 128, warps_m: 2, warps_n: 2 }));
    assert_eq!(AccLayout::mma(128, 128, 4).unwrap().slots(), 128);
    assert_eq!(AccLayout::mma(16, 8, 2), None, "one tile cannot feed two warps");
    assert_eq!(AccLayout::fma(64, 64, 128), Some(AccLayout::Fma { m: 64, n: 64, threads_m: 16, threads_n: 8 }));
}

#[test]
fn slots_are_a_thread_base_plus_a_constant() {
    let l = AccLayout::mma(64, 128, 4).unwrap();
    for t in 0..l.threads() {
        for s in 0..l.slots() {
            let (b, o) = (l.base(t), l.offset(s));
            assert_eq!(l.element(t, s), (b.0 + o.0, b.1 + o.1));
        }
    }
    assert_eq!(l.offset(0), (0, 0), "slot 0 is the base");
}

#[test]
fn fragments_cover_their_tiles_once() {
    let (mut a, mut b) = (vec![0; 16 * 16], vec![0; 16 * 8]);
    for lane in 0..32 {
        mma_a_fragment(lane).iter().for_each(|&(r, k)| a[r * 16 + k] += 1);
        mma_b_fragment(lane).iter().for_each(|&(k, c)| b[k * 8 + c] += 1);
    }
    assert!(a.iter().chain(&b).all(|&k| k == 1));
}

/// What the lowering does, simulated per thread: for each k16 step and each of the warp's
/// 16x8 tiles, every lane contributes its A and B fragment registers, the warp's `mma` forms
/// the tile product from them, and each lane keeps its D registers. The per-thread D slots,
/// placed by the layout, must equal a naive GEMM.
#[test]
fn mma_fragments_multiply_to_a_naive_gemm() {
    for (m, n, k, warps) in [(16, 8, 16, 1), (64, 64, 32, 4), (128, 64, 32, 8), (32, 128, 64, 2)] {
        let l = AccLayout::mma(m, n, warps).unwrap();
        let a: Vec<i64> = (0..m * k).map(|i| (i as i64 * 7 + 3) % 11 - 5).collect();
        let b: Vec<i64> = (0..k * n).map(|i| (i as i64 * 5 + 1) % 13 - 6).collect();
        let mut acc = vec![vec![0i64; l.slots()]; l.threads()];
        let (rm, rn) = l.reps();
        for k0 in (0..k).step_by(MMA_K) {
            for warp in 0..warps {
                for im in 0..rm {
                    for jn in 0..rn {
                        // The tile's origin: the warp's corner (lane 0's base) plus the tile.
                        let corner = l.base(warp * 32);
                        let (r0, c0) = (corner.0 + im * MMA_M, corner.1 + jn * MMA_N);
                        let (mut ta, mut tb) = ([[0i64; 16]; 16], [[0i64; 8]; 16]);
                        for lane in 0..32 {
                            for (r, kk) in mma_a_fragment(lane) {
                                ta[r][kk] = a[(r0 + r) * k + k0 + kk];
                            }
                            for (kk, c) in mma_b_fragment(lane) {
                                tb[kk][c] = b[(k0 + kk) * n + c0 + c];
                            }
                        }
                        for lane in 0..32 {
                            let t = warp * 32 + lane;
                            for q in 0..4 {
                                let s = l.mma_slot(im, jn) + q;
                                // D register q of the fragment: the same (row, col) rule as C.
                                let (r, c) = (lane / 4 + (q / 2) * 8, 2 * (lane % 4) + q % 2);
                                assert_eq!(l.element(t, s), (r0 + r, c0 + c));
                                acc[t][s] += (0..16).map(|kk| ta[r][kk] * tb[kk][c]).sum::<i64>();
                            }
                        }
                    }
                }
            }
        }
        for t in 0..l.threads() {
            for s in 0..l.slots() {
                let (r, c) = l.element(t, s);
                let want: i64 = (0..k).map(|kk| a[r * k + kk] * b[kk * n + c]).sum();
                assert_eq!(acc[t][s], want, "{m}x{n}x{k}: C[{r}][{c}]");
            }
        }
    }
}
