//! Scheduling: fusion, thread blocks and channels, dependencies, instances, FIFO slots.

use std::sync::Arc;

use super::*;

/// A collective with every input initialized and no postcondition, for free-form programs.
fn anything(ranks: usize, chunks: usize) -> Collective {
    Collective::Custom(CustomCollective {
        name: "custom".into(),
        ranks,
        input_chunks: chunks,
        output_chunks: chunks,
        precondition: Arc::new(|_, _| true),
        postcondition: Arc::new(|_, _| None),
    })
}

fn free_program(ranks: usize, chunks: usize) -> Program {
    Program::new(ProgramSpec::new("free", anything(ranks, chunks))).unwrap()
}

fn ring(n: usize, instances: usize) -> Algorithm {
    algorithms::ring_allreduce(&algorithms::AlgoParams::new(n).instances(instances)).unwrap()
}

#[test]
fn ring_allreduce_fuses_like_msccl_tools() {
    for n in 3..=8 {
        let ir = schedule_verify_roundtrip(&ring(n, 1));
        for g in 0..n {
            let gpu = &ir.gpus[g];
            assert_eq!(gpu.tbs.len(), 1, "one thread block per rank");
            assert_eq!((gpu.tbs[0].send, gpu.tbs[0].recv), (Some((g + 1) % n), Some((g + n - 1) % n)));
            // Per rank: start one chunk (s), pass n-2 partial sums on (rrs), finish its own
            // chunk (rrcs), forward n-2 results (rcs) and receive the last one (r).
            let counts: Vec<usize> = [
                StepKind::Send,
                StepKind::RecvReduceSend,
                StepKind::RecvReduceCopySend,
                StepKind::RecvCopySend,
                StepKind::Recv,
            ]
            .iter()
            .map(|&k| count_kind(&ir, g, k))
            .collect();
            assert_eq!(counts, vec![1, n - 2, 1, n - 2, 1], "gpu {g} of {n}");
            assert_eq!(gpu.tbs[0].steps.len(), 2 * n - 1);
            assert!(gpu.tbs[0].steps.iter().all(|s| s.dep.is_none() && !s.has_dep));
        }
    }
}

#[test]
fn without_fusion_every_send_and_receive_is_separate() {
    let cfg = ScheduleConfig { fuse: false, ..ScheduleConfig::default() };
    let n = 4;
    let ir = schedule(&ring(n, 1), &cfg).unwrap();
    verify_ir(&ir, &Collective::AllReduce { ranks: n, chunks: n }).unwrap();
    for g in 0..n {
        assert_eq!(count_kind(&ir, g, StepKind::Send), 2 * n - 2);
        assert_eq!(count_kind(&ir, g, StepKind::RecvReduceCopy), n - 1);
        assert_eq!(count_kind(&ir, g, StepKind::Recv), n - 1);
    }
}

#[test]
fn instances_get_their_own_channels_and_sub_chunks() {
    let n = 4;
    let ir = schedule_verify_roundtrip(&ring(n, 2));
    assert_eq!((ir.nchannels, ir.nchunksperloop), (2, 2 * n));
    for gpu in &ir.gpus {
        assert_eq!(gpu.input_chunks, 2 * n);
        let channels: Vec<usize> = gpu.tbs.iter().map(|t| t.channel).collect();
        assert_eq!(channels, vec![0, 1]);
        // Instance i touches only sub-chunks k*2+i.
        for tb in &gpu.tbs {
            assert!(tb.steps.iter().filter_map(|s| s.src).all(|b| b.index % 2 == tb.channel));
        }
    }
    // Checked against the unscaled collective, the sub-chunk indices are out of range.
    let err = verify_ir(&ir, &Collective::AllReduce { ranks: n, chunks: n }).unwrap_err();
    assert!(matches!(err, MscclError::IrExecution { .. }), "{err}");
}

#[test]
fn cross_thread_block_dependency_when_hints_split_receive_and_forward() {
    // Rank 1 receives in thread block 0 and forwards from thread block 1: no fusion, and the
    // forward must wait for the receive.
    let p = free_program(3, 1);
    let staged =
        p.chunk(0, Buffer::Input, 0, 1).unwrap().copy_with(1, Buffer::Scratch, 0, Hints::new().recv_tb(0)).unwrap();
    staged.copy_with(2, Buffer::Output, 0, Hints::new().send_tb(1)).unwrap();
    let ir = schedule_verify_roundtrip(&p.finish().unwrap());
    let gpu = &ir.gpus[1];
    let recv_tb = gpu.tbs.iter().position(|t| t.recv == Some(0)).unwrap();
    let send_tb = gpu.tbs.iter().position(|t| t.send == Some(2)).unwrap();
    assert_ne!(recv_tb, send_tb);
    let recv = &gpu.tbs[recv_tb].steps[0];
    let send = &gpu.tbs[send_tb].steps[0];
    assert_eq!((recv.kind, recv.has_dep), (StepKind::Recv, true));
    assert_eq!((send.kind, send.dep), (StepKind::Send, Some(Dep { tb: recv_tb, step: 0 })));
}

#[test]
fn two_dependencies_become_a_nop_and_a_dependent_step() {
    // Rank 1 receives from ranks 0 and 2 in two thread blocks, then adds them in a third.
    let p = free_program(3, 1);
    let a = p.chunk(0, Buffer::Input, 0, 1).unwrap().copy(1, Buffer::Scratch, 0).unwrap();
    let b = p.chunk(2, Buffer::Input, 0, 1).unwrap().copy(1, Buffer::Scratch, 1).unwrap();
    a.reduce_with(&b, Hints::new().send_tb(7)).unwrap();
    let ir = schedule_verify_roundtrip(&p.finish().unwrap());
    let gpu = &ir.gpus[1];
    let adder = gpu.tbs.iter().find(|t| t.steps.iter().any(|s| s.kind == StepKind::Reduce)).unwrap();
    let kinds: Vec<StepKind> = adder.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, vec![StepKind::Nop, StepKind::Reduce]);
    let waited: Vec<usize> = adder.steps.iter().filter_map(|s| s.dep.map(|d| d.tb)).collect();
    let receivers: Vec<usize> = gpu.tbs.iter().filter(|t| t.recv.is_some()).map(|t| t.id).collect();
    assert_eq!(waited.len(), 2);
    assert!(waited.iter().all(|t| receivers.contains(t)) && waited[0] != waited[1]);
}

#[test]
fn channel_hints_are_honored() {
    let p = free_program(2, 2);
    p.chunk(0, Buffer::Input, 0, 1).unwrap().copy_with(1, Buffer::Output, 0, Hints::new().channel(3)).unwrap();
    p.chunk(0, Buffer::Input, 1, 1).unwrap().copy(1, Buffer::Output, 1).unwrap();
    let ir = schedule_verify_roundtrip(&p.finish().unwrap());
    assert_eq!(ir.nchannels, 4);
    let conns: Vec<(usize, usize, usize)> = ir.connections().iter().map(|c| (c.from, c.to, c.channel)).collect();
    assert_eq!(conns, vec![(0, 1, 0), (0, 1, 3)]);
}

#[test]
fn conflicting_thread_block_hints_are_errors() {
    // One thread block cannot send to two peers.
    let p = free_program(3, 1);
    let c = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    c.copy_with(1, Buffer::Output, 0, Hints::new().send_tb(0)).unwrap();
    c.copy_with(2, Buffer::Output, 0, Hints::new().send_tb(0)).unwrap();
    let err = schedule(&p.finish().unwrap(), &ScheduleConfig::default()).unwrap_err();
    let MscclError::HintConflict { op, reason } = &err else { panic!("expected a hint conflict, got {err}") };
    assert_eq!(op, "#1 copy r0.in[0] -> r2.out[0]");
    assert!(reason.contains("sends to rank 1") && reason.contains("cannot also send to rank 2"), "{reason}");
}

/// Two forwarded messages share the link 1 -> 2 while the receipt of the first waits,
/// through ranks 0 and 2, on the second being received: both are in flight at once.
fn two_in_flight() -> Algorithm {
    let p = free_program(3, 3);
    let at = |r: usize, b: Buffer, i: usize| p.chunk(r, b, i, 1).unwrap();
    at(0, Buffer::Input, 0).copy(1, Buffer::Scratch, 0).unwrap();
    at(0, Buffer::Input, 1).copy(1, Buffer::Scratch, 1).unwrap();
    at(0, Buffer::Input, 2).copy(1, Buffer::Scratch, 2).unwrap();
    at(1, Buffer::Scratch, 2).copy(0, Buffer::Scratch, 0).unwrap();
    at(2, Buffer::Input, 0).reduce(&at(0, Buffer::Scratch, 0)).unwrap();
    at(1, Buffer::Scratch, 0).copy(2, Buffer::Input, 0).unwrap();
    at(1, Buffer::Scratch, 1).copy(2, Buffer::Input, 1).unwrap();
    p.finish().unwrap()
}

#[test]
fn fifo_overflow_is_rejected_naming_the_connection() {
    let algo = two_in_flight();
    let one_slot = ScheduleConfig { fifo_slots: Some(1), ..ScheduleConfig::default() };
    let err = schedule(&algo, &one_slot).unwrap_err();
    assert_eq!(
        err,
        MscclError::FifoOverflow { from: 1, to: 2, channel: 0, outstanding: 2, slots: 1, protocol: Protocol::Simple }
    );
    assert!(err.to_string().starts_with("connection gpu 1 -> gpu 2 on channel 0"), "{err}");
    // Two slots suffice; so does one slot when nothing is fused.
    schedule_verify_roundtrip(&algo);
    let unfused = ScheduleConfig { fuse: false, ..one_slot };
    let ir = schedule(&algo, &unfused).unwrap();
    verify_ir_with_slots(&ir, &algo.collective, 1).unwrap();
}

#[test]
fn protocols_set_fifo_depth() {
    assert_eq!(Protocol::Simple.fifo_slots(), 2);
    assert_eq!(Protocol::LL.fifo_slots(), NCCL_STEPS);
    assert_eq!(Protocol::LL128.fifo_slots(), NCCL_STEPS);
    let ll = Algorithm { protocol: Protocol::LL, ..two_in_flight() };
    let ir = schedule_verify_roundtrip(&ll);
    assert_eq!(ir.protocol, Protocol::LL);
}

#[test]
fn malformed_algorithms_are_rejected() {
    let mut algo = ring(3, 1);
    algo.ops[0].dst.rank = 9;
    assert!(matches!(schedule(&algo, &ScheduleConfig::default()), Err(MscclError::InvalidProgram(_))));
    let zero = ScheduleConfig { fifo_slots: Some(0), ..ScheduleConfig::default() };
    assert!(matches!(schedule(&ring(3, 1), &zero), Err(MscclError::InvalidConfig(_))));
}
