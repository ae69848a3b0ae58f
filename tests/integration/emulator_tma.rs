//! The sm_90a GEMM ring filled by TMA, executed by the SIMT emulator (its mbarrier and bulk
//! tensor copy model, maps in the emulator's encoding made from the launch arguments) against
//! a naive GEMM: `num_stages` 2 to 4, both warp-group tiles, random ragged shapes (M
//! anything, N and K multiples of 16 as the variant assumes; every ragged edge is the copies'
//! out-of-bounds zero fill), on grids smaller than the tile count so the persistent tile loop
//! re-arms the barriers for each tile; with the emulator's race and bounds checks on.

use weft::compiler::pipeline::Target;
use weft::runtime::{LocalOptions, Topology, World};

#[test]
fn sm90a_tma_ring_gemm_matches_a_naive_gemm_on_the_emulator() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let target = Target::parse("sm_90a").unwrap();
    let Target::Cuda { sm } = target else { unreachable!() };
    let mut x: u64 = 0x7a13;
    let mut below = |n: usize| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % n as u64) as usize
    };
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
    for (bm, bn, bk, warps) in [(64, 64, 32, 4), (128, 128, 64, 8)] {
        for stages in 2..=4 {
            let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
            let c = c.with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", warps).with("num_stages", stages).with(facts, "a,b,c,n,k");
            let k = weft::kernels::build("gemm", &c).unwrap();
            let g = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap();
            assert_eq!(g.tma.len(), 2, "{bm}x{bn}x{bk} s{stages}: not the TMA ring");
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
            let checks = weft::emulator::Checks { races: true, bounds: true, ..weft::emulator::Checks::from_env() };
            let l = weft::emulator::launchable(&k, "sm_90a", checks).unwrap();
            eprintln!("TMA ring {bm}x{bn}x{bk} w{warps} num_stages={stages}: {m}x{n}x{kk} on {grid} CTAs ({tiles} tiles)");
            crate::naive_gemm::launch_and_check_bf16(&world, &l, [grid, 1, 1], (m, n, kk));
        }
    }
}
