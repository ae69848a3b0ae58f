//! Copy-engine tests: a kernel that waits on the engine's signals and checks each chunk's
//! bytes (a signal never overtakes its data, under random sizes), pull-style waits on
//! another queue's signals, the lowering to GPU stream ops, and every plan error.

use super::stream_ops::{lower, StreamOp};
use super::*;
use crate::abi::{cmp, KernelCtx};
use crate::{Arg, LocalOptions, Launchable, RuntimeError, Topology, World};
use rand::{Rng, SeedableRng};

/// Args: data (u8[world * cap]), sig (u64[world]), bad (u64), lens (u64[world]), epoch.
/// Program 0 of each rank waits for each source's signal, then checks every byte of the
/// chunk that source pushed against the pattern; mismatches are counted in `bad`.
unsafe extern "C" fn check_chunks(ctx: *mut KernelCtx, args: *const u64) {
    unsafe {
        let c = &*ctx;
        let f = &*c.fns;
        let (data, sig, bad, lens, epoch) = (*args as *const u8, *args.add(1) as *mut u64, *args.add(2) as *mut u64, *args.add(3) as *const u64, *args.add(4));
        let cap = *args.add(5) as usize;
        for src in 0..c.n_ranks as usize {
            (f.signal_wait_until)(ctx, sig.add(src), cmp::GE, epoch, 0);
            for i in 0..*lens.add(src) as usize {
                if *data.add(src * cap + i) != pattern(src, i, epoch) {
                    *bad += 1;
                }
            }
        }
    }
}

fn pattern(src: usize, i: usize, epoch: u64) -> u8 {
    (src * 31 + i * 7 + epoch as usize * 13) as u8
}

fn launchable(entry: crate::abi::KernelFn) -> Launchable {
    Launchable::cpu("ce_test", entry, vec![crate::Site { op: "shmem.signal_wait_until".into(), loc: "test.rs:1:1".into() }], None)
}

fn world(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::default() }).unwrap()
}

/// Every rank pushes a random-length chunk (in pieces, one signal at the end) to every rank,
/// pull-mode ranks instead fetch theirs after a ready flag; over many launches, the kernel
/// never sees a signal before its chunk's bytes.
#[test]
fn signals_never_overtake_their_data_under_random_sizes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(19);
    for (nodes, local) in [(1, 1), (1, 3), (2, 2), (1, 8)] {
        let w = world(nodes, local);
        let n = nodes * local;
        let cap = 1 << 14;
        let (src, data) = (w.alloc_bytes(n * cap).unwrap(), w.alloc_bytes(n * cap).unwrap());
        let (sig, ready, bad, lens) = (w.alloc_bytes(8 * n).unwrap(), w.alloc_bytes(8 * n).unwrap(), w.alloc_bytes(8).unwrap(), w.alloc_bytes(8 * n).unwrap());
        let k = launchable(check_chunks);
        for epoch in 1..=6u64 {
            let len: Vec<usize> = (0..n).map(|_| rng.random_range(1..cap)).collect();
            let pull = epoch % 2 == 0;
            let mut plan = CopyPlan::new(n);
            for r in 0..n {
                // Rank r's chunk sits at slot r of `src` on rank r (the place pull reads).
                let bytes: Vec<u8> = (0..len[r]).map(|i| pattern(r, i, epoch)).collect();
                w.write_bytes(src, r, r * cap, &bytes).unwrap();
                let lens_host: Vec<u8> = len.iter().flat_map(|&l| (l as u64).to_le_bytes()).collect();
                w.write_bytes(lens, r, 0, &lens_host).unwrap();
                w.write_bytes(bad, r, 0, &[0; 8]).unwrap();
                let piece = rng.random_range(1..=len[r]);
                for step in 0..n {
                    let dst = (r + step) % n;
                    if pull {
                        plan.push(r, CopyOp::Signal { sig: At::new(ready, 8 * r), value: epoch, pe: dst });
                        continue;
                    }
                    for off in (0..len[r]).step_by(piece) {
                        let b = piece.min(len[r] - off);
                        plan.push(r, CopyOp::Put { dst: At::new(data, r * cap + off), src: At::new(src, r * cap + off), bytes: b, pe: dst });
                    }
                    plan.push(r, CopyOp::Signal { sig: At::new(sig, 8 * r), value: epoch, pe: dst });
                }
                if pull {
                    for step in 0..n {
                        let from = (r + step) % n;
                        plan.push(r, CopyOp::Wait { sig: At::new(ready, 8 * from), value: epoch });
                        plan.push(r, CopyOp::Get { dst: At::new(data, from * cap), src: At::new(src, from * cap), bytes: len[from], pe: from });
                        plan.push(r, CopyOp::Signal { sig: At::new(sig, 8 * from), value: epoch, pe: r });
                    }
                }
            }
            let args = [Arg::Buf(data), Arg::Buf(sig), Arg::Buf(bad), Arg::Buf(lens), Arg::I64(epoch as i64), Arg::I64(cap as i64)];
            w.launch_with_copies(&k, [1, 1, 1], &args, &plan).unwrap_or_else(|e| panic!("{nodes}x{local} epoch {epoch}: {e}"));
            for r in 0..n {
                let mut b = [0u8; 8];
                w.read_bytes(bad, r, 0, &mut b).unwrap();
                assert_eq!(u64::from_le_bytes(b), 0, "{nodes}x{local} epoch {epoch} pull={pull}: rank {r} saw bytes before their signal");
                // And the data is all there afterwards, checked independently of the kernel.
                for s in 0..n {
                    let mut got = vec![0u8; len[s]];
                    w.read_bytes(data, r, s * cap, &mut got).unwrap();
                    assert!(got.iter().enumerate().all(|(i, &x)| x == pattern(s, i, epoch)), "rank {r} chunk of {s}");
                }
            }
        }
    }
}

unsafe extern "C" fn wait_forever(ctx: *mut KernelCtx, args: *const u64) {
    unsafe { ((*(*ctx).fns).signal_wait_until)(ctx, *args as *mut u64, cmp::GE, 1, 0) };
}

#[test]
fn bad_plans_are_typed_errors_before_anything_runs() {
    let w = world(1, 2);
    let (a, s) = (w.alloc_bytes(64).unwrap(), w.alloc_bytes(16).unwrap());
    let k = launchable(wait_forever);
    let run = |op: CopyOp| {
        let mut plan = CopyPlan::new(2);
        plan.push(1, op);
        w.launch_with_copies(&k, [1, 1, 1], &[Arg::Buf(s)], &plan).err().expect("a bad plan fails")
    };
    let put = |dst: usize, src: usize, bytes: usize, pe: usize| CopyOp::Put { dst: At::new(a, dst), src: At::new(a, src), bytes, pe };
    let e = run(put(0, 0, 8, 2));
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::BadRank { rank: 1, index: 0, pe: 2, world: 2 })), "{e}");
    let e = run(put(60, 0, 8, 0));
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::OutOfBounds { what: "destination", offset: 60, bytes: 8, alloc_bytes: 64, .. })), "{e}");
    assert!(e.to_string().contains("outside its 64-byte allocation"), "{e}");
    let e = run(put(0, usize::MAX, 8, 0));
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::OutOfBounds { what: "source", .. })), "{e}");
    let e = run(CopyOp::Signal { sig: At::new(s, 12), value: 1, pe: 0 });
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::OutOfBounds { what: "signal", .. })), "{e}");
    let e = run(CopyOp::Wait { sig: At::new(s, 4), value: 1 });
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::Misaligned { offset: 4, .. })), "{e}");
    let mut plan = CopyPlan::new(2);
    plan.push(3, CopyOp::Signal { sig: At::new(s, 0), value: 1, pe: 0 });
    let e = w.launch_with_copies(&k, [1, 1, 1], &[Arg::Buf(s)], &plan).err().unwrap();
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::TooManyQueues { queues: 4, world: 2 })), "{e}");
    // Nothing ran: the signal the kernel would have waited for is still 0.
    let mut b = [0u8; 8];
    w.read_bytes(s, 0, 0, &mut b).unwrap();
    assert_eq!(u64::from_le_bytes(b), 0);
}

#[test]
fn a_queue_waiting_for_a_signal_nobody_writes_times_out_with_its_op() {
    let w = World::local_with(LocalOptions { deadlock_timeout: std::time::Duration::from_millis(200), ..LocalOptions::default() }).unwrap();
    let s = w.alloc_bytes(16).unwrap();
    let mut plan = CopyPlan::new(1);
    plan.push(0, CopyOp::Wait { sig: At::new(s, 8), value: 7 });
    plan.push(0, CopyOp::Signal { sig: At::new(s, 0), value: 1, pe: 0 });
    let e = w.launch_with_copies(&launchable(wait_forever), [1, 1, 1], &[Arg::Buf(s)], &plan).err().unwrap();
    assert!(matches!(e, RuntimeError::CopyEngine(CopyError::WaitTimeout { rank: 0, index: 0, expected: 7, current: 0, .. })), "{e}");
}

#[test]
fn queues_lower_to_stream_ops_with_peer_addresses() {
    let buf = crate::RawBuf { id: 1, offset: 0x1000, bytes: 256 };
    // Rank 1 reaches rank 0 and itself; rank 2 sits on another node.
    let addr = |at: At, pe: usize| (pe < 2).then(|| 0x10_0000 * (pe as u64 + 1) + (at.buf.offset + at.offset) as u64);
    let ops = [
        CopyOp::Put { dst: At::new(buf, 8), src: At::new(buf, 16), bytes: 32, pe: 0 },
        CopyOp::Get { dst: At::new(buf, 0), src: At::new(buf, 64), bytes: 8, pe: 0 },
        CopyOp::Signal { sig: At::new(buf, 128), value: 5, pe: 0 },
        CopyOp::Wait { sig: At::new(buf, 136), value: 6 },
    ];
    let got = lower(1, &ops, &addr).unwrap();
    assert_eq!(
        got,
        vec![
            StreamOp::Copy { dst: 0x10_1008, src: 0x20_1010, bytes: 32 },
            StreamOp::Copy { dst: 0x20_1000, src: 0x10_1040, bytes: 8 },
            StreamOp::Write { addr: 0x10_1080, value: 5 },
            StreamOp::WaitGeq { addr: 0x20_1088, value: 6 },
        ]
    );
    let e = lower(1, &[CopyOp::Signal { sig: At::new(buf, 0), value: 1, pe: 2 }], &addr).unwrap_err();
    assert!(matches!(e, CopyError::Unreachable { rank: 1, index: 0, pe: 2, .. }), "{e}");
}
