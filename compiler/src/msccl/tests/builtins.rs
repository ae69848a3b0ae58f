//! Every built-in algorithm, over rank counts, topologies, instances and protocols: traced
//! and verified in the DSL, scheduled, executed symbolically as MSCCL-IR, round-tripped
//! through XML.

use super::*;
use crate::msccl::algorithms::{AlgoParams, BUILTINS, build, lookup};

fn check(name: &str, params: AlgoParams) -> MscclIr {
    let algo = build(name, &params).unwrap_or_else(|e| panic!("{name} {params:?}: {e}"));
    assert_eq!((algo.ranks(), algo.instances, algo.protocol), (params.ranks, params.instances, params.protocol));
    let ir = schedule_verify_roundtrip(&algo);
    // MSCCL's thread-block rule: per gpu, one thread block per (peer, channel) and direction.
    ir.validate().unwrap();
    assert_eq!(ir.ngpus(), params.ranks);
    ir
}

#[test]
fn flat_algorithms_verify_for_1_to_8_and_16_ranks() {
    for builtin in BUILTINS.iter().filter(|b| !b.hierarchical) {
        for ranks in (1..=8).chain([16]) {
            for instances in [1, 2] {
                check(builtin.name, AlgoParams::new(ranks).instances(instances));
            }
        }
    }
}

#[test]
fn hierarchical_algorithms_verify_on_node_topologies() {
    for name in ["hierarchical_allreduce", "alltoall_two_step"] {
        for (nodes, local) in [(2, 2), (2, 4), (4, 2), (1, 4), (4, 1), (3, 3), (1, 1), (4, 4)] {
            for instances in [1, 2] {
                check(name, AlgoParams::topology(nodes, local).instances(instances));
            }
        }
    }
}

#[test]
fn every_protocol_schedules_within_its_fifo_slots() {
    for builtin in &BUILTINS {
        for protocol in Protocol::ALL {
            let params = if builtin.hierarchical { AlgoParams::topology(2, 4) } else { AlgoParams::new(8) };
            let ir = check(builtin.name, params.protocol(protocol).instances(2));
            assert_eq!(ir.protocol, protocol);
        }
    }
}

#[test]
fn algorithms_implement_their_registered_collective() {
    for builtin in &BUILTINS {
        let params = if builtin.hierarchical { AlgoParams::topology(2, 2) } else { AlgoParams::new(4) };
        let algo = (builtin.build)(&params).unwrap();
        assert_eq!(algo.collective.kind(), builtin.collective, "{}", builtin.name);
        assert_eq!(algo.name, builtin.name);
        let ir = algo.to_ir().unwrap();
        assert_eq!(ir.collective, builtin.collective.xml_name());
    }
}

#[test]
fn hierarchical_allreduce_keeps_inter_node_traffic_between_same_local_ranks() {
    let (nodes, local) = (2, 4);
    let ir = check("hierarchical_allreduce", AlgoParams::topology(nodes, local));
    for c in ir.connections() {
        let same_node = c.from / local == c.to / local;
        let same_local = c.from % local == c.to % local;
        assert!(same_node || same_local, "{c:?} crosses nodes between different local ranks");
    }
}

#[test]
fn two_step_alltoall_sends_one_aggregated_message_per_node_pair() {
    let (nodes, local) = (2, 4);
    let ir = check("alltoall_two_step", AlgoParams::topology(nodes, local));
    let inter: Vec<Connection> = ir.connections().into_iter().filter(|c| c.from / local != c.to / local).collect();
    // Rank (n, g) talks across nodes only to (n', g), once per other node, `local` chunks at once.
    assert_eq!(inter.len(), nodes * local * (nodes - 1));
    for c in &inter {
        assert_eq!((c.from % local, c.messages), (c.to % local, 1));
        let tb = &ir.gpus[c.from].tbs[c.send_tb];
        assert!(tb.steps.iter().filter(|s| s.kind.sends()).all(|s| s.count == local));
    }
}

#[test]
fn unknown_names_and_bad_topologies_are_errors() {
    let err = build("tree_allreduce", &AlgoParams::new(4)).unwrap_err();
    let MscclError::UnknownAlgorithm { name, known } = &err else { panic!("{err}") };
    assert_eq!(name, "tree_allreduce");
    assert_eq!(known.len(), BUILTINS.len());
    assert!(lookup("ring_allreduce").is_ok());
    let uneven = AlgoParams { nodes: 3, ..AlgoParams::new(4) };
    assert!(matches!(build("hierarchical_allreduce", &uneven), Err(MscclError::InvalidConfig(_))));
    assert!(matches!(build("ring_allreduce", &AlgoParams::new(0)), Err(MscclError::InvalidConfig(_))));
}
