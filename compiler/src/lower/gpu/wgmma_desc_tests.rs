//! The `wgmma` operand path simulated in plain Rust: each thread's 16-byte chunks staged where
//! the lowering's `cp.async` copies put them, the hardware's reads through the descriptors
//! the lowering builds (per warp group and k16 step), the products placed in the D fragment
//! registers; every register must hold the naive GEMM's element at the position the
//! accumulator layout (`AccLayout::Mma` with `warps x 1` warps) gives it, for f16 and bf16
//! and every library tile `plan` takes.

use super::*;
use crate::lower::gpu::sim_operands::{from_i, operands, to_f32};
use crate::lower::gpu::acc_layout::AccLayout;

/// Stages `vals` (row-major `tile.rows x tile.cols`) in 16-byte chunks as the copies do;
/// every element lands in a distinct 16-bit slot of the tile's bytes.
fn stage(vals: &[u16], tile: &SwizzledTile) -> Vec<u16> {
    let mut out = vec![None; tile.bytes() / 2];
    for chunk in 0..vals.len() / 8 {
        let e = chunk * 8;
        let at = tile.byte_of(e / tile.cols, e % tile.cols);
        assert_eq!(at % 16, 0, "chunk {chunk} not 16-byte aligned");
        for i in 0..8 {
            let slot = &mut out[at / 2 + i];
            assert!(slot.is_none(), "two elements staged at byte {at}");
            *slot = Some(vals[e + i]);
        }
    }
    // The chunk's 8 elements stay in order: the swizzle moves whole chunks.
    for r in 0..tile.rows {
        for c in 0..tile.cols {
            assert_eq!(out[tile.byte_of(r, c) / 2], Some(vals[r * tile.cols + c]));
        }
    }
    out.into_iter().map(|x| x.expect("every slot written")).collect()
}

fn simulate(m: usize, n: usize, k: usize, warps: usize, bf16: bool, seed: u64) -> bool {
    let Some((ta, tb)) = plan(m, n, k, warps) else { return false };
    let (a, b) = operands(m, n, k, seed);
    let sa = stage(&a.iter().map(|&v| from_i(v, bf16)).collect::<Vec<_>>(), &ta);
    let sb = stage(&b.iter().map(|&v| from_i(v, bf16)).collect::<Vec<_>>(), &tb);
    let acc = AccLayout::Mma { m, n, warps_m: warps, warps_n: 1 };
    for g in 0..warps / WG_WARPS {
        // The hardware's view: one m64nNk16 per k16 step through the two descriptors.
        let mut d = vec![0f32; WG_M * n];
        for step in 0..k / WG_K {
            let (da, db) = (Desc::a(ta, g, step), Desc::b(tb, step));
            for i in 0..WG_M {
                for j in 0..n {
                    for kk in 0..WG_K {
                        let av = to_f32(sa[da.address(Major::K, i, kk) / 2], bf16);
                        let bv = to_f32(sb[db.address(Major::Mn, j, kk) / 2], bf16);
                        d[i * n + j] += av * bv;
                    }
                }
            }
        }
        for w in 0..WG_WARPS {
            for lane in 0..32 {
                let t = (g * WG_WARPS + w) * 32 + lane;
                for slot in 0..n / 2 {
                    let (r, c) = d_fragment(w, lane, slot);
                    let (gr, gc) = (g * WG_M + r, c);
                    assert_eq!(acc.element(t, slot), (gr, gc), "thread {t} slot {slot}: accumulator layout disagrees with the D fragment");
                    let want: i64 = (0..k).map(|kk| a[gr * k + kk] * b[kk * n + gc]).sum();
                    assert_eq!(d[r * n + c], want as f32, "{m}x{n}x{k} w{warps} bf16={bf16}: C[{gr}][{gc}]");
                }
            }
        }
    }
    true
}

#[test]
fn wgmma_descriptors_and_fragments_multiply_to_a_naive_gemm_for_every_library_tile() {
    let mut seed = 7;
    let mut taken = vec![];
    for bf16 in [false, true] {
        for m in [16, 32, 64, 128] {
            for n in [64, 128, 256] {
                for k in [32, 64] {
                    for warps in [4, 8] {
                        if simulate(m, n, k, warps, bf16, seed) {
                            taken.push((m, warps));
                        }
                        seed += 1;
                    }
                }
            }
        }
        // Narrow tiles: 32- and 64-byte swizzles on B, a two-atom A row (K = 128).
        assert!(simulate(64, 16, 16, 4, bf16, seed));
        assert!(simulate(64, 32, 128, 4, bf16, seed + 1));
    }
    taken.sort();
    taken.dedup();
    assert_eq!(taken, [(64, 4), (128, 8)], "one warp group per 64 rows");
}

#[test]
fn descriptors_match_what_triton_emits() {
    // Triton 3.9, tutorial-03 matmul on sm_90a (bench/codegen_triton.py), shared base 0.
    let (a, b) = plan(64, 64, 32, 4).unwrap();
    assert_eq!(Desc::a(a, 0, 0).encode(0), 0x8000_0020_0000_0000);
    assert_eq!(Desc::b(b, 0).encode(0), 0x4000_0040_0000_0000);
    assert_eq!(Desc::a(a, 0, 1).encode(0) - Desc::a(a, 0, 0).encode(0), 2);
    assert_eq!(Desc::b(b, 1).encode(0) - Desc::b(b, 0).encode(0), 128);
    let (a, b) = plan(128, 128, 64, 8).unwrap();
    assert_eq!(Desc::a(a, 1, 0).start, 8192);
    assert_eq!(Desc::b(b, 0).fields(), 0x4000_0040_0200_0000);
}

#[test]
fn swizzle_is_a_permutation_of_chunks_per_atom() {
    for s in [32, 64, 128] {
        let mut seen: Vec<usize> = (0..8 * s / 16).map(|c| swizzle(c * 16, s) / 16).collect();
        seen.sort();
        assert_eq!(seen, (0..8 * s / 16).collect::<Vec<_>>());
    }
    assert_eq!(swizzle_for(96), None);
    assert_eq!(SwizzledTile::new(64, 8), None, "16-byte rows take no swizzle");
}
