//! Planted bugs for the `local` transport's checks: a put past the end of its allocation, two
//! ranks' overlapping puts, a read of bytes another rank is still writing, a signal sent after
//! a non-blocking put with no fence, and their correctly ordered twins, which must pass.
//! Kernels are Rust `extern "C"` functions calling through the ABI table, as compiled ones do.

use crate::abi::{cmp, flags, sig_op, KernelCtx, RtFns};
use crate::checks::{AccessKind, RaceKind};
use crate::{Arg, LaunchOptions, Launchable, RuntimeError, Site, World};

const PUT: i32 = 0;
const SIGNAL: i32 = 1;
const WAIT: i32 = 2;
const GET: i32 = 3;

fn kernel(name: &str, entry: crate::abi::KernelFn) -> Launchable {
    let site = |op: &str, line: u32| Site { op: op.into(), loc: format!("user_kernel.rs:{line}:9") };
    let sites = vec![site("shmem.put", 10), site("shmem.signal_op", 11), site("shmem.signal_wait_until", 12), site("shmem.get", 13)];
    Launchable::cpu(name, entry, sites, None)
}

fn racecheck() -> LaunchOptions {
    LaunchOptions { racecheck: true, ..LaunchOptions::default() }
}

/// (context, table, rank, program, args[0..4]).
unsafe fn parts<'a>(ctx: *mut KernelCtx, args: *const u64) -> (&'a RtFns, i32, i32, [u64; 4]) {
    unsafe { (&*(*ctx).fns, (*ctx).rank, (*ctx).program_id[0], [*args, *args.add(1), *args.add(2), *args.add(3)]) }
}

/// Args: buf (64 bytes). Rank 0 puts 16 bytes at byte 56 of rank 1's `buf`.
unsafe extern "C" fn put_past_end(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, _, [buf, ..]) = unsafe { parts(ctx, args) };
    let src = [7u64; 2];
    if me == 0 {
        unsafe { (f.put)(ctx, (buf + 56) as *mut u8, src.as_ptr() as *const u8, 16, 1, 0, PUT) };
    }
}

/// Args: buf (128 bytes), src (64 bytes). Program 1 of ranks 0 and 1 puts 64 bytes from `src`
/// into rank 0's `buf` at byte 32 * rank: bytes 32..64 are written by both, unordered.
unsafe extern "C" fn overlapping_puts(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, p, [buf, src, ..]) = unsafe { parts(ctx, args) };
    if p == 1 && me < 2 {
        unsafe { (f.put)(ctx, (buf + 32 * me as u64) as *mut u8, src as *const u8, 64, 0, 0, PUT) };
    }
}

/// Args: buf (64 bytes), src (64 bytes), sig (8 bytes), wait. Rank 1 puts into rank 0's `buf`
/// and signals it; rank 0 overwrites `buf` from `src`, after waiting for the signal when
/// `wait` is 1 (ordered), else before (a race), and waits at the end either way.
unsafe extern "C" fn overwrite_after_signal(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, _, [buf, src, sig, wait]) = unsafe { parts(ctx, args) };
    unsafe {
        if me == 1 {
            (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 0, 0, PUT);
            (f.signal_op)(ctx, sig as *mut u64, 1, sig_op::SET, 0, SIGNAL);
        } else if me == 0 {
            if wait == 1 {
                (f.signal_wait_until)(ctx, sig as *mut u64, cmp::EQ, 1, WAIT);
            }
            (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 0, 0, PUT);
            (f.signal_wait_until)(ctx, sig as *mut u64, cmp::EQ, 1, WAIT);
        }
    }
}

/// Args: buf (64 bytes), src (64 bytes), sig. Rank 1 puts into rank 0's `buf`; rank 0 reads
/// word 3 of its own `buf` with a get, not waiting for the signal rank 1 sends after.
unsafe extern "C" fn read_while_written(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, _, [buf, src, sig, _]) = unsafe { parts(ctx, args) };
    let mut word = [0u64; 1];
    unsafe {
        if me == 1 {
            (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 0, 0, PUT);
            (f.signal_op)(ctx, sig as *mut u64, 1, sig_op::SET, 0, SIGNAL);
        } else if me == 0 {
            (f.get)(ctx, word.as_mut_ptr() as *mut u8, (buf + 24) as *const u8, 8, 0, 0, GET);
            (f.signal_wait_until)(ctx, sig as *mut u64, cmp::EQ, 1, WAIT);
        }
    }
}

/// Args: buf (64 bytes), src (64 bytes), sig, fence. Rank 0 puts (nbi) into rank 1's `buf`,
/// fences when `fence` is 1, and signals rank 1, which waits and then overwrites `buf`.
unsafe extern "C" fn nbi_then_signal(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, _, [buf, src, sig, fence]) = unsafe { parts(ctx, args) };
    unsafe {
        if me == 0 {
            (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 1, flags::NBI, PUT);
            if fence == 1 {
                (f.fence)(ctx, PUT);
            }
            (f.signal_op)(ctx, sig as *mut u64, 1, sig_op::SET, 1, SIGNAL);
            (f.quiet)(ctx, PUT);
        } else if me == 1 {
            (f.signal_wait_until)(ctx, sig as *mut u64, cmp::EQ, 1, WAIT);
            (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 1, 0, PUT);
        }
    }
}

/// Args: buf (64 bytes), src (64 bytes). Program 0 of every rank writes rank 0's `buf` in turn, one per
/// barrier-separated phase: ordered by the barriers.
unsafe extern "C" fn phases_by_barrier(ctx: *mut KernelCtx, args: *const u64) {
    let (f, me, p, [buf, src, ..]) = unsafe { parts(ctx, args) };
    unsafe {
        for phase in 0..(*ctx).n_ranks {
            if phase == me && p == 0 {
                (f.put)(ctx, buf as *mut u8, src as *const u8, 64, 0, 0, PUT);
            }
            (f.barrier_all)(ctx, PUT);
        }
    }
}

struct Bufs {
    world: World,
    args: Vec<Arg>,
    ids: Vec<u64>,
}

/// `ranks` ranks with buffers of these byte sizes, then the scalar `extra`.
fn setup(ranks: usize, sizes: &[usize], extra: i64) -> Bufs {
    let world = World::local(ranks).unwrap();
    let raws: Vec<_> = sizes.iter().map(|&b| world.alloc_bytes(b).unwrap()).collect();
    let mut args: Vec<Arg> = raws.iter().map(|&r| Arg::Buf(r)).collect();
    args.push(Arg::I64(extra));
    Bufs { world, args, ids: raws.iter().map(|r| r.id).collect() }
}

fn race_of(r: Result<crate::LaunchReport, RuntimeError>) -> RaceKind {
    match r {
        Err(RuntimeError::Race(rep)) => {
            let text = rep.to_string();
            assert!(text.contains("missing ordering") && text.contains("user_kernel.rs:"), "{text}");
            rep.kind
        }
        other => panic!("expected a race report, got {:?}", other.map(|r| r.warnings)),
    }
}

#[test]
fn a_put_past_the_end_of_its_allocation_faults_with_its_span() {
    let b = setup(2, &[64], 0);
    let err = b.world.launch(&kernel("past_end", put_past_end), [1, 1, 1], &b.args).unwrap_err();
    let RuntimeError::OutOfBounds(f) = &err else { panic!("{err}") };
    assert_eq!((f.origin.rank, f.origin.op.as_str(), f.origin.loc.as_str()), (0, "shmem.put", "user_kernel.rs:10:9"));
    assert_eq!((f.operand, f.span.rank, f.span.alloc, f.span.offset, f.span.len), ("destination", 1, Some((b.ids[0], 64)), 56, 16));
    assert!(err.to_string().contains("past its end by 8 bytes"), "{err}");
    // The check is what stops it: a launch with bounds checks off writes past the end.
    let unchecked = LaunchOptions { bounds_check: false, ..LaunchOptions::default() };
    let (crate::Arg::Buf(raw), mut spill) = (b.args[0], [0u8; 8]) else { panic!("buf is a buffer") };
    b.world.launch_with(&kernel("past_end", put_past_end), [1, 1, 1], &b.args, &unchecked).unwrap();
    b.world.read_bytes(crate::RawBuf { bytes: 72, ..raw }, 1, 64, &mut spill).unwrap();
    assert_eq!(spill, [7, 0, 0, 0, 0, 0, 0, 0]);
    // Nothing was written: the next allocation's first bytes on rank 1 are still zero.
    let next = b.world.alloc_bytes(64).unwrap();
    let mut out = [1u8; 64];
    b.world.read_bytes(next, 1, 0, &mut out).unwrap();
    assert!(out.iter().all(|&x| x == 0));
}

#[test]
fn overlapping_puts_from_two_ranks_are_a_race_naming_both() {
    let b = setup(2, &[128, 64], 0);
    let RaceKind::DataRace { first, second } = race_of(b.world.launch_with(&kernel("overlap", overlapping_puts), [2, 1, 1], &b.args, &racecheck())) else {
        panic!("not a data race")
    };
    let mut ranks = [first.origin.rank, second.origin.rank];
    ranks.sort();
    assert_eq!(ranks, [0, 1]);
    for a in [&first, &second] {
        assert_eq!((a.kind, a.origin.program, a.origin.op.as_str(), a.span.rank), (AccessKind::Write, [1, 0, 0], "shmem.put", 0));
        assert_eq!((a.span.alloc, a.span.offset, a.span.len), (Some((b.ids[0], 128)), 32 * a.origin.rank, 64));
    }
    // Without the detector the same launch runs (the race is silent).
    b.world.launch(&kernel("overlap", overlapping_puts), [2, 1, 1], &b.args).unwrap();
}

#[test]
fn a_wait_on_the_writers_signal_orders_the_overwrite() {
    let b = setup(2, &[64, 64, 8], 1);
    b.world.launch_with(&kernel("ordered", overwrite_after_signal), [1, 1, 1], &b.args, &racecheck()).unwrap();
    let b = setup(2, &[64, 64, 8], 0);
    let RaceKind::DataRace { first, second } = race_of(b.world.launch_with(&kernel("unordered", overwrite_after_signal), [1, 1, 1], &b.args, &racecheck())) else {
        panic!("not a data race")
    };
    assert_ne!(first.origin.rank, second.origin.rank);
    assert_eq!((first.kind, second.kind), (AccessKind::Write, AccessKind::Write));
}

#[test]
fn a_read_of_bytes_another_rank_is_writing_is_a_race() {
    let b = setup(2, &[64, 64, 8], 0);
    let RaceKind::DataRace { first, second } = race_of(b.world.launch_with(&kernel("read", read_while_written), [1, 1, 1], &b.args, &racecheck())) else {
        panic!("not a data race")
    };
    let (read, write) = if first.kind == AccessKind::Read { (first, second) } else { (second, first) };
    assert_eq!((read.origin.rank, read.origin.op.as_str(), read.span.offset, read.span.len), (0, "shmem.get", 24, 8));
    assert_eq!((write.kind, write.origin.rank, write.span.rank, write.span.len), (AccessKind::Write, 1, 0, 64));
}

#[test]
fn a_signal_after_a_nonblocking_put_needs_a_fence() {
    let b = setup(2, &[64, 64, 8], 1);
    b.world.launch_with(&kernel("fenced", nbi_then_signal), [1, 1, 1], &b.args, &racecheck()).unwrap();
    let b = setup(2, &[64, 64, 8], 0);
    let RaceKind::UnfencedSignal { put, signal } = race_of(b.world.launch_with(&kernel("unfenced", nbi_then_signal), [1, 1, 1], &b.args, &racecheck())) else {
        panic!("not an ordering report")
    };
    assert_eq!((put.origin.rank, put.span.rank, put.span.alloc, put.span.len), (0, 1, Some((b.ids[0], 64)), 64));
    assert_eq!((signal.rank, signal.op.as_str(), signal.loc.as_str()), (0, "shmem.signal_op", "user_kernel.rs:11:9"));
}

#[test]
fn barriers_order_every_phase() {
    let b = setup(4, &[64, 64], 0);
    b.world.launch_with(&kernel("phases", phases_by_barrier), [2, 1, 1], &b.args, &racecheck()).unwrap();
}
