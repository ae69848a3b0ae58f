//! The GEMM family against a naive GEMM: `gemm` alone, and the overlap kernels against
//! AllGather-then-GEMM and GEMM-then-ReduceScatter, over world sizes 1 to 8, node
//! topologies, every float dtype and random shapes including odd ones.

use crate::{matmul_constexprs, prepare_matmul, KernelError, MatmulShape};
use rand::{Rng, SeedableRng};
use weft_compiler::dsl::Constexprs;
use weft_runtime::{DType, LocalOptions, Topology, World};

pub(crate) const DTYPES: [DType; 3] = [DType::F32, DType::F16, DType::BF16];

pub(crate) fn world(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::default() }).unwrap()
}

/// Runs `name` twice (two epochs on the same buffers, fresh inputs between) and checks both.
pub(crate) fn check(w: &World, name: &str, shape: MatmulShape, dtype: DType, c: &Constexprs) {
    let what = format!("{name} {} {shape:?} {dtype} {c:?}", w.topology());
    let mut p = prepare_matmul(w, name, shape, dtype, c).unwrap_or_else(|e| panic!("{what}: {e}"));
    seeded_twice(&what, |seed| {
        p.seed(seed)?;
        let report = p.launch()?;
        Ok((report, p.verify()?))
    });
}

/// Calls `run(seed)` (seed, launch, verify) for two seeds; each must verify without warnings.
pub(crate) fn seeded_twice(what: &str, mut run: impl FnMut(u64) -> Result<(weft_runtime::LaunchReport, (bool, f64)), crate::KernelError>) {
    for seed in [1, 2] {
        let (report, (ok, err)) = run(seed).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(ok, "{what}: max error {err}");
        assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
    }
}

pub(crate) fn small(dtype: DType) -> Constexprs {
    matmul_constexprs(dtype.name()).with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 8).with("GROUP_M", 2)
}

#[test]
fn gemm_random_odd_shapes_every_dtype() {
    let w = World::local(1).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for dtype in DTYPES {
        for _ in 0..3 {
            let shape = MatmulShape { m: rng.random_range(1..90), n: rng.random_range(1..90), k: rng.random_range(1..70) };
            check(&w, "gemm", shape, dtype, &small(dtype));
        }
    }
    check(&w, "gemm", MatmulShape { m: 130, n: 97, k: 75 }, DType::F32, &matmul_constexprs("f32"));
}

/// Topologies `(nodes, local)` covering world sizes 1, 2, 3, 4 and 8, one node and several.
pub(crate) const TOPOLOGIES: [(usize, usize); 8] = [(1, 1), (1, 2), (1, 3), (1, 4), (1, 8), (2, 1), (2, 2), (2, 4)];

fn overlap_cases(name: &str, per_rank_m: bool) {
    overlap_cases_with(name, per_rank_m, &Constexprs::new(), &TOPOLOGIES);
}

/// `name` with `extra` constexprs over `topologies`, every dtype, random shapes.
fn overlap_cases_with(name: &str, per_rank_m: bool, extra: &Constexprs, topologies: &[(usize, usize)]) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(name.len() as u64 + extra.get("METHOD").map_or(0, |m| m.len() as u64 * 31));
    for (i, &(nodes, local)) in topologies.iter().enumerate() {
        let w = world(nodes, local);
        let ranks = nodes * local;
        for dtype in DTYPES {
            let m = rng.random_range(1..60) + if per_rank_m { 0 } else { ranks };
            let shape = MatmulShape { m, n: rng.random_range(1..50), k: rng.random_range(1..40) };
            let mut c = small(dtype).with("COMM_PROGRAMS", 1 + i % 2);
            for (key, value) in extra.iter() {
                c.set(key, value);
            }
            check(&w, name, shape, dtype, &c);
        }
    }
}

#[test]
fn gemm_ar_every_method_every_topology_every_dtype() {
    for method in ["1", "2"] {
        overlap_cases_with("gemm_ar", true, &Constexprs::new().with("METHOD", method), &TOPOLOGIES);
    }
    // Multimem reaches one node's ranks only.
    let one_node: Vec<_> = TOPOLOGIES.iter().copied().filter(|&(nodes, _)| nodes == 1).collect();
    overlap_cases_with("gemm_ar", true, &Constexprs::new().with("METHOD", "3"), &one_node);
    let e = prepare_matmul(&world(2, 2), "gemm_ar", MatmulShape { m: 8, n: 8, k: 8 }, DType::F32, &small(DType::F32).with("METHOD", "3"));
    assert!(e.err().unwrap().to_string().contains("multimem reaches one node"));
}

#[test]
fn gemm_rs_ps_every_one_node_topology_every_dtype() {
    let one_node: Vec<_> = TOPOLOGIES.iter().copied().filter(|&(nodes, _)| nodes == 1).collect();
    overlap_cases_with("gemm_rs_ps", true, &Constexprs::new().with("REDUCE_ROWS", "4"), &one_node);
    let e = prepare_matmul(&world(2, 2), "gemm_rs_ps", MatmulShape { m: 8, n: 8, k: 8 }, DType::F32, &small(DType::F32));
    assert!(e.err().unwrap().to_string().contains("reach one node"));
}

#[test]
fn gemm_ar_picks_its_method_by_size() {
    // The default (no METHOD) is one-shot on 2 ranks up to the AllReduce's cut-over, two-shot
    // otherwise; both verify.
    let w = world(1, 2);
    for (ranks, bytes, want) in [(2, crate::ONE_SHOT_MAX_BYTES, "1"), (2, crate::ONE_SHOT_MAX_BYTES + 1, "2"), (4, 1024, "2")] {
        let mut c = small(DType::F32);
        crate::gemm_ar::choose_method(&mut c, &world(1, ranks), bytes, "gemm_ar").unwrap();
        assert_eq!(c.get("METHOD"), Some(want), "{ranks} ranks, {bytes} B");
    }
    check(&w, "gemm_ar", MatmulShape { m: 40, n: 24, k: 16 }, DType::BF16, &small(DType::BF16));
    check(&w, "gemm_ar", MatmulShape { m: 300, n: 260, k: 8 }, DType::F32, &small(DType::F32).with("BLOCK_M", 64).with("BLOCK_N", 64));
}

#[test]
fn gemm_ar_copies_gathered_rows_in_column_pieces() {
    // Two-shot copies reduced rows into `c` `COPY_COLS` columns at a time over the columns `n`
    // has: pieces narrower than the tile, a last tile `n` fills in part or in fewer pieces than
    // fit, and pieces as wide as the tile, on one node and on two.
    for (nodes, local, n, copy) in [(1, 3, 100, "8"), (1, 4, 72, "32"), (2, 2, 50, "64"), (1, 2, 33, "16")] {
        let c = small(DType::BF16).with("METHOD", "2").with("BLOCK_N", 64).with("COPY_COLS", copy);
        check(&world(nodes, local), "gemm_ar", MatmulShape { m: 37, n, k: 20 }, DType::BF16, &c);
    }
}

#[test]
fn gemm_ar_shape_fitted_tiles_verify_and_keep_their_rule() {
    // The shape-fitted default (a width up to 128 that pads no more columns than 128-wide
    // tiles, the least costly K step) on uneven shapes: it verifies on each method's world
    // sizes, and its widths follow the rule, checked by enumeration.
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    for (nodes, local) in [(1, 2), (1, 3), (1, 8), (2, 2)] {
        let ranks = nodes * local;
        let shape = MatmulShape { m: rng.random_range(ranks..140), n: rng.random_range(1..200), k: rng.random_range(1..80) };
        let c = crate::shape_constexprs("gemm_ar", shape, ranks, "bf16");
        let get = |key: &str| c.get(key).and_then(|v| v.parse::<usize>().ok()).unwrap();
        let (bn, bk) = (get("BLOCK_N"), get("BLOCK_K"));
        // No more padded columns than 128-wide tiles, and no wider than `n` needs.
        let padded = |b: usize| shape.n.div_ceil(b) * b;
        assert!([16, 32, 64, 128].contains(&bn) && padded(bn) <= padded(128) && (bn == 16 || bn / 2 < shape.n), "{shape:?}: BLOCK_N {bn}");
        let cost = |b: usize| crate::matmul::k_step_cost(shape.k, b);
        assert!([16, 32, 64].contains(&bk) && [16, 32, 64].iter().all(|&b| cost(b) >= cost(bk)), "{shape:?}: BLOCK_K {bk}");
        check(&world(nodes, local), "gemm_ar", shape, DType::BF16, &c);
    }
}

#[test]
fn shape_fitted_block_k_holds_k_and_verifies() {
    // The fitted K step is the least costly of 64 / 32 / 16 (`k_step_cost`), as gemm_ar's; the
    // fitted tiles verify on uneven shapes, one node and two.
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    let cases = [("gemm", (1, 1), 1..17), ("gemm_rs", (1, 3), 17..33), ("gemm_rs", (1, 4), 1..17), ("ag_gemm", (1, 2), 33..65), ("gemm_rs", (2, 2), 65..90)];
    for (name, (nodes, local), ks) in cases {
        let ranks = nodes * local;
        let shape = MatmulShape { m: rng.random_range(ranks..100), n: rng.random_range(1..80), k: rng.random_range(ks) };
        let c = crate::shape_constexprs(name, shape, ranks, "bf16");
        let bk: usize = c.get("BLOCK_K").and_then(|v| v.parse().ok()).unwrap();
        let cost = |b: usize| crate::matmul::k_step_cost(shape.k, b);
        assert!([16, 32, 64].contains(&bk) && [16, 32, 64].iter().all(|&b| cost(b) >= cost(bk)), "{name} {shape:?}: BLOCK_K {bk}");
        check(&world(nodes, local), name, shape, DType::BF16, &c);
    }
}

#[test]
fn overlap_shape_fitted_tiles_avoid_a_masked_last_column_tile_and_verify() {
    // The default BLOCK_N of ag_gemm / gemm_rs: the widest of 256 / 128 / 64 that divides `n`
    // (a masked last tile ran 1.4-1.7x slower at n = 448), else the least padded work. Random
    // multiples of 64 and uneven `n`, checked against the naive reference on every topology.
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 4), (2, 2), (1, 8)] {
        let ranks = nodes * local;
        for (name, n) in [("ag_gemm", 64 * rng.random_range(1..8)), ("gemm_rs", rng.random_range(1..300))] {
            let shape = MatmulShape { m: rng.random_range(ranks..96), n, k: rng.random_range(1..48) };
            let c = crate::shape_constexprs(name, shape, ranks, "bf16");
            let bn: usize = c.get("BLOCK_N").and_then(|v| v.parse().ok()).unwrap();
            let dividing = [256, 128, 64].into_iter().find(|b| n % b == 0);
            match dividing {
                Some(b) => assert_eq!(bn, b, "{name} {shape:?}"),
                None => assert!([256, 128, 64].contains(&bn) && n % bn != 0, "{name} {shape:?}: BLOCK_N {bn}"),
            }
            check(&world(nodes, local), name, shape, DType::BF16, &c);
        }
    }
    // The measured shape: 448 columns are seven 64-wide tiles, not a 256 and a masked 192.
    let c = crate::shape_constexprs("ag_gemm", MatmulShape { m: 256, n: 448, k: 128 }, 4, "bf16");
    assert_eq!(c.get("BLOCK_N"), Some("64"));
}

#[test]
fn ag_gemm_every_topology_every_dtype() {
    overlap_cases("ag_gemm", false);
}

/// On CPUs `ag_gemm` pulls node peers' shards (`PULL=1`, the default there); the push path
/// GPUs take runs here too.
#[test]
fn ag_gemm_pushed_every_topology_every_dtype() {
    overlap_cases_with("ag_gemm", false, &Constexprs::new().with("PULL", "0"), &TOPOLOGIES);
}

#[test]
fn ag_gemm_pulls_on_cpus_and_refuses_to_on_gpus() {
    let mut c = Constexprs::new();
    crate::matmul::pull_on_cpu(&mut c, false).unwrap();
    assert_eq!(c.get("PULL"), Some("1"));
    let mut c = Constexprs::new();
    crate::matmul::pull_on_cpu(&mut c, true).unwrap();
    assert_eq!(c.get("PULL"), None);
    let e = crate::matmul::pull_on_cpu(&mut Constexprs::new().with("PULL", 1), true).unwrap_err();
    assert!(matches!(e, KernelError::Unsupported { .. }) && e.to_string().contains("PULL=1 on a GPU"), "{e}");
}

#[test]
fn gemm_rs_every_topology_every_dtype() {
    overlap_cases("gemm_rs", true);
}

#[test]
fn reference_test_shape_scaled_down() {
    // Triton-distributed's correctness case is M = 4091 x world, N = 5120, K = 1024; scaled by
    // 1/64 in each dimension (keeping M odd per rank) so the naive reference finishes quickly.
    for (nodes, local) in [(1, 4), (2, 2)] {
        let w = world(nodes, local);
        let shape = MatmulShape { m: 63 * nodes * local, n: 80, k: 16 };
        check(&w, "ag_gemm", shape, DType::BF16, &matmul_constexprs("bf16"));
        check(&w, "gemm_rs", shape, DType::F16, &matmul_constexprs("f16"));
    }
}

#[test]
fn bad_matmul_requests_are_clear_errors() {
    let w = world(1, 2);
    let c = matmul_constexprs("f32");
    let err = |name: &str, shape: MatmulShape, dtype: DType| prepare_matmul(&w, name, shape, dtype, &c).err().map(|e| e.to_string()).unwrap_or_default();
    let ok = MatmulShape { m: 8, n: 8, k: 8 };
    assert!(err("gemm", MatmulShape { m: 0, ..ok }, DType::F32).contains("empty problem m=0"));
    assert!(err("ag_gemm", MatmulShape { m: 1, ..ok }, DType::F32).contains("every rank needs a row"));
    assert!(err("gemm_rs", ok, DType::I32).contains("dtype i32"));
    assert!(err("allgather", ok, DType::F32).contains("it is a collective"));
    assert!(matches!(prepare_matmul(&w, "nope", ok, DType::F32, &c), Err(KernelError::Unknown { .. })));
    let bad = c.clone().with("BLOCK_M", 3);
    assert!(prepare_matmul(&w, "gemm", ok, DType::F32, &bad).err().unwrap().to_string().contains("BLOCK_M"));
}

#[test]
fn gpu_worlds_get_tiles_that_fit_a_cta() {
    use crate::matmul::gpu_tiles;
    let get = |c: &Constexprs, k: &str| c.get(k).unwrap().to_string();
    // The CPU's 64x256x64 is capped at the GPU default; a smaller shape-fitted BLOCK_M stays.
    for (name, bm_in, want) in [("ag_gemm", 64, ["64", "64", "32"]), ("gemm_rs", 64, ["32", "32", "32"]), ("gemm", 16, ["16", "64", "32"])] {
        let mut c = matmul_constexprs("bf16").with("BLOCK_M", bm_in);
        gpu_tiles(&mut c, name, DType::BF16, "sm_90a", 64).unwrap();
        assert_eq!([get(&c, "BLOCK_M"), get(&c, "BLOCK_N"), get(&c, "BLOCK_K")], want, "{name}");
        assert_eq!(get(&c, "num_warps"), "4");
    }
    // Tiles chosen for a GPU (they name num_warps) stay as given; the stages default.
    let mut c = matmul_constexprs("bf16").with("BLOCK_M", 128).with("BLOCK_N", 128).with("num_warps", 8);
    gpu_tiles(&mut c, "gemm", DType::BF16, "sm_90a", 4096).unwrap();
    let tiles = |c: &Constexprs| ["BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages"].map(|k| get(c, k));
    assert_eq!(tiles(&c), ["128", "128", "64", "8", "3"]);
    // A 16-bit gemm on sm_90a whose rows fill 128 takes Hopper's tiles, keeping the fitted width;
    // f32, sm_80 and short problems keep the capped defaults.
    let mut c = matmul_constexprs("bf16").with("BLOCK_N", 128);
    gpu_tiles(&mut c, "gemm", DType::BF16, "sm_90a", 129).unwrap();
    assert_eq!(tiles(&c), ["128", "128", "32", "8", "4"]);
    for (dtype, arch, rows) in [(DType::F32, "sm_90a", 4096), (DType::BF16, "sm_80", 4096), (DType::BF16, "sm_90a", 127)] {
        let mut c = matmul_constexprs(dtype.name());
        gpu_tiles(&mut c, "gemm", dtype, arch, rows).unwrap();
        assert_eq!(tiles(&c), ["64", "64", "32", "4", "3"], "{dtype} {arch} {rows}");
    }
    let e = gpu_tiles(&mut matmul_constexprs("f32"), "gemm", DType::F32, "sm_75", 64).unwrap_err();
    assert!(matches!(e, KernelError::Unsupported { .. }) && e.to_string().contains("sm_75"), "{e}");
}
