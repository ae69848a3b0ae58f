//! MSCCL++ plans with packets (the LL protocol) and plans for collectives other than
//! AllReduce, run on the `local` transport and checked against plain math: the all-pairs LL
//! AllReduce MSCCL++ ships for small messages (the 4-rank plan is written out by hand in the
//! fixture), at several world sizes, uneven sizes and several launches (flags and scratch
//! halves alternate), and AllGather, ReduceScatter and AllToAll plans.

use super::*;
use serde_json::{json, Value};
use weft_compiler::msccl::plan::from_json;
use weft_runtime::{DType, LocalOptions, Topology};

const PACKETS: &str = include_str!("../../../compiler/src/msccl/tests/fixtures/mscclpp_allreduce_packet_4.json");

fn world(ranks: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes: 1, local_size: ranks }, ..LocalOptions::from_env() }).unwrap()
}

/// Three launches on the same buffers, each checked.
fn check(world: &World, plan: &Plan, elems: usize, dtype: DType) {
    let what = format!("{} ranks={} elems={elems} {dtype}", plan.name, plan.ngpus());
    let opts = MscclOptions { dtype, ..MscclOptions::default() };
    let mut p = prepare_plan(world, plan, elems, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    for seed in [1, 2, 3] {
        let (ok, err) = p.verify_after_launch(seed).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(ok, "{what}: wrong result (max error {err})");
    }
}

fn buf(t: &str, index: usize, size: usize) -> Value {
    json!({"type": t, "index": index, "size": size})
}

fn remote(id: usize, index: usize, size: usize) -> Value {
    json!({"buffer_id": id, "index": index, "size": size})
}

fn op(name: &str, srcs: Vec<Value>, dsts: Vec<Value>) -> Value {
    json!({"name": name, "src_buff": srcs, "dst_buff": dsts, "channel_type": "memory", "reduce_op": "sum"})
}

fn sync(name: &str, n: usize) -> Value {
    json!({"name": name, "channel_ids": (0..n).collect::<Vec<_>>(), "channel_type": "memory"})
}

/// A plan for `ranks` ranks: `tbs(r, peers)` gives rank r's thread blocks' ops; every rank has
/// one memory channel to each peer, and remote buffer `j` (of `remote_types`, then peer
/// order) is visible to every thread block.
fn plan(name: &str, coll: &str, protocol: &str, inplace: bool, ranks: usize, chunks: [usize; 3], remote_types: &[&str], tbs: impl Fn(usize, &[usize]) -> Vec<Vec<Value>>) -> Value {
    let gpus: Vec<Value> = (0..ranks)
        .map(|r| {
            let peers: Vec<usize> = (0..ranks).filter(|&p| p != r).collect();
            let remotes: Vec<Value> = remote_types.iter().flat_map(|t| peers.iter().map(move |p| json!({"rank": p, "type": t, "access_channel_types": ["memory"]}))).collect();
            let n = peers.len();
            let tbs: Vec<Value> = tbs(r, &peers)
                .into_iter()
                .enumerate()
                .map(|(k, ops)| json!({
                    "id": k, "ops": ops,
                    "channels": [{"channel_type": "memory", "channel_ids": (0..n).collect::<Vec<_>>()}],
                    "remote_buffer_refs": [{"access_channel_type": "memory", "remote_buffer_ids": (0..remotes.len()).collect::<Vec<_>>()}]
                }))
                .collect();
            json!({
                "id": r, "input_chunks": chunks[0], "output_chunks": chunks[1], "scratch_chunks": chunks[2],
                "threadblocks": tbs,
                "channels": [{"channel_type": "memory", "connected_to": peers}],
                "remote_buffers": remotes
            })
        })
        .collect();
    json!({"name": name, "collective": coll, "protocol": protocol, "inplace": inplace, "use_double_scratch_buffer": protocol == "LL", "gpus": gpus})
}

/// MSCCL++'s all-pairs LL AllReduce (its `allreduce_allpairs_packet` program): rank r owns
/// block r of `n` chunks; thread block k puts block k to rank k's scratch as packets, reduces
/// chunk k of its own block and sends the sum to every peer as packets, then unpacks block k.
fn allpairs_packets(n: usize) -> Value {
    plan("allreduce_packets", "allreduce", "LL", true, n, [n * n, n * n, 2 * n * n], &["s"], |r, peers| {
        (0..n)
            .map(|k| {
                let j = |p: usize| peers.iter().position(|&q| q == p).unwrap();
                let mut ops = vec![];
                if k != r {
                    ops.push(op("ppkt", vec![buf("i", n * k, n)], vec![remote(j(k), n * r, n)]));
                }
                let srcs = [buf("i", n * r + k, 1)].into_iter().chain(peers.iter().map(|&p| buf("s", n * p + k, 1))).collect();
                let dsts = [buf("i", n * r + k, 1)].into_iter().chain(peers.iter().map(|&p| remote(j(p), n * n + n * r + k, 1))).collect();
                ops.push(op("respkt", srcs, dsts));
                if k != r {
                    ops.push(op("upkt", vec![buf("s", n * n + n * k, n)], vec![buf("i", n * k, n)]));
                }
                ops
            })
            .collect()
    })
}

#[test]
fn hand_written_ll_allreduce_plan_for_4_ranks_runs_and_sums() {
    let plan = from_json(PACKETS).unwrap();
    let w = world(4);
    // As `weft msccl run` runs it: one checked launch, then timed ones.
    for elems in [1003, 1, 4096, 37] {
        let res = run_plan(&w, &plan, elems, &MscclOptions::default(), 2).unwrap();
        assert!(res.verified && res.warnings.is_empty(), "elems={elems}: max error {} {:?}", res.max_err, res.warnings);
        // Chunks are whole 16-byte units.
        assert_eq!(res.chunk_elems, elems.div_ceil(16).next_multiple_of(4), "elems={elems}");
    }
    for dtype in [DType::BF16, DType::F16, DType::I32] {
        check(&w, &plan, 999, dtype);
    }
    // The generator builds the same plan.
    assert_eq!(from_json(&allpairs_packets(4).to_string()).unwrap().gpus, plan.gpus);
}

#[test]
fn ll_allreduce_plan_at_other_world_sizes() {
    for (n, elems) in [(2, 77), (3, 1000), (5, 333), (8, 4100)] {
        let plan = from_json(&allpairs_packets(n).to_string()).unwrap();
        check(&world(n), &plan, elems, DType::F32);
    }
}

/// Two hops through scratch packets: every rank reduces its own chunk into a local packet copy
/// (`recpkt`) and forwards the packets to every peer (`rppkt`), or sends them directly as it
/// reduces (`recspkt`); then unpacks every peer's chunk.
fn two_hop_packets(n: usize, forward: bool) -> Value {
    plan("allreduce_two_hop", "allreduce", "LL", false, n, [n, n, 2 * n], &["s"], |r, peers| {
        let mut ops: Vec<Value> = peers.iter().enumerate().map(|(j, &p)| op("ppkt", vec![buf("i", p, 1)], vec![remote(j, r, 1)])).collect();
        let srcs = [buf("i", r, 1)].into_iter().chain(peers.iter().map(|&p| buf("s", p, 1))).collect();
        let mut dsts = vec![buf("o", r, 1), buf("s", n + r, 1)];
        if forward {
            ops.push(op("recpkt", srcs, dsts));
            let fwd = peers.iter().map(|_| buf("s", n + r, 1)).collect();
            ops.push(op("rppkt", fwd, (0..peers.len()).map(|j| remote(j, n + r, 1)).collect()));
        } else {
            dsts.extend((0..peers.len()).map(|j| remote(j, n + r, 1)));
            ops.push(op("recspkt", srcs, dsts));
        }
        ops.extend(peers.iter().map(|&p| op("upkt", vec![buf("s", n + p, 1)], vec![buf("o", p, 1)])));
        vec![ops]
    })
}

#[test]
fn reduce_copy_and_forwarded_packets_run() {
    for forward in [true, false] {
        for (n, elems) in [(3, 500), (4, 64)] {
            let plan = from_json(&two_hop_packets(n, forward).to_string()).unwrap();
            check(&world(n), &plan, elems, DType::F32);
            check(&world(n), &plan, elems + 3, DType::BF16);
        }
    }
}

#[test]
fn ll_plan_that_drops_a_peer_from_the_sum_fails_the_check() {
    // Rank 0 reduces chunk 0 without rank 1's packets: they are written but never read.
    let mut v: Value = serde_json::from_str(PACKETS).unwrap();
    v["gpus"][0]["threadblocks"][0]["ops"][0]["src_buff"].as_array_mut().unwrap().remove(1);
    let plan = from_json(&v.to_string()).unwrap();
    let mut p = prepare_plan(&world(4), &plan, 500, &MscclOptions::default()).unwrap();
    let (ok, err) = p.verify_after_launch(9).unwrap();
    assert!(!ok && err > 0.0, "a partial LL AllReduce passed (max error {err})");
}

/// AllGather with packets: each rank sends its input to every peer's scratch (`ppkt`) and to
/// its own (`cpkt`), then unpacks every rank's chunk into its output.
fn allgather_packets(n: usize) -> Value {
    plan("allgather_packets", "allgather", "LL", false, n, [1, n, n], &["s"], |r, peers| {
        let mut ops: Vec<Value> = peers.iter().enumerate().map(|(j, _)| op("ppkt", vec![buf("i", 0, 1)], vec![remote(j, r, 1)])).collect();
        ops.push(op("cpkt", vec![buf("i", 0, 1)], vec![buf("s", r, 1)]));
        ops.extend((0..n).map(|p| op("upkt", vec![buf("s", p, 1)], vec![buf("o", p, 1)])));
        vec![ops]
    })
}

/// In-place AllGather (input = the rank's slice of the output), Simple: puts into every peer's
/// output, then a signal / wait round.
fn allgather_inplace(n: usize) -> Value {
    plan("allgather_inplace", "allgather", "Simple", true, n, [1, n, 0], &["o"], |r, peers| {
        let mut ops: Vec<Value> = peers.iter().enumerate().map(|(j, _)| op("put", vec![buf("i", 0, 1)], vec![remote(j, r, 1)])).collect();
        ops.extend([sync("signal", peers.len()), sync("wait", peers.len())]);
        vec![ops]
    })
}

/// ReduceScatter with packets: chunk p goes to rank p's scratch (`ppkt`); each rank adds the
/// packets to its own chunk into its output (`repkt`).
fn reducescatter_packets(n: usize) -> Value {
    plan("reducescatter_packets", "reducescatter", "LL", false, n, [n, 1, n], &["s"], |r, peers| {
        let mut ops: Vec<Value> = peers.iter().enumerate().map(|(j, &p)| op("ppkt", vec![buf("i", p, 1)], vec![remote(j, r, 1)])).collect();
        let srcs = [buf("i", r, 1)].into_iter().chain(peers.iter().map(|&p| buf("s", p, 1))).collect();
        ops.push(op("repkt", srcs, vec![buf("o", 0, 1)]));
        vec![ops]
    })
}

/// AllToAll, Simple: chunk p goes straight into rank p's output slot r, the own chunk by a
/// local copy, then a signal / wait round.
fn alltoall_simple(n: usize) -> Value {
    plan("alltoall_simple", "alltoall", "Simple", false, n, [n, n, 0], &["o"], |r, peers| {
        let mut ops: Vec<Value> = peers.iter().enumerate().map(|(j, &p)| op("put", vec![buf("i", p, 1)], vec![remote(j, r, 1)])).collect();
        ops.push(op("copy", vec![buf("i", r, 1)], vec![buf("o", r, 1)]));
        ops.extend([sync("signal", peers.len()), sync("wait", peers.len())]);
        vec![ops]
    })
}

#[test]
fn allgather_reducescatter_and_alltoall_plans_match_plain_math() {
    for (n, elems) in [(2, 100), (3, 37), (5, 1001)] {
        let w = world(n);
        for v in [allgather_packets(n), allgather_inplace(n), reducescatter_packets(n), alltoall_simple(n)] {
            let plan = from_json(&v.to_string()).unwrap_or_else(|e| panic!("{n} ranks: {e}"));
            check(&w, &plan, elems * if plan.collective == "allgather" { 1 } else { n }, DType::F32);
            check(&w, &plan, elems, DType::BF16);
        }
    }
}

#[test]
fn an_alltoall_that_misroutes_a_chunk_fails_the_check() {
    // Rank 0 puts chunk 1 where chunk 2 should go: rank 2 gets the wrong data.
    let mut v = alltoall_simple(3);
    v["gpus"][0]["threadblocks"][0]["ops"][1]["src_buff"][0]["index"] = json!(1);
    let plan = from_json(&v.to_string()).unwrap();
    let mut p = prepare_plan(&world(3), &plan, 99, &MscclOptions::default()).unwrap();
    let (ok, _) = p.verify_after_launch(5).unwrap();
    assert!(!ok, "a misrouted AllToAll passed");
}
