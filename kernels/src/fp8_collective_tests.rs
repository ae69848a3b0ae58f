//! FP8 buffers in the library: data-movement collectives carry `f8e4m3` / `f8e5m2` bit for bit
//! (every finite code, both zeros), reductions refuse FP8 with a typed error, and arithmetic on
//! FP8 tiles is a typed DSL error naming the op.

use crate::{default_constexprs, list, prepare, run_collective, Collective, KernelError, RunOptions};
use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;
use weft_runtime::{DType, Topology, LocalOptions, World};

const FP8: [DType; 2] = [DType::F8E4M3, DType::F8E5M2];

fn moves(c: Collective) -> bool {
    matches!(c, Collective::AllGather | Collective::Broadcast)
}

#[test]
fn data_movement_collectives_carry_fp8_bit_for_bit() {
    let worlds = (1..=8).map(|r| (1, r)).chain([(2, 2), (2, 3)]);
    for (i, (nodes, local)) in worlds.enumerate() {
        let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::default() }).unwrap();
        for k in list().iter().filter(|k| k.collective.takes_elems() && moves(k.collective)) {
            for (j, dtype) in FP8.into_iter().enumerate() {
                // Counts that end shards mid-word (four codes per 32-bit word) and span programs.
                for elems in [1, 3, 7, 1001, 70001] {
                    let what = format!("{} {} elems={elems} {dtype}", k.name, world.topology());
                    let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs(k.name, dtype.name()).unwrap(), seed: (i * 10 + j) as u64 };
                    let r = run_collective(&world, k.name, elems, dtype, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert!(r.verified && r.max_err == 0.0, "{what}: max error {}", r.max_err);
                }
            }
        }
    }
}

#[test]
fn reductions_refuse_fp8_and_fp8_arithmetic_is_a_typed_error() {
    let world = World::local(2).unwrap();
    for k in list().iter().filter(|k| k.collective.takes_elems() && !moves(k.collective)) {
        let e = prepare(&world, k.name, 64, DType::F8E4M3, &default_constexprs(k.name, "f8e4m3").unwrap()).err().unwrap();
        assert!(matches!(&e, KernelError::Unsupported { what, .. } if what.contains("f8e4m3 in a reduction")), "{}: {e}", k.name);
    }
    let arith = |f: fn(Val) -> Val| {
        kernel("fp8_arith", &Constexprs::new(), |a| {
            let p = a.ptr("p", Scalar::F8E4M3FN);
            let v = load(p + arange(0, 16));
            store(p + arange(0, 16), f(v));
            Ok(())
        })
        .err()
        .unwrap()
        .to_string()
    };
    let cases: [(fn(Val) -> Val, &str); 6] =
        [(|v| v + v, "arith.binary"), (|v| v * 2.0f64, "arith.binary"), (exp, "math.exp"), (|v| -v, "arith.negf"), (|v| select(v.gt(0.0f64), v, v), "arith.cmp"), (|v| sum(v, 0), "tile.reduce")];
    for (f, op) in cases {
        let e = arith(f);
        assert!(e.contains(op) && e.contains("f8E4M3FN") && e.contains("cast it to f32"), "{op}: {e}");
    }
    // Moving, selecting and converting are fine.
    assert!(kernel("fp8_ok", &Constexprs::new(), |a| {
        let (p, q) = (a.ptr("p", Scalar::F8E5M2), a.ptr("q", Scalar::F32));
        let v = load(p + arange(0, 16));
        let w = select(load(q + arange(0, 16)).gt(0.0f64), v, 0.0f64);
        store(p + arange(0, 16), w);
        store(q + arange(0, 16), cast(w, Scalar::F32) * 2.0f64);
        Ok(())
    })
    .is_ok());
}
