//! Every library collective against its plain-math reference: world sizes 1 to 8, element
//! counts that do not divide evenly, every dtype, random content, repeated launches.

use weft::kernels::{default_constexprs, list, prepare, run_collective, RunOptions};
use weft::runtime::{DType, LocalOptions, Topology, World};

const DTYPES: [DType; 4] = [DType::F32, DType::F16, DType::BF16, DType::I32];

fn check(world: &World, name: &str, elems: usize, dtype: DType, seed: u64) {
    let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs(name, dtype.name()).unwrap(), seed };
    let r = run_collective(world, name, elems, dtype, &opts).unwrap_or_else(|e| panic!("{name} n={} elems={elems} {dtype}: {e}", world.n_ranks()));
    assert!(r.verified, "{name} ranks={} elems={elems} {dtype}: max error {}", world.n_ranks(), r.max_err);
    assert!(r.warnings.is_empty(), "{name}: unexpected warnings {:?}", r.warnings);
}

fn names() -> Vec<&'static str> {
    list().iter().filter(|k| k.collective.takes_elems()).map(|k| k.name).collect()
}

#[test]
fn every_collective_every_world_size_small_uneven() {
    for n in 1..=8 {
        let world = World::local(n).unwrap();
        for (i, name) in names().into_iter().enumerate() {
            for (j, elems) in [1usize, 7, 1000].into_iter().enumerate() {
                let dtype = DTYPES[(n + i + j) % DTYPES.len()];
                check(&world, name, elems, dtype, (n * 100 + i * 10 + j) as u64);
            }
        }
    }
}

#[test]
fn every_collective_every_dtype() {
    let world = World::local(3).unwrap();
    for name in names() {
        for dtype in DTYPES {
            check(&world, name, 777, dtype, 42);
        }
    }
}

#[test]
fn large_uneven_counts() {
    for (n, name, dtype) in [(8, "allgather", DType::BF16), (3, "allreduce", DType::F32), (5, "reduce_scatter", DType::F16), (4, "allgather_pull", DType::I32), (2, "allreduce_two_shot", DType::BF16)] {
        check(&World::local(n).unwrap(), name, 1000003, dtype, 7);
    }
}

#[test]
fn broadcast_from_every_root() {
    let world = World::local(5).unwrap();
    let c = default_constexprs("broadcast", "f32").unwrap();
    let mut p = prepare(&world, "broadcast", 1001, DType::F32, &c).unwrap();
    for root in 0..5 {
        p.seed(root as u64).unwrap();
        p.set_root(root).unwrap();
        let (ok, err) = p.verify_after_launch().unwrap();
        assert!(ok, "root {root}: max error {err}");
    }
    assert!(p.set_root(5).is_err());
    p.free();
}

#[test]
fn repeated_launches_reuse_buffers() {
    let world = World::local(4).unwrap();
    for name in ["allgather", "allgather_ll", "reduce_scatter", "allreduce_two_shot"] {
        let c = default_constexprs(name, "f32").unwrap();
        let mut p = prepare(&world, name, 333, DType::F32, &c).unwrap();
        for seed in 0..4 {
            p.seed(seed).unwrap();
            let (ok, err) = p.verify_after_launch().unwrap();
            assert!(ok, "{name} launch {seed}: max error {err}");
        }
        p.free();
    }
}

#[test]
fn node_topologies() {
    for topo in [Topology { nodes: 2, local_size: 2 }, Topology { nodes: 2, local_size: 4 }] {
        let world = World::local_with(LocalOptions { topology: topo, ..LocalOptions::from_env() }).unwrap();
        for name in ["allgather", "allreduce", "reduce_scatter", "allgather_ll"] {
            check(&world, name, 999, DType::F32, 3);
        }
        let err = prepare(&world, "allreduce_multimem", 16, DType::F32, &default_constexprs("allreduce_multimem", "f32").unwrap());
        assert!(err.is_err_and(|e| e.to_string().contains("one node")));
    }
}

#[test]
fn bad_requests_are_clear_errors() {
    let world = World::local(2).unwrap();
    let e = prepare(&world, "nope", 4, DType::F32, &Default::default()).err().unwrap().to_string();
    assert!(e.contains("unknown kernel `nope`") && e.contains("allgather"), "{e}");
    let c = default_constexprs("allgather", "f32").unwrap();
    assert!(prepare(&world, "allgather", 0, DType::F32, &c).is_err());
    assert!(prepare(&world, "allgather", 4, DType::I64, &c).is_err());
    let bad = c.clone().with("BLOCK", 1000);
    let e = prepare(&world, "allgather", 4, DType::F32, &bad).err().unwrap().to_string();
    assert!(e.contains("BLOCK"), "{e}");
}
