//! Import of MSCCL++ plans: the example plan resolves to the channels and peers it names, and
//! each kind of bad input is a typed error that says where it is.

use serde_json::{json, Value};

use super::*;
use crate::ir::Scalar;

const ALLPAIRS: &str = include_str!("../tests/fixtures/mscclpp_allreduce_allpairs_4.json");

fn fixture() -> Value {
    serde_json::from_str(ALLPAIRS).unwrap()
}

fn import(v: &Value) -> Result<Plan, PlanError> {
    from_json(&v.to_string())
}

#[test]
fn example_plan_resolves_channels_peers_and_buffers() {
    let plan = from_json(ALLPAIRS).unwrap();
    assert_eq!((plan.ngpus(), plan.collective.as_str(), plan.inplace), (4, "allreduce", true));
    for g in &plan.gpus {
        let peers: Vec<usize> = (0..4).filter(|&p| p != g.id).collect();
        assert_eq!(g.memory.iter().map(|c| c.peer).collect::<Vec<_>>(), peers);
        for c in &g.memory {
            // The paired channel on the peer leads back here.
            assert_eq!(plan.gpus[c.peer].memory[c.paired].peer, g.id);
        }
        let first = &g.tbs[0].ops[0];
        assert_eq!(first.kind, PlanOpKind::Put);
        // put i[p] -> rank p's scratch[me]
        for (s, d) in first.srcs.iter().zip(&first.dsts) {
            assert_eq!((s.rank, s.buffer, s.index), (None, Buffer::Input, d.rank.unwrap()));
            assert_eq!((d.buffer, d.index), (Buffer::Scratch, g.id));
        }
    }
    let lowered = lower_plan(&plan, Scalar::F32, 128).unwrap();
    assert_eq!((lowered.grid, lowered.signal_words), (1, 3));
}

/// The error of the fixture with `edit` applied.
fn broken(edit: impl FnOnce(&mut Value)) -> PlanError {
    let mut v = fixture();
    edit(&mut v);
    import(&v).expect_err("the edit must be rejected")
}

#[test]
fn malformed_json_names_line_and_column() {
    let e = from_json("{\n  \"name\": \"x\",\n  \"gpus\": [\n}").unwrap_err();
    assert!(matches!(e, PlanError::Json { line: 4, .. }), "{e}");
}

#[test]
fn unsupported_operation_is_named() {
    let e = broken(|v| v["gpus"][2]["threadblocks"][0]["ops"][3] = json!({"name": "ppkt"}));
    assert_eq!(e, PlanError::UnsupportedOp { at: "gpus[2].threadblocks[0].ops[3]".into(), op: "ppkt".into() });
    assert!(e.to_string().contains("`ppkt` is not supported"), "{e}");
}

#[test]
fn unknown_buffers_are_errors() {
    let e = broken(|v| v["gpus"][1]["threadblocks"][0]["ops"][4]["src_buff"][1]["type"] = json!("x"));
    assert!(matches!(&e, PlanError::UnknownBuffer { at, .. } if at == "gpus[1].threadblocks[0].ops[4].src_buff[1].type"), "{e}");
    let e = broken(|v| v["gpus"][0]["threadblocks"][0]["ops"][0]["dst_buff"][2]["buffer_id"] = json!(6));
    assert!(matches!(&e, PlanError::UnknownBuffer { at, what } if at.ends_with("ops[0].dst_buff[2].buffer_id") && what.contains("has 6 memory")), "{e}");
}

#[test]
fn channel_to_a_missing_peer_is_an_error() {
    let e = broken(|v| v["gpus"][3]["channels"][0]["connected_to"][1] = json!(7));
    assert_eq!(e, PlanError::MissingPeer { at: "gpus[3].channels[0].connected_to[1]".into(), peer: 7, ranks: 4 });
    let e = broken(|v| v["gpus"][0]["remote_buffers"][0]["rank"] = json!(0));
    assert!(matches!(e, PlanError::MissingPeer { peer: 0, .. }), "{e}");
}

#[test]
fn chunks_out_of_range_are_errors() {
    let e = broken(|v| v["gpus"][1]["threadblocks"][0]["ops"][0]["dst_buff"][0]["index"] = json!(4));
    let want = PlanError::ChunkOutOfRange { at: "gpus[1].threadblocks[0].ops[0].dst_buff[0]".into(), rank: 0, buffer: Buffer::Scratch, index: 4, count: 1, chunks: 4 };
    assert_eq!(e, want);
}

#[test]
fn unpaired_signals_and_channels_are_errors() {
    // Rank 2 no longer waits for its second round: rank 0's signal would stay raised.
    let e = broken(|v| v["gpus"][2]["threadblocks"][0]["ops"][8]["channel_ids"] = json!([1, 2]));
    assert!(matches!(&e, PlanError::Unmatched { at, message } if at == "gpus[2]" && message.contains("signals rank 2 2 times")), "{e}");
    let e = broken(|v| v["gpus"][1]["channels"][0]["connected_to"] = json!([0, 2, 3, 0]));
    assert!(matches!(&e, PlanError::Unmatched { at, .. } if at == "gpus[1].channels"), "{e}");
    let e = broken(|v| v["gpus"][0]["threadblocks"][0]["ops"][1]["channel_ids"] = json!([3]));
    assert!(matches!(&e, PlanError::Field { at, .. } if at == "gpus[0].threadblocks[0].ops[1].channel_ids[0]"), "{e}");
}

#[test]
fn wrong_operands_and_protocols_are_errors() {
    let e = broken(|v| v["gpus"][0]["threadblocks"][0]["ops"][4]["name"] = json!("copy"));
    assert!(matches!(&e, PlanError::Field { at, message } if at == "gpus[0].threadblocks[0].ops[4]" && message.contains("wrong operands")), "{e}");
    let e = broken(|v| v["gpus"][0]["threadblocks"][0]["ops"][0]["tbg_info"] = json!({"tb_id": 2, "tbg_size": 2}));
    assert!(matches!(&e, PlanError::Field { at, .. } if at == "gpus[0].threadblocks[0].ops[0].tbg_info"), "{e}");
    let e = broken(|v| v["protocol"] = json!("LL"));
    assert!(matches!(&e, PlanError::Field { at, .. } if at == "protocol"), "{e}");
    let e = broken(|v| v["gpus"][0]["channels"][0]["channel_type"] = json!("switch"));
    assert!(e.to_string().contains("switch channels"), "{e}");
}
