//! The GEMM ring filled by TMA (`cp.async.bulk.tensor` + mbarriers), feeding `wgmma` on sm_90a
//! and `ldmatrix` + `mma.sync` on sm_100a: the lowered code takes one tensor map per operand
//! after its own arguments (naming the arguments the launch encodes it from), fills each slot
//! with bulk tensor copies that complete on the slot's mbarrier, and ptxas accepts it without
//! spills; a GEMM whose loads are not TMA-shaped keeps the `cp.async` ring.

use weft::compiler::pipeline::{run, Options, Target};
use weft::runtime::cuda::tensor_map::TmaElem;

/// Both warp-group tiles, as the codegen bench's rows.
const TILES: [(usize, usize, usize, usize); 2] = [(64, 64, 32, 4), (128, 128, 64, 8)];

fn gemm(bm: usize, bn: usize, bk: usize, warps: usize, stages: usize) -> weft::compiler::ir::Kernel {
    gemm_for("sm_90a", "bf16", (bm, bn, bk, warps), stages, false)
}

/// The specialized `gemm` (16-byte-aligned buffers, sizes divisible by 16; with `small`, also
/// below 2^30, as the codegen bench compiles it) for `target`.
fn gemm_for(target: &str, dtype: &str, (bm, bn, bk, warps): (usize, usize, usize, usize), stages: usize, small: bool) -> weft::compiler::ir::Kernel {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let c = weft::kernels::target_constexprs("gemm", dtype, Target::parse(target).unwrap()).unwrap();
    let c = if small { c.with(weft::compiler::analysis::specialize::SMALL_CONSTEXPR, "m,n,k") } else { c };
    let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", warps).with("num_stages", stages).with(facts, "a,b,c,m,n,k");
    weft::kernels::build("gemm", &c).unwrap()
}

/// On sm_90a the slots feed `wgmma` (one group in flight), on sm_100a `ldmatrix`; the boxes,
/// maps and barriers are the same, and the scratch the boxes land in is 1024-byte aligned
/// (the copies swizzle by shared address, the readers by offset from the scratch).
#[test]
fn gemm_ring_takes_its_tiles_from_tma_with_mbarriers() {
    for (arch, reader) in [("sm_90a", "wgmma.wait_group.sync.aligned 1;"), ("sm_100a", "@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16")] {
        ring_takes_tiles_from_tma(arch, reader);
    }
}

fn ring_takes_tiles_from_tma(arch: &str, reader: &str) {
    let target = Target::parse(arch).unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    for (bm, bn, bk, warps) in TILES {
        for stages in 2..=4 {
            let what = format!("{arch} {bm}x{bn}x{bk} w{warps} s{stages}");
            let g = weft::compiler::lower::gpu::lower(&gemm_for(arch, "bf16", (bm, bn, bk, warps), stages, false), &sm.info()).unwrap();
            for needle in ["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes", "@llvm.nvvm.mbarrier.try.wait.parity", "@llvm.nvvm.mbarrier.arrive.expect.tx", "@llvm.nvvm.mbarrier.init.shared", "@llvm.nvvm.mbarrier.inval.shared", "\"nvvm.grid_constant\"", reader] {
                assert!(g.llvm.contains(needle), "{what}: no {needle}");
            }
            assert!(!g.llvm.contains("cp.async.cg.shared.global"), "{what}: still copies with cp.async");
            let smem = g.llvm.lines().find(|l| l.starts_with("@__weft_smem")).unwrap_or_else(|| panic!("{what}: no scratch"));
            assert!(smem.ends_with("align 1024"), "{what}: {smem}");
            // `gemm(a, b, c, m, n, k)`: A is a[m][k], B is b[k][n], both row-major.
            let [a, b] = g.tma[..] else { panic!("{what}: {} tensor maps", g.tma.len()) };
            assert_eq!((a.ptr, a.rows, a.cols, a.ld), (0, 3, 5, 5), "{what}: A's arguments");
            assert_eq!((b.ptr, b.rows, b.cols, b.ld), (1, 5, 4, 4), "{what}: B's arguments");
            // One box per swizzle atom: every row of the tile, one swizzle span of columns.
            for (p, rows, cols) in [(a, bm, bk), (b, bk, bn)] {
                let span = p.swizzle.span().expect("a swizzled box") as usize;
                assert_eq!(p.elem, TmaElem::Bf16);
                assert_eq!((p.box_rows as usize, p.box_cols as usize), (rows, (span / 2).min(cols)), "{what}: box");
                assert_eq!(cols % p.box_cols as usize, 0, "{what}: boxes tile the columns");
            }
            // Each of the maps is a 128-byte, 64-byte-aligned parameter after the six arguments.
            assert_eq!(g.llvm.matches("ptr byval([128 x i8]) align 64 \"nvvm.grid_constant\"").count(), 2, "{what}");
        }
    }
}

#[test]
fn sm90a_tma_ring_assembles_without_spills_and_keeps_no_cp_async_in_the_loop() {
    let target = Target::parse("sm_90a").unwrap();
    for (bm, bn, bk, warps) in TILES {
        let what = format!("{bm}x{bn}x{bk} w{warps}");
        let k = gemm(bm, bn, bk, warps, 3);
        let ptx = run(&k, target, Some("ptx"), &Options::default()).unwrap_or_else(|e| panic!("{what}: {e}")).text;
        for needle in ["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes", "mbarrier.try_wait.parity", "mbarrier.arrive.expect_tx", ".param .align 64 .b8", "wgmma.mma_async"] {
            assert!(ptx.contains(needle), "{what}: no {needle} in the PTX");
        }
        assert!(!ptx.contains("cp.async.cg") && !ptx.contains("cp.async.wait_group"), "{what}: cp.async left in the PTX");
        let dir = std::env::temp_dir().join(format!("weft-tma-{}-{bm}", std::process::id()));
        let bin = weft::compiler::cache::compile_gpu_in(&dir, &k, target, &Options::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        let _ = std::fs::remove_dir_all(&dir);
        let p = bin.ptxas.clone().expect("ptxas report");
        assert_eq!((p.spill_stores, p.spill_loads), (0, 0), "{what} spills");
        assert!(!p.log.contains("serialized"), "{what}: {}", p.log);
        assert_eq!(bin.tma.len(), 2, "{what}: the binary lists its tensor maps");
        if let Some(sass) = sass(&bin.image) {
            for needle in ["UTMALDG", "SYNCS.PHASECHK", "HGMMA"] {
                assert!(sass.contains(needle), "{what}: no {needle} in the SASS");
            }
            assert!(!sass.contains("LDGSTS"), "{what}: LDGSTS in the SASS");
        }
    }
}

/// sm_100a's ring is filled by TMA too and feeds `ldmatrix` fragments of its swizzled slots
/// (see `ldmatrix_swizzle`): both tiles, `num_stages` 2 to 4, bf16 and f16 assemble with bulk
/// tensor copies, mbarrier waits, `ldmatrix` and `mma.sync` and no `cp.async` (UTMALDG,
/// SYNCS, LDSM and HMMA but no LDGSTS in the SASS when cuobjdump is there), without spills
/// with i32 sizes (`small_ints`, as the codegen bench compiles it) and i64 ones (the
/// `cp.async` ring spilled 32 B at 128x128x64 w8 with i64 sizes at 2 and 3 stages, where
/// `.minnctapersm 2` caps registers at 128: its address math is gone).
#[test]
fn sm100a_tma_ring_assembles_with_utmaldg_and_ldsm() {
    if !crate::gpu::tools_or_skip("sm100a_tma_ring_assembles_with_utmaldg_and_ldsm") {
        return;
    }
    let target = Target::parse("sm_100a").unwrap();
    for tile in TILES {
        for ((dtype, stages), small) in [("bf16", 2), ("f16", 3), ("bf16", 3), ("bf16", 4), ("f16", 4)].into_iter().flat_map(|c| [(c, true), (c, false)]) {
            let what = format!("{tile:?} {dtype} s{stages} small_ints={small}");
            let k = gemm_for("sm_100a", dtype, tile, stages, small);
            let ptx = run(&k, target, Some("ptx"), &Options::default()).unwrap_or_else(|e| panic!("{what}: {e}")).text;
            for needle in ["cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes", "mbarrier.try_wait.parity", "mbarrier.arrive.expect_tx", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", "mma.sync.aligned.m16n8k16"] {
                assert!(ptx.contains(needle), "{what}: no {needle} in the PTX");
            }
            assert!(!ptx.contains("cp.async.cg") && !ptx.contains("cp.async.wait_group") && !ptx.contains("cp.async.commit_group"), "{what}: cp.async left in the PTX");
            let dir = std::env::temp_dir().join(format!("weft-ldsm100-{}-{}", std::process::id(), tile.0));
            let bin = weft::compiler::cache::compile_gpu_in(&dir, &k, target, &Options::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
            let _ = std::fs::remove_dir_all(&dir);
            let p = bin.ptxas.clone().expect("ptxas report");
            eprintln!("sm_100a {what}: {} registers, {} B spilled", p.registers, p.spill_stores);
            assert_eq!((p.spill_stores, p.spill_loads), (0, 0), "{what} spills");
            assert_eq!(bin.tma.len(), 2, "{what}: the binary lists its tensor maps");
            if let Some(sass) = sass(&bin.image) {
                for needle in ["UTMALDG", "SYNCS.PHASECHK", "LDSM", "HMMA"] {
                    assert!(sass.contains(needle), "{what}: no {needle} in the SASS");
                }
                assert!(!sass.contains("LDGSTS"), "{what}: LDGSTS in the SASS");
            }
        }
    }
}

/// A GEMM whose B row stride is not a kernel argument (`ld = n + 8`, computed in the kernel)
/// keeps the `cp.async` ring: the tensor map could not be made from the arguments.
#[test]
fn a_gemm_whose_operand_is_not_tma_shaped_keeps_the_cp_async_ring() {
    for arch in ["sm_90a", "sm_100a"] {
        keeps_the_cp_async_ring(arch);
    }
}

fn keeps_the_cp_async_ring(arch: &str) {
    use weft::compiler::dsl::*;
    use weft::compiler::ir::Scalar;
    let target = Target::parse(arch).unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap().with("num_stages", 3).with(facts, "a,b,c,m,n,k");
    let cfg = weft::kernels::gemm::GemmConfig::from(&c).unwrap();
    let k = kernel("gemm_padded_b", &c, |args| {
        let (a, b, out) = (args.ptr("a", cfg.t), args.ptr("b", cfg.t), args.ptr("c", cfg.t));
        let (m, n, k) = (args.i64("m"), args.i64("n"), args.i64("k"));
        use weft::kernels::gemm::{store_tile, tile_indices, tile_product, Mat};
        let bm_ = Mat { ptr: b, rows: k, cols: n, ld: n + 8 };
        let (rows, cols) = tile_indices(program_id(0).to(Scalar::I64), program_id(1).to(Scalar::I64), &cfg);
        let acc = tile_product(&Mat::dense(a, m, k), &bm_, rows, cols, &cfg);
        store_tile(&Mat::dense(out, m, n), rows, cols, acc, cfg.t);
        Ok(())
    })
    .unwrap();
    let g = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap();
    let swizzled = g.llvm.contains("wgmma.mma_async") || g.llvm.contains("@llvm.nvvm.ldmatrix");
    assert!(swizzled && g.llvm.contains("cp.async.cg"), "{arch}: not the cp.async ring");
    assert!(g.tma.is_empty() && !g.llvm.contains("cp.async.bulk.tensor"), "{arch}: a tensor map from a computed stride");
}

/// `cuobjdump -sass` of `cubin` when the CUDA tools are at hand (`WEFT_CUDA_BIN`, or the
/// Triton wheel's that the codegen bench uses under `.tools/triton`).
fn sass(cubin: &[u8]) -> Option<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [std::env::var_os("WEFT_CUDA_BIN").map(std::path::PathBuf::from), Some(root.join(".tools/triton/lib/python3.11/site-packages/triton/backends/nvidia/bin"))];
    let bin = dirs.into_iter().flatten().map(|d| d.join("cuobjdump")).find(|b| b.exists())?;
    let f = std::env::temp_dir().join(format!("weft-tma-{}.cubin", std::process::id()));
    std::fs::write(&f, cubin).ok()?;
    let out = std::process::Command::new(bin).arg("-sass").arg(&f).output().ok();
    let _ = std::fs::remove_file(&f);
    out.filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
}
