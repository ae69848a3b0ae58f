//! `mbarrier` (sm_80+, transaction counts sm_90+) as the PTX ISA defines it ("Parallel
//! Synchronization and Communication Instructions: mbarrier"): an object in shared memory
//! with a phase, the arrivals still pending in it and a transaction count. `init` sets the
//! expected arrivals; `arrive` counts them down (`.expect_tx` first raises the transaction
//! count by the bytes a copy will complete); bulk copies count the transaction bytes down
//! as they land (`complete_tx`). When both reach zero the phase completes: the phase number
//! moves on and the pending count is reset. `test_wait` / `try_wait` ask whether a phase
//! completed, by token (the phase an `arrive` returned) or by parity (the phase of parity
//! `p` completed iff the current phase's parity is not `p`).
//!
//! The state lives beside shared memory, keyed by the object's byte offset, so a report can
//! say what a barrier still expects. A thread waiting on an incomplete phase parks
//! ([`St::Mbar`]) until the phase completes; a CTA whose threads all wait on phases nothing
//! will complete is reported as a deadlock naming them ([`describe_wait`]). `test_wait` is
//! treated as `try_wait`: a kernel whose progress needs `test_wait` to answer false while
//! the same thread still has to arrive is not modeled.

use crate::cta::{lane, Cta, St};
use std::collections::HashMap;

/// The largest arrival count and transaction count an mbarrier holds (PTX: 2^20 - 1).
const LIMIT: i64 = (1 << 20) - 1;

/// One mbarrier object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Barrier {
    /// Arrivals each phase expects (lowered by `arrive.drop`).
    pub expected: i64,
    /// Arrivals the current phase still waits for.
    pub pending: i64,
    /// Transaction bytes the current phase still waits for (negative: landed before expected).
    pub tx: i64,
    /// Phases completed since `init`.
    pub phase: u64,
}

/// How an arrival is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrive {
    /// Arrivals counted.
    pub count: i64,
    /// `.drop`: later phases expect `count` fewer.
    pub drop: bool,
    /// `.noComplete`: the arrival must not complete the phase.
    pub no_complete: bool,
    /// `.expect_tx` bytes added before arriving.
    pub tx: i64,
}

impl Barrier {
    /// `mbarrier.init` with `count` expected arrivals.
    pub fn new(count: i64) -> Result<Barrier, String> {
        if !(1..=LIMIT).contains(&count) {
            return Err(format!("mbarrier.init with count {count}: it must be from 1 to 2^20 - 1"));
        }
        Ok(Barrier { expected: count, pending: count, tx: 0, phase: 0 })
    }

    /// An arrival; the token is the phase it arrived in. `Ok(true)` in the second place when
    /// it completed the phase.
    pub fn arrive(&mut self, a: Arrive) -> Result<(u64, bool), String> {
        let token = self.phase;
        self.expect_tx(a.tx)?;
        if a.count > self.pending {
            return Err(format!("arrives {} times on a phase that waits for {} more arrivals (count {}): more arrivals than the barrier's count", a.count, self.pending, self.expected));
        }
        self.pending -= a.count;
        if a.drop {
            self.expected -= a.count;
        }
        if a.no_complete && self.ready() {
            return Err("mbarrier.arrive.noComplete completes the phase".into());
        }
        Ok((token, self.settle()))
    }

    /// `expect_tx`: the current phase waits for `bytes` more transaction bytes.
    pub fn expect_tx(&mut self, bytes: i64) -> Result<(), String> {
        if !(0..=LIMIT).contains(&bytes) || self.tx + bytes > LIMIT {
            return Err(format!("expect_tx of {bytes} bytes with {} pending: the transaction count must stay below 2^20", self.tx));
        }
        self.tx += bytes;
        Ok(())
    }

    /// `complete_tx` of `bytes` (a bulk copy landed); true when it completed the phase.
    pub fn complete_tx(&mut self, bytes: i64) -> bool {
        self.tx -= bytes;
        self.settle()
    }

    fn ready(&self) -> bool {
        self.pending == 0 && self.tx == 0
    }

    /// Completes the phase when nothing is pending.
    fn settle(&mut self) -> bool {
        if !self.ready() {
            return false;
        }
        self.phase += 1;
        self.pending = self.expected;
        true
    }

    /// The phase a wait for parity `parity` waits for, or `None` when that phase completed.
    pub fn awaited_by_parity(&self, parity: u64) -> Option<u64> {
        (self.phase % 2 == parity % 2).then_some(self.phase)
    }

    /// The phase a wait with `token` (an arrival's) waits for, or `None` when it completed.
    pub fn awaited_by_token(&self, token: u64) -> Option<u64> {
        (token >= self.phase).then_some(self.phase)
    }
}

/// A CTA's mbarriers by shared-memory byte offset.
pub type Barriers = HashMap<u32, Barrier>;

/// Operations of [`Slot::Mbar`](crate::slots::Slot::Mbar): the low 4 bits, flags above.
pub mod op {
    /// `init` (x: count)
    pub const INIT: i32 = 0;
    /// `inval`
    pub const INVAL: i32 = 1;
    /// `arrive` (x: count, or tx bytes with [`EXPECT_TX`]); returns the token.
    pub const ARRIVE: i32 = 2;
    /// `expect_tx` (x: bytes)
    pub const EXPECT_TX_ONLY: i32 = 3;
    /// `complete_tx` (x: bytes)
    pub const COMPLETE_TX: i32 = 4;
    /// `test_wait` / `try_wait` (x: token); returns 1 when the phase completed.
    pub const WAIT_TOKEN: i32 = 5;
    /// `test_wait.parity` / `try_wait.parity` (x: parity).
    pub const WAIT_PARITY: i32 = 6;
    /// Flag of `ARRIVE`: `.drop`.
    pub const DROP: i32 = 16;
    /// Flag of `ARRIVE`: `.noComplete`.
    pub const NO_COMPLETE: i32 = 32;
    /// Flag of `ARRIVE`: `.expect_tx` (x is the bytes; one arrival).
    pub const EXPECT_TX: i32 = 64;
}

/// The CTA byte offset of mbarrier pointer `p`, checked (8-byte aligned, inside the CTA).
pub fn offset(cta: &Cta, p: *const u8) -> Result<u32, String> {
    let off = (p as usize).wrapping_sub(cta.smem.as_ptr() as usize);
    if !off.is_multiple_of(8) || off + 8 > cta.smem.len() * 8 {
        return Err(format!("mbarrier at {p:p} (shared byte {off}): not an 8-byte aligned object in the CTA's {} bytes of shared memory", cta.smem.len() * 8));
    }
    Ok(off as u32)
}

/// The runtime entry point: mbarrier operation `o` (see [`op`]) on the object at `p`.
pub extern "C" fn mbar(site: i32, o: i32, p: *mut u8, x: i64) -> i64 {
    let l = lane();
    let cta = l.cta();
    let off = offset(cta, p).unwrap_or_else(|e| l.fault(site, &e));
    if o & 15 == op::INIT {
        if let Some(c) = cta.tma.copies_into(off) {
            l.fault(site, &format!("mbarrier.init on the mbarrier at shared byte {off} while {c}"));
        }
        let b = Barrier::new(x).unwrap_or_else(|e| l.fault(site, &e));
        cta.tma.barriers.insert(off, b);
        return 0;
    }
    let Some(b) = cta.tma.barriers.get_mut(&off) else {
        l.fault(site, &format!("{} on shared byte {off}, which holds no initialized mbarrier (mbarrier.init first; or it was invalidated)", cta.op(site)));
    };
    let (out, completed) = match o & 15 {
        op::INVAL => {
            if let Some(c) = cta.tma.copies_into(off) {
                l.fault(site, &format!("mbarrier.inval on the mbarrier at shared byte {off} while {c}"));
            }
            cta.tma.barriers.remove(&off);
            return 0;
        }
        op::ARRIVE => {
            let tx = o & op::EXPECT_TX != 0;
            let a = Arrive { count: if tx { 1 } else { x }, drop: o & op::DROP != 0, no_complete: o & op::NO_COMPLETE != 0, tx: if tx { x } else { 0 } };
            let (token, done) = b.arrive(a).unwrap_or_else(|e| l.fault(site, &format!("mbarrier at shared byte {off}: {e}")));
            (token as i64, done)
        }
        op::EXPECT_TX_ONLY => {
            b.expect_tx(x).unwrap_or_else(|e| l.fault(site, &format!("mbarrier at shared byte {off}: {e}")));
            (0, false)
        }
        op::COMPLETE_TX => (0, b.complete_tx(x)),
        w => return wait(site, off, w == op::WAIT_PARITY, x as u64),
    };
    cta.moved = true;
    if completed {
        phase_completed(cta, off);
    }
    out
}

/// Waits (parked) until the phase a parity or token names completes; returns 1.
fn wait(site: i32, off: u32, parity: bool, x: u64) -> i64 {
    let l = lane();
    loop {
        let cta = l.cta();
        let Some(b) = cta.tma.barriers.get(&off) else {
            l.fault(site, &format!("the mbarrier at shared byte {off} was invalidated while this thread waited on it"));
        };
        let awaited = if parity { b.awaited_by_parity(x) } else { b.awaited_by_token(x) };
        let Some(phase) = awaited else {
            let seen = b.phase;
            cta.tma.observed(l.tid, off, seen);
            return 1;
        };
        l.state = St::Mbar { site, off, phase };
        l.park();
        l.state = St::Run;
    }
}

/// Releases the threads waiting for a phase of the mbarrier at `off` that has completed.
pub fn phase_completed(cta: &mut Cta, off: u32) {
    let Some(done) = cta.tma.barriers.get(&off).map(|b| b.phase) else { return };
    for l in cta.lanes.iter_mut().filter(|l| matches!(l.state, St::Mbar { off: o, phase, .. } if o == off && phase < done)) {
        l.state = St::Run;
    }
    cta.moved = true;
}

/// What a thread parked in [`St::Mbar`] waits for, for a deadlock report.
pub fn describe_wait(cta: &Cta, site: i32, off: u32, phase: u64) -> String {
    let state = match cta.tma.barriers.get(&off) {
        Some(b) => format!("it still expects {} of {} arrivals and {} transaction bytes, and no copy in flight completes it", b.pending, b.expected, b.tx),
        None => "it is not initialized".into(),
    };
    format!("wait at {} for phase {phase} (parity {}) of the mbarrier at shared byte {off}: {state}", cta.op(site), phase % 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random arrivals and transaction bytes in random order: a phase completes exactly when
    /// the last of both is in, as a plain count says.
    #[test]
    fn phases_complete_when_arrivals_and_bytes_are_in() {
        let mut x: u64 = 0x3b;
        let mut below = |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        for _ in 0..200 {
            let count = 1 + below(8) as i64;
            let mut b = Barrier::new(count).unwrap();
            for phase in 0..4u64 {
                assert_eq!(b.awaited_by_parity(phase % 2), Some(phase));
                assert_eq!(b.awaited_by_parity(phase % 2 + 1), None, "the previous phase has completed");
                // Each arrival brings up to 3 copies of random sizes, landing in random order.
                let mut events: Vec<(bool, i64)> = vec![];
                let mut copies = vec![];
                for _ in 0..count {
                    let bytes: Vec<i64> = (0..below(3)).map(|_| 16 * (1 + below(64) as i64)).collect();
                    events.push((true, bytes.iter().sum()));
                    copies.extend(bytes);
                }
                for c in copies {
                    let at = below(events.len() as u64 + 1) as usize;
                    events.insert(at, (false, c));
                }
                let (mut arrived, mut landed, mut expected) = (0, 0, 0);
                let total: i64 = events.iter().filter(|e| !e.0).map(|e| e.1).sum();
                for (i, (arrive, n)) in events.iter().enumerate() {
                    let done = if *arrive {
                        arrived += 1;
                        expected += n;
                        let (token, done) = b.arrive(Arrive { count: 1, tx: *n, ..Default::default() }).unwrap();
                        assert_eq!(token, phase);
                        done
                    } else {
                        landed += n;
                        b.complete_tx(*n)
                    };
                    let want = arrived == count && landed == total && expected == total;
                    assert_eq!(done, want, "event {i} of phase {phase}");
                    if !done {
                        assert_eq!(b.awaited_by_token(phase), Some(phase));
                    }
                }
                assert_eq!((b.phase, b.pending, b.tx), (phase + 1, count, 0));
                assert_eq!(b.awaited_by_token(phase), None);
            }
        }
    }

    #[test]
    fn misuse_is_reported() {
        assert!(Barrier::new(0).unwrap_err().contains("count 0"));
        let mut b = Barrier::new(2).unwrap();
        assert!(b.arrive(Arrive { count: 3, ..Default::default() }).unwrap_err().contains("more arrivals"));
        b.arrive(Arrive { count: 1, ..Default::default() }).unwrap();
        assert!(b.arrive(Arrive { count: 1, no_complete: true, ..Default::default() }).unwrap_err().contains("noComplete"));
        let mut b = Barrier::new(2).unwrap();
        // `.drop`: this phase and the next expect one arrival fewer.
        assert_eq!(b.arrive(Arrive { count: 1, drop: true, ..Default::default() }).unwrap(), (0, false));
        assert_eq!(b.arrive(Arrive { count: 1, ..Default::default() }).unwrap(), (0, true));
        assert_eq!(b.arrive(Arrive { count: 1, ..Default::default() }).unwrap(), (1, true));
        assert!(b.expect_tx(1 << 20).unwrap_err().contains("2^20"));
    }
}
