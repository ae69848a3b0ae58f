//! Symbolic execution of MSCCL-IR built by hand: deadlocks, uninitialized reads, races,
//! dependency semantics.

use std::collections::BTreeMap;

use super::*;

fn step(kind: StepKind, src: Option<BufRef>, dst: Option<BufRef>) -> Step {
    Step { kind, src, dst, count: 1, dep: None, has_dep: false }
}

fn at(buffer: Buffer, index: usize) -> Option<BufRef> {
    Some(BufRef::new(buffer, index))
}

/// A 2-gpu IR where gpu g's single thread block talks to the other gpu.
fn pair(coll: &str, inplace: bool, chunks: usize, steps: impl Fn(usize) -> Vec<Step>) -> MscclIr {
    let gpus = (0..2)
        .map(|g| Gpu {
            id: g,
            input_chunks: chunks,
            output_chunks: if inplace { 0 } else { 2 * chunks },
            scratch_chunks: 1,
            tbs: vec![ThreadBlock { id: 0, send: Some(1 - g), recv: Some(1 - g), channel: 0, steps: steps(g) }],
        })
        .collect();
    MscclIr {
        name: "hand".into(),
        collective: coll.into(),
        protocol: Protocol::Simple,
        nchannels: 1,
        nchunksperloop: 2 * chunks,
        inplace,
        outofplace: None,
        min_bytes: None,
        max_bytes: None,
        extra_attrs: BTreeMap::new(),
        gpus,
    }
}

/// AllGather on 2 gpus: copy own chunk, exchange chunks.
fn allgather_steps(receive_first: bool) -> impl Fn(usize) -> Vec<Step> {
    move |g| {
        let copy = step(StepKind::Copy, at(Buffer::Input, 0), at(Buffer::Output, g));
        let send = step(StepKind::Send, at(Buffer::Input, 0), at(Buffer::Output, g));
        let recv = step(StepKind::Recv, at(Buffer::Input, 0), at(Buffer::Output, 1 - g));
        if receive_first { vec![copy, recv, send] } else { vec![copy, send, recv] }
    }
}

#[test]
fn hand_written_allgather_verifies() {
    let ir = pair("allgather", false, 1, allgather_steps(false));
    ir.validate().unwrap();
    verify_ir(&ir, &ir.inferred_collective().unwrap()).unwrap();
}

#[test]
fn receiving_before_sending_on_both_sides_deadlocks() {
    let ir = pair("allgather", false, 1, allgather_steps(true));
    ir.validate().expect("structurally fine");
    let err = verify_ir(&ir, &Collective::AllGather { ranks: 2, chunks: 1 }).unwrap_err();
    let MscclError::Deadlock { blocked } = &err else { panic!("expected a deadlock, got {err}") };
    assert_eq!(blocked.len(), 2);
    assert!(blocked[0].starts_with("gpu 0 tb 0 step 1 (r) waits for data from gpu 1 on channel 0"), "{err}");
    assert!(blocked[1].starts_with("gpu 1 tb 0 step 1 (r) waits for data from gpu 0"), "{err}");
}

#[test]
fn sending_an_uninitialized_chunk_is_reported() {
    let ir = pair("allgather", false, 1, |g| {
        vec![
            step(StepKind::Send, at(Buffer::Output, 1 - g), at(Buffer::Output, g)),
            step(StepKind::Recv, at(Buffer::Input, 0), at(Buffer::Output, 1 - g)),
        ]
    });
    let err = verify_ir(&ir, &Collective::AllGather { ranks: 2, chunks: 1 }).unwrap_err();
    assert_eq!(err, MscclError::IrExecution { gpu: 0, tb: 0, step: 0, message: "reads uninitialized o[1]".into() });
}

#[test]
fn ir_and_collective_must_agree() {
    let ir = pair("allgather", false, 1, allgather_steps(false));
    assert!(matches!(
        verify_ir(&ir, &Collective::AllGather { ranks: 3, chunks: 1 }),
        Err(MscclError::InvalidConfig(_))
    ));
    // In place: the receive-reduce-copy adds into the input it sent from, in one thread block.
    let ir = pair("allreduce", true, 1, |_| {
        let rrc = step(StepKind::RecvReduceCopy, at(Buffer::Input, 0), at(Buffer::Input, 0));
        vec![step(StepKind::Send, at(Buffer::Input, 0), at(Buffer::Input, 0)), rrc]
    });
    verify_ir(&ir, &Collective::AllReduce { ranks: 2, chunks: 1 }).unwrap();
    assert!(matches!(
        verify_ir(&ir, &Collective::AllReduce { ranks: 2, chunks: 2 }),
        Err(MscclError::WrongOutput { rank: 0, index: 1, actual: Some(_), .. })
    ));
}

#[test]
fn dependencies_wait_for_a_signalled_step() {
    // gpu g: tb0 receives the peer's chunk into scratch and signals; tb1 copies it to the
    // output once signalled. Without the signal the copy reads scratch too early.
    let build = |signal: bool| {
        let mut ir = pair("allgather", false, 1, |g| {
            vec![
                step(StepKind::Copy, at(Buffer::Input, 0), at(Buffer::Output, g)),
                step(StepKind::Send, at(Buffer::Input, 0), at(Buffer::Scratch, 0)),
                Step { has_dep: signal, ..step(StepKind::Recv, at(Buffer::Input, 0), at(Buffer::Scratch, 0)) },
            ]
        });
        for (g, gpu) in ir.gpus.iter_mut().enumerate() {
            let dep = signal.then_some(Dep { tb: 0, step: 2 });
            let copy = Step { dep, ..step(StepKind::Copy, at(Buffer::Scratch, 0), at(Buffer::Output, 1 - g)) };
            gpu.tbs.push(ThreadBlock { id: 1, send: None, recv: None, channel: 0, steps: vec![copy] });
        }
        ir
    };
    let coll = Collective::AllGather { ranks: 2, chunks: 1 };
    verify_ir(&build(true), &coll).unwrap();
    let err = verify_ir(&build(false), &coll).unwrap_err();
    // Round robin runs tb1's copy before the receive: an uninitialized read (it would be a
    // race in any other interleaving).
    assert!(matches!(err, MscclError::IrExecution { tb: 1, .. } | MscclError::DataRace { .. }), "{err}");
}

/// 2-rank AllToAll with 3 chunks per slice: each gpu sends its 3 chunks, then receives 3.
fn send_all_then_receive(protocol: Protocol) -> MscclIr {
    let c = 3;
    let mut ir = pair("alltoall", false, 2 * c, |g| {
        let peer = 1 - g;
        let mut steps =
            vec![Step { count: c, ..step(StepKind::Copy, at(Buffer::Input, g * c), at(Buffer::Output, g * c)) }];
        steps.extend(
            (0..c).map(|k| step(StepKind::Send, at(Buffer::Input, peer * c + k), at(Buffer::Output, g * c + k))),
        );
        steps.extend(
            (0..c).map(|k| step(StepKind::Recv, at(Buffer::Input, g * c + k), at(Buffer::Output, peer * c + k))),
        );
        steps
    });
    for gpu in &mut ir.gpus {
        gpu.output_chunks = 2 * c;
    }
    ir.protocol = protocol;
    ir
}

#[test]
fn bounded_fifos_expose_deadlocks_that_unbounded_ones_hide() {
    let coll = Collective::AllToAll { ranks: 2, chunks: 3 };
    // LL has 8 slots: three sends in flight are fine.
    verify_ir(&send_all_then_receive(Protocol::LL), &coll).unwrap();
    // Simple has 2: both gpus block on their third send while nobody receives.
    let err = verify_ir(&send_all_then_receive(Protocol::Simple), &coll).unwrap_err();
    let MscclError::Deadlock { blocked } = &err else { panic!("expected a deadlock, got {err}") };
    assert!(
        blocked[0].contains("gpu 0 tb 0 step 3 (s) waits for a free FIFO slot to gpu 1 on channel 0 (2 slots)"),
        "{err}"
    );
    verify_ir_with_slots(&send_all_then_receive(Protocol::Simple), &coll, 3).unwrap();
}
