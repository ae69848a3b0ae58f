//! Layout math (every encoding maps each element to one owner and back) and the layout
//! stage's round trip through text.

use super::encoding::{for_flat, same_map, Encoding};
use super::{assign, attr, stage, LayoutError};
use crate::dsl::*;
use crate::ir::{Kernel, OpKind, Scalar};
use crate::lower::gpu::acc_layout::AccLayout;
use crate::lower::gpu::layout::Blocked;
use crate::lower::gpu::target::TargetInfo;
use crate::pipeline::Sm;

/// `C[bm, bn] = sum over k of A[bm, bk] · B[bk, bn]` for one tile, K a loop of `steps`
/// blocks; a row sum of C goes to `rows` (a reduction and a read of the accumulator blocked).
pub(crate) fn small_gemm(bm: usize, bn: usize, bk: usize, steps: i64, warps: usize, t: Scalar) -> Kernel {
    let c = Constexprs::new().with("num_warps", warps as i64);
    kernel("small_gemm", &c, |args| {
        let (a, b, out, rows_out) = (args.ptr("a", t), args.ptr("b", t), args.ptr("c", Scalar::F32), args.ptr("rows", Scalar::F32));
        let (rm, rn, rk) = (arange(0, bm as i32), arange(0, bn as i32), arange(0, bk as i32));
        let k_total = steps * bk as i64;
        let a_off = broadcast_to(expand_dims(rm, 1) * k_total as i32, &[bm, bk]) + broadcast_to(expand_dims(rk, 0), &[bm, bk]);
        let b_off = broadcast_to(expand_dims(rk, 1) * bn as i32, &[bk, bn]) + broadcast_to(expand_dims(rn, 0), &[bk, bn]);
        let acc = for_range_carry(0, steps, 1, &[zeros(&[bm, bn], Scalar::F32)], |s, carried| {
            let (ka, kb) = (s.to(Scalar::I32) * bk as i32, s.to(Scalar::I32) * (bk * bn) as i32);
            let x = load(a + a_off + ka);
            let y = load(b + b_off + kb);
            vec![dot(x, y, carried[0])]
        })[0];
        let c_off = broadcast_to(expand_dims(rm, 1) * bn as i32, &[bm, bn]) + broadcast_to(expand_dims(rn, 0), &[bm, bn]);
        store(out + c_off, acc);
        store(rows_out + rm, sum(acc, 1));
        Ok(())
    })
    .expect("small_gemm builds")
}

/// Every `(thread, slot)` of `e` holds an element of the tile, every element has a holder,
/// and its owner (first holder) gives it back.
fn assert_owns_each_element_once(e: &Encoding, shape: &[usize], threads: usize, warp: usize) {
    let numel: usize = shape.iter().product();
    let slots = e.slots(shape, threads, warp);
    assert!(slots > 0, "{e:?} on {shape:?}: no slots");
    let mut owner = vec![None; numel];
    for t in 0..threads {
        for s in 0..slots {
            let el = e.holds(shape, threads, warp, t, s).unwrap_or_else(|| panic!("{e:?} {shape:?}: thread {t} slot {s} holds nothing"));
            assert!(el < numel);
            owner[el].get_or_insert((t, s));
        }
    }
    for (el, o) in owner.iter().enumerate() {
        let (t, s) = o.unwrap_or_else(|| panic!("{e:?} on {shape:?}: element {el} has no owner"));
        assert_eq!(e.holds(shape, threads, warp, t, s), Some(el));
    }
}

#[test]
fn blocked_encodings_spell_the_lowerings_distribution() {
    // Shapes the lowering lays out, NVIDIA warps and AMD wavefronts, odd and uneven ones
    // included: the encoding the pass prints holds exactly what `Blocked` says each thread has.
    let mut rng = 0x2545f4914f6cdd1du64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut shapes: Vec<Vec<usize>> = vec![vec![1024], vec![64], vec![100], vec![64, 1], vec![1, 64], vec![64, 64], vec![3, 256], vec![128, 1], vec![16, 8, 4]];
    for _ in 0..24 {
        shapes.push(vec![1 << next(8), 1 << next(8)]);
        shapes.push(vec![1 + next(40), 1 << next(7)]);
    }
    for (warp, warps) in [(32, 1), (32, 4), (32, 8), (64, 4)] {
        let threads = warp * warps;
        for shape in &shapes {
            let numel: usize = shape.iter().product();
            let Ok(b) = Blocked::new(numel, threads) else { continue };
            let e = for_flat(shape, threads, warp);
            assert_owns_each_element_once(&e, shape, threads, warp);
            for t in 0..threads {
                for s in 0..b.per {
                    let want = if b.replicated() { b.element(t, 0) } else { b.element(t, s) };
                    assert_eq!(e.holds(shape, threads, warp, t, s), Some(want), "{e:?} {shape:?} threads {threads}");
                }
            }
            if shape.len() == 2 && shape[0] * shape[1] >= threads && shape.iter().all(|d| d.is_power_of_two()) {
                assert!(matches!(e, Encoding::Blocked { .. }), "{shape:?} over {threads} should be a blocked layout, got {e:?}");
            }
        }
    }
}

#[test]
fn accumulator_and_dot_operand_encodings_own_every_element_once() {
    for (m, n, k, warps) in [(16, 8, 16, 1), (64, 64, 32, 4), (128, 128, 64, 8), (32, 64, 16, 2), (128, 64, 32, 4)] {
        let threads = warps * 32;
        let mut accs = vec![AccLayout::fma(m, n, threads).unwrap()];
        accs.extend(AccLayout::mma(m, n, warps));
        for l in accs {
            let e = Encoding::from_acc(&l, 32);
            assert_owns_each_element_once(&e, &[m, n], threads, 32);
            assert_eq!(e.acc_layout(&[m, n], threads, 32), Some(l), "{e:?}");
            for s in 0..l.slots() {
                for t in 0..threads {
                    let (r, c) = l.element(t, s);
                    assert_eq!(e.holds(&[m, n], threads, 32, t, s), Some(r * n + c));
                }
            }
            for (i, shape) in [(0, [m, k]), (1, [k, n])] {
                let op = Encoding::DotOperand { op_idx: i, parent: Box::new(e.clone()), k_width: 2 };
                assert_owns_each_element_once(&op, &shape, threads, 32);
            }
        }
    }
}

#[test]
fn mfma_accumulator_and_operand_encodings_own_every_element_once() {
    let mut sizes = vec![];
    for (m, n, k, warps) in [(64, 64, 32, 4), (128, 128, 64, 8), (32, 32, 32, 4), (64, 32, 16, 2), (128, 64, 32, 8), (32, 64, 32, 1)] {
        let threads = warps * 64;
        let l = AccLayout::mfma(m, n, k, warps).unwrap_or_else(|| panic!("{m}x{n}x{k} w{warps}"));
        let AccLayout::Mfma { instr, .. } = l else { unreachable!() };
        sizes.push(instr);
        let e = Encoding::from_acc(&l, 64);
        assert_owns_each_element_once(&e, &[m, n], threads, 64);
        assert_eq!(e.acc_layout(&[m, n], threads, 64), Some(l), "{e:?}");
        assert_eq!(e.acc_layout(&[m, n], threads, 32), None, "MFMA wants 64-lane wavefronts");
        for s in 0..l.slots() {
            for t in 0..threads {
                let (r, c) = l.element(t, s);
                assert_eq!(e.holds(&[m, n], threads, 64, t, s), Some(r * n + c));
            }
        }
        for (i, shape) in [(0, [m, k]), (1, [k, n])] {
            let op = Encoding::DotOperand { op_idx: i, parent: Box::new(e.clone()), k_width: 4 };
            assert_owns_each_element_once(&op, &shape, threads, 64);
        }
    }
    assert!(sizes.contains(&32) && sizes.contains(&16), "{sizes:?}");
}

#[test]
fn shared_encodings_are_bijections() {
    for (vec, per_phase, max_phase) in [(1, 1, 1), (8, 1, 8), (4, 2, 4), (8, 4, 2)] {
        for order in [vec![1, 0], vec![0, 1]] {
            let pad = vec % 3;
            let e = Encoding::Shared { vec, per_phase, max_phase, order, pad, swizzle: 0, slot: None };
            let shape = [64, 64];
            let mut seen = vec![false; 64 * (64 + pad)];
            for i in 0..64 * 64 {
                let o = e.shared_offset(&shape, i).unwrap();
                assert!(!seen[o], "{e:?}: offset {o} twice");
                seen[o] = true;
            }
        }
    }
}

#[test]
fn slices_name_reductions_and_broadcast_sources() {
    let k = small_gemm(64, 64, 32, 2, 4, Scalar::BF16);
    let map = assign(&k, &Sm::Sm90a.info(), 4);
    let kinds = stage::kinds(&map);
    assert!(kinds.get("slice").copied().unwrap_or(0) >= 2, "{kinds:?}");
    assert!(kinds.get("mma").copied().unwrap_or(0) >= 3, "{kinds:?}");
    for (&v, e) in &map.enc {
        let shape = k.ty(v).shape();
        assert_owns_each_element_once(e, shape, 128, 32);
        if !matches!(e, Encoding::Mma { .. }) && !map.acc_layouts(&k).layout.contains_key(&v) {
            assert!(same_map(e, &map.blocked(k.ty(v)), shape, 128, 32), "{e:?}");
        }
    }
}

#[test]
fn encodings_print_and_parse_back() {
    let mma = Encoding::Mma { warps_per_cta: [2, 2] };
    let blocked = for_flat(&[64, 64], 128, 32);
    let cases = [
        blocked.clone(),
        Encoding::Flat { per: 6 },
        Encoding::Slice { dim: 1, parent: Box::new(blocked) },
        mma.clone(),
        Encoding::DotOperand { op_idx: 1, parent: Box::new(mma), k_width: 2 },
        Encoding::Mfma { warps_per_cta: [2, 2], instr: 32 },
        Encoding::DotOperand { op_idx: 0, parent: Box::new(Encoding::Mfma { warps_per_cta: [4, 1], instr: 16 }), k_width: 4 },
        Encoding::Shared { vec: 8, per_phase: 1, max_phase: 8, order: vec![0, 1], pad: 8, swizzle: 0, slot: None },
        Encoding::Shared {
            vec: 8,
            per_phase: 2,
            max_phase: 4,
            order: vec![1, 0],
            pad: 0,
            swizzle: 64,
            slot: Some(Box::new(super::encoding::Slot { at: 4096, stages: 3, slot_bytes: 8192, align: 1024, fill: "tma".into(), read: "wgmma".into() })),
        },
    ];
    for e in cases {
        let text = attr::print(&e, &|_| None);
        assert_eq!(attr::parse(&text), Ok(e.clone()), "{text}");
    }
    // MLIR's re-printed form: keys sorted, integers without their type.
    let mlir = r#"{instrShape = array<i64: 16, 8>, kind = "mma", versionMajor = 2, warpsPerCTA = array<i64: 4, 1>}"#;
    assert_eq!(attr::parse(mlir), Ok(Encoding::Mma { warps_per_cta: [4, 1] }));
    for (bad, why) in [
        (r#"{kind = "mma", versionMajor = 3 : i64, warpsPerCTA = array<i64: 2, 2>, instrShape = array<i64: 16, 8>}"#, "versionMajor 3"),
        (r#"{kind = "swizzled"}"#, "unknown encoding kind"),
        (r#"{kind = "amd_mfma", warpsPerCTA = array<i64: 2, 2>, instrShape = array<i64: 32, 8>}"#, "only [32, 32] and [16, 16]"),
        (r#"{kind = "blocked", sizePerThread = array<i64: 1, 8>, threadsPerWarp = array<i64: 4>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}"#, "one positive entry per dimension"),
        (r#"{kind = "flat", elemsPerThread = 4 : i64, extra = 1}"#, "unknown field `extra`"),
        (r#"{kind = "flat""#, "expected `,` or `}`"),
    ] {
        let e = attr::parse(bad).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

/// The layout stage of `k` on sm_90a, read back.
fn round_trip(text: &str) -> Result<(Kernel, super::LayoutMap), crate::CompileError> {
    crate::pipeline::import_layout(text, "small_gemm.layout.mlir", &Sm::Sm90a.info())
}

#[test]
fn the_layout_stage_reads_back_as_the_same_encodings() {
    let info = Sm::Sm90a.info();
    let k = small_gemm(64, 64, 32, 2, 4, Scalar::BF16);
    let map = assign(&k, &info, 4);
    let text = stage::print(&k, &map, &info);
    assert!(text.contains("\"tile.convert_layout\"") && text.contains("#mma = {kind = \"mma\"") && text.contains("weft.shared"), "{text}");
    let (back, read) = round_trip(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.ops.iter().filter(|d| d.kind == OpKind::Dot).count(), 1);
    // Same kernel up to value numbering: the same encodings, value by value in order.
    let encs = |k: &Kernel, m: &super::LayoutMap| (0..k.values.len() as u32).filter_map(|v| m.enc.get(&crate::ir::Value(v)).cloned()).collect::<Vec<_>>();
    assert_eq!(encs(&back, &read), encs(&k, &map));
    // The lowering from the file is the lowering from the kernel.
    let (a, b) = (crate::lower::gpu::lower(&k, &info).unwrap().llvm, crate::lower::gpu::lower_with(&back, &info, &read).unwrap().llvm);
    assert_eq!(a.lines().filter(|l| l.contains("mma.sync")).count(), b.lines().filter(|l| l.contains("mma.sync")).count());
}

#[test]
fn an_edited_mma_tiling_is_what_the_lowering_uses() {
    // sm_80: its default 64x64 tiling over 4 warps is 2x2 (sm_90a's is wgmma's 4x1).
    let info = Sm::Sm80.info();
    let k = small_gemm(64, 64, 32, 2, 4, Scalar::BF16);
    let text = stage::print(&k, &assign(&k, &info, 4), &info);
    let edited = text.replace("warpsPerCTA = array<i64: 2, 2>, instrShape", "warpsPerCTA = array<i64: 4, 1>, instrShape");
    assert_ne!(edited, text);
    let (back, read) = round_trip(&edited).unwrap_or_else(|e| panic!("{e}\n{edited}"));
    let acc = read.acc_layouts(&back);
    assert!(acc.layout.values().all(|l| l.warps() == (4, 1)), "{:?}", acc.layout);
    assert!(crate::lower::gpu::lower_with(&back, &info, &read).is_ok());
    // An FMA accumulator instead of mma is a choice the file can make too.
    let fma = attr::print(&Encoding::from_acc(&AccLayout::fma(64, 64, 128).unwrap(), 32), &|_| None);
    let edited = text.replace(&text[text.find("#mma = ").unwrap() + 7..].lines().next().unwrap().to_string(), &fma);
    // The operands' stagings (optional in a layout file) change with the accumulator: dropped.
    let edited = edited.replace(", kWidth = 2 : i64", ", kWidth = 1 : i64").replace(" {weft.shared = #shared1}", "").replace(" {weft.shared = #shared}", "");
    let (back, read) = round_trip(&edited).unwrap_or_else(|e| panic!("{e}\n{edited}"));
    assert!(read.acc_layouts(&back).layout.values().all(|l| matches!(l, AccLayout::Fma { .. })));
    assert!(!crate::lower::gpu::lower_with(&back, &info, &read).unwrap().llvm.contains("mma.sync"));
}

#[test]
fn inconsistent_and_malformed_encodings_name_the_value() {
    // sm_80: its default 64x64 tiling over 4 warps is 2x2 (sm_90a's is wgmma's 4x1).
    let info = Sm::Sm80.info();
    let k = small_gemm(64, 64, 32, 2, 4, Scalar::BF16);
    let text = stage::print(&k, &assign(&k, &info, 4), &info);
    let layout_err = |t: &str| match round_trip(t) {
        Err(crate::CompileError::Layout { source, .. }) => source,
        other => panic!("expected a layout error, got {:?}\n{t}", other.map(|_| ())),
    };
    // A mma tiling that needs 8 warps in a 4-warp kernel.
    let e = layout_err(&text.replace("warpsPerCTA = array<i64: 2, 2>, instrShape", "warpsPerCTA = array<i64: 4, 2>, instrShape"));
    assert!(matches!(&e, LayoutError::Inconsistent { value, .. } if value.contains("tile.dot")), "{e}");
    // A blocked layout the lowering does not implement (threads along the other dimension).
    let blocked = text.lines().find(|l| l.starts_with("#blocked = ")).unwrap();
    let wrong = blocked.replace("order = array<i64: 1, 0>", "order = array<i64: 0, 1>");
    let e = layout_err(&text.replace(blocked, &wrong));
    assert!(matches!(&e, LayoutError::Inconsistent { value, why, .. } if value.contains(" at ") && why.contains("the GPU lowering holds")), "{e}");
    // A malformed one.
    let e = layout_err(&text.replace("kind = \"mma\"", "kind = \"mma\", bogus = 1 : i64"));
    assert!(matches!(&e, LayoutError::Malformed { why, .. } if why.contains("bogus")), "{e}");
    // A dot operand staged otherwise than tile.dot does.
    let shared = text.lines().find(|l| l.starts_with("#shared = ")).unwrap();
    let e = layout_err(&text.replace(shared, &shared.replace("stages = 1 : i64", "stages = 2 : i64")));
    assert!(e.to_string().contains("tile.dot stages it"), "{e}");
}

#[test]
fn amd_and_fma_kernels_get_layouts_too() {
    let k = small_gemm(32, 32, 16, 1, 2, Scalar::F32);
    let amd = crate::pipeline::Gfx::Gfx942.info();
    let map = assign(&k, &amd, 2);
    assert_eq!(map.warp_size, amd.warp_size());
    assert!(map.acc_layouts(&k).layout.values().all(|l| matches!(l, AccLayout::Fma { .. })));
    let text = stage::print(&k, &map, &amd);
    let (back, read) = crate::pipeline::import_layout(&text, "small_gemm.layout.mlir", &amd).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(crate::lower::gpu::lower_with(&back, &amd, &read).is_ok());
}

#[test]
fn amd_bf16_dots_take_mfma_through_the_layout_stage() {
    let amd = crate::pipeline::Gfx::Gfx942.info();
    let k = small_gemm(64, 64, 32, 2, 4, Scalar::BF16);
    let map = assign(&k, &amd, 4);
    assert!(map.acc_layouts(&k).layout.values().all(|l| matches!(l, AccLayout::Mfma { instr: 32, .. })));
    let text = stage::print(&k, &map, &amd);
    // B is staged transposed (k fastest), its rows padded.
    assert!(text.contains("kind = \"amd_mfma\"") && text.contains("order = array<i64: 0, 1>, pad = 4"), "{text}");
    let (back, read) = crate::pipeline::import_layout(&text, "small_gemm.layout.mlir", &amd).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mfmas = |ir: &str| ir.lines().filter(|l| l.contains("call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8bf16.1k")).count();
    let (a, b) = (crate::lower::gpu::lower(&k, &amd).unwrap().llvm, crate::lower::gpu::lower_with(&back, &amd, &read).unwrap().llvm);
    // 64x64 over 4 wavefronts: one 32x32 block each, 4 k steps of 8.
    assert_eq!((mfmas(&a), mfmas(&b)), (4, 4), "{a}");
    assert!(!a.contains("@llvm.fma.f32"), "{a}");
    // Rows of 64 are swizzled instead (vec 4, maxPhase 16), and read back as such.
    let k64 = small_gemm(64, 64, 64, 2, 4, Scalar::BF16);
    let text = stage::print(&k64, &assign(&k64, &amd, 4), &amd);
    assert!(text.contains("vec = 4 : i64, perPhase = 1 : i64, maxPhase = 16 : i64, order = array<i64: 0, 1>, pad = 0"), "{text}");
    let (back, read) = crate::pipeline::import_layout(&text, "small_gemm.layout.mlir", &amd).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(mfmas(&crate::lower::gpu::lower_with(&back, &amd, &read).unwrap().llvm), 8);
}

#[test]
fn printed_shared_encodings_place_elements_where_the_lowering_stages_them() {
    use crate::lower::gpu::ldmatrix::Staging;
    use crate::lower::gpu::staging_report::placement;
    use crate::lower::gpu::wgmma_desc::SwizzledTile;
    let none = Staging { pad_a: 0, pad_b: 0, b_at: 0, bytes: 0 };
    // TMA / wgmma atoms (32-, 64- and 128-byte swizzles, one or several atoms per row).
    let mut swizzles = vec![];
    for (rows, cols) in [(64, 16), (64, 32), (128, 64), (32, 128), (16, 256), (8, 72)] {
        let Some(t) = SwizzledTile::new(rows, cols) else { continue };
        swizzles.push(t.swizzle);
        let e = placement(0, &none, Some(t), None, None);
        for (r, c) in (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))) {
            assert_eq!(e.shared_offset(&[rows, cols], r * cols + c).map(|o| o * 2), Some(t.byte_of(r, c)), "{e:?} ({r}, {c})");
        }
    }
    assert!([32, 64, 128].iter().all(|s| swizzles.contains(s)), "{swizzles:?}");
    // MFMA's XOR swizzle: A `[m][k]`, B `[k][n]` stored `[n][k]`.
    let (m, n, k) = (32, 48, 64);
    let (a, b) = (placement(0, &none, None, Some(k), None), placement(1, &none, None, Some(k), None));
    for (r, c) in (0..m).flat_map(|r| (0..k).map(move |c| (r, c))) {
        assert_eq!(a.shared_offset(&[m, k], r * k + c), Some(crate::lower::gpu::mfma_swizzle::swizzle(r, c, k)));
    }
    for (kk, c) in (0..k).flat_map(|kk| (0..n).map(move |c| (kk, c))) {
        assert_eq!(b.shared_offset(&[k, n], kk * n + c), Some(crate::lower::gpu::mfma_swizzle::swizzle(c, kk, k)));
    }
    // Padded rows (ldmatrix): row r starts at r * (cols + pad).
    let st = Staging::new(64, 64, 32, 2, (8, 8), true);
    let e = placement(0, &st, None, None, None);
    assert_eq!(e.shared_offset(&[64, 32], 3 * 32 + 5), Some(3 * (32 + st.pad_a) + 5));
    assert!(st.pad_a > 0);
}
