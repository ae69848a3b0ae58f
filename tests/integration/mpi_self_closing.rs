//! Launches without a closing step under `mpirun` (`LaunchOptions::self_closing`, set by the
//! AllGathers, `allreduce_hier`, `gemm_rs` and `flash_decode`): back-to-back LL (ring,
//! hierarchical), `gemm_rs` and flash-decoding launches of uneven sizes stay correct on every
//! node grid,
//! and a self-closing launch that fails on one process only (the others finish it and go on)
//! is reported to every process at its next step, promptly, not at the host timeout.

use super::mpi::{as_child, child_passes, compile, have_mpirun};
use std::time::{Duration, Instant};
use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::kernels::{decode_constexprs, default_constexprs, prepare, prepare_decode, prepare_matmul, shape_constexprs, DecodeShape, MatmulShape};
use weft::runtime::mpi::MpiError;
use weft::runtime::{Arg, DType, LaunchOptions, MpiOptions, RuntimeError, World};

#[test]
#[ignore = "a process of mpi_self_closing::ll_launches_back_to_back_are_correct, run under mpirun"]
fn child_ll_back_to_back() {
    as_child(|world, me, n| {
        // `allgather_ll` stores into every rank: one node only.
        // `allgather` is the library's choice: the LL kernels for small sizes, the push ring (also
        // self-closing) above, both among these sizes.
        let kernels: &[&str] = if world.topology().nodes > 1 { &["allgather", "allgather_ll_mesh", "allreduce_ll_mesh", "allreduce_hier", "reduce_scatter"] } else { &["allgather", "allgather_ll", "allgather_ll_mesh", "allreduce_ll_mesh", "allreduce_hier", "reduce_scatter"] };
        for &name in kernels {
            let cx = |t: &str| default_constexprs(name, t).expect("constexprs");
            // Uneven sizes (a shard ending mid-word for f16; one element, which leaves ranks with
            // empty shards), three prepared at once, launched in turns with several launches
            // between checks: each launch's flag and rows must not be confused with another's or
            // the last one's.
            let mut ps = [(1000 + 7 * n, DType::F32), (4099, DType::F16), (1, DType::F32)].map(|(elems, t)| prepare(world, name, elems, t, &cx(t.name())).expect("prepare"));
            in_turns(&mut ps, me, name, |p, r| p.seed(r).expect("seed"), |p| _ = p.launch().expect("launch"), |p| p.verify().expect("verify"));
        }
        "back-to-back LL launches verified".into()
    });
}

#[test]
fn ll_launches_back_to_back_are_correct() {
    if !have_mpirun() {
        return;
    }
    on_every_grid("mpi_self_closing::child_ll_back_to_back", "back-to-back LL launches verified");
}

#[test]
#[ignore = "a process of mpi_self_closing::gemm_rs_launches_back_to_back_are_correct, run under mpirun"]
fn child_gemm_rs_back_to_back() {
    as_child(|world, me, n| {
        // Uneven shapes, every rank owning at least one row (the launches skip the closing step),
        // three prepared at once and launched in turns, new inputs every round: a peer's next launch
        // must not land in a slot this rank is still summing.
        let shapes = [(67 + n, 72, 40, DType::BF16), (130, 96, 24, DType::F32), (n, 64, 16, DType::F16)];
        let mut ps = shapes.map(|(m, nn, k, t)| {
            let shape = MatmulShape { m, n: nn, k };
            prepare_matmul(world, "gemm_rs", shape, t, &shape_constexprs("gemm_rs", shape, n, t.name())).expect("prepare")
        });
        in_turns(&mut ps, me, "gemm_rs", |p, r| p.seed(r).expect("seed"), |p| _ = p.launch().expect("launch"), |p| p.verify().expect("verify"));
        "back-to-back gemm_rs launches verified".into()
    });
}

#[test]
fn gemm_rs_launches_back_to_back_are_correct() {
    if !have_mpirun() {
        return;
    }
    on_every_grid("mpi_self_closing::child_gemm_rs_back_to_back", "back-to-back gemm_rs launches verified");
}

#[test]
#[ignore = "a process of mpi_self_closing::flash_decode_launches_back_to_back_are_correct, run under mpirun"]
fn child_flash_decode_back_to_back() {
    as_child(|world, me, n| {
        // The fused kernel and the baseline (whose AllGather launch is self-closing), uneven
        // positions per rank, fewer blocks than ranks (ranks owning none), grouped heads; new
        // inputs every round: a peer's next launch must not land in a slot this rank still combines.
        for name in ["flash_decode", "flash_decode_v"] {
            let shapes = [
                (DecodeShape { batch: 1, heads: 4, kv_heads: 1, seq: 37 * n + 5, head_dim: 24 }, DType::BF16),
                (DecodeShape { batch: 2, heads: 6, kv_heads: 3, seq: 200, head_dim: 16 }, DType::F32),
                (DecodeShape { batch: 3, heads: 2, kv_heads: 2, seq: n + 1, head_dim: 8 }, DType::F16),
            ];
            let mut ps = shapes.map(|(shape, t)| prepare_decode(world, name, shape, t, &decode_constexprs(shape, t.name(), false)).expect("prepare"));
            in_turns(&mut ps, me, name, |p, r| p.seed(r).expect("seed"), |p| _ = p.launch().expect("launch"), |p| p.verify().expect("verify"));
        }
        "back-to-back flash_decode launches verified".into()
    });
}

#[test]
fn flash_decode_launches_back_to_back_are_correct() {
    if !have_mpirun() {
        return;
    }
    on_every_grid("mpi_self_closing::child_flash_decode_back_to_back", "back-to-back flash_decode launches verified");
}

/// Nine rounds over three prepared kernels in turns: new inputs, one to three launches, then
/// this rank's check (`name` names the kernel in a failure).
fn in_turns<P>(ps: &mut [P; 3], me: usize, name: &str, seed: impl Fn(&mut P, u64), launch: impl Fn(&mut P), verify: impl Fn(&P) -> (bool, f64)) {
    for round in 0..9u64 {
        let p = &mut ps[round as usize % 3];
        seed(p, round);
        for _ in 0..=round % 3 {
            launch(p);
        }
        let (ok, err) = verify(p);
        assert!(ok, "rank {me}: {name} round {round}: max error {err}");
    }
}

/// Runs test `child` under mpirun on 1x2, 1x4, 2x2 and 3x1; every process must print `line`.
fn on_every_grid(child: &str, line: &str) {
    for (np, nodes) in [(2, "1"), (4, "1"), (4, "2"), (3, "3")] {
        let text = child_passes(np, nodes, child, &[]);
        assert_eq!(text.matches(line).count(), np, "{np} processes, {nodes} nodes:\n{text}");
    }
}

/// Each rank stores into its own buffer; rank `bad` alone then faults (a get from a rank that
/// does not exist). No rank waits on another, so the others finish the launch well.
fn fails_alone() -> Result<weft::compiler::ir::Kernel, DslError> {
    kernel("mpi_fails_alone", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::I32);
        let bad = a.i64("bad");
        let (me, n) = (my_pe(), n_pes());
        store(buf, me * 10);
        if_(cast(me, Scalar::I64).eq_(bad), || get(buf + 1, buf, 1, n + 5, ShmemScope::Block));
        Ok(())
    })
}

#[test]
#[ignore = "a process of mpi_self_closing::a_failed_self_closing_launch_stops_every_process, run under mpirun"]
fn child_fails_alone() {
    let world = World::mpi(MpiOptions::from_env()).expect("mpi world");
    let k = compile(fails_alone());
    let (me, n) = (world.host_ranks().start, world.n_ranks());
    let buf = world.alloc::<i32>(2).expect("alloc");
    let bad = n - 1;
    let opts = LaunchOptions { self_closing: true, ..LaunchOptions::default() };
    let start = Instant::now();
    let first = world.launch_with(&k, [1, 1, 1], &[Arg::from(&buf), Arg::I64(bad as i64)], &opts);
    match &first {
        Err(e) if me == bad => assert!(e.to_string().contains("out of range"), "rank {me}: {e}"),
        Ok(_) if me != bad => {}
        other => panic!("rank {me}: expected only rank {bad} to fail, got {other:?}"),
    }
    // The next step: the failed process refuses it, the others learn of the failure.
    match world.alloc::<i32>(1) {
        Err(RuntimeError::Mpi(MpiError::Broken { launch, .. })) if me == bad => assert!(launch > 0),
        Err(RuntimeError::Mpi(e @ MpiError::PeerFailed { .. })) if me != bad => assert!(e.to_string().contains("closing step deferred"), "rank {me}: {e}"),
        other => panic!("rank {me}: expected rank {bad}'s deferred failure, got {other:?}"),
    }
    let took = start.elapsed();
    // The host timeout is 120 s: a timeout could not come this soon.
    assert!(took < Duration::from_secs(10), "rank {me}: the failure took {took:?}");
    println!("rank {me}: deferred failure of rank {bad} reported after {took:?}");
    weft::runtime::mpi::finalize().expect("finalize");
}

#[test]
fn a_failed_self_closing_launch_stops_every_process() {
    if !have_mpirun() {
        return;
    }
    for (np, nodes) in [(2, "1"), (4, "2")] {
        let text = child_passes(np, nodes, "mpi_self_closing::child_fails_alone", &[]);
        assert_eq!(text.matches("deferred failure of rank").count(), np, "{np} processes, {nodes} nodes:\n{text}");
    }
}
