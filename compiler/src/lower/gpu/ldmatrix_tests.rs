//! The `ldmatrix` path simulated per thread, as the lowering emits it: the padded stash, each
//! lane's row addresses, the registers `ldmatrix` gives (the ISA's mapping), assembled into
//! `m16n8k16` fragments, multiplied and accumulated; the result must equal a naive GEMM for
//! f16 and bf16 and every tile the GEMM kernels use, every address 16-byte aligned and every
//! `ldmatrix` phase free of bank conflicts.

use super::*;
use crate::lower::gpu::sim_operands::{from_i, operands, stash, to_f32};
use crate::lower::gpu::acc_layout::{mma_a_fragment, mma_b_fragment, AccLayout, MMA_K, MMA_M, MMA_N};

/// `ldmatrix.x{count}` over the warp: `addr[lane]` is the element index lane gives; returns
/// each lane's registers as (low, high) 16-bit pairs. Checks alignment and bank conflicts.
fn ldmatrix_sim(smem: &[u16], addr: &[usize; 32], count: usize, trans: bool) -> Vec<Vec<(u16, u16)>> {
    for j in 0..count {
        let mut groups: Vec<usize> = (0..8).map(|r| addr[8 * j + r] * 2).inspect(|a| assert_eq!(a % 16, 0, "row address {a} not 16-byte aligned")).map(|a| (a / 16) % 8).collect();
        groups.sort();
        groups.dedup();
        assert_eq!(groups.len(), 8, "bank conflict in matrix {j}: rows {:?}", &addr[8 * j..8 * j + 8]);
    }
    (0..32)
        .map(|lane| {
            (0..count)
                .map(|j| {
                    let get = |h| {
                        let (r, c) = received(lane, h, trans);
                        smem[addr[8 * j + r] + c]
                    };
                    (get(0), get(1))
                })
                .collect()
        })
        .collect()
}

/// The lowering's mma path for one `m x n x k` dot over `warps` warps.
fn simulate(m: usize, n: usize, k: usize, warps: usize, bf16: bool, seed: u64) {
    let Some(l) = AccLayout::mma(m, n, warps) else { return };
    let AccLayout::Mma { warps_m, warps_n, .. } = l else { unreachable!() };
    let threads = warps * 32;
    let (al, bl) = (Blocked::new(m * k, threads).unwrap(), Blocked::new(k * n, threads).unwrap());
    let (pa, pb) = (row_pad(k, al.per), row_pad(n, bl.per));
    let (ks, ns) = (k + pa, n + pb);
    let (a, b) = operands(m, n, k, seed);
    let b_at = (m * ks * 2).div_ceil(16) * 8; // in elements
    let mut smem = vec![0u16; b_at + k * ns];
    stash(&a.iter().map(|&v| from_i(v, bf16)).collect::<Vec<_>>(), k, pa, &al, &mut smem, 0);
    stash(&b.iter().map(|&v| from_i(v, bf16)).collect::<Vec<_>>(), n, pb, &bl, &mut smem, b_at);
    let (rm, rn) = l.reps();
    let mut acc = vec![vec![0f32; l.slots()]; threads];
    for warp in 0..warps {
        let (wm, wn) = (warp / warps_n, warp % warps_n);
        // The per-lane bases of `ldmatrix_bases`.
        let base = |lane: usize, a_side: bool| {
            let (r, c) = x4_row(lane);
            if a_side { (wm * (m / warps_m) + r) * ks + c } else { b_at + r * ns + wn * (n / warps_n) + c }
        };
        for k0 in (0..k).step_by(MMA_K) {
            let mut bregs: Vec<Vec<(u16, u16)>> = vec![vec![]; 32 * rn];
            for jn in (0..rn).step_by(2) {
                let count = if jn + 1 < rn { 4 } else { 2 };
                let addr: [usize; 32] = std::array::from_fn(|lane| base(lane, false) + k0 * ns + jn * MMA_N);
                for (lane, regs) in ldmatrix_sim(&smem, &addr, count, true).into_iter().enumerate() {
                    for (t, pair) in regs.chunks(2).enumerate() {
                        bregs[(jn + t) * 32 + lane] = pair.to_vec();
                    }
                }
            }
            for im in 0..rm {
                let addr: [usize; 32] = std::array::from_fn(|lane| base(lane, true) + im * MMA_M * ks + k0);
                let aregs = ldmatrix_sim(&smem, &addr, 4, false);
                for jn in 0..rn {
                    // The warp's mma: fragments placed by the ISA's m16n8k16 mapping.
                    let (mut ta, mut tb) = ([[0f32; 16]; 16], [[0f32; 8]; 16]);
                    for lane in 0..32 {
                        let half = |(lo, hi): (u16, u16), i: usize| to_f32(if i % 2 == 0 { lo } else { hi }, bf16);
                        for (i, (r, kk)) in mma_a_fragment(lane).into_iter().enumerate() {
                            ta[r][kk] = half(aregs[lane][i / 2], i);
                        }
                        for (i, (kk, c)) in mma_b_fragment(lane).into_iter().enumerate() {
                            tb[kk][c] = half(bregs[jn * 32 + lane][i / 2], i);
                        }
                    }
                    for lane in 0..32 {
                        for q in 0..4 {
                            let (r, c) = (lane / 4 + (q / 2) * 8, 2 * (lane % 4) + q % 2);
                            acc[warp * 32 + lane][l.mma_slot(im, jn) + q] += (0..16).map(|kk| ta[r][kk] * tb[kk][c]).sum::<f32>();
                        }
                    }
                }
            }
        }
    }
    for t in 0..threads {
        for s in 0..l.slots() {
            let (r, c) = l.element(t, s);
            let want: i64 = (0..k).map(|kk| a[r * k + kk] * b[kk * n + c]).sum();
            assert_eq!(acc[t][s], want as f32, "{m}x{n}x{k} w{warps} bf16={bf16}: C[{r}][{c}]");
        }
    }
}

#[test]
fn ldmatrix_fragments_multiply_to_a_naive_gemm_for_every_library_tile() {
    let mut seed = 1;
    for bf16 in [false, true] {
        for m in [16, 32, 64, 128] {
            for n in [32, 64, 128, 256] {
                for k in [32, 64] {
                    for warps in [4, 8] {
                        simulate(m, n, k, warps, bf16, seed);
                        seed += 1;
                    }
                }
            }
        }
        // An odd number of 8-column tiles per warp (the last B read is an `.x2`), one warp.
        simulate(32, 24, 16, 1, bf16, seed);
    }
}

#[test]
fn padding_makes_strides_an_odd_number_of_chunks() {
    assert_eq!(row_pad(32, 16), 8);
    assert_eq!(row_pad(24, 8), 0, "3 chunks: already conflict-free");
    assert_eq!(row_pad(64, 128), 8, "a thread fills two whole rows");
    assert_eq!(row_pad(64, 48), 0, "48 elements would straddle a padded row");
    for cols in (16..=256).step_by(16) {
        assert_eq!(((cols + row_pad(cols, 8)) / 8) % 2, 1, "{cols}");
    }
}
