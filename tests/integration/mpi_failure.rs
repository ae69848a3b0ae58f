//! A kernel that fails on one process under `mpirun`: the processes waiting on it (in a
//! signal wait and in `barrier_all`) stop at once with an error naming the failed rank, not a
//! deadlock report after the deadlock timeout; and the next launch works, on one node and
//! across two (where every process's count of kernel barriers must be back in step).

use super::mpi::{as_child, child_passes, compile, have_mpirun};
use std::time::{Duration, Instant};
use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::mpi::MpiError;
use weft::runtime::{Arg, RuntimeError};

/// Each rank stores its value, `barrier_all`, gets its next rank's value, `barrier_all`,
/// signals the next rank, waits for its previous rank's signal, `barrier_all`. Rank `bad` names
/// a rank that does not exist in its get (a fault) between the first two barriers; the others
/// then wait for it in the second.
fn failing_kernel() -> Result<weft::compiler::ir::Kernel, DslError> {
    kernel("mpi_fails_on_one_rank", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::I32);
        let sig = a.ptr("sig", Scalar::I64);
        let (bad, epoch) = (a.i64("bad"), a.i64("epoch"));
        let (me, n) = (my_pe(), n_pes());
        let next = (me + 1) % n;
        store(buf, me * 10 + cast(epoch, Scalar::I32));
        barrier_all();
        let from = select(cast(me, Scalar::I64).eq_(bad), n + 5, next);
        get(buf + 1, buf, 1, from, ShmemScope::Block);
        barrier_all();
        signal_op(sig, 1, Signal::Add, next);
        let _ = wait_until(sig, Cmp::Ge, 1i64);
        barrier_all();
        Ok(())
    })
}

#[test]
#[ignore = "a process of mpi_failure::failed_launch_is_reported_promptly_and_the_next_one_works, run under mpirun"]
fn child_failed_launch() {
    as_child(|world, me, n| {
        let k = compile(failing_kernel());
        let (buf, sig) = (world.alloc::<i32>(2).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
        // On 2x2 rank 2 leads the second node: the first node's leader has started the second
        // barrier's collective, the second node's never will.
        let bad = n - 2;
        let start = Instant::now();
        match world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(bad as i64), Arg::I64(1)]) {
            Err(e) if me == bad => assert!(e.to_string().contains("out of range"), "rank {me}: {e}"),
            Err(RuntimeError::Mpi(MpiError::PeerKernelFailed { failed, .. })) => assert_eq!(failed, bad, "rank {me}"),
            other => panic!("rank {me}: expected rank {bad}'s failure, got {other:?}"),
        }
        let took = start.elapsed();
        // The deadlock timeout is 30 s: a deadlock verdict could not come this soon.
        assert!(took < Duration::from_secs(10), "rank {me}: the failure took {took:?}");
        println!("rank {me}: failure of rank {bad} reported after {took:?}");
        for epoch in 2..=3i64 {
            world.write(&sig, me, &[0]).expect("write");
            world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(-1), Arg::I64(epoch)]).expect("a good launch after a failed one");
            let next = (me + 1) % n;
            assert_eq!(world.read(&buf, me).expect("read"), [(me * 10) as i32 + epoch as i32, (next * 10) as i32 + epoch as i32], "rank {me}, epoch {epoch}");
        }
        "good launches after the failure verified".into()
    });
}

#[test]
fn failed_launch_is_reported_promptly_and_the_next_one_works() {
    if !have_mpirun() {
        return;
    }
    for (np, nodes) in [(2, "1"), (4, "2")] {
        let text = child_passes(np, nodes, "mpi_failure::child_failed_launch", &[("WEFT_DEADLOCK_TIMEOUT_MS", "30000")]);
        assert_eq!(text.matches("good launches after the failure verified").count(), np, "{text}");
    }
}
