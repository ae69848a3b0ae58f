//! `ep_dispatch_fp8` against the plain-Rust quantize -> dequantize of every token
//! ([`crate::fp8::check_dequantized`]) and the plain-math dispatch layout, world sizes 1 to 8
//! and two nodes, f32/f16/bf16, uniform/sparse/hot routings, two launches in a row.

use crate::matmul_tests::{world, DTYPES};
use crate::moe_tests::check;
use crate::{moe_constexprs, prepare_moe, MoeShape, RoutingKind};
use rand::{Rng, SeedableRng};

#[test]
fn fp8_dispatch_every_topology_every_dtype() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xf8d);
    let kinds = [RoutingKind::Uniform, RoutingKind::Sparse, RoutingKind::Hot];
    for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 4), (1, 8), (2, 2)] {
        let w = world(nodes, local);
        let ranks = nodes * local;
        for (i, dtype) in DTYPES.into_iter().enumerate() {
            let experts = ranks * rng.random_range(1..4);
            // Hidden sizes of whole groups, a partial group, and under one group.
            let hidden = 4 * [rng.random_range(1..20), 32, 32 + rng.random_range(1..40)][i];
            let shape = MoeShape { tokens: rng.random_range(1..20), hidden, topk: rng.random_range(1..=experts.min(5)), experts };
            check(&w, "ep_dispatch_fp8", shape, dtype, [kinds[i], kinds[(i + 1) % 3]]);
        }
    }
}

#[test]
fn fp8_dispatch_rejects_a_token_of_partial_words() {
    let w = world(1, 2);
    let shape = MoeShape { tokens: 3, hidden: 6, topk: 2, experts: 4 };
    let err = prepare_moe(&w, "ep_dispatch_fp8", shape, weft_runtime::DType::BF16, &moe_constexprs(shape, "bf16")).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("hidden must be a multiple of 4"), "{err}");
}
