//! Symbolic chunk values: which input chunks a buffer slot holds the (sum of the) data of.

use std::fmt;

/// One input chunk: `in[rank:index]` as the precondition placed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Contribution {
    /// Rank whose input buffer held the chunk.
    pub rank: usize,
    /// Chunk index in that input buffer.
    pub index: usize,
}

/// The symbolic contents of a chunk: a multiset of input contributions. A plain copy of an
/// input chunk has one contribution; a reduction is the sum (multiset union) of its operands,
/// so reducing the same input twice is visible as a duplicate and fails verification.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChunkValue {
    /// Sorted, duplicates kept.
    parts: Vec<Contribution>,
}

impl ChunkValue {
    /// The input chunk `in[rank:index]`.
    pub fn input(rank: usize, index: usize) -> Self {
        ChunkValue { parts: vec![Contribution { rank, index }] }
    }

    /// The sum of the given input chunks; `None` for an empty sum.
    pub fn sum_of(parts: impl IntoIterator<Item = Contribution>) -> Option<Self> {
        let mut parts: Vec<Contribution> = parts.into_iter().collect();
        if parts.is_empty() {
            return None;
        }
        parts.sort_unstable();
        Some(ChunkValue { parts })
    }

    /// The sum of `in[r:index]` over `ranks`.
    pub fn sum_over_ranks(ranks: impl IntoIterator<Item = usize>, index: usize) -> Option<Self> {
        Self::sum_of(ranks.into_iter().map(|rank| Contribution { rank, index }))
    }

    /// The pointwise reduction of `self` and `other`.
    pub fn reduce(&self, other: &ChunkValue) -> ChunkValue {
        // Both sides are sorted: merge instead of re-sorting.
        let mut parts = Vec::with_capacity(self.parts.len() + other.parts.len());
        let (mut a, mut b) = (self.parts.iter().peekable(), other.parts.iter().peekable());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            if x <= y {
                parts.push(**x);
                a.next();
            } else {
                parts.push(**y);
                b.next();
            }
        }
        parts.extend(a.copied());
        parts.extend(b.copied());
        ChunkValue { parts }
    }

    /// The contributions, sorted.
    pub fn contributions(&self) -> &[Contribution] {
        &self.parts
    }

    /// Whether this is a reduction of more than one input chunk.
    pub fn is_reduction(&self) -> bool {
        self.parts.len() > 1
    }

    /// The same value with every contribution's index rewritten by `f`.
    pub fn map_indices(&self, f: impl Fn(usize) -> usize) -> ChunkValue {
        let parts = self.parts.iter().map(|c| Contribution { rank: c.rank, index: f(c.index) });
        // `parts` is non-empty, so the sum exists.
        ChunkValue::sum_of(parts).unwrap_or_else(|| self.clone())
    }
}

impl fmt::Display for ChunkValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "in[r{}:c{}]", c.rank, c.index)?;
        }
        Ok(())
    }
}
