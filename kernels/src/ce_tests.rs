//! The copy-engine overlap kernels against the same naive-GEMM references as `ag_gemm` and
//! `gemm_rs`: every world size 1 to 8 and node topology, random odd shapes, one dtype per
//! topology (cycled) to keep the suite cheap, push and pull gathers.

use crate::matmul_tests::{check, small, world, DTYPES, TOPOLOGIES};
use crate::MatmulShape;
use rand::{Rng, SeedableRng};

fn ce_cases(name: &str, pull: bool) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(19 + pull as u64);
    for (i, &(nodes, local)) in TOPOLOGIES.iter().enumerate() {
        let w = world(nodes, local);
        let ranks = nodes * local;
        let dtype = DTYPES[i % DTYPES.len()];
        // AG-GEMM's m is the gathered row count: every rank needs a row.
        let m = rng.random_range(1..60) + if name.starts_with("ag") { ranks } else { 0 };
        let shape = MatmulShape { m, n: rng.random_range(1..50), k: rng.random_range(1..40) };
        let c = small(dtype).with("COMM_PROGRAMS", 1 + i % 2).with("CE_PULL", pull as i64);
        check(&w, name, shape, dtype, &c);
    }
}

#[test]
fn ag_gemm_ce_push_every_topology() {
    ce_cases("ag_gemm_ce", false);
}

#[test]
fn ag_gemm_ce_pull_every_topology() {
    ce_cases("ag_gemm_ce", true);
}

#[test]
fn gemm_rs_ce_every_topology() {
    ce_cases("gemm_rs_ce", false);
}

#[test]
fn a_bad_pull_mode_is_a_clear_error() {
    let w = world(1, 2);
    let c = small(DTYPES[0]).with("CE_PULL", 2);
    let e = crate::prepare_matmul(&w, "ag_gemm_ce", MatmulShape { m: 8, n: 8, k: 8 }, DTYPES[0], &c).err().unwrap().to_string();
    assert!(e.contains("CE_PULL"), "{e}");
}

#[test]
fn ag_gemm_amd_swizzle_every_topology() {
    // The swizzle is an order of the same tiles: both kernels, against the same reference.
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    for (i, &(nodes, local)) in TOPOLOGIES.iter().enumerate() {
        let w = world(nodes, local);
        let dtype = DTYPES[i % DTYPES.len()];
        let shape = MatmulShape { m: rng.random_range(1..60) + nodes * local, n: rng.random_range(1..50), k: rng.random_range(1..40) };
        let name = ["ag_gemm", "ag_gemm_ce"][i % 2];
        check(&w, name, shape, dtype, &small(dtype).with("SWIZZLE", 1).with("COMM_PROGRAMS", 1 + i % 2));
    }
}
