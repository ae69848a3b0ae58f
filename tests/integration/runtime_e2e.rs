//! Compiled kernels on the `local` transport: signals across ranks, and the failure reports
//! (planted deadlock, kernel faults, unfinished work) that must replace hangs and crashes.

use std::time::{Duration, Instant};
use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, RuntimeError, World};

fn compile(k: Result<weft::compiler::ir::Kernel, DslError>) -> weft::runtime::Launchable {
    weft::compile(&k.expect("kernel builds"), &weft::Options::default()).expect("kernel compiles").launchable()
}

/// Each rank sends its id to the next rank with put_signal; the next rank waits and checks.
fn ring_kernel() -> Result<weft::compiler::ir::Kernel, DslError> {
    kernel("e2e_ring", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::I32);
        let sig = a.ptr("sig", Scalar::I64);
        let epoch = a.i64("epoch");
        let me = my_pe();
        let next = (me + 1) % n_pes();
        store(buf + 1, me * 10 + 7);
        put_signal(buf, buf + 1, 1, sig, epoch, next, PutSignal::default());
        let tok = wait_until(sig, Cmp::Ge, epoch);
        let got = load(consume_token(buf, tok));
        store(buf + 2, got);
        Ok(())
    })
}

#[test]
fn put_signal_ring_delivers_data_before_signal() {
    let k = compile(ring_kernel());
    for n in 1..=8 {
        let world = World::local(n).expect("world");
        let buf = world.alloc::<i32>(3).expect("alloc");
        let sig = world.alloc::<u64>(1).expect("alloc");
        for epoch in 1..=3i64 {
            world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(epoch)]).expect("launch");
            for r in 0..n {
                let left = (r + n - 1) % n;
                assert_eq!(world.read(&buf, r).expect("read")[2], left as i32 * 10 + 7, "rank {r} of {n}");
            }
        }
    }
}

#[test]
fn planted_deadlock_is_reported_not_hung() {
    let k = compile(kernel("planted_deadlock", &Constexprs::new(), |a| {
        let sig = a.ptr("sig", Scalar::I64);
        let _ = wait_until(sig, Cmp::Eq, 42);
        Ok(())
    }));
    let world = World::local(2).expect("world");
    let sig = world.alloc::<u64>(1).expect("alloc");
    let start = Instant::now();
    let err = world.launch(&k, [2, 1, 1], &[Arg::from(&sig)]).expect_err("must deadlock");
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    let text = err.to_string();
    assert!(matches!(err, RuntimeError::Deadlock(_)), "{text}");
    for needle in ["rank 0", "rank 1", "shmem.signal_wait_until", "runtime_e2e.rs", "42"] {
        assert!(text.contains(needle), "report lacks {needle:?}:\n{text}");
    }
}

#[test]
fn remote_access_to_a_rank_out_of_range_is_a_fault() {
    let k = compile(kernel("bad_pe", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::F32);
        put(buf, buf, 1, n_pes() + 3, ShmemScope::Block);
        Ok(())
    }));
    let world = World::local(2).expect("world");
    let buf = world.alloc::<f32>(4).expect("alloc");
    let err = world.launch(&k, [1, 1, 1], &[Arg::from(&buf)]).expect_err("pe out of range");
    assert!(matches!(err, RuntimeError::KernelFault(_)), "{err}");
    assert!(err.to_string().contains("shmem.put"), "{err}");
}

#[test]
fn host_side_misuse_is_a_typed_error() {
    let world = World::local(2).expect("world");
    let buf = world.alloc::<f32>(4).expect("alloc");
    assert!(matches!(world.write(&buf, 5, &[0.0; 4]), Err(RuntimeError::RankOutOfRange { .. })));
    assert!(matches!(world.write(&buf, 0, &[0.0; 3]), Err(RuntimeError::SizeMismatch { .. })));
}

#[test]
fn nbi_without_quiet_is_reported() {
    let k = compile(kernel("nbi_no_quiet", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::F32);
        put_nbi(buf + 1, buf, 1, (my_pe() + 1) % n_pes(), ShmemScope::Block);
        Ok(())
    }));
    let world = World::local(2).expect("world");
    let buf = world.alloc::<f32>(2).expect("alloc");
    let report = world.launch(&k, [1, 1, 1], &[Arg::from(&buf)]).expect("launch");
    let text: Vec<String> = report.warnings.iter().map(|w| w.to_string()).collect();
    assert!(text.iter().any(|w| w.contains("quiet")), "{text:?}");
}

/// Rank 0 runs a serial f32 recurrence for `iters` steps (the others for none), then every
/// rank sends its result to the next one with put_signal and waits for its left neighbour's.
/// With `signal = 0` nobody's wait can ever be satisfied.
fn slow_producer() -> weft::runtime::Launchable {
    compile(kernel("slow_producer", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::F32);
        let sig = a.ptr("sig", Scalar::I64);
        let iters = a.i64("iters");
        let signal = a.i64("signal");
        let me = my_pe();
        let n = select(me.eq_(0), iters, 0i64);
        let x = for_range_carry(0i64, n, 1i64, &[constant(1.0, Scalar::F32, &[])], |_, c| vec![c[0] * 1.000_000_1 + 1e-7])[0];
        store(buf, x);
        let next = (me + 1) % n_pes();
        put_signal(buf + 1, buf, 1, sig, signal, next, PutSignal::default());
        let tok = wait_until(sig, Cmp::Ge, 1i64);
        store(buf + 2, load(consume_token(buf + 1, tok)));
        Ok(())
    }))
}

fn recurrence(iters: i64) -> f32 {
    (0..iters).fold(1.0f32, |x, _| x * 1.000_000_1 + 1e-7)
}

/// A rank that computes for longer than the deadlock timeout before it signals is running,
/// not stuck: the launch finishes and is correct. A wait nobody can satisfy is still reported.
#[test]
fn long_compute_is_not_a_deadlock_but_a_missing_signal_is() {
    let timeout = Duration::from_millis(300);
    let k = slow_producer();
    let opts = |n| weft::runtime::LocalOptions { topology: weft::runtime::Topology::single_node(n), deadlock_timeout: timeout, ..Default::default() };
    // Calibrate the recurrence's speed on one rank, then make rank 0 compute ~6 timeouts (at least 2 under load).
    let one = World::local_with(opts(1)).expect("world");
    let (b1, s1) = (one.alloc::<f32>(3).expect("alloc"), one.alloc::<u64>(1).expect("alloc"));
    let probe = 5_000_000i64;
    let t = Instant::now();
    one.launch(&k, [1, 1, 1], &[Arg::from(&b1), Arg::from(&s1), Arg::I64(probe), Arg::I64(1)]).expect("calibration launch");
    let per_iter = t.elapsed().as_secs_f64() / probe as f64;
    let iters = (6.0 * timeout.as_secs_f64() / per_iter) as i64;
    for n in [2, 4] {
        let world = World::local_with(opts(n)).expect("world");
        let (buf, sig) = (world.alloc::<f32>(3).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
        let t = Instant::now();
        world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(iters), Arg::I64(1)]).expect("slow but healthy launch");
        let healthy = t.elapsed();
        assert!(healthy > 2 * timeout, "the compute phase ({healthy:?}) must outlast the timeout twice");
        let got = world.read(&buf, 1).expect("read")[2];
        assert_eq!(got.to_bits(), recurrence(iters).to_bits(), "rank 1 of {n} got rank 0's result");
        let stuck = World::local_with(opts(n)).expect("world");
        let (buf, sig) = (stuck.alloc::<f32>(3).expect("alloc"), stuck.alloc::<u64>(1).expect("alloc"));
        let t = Instant::now();
        let err = stuck.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(iters), Arg::I64(0)]).expect_err("nobody signals");
        assert!(matches!(err, RuntimeError::Deadlock(_)), "{err}");
        // The stuck launch computes as long as the healthy one did before its wait can be
        // stuck; the bound follows that compute, which load on the machine stretches (15 s at
        // load 11 against a 10 s fixed bound).
        assert!(t.elapsed() < 2 * healthy + Duration::from_secs(10), "reported after {:?} (the healthy launch took {healthy:?})", t.elapsed());
    }
}
