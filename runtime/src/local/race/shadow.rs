//! Shadow memory of one rank's heap: disjoint byte ranges, each with its last write and the
//! reads since. Ranges, not words, because shmem ops move whole tiles: a 4 MiB put is one
//! entry, so the detector's cost follows the number of ops rather than the bytes they move.

use super::clock::VClock;
use std::collections::BTreeMap;

/// One recorded access: who, at which epoch of theirs, from which call site, over which bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Acc {
    pub inst: usize,
    pub clock: u32,
    pub site: i32,
    /// Heap offset and length of the whole access.
    pub at: usize,
    pub len: usize,
}

impl Acc {
    /// Whether this access happens before the point whose clock is `now`.
    fn before(&self, now: &VClock) -> bool {
        self.clock <= now.get(self.inst)
    }
}

/// What an access does to its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    Read,
    Write,
    /// Read by a polling loop (`ll_recv`) that waited until every word carried its flag: it
    /// synchronised with whatever stored them (an LL store, or a put or copy of LL words the
    /// detector cannot tell from data; see [`Shadow::writes_in`]), so it is checked against no
    /// write, only recorded so that a later unordered write of the words is reported.
    Polled,
}

#[derive(Clone, Debug, Default)]
struct Seg {
    end: usize,
    write: Option<Acc>,
    /// At most one per instance (its latest).
    reads: Vec<Acc>,
}

/// A conflicting earlier access, and whether it wrote.
pub(crate) struct Conflict {
    pub prior: Acc,
    pub prior_wrote: bool,
}

/// The shadow of one rank's heap.
#[derive(Default)]
pub(crate) struct Shadow {
    segs: BTreeMap<usize, Seg>,
}

impl Shadow {
    /// Records `acc` (doing `how`) made at clock `now`, after checking it against the last
    /// conflicting access of every byte it touches; returns the first unordered one.
    pub fn access(&mut self, acc: Acc, how: Use, now: &VClock) -> Option<Conflict> {
        let write = how == Use::Write;
        let (a, b) = (acc.at, acc.at + acc.len);
        if a == b {
            return None;
        }
        self.split(a);
        self.split(b);
        self.fill_gaps(a, b);
        let mut found = None;
        for seg in self.segs.range_mut(a..b).map(|(_, s)| s) {
            if found.is_none() && how != Use::Polled {
                found = conflict(seg, &acc, write, now);
            }
            if write {
                seg.write = Some(acc);
                seg.reads.clear();
            } else {
                match seg.reads.iter_mut().find(|r| r.inst == acc.inst) {
                    Some(r) => *r = acc,
                    None => seg.reads.push(acc),
                }
            }
        }
        found
    }

    /// The last writes of the bytes of `[a, b)`.
    pub fn writes_in(&self, a: usize, b: usize) -> Vec<Acc> {
        let straddling = self.segs.range(..a).next_back().filter(|(_, s)| s.end > a);
        straddling.into_iter().chain(self.segs.range(a..b)).filter_map(|(_, s)| s.write).collect()
    }

    /// Splits the segment straddling `at`, so that a segment starts there.
    fn split(&mut self, at: usize) {
        let Some((_, seg)) = self.segs.range_mut(..at).next_back() else { return };
        if seg.end <= at {
            return;
        }
        let tail = Seg { end: seg.end, write: seg.write, reads: seg.reads.clone() };
        seg.end = at;
        self.segs.insert(at, tail);
    }

    /// Inserts empty segments over the bytes of `[a, b)` no segment covers.
    fn fill_gaps(&mut self, a: usize, b: usize) {
        let mut gaps = vec![];
        let mut at = a;
        for (&start, seg) in self.segs.range(a..b) {
            if start > at {
                gaps.push((at, start));
            }
            at = seg.end;
        }
        if at < b {
            gaps.push((at, b));
        }
        for (s, e) in gaps {
            self.segs.insert(s, Seg { end: e, ..Seg::default() });
        }
    }
}

fn conflict(seg: &Seg, acc: &Acc, write: bool, now: &VClock) -> Option<Conflict> {
    let unordered = |p: &Acc| p.inst != acc.inst && !p.before(now);
    if let Some(w) = seg.write.filter(unordered) {
        return Some(Conflict { prior: w, prior_wrote: true });
    }
    if write {
        if let Some(r) = seg.reads.iter().find(|r| unordered(r)) {
            return Some(Conflict { prior: *r, prior_wrote: false });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(inst: usize, clock: u32, at: usize, len: usize) -> Acc {
        Acc { inst, clock, site: 0, at, len }
    }

    #[test]
    fn overlapping_writes_conflict_only_when_unordered() {
        let mut s = Shadow::default();
        let mut c1 = VClock::new(2);
        c1.tick(1);
        assert!(s.access(acc(0, 1, 0, 64), Use::Write, &VClock::new(2)).is_none());
        // Instance 1 has not seen instance 0's epoch 1: the overlap [32, 64) conflicts.
        let hit = s.access(acc(1, 1, 32, 64), Use::Write, &c1).expect("unordered overlap");
        assert_eq!((hit.prior.inst, hit.prior.at, hit.prior_wrote), (0, 0, true));
        // Disjoint bytes never conflict.
        assert!(s.access(acc(0, 1, 200, 8), Use::Write, &VClock::new(2)).is_none());
        // Once instance 1's clock covers instance 0's epoch, the same write is ordered.
        let mut seen = c1.clone();
        let mut rel = VClock::new(2);
        rel.tick(0);
        seen.join(&rel);
        assert!(s.access(acc(1, 1, 0, 16), Use::Write, &seen).is_none());
    }

    #[test]
    fn reads_conflict_with_later_unordered_writes_not_with_reads() {
        let mut s = Shadow::default();
        assert!(s.access(acc(0, 1, 8, 8), Use::Read, &VClock::new(3)).is_none());
        assert!(s.access(acc(1, 1, 0, 32), Use::Read, &VClock::new(3)).is_none());
        let hit = s.access(acc(2, 1, 12, 4), Use::Write, &VClock::new(3)).expect("write after unordered reads");
        assert!(!hit.prior_wrote);
    }

    #[test]
    fn polled_reads_wait_for_any_write_but_later_writes_race_with_them() {
        let mut s = Shadow::default();
        assert!(s.access(acc(0, 1, 0, 16), Use::Write, &VClock::new(3)).is_none());
        // Instance 1 has not acquired instance 0's epoch, but it polled the words: clean.
        assert!(s.access(acc(1, 1, 0, 16), Use::Polled, &VClock::new(3)).is_none());
        assert_eq!(s.writes_in(4, 8), vec![acc(0, 1, 0, 16)]);
        // Instance 2 has seen instance 0's write but not instance 1's polled read: a race.
        let mut c2 = VClock::new(3);
        c2.raise(0, 1);
        let hit = s.access(acc(2, 1, 8, 8), Use::Write, &c2).expect("write after an unordered polled read");
        assert_eq!((hit.prior.inst, hit.prior_wrote), (1, false));
    }
}
