//! The `ldmatrix` path simulated per thread, as the lowering emits it: the padded stash (or
//! the swizzled staging a TMA box writes, modelled from the programming guide's tables), each
//! lane's row addresses, the registers `ldmatrix` gives (the ISA's mapping), assembled into
//! `m16n8k16` fragments, multiplied and accumulated; the result must equal a naive GEMM for
//! f16 and bf16 and every tile the GEMM kernels use, every address 16-byte aligned and every
//! `ldmatrix` phase free of bank conflicts.

use super::*;
use crate::lower::gpu::sim_operands::{from_i, operands, stash, to_f32};
use crate::lower::gpu::ldmatrix_swizzle::{carry_free, lane_byte, Step};
use crate::lower::gpu::wgmma_desc::SwizzledTile;
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

/// Where the operands sit in shared memory and each lane's row addresses.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    /// Padded rows filled by the threads' stores (`stash_padded`).
    Padded,
    /// The swizzled staging a TMA box writes, read through [`crate::lower::gpu::ldmatrix_swizzle`].
    Swizzled,
}

/// What a TMA box with the `s`-byte swizzle writes: box `j` of a row-major `rows x cols`
/// tile (`s / 2` columns from `j * s / 2`) at byte `j * rows * s`, row `r` at `r * s`, its
/// 16-byte chunk `q` at chunk `q ^ phase(r)` (the CUDA programming guide's swizzle tables:
/// the phase steps every `128 / s` rows through `s / 16` values). Independent of
/// `SwizzledTile::byte_of`.
fn tma_boxes(vals: &[u16], rows: usize, cols: usize, s: usize, out: &mut [u16], at: usize) {
    let w = s / 2;
    for j in 0..cols / w {
        for r in 0..rows {
            let phase = (r / (128 / s)) % (s / 16);
            for q in 0..s / 16 {
                let dst = at + (j * rows * s + r * s + (q ^ phase) * 16) / 2;
                for i in 0..8 {
                    out[dst + i] = vals[r * cols + j * w + q * 8 + i];
                }
            }
        }
    }
}

/// The lowering's mma path for one `m x n x k` dot over `warps` warps, operands staged as
/// `stage` says (`Swizzled` only where both tiles admit a swizzle).
fn simulate(m: usize, n: usize, k: usize, warps: usize, bf16: bool, seed: u64, stage: Stage) -> bool {
    let Some(l) = AccLayout::mma(m, n, warps) else { return false };
    let AccLayout::Mma { warps_m, warps_n, .. } = l else { unreachable!() };
    let threads = warps * 32;
    let (al, bl) = (Blocked::new(m * k, threads).unwrap(), Blocked::new(k * n, threads).unwrap());
    let (pa, pb) = match stage {
        Stage::Padded => (row_pad(k, al.per), row_pad(n, bl.per)),
        Stage::Swizzled => (0, 0),
    };
    let (ks, ns) = (k + pa, n + pb);
    let (a, b) = operands(m, n, k, seed);
    let (a16, b16): (Vec<u16>, Vec<u16>) = (a.iter().map(|&v| from_i(v, bf16)).collect(), b.iter().map(|&v| from_i(v, bf16)).collect());
    let b_at = (m * ks * 2).div_ceil(16) * 8; // in elements
    let mut smem = vec![0u16; b_at + k * ns];
    let swz = (SwizzledTile::new(m, k), SwizzledTile::new(k, n));
    let (ta, tb) = match (stage, swz) {
        (Stage::Padded, _) => {
            stash(&a16, k, pa, &al, &mut smem, 0);
            stash(&b16, n, pb, &bl, &mut smem, b_at);
            (None, None)
        }
        (Stage::Swizzled, (Some(ta), Some(tb))) => {
            tma_boxes(&a16, m, k, ta.swizzle, &mut smem, 0);
            tma_boxes(&b16, k, n, tb.swizzle, &mut smem, b_at);
            (Some(ta), Some(tb))
        }
        _ => return false,
    };
    let (rm, rn) = l.reps();
    let mut acc = vec![vec![0f32; l.slots()]; threads];
    for warp in 0..warps {
        let (wm, wn) = (warp / warps_n, warp % warps_n);
        let (row0, col0) = (wm * (m / warps_m), wn * (n / warps_n));
        // Each lane's element index for the block `dr` rows and `dc` columns from its first:
        // `ldmatrix_bases` plus a constant offset (padded), or its swizzled base byte
        // stepped by a constant XOR and add (swizzled).
        let addr = |lane: usize, a_side: bool, dr: usize, dc: usize| match (ta, tb) {
            (Some(ta), Some(tb)) => {
                let (t, r0, c0, at) = if a_side { (ta, row0, 0, 0) } else { (tb, 0, col0, b_at) };
                let span = if a_side { k } else { n / warps_n };
                assert!(carry_free(&t, c0, span), "{m}x{n}x{k} w{warps}: block steps would carry");
                at + Step::new(&t, dr, dc).apply(lane_byte(&t, r0, c0, lane)) / 2
            }
            _ => {
                let (r, c) = x4_row(lane);
                if a_side { (row0 + r + dr) * ks + c + dc } else { b_at + (r + dr) * ns + col0 + c + dc }
            }
        };
        for k0 in (0..k).step_by(MMA_K) {
            let mut bregs: Vec<Vec<(u16, u16)>> = vec![vec![]; 32 * rn];
            for jn in (0..rn).step_by(2) {
                let count = if jn + 1 < rn { 4 } else { 2 };
                let addr: [usize; 32] = std::array::from_fn(|lane| addr(lane, false, k0, jn * MMA_N));
                for (lane, regs) in ldmatrix_sim(&smem, &addr, count, true).into_iter().enumerate() {
                    for (t, pair) in regs.chunks(2).enumerate() {
                        bregs[(jn + t) * 32 + lane] = pair.to_vec();
                    }
                }
            }
            for im in 0..rm {
                let addr: [usize; 32] = std::array::from_fn(|lane| addr(lane, true, im * MMA_M, k0));
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
    true
}

#[test]
fn ldmatrix_fragments_multiply_to_a_naive_gemm_for_every_library_tile() {
    let (mut seed, mut swizzled) = (1, 0);
    for bf16 in [false, true] {
        for m in [16, 32, 64, 128] {
            for n in [32, 64, 128, 256] {
                for k in [32, 64] {
                    for warps in [4, 8] {
                        simulate(m, n, k, warps, bf16, seed, Stage::Padded);
                        swizzled += simulate(m, n, k, warps, bf16, seed, Stage::Swizzled) as usize;
                        seed += 1;
                    }
                }
            }
        }
        // An odd number of 8-column tiles per warp (the last B read is an `.x2`), one warp.
        simulate(32, 24, 16, 1, bf16, seed, Stage::Padded);
    }
    assert!(swizzled >= 48, "only {swizzled} swizzled tiles simulated");
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

#[test]
fn swizzled_block_steps_equal_the_swizzled_address_of_every_lane() {
    for (rows, cols) in [(64, 16), (64, 32), (128, 64), (32, 128), (64, 256)] {
        let t = SwizzledTile::new(rows, cols).unwrap();
        for span in [16, 32, 64, 128].into_iter().filter(|&s| s <= cols) {
            for col0 in (0..cols).step_by(span).filter(|&c| carry_free(&t, c, span)) {
                for lane in 0..32 {
                    let base = lane_byte(&t, 8, col0, lane);
                    for dr in (0..rows - 8).step_by(8) {
                        for dc in (0..span).step_by(16).filter(|&d| col0 + d < cols) {
                            let want = t.byte_of(8 + dr + x4_row(lane).0, col0 + dc + x4_row(lane).1);
                            assert_eq!(Step::new(&t, dr, dc).apply(base), want, "{rows}x{cols} span {span} col0 {col0} lane {lane} +({dr}, {dc})");
                        }
                    }
                }
            }
        }
        // A warp starting mid-span would carry into the chunk bits its steps flip.
        assert!(!carry_free(&t, 16, 32) || t.atom_cols() < 32);
    }
}
