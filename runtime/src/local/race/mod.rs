//! The race detector of `local` (`racecheck`): a vector clock per program instance, advanced
//! and joined at the synchronising ops as OpenSHMEM orders them, and a shadow of every rank's
//! heap that checks each access the runtime performs against the last conflicting one.
//!
//! Edges: a signal update (signal op, put_signal) releases the issuer's clock into the signal
//! word; a wait_until that returns acquires it; barrier_all joins every arrival's clock into
//! every departure. A blocking put is complete when it returns; a non-blocking one is pending
//! until fence (ordered) or quiet / barrier_all (complete), and a signal to the same rank while
//! one is pending is reported: it works on `local` by luck and fails on a GPU. A polling loop
//! (`ll_recv`) that succeeds saw a plain store the runtime cannot attribute, so it acquires
//! every instance's clock: that can hide a race, never invent one.
//!
//! It sees the accesses made through the runtime (put / get and nbi, put_signal's data) and,
//! in kernels compiled with race checks, every tile load and store of symmetric memory (local
//! buffers, remote_ptr addresses, multimem), reported through `RtFns::access` (`access.rs`).
//! An LL store is checked as a write of its words and then releases into one launch-wide LL
//! clock; a finished `ll_recv` acquires that clock (more than it saw, perhaps: that can hide a
//! race, never invent one) and records its words as polled reads, which waited for whatever
//! stored them (a put or copy of packed words too: the last writer of each word is acquired)
//! but race with a later unordered write. So
//! two unordered LL stores of one word, or a plain load racing with one, are reported; the
//! protocol's own use is not.

mod clock;
mod shadow;

use super::state::Inst;
use crate::checks::{Access, AccessKind, RaceKind, RaceReport};
use crate::error::Origin;
use clock::VClock;
pub(crate) use shadow::Use;
use shadow::{Acc, Shadow};
use std::collections::HashMap;

/// A non-blocking put not yet ordered by fence or completed by quiet.
#[derive(Clone, Copy)]
struct Pending {
    pe: usize,
    acc: Acc,
}

/// Which instance index is which (rank, program), as the scheduler numbers them.
#[derive(Clone, Copy)]
pub(crate) struct Numbering {
    pub first_rank: usize,
    pub grid: [u32; 3],
}

impl Numbering {
    fn who(&self, index: usize) -> (usize, [i32; 3]) {
        let [gx, gy, gz] = self.grid.map(|g| g as usize);
        let per_rank = gx * gy * gz;
        let w = index % per_rank;
        (self.first_rank + index / per_rank, [(w % gx) as i32, (w / gx % gy) as i32, (w / (gx * gy)) as i32])
    }
}

/// The detector's state for one launch.
pub(crate) struct Detector {
    numbering: Numbering,
    clocks: Vec<VClock>,
    signals: HashMap<usize, VClock>,
    barriers: HashMap<usize, VClock>,
    shadows: HashMap<usize, Shadow>,
    pending: Vec<Vec<Pending>>,
    /// What every LL store so far released.
    ll: VClock,
}

impl Detector {
    /// A detector for `total` instances numbered as `numbering` says.
    pub fn new(total: usize, numbering: Numbering) -> Detector {
        let clocks = (0..total)
            .map(|i| {
                let mut c = VClock::new(total);
                c.tick(i);
                c
            })
            .collect();
        Detector { numbering, clocks, signals: HashMap::new(), barriers: HashMap::new(), shadows: HashMap::new(), pending: vec![vec![]; total], ll: VClock::new(total) }
    }

    /// Instance `t` polled `len` bytes at offset `off` of rank `pe` until they carried their
    /// flags: whoever stored them last is ordered before it (and starts a new epoch, so that
    /// its later stores stay unordered).
    fn polled(&mut self, t: usize, pe: usize, off: usize, len: usize) {
        let Some(shadow) = self.shadows.get(&pe) else { return };
        for w in shadow.writes_in(off, off + len) {
            if w.inst != t {
                self.clocks[t].raise(w.inst, w.clock);
                if self.clocks[w.inst].get(w.inst) == w.clock {
                    self.clocks[w.inst].tick(w.inst);
                }
            }
        }
    }

    fn release(&mut self, t: usize, into: VClock) -> VClock {
        let mut into = into;
        into.join(&self.clocks[t]);
        self.clocks[t].tick(t);
        into
    }
}

/// Runs `f` on the detector when this launch has one, then fails the launch with its report.
fn with(i: &mut Inst, f: impl FnOnce(&mut Detector, &Inst) -> Option<RaceKind>) {
    let Some(d) = &i.shared().race else { return };
    let mut d = d.lock().unwrap_or_else(|e| e.into_inner());
    let found = f(&mut d, i);
    drop(d);
    if let Some(kind) = found {
        let kernel = i.shared().kernel.name.clone();
        i.fail(crate::RuntimeError::Race(RaceReport { kernel, kind }));
    }
}

/// Builds the report of an access from its record.
fn describe(i: &Inst, d: &Detector, acc: &Acc, rank: usize, write: bool) -> Access {
    let (r, program) = d.numbering.who(acc.inst);
    let s = i.shared().kernel.site(acc.site);
    Access {
        origin: Origin { rank: r, program, op: s.op, loc: s.loc },
        kind: if write { AccessKind::Write } else { AccessKind::Read },
        span: i.shared().allocs.describe(rank, acc.at, acc.len),
    }
}

/// Checks and records an access (doing `how`) of `len` bytes at heap offset `off` of rank `pe`.
pub(crate) fn access(i: &mut Inst, how: Use, pe: usize, off: usize, len: usize, site: i32) {
    with(i, |d, me| {
        let t = me.index;
        if how == Use::Polled {
            d.polled(t, pe, off, len);
        }
        let acc = Acc { inst: t, clock: d.clocks[t].get(t), site, at: off, len };
        let hit = d.shadows.entry(pe).or_default().access(acc, how, &d.clocks[t])?;
        let first = describe(me, d, &hit.prior, pe, hit.prior_wrote);
        Some(RaceKind::DataRace { first, second: describe(me, d, &acc, pe, how == Use::Write) })
    });
}

/// A non-blocking put of `len` bytes at heap offset `off` of rank `pe` was issued.
pub(crate) fn nbi_put(i: &mut Inst, pe: usize, off: usize, len: usize, site: i32) {
    with(i, |d, me| {
        let t = me.index;
        let acc = Acc { inst: t, clock: d.clocks[t].get(t), site, at: off, len };
        d.pending[t].push(Pending { pe, acc });
        None
    });
}

/// A signal update of the word at absolute address `addr` on rank `pe`: checks that no
/// non-blocking put to `pe` is still unordered, then releases this instance's clock into it.
pub(crate) fn signal(i: &mut Inst, addr: usize, pe: usize, site: i32) {
    with(i, |d, me| {
        let t = me.index;
        if let Some(p) = d.pending[t].iter().find(|p| p.pe == pe).copied() {
            let (rank, program) = d.numbering.who(t);
            let s = me.shared().kernel.site(site);
            let signal = Origin { rank, program, op: s.op, loc: s.loc };
            return Some(RaceKind::UnfencedSignal { put: describe(me, d, &p.acc, pe, true), signal });
        }
        let old = d.signals.remove(&addr).unwrap_or_else(|| VClock::new(d.clocks.len()));
        let new = d.release(t, old);
        d.signals.insert(addr, new);
        None
    });
}

/// A wait on the signal word at `addr` returned: acquires what was released into it.
pub(crate) fn acquire(i: &mut Inst, addr: usize) {
    with(i, |d, me| {
        let t = me.index;
        if let Some(s) = d.signals.get(&addr) {
            d.clocks[t].join(s);
        }
        None
    });
}

/// A polling loop succeeded on a plain store of unknown origin: acquires every instance's
/// current epoch (and starts a new one for each, so later stores stay unordered).
pub(crate) fn acquire_all(i: &mut Inst) {
    with(i, |d, me| {
        let t = me.index;
        for u in 0..d.clocks.len() {
            let e = d.clocks[u].get(u);
            d.clocks[t].raise(u, e);
            if u != t {
                d.clocks[u].tick(u);
            }
        }
        None
    });
}

/// LL words are about to be stored: releases this instance's clock into the LL clock.
pub(crate) fn ll_release(i: &mut Inst) {
    with(i, |d, me| {
        let old = std::mem::take(&mut d.ll);
        d.ll = d.release(me.index, old);
        None
    });
}

/// An `ll_recv` saw its words: acquires every LL release so far.
pub(crate) fn ll_acquire(i: &mut Inst) {
    with(i, |d, me| {
        let ll = d.ll.clone();
        d.clocks[me.index].join(&ll);
        None
    });
}

/// fence or quiet: every earlier non-blocking put is ordered before later signals.
pub(crate) fn complete_nbi(i: &mut Inst) {
    with(i, |d, me| {
        let t = me.index;
        d.pending[t].clear();
        None
    });
}

/// Arrival at barrier generation `generation`: completes this instance's puts and releases its clock.
pub(crate) fn barrier_arrive(i: &mut Inst, generation: usize) {
    with(i, |d, me| {
        let t = me.index;
        d.pending[t].clear();
        let old = d.barriers.remove(&generation).unwrap_or_else(|| VClock::new(d.clocks.len()));
        let new = d.release(t, old);
        d.barriers.insert(generation, new);
        None
    });
}

/// Departure from barrier generation `generation`: acquires every arrival's clock.
pub(crate) fn barrier_depart(i: &mut Inst, generation: usize) {
    with(i, |d, me| {
        let t = me.index;
        if let Some(b) = d.barriers.get(&generation) {
            let b = b.clone();
            d.clocks[t].join(&b);
        }
        None
    });
}

/// A put of `len` bytes from this rank's heap offset `from` (when the source is symmetric) to
/// heap offset `off` of rank `pe`; `nbi` leaves it pending until fence or quiet.
pub(crate) fn put(i: &mut Inst, from: Option<usize>, pe: usize, off: usize, len: usize, nbi: bool, site: i32) {
    if i.shared().race.is_none() {
        return;
    }
    if let Some(from) = from {
        access(i, Use::Read, i.rank, from, len, site);
    }
    access(i, Use::Write, pe, off, len, site);
    if nbi {
        nbi_put(i, pe, off, len, site);
    }
}

/// A get of `len` bytes at heap offset `off` of rank `pe` into this rank's heap offset `to`
/// (when the destination is symmetric).
pub(crate) fn get(i: &mut Inst, pe: usize, off: usize, to: Option<usize>, len: usize, site: i32) {
    if i.shared().race.is_none() {
        return;
    }
    access(i, Use::Read, pe, off, len, site);
    if let Some(to) = to {
        access(i, Use::Write, i.rank, to, len, site);
    }
}
