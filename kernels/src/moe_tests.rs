//! The expert-parallel kernels against plain math: `ep_dispatch`, its baseline `ep_dispatch_v`,
//! `ep_combine` and its baseline `ep_combine_v`, at world sizes 1 to 8 and two nodes, every
//! float dtype, random shapes and routings that leave experts empty or send every token to one
//! expert.

use crate::matmul_tests::{world, DTYPES};
use crate::{moe_constexprs, prepare_moe, MoeShape, Routing, RoutingKind};
use rand::{Rng, SeedableRng};
use weft_runtime::DType;

const KERNELS: [&str; 4] = ["ep_dispatch", "ep_dispatch_v", "ep_combine", "ep_combine_v"];
const KINDS: [RoutingKind; 3] = [RoutingKind::Uniform, RoutingKind::Sparse, RoutingKind::Hot];

/// Runs `name` on two routings in a row (two flags on the same buffers) and checks both.
pub(crate) fn check(w: &weft_runtime::World, name: &str, shape: MoeShape, dtype: DType, kinds: [RoutingKind; 2]) {
    let what = format!("{name} {} {shape:?} {dtype}", w.topology());
    let mut p = prepare_moe(w, name, shape, dtype, &moe_constexprs(shape, dtype.name())).unwrap_or_else(|e| panic!("{what}: {e}"));
    for (seed, kind) in kinds.into_iter().enumerate() {
        p.seed(seed as u64 + 3, kind).unwrap();
        let report = p.launch().unwrap_or_else(|e| panic!("{what} {kind:?}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what} {kind:?}: max error {err}");
        assert!(report.warnings.is_empty(), "{what}: {:?}", report.warnings);
    }
}

#[test]
fn ep_kernels_every_topology_every_dtype() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 8), (2, 2)] {
        let w = world(nodes, local);
        let ranks = nodes * local;
        for (i, dtype) in DTYPES.into_iter().enumerate() {
            let experts = ranks * rng.random_range(1..4);
            let shape = MoeShape { tokens: rng.random_range(1..20), hidden: 2 * rng.random_range(1..40), topk: rng.random_range(1..=experts.min(5)), experts };
            for name in KERNELS {
                check(&w, name, shape, dtype, [KINDS[i], KINDS[(i + 1) % 3]]);
            }
        }
    }
}

#[test]
fn routing_kinds_leave_experts_empty_or_hot() {
    let shape = MoeShape { tokens: 40, hidden: 8, topk: 3, experts: 16 };
    let loads = |kind| Routing::random(4, shape, kind, 9).expert_loads(shape.experts);
    let sparse = loads(RoutingKind::Sparse);
    assert_eq!(sparse.iter().filter(|&&n| n == 0).count(), 8, "{sparse:?}");
    let hot = loads(RoutingKind::Hot);
    assert!(hot.contains(&(4 * shape.tokens)), "one expert takes every token: {hot:?}");
    assert_eq!(hot.iter().sum::<usize>(), 4 * shape.tokens * shape.topk);
}

#[test]
fn given_routing_is_used_and_checked() {
    let w = world(1, 2);
    let shape = MoeShape { tokens: 3, hidden: 4, topk: 2, experts: 4 };
    let mut p = prepare_moe(&w, "ep_dispatch", shape, DType::F32, &moe_constexprs(shape, "f32")).unwrap();
    // Every token of both ranks to experts 3 and 0: experts 1 and 2 get nothing.
    let routing = Routing { idx: vec![vec![3, 0, 0, 3, 3, 0]; 2], weights: vec![vec![0.5; 6]; 2] };
    p.set_routing(routing.clone(), 1).unwrap();
    p.launch().unwrap();
    assert!(p.verify().unwrap().0);
    let mut bad = |idx: Vec<i32>| p.set_routing(Routing { idx: vec![idx.clone(), idx], weights: vec![vec![0.5; 6]; 2] }, 1).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(bad(vec![3, 3, 0, 1, 1, 2]).contains("picks expert 3 as choice 1"));
    assert!(bad(vec![4, 0, 0, 1, 1, 2]).contains("distinct experts in 0..4"));
    assert!(bad(vec![0; 4]).contains("3 x top-2"));
    assert_eq!(p.routing(), &routing, "a rejected routing leaves the last one");
    // The check is not vacuous: another routing's reference fails against this output.
    p.set_routing(Routing { idx: vec![vec![1, 2, 2, 1, 1, 2]; 2], weights: vec![vec![0.5; 6]; 2] }, 1).unwrap();
    assert!(!p.verify().unwrap().0, "a stale dispatch must not verify");
    let mut c = prepare_moe(&w, "ep_combine", shape, DType::BF16, &moe_constexprs(shape, "bf16")).unwrap();
    c.launch().unwrap();
    assert!(c.verify().unwrap().0);
    c.seed(2, RoutingKind::Hot).unwrap();
    assert!(!c.verify().unwrap().0, "a stale combine must not verify");
    let mut v = prepare_moe(&w, "ep_combine_v", shape, DType::F16, &moe_constexprs(shape, "f16")).unwrap();
    v.set_routing(routing.clone(), 4).unwrap();
    v.launch().unwrap();
    assert!(v.verify().unwrap().0);
    v.seed(2, RoutingKind::Hot).unwrap();
    assert!(!v.verify().unwrap().0, "a stale baseline combine must not verify");
}

#[test]
fn bad_moe_requests_are_clear_errors() {
    let w = world(1, 4);
    let ok = MoeShape { tokens: 4, hidden: 8, topk: 2, experts: 8 };
    let err = |shape: MoeShape, dtype: DType| prepare_moe(&w, "ep_dispatch", shape, dtype, &moe_constexprs(shape, dtype.name())).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err(MoeShape { experts: 6, ..ok }, DType::F32).contains("split evenly"));
    assert!(err(MoeShape { topk: 9, experts: 8, ..ok }, DType::F32).contains("at least topk"));
    assert!(err(MoeShape { hidden: 7, ..ok }, DType::BF16).contains("whole 32-bit words"));
    assert!(err(MoeShape { tokens: 0, ..ok }, DType::F32).contains("empty problem"));
    assert!(err(ok, DType::I32).contains("dtype i32"));
    let small_k = moe_constexprs(MoeShape { topk: 1, ..ok }, "f32");
    assert!(prepare_moe(&w, "ep_combine", ok, DType::F32, &small_k).err().unwrap().to_string().contains("BLOCK_K=1"));
    assert!(prepare_moe(&w, "allgather", ok, DType::F32, &small_k).err().unwrap().to_string().contains("expert-parallel shape"));
}
