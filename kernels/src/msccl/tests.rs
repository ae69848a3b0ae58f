//! MSCCL algorithms lowered to one kernel and run on the `local` transport, checked against
//! the collective's plain math: every built-in, every protocol, instances 1 and 2, uneven
//! sizes, small slots (many pipeline iterations, slot reuse), every dtype, imported XML,
//! selection with fallback, and the errors a caller can provoke.

use super::*;
use weft_compiler::msccl::algorithms::{self, AlgoParams, BUILTINS};
use weft_compiler::msccl::{xml, CollectiveKind, Protocol, SelectionTable};
use weft_runtime::{LocalOptions, RuntimeError, Topology};

fn world(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap()
}

fn builtin(name: &str, nodes: usize, local: usize, instances: usize, protocol: Protocol) -> MscclIr {
    let params = AlgoParams { ranks: nodes * local, nodes, instances, protocol };
    algorithms::build(name, &params).and_then(|a| a.to_ir()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `ir` on `world` three times with different data on the same buffers (signals and
/// slots carry over between launches), and asserts every result.
fn check(world: &World, ir: &MscclIr, elems: usize, opts: &MscclOptions) {
    let what = format!("{} {} ranks={} elems={elems} {} slot={:?}", ir.name, ir.protocol, ir.ngpus(), opts.dtype, opts.slot_bytes);
    let mut p = prepare_msccl(world, ir, elems, opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    for seed in [1, 2, 3] {
        let (ok, err) = p.verify_after_launch(seed).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(ok, "{what}: wrong result (max error {err})");
    }
}

fn opts(dtype: DType, slot_bytes: Option<usize>) -> MscclOptions {
    MscclOptions { dtype, slot_bytes, ..MscclOptions::default() }
}

/// Topology a built-in runs on in the matrix: hierarchical ones on 2 nodes.
fn topology_for(name: &str, ranks: usize) -> (usize, usize) {
    let hierarchical = algorithms::lookup(name).unwrap().hierarchical;
    if hierarchical { (2, ranks / 2) } else { (1, ranks) }
}

/// Every built-in, every protocol, instances 1 and 2, on `ranks` ranks.
fn builtin_matrix(ranks: usize, elems: usize) {
    for b in BUILTINS {
        let (nodes, local) = topology_for(b.name, ranks);
        let w = world(nodes, local);
        for protocol in Protocol::ALL {
            for instances in [1, 2] {
                let ir = builtin(b.name, nodes, local, instances, protocol);
                // Small slots: several pipeline iterations per chunk, so slots are reused.
                check(&w, &ir, elems, &opts(DType::F32, Some(512)));
            }
        }
    }
}

#[test]
fn every_builtin_every_protocol_instances_1_and_2_on_4_ranks() {
    builtin_matrix(4, 1237);
}

#[test]
fn every_builtin_every_protocol_instances_1_and_2_on_8_ranks() {
    builtin_matrix(8, 4099);
}

#[test]
fn every_builtin_every_protocol_instances_1_and_2_on_16_ranks() {
    builtin_matrix(16, 16 * 257 + 5);
}

#[test]
fn small_algorithms_get_code_per_shape_and_large_ones_the_step_loop() {
    use weft_compiler::msccl::lower::{lower, LowerOptions};
    let small = lower(&builtin("ring_allreduce", 1, 2, 1, Protocol::Simple), &LowerOptions::default()).unwrap();
    let large = lower(&builtin("ring_allreduce", 1, 16, 2, Protocol::LL), &LowerOptions::default()).unwrap();
    assert!(!small.layout.generic && large.layout.generic);
    // Both paths compute the same thing: the matrix tests run each; here the same algorithm on both.
    let w = world(1, 16);
    check(&w, &builtin("ring_allreduce", 1, 16, 2, Protocol::LL), 999, &opts(DType::BF16, Some(256)));
}

#[test]
fn world_sizes_1_to_8_uneven_counts() {
    for ranks in 1..=8 {
        let w = world(1, ranks);
        for name in ["ring_allreduce", "allgather_ring", "allgather_direct", "alltoall_direct", "reduce_scatter_ring"] {
            let ir = builtin(name, 1, ranks, 1, Protocol::Simple);
            for elems in [1, 7, 1000] {
                check(&w, &ir, elems, &opts(DType::F32, Some(1024)));
            }
        }
    }
}

#[test]
fn every_dtype_every_protocol() {
    let w = world(1, 3);
    for protocol in Protocol::ALL {
        for name in ["ring_allreduce", "allgather_ring", "reduce_scatter_ring"] {
            let ir = builtin(name, 1, 3, 1, protocol);
            for dtype in [DType::F16, DType::BF16, DType::I32] {
                check(&w, &ir, 2 * 3 * 37 + 5, &opts(dtype, Some(256)));
            }
        }
    }
}

#[test]
fn ring_allreduce_8_ranks_1000003_elements_every_protocol() {
    let w = world(1, 8);
    for protocol in Protocol::ALL {
        check(&w, &builtin("ring_allreduce", 1, 8, 1, protocol), 1_000_003, &opts(DType::F32, None));
    }
}

#[test]
fn hierarchical_allreduce_2x4_every_protocol() {
    let w = world(2, 4);
    for protocol in Protocol::ALL {
        for instances in [1, 2] {
            check(&w, &builtin("hierarchical_allreduce", 2, 4, instances, protocol), 100_003, &opts(DType::F32, Some(16 << 10)));
        }
    }
}

#[test]
fn two_step_alltoall_on_2x4() {
    let w = world(2, 4);
    for protocol in Protocol::ALL {
        check(&w, &builtin("alltoall_two_step", 2, 4, 1, protocol), 8 * 1001 + 3, &opts(DType::BF16, Some(2048)));
    }
}

/// An AllGather ring for 3 ranks in msccl-tools' layout: out-of-place, one channel, `nop`
/// steps carrying the copy's dependency.
fn allgather_xml() -> String {
    let mut s = String::from(
        "<algo name=\"allgather_ring_3\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"3\" ngpus=\"3\" coll=\"allgather\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n",
    );
    for r in 0..3 {
        let (next, prev) = ((r + 1) % 3, (r + 2) % 3);
        s += &format!("  <gpu id=\"{r}\" i_chunks=\"1\" o_chunks=\"3\" s_chunks=\"0\">\n");
        s += &format!("    <tb id=\"0\" send=\"{next}\" recv=\"{prev}\" chan=\"0\">\n");
        s += &format!("      <step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"{r}\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n");
        s += &format!("      <step s=\"1\" type=\"rcs\" srcbuf=\"o\" srcoff=\"{prev}\" dstbuf=\"o\" dstoff=\"{prev}\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n");
        let last = (r + 1) % 3;
        s += &format!("      <step s=\"2\" type=\"r\" srcbuf=\"o\" srcoff=\"{last}\" dstbuf=\"o\" dstoff=\"{last}\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n");
        s += "    </tb>\n";
        s += "    <tb id=\"1\" send=\"-1\" recv=\"-1\" chan=\"0\">\n";
        s += &format!("      <step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"{r}\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n");
        s += "    </tb>\n  </gpu>\n";
    }
    s + "</algo>\n"
}

#[test]
fn xml_in_msccl_tools_format_imports_runs_and_verifies() {
    let ir = xml::from_xml(&allgather_xml()).expect("imports");
    weft_compiler::msccl::verify_ir(&ir, &ir.inferred_collective().unwrap()).expect("verifies symbolically");
    let w = world(1, 3);
    check(&w, &ir, 1001, &opts(DType::F16, Some(512)));
    // And a built-in exported to XML and read back runs the same.
    let ring = xml::from_xml(&xml::to_xml(&builtin("ring_allreduce", 1, 3, 2, Protocol::LL))).unwrap();
    check(&w, &ring, 999, &opts(DType::F32, Some(1024)));
}

#[test]
fn the_same_kernel_serves_every_size() {
    let w = world(1, 4);
    let ir = builtin("ring_allreduce", 1, 4, 1, Protocol::LL128);
    for elems in [5, 4096, 70_001] {
        check(&w, &ir, elems, &opts(DType::F32, None));
    }
}

#[test]
fn selection_uses_the_registered_range_and_falls_back_outside_it() {
    let w = world(1, 4);
    let mut table = SelectionTable::new();
    table.register(CollectiveKind::AllReduce, 64 << 10, None, "ring_allreduce").unwrap();
    let o = opts(DType::F32, None);
    let mut small = prepare_selected(&w, &table, CollectiveKind::AllReduce, 1000, &o).unwrap();
    assert_eq!(small.name(), "library:allreduce");
    let mut large = prepare_selected(&w, &table, CollectiveKind::AllReduce, 100_000, &o).unwrap();
    assert!(matches!(large, Selected::Msccl(_)), "{}", large.name());
    for s in [&mut small, &mut large] {
        let (ok, err) = s.verify_after_launch(3).unwrap();
        assert!(ok, "{}: max error {err}", s.name());
    }
    let e = prepare_selected(&w, &table, CollectiveKind::AllToAll, 1000, &o).err().expect("no kernel for alltoall");
    assert!(e.to_string().contains("no MSCCL algorithm is registered"), "{e}");
}

#[test]
fn bad_requests_are_errors() {
    let ir = builtin("ring_allreduce", 1, 4, 1, Protocol::Simple);
    let e = prepare_msccl(&world(1, 3), &ir, 100, &MscclOptions::default()).err().unwrap();
    assert!(e.to_string().contains("3 ranks (it is written for 4)"), "{e}");
    let e = prepare_msccl(&world(1, 4), &ir, 0, &MscclOptions::default()).err().unwrap();
    assert!(e.to_string().contains("0 elements"), "{e}");
    let e = prepare_msccl(&world(1, 4), &ir, 100, &opts(DType::F32, Some(4))).err().unwrap();
    assert!(e.to_string().contains("slot cannot carry"), "{e}");
    let e = prepare_msccl(&world(1, 4), &ir, 100, &opts(DType::I64, None)).err().unwrap();
    assert!(e.to_string().contains("dtype"), "{e}");
}

#[test]
fn an_unverified_deadlocking_algorithm_is_reported_not_hung() {
    // Both ranks receive before they send: the kernel must end with a deadlock report.
    let mut ir = xml::from_xml(&allgather_xml()).unwrap();
    for g in &mut ir.gpus {
        g.tbs[0].steps.rotate_left(1);
    }
    let e = prepare_msccl(&world(1, 3), &ir, 64, &MscclOptions::default()).and_then(|mut p| p.verify_after_launch(1)).err().expect("deadlocks");
    let KernelError::Runtime(r) = &e else { panic!("expected a runtime deadlock report, got {e}") };
    assert!(matches!(**r, RuntimeError::Deadlock(_)), "{r}");
    let text = r.to_string();
    assert!(text.contains("rank") && text.contains("signal_wait_until"), "{text}");
}

#[test]
fn a_launch_leaves_no_unfinished_work() {
    // One worker: the runtime's signal tracking is exact there (see the library's tests).
    let w = World::local_with(LocalOptions { workers: 1, ..LocalOptions { topology: Topology::single_node(4), ..LocalOptions::from_env() } }).unwrap();
    for protocol in Protocol::ALL {
        let ir = builtin("ring_allreduce", 1, 4, 2, protocol);
        let r = run_msccl(&w, &ir, 5000, &opts(DType::F32, Some(1024)), 1).unwrap();
        assert!(r.verified, "{protocol}");
        assert!(r.warnings.is_empty(), "{protocol}: {:?}", r.warnings);
    }
}

/// Synthesized algorithms (not only verified symbolically) run on `local` with the plain-math
/// check: the DGX-1 AllGather frontier on 8 ranks, the combining collectives and AllToAll on a
/// 2x2 hierarchical topology, and distributed AllToAlls, at uneven element counts.
#[test]
fn synthesized_algorithms_run_on_local() {
    use weft_compiler::msccl::synth::{least_steps, pareto_optimal, SynthCollective, Topology, DEFAULT_BUDGET};
    let mut quiet = |_: String| {};
    let dgx1 = pareto_optimal(&Topology::dgx1(), SynthCollective::AllGather, 6, DEFAULT_BUDGET, &mut quiet).unwrap();
    assert_eq!(dgx1.len(), 2);
    let w8 = world(1, 8);
    for a in &dgx1 {
        check(&w8, &a.to_ir().unwrap(), 4800 + 8 * 6, &opts(DType::F32, None));
    }
    let hier = Topology::parse("hier:2x2").unwrap();
    let w = world(2, 2);
    for coll in [SynthCollective::AllReduce, SynthCollective::ReduceScatter, SynthCollective::AllToAll] {
        let a = least_steps(&hier, coll, DEFAULT_BUDGET, &mut quiet).unwrap_or_else(|e| panic!("{coll:?}: {e}"));
        check(&w, &a.to_ir().unwrap(), 1000 + 4 * 7, &opts(DType::F32, None));
    }
    // On a ring a receive and the send forwarding it fuse (rrs / rcs), and the fused schedule runs.
    let ring = least_steps(&Topology::parse("ring:4").unwrap(), SynthCollective::AllReduce, DEFAULT_BUDGET, &mut quiet).unwrap().to_ir().unwrap();
    let kinds: Vec<_> = ring.gpus.iter().flat_map(|g| &g.tbs).flat_map(|t| &t.steps).map(|s| s.kind).collect();
    assert!(kinds.contains(&weft_compiler::msccl::StepKind::RecvReduceSend), "{kinds:?}");
    check(&world(1, 4), &ring, 1000 + 4 * 3, &opts(DType::F32, None));
    // Distributed AllToAll stitched from local Gather and Scatter schedules (msccl distribute).
    for (local, copies, g, s) in [("fc:2", 2, 0, 1), ("ring:3", 2, 0, 0)] {
        let t = Topology::parse(local).unwrap();
        let a = weft_compiler::msccl::synth::alltoall_gather_scatter(&t, copies, g, s, DEFAULT_BUDGET).unwrap();
        check(&world(copies, t.ranks()), &a.to_ir().unwrap(), 600 + 6 * 5, &opts(DType::F32, None));
    }
}
