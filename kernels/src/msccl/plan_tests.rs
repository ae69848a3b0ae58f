//! MSCCL++ plans written by hand in the MSCCL++ format, run on the `local` transport and
//! checked against plain math: a put-based all-pairs AllReduce (put, signal, wait, reduce,
//! put) and a read-based one (signal, wait, read-reduce-copy-send, barrier), at uneven sizes,
//! several launches on the same buffers (semaphores carry over).

use super::*;
use serde_json::{json, Value};
use weft_compiler::msccl::plan::from_json;
use weft_runtime::{DType, LocalOptions, Topology};

const ALLPAIRS: &str = include_str!("../../../compiler/src/msccl/tests/fixtures/mscclpp_allreduce_allpairs_4.json");

fn world(ranks: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes: 1, local_size: ranks }, ..LocalOptions::from_env() }).unwrap()
}

fn check(world: &World, plan: &Plan, elems: usize, dtype: DType) {
    let what = format!("{} elems={elems} {dtype}", plan.name);
    let opts = MscclOptions { dtype, ..MscclOptions::default() };
    let mut p = prepare_plan(world, plan, elems, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
    for seed in [1, 2, 3] {
        let (ok, err) = p.verify_after_launch(seed).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(ok, "{what}: wrong result (max error {err})");
    }
}

/// All-pairs AllReduce by remote reads: thread block `k` of rank `r` owns chunk `2r + k`; it
/// reads that chunk from every peer, adds its own, and writes the sum back to every peer.
fn read_reduce_plan(ranks: usize) -> Value {
    let gpus: Vec<Value> = (0..ranks)
        .map(|r| {
            let peers: Vec<usize> = (0..ranks).filter(|&p| p != r).collect();
            let n = peers.len();
            let tb = |k: usize| {
                let c = 2 * r + k;
                let remote = |j: usize| json!({"buffer_id": j, "index": c, "size": 1});
                let mut srcs = vec![json!({"type": "i", "index": c, "size": 1})];
                srcs.extend((0..n).map(remote));
                let sync = |name: &str| json!({"name": name, "channel_ids": (0..n).collect::<Vec<_>>(), "channel_type": "memory"});
                json!({
                    "id": k,
                    "ops": [
                        sync("rlxsignal"), sync("rlxwait"), {"name": "nop"},
                        {"name": "rres", "src_buff": srcs, "dst_buff": srcs, "channel_type": "memory", "reduce_op": "sum"},
                        {"name": "barrier", "barrier_id": 0, "num_threadblocks": 2},
                        sync("signal"), sync("wait")
                    ],
                    "channels": [{"channel_type": "memory", "channel_ids": (k * n..(k + 1) * n).collect::<Vec<_>>()}],
                    "remote_buffer_refs": [{"access_channel_type": "memory", "remote_buffer_ids": (0..n).collect::<Vec<_>>()}]
                })
            };
            let both = [peers.clone(), peers.clone()].concat();
            json!({
                "id": r, "input_chunks": 2 * ranks, "output_chunks": 2 * ranks, "scratch_chunks": 0,
                "threadblocks": [tb(0), tb(1)],
                "channels": [{"channel_type": "memory", "connected_to": both}],
                "remote_buffers": peers.iter().map(|p| json!({"rank": p, "type": "i", "access_channel_types": ["memory"]})).collect::<Vec<_>>()
            })
        })
        .collect();
    json!({"name": "allreduce_read", "collective": "allreduce", "protocol": "Simple", "inplace": true, "gpus": gpus})
}

#[test]
fn put_signal_wait_reduce_plan_runs_on_local() {
    let plan = from_json(ALLPAIRS).unwrap();
    let w = world(4);
    for elems in [1001, 37, 4096] {
        check(&w, &plan, elems, DType::F32);
    }
    check(&w, &plan, 777, DType::BF16);
}

#[test]
fn read_reduce_send_plan_with_barriers_runs_on_local() {
    let plan = from_json(&read_reduce_plan(4).to_string()).unwrap();
    let w = world(4);
    for elems in [999, 8] {
        check(&w, &plan, elems, DType::I32);
    }
    check(&w, &plan, 2053, DType::F32);
}

#[test]
fn plans_the_runner_cannot_check_are_refused() {
    let plan = from_json(ALLPAIRS).unwrap();
    let e = prepare_plan(&world(2), &plan, 100, &MscclOptions::default()).err().expect("rank mismatch");
    assert!(e.to_string().contains("written for 4"), "{e}");
    let mut v: Value = serde_json::from_str(ALLPAIRS).unwrap();
    v["collective"] = json!("sendrecv");
    let e = prepare_plan(&world(4), &from_json(&v.to_string()).unwrap(), 100, &MscclOptions::default()).err().expect("sendrecv");
    assert!(e.to_string().contains("collective `sendrecv` cannot be checked against plain math"), "{e}");
}

#[test]
fn a_plan_that_skips_the_gather_round_fails_the_check() {
    // Without the second put each rank holds the sum of its own chunk only.
    let mut v: Value = serde_json::from_str(ALLPAIRS).unwrap();
    for r in 0..4 {
        v["gpus"][r]["threadblocks"][0]["ops"][6] = json!({"name": "nop"});
    }
    let plan = from_json(&v.to_string()).unwrap();
    let mut p = prepare_plan(&world(4), &plan, 500, &MscclOptions::default()).unwrap();
    let (ok, err) = p.verify_after_launch(9).unwrap();
    assert!(!ok && err > 0.0, "a partial AllReduce passed (max error {err})");
}

/// The all-pairs plan with every operation split over a group of two thread blocks
/// (`tbg_info`): each block moves its half of every chunk over its own channels.
#[test]
fn thread_block_group_plan_runs_on_local() {
    let mut v: Value = serde_json::from_str(ALLPAIRS).unwrap();
    for r in 0..4 {
        let g = &mut v["gpus"][r];
        let peers = g["channels"][0]["connected_to"].clone();
        g["channels"][0]["connected_to"] = json!([peers.as_array().unwrap().clone(), peers.as_array().unwrap().clone()].concat());
        let tb0 = g["threadblocks"][0].clone();
        let mut tbs = vec![];
        for k in 0..2 {
            let mut tb = tb0.clone();
            tb["id"] = json!(k);
            tb["channels"][0]["channel_ids"] = json!([3 * k, 3 * k + 1, 3 * k + 2]);
            for op in tb["ops"].as_array_mut().unwrap() {
                if op.get("src_buff").is_some() {
                    op["tbg_info"] = json!({"tb_id": k, "tbg_size": 2});
                }
            }
            tbs.push(tb);
        }
        g["threadblocks"] = json!(tbs);
    }
    let plan = from_json(&v.to_string()).unwrap();
    assert_eq!(plan.gpus[1].tbs[1].ops[0].part, (1, 2));
    let w = world(4);
    for elems in [1001, 6] {
        check(&w, &plan, elems, DType::F32);
    }
}
