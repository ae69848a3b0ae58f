//! `allreduce_hier` against the plain-math sum on `local` worlds of every node grid up to 8
//! ranks (one node, one rank per node, both), random uneven counts, every reducing dtype, and
//! counts that give each rank's shard several program instances; repeated launches reuse the
//! buffers (the counterparts' rows alternate by epoch parity); some with the opening node
//! barrier that GPU code keeps (`HOST_ARRIVAL=0`).

use crate::{default_constexprs, run_collective, RunOptions};
use rand::{rngs::StdRng, Rng, SeedableRng};
use weft_runtime::{DType, LocalOptions, Topology, World};

/// Checks one run; `barrier` keeps the opening node barrier (GPU code's) on the CPU too.
fn check(nodes: usize, local: usize, elems: usize, dtype: DType, seed: u64, barrier: bool) {
    let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap();
    let what = format!("allreduce_hier {nodes}x{local} elems={elems} {dtype} barrier={barrier}");
    let mut c = default_constexprs("allreduce_hier", dtype.name()).unwrap();
    if barrier {
        c.set("HOST_ARRIVAL", 0);
    }
    let opts = RunOptions { iters: 3, warmup: 0, constexprs: c, seed };
    let r = run_collective(&world, "allreduce_hier", elems, dtype, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(r.verified, "{what}: max error {}", r.max_err);
}

#[test]
fn every_node_grid_to_8_ranks_random_counts_and_dtypes() {
    let mut rng = StdRng::seed_from_u64(15);
    let dtypes = [DType::F32, DType::F16, DType::BF16, DType::I32];
    let mut i = 0;
    for world in 1..=8usize {
        for local in (1..=world).filter(|l| world % l == 0) {
            // Fewer elements than ranks per node (empty shards), then a random uneven count.
            for elems in [rng.random_range(1..=local), rng.random_range(local + 1..5000)] {
                check(world / local, local, elems, dtypes[i % dtypes.len()], i as u64, i % 3 == 0);
                i += 1;
            }
        }
    }
}

#[test]
fn several_program_instances_per_shard() {
    // Above 64 Ki elements the grid has 2 to 4 instances, each with its own slice of the shard
    // and its own signal words.
    for (i, (nodes, local, elems, dtype)) in [(2, 2, 300_007, DType::F32), (2, 4, 150_001, DType::BF16), (4, 2, 262_147, DType::F16), (3, 1, 70_001, DType::F32)].into_iter().enumerate() {
        check(nodes, local, elems, dtype, elems as u64, i % 2 == 1);
    }
}
