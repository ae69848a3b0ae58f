//! Buffers and chunk locations, shared by the chunk DSL and MSCCL-IR.

use std::fmt;

/// One of the three per-rank buffers of an MSCCL program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Buffer {
    /// The collective's input (initialized by the precondition).
    Input,
    /// The collective's output (checked by the postcondition).
    Output,
    /// Temporary storage; its size is inferred from the highest index used.
    Scratch,
}

impl Buffer {
    /// All buffers, in the order used to index per-buffer arrays.
    pub const ALL: [Buffer; 3] = [Buffer::Input, Buffer::Output, Buffer::Scratch];

    /// Position in [`Buffer::ALL`].
    pub const fn slot(self) -> usize {
        match self {
            Buffer::Input => 0,
            Buffer::Output => 1,
            Buffer::Scratch => 2,
        }
    }

    /// MSCCL-IR spelling: `i`, `o` or `s`.
    pub const fn letter(self) -> &'static str {
        match self {
            Buffer::Input => "i",
            Buffer::Output => "o",
            Buffer::Scratch => "s",
        }
    }

    /// Parses the MSCCL-IR spelling.
    pub fn from_letter(s: &str) -> Option<Buffer> {
        match s {
            "i" => Some(Buffer::Input),
            "o" => Some(Buffer::Output),
            "s" => Some(Buffer::Scratch),
            _ => None,
        }
    }
}

impl fmt::Display for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Buffer::Input => "in",
            Buffer::Output => "out",
            Buffer::Scratch => "scratch",
        })
    }
}

/// A chunk slot: rank, buffer and chunk index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    /// Rank owning the buffer.
    pub rank: usize,
    /// The buffer.
    pub buffer: Buffer,
    /// Chunk index in the buffer.
    pub index: usize,
}

impl Loc {
    /// A location.
    pub const fn new(rank: usize, buffer: Buffer, index: usize) -> Self {
        Loc { rank, buffer, index }
    }

    /// The location `offset` chunks further on.
    pub const fn offset(self, offset: usize) -> Self {
        Loc { index: self.index + offset, ..self }
    }

    /// Whether `[self, self+count)` and `[other, other+other_count)` share a slot.
    pub fn overlaps(self, count: usize, other: Loc, other_count: usize) -> bool {
        self.rank == other.rank
            && self.buffer == other.buffer
            && self.index < other.index + other_count
            && other.index < self.index + count
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}.{}[{}]", self.rank, self.buffer, self.index)
    }
}

/// Formats `count` chunks starting at `loc`, e.g. `r0.in[2]` or `r0.in[2..4]`.
pub(crate) fn span(loc: Loc, count: usize) -> String {
    if count == 1 {
        loc.to_string()
    } else {
        format!("r{}.{}[{}..{}]", loc.rank, loc.buffer, loc.index, loc.index + count)
    }
}
