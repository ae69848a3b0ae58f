//! Every library kernel (collectives, GEMMs, flash_decode, MoE) and every MSCCL built-in under
//! the `local` race detector on 4 ranks, compiled with race checks (a racecheck world asks for
//! them), so their tile loads and stores (LL words included) are checked as well as their shmem
//! ops: each must finish with the right result and no race
//! or ordering report (bounds are checked on every launch anyway; here too).

use crate::msccl::{prepare_msccl, MscclOptions};
use crate::{decode_constexprs, default_constexprs, list, matmul_constexprs, moe_constexprs, prepare_decode, prepare_matmul, prepare_moe, run_collective, DecodeShape, MatmulShape, MoeShape, RoutingKind, RunOptions};
use weft_compiler::msccl::algorithms::{self, AlgoParams, BUILTINS};
use weft_compiler::msccl::Protocol;
use weft_runtime::{DType, LocalOptions, Topology, World};

fn racechecked(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, racecheck: true, ..LocalOptions::from_env() }).unwrap()
}

#[test]
fn library_collectives_are_race_free_on_4_ranks() {
    let w = racechecked(1, 4);
    for k in list().iter().filter(|k| k.collective.takes_elems()) {
        let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs(k.name, "f32").unwrap(), seed: 3 };
        // Two tiles per instance and an uneven tail.
        let r = run_collective(&w, k.name, 5003, DType::F32, &opts).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        assert!(r.verified, "{}: max error {}", k.name, r.max_err);
    }
    // Across two nodes allgather_2d puts LL rows and ll_recv polls them: clean too.
    let w = racechecked(2, 2);
    let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs("allgather_2d", "f32").unwrap(), seed: 3 };
    let r = run_collective(&w, "allgather_2d", 5003, DType::F32, &opts).unwrap_or_else(|e| panic!("allgather_2d on 2x2: {e}"));
    assert!(r.verified, "allgather_2d on 2x2: max error {}", r.max_err);
}

#[test]
fn library_matmul_kernels_are_race_free_on_4_ranks() {
    let w = racechecked(1, 4);
    let c = matmul_constexprs("f32").with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 8).with("GROUP_M", 2);
    for k in list().iter().filter(|k| k.collective.is_matmul()) {
        let shape = MatmulShape { m: 37, n: 29, k: 23 };
        let mut p = prepare_matmul(&w, k.name, shape, DType::F32, &c).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        p.seed(5).unwrap();
        p.launch().unwrap_or_else(|e| panic!("{}: {e}", k.name));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{}: max error {err}", k.name);
    }
}

#[test]
fn flash_decode_is_race_free_on_4_ranks() {
    let w = racechecked(1, 4);
    // Positions split unevenly over the ranks, two query heads per KV head.
    let shape = DecodeShape { batch: 2, heads: 4, kv_heads: 2, seq: 37, head_dim: 16 };
    // The baseline three times: its partials' two copies alternate.
    for (name, launches) in [("flash_decode", 1), ("flash_decode_v", 3)] {
        let mut p = prepare_decode(&w, name, shape, DType::F32, &decode_constexprs(shape, "f32", false)).unwrap_or_else(|e| panic!("{e}"));
        p.seed(7).unwrap();
        for _ in 0..launches {
            p.launch().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{name}: max error {err}");
    }
}

#[test]
fn moe_kernels_are_race_free_on_4_ranks() {
    let w = racechecked(1, 4);
    // LL words (counts, credits, combine rows) cross ranks; three launches flip the counts' parity
    // and refill the dispatches' regions behind their credits.
    let shape = MoeShape { tokens: 13, hidden: 40, topk: 3, experts: 8 };
    for name in ["ep_dispatch", "ep_dispatch_v", "ep_dispatch_fp8", "ep_combine"] {
        let mut p = prepare_moe(&w, name, shape, DType::F32, &moe_constexprs(shape, "f32")).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (seed, kind) in [(3, RoutingKind::Uniform), (4, RoutingKind::Hot), (5, RoutingKind::Sparse)] {
            p.seed(seed, kind).unwrap();
            p.launch().unwrap_or_else(|e| panic!("{name} {kind:?}: {e}"));
            let (ok, err) = p.verify().unwrap();
            assert!(ok, "{name} {kind:?}: max error {err}");
        }
    }
}

#[test]
fn expert_gemms_are_race_free_on_4_ranks() {
    use crate::{moe_gemm_constexprs, prepare_moe_gemm, MoeGemmShape};
    let w = racechecked(1, 4);
    // `moe_rs_v`'s pull gets block starts and rows its peers wrote in earlier launches; two
    // routings in a row rewrite them.
    let shape = MoeGemmShape { tokens: 7, k: 12, n: 20, topk: 3, experts: 8 };
    for name in ["moe_gemm", "ag_moe", "ag_moe_v", "moe_rs", "moe_rs_v"] {
        let c = moe_gemm_constexprs(name, shape, 4, "f32").with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 16);
        let mut p = prepare_moe_gemm(&w, name, shape, DType::F32, &c).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (seed, kind) in [(3, RoutingKind::Hot), (4, RoutingKind::Sparse)] {
            p.seed(seed, kind).unwrap();
            p.launch().unwrap_or_else(|e| panic!("{name} {kind:?}: {e}"));
            let (ok, err) = p.verify().unwrap();
            assert!(ok, "{name} {kind:?}: max error {err}");
        }
    }
}

#[test]
fn msccl_builtins_are_race_free_on_4_ranks() {
    for b in BUILTINS {
        let (nodes, local) = if algorithms::lookup(b.name).unwrap().hierarchical { (2, 2) } else { (1, 4) };
        let w = racechecked(nodes, local);
        // Simple moves data with put / put_signal; LL and LL128 with tile stores through
        // remote_ptr, which the race-checked compile reports too.
        for protocol in [Protocol::Simple, Protocol::LL, Protocol::LL128] {
            let params = AlgoParams { ranks: 4, nodes, instances: 1, protocol };
            let ir = algorithms::build(b.name, &params).and_then(|a| a.to_ir()).unwrap_or_else(|e| panic!("{}: {e}", b.name));
            let what = format!("{} {protocol}", b.name);
            let opts = MscclOptions { slot_bytes: Some(512), ..MscclOptions::default() };
            let mut p = prepare_msccl(&w, &ir, 1237, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
            let (ok, err) = p.verify_after_launch(1).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(ok, "{what}: max error {err}");
        }
    }
}
