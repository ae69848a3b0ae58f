//! Runtime tests with kernels written as Rust `extern "C"` functions that call only through
//! the ABI's function table, exactly as compiled kernels do.

use crate::abi::{cmp, sig_op, KernelCtx};
use crate::heap::{parse_size, Heap};
use crate::{Arg, LocalOptions, Launchable, RuntimeError, Topology, World};
use std::time::{Duration, Instant};

fn launchable(name: &str, entry: crate::abi::KernelFn) -> Launchable {
    let sites = vec![crate::Site { op: "shmem.signal_wait_until".into(), loc: "test.rs:1:1".into() }];
    Launchable::cpu(name, entry, sites, None)
}

/// Args: out (u64[world * programs]), sig (u64[world * programs]), epoch.
/// Each instance pushes its (rank, program) tag to the same slot on the next rank, then waits
/// for the tag from the previous rank and checks it arrived before its signal.
unsafe extern "C" fn ring_tags(ctx: *mut KernelCtx, args: *const u64) {
    unsafe {
        let c = &*ctx;
        let f = &*c.fns;
        let (out, sig, epoch) = (*args as *mut u64, *args.add(1) as *mut u64, *args.add(2));
        let (me, n, p, np) = (c.rank, c.n_ranks, c.program_id[0], c.num_programs[0]);
        let slot = (me * np + p) as usize;
        let tag = [(me as u64) << 32 | p as u64 | epoch << 48];
        let next = (me + 1) % n;
        (f.put_signal)(ctx, out.add(slot) as *mut u8, tag.as_ptr() as *const u8, 8, sig.add(slot), epoch, sig_op::SET, next, 0, 0);
        let prev = (me + n - 1) % n;
        let from = (prev * np + p) as usize;
        (f.signal_wait_until)(ctx, sig.add(from), cmp::GE, epoch, 0);
        let got = *out.add(from);
        assert_eq!(got, (prev as u64) << 32 | p as u64 | epoch << 48);
    }
}

unsafe extern "C" fn wait_forever(ctx: *mut KernelCtx, args: *const u64) {
    unsafe { ((*(*ctx).fns).signal_wait_until)(ctx, *args as *mut u64, cmp::EQ, 42, 0) };
}

unsafe extern "C" fn barrier_then_count(ctx: *mut KernelCtx, args: *const u64) {
    unsafe {
        let f = &*(*ctx).fns;
        let counter = *args as *mut u64;
        (f.barrier_all)(ctx, 0);
        for pe in 0..(*ctx).n_ranks {
            (f.signal_op)(ctx, counter, 1, sig_op::ADD, pe, 0);
        }
        (f.barrier_all)(ctx, 0);
        let total = (*ctx).n_ranks as u64 * (*ctx).num_programs[0] as u64;
        let seen = (f.signal_wait_until)(ctx, counter, cmp::GE, total, 0);
        assert_eq!(seen, total);
    }
}

unsafe extern "C" fn bad_pe(ctx: *mut KernelCtx, args: *const u64) {
    unsafe { ((*(*ctx).fns).put)(ctx, *args as *mut u8, *args as *const u8, 8, 99, 0, 0) };
}

unsafe extern "C" fn nbi_no_quiet(ctx: *mut KernelCtx, args: *const u64) {
    unsafe { ((*(*ctx).fns).put)(ctx, *args as *mut u8, *args as *const u8, 8, 0, crate::abi::flags::NBI, 0) };
}

#[test]
fn many_instances_finish_on_two_cores() {
    let k = launchable("ring_tags", ring_tags);
    for n in 1..=8 {
        let world = World::local(n).unwrap();
        let (out, sig) = (world.alloc::<u64>(n * 16).unwrap(), world.alloc::<u64>(n * 16).unwrap());
        for epoch in 1..=2u64 {
            let r = world.launch(&k, [16, 1, 1], &[Arg::from(&out), Arg::from(&sig), Arg::U64(epoch)]).unwrap();
            assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        }
    }
}

#[test]
fn barrier_synchronises_every_instance() {
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 2, local_size: 3 }, ..LocalOptions::from_env() }).unwrap();
    let counter = world.alloc::<u64>(1).unwrap();
    world.launch(&launchable("barrier", barrier_then_count), [4, 1, 1], &[Arg::from(&counter)]).unwrap();
    for r in 0..6 {
        assert_eq!(world.read(&counter, r).unwrap(), vec![24]);
    }
}

#[test]
fn planted_deadlock_names_every_blocked_wait() {
    let world = World::local(3).unwrap();
    let sig = world.alloc::<u64>(1).unwrap();
    let start = Instant::now();
    let err = world.launch(&launchable("stuck", wait_forever), [2, 1, 1], &[Arg::from(&sig)]).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5));
    let RuntimeError::Deadlock(report) = &err else { panic!("{err}") };
    assert_eq!(report.waits.len(), 6);
    let text = err.to_string();
    assert!(text.contains("rank 2 program (1,0,0)") && text.contains("== 42, but it is 0") && text.contains("test.rs:1:1"), "{text}");
}

#[test]
fn faults_and_warnings() {
    let world = World::local(2).unwrap();
    let buf = world.alloc::<u64>(1).unwrap();
    let err = world.launch(&launchable("bad_pe", bad_pe), [1, 1, 1], &[Arg::from(&buf)]).unwrap_err();
    assert!(err.to_string().contains("rank 99 out of range"), "{err}");
    let r = world.launch(&launchable("nbi", nbi_no_quiet), [1, 1, 1], &[Arg::from(&buf)]).unwrap();
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
}

#[test]
fn heap_reuse_is_zeroed_and_sizes_parse() {
    let heap = Heap::new(2, 1 << 20).unwrap();
    let a = heap.alloc(1000).unwrap();
    unsafe { std::ptr::write_bytes(heap.base(1).add(a.offset), 0xAB, 1000) };
    heap.free(a);
    let b = heap.alloc(1000).unwrap();
    assert_eq!(b.offset, a.offset);
    assert!((0..1000).all(|i| unsafe { *heap.base(1).add(b.offset + i) } == 0));
    assert!(heap.alloc(2 << 20).is_err());
    assert_eq!(parse_size("4G"), Some(4 << 30));
    assert_eq!(parse_size("512M"), Some(512 << 20));
    assert_eq!(parse_size("x"), None);
}

#[test]
fn topology_math() {
    let t = Topology { nodes: 2, local_size: 4 };
    assert_eq!((t.world_size(), t.node_of(5), t.local_rank(5)), (8, 1, 1));
    assert!(Topology { nodes: 0, local_size: 4 }.validate().is_err());
    assert_eq!(t.to_string(), "2x4");
}
