//! The GEMM family on sm_90a through `wgmma.mma_async` (warp-group MMA from swizzled shared
//! memory, `cp.async` ring): the lowered code holds the instructions and ptxas accepts it, and
//! the SIMT emulator runs it at random shapes that are not multiples of the tile (bf16 and
//! f16, both warp-group tiles), checked against a naive GEMM.

use weft::compiler::pipeline::{Options, Target};
use weft::kernels::{prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::{DType, LocalOptions, Topology, World};

/// The tiles `wgmma` takes: one warp group per 64 rows.
const TILES: [(usize, usize, usize, usize); 2] = [(64, 64, 32, 4), (128, 128, 64, 8)];

#[test]
fn sm90a_gemm_issues_wgmma_from_swizzled_shared_memory_and_ptxas_accepts_it() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let target = Target::parse("sm_90a").unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    for (bm, bn, bk, warps) in TILES {
        let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
        let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", warps).with(facts, "a,b,c,m,n,k");
        let k = weft::kernels::build("gemm", &c).unwrap();
        let ll = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap().llvm;
        let want = format!("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.bf16.bf16");
        for needle in [want.as_str(), "@llvm.nvvm.fence.proxy.async.shared_cta", "@llvm.nvvm.wgmma.commit_group.sync.aligned", "cp.async.bulk.tensor.2d.shared::cluster", "align 1024", "wgmma.wait_group.sync.aligned 1;"] {
            assert!(ll.contains(needle), "{bm}x{bn}x{bk} w{warps}: no {needle}");
        }
        assert!(!ll.contains("ldmatrix"), "{bm}x{bn}x{bk} w{warps}: operands still read into registers");
        let dir = std::env::temp_dir().join(format!("weft-wgmma-{}-{bm}", std::process::id()));
        let b = weft::compiler::cache::compile_gpu_in(&dir, &k, target, &Options::default()).unwrap_or_else(|e| panic!("{bm}x{bn}x{bk}: {e}"));
        let _ = std::fs::remove_dir_all(&dir);
        let p = b.ptxas.clone().expect("ptxas report");
        assert_eq!((p.spill_stores, p.spill_loads), (0, 0), "{bm}x{bn}x{bk} w{warps} spills");
        // ptxas keeps the group in flight only if nothing else touches the accumulator
        // registers between a `wgmma` and its wait; else it serializes them and says so.
        assert!(!p.log.contains("serialized"), "{bm}x{bn}x{bk} w{warps}: {}", p.log);
    }
}

/// The library path (`prepare_matmul`) caps GPU tiles at the default 64x64x32 w4; both
/// dtypes run there.
#[test]
fn sm90a_gemm_with_wgmma_matches_a_naive_gemm_on_the_emulator() {
    let mut x: u64 = 0x90a;
    let mut below = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    for dtype in [DType::BF16, DType::F16] {
        // Multiples of 16 (the `cp.async` variant), never of the 64-wide tile.
        let mut dim = || loop {
            let d = 16 * (1 + below(10));
            if d % 64 != 0 {
                return d;
            }
        };
        let s = MatmulShape { m: dim(), n: dim(), k: dim() + 32 };
        let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
        let c = shape_constexprs("gemm", s, 1, dtype.name());
        let what = format!("gemm sm_90a {}x{}x{} {}", s.m, s.n, s.k, dtype.name());
        let mut p = prepare_matmul(&world, "gemm", s, dtype, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
        p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what}: max error {err}");
    }
}

/// Two warp groups (128x128x64, 8 warps), launched directly: a 2x2 grid of tiles over
/// uneven sizes (multiples of 16, as the specialized variant assumes).
#[test]
fn sm90a_gemm_with_two_warp_groups_matches_a_naive_gemm_on_the_emulator() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let target = Target::parse("sm_90a").unwrap();
    let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
    let c = c.with("BLOCK_M", 128).with("BLOCK_N", 128).with("BLOCK_K", 64).with("num_warps", 8).with(facts, "a,b,c,m,n,k");
    let k = weft::kernels::build("gemm", &c).unwrap();
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
    let l = weft::emulator::launchable(&k, "sm_90a", weft::emulator::Checks::from_env()).unwrap();
    crate::naive_gemm::launch_and_check_bf16(&world, &l, [4, 1, 1], (144, 208, 208));
}

/// `num_stages` 2 to 4 with one `wgmma` group kept in flight across K steps (`wait_group 1`,
/// a ring of `num_stages + 1` slots), both warp-group tiles, at random uneven sizes
/// (multiples of 16, as the specialized variant assumes) on grids smaller than the tile count
/// so the persistent tile loop wraps. Besides the naive GEMM, the emulator checks that no
/// slot is overwritten while a group that reads it is in flight (`wgmma_groups`).
#[test]
fn sm90a_gemm_keeps_one_wgmma_group_in_flight_at_every_num_stages_on_the_emulator() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let target = Target::parse("sm_90a").unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    let mut x: u64 = 0x90a1;
    let mut below = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
    for (bm, bn, bk, warps) in TILES {
        for stages in 2..=4 {
            let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
            let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", warps).with("num_stages", stages).with(facts, "a,b,c,m,n,k");
            let k = weft::kernels::build("gemm", &c).unwrap();
            let ll = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap().llvm;
            for needle in ["wgmma.wait_group.sync.aligned 1;", "wgmma.wait_group.sync.aligned 0;"] {
                assert!(ll.contains(needle), "{bm}x{bn}x{bk} w{warps} s{stages}: no {needle}");
            }
            let mut dim = |tile: usize| loop {
                let d = 16 * (1 + below(2 * tile / 16 + 2));
                if d % tile != 0 {
                    return d;
                }
            };
            let (m, n, kk) = (dim(bm), dim(bn), dim(bk));
            let tiles = m.div_ceil(bm) * n.div_ceil(bn);
            let grid = (1 + below(tiles)).min(3) as u32;
            let l = weft::emulator::launchable(&k, "sm_90a", weft::emulator::Checks::from_env()).unwrap();
            eprintln!("{bm}x{bn}x{bk} w{warps} num_stages={stages}: {m}x{n}x{kk} on {grid} CTAs ({tiles} tiles)");
            crate::naive_gemm::launch_and_check_bf16(&world, &l, [grid, 1, 1], (m, n, kk));
        }
    }
}
