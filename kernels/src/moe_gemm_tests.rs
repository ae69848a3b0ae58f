//! The expert GEMMs against f64 plain math: `moe_gemm`, `ag_moe` / `ag_moe_v` and `moe_rs` /
//! `moe_rs_v`, at world sizes 1 to 8 and two nodes, every float dtype, random uneven shapes,
//! routings that leave experts empty or send every token to one expert, two launches in a row.

use crate::matmul_tests::{world, DTYPES};
use crate::{moe_gemm_constexprs, prepare_moe_gemm, MoeGemmShape, Routing, RoutingKind};
use rand::{Rng, SeedableRng};
use weft_compiler::dsl::Constexprs;
use weft_runtime::DType;

const KERNELS: [&str; 5] = ["moe_gemm", "ag_moe", "ag_moe_v", "moe_rs", "moe_rs_v"];
const KINDS: [RoutingKind; 3] = [RoutingKind::Uniform, RoutingKind::Sparse, RoutingKind::Hot];

/// Small tiles, so that random shapes have ragged row and column tiles (and compile fast).
fn small(dtype: DType) -> Constexprs {
    crate::matmul_tests::small(dtype).with("BLOCK_M", 8)
}

/// Runs `name` on two routings in a row (two epochs on the same buffers) and checks both.
fn check(w: &weft_runtime::World, name: &str, shape: MoeGemmShape, dtype: DType, kinds: [RoutingKind; 2]) {
    check_with(w, name, shape, dtype, kinds, &small(dtype));
}

/// [`check`] with constexprs `c`.
fn check_with(w: &weft_runtime::World, name: &str, shape: MoeGemmShape, dtype: DType, kinds: [RoutingKind; 2], c: &Constexprs) {
    let what = format!("{name} {} {shape:?} {dtype} {c:?}", w.topology());
    let mut p = prepare_moe_gemm(w, name, shape, dtype, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    for (seed, kind) in kinds.into_iter().enumerate() {
        p.seed(seed as u64 + 5, kind).unwrap();
        let report = p.launch().unwrap_or_else(|e| panic!("{what} {kind:?}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what} {kind:?}: max error {err}");
        assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
    }
}

#[test]
fn moe_gemms_every_topology_every_dtype() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(163);
    for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 8), (2, 2)] {
        let w = world(nodes, local);
        let ranks = nodes * local;
        for (i, dtype) in DTYPES.into_iter().enumerate() {
            let experts = ranks * rng.random_range(1..4);
            let topk = rng.random_range(1..=experts.min(4));
            let shape = MoeGemmShape { tokens: rng.random_range(1..14), k: rng.random_range(1..40), n: rng.random_range(1..40), topk, experts };
            for name in KERNELS {
                check(&w, name, shape, dtype, [KINDS[i], KINDS[(i + 1) % 3]]);
            }
        }
    }
}

#[test]
fn one_expert_with_every_row_and_empty_experts() {
    let w = world(1, 2);
    let shape = MoeGemmShape { tokens: 9, k: 20, n: 24, topk: 1, experts: 4 };
    // Every token of both ranks to expert 2: its block has every row, the others none.
    let routing = Routing { idx: vec![vec![2; 9]; 2], weights: vec![vec![0.75; 9]; 2] };
    for name in KERNELS {
        let mut p = prepare_moe_gemm(&w, name, shape, DType::F32, &small(DType::F32)).unwrap();
        p.set_routing(routing.clone(), 1).unwrap();
        p.launch().unwrap();
        assert!(p.verify().unwrap().0, "{name}");
        // The check is not vacuous: another routing's reference fails against this output.
        p.seed(2, RoutingKind::Uniform).unwrap();
        assert!(!p.verify().unwrap().0, "{name}: a stale output must not verify");
    }
}

#[test]
fn bad_expert_gemm_requests_are_clear_errors() {
    let w = world(1, 4);
    let ok = MoeGemmShape { tokens: 4, k: 8, n: 8, topk: 2, experts: 8 };
    let err = |name: &str, shape: MoeGemmShape, dtype: DType| prepare_moe_gemm(&w, name, shape, dtype, &moe_gemm_constexprs("moe_gemm", shape, 4, dtype.name())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err("ag_moe", MoeGemmShape { experts: 6, ..ok }, DType::F32).contains("split evenly"));
    assert!(err("moe_rs", MoeGemmShape { topk: 9, ..ok }, DType::F32).contains("at least topk"));
    assert!(err("moe_gemm", MoeGemmShape { n: 0, ..ok }, DType::F32).contains("empty problem"));
    assert!(err("moe_rs_v", ok, DType::I32).contains("dtype i32"));
    assert!(err("ep_dispatch", ok, DType::F32).contains("expert-GEMM shape"));
    let bad_tile = moe_gemm_constexprs("moe_gemm", ok, 4, "f32").with("BLOCK_M", 3);
    assert!(prepare_moe_gemm(&w, "moe_gemm", ok, DType::F32, &bad_tile).err().unwrap().to_string().contains("BLOCK_M"));
    let mut p = prepare_moe_gemm(&w, "moe_rs", ok, DType::F32, &small(DType::F32)).unwrap();
    let routing = |idx: Vec<i32>| Routing { idx: vec![idx; 4], weights: vec![vec![0.5; 8]; 4] };
    assert!(p.set_routing(routing(vec![1, 1, 0, 2, 3, 4, 5, 6]), 1).unwrap_err().to_string().contains("picks expert 1 as choice 1"));
    assert!(p.set_routing(routing(vec![8, 1, 0, 2, 3, 4, 5, 6]), 1).unwrap_err().to_string().contains("distinct experts in 0..8"));
    assert!(p.set_routing(routing(vec![0, 1]), 1).unwrap_err().to_string().contains("4 x top-2"));
}

#[test]
fn expert_tiles_that_span_ranks_and_slots() {
    // Tiles of an expert's rows from every rank: many rows per rank, so tiles straddle two
    // ranks' rows and a receiver's slot is filled by two sender tiles; few rows per rank, so
    // one tile spans every rank, empty ones included; and one expert with every row.
    let cases = [(4, 37, 3, 4, 8, RoutingKind::Uniform), (8, 5, 1, 8, 16, RoutingKind::Sparse), (3, 23, 2, 6, 8, RoutingKind::Hot), (8, 40, 2, 8, 8, RoutingKind::Uniform)];
    for (ranks, tokens, topk, experts, bm, kind) in cases {
        let w = world(1, ranks);
        let shape = MoeGemmShape { tokens, k: 19, n: 21, topk, experts };
        for (name, dtype) in [("ag_moe", DType::BF16), ("moe_rs", DType::F32), ("moe_rs", DType::F16)] {
            let what = format!("{name} {ranks} ranks {shape:?} {dtype} BLOCK_M={bm}");
            let mut p = prepare_moe_gemm(&w, name, shape, dtype, &small(dtype).with("BLOCK_M", bm)).unwrap_or_else(|e| panic!("{what}: {e}"));
            for seed in [11, 12] {
                p.seed(seed, kind).unwrap();
                let report = p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
                let (ok, err) = p.verify().unwrap();
                assert!(ok, "{what}: max error {err}");
                assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
            }
        }
    }
}

#[test]
fn ag_moe_puts_to_any_group_first() {
    // Pushing (PULL=0, as on GPUs), `near` (the group its shard goes to first) is the node on `mpi`; every group size that
    // splits the world (and one that does not: the last group is short) keeps the result.
    for (ranks, near) in [(4, 2), (4, 1), (6, 4), (8, 2), (3, 2)] {
        let shape = MoeGemmShape { tokens: 9 + ranks, k: 17, n: 13, topk: 2, experts: 2 * ranks };
        let what = format!("ag_moe {ranks} ranks near {near}");
        let push = small(DType::F32).with("PULL", 0);
        let mut p = prepare_moe_gemm(&world(1, ranks), "ag_moe", shape, DType::F32, &push).unwrap_or_else(|e| panic!("{what}: {e}"));
        p.near = near;
        p.seed(5, RoutingKind::Uniform).unwrap();
        p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what}: max error {err}");
    }
}

#[test]
fn moe_rs_sums_wide_received_rows_in_chunks() {
    // `moe_rs` sums a received row 64 columns at a time where 64 divides BLOCK_N: rows of one
    // to four chunks, a ragged last chunk (n not a multiple of 64), and tiles that fall back
    // to whole rows (BLOCK_N 32).
    for (i, (ranks, bn, n)) in [(1, 128, 150), (2, 256, 200), (4, 256, 224), (8, 128, 77), (3, 64, 100), (4, 32, 50)].into_iter().enumerate() {
        let dtype = DTYPES[i % DTYPES.len()];
        let shape = MoeGemmShape { tokens: 5 + ranks, k: 11, n, topk: 2, experts: 2 * ranks };
        let what = format!("moe_rs {ranks} ranks BLOCK_N={bn} {shape:?} {dtype}");
        let mut p = prepare_moe_gemm(&world(1, ranks), "moe_rs", shape, dtype, &small(dtype).with("BLOCK_N", bn)).unwrap_or_else(|e| panic!("{what}: {e}"));
        p.seed(i as u64 + 3, KINDS[i % 3]).unwrap();
        p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what}: max error {err}");
    }
}

/// Calls `check_case` on random ragged shapes at one to eight ranks and two nodes, a dtype
/// and two routings each (seeded by `seed`).
fn random_worlds(seed: u64, mut check_case: impl FnMut(&weft_runtime::World, MoeGemmShape, DType, [RoutingKind; 2])) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for (i, (nodes, local)) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 8), (2, 2)].into_iter().enumerate() {
        let ranks = nodes * local;
        let experts = ranks * rng.random_range(1..3);
        let shape = MoeGemmShape { tokens: rng.random_range(1..14), k: rng.random_range(1..30), n: rng.random_range(1..70), topk: rng.random_range(1..=experts.min(3)), experts };
        check_case(&world(nodes, local), shape, DTYPES[i % DTYPES.len()], [KINDS[i % 3], KINDS[(i + 2) % 3]]);
    }
}

#[test]
fn fused_expert_gemms_without_communication_programs() {
    // COMM_PROGRAMS=0: the GEMM programs gather (`ag_moe`) or sum (`moe_rs`) themselves.
    random_worlds(229, |w, shape, dtype, kinds| {
        for name in ["ag_moe", "moe_rs"] {
            check_with(w, name, shape, dtype, kinds, &small(dtype).with("COMM_PROGRAMS", 0));
        }
    });
}

#[test]
fn ag_moe_pushes_as_on_gpus_with_and_without_communication_programs() {
    // CPUs pull by default; PULL=0 is the GPUs' push.
    random_worlds(331, |w, shape, dtype, kinds| {
        for comm in [0, 1, 2] {
            check_with(w, "ag_moe", shape, dtype, kinds, &small(dtype).with("PULL", 0).with("COMM_PROGRAMS", comm));
        }
    });
}

#[test]
fn ag_moe_pulls_on_cpus_only() {
    let shape = MoeGemmShape { tokens: 4, k: 8, n: 8, topk: 2, experts: 8 };
    let c = crate::moe_gemm_constexprs("ag_moe", shape, 4, "f32");
    let mut cpu = c.clone();
    assert!(crate::moe_gemm_host::pull_on_cpus(&mut cpu, false).unwrap());
    assert_eq!(cpu.get("PULL"), Some("1"));
    let mut gpu = c.clone();
    assert!(!crate::moe_gemm_host::pull_on_cpus(&mut gpu, true).unwrap());
    assert_eq!(gpu.get("PULL"), None);
    let e = crate::moe_gemm_host::pull_on_cpus(&mut c.with("PULL", 1), true).unwrap_err();
    assert!(matches!(e, crate::KernelError::Unsupported { .. }) && e.to_string().contains("PULL=1 on a GPU"), "{e}");
}
