//! The shared-memory race check: a shadow entry per byte of the CTA's shared memory records
//! which thread last wrote it and which read it, in which barrier epoch. A read of a byte
//! another thread wrote in the same epoch, or a write of a byte another thread read or wrote
//! in it, has no barrier between the two accesses: a race. (Two threads storing into one
//! byte between barriers is reported too: even equal values are the lowering's bug to avoid.)
//! A read of a byte no thread has written since the CTA started reads uninitialized shared
//! memory (a GPU leaves whatever the previous CTA on the SM left there).

/// Who touched a byte, in which epoch.
#[derive(Clone, Copy, Default)]
struct Cell {
    writer: u32,
    write_epoch: u32,
    reader: u32,
    read_epoch: u32,
    written: bool,
}

/// Several threads read the byte in this epoch.
const MANY: u32 = u32::MAX;

/// The shadow of one CTA's shared memory.
pub struct Shadow {
    cells: Vec<Cell>,
    epoch: u32,
}

impl Shadow {
    /// A shadow of `bytes` bytes.
    pub fn new(bytes: usize) -> Shadow {
        Shadow { cells: vec![Cell::default(); bytes], epoch: 1 }
    }

    /// A thread arrived at a barrier (nothing to record: the epoch moves when all have).
    pub fn barrier(&mut self, _tid: u32) {}

    /// Every thread passed a barrier.
    pub fn epoch(&mut self) {
        self.epoch += 1;
    }

    /// Bytes an asynchronous copy wrote (a TMA load landing): written, by no thread in no
    /// epoch, since their visibility is the mbarrier's (checked by `tma`).
    pub fn async_write(&mut self, off: usize, len: usize) {
        for c in self.cells.iter_mut().skip(off).take(len) {
            *c = Cell { written: true, ..Cell::default() };
        }
    }

    /// Records thread `tid` accessing `[off, off + len)`; on a race, the other thread's id and
    /// what it did.
    pub fn access(&mut self, tid: u32, off: usize, len: usize, write: bool) -> Result<(), String> {
        let me = tid + 1;
        let e = self.epoch;
        let Some(cells) = self.cells.get_mut(off..off + len) else {
            return Err(format!("shared-memory access at byte {off} (+{len}) is outside the CTA's {} bytes", self.cells.len()));
        };
        for (i, c) in cells.iter_mut().enumerate() {
            if c.write_epoch == e && c.writer != me {
                let what = if write { "writes" } else { "reads" };
                return Err(format!("shared-memory race: {what} byte {} that thread {} wrote since the last barrier", off + i, c.writer - 1));
            }
            if !write && !c.written {
                return Err(format!("reads byte {} of shared memory, which no thread has written: uninitialized", off + i));
            }
            if write {
                c.written = true;
                if c.read_epoch == e && c.reader != me {
                    let who = if c.reader == MANY { "other threads".to_string() } else { format!("thread {}", c.reader - 1) };
                    return Err(format!("shared-memory race: writes byte {} that {who} read since the last barrier", off + i));
                }
                (c.writer, c.write_epoch) = (me, e);
            } else if c.read_epoch != e {
                (c.reader, c.read_epoch) = (me, e);
            } else if c.reader != me {
                c.reader = MANY;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Shadow;

    #[test]
    fn reads_of_unwritten_bytes_are_uninitialized() {
        let mut s = Shadow::new(16);
        s.access(0, 0, 4, true).unwrap();
        s.epoch();
        s.access(1, 0, 4, false).unwrap();
        assert!(s.access(1, 2, 4, false).unwrap_err().contains("byte 4 of shared memory, which no thread has written"));
    }

    #[test]
    fn races_need_a_barrier_between() {
        let mut s = Shadow::new(64);
        s.access(0, 0, 8, true).unwrap();
        assert!(s.access(1, 4, 4, false).unwrap_err().contains("thread 0 wrote"));
        s.epoch();
        s.access(1, 4, 4, false).unwrap();
        s.access(2, 4, 4, false).unwrap();
        assert!(s.access(3, 6, 2, true).unwrap_err().contains("other threads read"));
        s.epoch();
        s.access(3, 6, 2, true).unwrap();
        s.access(3, 6, 2, false).unwrap();
        assert!(s.access(0, 60, 8, false).unwrap_err().contains("outside"));
    }
}
