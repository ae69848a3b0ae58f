//! The chunk DSL: fluent references, misuse errors, postcondition failures.

use std::sync::Arc;

use super::*;

fn allreduce(ranks: usize, chunks: usize, in_place: bool) -> Program {
    let spec = ProgramSpec::new("t", Collective::AllReduce { ranks, chunks }).in_place(in_place);
    Program::new(spec).expect("program")
}

#[test]
fn fluent_chain_builds_a_verified_allreduce() {
    // 2-rank allreduce: reduce r0 into r1, copy the sum back.
    let p = allreduce(2, 1, true);
    let sum = p.chunk(1, Buffer::Input, 0, 1).unwrap().reduce(&p.chunk(0, Buffer::Input, 0, 1).unwrap()).unwrap();
    sum.copy(0, Buffer::Input, 0).unwrap();
    let algo = p.finish().expect("verifies");
    assert_eq!(algo.ops.len(), 2);
    assert_eq!(algo.ops[0].kind, OpKind::Reduce);
    assert_eq!(algo.ops[1].src, Loc::new(1, Buffer::Input, 0));
}

#[test]
fn stale_reference_names_both_operations() {
    let p = allreduce(2, 1, true);
    let a = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    let b = p.chunk(1, Buffer::Input, 0, 1).unwrap();
    b.reduce(&a).unwrap(); // op #0 overwrites r1.in[0]; `b` is now stale
    let err = b.copy(0, Buffer::Input, 0).unwrap_err();
    match &err {
        MscclError::StaleReference { used_by, overwritten_by, slot } => {
            assert_eq!(used_by, "#1 copy r1.in[0] -> r0.in[0]");
            assert_eq!(overwritten_by, "#0 reduce r1.in[0] += r0.in[0]");
            assert_eq!(*slot, Loc::new(1, Buffer::Input, 0));
        }
        other => panic!("expected a stale reference, got {other}"),
    }
    let text = err.to_string();
    assert!(text.contains("#1 copy") && text.contains("#0 reduce"), "{text}");
}

#[test]
fn stale_source_of_reduce_is_reported() {
    let p = allreduce(3, 1, true);
    let a = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    let fresh = p.chunk(2, Buffer::Input, 0, 1).unwrap().copy(0, Buffer::Input, 0).unwrap(); // #0 overwrites r0
    let err = p.chunk(1, Buffer::Input, 0, 1).unwrap().reduce(&a).unwrap_err();
    assert!(
        matches!(&err, MscclError::StaleReference { overwritten_by, .. } if overwritten_by.starts_with("#0 copy")),
        "{err}"
    );
    // The fresh reference still works.
    p.chunk(1, Buffer::Input, 0, 1).unwrap().reduce(&fresh).unwrap();
}

#[test]
fn uninitialized_reads_are_errors() {
    let spec = ProgramSpec::new("ag", Collective::AllGather { ranks: 2, chunks: 1 });
    let p = Program::new(spec).unwrap();
    let err = p.chunk(0, Buffer::Output, 1, 1).unwrap_err();
    assert_eq!(
        err,
        MscclError::UninitializedChunk {
            op: "chunk(r0, out, 1, count 1)".into(),
            slot: Loc::new(0, Buffer::Output, 1)
        }
    );
    assert!(matches!(p.chunk(1, Buffer::Scratch, 4, 1), Err(MscclError::UninitializedChunk { .. })));
    // Broadcast: only the root's input is initialized.
    let spec = ProgramSpec::new("b", Collective::Broadcast { ranks: 3, chunks: 1, root: 2 });
    let p = Program::new(spec).unwrap();
    assert!(p.chunk(2, Buffer::Input, 0, 1).is_ok());
    assert!(matches!(p.chunk(0, Buffer::Input, 0, 1), Err(MscclError::UninitializedChunk { .. })));
}

#[test]
fn ranks_and_indices_are_range_checked() {
    let p = allreduce(2, 2, false);
    assert!(matches!(p.chunk(2, Buffer::Input, 0, 1), Err(MscclError::RankOutOfRange { rank: 2, ranks: 2, .. })));
    let err = p.chunk(0, Buffer::Input, 1, 2).unwrap_err();
    assert!(matches!(err, MscclError::IndexOutOfRange { index: 1, count: 2, size: 2, .. }), "{err}");
    let c = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    assert!(matches!(c.copy(5, Buffer::Output, 0), Err(MscclError::RankOutOfRange { rank: 5, .. })));
    assert!(matches!(c.copy(1, Buffer::Output, 2), Err(MscclError::IndexOutOfRange { buffer: Buffer::Output, .. })));
    assert!(matches!(p.chunk(0, Buffer::Input, 0, 0), Err(MscclError::CountMismatch { .. })));
    // Nothing was recorded by the failed operations.
    assert!(p.ops().is_empty());
}

#[test]
fn reduce_needs_equal_counts_and_no_overlap() {
    let p = allreduce(2, 3, false);
    let two = p.chunk(0, Buffer::Input, 0, 2).unwrap();
    let one = p.chunk(1, Buffer::Input, 0, 1).unwrap();
    let err = two.reduce(&one).unwrap_err();
    assert!(
        matches!(&err, MscclError::CountMismatch { left: 2, right: 1, op } if op.starts_with("#0 reduce")),
        "{err}"
    );
    assert!(matches!(two.reduce(&two), Err(MscclError::Overlap { .. })));
    assert!(matches!(two.copy(0, Buffer::Input, 1), Err(MscclError::Overlap { .. })));
}

#[test]
fn references_from_another_program_are_rejected() {
    let (p, q) = (allreduce(2, 1, true), allreduce(2, 1, true));
    let mine = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    let theirs = q.chunk(1, Buffer::Input, 0, 1).unwrap();
    assert!(matches!(mine.reduce(&theirs), Err(MscclError::ForeignReference { .. })));
}

#[test]
fn scratch_size_is_the_highest_index_used() {
    let spec = ProgramSpec::new("s", Collective::AllGather { ranks: 2, chunks: 1 });
    let p = Program::new(spec).unwrap();
    for r in 0..2 {
        let staged = p.chunk(r, Buffer::Input, 0, 1).unwrap().copy(1 - r, Buffer::Scratch, 3 + 2 * r).unwrap();
        staged.copy(1 - r, Buffer::Output, r).unwrap();
        p.chunk(r, Buffer::Input, 0, 1).unwrap().copy(r, Buffer::Output, r).unwrap();
    }
    let algo = p.finish().unwrap();
    // Rank 1 received into scratch 3, rank 0 into scratch 5.
    assert_eq!(algo.scratch_chunks, vec![6, 4]);
}

#[test]
fn in_place_copy_onto_itself_is_a_no_op() {
    let p = allreduce(1, 2, true);
    let c = p.chunk(0, Buffer::Input, 1, 1).unwrap();
    let same = c.copy(0, Buffer::Output, 1).unwrap();
    assert_eq!((same.buffer(), same.index()), (Buffer::Input, 1));
    assert!(p.ops().is_empty());
    p.finish().unwrap();
}

#[test]
fn split_gives_fresh_parts() {
    let p = allreduce(2, 4, false);
    let parts = p.chunk(0, Buffer::Input, 0, 4).unwrap().split(2).unwrap();
    assert_eq!((parts[1].index(), parts[1].count()), (2, 2));
    parts[1].copy(1, Buffer::Scratch, 0).unwrap();
    assert!(matches!(p.chunk(0, Buffer::Input, 0, 3).unwrap().split(2), Err(MscclError::CountMismatch { .. })));
}

/// Ring allreduce on `n` ranks, leaving out the all-gather hop `skip` = (chunk, hop).
fn ring_missing(n: usize, skip: Option<(usize, usize)>) -> Result<Algorithm> {
    let p = allreduce(n, n, true);
    for k in 0..n {
        let mut c = p.chunk((k + 1) % n, Buffer::Input, k, 1)?;
        for hop in 2..=n {
            c = p.chunk((k + hop) % n, Buffer::Input, k, 1)?.reduce(&c)?;
        }
        for hop in 1..n {
            if Some((k, hop)) != skip {
                c = c.copy((k + hop) % n, Buffer::Input, k)?;
            }
        }
    }
    p.finish()
}

#[test]
fn ring_allreduce_missing_a_step_fails_with_rank_index_expected_actual() {
    ring_missing(3, None).expect("the complete ring verifies");
    // Chunk 0 is reduced onto rank 0, copied to rank 1, but never to rank 2, which keeps
    // its partial sum of ranks 1 and 2.
    let err = ring_missing(3, Some((0, 2))).unwrap_err();
    let MscclError::WrongOutput { rank, buffer, index, expected, actual, others } = &err else {
        panic!("expected a postcondition failure, got {err}");
    };
    assert_eq!((*rank, *buffer, *index, *others), (2, Buffer::Output, 0, 0));
    assert_eq!(expected.to_string(), spelled_sum(0..3, 0));
    assert_eq!(actual.as_ref().map(ToString::to_string), Some(spelled_sum(1..3, 0)));
    let text = err.to_string();
    assert_eq!(text, format!("rank 2 out[0]: expected {}, found {}", spelled_sum(0..3, 0), spelled_sum(1..3, 0)));
}

#[test]
fn wrong_output_counts_the_other_failures() {
    // An allgather that only copies each rank's own chunk: every foreign slot is uninitialized.
    let n = 3;
    let p = Program::new(ProgramSpec::new("ag", Collective::AllGather { ranks: n, chunks: 1 })).unwrap();
    for r in 0..n {
        p.chunk(r, Buffer::Input, 0, 1).unwrap().copy(r, Buffer::Output, r).unwrap();
    }
    let err = p.finish().unwrap_err();
    assert!(
        matches!(&err, MscclError::WrongOutput { rank: 0, index: 1, actual: None, others, .. } if *others == n * n - n - 1)
    );
    assert!(err.to_string().contains("found uninitialized (and 5 more wrong chunks)"), "{err}");
}

#[test]
fn custom_collective_from_pre_and_postcondition() {
    // A send from rank 2 to rank 0 on 3 ranks.
    let coll = Collective::Custom(CustomCollective {
        name: "send".into(),
        ranks: 3,
        input_chunks: 1,
        output_chunks: 1,
        precondition: Arc::new(|r, _| r == 2),
        postcondition: Arc::new(|r, i| (r == 0).then(|| ChunkValue::input(2, i))),
    });
    let p = Program::new(ProgramSpec::new("send", coll.clone())).unwrap();
    assert!(p.chunk(1, Buffer::Input, 0, 1).is_err());
    p.chunk(2, Buffer::Input, 0, 1).unwrap().copy(0, Buffer::Output, 0).unwrap();
    let algo = p.finish().unwrap();
    schedule_verify_roundtrip(&algo);
    // Sending to the wrong rank fails the postcondition.
    let p = Program::new(ProgramSpec::new("send", coll)).unwrap();
    p.chunk(2, Buffer::Input, 0, 1).unwrap().copy(1, Buffer::Output, 0).unwrap();
    assert!(matches!(p.finish(), Err(MscclError::WrongOutput { rank: 0, .. })));
}

#[test]
fn hints_build_fluently() {
    let h = Hints::new().channel(2).send_tb(1).recv_tb(3);
    assert_eq!(h, Hints { channel: Some(2), send_tb: Some(1), recv_tb: Some(3) });
    let p = allreduce(2, 1, false);
    let c = p.chunk(0, Buffer::Input, 0, 1).unwrap();
    c.copy_with(1, Buffer::Scratch, 0, h).unwrap();
    assert_eq!(p.ops()[0].hints, h);
}

#[test]
fn invalid_programs_are_rejected() {
    let bad = |coll: Collective| Program::new(ProgramSpec::new("x", coll)).unwrap_err();
    assert!(matches!(bad(Collective::AllReduce { ranks: 0, chunks: 1 }), MscclError::InvalidProgram(_)));
    assert!(matches!(bad(Collective::Broadcast { ranks: 2, chunks: 1, root: 2 }), MscclError::InvalidProgram(_)));
    assert!(matches!(bad(Collective::AllGather { ranks: 2, chunks: 0 }), MscclError::InvalidProgram(_)));
    let spec = ProgramSpec::new("x", Collective::AllReduce { ranks: 2, chunks: 1 }).instances(0);
    assert!(matches!(Program::new(spec), Err(MscclError::InvalidProgram(_))));
}
