//! Random programs: whatever a traced program computes, its scheduled MSCCL-IR must compute
//! too (every output slot), without deadlock, race or uninitialized read, whatever the
//! fusion, instance, FIFO and hint settings.

use std::sync::Arc;

use super::*;

/// xorshift64*: deterministic, dependency free.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    fn maybe(&mut self, one_in: usize, limit: usize) -> Option<usize> {
        (self.below(one_in) == 0).then(|| self.below(limit))
    }
}

/// Every input initialized; the postcondition, once known, is the traced outputs.
fn collective(ranks: usize, chunks: usize, post: Option<Arc<Vec<Vec<Option<ChunkValue>>>>>) -> Collective {
    Collective::Custom(CustomCollective {
        name: "random".into(),
        ranks,
        input_chunks: chunks,
        output_chunks: chunks,
        precondition: Arc::new(|_, _| true),
        postcondition: Arc::new(move |r, k| post.as_ref().and_then(|p| p[r][k].clone())),
    })
}

/// What a random run may vary.
#[derive(Clone, Copy)]
struct Knobs {
    hints: bool,
    fifo_slots: Option<usize>,
}

/// A random program of `len` operations, whose collective demands exactly what it traced.
fn random_program(rng: &mut Rng, ranks: usize, chunks: usize, len: usize, max_count: usize, hints: bool) -> Algorithm {
    let p = Program::new(ProgramSpec::new("random", collective(ranks, chunks, None)).protocol(Protocol::LL)).unwrap();
    let mut live: Vec<Loc> = (0..ranks).flat_map(|r| (0..chunks).map(move |k| Loc::new(r, Buffer::Input, k))).collect();
    let mut done = 0;
    while done < len {
        let src = live[rng.below(live.len())];
        let count = 1 + rng.below(max_count);
        let Ok(s) = p.chunk(src.rank, src.buffer, src.index, count) else { continue };
        let mut h = Hints::new();
        if hints {
            h = Hints { channel: rng.maybe(4, 3), send_tb: rng.maybe(4, 3), recv_tb: rng.maybe(4, 3) };
        }
        let ok = if rng.below(3) == 0 {
            let dst = live[rng.below(live.len())];
            p.chunk(dst.rank, dst.buffer, dst.index, count).and_then(|d| d.reduce_with(&s, h)).is_ok()
        } else {
            let (rank, buffer) = (rng.below(ranks), [Buffer::Input, Buffer::Output, Buffer::Scratch][rng.below(3)]);
            let limit = if buffer == Buffer::Scratch { 6 } else { chunks };
            let index = rng.below(limit.saturating_sub(count) + 1);
            let copied = s.copy_with(rank, buffer, index, h).is_ok();
            if copied {
                live.extend((0..count).map(|j| Loc::new(rank, buffer, index + j)));
            }
            copied
        };
        done += usize::from(ok);
    }
    let outputs: Vec<Vec<Option<ChunkValue>>> =
        (0..ranks).map(|r| (0..chunks).map(|k| p.contents(r, Buffer::Output, k).unwrap()).collect()).collect();
    let algo = p.finish().unwrap();
    Algorithm { collective: collective(ranks, chunks, Some(Arc::new(outputs))), ..algo }
}

/// Runs `cases` random programs; returns (verified, rejected by a FIFO or hint check).
fn run(seed: u64, cases: usize, knobs: Knobs) -> (usize, usize) {
    let mut rng = Rng(seed);
    let (mut verified, mut rejected) = (0, 0);
    for case in 0..cases {
        let (ranks, chunks) = (2 + rng.below(4), 1 + rng.below(4));
        let instances = 1 + rng.below(2);
        // msccl-tools' interleaved replication keeps multi-chunk operations contiguous, which
        // matches per-chunk sub-chunks only when every operation moves one chunk.
        let max_count = if instances == 1 { 2 } else { 1 };
        let len = 4 + rng.below(40);
        let algo = Algorithm { instances, ..random_program(&mut rng, ranks, chunks, len, max_count, knobs.hints) };
        let cfg = ScheduleConfig { fuse: rng.below(4) != 0, fifo_slots: knobs.fifo_slots, ..ScheduleConfig::default() };
        let ir = match schedule(&algo, &cfg) {
            Ok(ir) => ir,
            Err(MscclError::FifoOverflow { .. } | MscclError::HintConflict { .. }) => {
                rejected += 1;
                continue;
            }
            Err(e) => panic!("case {case}: {e}\n{:#?}", algo.ops),
        };
        let coll = algo.collective.scaled(instances);
        // The executor bounds every connection to the slots the scheduler planned for.
        let slots = knobs.fifo_slots.unwrap_or(algo.protocol.fifo_slots());
        verify_ir_with_slots(&ir, &coll, slots).unwrap_or_else(|e| panic!("case {case}: {e}\n{}", xml::to_xml(&ir)));
        assert_eq!(xml::from_xml(&xml::to_xml(&ir)).unwrap(), ir, "case {case}");
        verified += 1;
    }
    (verified, rejected)
}

#[test]
fn scheduled_random_programs_compute_what_they_traced() {
    let (verified, rejected) = run(0x9e37_79b9_7f4a_7c15, 400, Knobs { hints: false, fifo_slots: None });
    assert_eq!((verified, rejected), (400, 0), "LL's 8 slots never overflow here");
}

#[test]
fn one_fifo_slot_is_either_respected_or_rejected() {
    let (verified, rejected) = run(0x2545_f491_4f6c_dd1d, 400, Knobs { hints: false, fifo_slots: Some(1) });
    assert!(verified > 300 && rejected > 0, "verified {verified}, rejected {rejected}");
}

#[test]
fn random_hints_are_either_honored_or_rejected() {
    let (verified, rejected) = run(0x1234_5678_9abc_def1, 400, Knobs { hints: true, fifo_slots: None });
    assert!(verified > 50 && rejected > 0, "verified {verified}, rejected {rejected}");
}
