//! Synthesis tests: topologies, bounds, and synthesized algorithms checked by the symbolic
//! executor (postcondition, races, deadlocks) through `Algorithm::to_ir`.

use super::*;

fn quiet() -> impl FnMut(String) {
    |_| {}
}

const ALL: [&str; 7] = ["allgather", "gather", "scatter", "broadcast", "alltoall", "reducescatter", "allreduce"];

/// Every collective on small topologies of every family: least-steps verifies, and no
/// algorithm beats the steps lower bound.
#[test]
fn every_collective_least_steps_verifies() {
    let topos = [Topology::ring(4).unwrap(), Topology::fully_connected(3).unwrap(), Topology::hierarchical(2, 2, 2, 1).unwrap(), Topology::dgx1()];
    for t in &topos {
        // AllToAll on the DGX-1 needs more rounds than steps; least-steps (rounds = steps)
        // spends its budget refuting those instances, so it is covered on the others only.
        for name in ALL.iter().filter(|&&c| t.name != "dgx1" || c != "alltoall") {
            let root = t.ranks() - 1;
            let coll = SynthCollective::parse(name, root).unwrap();
            let a = least_steps(t, coll, DEFAULT_BUDGET, &mut quiet()).unwrap_or_else(|e| panic!("{name} on {}: {e}", t.name));
            a.to_ir().unwrap_or_else(|e| panic!("{}: {e}", a.name));
            let lb = lower_bound_steps(t, coll).unwrap();
            let per_phase = if coll == SynthCollective::AllReduce { 2 } else { 1 };
            assert!(a.steps >= lb * per_phase, "{}: {} steps below the bound {lb}", a.name, a.steps);
        }
    }
}

/// Multi-chunk instances on a random hierarchical shape verify; an instance with fewer steps
/// than the hop distance is refuted.
#[test]
fn instances_verify_and_refute() {
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos() as usize;
    let (nodes, local) = (2, 2 + seed % 3);
    let t = Topology::hierarchical(nodes, local, 3, 1).unwrap();
    for name in ALL {
        let coll = SynthCollective::parse(name, seed % t.ranks()).unwrap();
        let lb = lower_bound_steps(&t, coll).unwrap();
        let k = if coll == SynthCollective::AllToAll { 1 } else { 2 };
        let rounds = (lower_bound_rounds(&t, coll).unwrap().ceil_times(k as u64) as u32).max(lb as u32 + 1) + 2;
        let a = instance(&t, coll, lb + 1, rounds, k, DEFAULT_BUDGET).unwrap().unwrap_or_else(|| panic!("{name} on {} rounds {rounds}", t.name));
        a.to_ir().unwrap_or_else(|e| panic!("{}: {e}", a.name));
        if lb > 1 {
            assert!(instance(&t, coll, lb - 1, 8, 1, DEFAULT_BUDGET).unwrap().is_none(), "{name}: below hop distance");
        }
    }
}

#[test]
fn dgx1_gather_rounds_bound_is_seven_sixths() {
    let t = Topology::dgx1();
    assert_eq!(lower_bound_rounds(&t, SynthCollective::Gather { root: 0 }).unwrap(), Ratio::new(7, 6));
    assert_eq!(lower_bound_steps(&t, SynthCollective::AllGather).unwrap(), 2);
    // A ring of n: every rank has one in-link and needs n-1 chunks.
    assert_eq!(lower_bound_rounds(&Topology::ring(5).unwrap(), SynthCollective::AllGather).unwrap(), Ratio::new(4, 1));
}

#[test]
fn bad_input_is_a_typed_error() {
    assert!(matches!(Topology::parse("ring:x"), Err(SynthError::Topology(_))));
    assert!(matches!(Topology::parse("torus:4"), Err(SynthError::Topology(_))));
    assert!(matches!(Topology::from_json(r#"{"links": [[0, 1], [1]]}"#), Err(SynthError::Topology(_))));
    assert!(matches!(Topology::from_json(r#"{"links": [[1]]}"#), Err(SynthError::Topology(_))));
    assert!(matches!(Topology::from_json("{"), Err(SynthError::Topology(_))));
    assert!(matches!(SynthCollective::parse("scan", 0), Err(SynthError::Collective(_))));
    let one_way = Topology::from_json(r#"{"name": "oneway", "links": [[0, 1], [0, 0]]}"#).unwrap();
    assert!(matches!(lower_bound_steps(&one_way, SynthCollective::AllGather), Err(SynthError::Unreachable { .. })));
    assert!(matches!(instance(&Topology::dgx1(), SynthCollective::AllGather, 3, 2, 1, 10), Err(SynthError::Instance(_))));
    assert!(matches!(instance(&Topology::dgx1(), SynthCollective::Gather { root: 9 }, 2, 2, 1, 10), Err(SynthError::Collective(_))));
}

#[test]
fn dgx1_matches_msccl_tools_matrix() {
    let expect = [
        [0, 2, 1, 1, 2, 0, 0, 0],
        [2, 0, 1, 2, 0, 1, 0, 0],
        [1, 1, 0, 2, 0, 0, 2, 0],
        [1, 2, 2, 0, 0, 0, 0, 1],
        [2, 0, 0, 0, 0, 2, 1, 1],
        [0, 1, 0, 0, 2, 0, 1, 2],
        [0, 0, 2, 0, 1, 1, 0, 2],
        [0, 0, 0, 1, 1, 2, 2, 0],
    ];
    let t = Topology::dgx1();
    for (s, row) in expect.iter().enumerate() {
        assert_eq!(t.links[s], row.to_vec(), "row {s}");
    }
}

#[test]
fn dgx1_allgather_frontier() {
    let t = Topology::dgx1();
    let start = std::time::Instant::now();
    let mut lines = Vec::new();
    let f = pareto_optimal(&t, SynthCollective::AllGather, 8, DEFAULT_BUDGET, &mut |l| {
        eprintln!("{l}");
        lines.push(l)
    })
    .unwrap();
    eprintln!("{}\n{:?}", lines.join("\n"), start.elapsed());
    let got: Vec<(usize, u32, usize)> = f.iter().map(|a| (a.steps, a.rounds, a.chunks)).collect();
    assert_eq!(got, vec![(2, 3, 2), (3, 7, 6)]);
    for a in &f {
        a.to_ir().unwrap();
    }
}

#[test]
fn distributed_alltoall_from_gather_and_scatter_verifies() {
    for (local, copies, g, s) in [("fc:2", 2, 0, 1), ("ring:3", 2, 0, 0), ("fc:3", 3, 1, 2), ("dgx1", 2, 0, 1)] {
        let t = Topology::parse(local).unwrap();
        let a = alltoall_gather_scatter(&t, copies, g, s, super::DEFAULT_BUDGET).unwrap_or_else(|e| panic!("{local} x{copies}: {e}"));
        a.to_ir().unwrap_or_else(|e| panic!("{}: {e}", a.name));
        assert!(a.steps >= 3, "{}: gather, transpose and scatter", a.name);
    }
    // Roots without a local link between them cannot carry a node's own chunks.
    let e = alltoall_gather_scatter(&Topology::parse("ring:4").unwrap(), 2, 0, 2, super::DEFAULT_BUDGET).unwrap_err();
    assert!(e.to_string().contains("no link from gather root 0 to scatter root 2"), "{e}");
    let e = alltoall_gather_scatter(&Topology::parse("fc:2").unwrap(), 2, 5, 0, super::DEFAULT_BUDGET).unwrap_err();
    assert!(e.to_string().contains("gather root 5 is out of range"), "{e}");
}
