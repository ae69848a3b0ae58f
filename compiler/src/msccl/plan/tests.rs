//! Import of MSCCL++ plans: the example plan resolves to the channels and peers it names, and
//! each kind of bad input is a typed error that says where it is.

use serde_json::{json, Value};

use super::*;
use crate::ir::Scalar;

const ALLPAIRS: &str = include_str!("../tests/fixtures/mscclpp_allreduce_allpairs_4.json");
const PACKETS: &str = include_str!("../tests/fixtures/mscclpp_allreduce_packet_4.json");

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
    let e = broken(|v| v["gpus"][2]["threadblocks"][0]["ops"][3] = json!({"name": "glres"}));
    assert_eq!(e, PlanError::UnsupportedOp { at: "gpus[2].threadblocks[0].ops[3]".into(), op: "glres".into() });
    assert!(e.to_string().contains("`glres` is not supported"), "{e}");
    let e = broken(|v| v["gpus"][2]["threadblocks"][0]["ops"][3] = json!({"name": "ppkt"}));
    assert!(matches!(&e, PlanError::Field { at, message } if at == "gpus[2].threadblocks[0].ops[3]" && message.contains("protocol is Simple")), "{e}");
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
    let e = broken(|v| v["protocol"] = json!("LL128"));
    assert!(matches!(&e, PlanError::Field { at, .. } if at == "protocol"), "{e}");
    let e = broken(|v| v["gpus"][0]["channels"][0]["channel_type"] = json!("switch"));
    assert!(e.to_string().contains("switch channels"), "{e}");
}

#[test]
fn collective_chunk_counts_are_checked() {
    let e = broken(|v| v["collective"] = json!("allgather"));
    assert!(matches!(&e, PlanError::Field { at, message } if at == "gpus[0].input_chunks" && message.contains("allgather on 4 ranks with 1 chunks per rank needs 1 in chunks, not 4")), "{e}");
    // A collective without a reference imports (its channels and signals are checked) but
    // does not run.
    let mut v = fixture();
    v["collective"] = json!("sendrecv");
    let plan = import(&v).unwrap();
    assert_eq!(plan.collective(0).unwrap_err(), PlanError::UnsupportedCollective { name: "sendrecv".into() });
}

/// The LL fixture with `edit` applied.
fn broken_packets(edit: impl FnOnce(&mut Value)) -> PlanError {
    let mut v: Value = serde_json::from_str(PACKETS).unwrap();
    edit(&mut v);
    import(&v).expect_err("the edit must be rejected")
}

#[test]
fn packet_plan_marks_packet_operands_and_lowers() {
    let plan = from_json(PACKETS).unwrap();
    assert!(plan.packets && plan.double_scratch && plan.scratch_chunks() == 32);
    // Rank 1, thread block 2: ppkt to rank 2, respkt of chunk 6, upkt of rank 2's block.
    let ops = &plan.gpus[1].tbs[2].ops;
    assert_eq!(ops.iter().map(|o| o.kind).collect::<Vec<_>>()[1..], [PlanOpKind::ReducePackets { copy: false, send: true }, PlanOpKind::UnpackPackets]);
    let flags = |cs: &[Chunks]| cs.iter().map(|c| c.packet).collect::<Vec<_>>();
    assert_eq!((flags(&ops[0].srcs), flags(&ops[0].dsts)), (vec![false], vec![true]));
    assert_eq!((flags(&ops[1].srcs), flags(&ops[1].dsts)), (vec![false, true, true, true], vec![false, true, true, true]));
    assert_eq!(ops[1].dsts[1..].iter().map(|c| (c.rank, c.index)).collect::<Vec<_>>(), [(Some(0), 22), (Some(2), 22), (Some(3), 22)]);
    for t in [Scalar::F32, Scalar::BF16, Scalar::I32] {
        assert_eq!(lower_plan(&plan, t, 64).unwrap().grid, 4);
    }
}

#[test]
fn packet_errors_name_the_problem() {
    let e = broken_packets(|v| v["protocol"] = json!("Simple"));
    assert!(matches!(&e, PlanError::Field { message, .. } if message.contains("`respkt` moves packets")), "{e}");
    // Packets outside scratch.
    let e = broken_packets(|v| v["gpus"][0]["threadblocks"][1]["ops"][2]["src_buff"][0] = json!({"type": "i", "index": 0, "size": 4}));
    assert!(matches!(&e, PlanError::Field { at, message } if at.ends_with("ops[2].src_buff[0]") && message.contains("`upkt` reads packets in the in buffer")), "{e}");
    // Rank 1 no longer puts rank 0's block: rank 0 would wait for packets forever.
    let e = broken_packets(|v| v["gpus"][1]["threadblocks"][0]["ops"][0] = json!({"name": "nop"}));
    assert!(matches!(&e, PlanError::Unmatched { at, message } if at == "gpus[0].threadblocks[0].ops[0]" && message.contains("chunks 4..5 that no operation writes")), "{e}");
    // Rank 2 puts into the chunks rank 1 puts into.
    let e = broken_packets(|v| v["gpus"][2]["threadblocks"][0]["ops"][0]["dst_buff"][0]["index"] = json!(4));
    assert!(matches!(&e, PlanError::Unmatched { message, .. } if message.contains("chunks 4..8 are also written by")), "{e}");
    let e = broken_packets(|v| v["gpus"][0]["threadblocks"][1]["ops"][0]["channel_type"] = json!("port"));
    assert!(e.to_string().contains("`ppkt` over port channels is not supported"), "{e}");
}
