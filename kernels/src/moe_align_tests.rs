//! `moe_align` against the plain-math dispatch ([`crate::reference::ep_dispatch`], which lists
//! each expert's choices by source rank then token): one rank's own tokens and the gathered
//! tokens, world sizes 1 to 8 and two nodes, random routings that leave experts empty or send
//! every token to one expert, and bad input.

use crate::matmul_tests::world;
use crate::moe_host::{MoeShape, Routing, RoutingKind};
use crate::moe_align_host::expected_layout;
use crate::{align_constexprs, prepare_align, AlignSpec};
use rand::{Rng, SeedableRng};

/// Lays out `routing` with `spec` on `w` and checks every rank against [`expected`].
fn check(w: &weft_runtime::World, spec: AlignSpec, routing: &Routing, what: &str) {
    let p = prepare_align(w, spec, &align_constexprs(spec.topk)).unwrap_or_else(|e| panic!("{what}: {e}"));
    p.write_routing(&routing.idx).unwrap();
    p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
    for r in w.host_ranks() {
        assert_eq!(p.read(r).unwrap(), expected_layout(&routing.idx, spec, r), "{what} rank {r}");
    }
    assert!(p.verify(&routing.idx).unwrap(), "{what}");
    // Not vacuous: another routing's layout differs.
    let other = Routing::random(routing.idx.len(), MoeShape { tokens: spec.seg, hidden: 1, topk: spec.topk, experts: spec.experts }, RoutingKind::Hot, 99);
    if (0..routing.idx.len()).any(|r| expected_layout(&other.idx, spec, r) != expected_layout(&routing.idx, spec, r)) {
        assert!(!p.verify(&other.idx).unwrap(), "{what}: a stale layout must not verify");
    }
}

#[test]
fn layouts_match_the_reference_dispatch() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xa119);
    for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 8), (2, 2)] {
        let w = world(nodes, local);
        let ranks = nodes * local;
        for (i, kind) in [RoutingKind::Uniform, RoutingKind::Sparse, RoutingKind::Hot].into_iter().enumerate() {
            let experts = ranks * rng.random_range(1..4);
            let shape = MoeShape { tokens: rng.random_range(1..30), hidden: 1, topk: rng.random_range(1..=experts.min(6)), experts };
            let routing = Routing::random(ranks, shape, kind, 7 + i as u64);
            let what = format!("{} {shape:?} {kind:?}", w.topology());
            check(&w, AlignSpec::own(shape.tokens, shape.topk, experts, i == 1), &routing, &format!("own {what}"));
            check(&w, AlignSpec::gathered(ranks, shape.tokens, shape.topk, experts), &routing, &format!("gathered {what}"));
        }
    }
}

#[test]
fn one_hot_expert_takes_every_row() {
    let w = world(1, 4);
    let shape = MoeShape { tokens: 33, hidden: 1, topk: 1, experts: 8 };
    let routing = Routing { idx: vec![vec![5; 33]; 4], weights: vec![vec![1.0; 33]; 4] };
    check(&w, AlignSpec::gathered(4, shape.tokens, 1, 8), &routing, "hot gathered");
    check(&w, AlignSpec::own(shape.tokens, 1, 8, true), &routing, "hot own");
}

#[test]
fn bad_input_is_a_typed_error() {
    let w = world(1, 2);
    let spec = AlignSpec::own(3, 2, 4, false);
    let p = prepare_align(&w, spec, &align_constexprs(2)).unwrap();
    let err = |idx: &[i32]| p.write_idx(0, idx).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err(&[0, 1, 2]).contains("3 expert ids for 3 tokens of top-2"), "{}", err(&[0, 1, 2]));
    assert!(err(&[0, 1, 2, 2, 0, 1]).contains("token 1 picks expert 2 as choice 1"));
    assert!(err(&[0, 1, 4, 2, 0, 1]).contains("distinct experts in 0..4"));
    assert!(err(&[0, 1, -1, 2, 0, 1]).contains("picks expert -1"));
    let bad = |spec: AlignSpec, bk: usize| prepare_align(&w, spec, &align_constexprs(bk)).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(bad(AlignSpec::own(3, 4, 4, false), 2).contains("BLOCK_K=2 for top-4"));
    assert!(bad(AlignSpec::own(0, 2, 4, false), 2).contains("an empty layout"));
    assert!(bad(AlignSpec::own(3, 5, 4, false), 8).contains("top-5 of 4 experts"));
    assert!(bad(AlignSpec::gathered(2, 3, 2, 5), 2).contains("split evenly"));
    assert!(bad(AlignSpec::gathered(2, 3, 2, 1), 2).contains("an empty layout"));
}

#[test]
fn expert_gemms_read_the_same_layout_from_the_device_as_from_the_host() {
    use crate::{moe_gemm_constexprs, prepare_moe_gemm, MoeGemmShape};
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xa11a);
    for (nodes, local) in [(1, 1), (1, 3), (2, 2)] {
        let w = world(nodes, local);
        let ranks = nodes * local;
        let experts = ranks * rng.random_range(1..4);
        let shape = MoeGemmShape { tokens: rng.random_range(1..20), k: 8, n: 8, topk: rng.random_range(1..=experts.min(4)), experts };
        for (i, name) in ["moe_gemm", "ag_moe", "ag_moe_v", "moe_rs", "moe_rs_v"].into_iter().enumerate() {
            let what = format!("{name} {} {shape:?}", w.topology());
            let c = moe_gemm_constexprs(name, shape, ranks, "f32").with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 16);
            let mut p = prepare_moe_gemm(&w, name, shape, weft_runtime::DType::F32, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
            let kind = [RoutingKind::Uniform, RoutingKind::Sparse, RoutingKind::Hot][i % 3];
            let mut got = vec![];
            for host in [true, false] {
                p.set_host_layout(host).unwrap();
                p.seed(11, kind).unwrap();
                p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(p.verify().unwrap().0, "{what} host layout {host}");
                got.push(w.host_ranks().map(|r| p.layout_buffers(r).unwrap()).collect::<Vec<_>>());
            }
            assert_eq!(got[0], got[1], "{what}");
        }
    }
}
