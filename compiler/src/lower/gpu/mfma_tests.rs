//! The MFMA path simulated per lane, as the lowering emits it: A stashed padded, B stashed
//! transposed, each lane's 8-byte operand reads, the registers assembled into blocks by the
//! ISA's operand maps, multiplied into the D map's registers; every accumulator slot must then
//! hold what [`AccLayout::element`] says it does, equal to a naive GEMM, for f16 and bf16 and
//! every tile the GEMM kernels use, every read 8-byte aligned and, padded, free of bank
//! conflicts.

use super::*;
use crate::lower::gpu::mfma_swizzle::{swizzle, swizzled};
use crate::lower::gpu::sim_operands::{from_i, operands, stash, to_f32};

/// `stash_transposed` per thread: element `(kk, c)` of row-major `vals` (`k x n`) written at
/// `c * kp + kk` from `at`, by the owning threads, at the offsets the lowering computes.
fn stash_t(vals: &[u16], (k, n): (usize, usize), kp: usize, l: &Blocked, out: &mut [u16], at: usize) {
    for t in (0..l.threads).filter(|&t| l.owns(t)) {
        let b = l.element(t, 0);
        let base = (b % n) * kp + b / n;
        for i in 0..l.per {
            let e = b + i;
            let off = base + (i % n) * kp + i / n;
            assert_eq!(off, (e % n) * kp + e / n, "thread {t} slot {i} lands off its transposed place");
            assert!(e < k * n);
            out[at + off] = vals[e];
        }
    }
}

/// `stash_swizzled` per thread: row-major `vals` (`[rows][cols]`) written swizzled (rows of
/// `k`; `transposed`: element `(x, y)` as row `y`, column `x`) from `at`, in the pieces the
/// lowering stores, each of which must be contiguous there.
fn stash_swz(vals: &[u16], (cols, k): (usize, usize), transposed: bool, l: &Blocked, out: &mut [u16], at: usize) {
    let piece = if transposed { 1 } else { [4, 2, 1].into_iter().find(|p| l.per % p == 0).unwrap() };
    let place = |e: usize| {
        let (x, y) = (e / cols, e % cols);
        if transposed { swizzle(y, x, k) } else { swizzle(x, y, k) }
    };
    for t in (0..l.threads).filter(|&t| l.owns(t)) {
        let b = l.element(t, 0);
        for j in 0..l.per / piece {
            let e = b + j * piece;
            for q in 0..piece {
                assert_eq!(place(e + q), place(e) + q, "thread {t}: a store piece is not contiguous");
                out[at + place(e) + q] = vals[e + q];
            }
        }
    }
}

/// One wavefront's reads of 4 elements at `addr[lane]`: checks 8-byte alignment and, when
/// `padded`, that each 16 lanes hit 16 different 8-byte bank pairs.
fn read64(smem: &[u16], addr: &[usize; WAVE], padded: bool) -> Vec<[u16; 4]> {
    for group in addr.chunks(16) {
        assert!(group.iter().all(|a| (a * 2) % 8 == 0), "unaligned operand read {group:?}");
        let mut pairs: Vec<usize> = group.iter().map(|a| (a * 2 / 8) % 16).collect();
        pairs.sort();
        pairs.dedup();
        assert!(!padded || pairs.len() == 16, "bank conflict among lanes reading {group:?}");
    }
    addr.iter().map(|&a| std::array::from_fn(|j| smem[a + j])).collect()
}

/// The lowering's MFMA path for one `m x n x k` dot over `warps` wavefronts; the block size
/// it took (None: no MFMA layout).
fn simulate(m: usize, n: usize, k: usize, warps: usize, bf16: bool, seed: u64) -> Option<usize> {
    let l = AccLayout::mfma(m, n, k, warps)?;
    let AccLayout::Mfma { warps_m, warps_n, instr: s, .. } = l else { unreachable!() };
    let threads = warps * WAVE;
    assert_eq!(l.threads(), threads);
    let (al, bl) = (Blocked::new(m * k, threads).unwrap(), Blocked::new(k * n, threads).unwrap());
    let st = Staging::mfma(m, n, k, 2, al.per);
    let (kpa, kpb) = (k + st.pad_a, k + st.pad_b);
    let (a, b) = operands(m, n, k, seed);
    let b_at = st.b_at / 2;
    let mut smem = vec![0u16; st.bytes / 2];
    let (av16, bv16): (Vec<u16>, Vec<u16>) = (a.iter().map(|&v| from_i(v, bf16)).collect(), b.iter().map(|&v| from_i(v, bf16)).collect());
    let swz = swizzled(k);
    if swz {
        assert_eq!((st.pad_a, st.pad_b), (0, 0), "swizzled rows are not padded");
        stash_swz(&av16, (k, k), false, &al, &mut smem, 0);
        stash_swz(&bv16, (n, k), true, &bl, &mut smem, b_at);
    } else {
        stash(&av16, k, st.pad_a, &al, &mut smem, 0);
        stash_t(&bv16, (k, n), kpb, &bl, &mut smem, b_at);
    }
    // Where (row, k) of a staged operand with rows of `kp` lies.
    let place = |row: usize, col: usize, kp: usize| if swz { swizzle(row, col, k) } else { row * kp + col };
    let ((rm, rn), per) = (l.reps(), s * s / WAVE);
    assert_eq!(l.slots(), rm * rn * per);
    let mut acc = vec![vec![0f32; l.slots()]; threads];
    for warp in 0..warps {
        let (wm, wn) = (warp / warps_n, warp % warps_n);
        // The per-lane bases of `mfma_bases`.
        for k0 in (0..k).step_by(mfma_k(s)) {
            let regs = |g: usize, at: usize, span: usize, w: usize, kp: usize| {
                let addr: [usize; WAVE] = std::array::from_fn(|lane| at + place(w * span + g * s + lane % s, k0 + 4 * (lane / s), kp));
                read64(&smem, &addr, kp > k || swz)
            };
            let av: Vec<_> = (0..rm).map(|im| regs(im, 0, m / warps_m, wm, kpa)).collect();
            let bv: Vec<_> = (0..rn).map(|jn| regs(jn, b_at, n / warps_n, wn, kpb)).collect();
            for im in 0..rm {
                for jn in 0..rn {
                    // The instruction: blocks placed by the ISA's operand maps, D by its map.
                    let (mut ta, mut tb) = (vec![vec![0f32; mfma_k(s)]; s], vec![vec![0f32; s]; mfma_k(s)]);
                    for lane in 0..WAVE {
                        for (j, (r, kk)) in mfma_a_fragment(lane, s).into_iter().enumerate() {
                            ta[r][kk] = to_f32(av[im][lane][j], bf16);
                        }
                        for (j, (kk, c)) in mfma_b_fragment(lane, s).into_iter().enumerate() {
                            tb[kk][c] = to_f32(bv[jn][lane][j], bf16);
                        }
                    }
                    for lane in 0..WAVE {
                        for v in 0..per {
                            let (r, c) = mfma_d_element(lane, v, s);
                            acc[warp * WAVE + lane][(im * rn + jn) * per + v] += (0..mfma_k(s)).map(|kk| ta[r][kk] * tb[kk][c]).sum::<f32>();
                        }
                    }
                }
            }
        }
    }
    let mut seen = vec![false; m * n];
    for t in 0..threads {
        for slot in 0..l.slots() {
            let (r, c) = l.element(t, slot);
            assert!(!std::mem::replace(&mut seen[r * n + c], true), "C[{r}][{c}] held twice");
            let want: i64 = (0..k).map(|kk| a[r * k + kk] * b[kk * n + c]).sum();
            assert_eq!(acc[t][slot], want as f32, "{m}x{n}x{k} w{warps} bf16={bf16} S={s}: C[{r}][{c}] (thread {t} slot {slot})");
        }
    }
    Some(s)
}

#[test]
fn mfma_fragments_multiply_to_a_naive_gemm_for_every_library_tile() {
    let (mut seed, mut sizes) = (1, vec![]);
    for bf16 in [false, true] {
        for m in [16, 32, 64, 128] {
            for n in [16, 32, 64, 128, 256] {
                for k in [16, 32, 64, 128] {
                    for warps in [1, 2, 4, 8] {
                        sizes.extend(simulate(m, n, k, warps, bf16, seed));
                        seed += 1;
                    }
                }
            }
        }
    }
    // Both instruction shapes were exercised, padded (k 16, 32) and swizzled (k 64, 128).
    assert!(sizes.contains(&32) && sizes.contains(&16), "{sizes:?}");
}

#[test]
fn library_gemm_tiles_take_mfma() {
    // (m, n, k, warps) -> block size: the GEMM defaults on AMD (64x64x32 w4, gemm_rs 32x32x32
    // w4) and the configs the codegen checks use.
    for (m, n, k, w, s) in [(64, 64, 32, 4, 32), (128, 128, 64, 8, 32), (32, 32, 32, 4, 16), (64, 64, 32, 8, 16), (128, 64, 32, 8, 32)] {
        let l = AccLayout::mfma(m, n, k, w).unwrap_or_else(|| panic!("{m}x{n}x{k} w{w} has no MFMA layout"));
        assert!(matches!(l, AccLayout::Mfma { instr, .. } if instr == s), "{m}x{n}x{k} w{w}: {l:?}");
    }
    // Too small for a 16x16 block per wavefront, or a depth no instruction steps.
    assert_eq!(AccLayout::mfma(16, 16, 32, 2), None);
    assert_eq!(AccLayout::mfma(64, 64, 8, 4), Some(AccLayout::Mfma { m: 64, n: 64, warps_m: 2, warps_n: 2, instr: 32 }));
    assert_eq!(AccLayout::mfma(32, 32, 8, 4), None);
}

#[test]
fn every_lane_register_of_a_block_is_one_element() {
    for s in [32, 16] {
        let mut seen = vec![false; s * s];
        for lane in 0..WAVE {
            for v in 0..s * s / WAVE {
                let (r, c) = mfma_d_element(lane, v, s);
                assert!(!std::mem::replace(&mut seen[r * s + c], true), "S={s}: ({r}, {c}) twice");
            }
        }
        assert!(seen.iter().all(|&x| x));
    }
}
