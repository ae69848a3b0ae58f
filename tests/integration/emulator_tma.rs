//! The GEMM ring filled by TMA, executed by the SIMT emulator (its mbarrier and bulk tensor
//! copy model, maps in the emulator's encoding made from the launch arguments) against a
//! naive GEMM, on sm_90a (feeding `wgmma`) and sm_100a (feeding `ldmatrix` + `mma.sync`):
//! `num_stages` 2 to 4, both library tiles, random ragged shapes (M anything, N and K
//! multiples of 16 as the variant assumes; every ragged edge is the copies' out-of-bounds zero
//! fill), on grids smaller than the tile count so the persistent tile loop re-arms the
//! barriers for each tile; with the emulator's race and bounds checks on.

use weft::compiler::pipeline::Target;
use weft::emulator::{Checks, Plant};
use weft::runtime::{LocalOptions, Topology, World};

/// The specialized bf16 `gemm` (N, K multiples of 16) for `target`, lowered with its TMA ring.
fn tma_gemm(target: Target, (bm, bn, bk, warps): (usize, usize, usize, usize), stages: usize) -> weft::compiler::ir::Kernel {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
    let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", warps).with("num_stages", stages).with(facts, "a,b,c,n,k");
    let k = weft::kernels::build("gemm", &c).unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    let g = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap();
    assert_eq!(g.tma.len(), 2, "{target:?} {bm}x{bn}x{bk} s{stages}: not the TMA ring");
    k
}

fn tma_ring_gemm_matches_a_naive_gemm(arch: &'static str, mut x: u64) {
    let target = Target::parse(arch).unwrap();
    let mut below = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some(arch), ..LocalOptions::from_env() }).unwrap();
    for (bm, bn, bk, warps) in [(64, 64, 32, 4), (128, 128, 64, 8)] {
        for stages in 2..=4 {
            let k = tma_gemm(target, (bm, bn, bk, warps), stages);
            // Not multiples of the tile; K from one step (fewer steps than slots) to several.
            let m = loop {
                let d = 1 + below(2 * bm + 40);
                if d % bm != 0 {
                    break d;
                }
            };
            let mut dim16 = |tile: usize| loop {
                let d = 16 * (1 + below(2 * tile / 16 + 2));
                if d % tile != 0 {
                    break d;
                }
            };
            let (n, kk) = (dim16(bn), dim16(bk));
            let tiles = m.div_ceil(bm) * n.div_ceil(bn);
            let grid = (1 + below(tiles)).min(3) as u32;
            // With the race detector (a read of a slot before its barrier's phase completes, or
            // a copy into a slot a `wgmma` still reads, is a report) and bounds checks.
            let checks = Checks { races: true, bounds: true, ..Checks::from_env() };
            let l = weft::emulator::launchable(&k, arch, checks).unwrap();
            eprintln!("{arch} TMA ring {bm}x{bn}x{bk} w{warps} num_stages={stages}: {m}x{n}x{kk} on {grid} CTAs ({tiles} tiles)");
            crate::naive_gemm::launch_and_check_bf16(&world, &l, [grid, 1, 1], (m, n, kk));
        }
    }
}

#[test]
fn sm90a_tma_ring_gemm_matches_a_naive_gemm_on_the_emulator() {
    tma_ring_gemm_matches_a_naive_gemm("sm_90a", 0x7a13);
}

#[test]
fn sm100a_tma_ring_gemm_matches_a_naive_gemm_on_the_emulator() {
    tma_ring_gemm_matches_a_naive_gemm("sm_100a", 0x7a100);
}

/// The sm_100a ring's `ldmatrix` reads wait on the slot's mbarrier: with every wait answering
/// at once, a step's `ldmatrix` reads its slot before the copies land, which the race check
/// reports naming the copy, at both tiles.
#[test]
fn sm100a_tma_ring_without_its_mbarrier_wait_is_caught() {
    let target = Target::parse("sm_100a").unwrap();
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_100a"), ..LocalOptions::from_env() }).unwrap();
    for tile in [(64, 64, 32, 4), (128, 128, 64, 8)] {
        let k = tma_gemm(target, tile, 3);
        let (m, n, kk) = (tile.0 + 9, tile.1 + 16, 3 * tile.2 + 16);
        let checks = Checks { races: true, bounds: true, ..Checks::from_env() };
        let clean = weft::emulator::with_checks(checks, None, || weft::emulator::launchable(&k, "sm_100a", checks)).unwrap();
        crate::naive_gemm::launch_and_check_bf16(&world, &clean, [2, 1, 1], (m, n, kk));
        let planted = weft::emulator::with_checks(checks, Some(Plant::DropMbarrierWait), || weft::emulator::launchable(&k, "sm_100a", checks)).unwrap();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| crate::naive_gemm::launch_and_check_bf16(&world, &planted, [2, 1, 1], (m, n, kk))));
        let e = run.expect_err("reading a slot before its copies landed went unnoticed");
        let e = e.downcast_ref::<String>().cloned().unwrap_or_default();
        eprintln!("{tile:?} without the mbarrier wait: {e}");
        for needle in ["shared-memory race", "ldmatrix", "cp.async.bulk.tensor", "thread "] {
            assert!(e.contains(needle), "{tile:?}: no {needle:?} in {e}");
        }
    }
}
