//! The `layout` stage of the GPU pipelines (Triton's TritonGPU IR): every tile value carries
//! an [`Encoding`] saying which thread and register slot holds each element.
//!
//! [`assign`] is the pass that decides them (the blocked layout of every tile, the accumulator
//! layout of dot results and the loops that carry them, slices where a reduction or an
//! `expand_dims` meets one); its result, a [`LayoutMap`], is what the GPU lowering reads.
//! [`stage::print`] writes the kernel with the encodings in its tensor types and a
//! `tile.convert_layout` wherever a value is read in another encoding than it is defined in;
//! [`stage::import`] reads such a file back and checks that every encoding is one the lowering
//! implements, so a compilation can start from a (possibly edited) layout file.

mod assign;
pub mod attr;
pub mod encoding;
pub mod stage;
#[cfg(test)]
pub(crate) mod tests;

pub use assign::{assign, LayoutMap};
pub use encoding::Encoding;

/// Why a layout file cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LayoutError {
    /// An encoding attribute does not parse.
    #[error("{value}: malformed encoding `{text}`: {why}")]
    Malformed {
        /// The value (its op and position in the file).
        value: String,
        /// The attribute text.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// An encoding parses but is not one the GPU lowering can implement there.
    #[error("{value}: inconsistent encoding {got}: {why}")]
    Inconsistent {
        /// The value (its op and position in the file).
        value: String,
        /// The encoding found.
        got: String,
        /// What the lowering needs instead, and why.
        why: String,
    },
}
