//! A deadlock of hundreds of program instances: the report groups them by op, line and wait.

use crate::abi::{cmp, KernelCtx};
use crate::{Arg, Launchable, RuntimeError, Site, World};

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
