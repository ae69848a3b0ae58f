//! Handles to symmetric allocations: the same offset in every rank's heap.

use crate::dtype::Element;
use std::marker::PhantomData;

/// An untyped symmetric allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawBuf {
    /// Allocation id (for diagnostics).
    pub id: u64,
    /// Byte offset in every rank's heap.
    pub offset: usize,
    /// Size in bytes.
    pub bytes: usize,
}

/// A typed symmetric buffer of `len` elements on every rank.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct SymBuf<T: Element> {
    /// The allocation.
    pub raw: RawBuf,
    /// Elements per rank.
    pub len: usize,
    _t: PhantomData<T>,
}

impl<T: Element> Clone for SymBuf<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Element> Copy for SymBuf<T> {}

impl<T: Element> SymBuf<T> {
    pub(crate) fn new(raw: RawBuf, len: usize) -> SymBuf<T> {
        SymBuf { raw, len, _t: PhantomData }
    }

    /// Elements per rank.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}
