//! Every library collective against its plain-math reference on the `local` transport: world
//! sizes 1 to 8, element counts that do not divide evenly, every dtype, random content,
//! repeated launches on the same buffers, and the errors a caller can provoke. (Unit tests,
//! so the crate links no extra MLIR-sized test binary.)

use crate::{allgather_choice, allreduce_choice, build, default_constexprs, list, prepare, run_collective, Collective, KernelError, RunOptions, CPU_HIER_ANY_NODES_MAX_BYTES, LL_MESH_MAX_BYTES};
use weft_runtime::{DType, LaunchWarning, LocalOptions, Topology, World};

const DTYPES: [DType; 4] = [DType::F32, DType::F16, DType::BF16, DType::I32];

/// Runs `name` twice on fresh random data and asserts the result and a clean exit.
fn check(world: &World, name: &str, elems: usize, dtype: DType, seed: u64) {
    let what = format!("{name} ranks={} elems={elems} {dtype}", world.n_ranks());
    let opts = RunOptions { iters: 2, warmup: 0, constexprs: default_constexprs(name, dtype.name()).unwrap(), seed };
    let r = run_collective(world, name, elems, dtype, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(r.verified, "{what}: max error {}", r.max_err);
    // With several worker threads the runtime can report a signal as unobserved when its
    // waiter reads the value before the setter records it (a race in the runtime's
    // tracking), so that warning is checked on a single worker, in `no_unfinished_work`.
    let real: Vec<_> = r.warnings.iter().filter(|w| !matches!(w, LaunchWarning::UnobservedSignal { .. })).collect();
    assert!(real.is_empty(), "{what}: unfinished work {real:?}");
}

/// The collectives (the GEMM family is tested in `matmul_tests`).
fn names() -> impl Iterator<Item = &'static str> {
    list().iter().filter(|k| k.collective.takes_elems()).map(|k| k.name)
}

#[test]
fn every_kernel_every_world_size_every_dtype_small_counts() {
    for ranks in 1..=8 {
        let world = World::local(ranks).unwrap();
        for name in names() {
            for dtype in DTYPES {
                for elems in [1, 7] {
                    check(&world, name, elems, dtype, (ranks * 1000 + elems) as u64);
                }
            }
        }
    }
}

#[test]
fn mid_size_counts_span_several_program_instances() {
    // 300007 elements give 4 program instances (and several tiles each) on every kernel.
    let world = World::local(3).unwrap();
    for (i, name) in names().enumerate() {
        check(&world, name, 300007, DTYPES[i % DTYPES.len()], i as u64);
    }
}

#[test]
fn large_uneven_counts() {
    let cases = [
        (8, "allgather", DType::BF16),
        (4, "reduce_scatter", DType::F16),
        (3, "allreduce_two_shot", DType::F32),
        (2, "allgather_ll", DType::F16),
        (4, "allreduce_multimem", DType::BF16),
    ];
    for (ranks, name, dtype) in cases {
        check(&World::local(ranks).unwrap(), name, 1000003, dtype, 11);
    }
}

#[test]
fn ll_shards_of_whole_and_partial_words() {
    // 16-bit shards of odd length end mid-word and go through the staging buffer; even ones
    // unpack in place. Both on one world, so the LL buffer is reused across them.
    let world = World::local(3).unwrap();
    for elems in [1, 2, 3, 8, 9, 1000, 1001] {
        for dtype in [DType::F16, DType::BF16] {
            check(&world, "allgather_ll", elems, dtype, elems as u64);
        }
    }
}

#[test]
fn no_unfinished_work() {
    for ranks in [1, 2, 5] {
        let opts = LocalOptions { topology: Topology::single_node(ranks), workers: 1, ..LocalOptions::from_env() };
        let world = World::local_with(opts).unwrap();
        for name in names() {
            let opts = RunOptions { iters: 3, warmup: 0, constexprs: default_constexprs(name, "f32").unwrap(), seed: 9 };
            let r = run_collective(&world, name, 3001, DType::F32, &opts).unwrap();
            assert!(r.verified && r.warnings.is_empty(), "{name} ranks={ranks}: {:?}", r.warnings);
        }
    }
}

#[test]
fn repeated_launches_reuse_buffers_without_clearing() {
    let world = World::local(4).unwrap();
    for name in names() {
        for dtype in [DType::F16, DType::I32] {
            let c = default_constexprs(name, dtype.name()).unwrap();
            let mut p = prepare(&world, name, 1001, dtype, &c).unwrap();
            for seed in 0..3 {
                p.seed(seed).unwrap();
                let (ok, err) = p.verify_after_launch().unwrap();
                assert!(ok, "{name} {dtype} launch {seed}: max error {err}");
            }
        }
    }
}

#[test]
fn broadcast_from_every_root() {
    let world = World::local(5).unwrap();
    let mut p = prepare(&world, "broadcast", 1001, DType::BF16, &default_constexprs("broadcast", "bf16").unwrap()).unwrap();
    for root in [0, 4, 2, 2, 1, 3] {
        p.seed(root as u64 + 100).unwrap();
        p.set_root(root).unwrap();
        let (ok, err) = p.verify_after_launch().unwrap();
        assert!(ok, "root {root}: max error {err}");
    }
    assert!(p.set_root(5).is_err());
}

#[test]
fn multi_node_topologies() {
    for topo in [Topology { nodes: 2, local_size: 2 }, Topology { nodes: 4, local_size: 2 }] {
        let world = World::local_with(LocalOptions { topology: topo, ..LocalOptions::from_env() }).unwrap();
        for name in names().filter(|&n| n != "allreduce_multimem") {
            check(&world, name, 999, DType::F32, 3);
        }
        let c = default_constexprs("allreduce_multimem", "f32").unwrap();
        let e = prepare(&world, "allreduce_multimem", 16, DType::F32, &c).err().expect("multimem needs one node");
        assert!(e.to_string().contains("one node"), "{e}");
    }
    let node = Topology { nodes: 1, local_size: 4 };
    let world = World::local_with(LocalOptions { topology: node, ..LocalOptions::from_env() }).unwrap();
    check(&world, "allreduce_multimem", 999, DType::F16, 5);
}

#[test]
fn registry_lists_and_builds_every_kernel() {
    let all: Vec<_> = names().collect();
    assert_eq!(all[0], "allgather", "the push ring is the default");
    for want in ["allgather_pull", "allgather_ll", "reduce_scatter", "allreduce", "allreduce_one_shot", "allreduce_two_shot", "allreduce_multimem", "broadcast"] {
        assert!(all.contains(&want), "{want} missing from {all:?}");
    }
    for k in list() {
        assert!(!k.about.is_empty());
        let expect = if k.name.starts_with("allgather") {
            Collective::AllGather
        } else if k.name.starts_with("allreduce") {
            Collective::AllReduce
        } else if k.name.starts_with("reduce_scatter") {
            Collective::ReduceScatter
        } else if k.name == "broadcast" {
            Collective::Broadcast
        } else {
            [Collective::Gemm, Collective::AllGatherGemm, Collective::GemmReduceScatter, Collective::GemmAllReduce, Collective::FlashDecode, Collective::ExpertDispatch, Collective::ExpertCombine, Collective::GroupedGemm, Collective::AllGatherMoe, Collective::MoeReduceScatter, Collective::MoeAlign]
                .into_iter()
                .find(|c| c.name() == k.name.trim_end_matches("_ce").trim_end_matches("_ps").trim_end_matches("_v").trim_end_matches("_fp8"))
                .expect("a GEMM kernel or flash_decode")
        };
        assert_eq!(k.collective, expect, "{}", k.name);
        // The GEMM family and flash_decode take float types only.
        let dtypes = if expect.takes_elems() { &DTYPES[..] } else { &DTYPES[..3] };
        for &dtype in dtypes {
            let kernel = build(k.name, &default_constexprs(k.name, dtype.name()).unwrap()).unwrap();
            assert!(!kernel.params.is_empty(), "{}", k.name);
        }
    }
}

#[test]
fn bad_requests_are_clear_errors() {
    let world = World::local(2).unwrap();
    let c = default_constexprs("allgather", "f32").unwrap();
    let e = prepare(&world, "nope", 4, DType::F32, &c).err().unwrap().to_string();
    assert!(e.contains("unknown kernel `nope`") && e.contains("allgather_ll") && e.contains("broadcast"), "{e}");
    assert!(default_constexprs("nope", "f32").is_err());
    let e = prepare(&world, "allgather", 0, DType::F32, &c).err().unwrap().to_string();
    assert!(e.contains("zero elements"), "{e}");
    let e = prepare(&world, "allgather", usize::MAX / 2, DType::F32, &c).err().unwrap();
    assert!(matches!(e, KernelError::TooLarge { .. }), "{e}");
    let e = prepare(&world, "allreduce", 1 << 40, DType::F32, &c).err().unwrap().to_string();
    assert!(e.contains("heap"), "{e}");
    let e = prepare(&world, "allgather", 4, DType::I64, &c).err().unwrap().to_string();
    assert!(e.contains("i64"), "{e}");
    let e = build("allgather", &c.clone().with("BLOCK", 1000)).err().unwrap().to_string();
    assert!(e.contains("BLOCK"), "{e}");
    let e = build("reduce_scatter", &c.clone().with("T", "f64")).err().unwrap().to_string();
    assert!(e.contains("f64"), "{e}");
    // A failed prepare frees what it allocated: the heap still takes a full-size request.
    check(&world, "allreduce", 1 << 16, DType::F32, 1);
}

#[test]
fn node_grid_ll_collectives_uneven_counts() {
    // Every grid shape: one node (node stores / multimem only), one rank per node (LL puts
    // only), both; odd counts of 16-bit types end shards mid-word (the LL mesh AllReduce's
    // rows are word-padded instead). `allgather` and CPU `allreduce` across nodes are the
    // library's choice (the LL mesh AllGather up to its limit, the ring above; `allreduce_hier`).
    let cases = [((1, 3), 7, DType::F16), ((3, 1), 1001, DType::F32), ((2, 2), 999, DType::BF16), ((2, 4), 333, DType::I32), ((4, 2), 65, DType::F16), ((2, 2), 70_001, DType::F32)];
    for (i, ((nodes, local), elems, dtype)) in cases.into_iter().enumerate() {
        let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap();
        for name in ["allgather_2d", "allgather_ll_mesh", "allgather", "allreduce_ll_mesh", "allreduce_hier"] {
            check(&world, name, elems, dtype, 40 + i as u64);
        }
    }
    assert_eq!((allgather_choice(2, 4096), allgather_choice(1, 4096), allgather_choice(2, LL_MESH_MAX_BYTES + 1)), ("allgather_ll_mesh", "allgather", "allgather"));
    let two = Topology { nodes: 2, local_size: 2 };
    let (four, any) = (Topology { nodes: 4, local_size: 1 }, CPU_HIER_ANY_NODES_MAX_BYTES);
    assert_eq!((allreduce_choice(two, 4096, false), allreduce_choice(two, 64 << 20, false), allreduce_choice(two, 4096, true)), ("allreduce_hier", "allreduce_hier", "allreduce_ring"));
    assert_eq!((allreduce_choice(four, any, false), allreduce_choice(four, any + 1, false)), ("allreduce_hier", "allreduce_ring"));
}

/// `allreduce_hier`'s CPU tile is 64 on one node and 256 across nodes when nobody set it: as a
/// default, as `allreduce`'s choice (a caller's tile still wins) and as the tuner's default.
#[test]
fn allreduce_hier_tile_follows_the_topology() {
    use crate::tune::{space::default_config, Problem, Shape};
    use weft_compiler::pipeline::Target;
    let (one, two) = (Topology { nodes: 1, local_size: 4 }, Topology { nodes: 2, local_size: 2 });
    let tile = |c: &weft_compiler::dsl::Constexprs| c.get("BLOCK").map(str::to_string);
    let by_topology = |t| tile(&crate::topology_constexprs("allreduce_hier", "f32", Target::Cpu, t).unwrap());
    assert_eq!((by_topology(one), by_topology(two)), (Some("64".into()), Some("256".into())));
    let gpu = crate::topology_constexprs("allreduce_hier", "f32", Target::parse("sm_90a").unwrap(), one).unwrap();
    assert_eq!(tile(&gpu), tile(&crate::target_constexprs("allreduce_hier", "f32", Target::parse("sm_90a").unwrap()).unwrap()));
    for (topo, want) in [(one, "64"), (two, "256")] {
        let world = World::local_with(LocalOptions { topology: topo, ..LocalOptions::from_env() }).unwrap();
        let auto = default_constexprs("allreduce", "f32").unwrap();
        let chosen = crate::run::rebase(&auto, "allreduce", "allreduce_hier", DType::F32, &world).unwrap();
        assert_eq!(tile(&chosen).as_deref(), Some(want), "{topo}");
        let own = crate::run::rebase(&auto.clone().with("BLOCK", 512), "allreduce", "allreduce_hier", DType::F32, &world).unwrap();
        assert_eq!(tile(&own).as_deref(), Some("512"), "{topo}: the caller's tile");
        let problem = Problem { op: "allreduce".into(), shape: Shape::Elems(4 << 20), dtype: DType::F32 };
        let d = default_config(&problem, topo, Target::Cpu).unwrap();
        assert_eq!((d.algorithm.as_str(), d.constexprs("f32").get("BLOCK")), ("allreduce_hier", Some(want)), "{topo}");
    }
}
