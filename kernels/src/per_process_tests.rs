//! Every library kernel's host side as a multi-process transport runs it: one thread per rank,
//! each holding a `World` view that owns only its rank (`weft_runtime::per_process`), with
//! allocations, frees and launches collective across the views. Preparing, launching and
//! verifying must touch only `host_ranks()` (any other rank is a `RankOutOfRange` error) and
//! must issue collectives in the same order on every rank (the views' logs must agree).

use crate::msccl::{prepare_msccl, MscclOptions};
use crate::{default_constexprs, list, matmul_constexprs, prepare, prepare_matmul, KernelError, MatmulShape};
use rand::{Rng, SeedableRng};
use std::time::Duration;
use weft_compiler::msccl::algorithms::{self, AlgoParams, BUILTINS};
use weft_compiler::msccl::Protocol;
use weft_runtime::per_process::{per_process, Collective as Call};
use weft_runtime::{DType, LocalOptions, Topology, World};

fn world(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::default() }).unwrap()
}

/// Runs `body` once per rank, each in its own thread on a view that holds only that rank, and
/// asserts every rank verified and every rank issued the same collective calls (at least one
/// launch each).
fn on_every_process(w: &World, what: &str, body: impl Fn(&World) -> Result<(bool, f64), KernelError> + Sync) {
    let views = per_process(w, Duration::from_secs(120));
    let results: Vec<Result<(bool, f64), KernelError>> = std::thread::scope(|s| {
        let handles: Vec<_> = views.worlds.iter().map(|v| s.spawn(|| body(v))).collect();
        handles.into_iter().map(|h| h.join().expect("a process thread panicked")).collect()
    });
    for (rank, r) in results.into_iter().enumerate() {
        match r {
            Ok((ok, err)) => assert!(ok, "{what}: rank {rank} wrong (max error {err})"),
            Err(e) => panic!("{what}: rank {rank}: {e}"),
        }
    }
    let logs = views.logs();
    assert!(logs[0].iter().any(|c| matches!(c, Call::Launch { .. })), "{what}: no launch recorded: {:?}", logs[0]);
    for (rank, log) in logs.iter().enumerate() {
        assert_eq!(log, &logs[0], "{what}: rank {rank}'s collective sequence differs from rank 0's");
    }
}

#[test]
fn collectives_prepare_launch_verify_one_rank_per_process() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(21);
    let w = world(1, 3);
    for k in list().iter().filter(|k| k.collective.takes_elems()) {
        let elems = rng.random_range(500..3000);
        let dtype = if rng.random_bool(0.5) { DType::F32 } else { DType::BF16 };
        let what = format!("{} {elems} x {dtype}", k.name);
        on_every_process(&w, &what, |v| {
            let mut p = prepare(v, k.name, elems, dtype, &default_constexprs(k.name, dtype.name())?)?;
            p.set_root(2)?;
            p.seed(7)?;
            p.verify_after_launch()
        });
    }
}

#[test]
fn gemm_family_prepare_launch_verify_one_rank_per_process() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(22);
    // gemm_rs on two nodes takes its hierarchical path.
    for (name, nodes, local) in [("gemm", 1, 3), ("ag_gemm", 1, 3), ("gemm_rs", 1, 3), ("gemm_rs", 2, 2)] {
        let w = world(nodes, local);
        let shape = MatmulShape { m: rng.random_range(5..60), n: rng.random_range(1..50), k: rng.random_range(1..40) };
        let what = format!("{name} {} {shape:?}", w.topology());
        let c = matmul_constexprs("f32").with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 8).with("GROUP_M", 2);
        on_every_process(&w, &what, |v| {
            let mut p = prepare_matmul(v, name, shape, DType::F32, &c)?;
            p.seed(5)?;
            p.launch()?;
            p.verify()
        });
    }
}

#[test]
fn msccl_builtins_prepare_launch_verify_one_rank_per_process() {
    for (i, b) in BUILTINS.iter().enumerate() {
        let (nodes, local) = if b.hierarchical { (2, 2) } else { (1, 3) };
        // Each protocol in turn, so the set covers all of them.
        let protocol = Protocol::ALL[i % Protocol::ALL.len()];
        let params = AlgoParams { ranks: nodes * local, nodes, instances: 1, protocol };
        let ir = algorithms::build(b.name, &params).and_then(|a| a.to_ir()).unwrap_or_else(|e| panic!("{}: {e}", b.name));
        let what = format!("{} {protocol} on {nodes}x{local}", b.name);
        let opts = MscclOptions { slot_bytes: Some(512), ..MscclOptions::default() };
        on_every_process(&world(nodes, local), &what, |v| prepare_msccl(v, &ir, 777, &opts)?.verify_after_launch(3));
    }
}
