//! Whole-plan checks after import: pairs each rank's channels with its peers' (the k-th
//! channel of r to p with the k-th of p to r), and checks that every semaphore is signalled
//! exactly as often as it is waited for in one launch, by one waiting thread block, and that
//! barriers gather the thread blocks they announce, and that every packet read is written
//! exactly once in the launch. A plan that fails would hang, leave semaphores raised for the
//! next launch, or let a reader see either of two writes carrying the same flag.

use std::collections::BTreeMap;

use super::error::PlanError;
use super::json::Result;
use super::{ChannelKind, Chunks, Plan, PlanOp, PlanOpKind};

/// Fills [`super::Channel::paired`] for every channel.
pub fn pair(plan: &mut Plan) -> Result<()> {
    for kind in [ChannelKind::Memory, ChannelKind::Port] {
        for r in 0..plan.ngpus() {
            let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
            for c in 0..plan.gpus[r].channels(kind).len() {
                let p = plan.gpus[r].channels(kind)[c].peer;
                let k = seen.entry(p).or_default();
                let back: Vec<usize> = (0..plan.gpus[p].channels(kind).len()).filter(|&i| plan.gpus[p].channels(kind)[i].peer == r).collect();
                let Some(&paired) = back.get(*k) else {
                    let msg = format!("rank {r}'s {} {} channels to rank {p} outnumber rank {p}'s {} back", *k + 1, kind.name(), back.len());
                    return Err(PlanError::Unmatched { at: format!("gpus[{r}].channels"), message: msg });
                };
                *k += 1;
                let list = match kind {
                    ChannelKind::Memory => &mut plan.gpus[r].memory,
                    ChannelKind::Port => &mut plan.gpus[r].port,
                };
                list[c].paired = paired;
            }
        }
    }
    Ok(())
}

/// Signals sent to and waits done on each semaphore of one launch, and who waits.
#[derive(Default)]
struct Sem {
    signals: usize,
    waits: usize,
    waiter: Option<usize>,
}

/// Checks signal / wait pairing and barriers; channels must be paired.
pub fn signals(plan: &Plan) -> Result<()> {
    // (rank, kind, channel) of the waiting side.
    let mut sems: BTreeMap<(usize, ChannelKind, usize), Sem> = BTreeMap::new();
    for g in &plan.gpus {
        let mut barriers: BTreeMap<usize, (usize, BTreeMap<usize, usize>)> = BTreeMap::new();
        for tb in &g.tbs {
            for (o, op) in tb.ops.iter().enumerate() {
                let at = || format!("gpus[{}].threadblocks[{}].ops[{o}]", g.id, tb.id);
                for &(kind, c) in &op.channels {
                    let ch = g.channels(kind)[c];
                    match op.kind {
                        PlanOpKind::Signal | PlanOpKind::PutSignal => sems.entry((ch.peer, kind, ch.paired)).or_default().signals += 1,
                        PlanOpKind::Wait => {
                            let s = sems.entry((g.id, kind, c)).or_default();
                            s.waits += 1;
                            if s.waiter.is_some_and(|w| w != tb.id) {
                                let msg = format!("thread blocks {} and {} both wait on {} channel {c}; the order of their waits is undefined", s.waiter.unwrap_or(0), tb.id, kind.name());
                                return Err(PlanError::Unmatched { at: at(), message: msg });
                            }
                            s.waiter = Some(tb.id);
                        }
                        _ => {}
                    }
                }
                if let PlanOpKind::Barrier { id, threadblocks } = op.kind {
                    let b = barriers.entry(id).or_insert((threadblocks, BTreeMap::new()));
                    if b.0 != threadblocks {
                        let msg = format!("barrier {id} is announced for {} thread blocks here and {threadblocks} elsewhere", b.0);
                        return Err(PlanError::Unmatched { at: at(), message: msg });
                    }
                    *b.1.entry(tb.id).or_default() += 1;
                }
            }
        }
        for (id, (n, uses)) in barriers {
            let counts: Vec<usize> = uses.values().copied().collect();
            if uses.len() != n || counts.iter().any(|&c| c != counts[0]) {
                let msg = format!("barrier {id} is for {n} thread blocks, but {} thread blocks reach it ({:?} times each)", uses.len(), counts);
                return Err(PlanError::Unmatched { at: format!("gpus[{}]", g.id), message: msg });
            }
        }
    }
    for ((r, kind, c), s) in sems {
        if s.signals != s.waits {
            let peer = plan.gpus[r].channels(kind)[c].peer;
            let msg = format!("rank {peer} signals rank {r} {} times over {} channel {c} of rank {r}, which waits {} times", s.signals, kind.name(), s.waits);
            return Err(PlanError::Unmatched { at: format!("gpus[{r}]"), message: msg });
        }
    }
    Ok(())
}

/// Extents of packet writes with the path of the op that writes them.
type Writes = Vec<((usize, usize), String)>;

/// A packet operand's extent within its scratch buffer, in `1/den` chunks: thread block
/// groups move part of each operand.
fn extent(c: &Chunks, op: &PlanOp, den: usize) -> (usize, usize) {
    let (i, parts) = op.part;
    let at = |k: usize| (c.index * parts + c.count * k) * (den / parts);
    (at(i), at(i + 1))
}

/// Checks that packets written to each rank's scratch do not overlap, and that every packet
/// read lies within them: with one flag per launch, a reader cannot tell two writes apart,
/// and waits forever for packets nobody writes.
pub fn packets(plan: &Plan) -> Result<()> {
    let den = plan.gpus.iter().flat_map(|g| &g.tbs).flat_map(|t| &t.ops).map(|o| o.part.1).fold(1, lcm);
    // (owner rank) -> (extent, where) of each write; reads as (rank, extent, where).
    let mut writes: BTreeMap<usize, Writes> = BTreeMap::new();
    let mut reads = vec![];
    for g in &plan.gpus {
        for tb in &g.tbs {
            for (o, op) in tb.ops.iter().enumerate() {
                let at = format!("gpus[{}].threadblocks[{}].ops[{o}]", g.id, tb.id);
                for c in op.dsts.iter().filter(|c| c.packet) {
                    writes.entry(c.rank.unwrap_or(g.id)).or_default().push((extent(c, op, den), at.clone()));
                }
                reads.extend(op.srcs.iter().filter(|c| c.packet).map(|c| (g.id, extent(c, op, den), at.clone())));
            }
        }
    }
    let chunks = |(a, b): (usize, usize)| format!("{}..{}", a as f64 / den as f64, b as f64 / den as f64);
    for (rank, list) in &mut writes {
        list.sort();
        for w in list.windows(2) {
            if w[1].0 .0 < w[0].0 .1 {
                let msg = format!("packets in rank {rank}'s scratch chunks {} are also written by {} in the same launch (one flag per launch: a reader may see either)", chunks(w[1].0), w[0].1);
                return Err(PlanError::Unmatched { at: w[1].1.clone(), message: msg });
            }
        }
    }
    for (rank, (lo, hi), at) in reads {
        // Sorted, disjoint writes: walk those that start at or before the uncovered point.
        let mut covered = lo;
        for ((a, b), _) in writes.get(&rank).into_iter().flatten() {
            if *a <= covered && *b > covered {
                covered = *b;
            }
        }
        if covered < hi {
            let msg = format!("reads packets in scratch chunks {} that no operation writes in the launch (it would wait forever)", chunks((covered, hi)));
            return Err(PlanError::Unmatched { at, message: msg });
        }
    }
    Ok(())
}

fn lcm(a: usize, b: usize) -> usize {
    let gcd = |mut x: usize, mut y: usize| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b) * b
}
