//! `flash_decode` and its non-fused baseline `flash_decode_v` against plain softmax attention
//! in f64: world sizes 1 to 8, one and two nodes, every float dtype, grouped and plain
//! multi-head attention, and caches shorter than the world (ranks with no positions).

use crate::matmul_tests::{seeded_twice, world, DTYPES, TOPOLOGIES};
use crate::{decode_constexprs, prepare_decode, DecodeShape};
use rand::{Rng, SeedableRng};
use weft_runtime::DType;

fn check(w: &weft_runtime::World, shape: DecodeShape, dtype: DType) {
    check_with(w, shape, dtype, decode_constexprs(shape, dtype.name(), false));
}

/// Both kernels, two seeds each (the second launch reuses the signal words at a new epoch).
fn check_with(w: &weft_runtime::World, shape: DecodeShape, dtype: DType, c: weft_compiler::dsl::Constexprs) {
    for name in ["flash_decode", "flash_decode_v"] {
        let what = format!("{name} {} {shape:?} {dtype} {c:?}", w.topology());
        let mut p = prepare_decode(w, name, shape, dtype, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
        seeded_twice(&what, |seed| {
            p.seed(seed)?;
            let report = p.launch()?;
            Ok((report, p.verify()?))
        });
    }
}

#[test]
fn flash_decode_every_topology_every_dtype() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for &(nodes, local) in &TOPOLOGIES {
        let w = world(nodes, local);
        for dtype in DTYPES {
            let kv_heads = rng.random_range(1..4);
            let group = [1, 3, 4, 8][rng.random_range(0..4)];
            let shape = DecodeShape { batch: rng.random_range(1..3), heads: kv_heads * group, kv_heads, seq: rng.random_range(1..300), head_dim: [16, 24, 64][rng.random_range(0..3)] };
            check(&w, shape, dtype);
        }
    }
}

#[test]
fn flash_decode_with_fewer_positions_than_ranks() {
    // Ranks 0..=5 of 8 hold no position when the cache has 2 (segments split by floor).
    let w = world(1, 8);
    for seq in [1, 2, 7] {
        check(&w, DecodeShape { batch: 1, heads: 4, kv_heads: 2, seq, head_dim: 32 }, DType::F32);
    }
}

#[test]
fn flash_decode_split_over_programs_on_step_boundaries() {
    // More programs than KV heads split each rank's positions (split-K); splits start on a
    // step and a short last step is masked. Steps of 16 positions make several per rank.
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    for (nodes, local, programs) in [(1, 1, 5), (1, 3, 4), (2, 2, 3), (1, 8, 1)] {
        let w = world(nodes, local);
        let shape = DecodeShape { batch: 1, heads: 4, kv_heads: 2, seq: rng.random_range(40..400), head_dim: 24 };
        let c = decode_constexprs(shape, "f32", false).with("BLOCK_N", 16).with("PROGRAMS", programs);
        check_with(&w, shape, DType::F32, c);
    }
}

#[test]
fn bad_decode_requests_are_clear_errors() {
    let w = world(1, 2);
    let ok = DecodeShape { batch: 1, heads: 8, kv_heads: 2, seq: 16, head_dim: 32 };
    let err = |shape: DecodeShape, c: &weft_compiler::dsl::Constexprs| prepare_decode(&w, "flash_decode", shape, DType::F32, c).err().map(|e| e.to_string()).unwrap_or_default();
    let c = decode_constexprs(ok, "f32", false);
    assert!(err(DecodeShape { kv_heads: 3, ..ok }, &c).contains("must divide the query heads"));
    assert!(err(DecodeShape { seq: 0, ..ok }, &c).contains("empty problem"));
    assert!(err(DecodeShape { head_dim: 64, ..ok }, &c).contains("BLOCK_D=32"));
    assert!(prepare_decode(&w, "gemm", ok, DType::F32, &c).err().unwrap().to_string().contains("decoding shape"));
}
