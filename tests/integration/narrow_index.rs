//! The small-integer variant (`small_ints`): a GEMM whose sizes are known to be below 2^30
//! compares its K-loop indices in 32 bits, and still computes the naive GEMM's result on the
//! SIMT emulator over uneven sizes (no divisibility facts, so every edge is masked).

use weft::compiler::analysis::specialize::SMALL_CONSTEXPR;
use weft::compiler::ir::Kernel;
use weft::compiler::pipeline::{run, Options, Target};
use weft::runtime::{LocalOptions, Topology, World};

fn gemm(small: bool) -> Kernel {
    let target = Target::parse("sm_90a").unwrap();
    let c = weft::kernels::target_constexprs("gemm", "bf16", target).unwrap();
    let c = c.with("BLOCK_M", 64).with("BLOCK_N", 64).with("BLOCK_K", 32).with("num_warps", 4);
    let c = if small { c.with(SMALL_CONSTEXPR, "m,n,k") } else { c };
    weft::kernels::build("gemm", &c).unwrap()
}

/// Compares of 32-bit tensors in a tir dump.
fn i32_compares(tir: &str) -> usize {
    tir.lines().filter(|l| l.contains("arith.cmpi") && l.contains("xi32>")).count()
}

#[test]
fn small_integer_gemm_compares_k_in_32_bits_and_matches_a_naive_gemm() {
    let sm90 = Target::parse("sm_90a").unwrap();
    let tir = |k: &Kernel| run(k, sm90, Some("tir"), &Options::default()).unwrap().text;
    let (small, general) = (gemm(true), gemm(false));
    // The two K masks (A's columns, B's rows) of the K loop.
    assert_eq!(i32_compares(&tir(&small)), 2, "{}", tir(&small));
    assert_eq!(i32_compares(&tir(&general)), 0);
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
    let l = weft::emulator::launchable(&small, "sm_90a", weft::emulator::Checks::from_env()).unwrap();
    let mut seed = 0x9e37_79b9u64;
    let mut below = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) % n) as usize
    };
    for _ in 0..2 {
        let (m, n, k) = (17 + below(80), 9 + below(80), 33 + below(100));
        crate::naive_gemm::launch_and_check_bf16(&world, &l, [2, 1, 1], (m, n, k));
    }
}
