//! Happens-before tracking for the MSCCL-IR executor: vector clocks per thread block, and
//! per slot the last write and the reads since, so two unordered accesses (one a write)
//! are reported as a data race instead of silently depending on the interleaving simulated.

/// A vector clock over all thread blocks of all gpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Clock(Vec<u32>);

impl Clock {
    /// All zeros for `n` thread blocks.
    pub fn new(n: usize) -> Self {
        Clock(vec![0; n])
    }

    /// Advances thread block `me`'s own component (one tick per executed step).
    pub fn tick(&mut self, me: usize) {
        self.0[me] += 1;
    }

    /// Learns everything `other` knows (a receive, or a satisfied dependency).
    pub fn join(&mut self, other: &Clock) {
        for (mine, theirs) in self.0.iter_mut().zip(&other.0) {
            *mine = (*mine).max(*theirs);
        }
    }

    /// Component of thread block `tb`.
    pub fn get(&self, tb: usize) -> u32 {
        self.0[tb]
    }
}

/// One access to a slot: which thread block, at which of its clock ticks, and a label
/// (thread block id within its gpu, step index) for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Access {
    /// Global thread block index.
    pub tb: usize,
    /// The thread block's own clock when it made the access.
    pub time: u32,
    /// (thread block id, step index).
    pub label: (usize, usize),
}

impl Access {
    /// Whether this access is known to have happened before the holder of `clock`.
    fn before(&self, clock: &Clock) -> bool {
        self.time <= clock.get(self.tb)
    }
}

/// Accesses to one slot since its last write.
#[derive(Debug, Clone, Default)]
pub(super) struct History {
    last_write: Option<Access>,
    reads: Vec<Access>,
}

impl History {
    /// Records a read; fails with the unordered earlier write.
    pub fn read(&mut self, me: Access, clock: &Clock) -> Result<(), Access> {
        if let Some(w) = self.last_write.filter(|w| !w.before(clock)) {
            return Err(w);
        }
        self.reads.retain(|r| r.tb != me.tb);
        self.reads.push(me);
        Ok(())
    }

    /// Records a write; fails with the unordered earlier write or read.
    pub fn write(&mut self, me: Access, clock: &Clock) -> Result<(), Access> {
        if let Some(w) = self.last_write.filter(|w| !w.before(clock)) {
            return Err(w);
        }
        if let Some(r) = self.reads.iter().find(|r| !r.before(clock)) {
            return Err(*r);
        }
        self.last_write = Some(me);
        self.reads.clear();
        Ok(())
    }
}
