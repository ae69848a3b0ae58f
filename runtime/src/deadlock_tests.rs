//! A deadlock of hundreds of program instances: the report groups them by op, line and wait;
//! polling loops that trade messages through one word are progress, not a deadlock.

use crate::abi::{cmp, KernelCtx};
use crate::{Arg, Launchable, LocalOptions, RuntimeError, Site, Topology, World, WaitKind};
use std::sync::atomic::{AtomicU64, Ordering};

/// Args: sig (2 words). Program p waits for word p % 3 (0 or 1) to equal 42 + that index, or
/// at barrier_all when p % 3 == 2; nothing ever signals.
unsafe extern "C" fn three_kinds_of_stuck(ctx: *mut KernelCtx, args: *const u64) {
    unsafe {
        let f = &*(*ctx).fns;
        let sig = *args as *mut u64;
        match (*ctx).program_id[0] % 3 {
            2 => (f.barrier_all)(ctx, 1),
            w => {
                let _ = (f.signal_wait_until)(ctx, sig.add(w as usize), cmp::EQ, 42 + w as u64, 0);
            }
        }
    }
}

#[test]
fn hundreds_of_blocked_instances_give_a_grouped_report() {
    let sites = vec![
        Site { op: "shmem.signal_wait_until".into(), loc: "stuck.rs:7:5".into() },
        Site { op: "shmem.barrier_all".into(), loc: "stuck.rs:9:5".into() },
    ];
    let k = Launchable::cpu("stuck", three_kinds_of_stuck, sites, None);
    let world = World::local(4).unwrap();
    let sig = world.alloc::<u64>(2).unwrap();
    let err = world.launch(&k, [64, 1, 1], &[Arg::from(&sig)]).unwrap_err();
    let RuntimeError::Deadlock(report) = &err else { panic!("{err}") };
    assert_eq!((report.waits.len(), report.finished), (256, 0));
    let text = err.to_string();
    // 64 programs per rank: 22 with p % 3 == 0, 21 each for 1 and 2; four ranks.
    let expect = [
        ("88 instance(s) on rank(s) 0-3 `shmem.signal_wait_until` at stuck.rs:7:5: wait for signal at allocation", "== 42", 85),
        ("84 instance(s) on rank(s) 0-3 `shmem.signal_wait_until` at stuck.rs:7:5: wait for signal at allocation", "== 43", 81),
        ("84 instance(s) on rank(s) 0-3 `shmem.barrier_all` at stuck.rs:9:5: wait at barrier_all", "", 81),
    ];
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 2 + 3 * 5, "not a screenful:\n{text}");
    for (head, detail, more) in expect {
        let at = lines.iter().position(|l| l.contains(head) && l.contains(detail)).unwrap_or_else(|| panic!("no group {head:?} {detail:?}:\n{text}"));
        // The first three in full (naming their instance), then the count of the rest.
        assert!(lines[at + 1..at + 4].iter().all(|l| l.trim_start().starts_with("rank ")), "{text}");
        assert_eq!(lines[at + 4].trim(), format!("... and {more} more"), "{text}");
    }
}

/// Args: flag (1 word), messages, extra. Ranks 0 and 1 trade `messages` messages as AMD code
/// does: a plain atomic store of the message number into the peer's flag, then a poll of the
/// own flag (`spin_yield` while it is short), always the same site and word. Rank 1 then
/// waits for `extra` more that never come.
unsafe extern "C" fn ping_pong(ctx: *mut KernelCtx, args: *const u64) {
    unsafe {
        let f = &*(*ctx).fns;
        let (me, flag, messages, extra) = ((*ctx).rank, *args as *mut u64, *args.add(1), *args.add(2));
        // The only runtime call besides the polls: every other call would count as progress.
        let peer = (flag as *mut u8).offset((f.peer_delta)(ctx, 1 - me, 0) as isize) as *const AtomicU64;
        let own = &*(flag as *const AtomicU64);
        let wait = |k: u64| {
            while own.load(Ordering::Acquire) < k {
                (f.spin_yield)(ctx, flag as *const u8, 0);
            }
        };
        for k in 1..=messages {
            if me == 1 {
                wait(k);
            }
            (*peer).store(k, Ordering::Release);
            if me == 0 {
                wait(k);
            }
        }
        if me == 1 {
            wait(messages + extra);
        }
    }
}

#[test]
fn polls_of_one_word_that_trade_messages_are_progress_not_a_deadlock() {
    let k = Launchable::cpu("ping_pong", ping_pong, vec![Site { op: "poll".into(), loc: "pp.rs:1:1".into() }], None);
    // One worker resumes the ranks in turn, deterministically: every round each rank passes
    // its poll, stores, and polls the same word again (the silent rounds that made AMD ring
    // kernels look deadlocked in the emulator); two workers interleave them as they come.
    for workers in [1, 2] {
        let world = World::local_with(LocalOptions { topology: Topology::single_node(2), workers, ..LocalOptions::from_env() }).unwrap();
        let flag = world.alloc::<u64>(1).unwrap();
        let messages = 200 + 100 * workers as u64;
        world.launch(&k, [1, 1, 1], &[Arg::from(&flag), Arg::U64(messages), Arg::U64(0)]).unwrap_or_else(|e| panic!("{workers} workers: {e}"));
        for r in 0..2 {
            assert_eq!(world.read(&flag, r).unwrap(), vec![messages], "rank {r}, {workers} workers");
        }
        // A message that never comes is still a deadlock, reported at the poll.
        let fresh = world.alloc::<u64>(1).unwrap();
        let err = world.launch(&k, [1, 1, 1], &[Arg::from(&fresh), Arg::U64(3), Arg::U64(1)]).unwrap_err();
        let RuntimeError::Deadlock(report) = &err else { panic!("{err}") };
        assert_eq!((report.waits.len(), report.finished), (1, 1), "{err}");
        assert!(matches!(report.waits[0].kind, WaitKind::Spin { .. }) && report.waits[0].origin.rank == 1, "{err}");
    }
}
