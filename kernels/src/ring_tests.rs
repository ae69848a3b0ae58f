//! The pipelined ring kernels against plain math: world sizes 1 to 8 and two nodes, every
//! dtype, counts that divide by neither the ranks nor the chunks, chunks small enough that
//! the receive slots wrap many times (so a sender waits for credits), several launches in a
//! row on the same buffers, a clean exit, and the race detector.

use crate::{default_constexprs, prepare, KernelError};
use weft_runtime::{DType, LaunchWarning, LocalOptions, Topology, World};

const RING: [&str; 4] = ["allreduce_ring", "allreduce_ring_bidir", "reduce_scatter_bidir", "allgather_bidir"];

/// Three launches of `name` on the same buffers, fresh random inputs each, all checked; with
/// `chunk` the largest chunk (`CHUNK`) is forced that small, and `set` overrides constexprs.
/// Asserts no unfinished work; an unobserved signal only on a world of one worker (`strict`:
/// several workers can misreport one, see `tests::check`).
fn check_set(world: &World, name: &str, elems: usize, dtype: DType, chunk: Option<usize>, set: &[(&str, i64)], strict: bool) {
    let what = format!("{name} {} elems={elems} {dtype} chunk={chunk:?} {set:?}", world.topology());
    let mut c = default_constexprs(name, dtype.name()).unwrap();
    if let Some(ch) = chunk {
        c.set("CHUNK", ch);
    }
    for (k, v) in set {
        c.set(k, v);
    }
    let mut p = prepare(world, name, elems, dtype, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
    for launch in 0..3 {
        p.seed(elems as u64 * 31 + launch).unwrap();
        let r = p.launch_report().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what} launch {launch}: max error {err}");
        let real: Vec<_> = r.warnings.iter().filter(|w| strict || !matches!(w, LaunchWarning::UnobservedSignal { .. })).collect();
        assert!(real.is_empty(), "{what} launch {launch}: unfinished work {real:?}");
    }
}

fn check_with(world: &World, name: &str, elems: usize, dtype: DType, chunk: Option<usize>, strict: bool) {
    check_set(world, name, elems, dtype, chunk, &[], strict)
}

fn check(world: &World, name: &str, elems: usize, dtype: DType, chunk: Option<usize>) {
    check_with(world, name, elems, dtype, chunk, false)
}

#[test]
fn ring_kernels_every_world_size_and_dtype_uneven_counts() {
    for ranks in 1..=8 {
        let world = World::local(ranks).unwrap();
        for (i, name) in RING.into_iter().enumerate() {
            for (j, dtype) in [DType::F32, DType::F16, DType::BF16, DType::I32].into_iter().enumerate() {
                // Default chunks, then chunks of 16 and 7 elements (slots wrap, credits wait).
                for (elems, chunk) in [(1, None), (37, Some(7)), (999, Some(16)), (1003, None)] {
                    if (i + j + elems) % 2 == 0 || dtype == DType::F32 {
                        check(&world, name, elems, dtype, chunk);
                    }
                }
            }
        }
    }
}

/// `P2P=0` on one node: the put path (step 0 puts the input, partials staged and put), which
/// GPU code and multi-node worlds take, checked on CPU too. One worker as well, so the
/// credits are waited for.
#[test]
fn the_put_path_forced_on_one_node_every_world_size() {
    for ranks in 1..=8 {
        for workers in [1, 2] {
            let world = World::local_with(LocalOptions { topology: Topology::single_node(ranks), workers, ..LocalOptions::from_env() }).unwrap();
            for name in RING.into_iter().filter(|n| *n != "allgather_bidir") {
                for (k, (elems, chunk)) in [(1, None), (37, Some(7)), (1003, Some(16)), (4099, None)].into_iter().enumerate() {
                    let dtype = [DType::F32, DType::BF16, DType::F16, DType::I32][(ranks + k) % 4];
                    check_set(&world, name, elems, dtype, chunk, &[("P2P", 0)], workers == 1);
                }
            }
        }
    }
}

#[test]
fn ring_kernels_on_two_nodes_and_several_program_instances() {
    for (nodes, local) in [(2, 2), (2, 4)] {
        let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap();
        for name in RING {
            check(&world, name, 1003, DType::BF16, Some(16));
        }
    }
    // 300007 elements: several default-size chunks per step; 4 program instances for the
    // ReduceScatter and AllGather (the AllReduce rings run one on the CPU, see `ring_programs`).
    let world = World::local(3).unwrap();
    for name in RING {
        check(&world, name, 300007, DType::F32, None);
    }
}

#[test]
fn every_credit_is_waited_for_on_one_worker() {
    for ranks in [2, 5] {
        let world = World::local_with(LocalOptions { topology: Topology::single_node(ranks), workers: 1, ..LocalOptions::from_env() }).unwrap();
        for name in RING {
            check_with(&world, name, 1003, DType::F32, Some(16), true);
        }
    }
}

#[test]
fn ring_kernels_are_race_free_with_wrapping_slots() {
    let opts = LocalOptions { topology: Topology::single_node(4), racecheck: true, ..LocalOptions::from_env() };
    let world = World::local_with(opts).unwrap();
    for name in RING {
        check(&world, name, 5003, DType::F32, Some(64));
        check(&world, name, 999, DType::BF16, Some(16));
    }
}

#[test]
fn a_bad_chunk_is_a_clear_error() {
    let world = World::local(2).unwrap();
    for bad in ["0", "-3", "big"] {
        let c = default_constexprs("allreduce_ring", "f32").unwrap().with("CHUNK", bad);
        let e = prepare(&world, "allreduce_ring", 100, DType::F32, &c).err().expect("rejected");
        assert!(matches!(e, KernelError::Unsupported { .. }) && e.to_string().contains("CHUNK"), "{e}");
    }
}
