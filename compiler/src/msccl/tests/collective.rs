//! Pre- and postconditions against the collectives' definitions, aliasing, scaling, and
//! small reference programs for the rooted collectives (which have no built-in algorithm).

use super::*;

/// (rank, index) contributions of a value.
fn parts(v: &ChunkValue) -> Vec<(usize, usize)> {
    v.contributions().iter().map(|c| (c.rank, c.index)).collect()
}

#[test]
fn postconditions_match_the_definitions() {
    let (n, c, root) = (3, 2, 1);
    for r in 0..n {
        for s in 0..n {
            for k in 0..c {
                // AllGather: slot s*c+k of every rank holds rank s's chunk k.
                let ag = Collective::AllGather { ranks: n, chunks: c }.expected(r, s * c + k).unwrap();
                assert_eq!(parts(&ag), vec![(s, k)]);
                // AllToAll: slot s*c+k of rank r holds chunk r*c+k of rank s.
                let a2a = Collective::AllToAll { ranks: n, chunks: c }.expected(r, s * c + k).unwrap();
                assert_eq!(parts(&a2a), vec![(s, r * c + k)]);
                // Gather: only the root is constrained.
                let g = Collective::Gather { ranks: n, chunks: c, root }.expected(r, s * c + k);
                assert_eq!(g.map(|v| parts(&v)), (r == root).then(|| vec![(s, k)]));
            }
        }
        for k in 0..c {
            let all: Vec<(usize, usize)> = (0..n).map(|s| (s, k)).collect();
            let ar = Collective::AllReduce { ranks: n, chunks: c }.expected(r, k).unwrap();
            assert_eq!(parts(&ar), all);
            let rs = Collective::ReduceScatter { ranks: n, chunks: c }.expected(r, k).unwrap();
            assert_eq!(parts(&rs), (0..n).map(|s| (s, r * c + k)).collect::<Vec<_>>());
            let red = Collective::Reduce { ranks: n, chunks: c, root }.expected(r, k);
            assert_eq!(red.map(|v| parts(&v)), (r == root).then(|| all.clone()));
            let b = Collective::Broadcast { ranks: n, chunks: c, root }.expected(r, k).unwrap();
            assert_eq!(parts(&b), vec![(root, k)]);
            let sc = Collective::Scatter { ranks: n, chunks: c, root }.expected(r, k).unwrap();
            assert_eq!(parts(&sc), vec![(root, r * c + k)]);
        }
    }
}

#[test]
fn preconditions_and_sizes() {
    let (n, c) = (4, 3);
    let sizes = |coll: Collective| (coll.input_chunks(), coll.output_chunks());
    assert_eq!(sizes(Collective::AllGather { ranks: n, chunks: c }), (c, n * c));
    assert_eq!(sizes(Collective::AllReduce { ranks: n, chunks: c }), (c, c));
    assert_eq!(sizes(Collective::ReduceScatter { ranks: n, chunks: c }), (n * c, c));
    assert_eq!(sizes(Collective::AllToAll { ranks: n, chunks: c }), (n * c, n * c));
    assert_eq!(sizes(Collective::Scatter { ranks: n, chunks: c, root: 0 }), (n * c, c));
    assert_eq!(sizes(Collective::Gather { ranks: n, chunks: c, root: 0 }), (c, n * c));
    let scatter = Collective::Scatter { ranks: n, chunks: c, root: 2 };
    assert!(scatter.initial(2, n * c - 1).is_some());
    assert!(scatter.initial(1, 0).is_none());
    assert_eq!(Collective::AllToAll { ranks: n, chunks: c }.initial(3, 5), Some(ChunkValue::input(3, 5)));
}

#[test]
fn in_place_aliasing_follows_mscclang() {
    let c = 2;
    let ag = Collective::AllGather { ranks: 3, chunks: c };
    assert_eq!(ag.canonical(2, Buffer::Input, 1, true), (Buffer::Output, 2 * c + 1));
    assert_eq!(ag.canonical(2, Buffer::Input, 1, false), (Buffer::Input, 1));
    assert_eq!(ag.canonical_chunks(Buffer::Input, true), 0);
    let rs = Collective::ReduceScatter { ranks: 3, chunks: c };
    assert_eq!(rs.canonical(1, Buffer::Output, 0, true), (Buffer::Input, c));
    assert_eq!(rs.canonical_chunks(Buffer::Output, true), 0);
    let ar = Collective::AllReduce { ranks: 3, chunks: c };
    assert_eq!(ar.canonical(1, Buffer::Output, 1, true), (Buffer::Input, 1));
    assert_eq!(ar.canonical(1, Buffer::Scratch, 1, true), (Buffer::Scratch, 1));
}

#[test]
fn scaling_interleaves_sub_chunks() {
    // Chunk k of instance i is sub-chunk k*n+i: the scaled postcondition must agree.
    let n = 3;
    let base = Collective::AllToAll { ranks: 2, chunks: 1 };
    let scaled = base.scaled(n);
    for r in 0..2 {
        for k in 0..base.output_chunks() {
            for i in 0..n {
                let want = base.expected(r, k).unwrap().map_indices(|x| x * n + i);
                assert_eq!(scaled.expected(r, k * n + i).unwrap(), want);
            }
        }
    }
}

#[test]
fn chunk_factor_is_inferred_from_the_xml_header() {
    let c = Collective::from_xml("allgather", 4, 8, 0).unwrap();
    assert_eq!((c.kind(), c.chunk_factor()), (CollectiveKind::AllGather, 2));
    let c = Collective::from_xml("allreduce", 4, 8, 0).unwrap();
    assert_eq!(c.chunk_factor(), 8);
    let c = Collective::from_xml("reduce_scatter", 2, 2, 0).unwrap();
    assert_eq!(c.kind(), CollectiveKind::ReduceScatter);
    assert!(Collective::from_xml("alltoall", 4, 6, 0).is_err());
    assert!(Collective::from_xml("sendrecv", 4, 4, 0).is_err());
}

/// Direct algorithms for the rooted collectives; `in_place` variants too.
fn rooted(coll: Collective, in_place: bool) -> Result<Algorithm> {
    let (n, root) = (coll.ranks(), coll.root().unwrap_or(0));
    let c = coll.chunk_factor();
    let p = Program::new(ProgramSpec::new("rooted", coll.clone()).in_place(in_place))?;
    match coll.kind() {
        CollectiveKind::Broadcast => {
            let src = p.chunk(root, Buffer::Input, 0, c)?;
            for r in 0..n {
                src.copy(r, Buffer::Output, 0)?;
            }
        }
        CollectiveKind::Reduce => {
            let mut acc = p.chunk(root, Buffer::Input, 0, c)?.copy(root, Buffer::Output, 0)?;
            for r in (0..n).filter(|&r| r != root) {
                acc = acc.reduce(&p.chunk(r, Buffer::Input, 0, c)?)?;
            }
        }
        CollectiveKind::Gather => {
            for r in 0..n {
                p.chunk(r, Buffer::Input, 0, c)?.copy(root, Buffer::Output, r * c)?;
            }
        }
        CollectiveKind::Scatter => {
            for r in 0..n {
                p.chunk(root, Buffer::Input, r * c, c)?.copy(r, Buffer::Output, 0)?;
            }
        }
        _ => unreachable!("only rooted collectives"),
    }
    p.finish()
}

#[test]
fn rooted_collectives_verify_in_the_dsl_and_as_ir() {
    for n in 1..=4 {
        for root in [0, n - 1] {
            for c in [1, 2] {
                for in_place in [false, true] {
                    for coll in [
                        Collective::Broadcast { ranks: n, chunks: c, root },
                        Collective::Reduce { ranks: n, chunks: c, root },
                        Collective::Gather { ranks: n, chunks: c, root },
                        Collective::Scatter { ranks: n, chunks: c, root },
                    ] {
                        let what = format!("{coll:?} in_place={in_place}");
                        let algo = rooted(coll, in_place).unwrap_or_else(|e| panic!("{what}: {e}"));
                        for instances in [1, 2] {
                            schedule_verify_roundtrip(&Algorithm { instances, ..algo.clone() });
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn values_display_readably_and_sum_as_multisets() {
    let a = ChunkValue::input(2, 0);
    let b = ChunkValue::input(1, 0);
    let ab = a.reduce(&b);
    assert_eq!(ab.to_string(), "in[r1:c0]+in[r2:c0]");
    assert!(ab.is_reduction() && !a.is_reduction());
    // Reducing a contribution twice is not the same value.
    assert_ne!(ab.reduce(&b), ab);
    assert_eq!(ChunkValue::sum_over_ranks([2, 1], 0), Some(ab));
}
