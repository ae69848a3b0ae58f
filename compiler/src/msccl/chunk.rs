//! Chunk references: the handles the DSL's `copy` and `reduce` operate on.
//!
//! A reference remembers the generation of each slot it covers. Any later write to one of
//! those slots makes it stale, and using it then is an error naming both operations: this
//! is MSCCLang's latest-reference rule, which makes traced programs race free.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use super::buffer::{Buffer, Loc, span};
use super::error::{MscclError, Result};
use super::program::{Hints, Op, OpKind, State, describe};

/// A reference to `count` consecutive chunks of one buffer on one rank.
#[derive(Clone)]
pub struct ChunkRef {
    state: Rc<RefCell<State>>,
    loc: Loc,
    count: usize,
    generations: Vec<usize>,
}

impl fmt::Debug for ChunkRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChunkRef({})", span(self.loc, self.count))
    }
}

impl ChunkRef {
    pub(super) fn new(state: Rc<RefCell<State>>, loc: Loc, count: usize, generations: Vec<usize>) -> Self {
        ChunkRef { state, loc, count, generations }
    }

    /// Rank holding the chunks.
    pub fn rank(&self) -> usize {
        self.loc.rank
    }

    /// Buffer holding the chunks (after in-place aliasing).
    pub fn buffer(&self) -> Buffer {
        self.loc.buffer
    }

    /// First chunk index (after in-place aliasing).
    pub fn index(&self) -> usize {
        self.loc.index
    }

    /// Number of chunks.
    pub fn count(&self) -> usize {
        self.count
    }

    /// First slot.
    pub fn loc(&self) -> Loc {
        self.loc
    }

    /// Copies the chunks to `index` of `buffer` on `rank`; returns a reference to the copy.
    pub fn copy(&self, rank: usize, buffer: Buffer, index: usize) -> Result<ChunkRef> {
        self.copy_with(rank, buffer, index, Hints::default())
    }

    /// [`ChunkRef::copy`] with scheduling hints.
    pub fn copy_with(&self, rank: usize, buffer: Buffer, index: usize, hints: Hints) -> Result<ChunkRef> {
        let mut state = self.state.borrow_mut();
        let id = state.ops.len();
        let logical = Loc::new(rank, buffer, index);
        let op = describe(id, OpKind::Copy, self.loc, logical, self.count);
        let dst = state.resolve(&op, rank, buffer, index, self.count)?;
        state.check_fresh(&op, self.loc, &self.generations)?;
        if dst == self.loc {
            // Copying onto itself (typically out -> in of an in-place program) is a no-op.
            return Ok(self.clone());
        }
        if dst.overlaps(self.count, self.loc, self.count) {
            return Err(MscclError::Overlap { op });
        }
        let values = state.read(&op, self.loc, self.count)?;
        state.write(dst, values, id);
        state.ops.push(Op { id, kind: OpKind::Copy, src: self.loc, dst, count: self.count, hints });
        let generations = state.generations(dst, self.count);
        Ok(ChunkRef::new(self.state.clone(), dst, self.count, generations))
    }

    /// Reduces `other` into these chunks (`self = self + other`); returns the new reference.
    pub fn reduce(&self, other: &ChunkRef) -> Result<ChunkRef> {
        self.reduce_with(other, Hints::default())
    }

    /// [`ChunkRef::reduce`] with scheduling hints.
    pub fn reduce_with(&self, other: &ChunkRef, hints: Hints) -> Result<ChunkRef> {
        let mut state = self.state.borrow_mut();
        let id = state.ops.len();
        let op = describe(id, OpKind::Reduce, other.loc, self.loc, self.count);
        if !Rc::ptr_eq(&self.state, &other.state) {
            return Err(MscclError::ForeignReference { op });
        }
        if self.count != other.count {
            return Err(MscclError::CountMismatch { op, left: self.count, right: other.count });
        }
        state.check_fresh(&op, self.loc, &self.generations)?;
        state.check_fresh(&op, other.loc, &other.generations)?;
        if self.loc.overlaps(self.count, other.loc, other.count) {
            return Err(MscclError::Overlap { op });
        }
        let mine = state.read(&op, self.loc, self.count)?;
        let theirs = state.read(&op, other.loc, other.count)?;
        let sums = mine.iter().zip(&theirs).map(|(a, b)| a.reduce(b)).collect();
        state.write(self.loc, sums, id);
        state.ops.push(Op { id, kind: OpKind::Reduce, src: other.loc, dst: self.loc, count: self.count, hints });
        let generations = state.generations(self.loc, self.count);
        Ok(ChunkRef::new(self.state.clone(), self.loc, self.count, generations))
    }

    /// Splits the reference into `parts` equal references (the count must divide evenly).
    pub fn split(&self, parts: usize) -> Result<Vec<ChunkRef>> {
        if parts == 0 || !self.count.is_multiple_of(parts) {
            return Err(MscclError::CountMismatch {
                op: format!("split {} into {parts}", span(self.loc, self.count)),
                left: self.count,
                right: parts,
            });
        }
        let each = self.count / parts;
        Ok((0..parts)
            .map(|p| {
                let generations = self.generations[p * each..(p + 1) * each].to_vec();
                ChunkRef::new(self.state.clone(), self.loc.offset(p * each), each, generations)
            })
            .collect())
    }
}
