//! Typed errors raised while building a kernel.

use crate::ir::Loc;

/// What went wrong while building a kernel.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DslErrorKind {
    /// Operand shapes cannot be combined.
    #[error("shape mismatch in `{op}`: {lhs} vs {rhs}")]
    ShapeMismatch {
        /// Op being built.
        op: String,
        /// First operand type.
        lhs: String,
        /// Second operand type.
        rhs: String,
    },
    /// An operand has the wrong element type.
    #[error("dtype mismatch in `{op}`: expected {expected}, got {got}")]
    DTypeMismatch {
        /// Op being built.
        op: String,
        /// What was expected.
        expected: String,
        /// What was given.
        got: String,
    },
    /// A constexpr is missing.
    #[error("missing constexpr `{name}`")]
    MissingConstexpr {
        /// Name.
        name: String,
    },
    /// A constexpr has an invalid value.
    #[error("constexpr `{name}` = {value} is out of range: {allowed}")]
    ConstexprOutOfRange {
        /// Name.
        name: String,
        /// Given value.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// Anything else that makes the op invalid.
    #[error("invalid `{op}`: {message}")]
    Invalid {
        /// Op being built.
        op: String,
        /// Why.
        message: String,
    },
}

/// A kernel-building error at a source location.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{loc}: {kind}")]
pub struct DslError {
    /// What went wrong.
    pub kind: DslErrorKind,
    /// Where in the kernel source.
    pub loc: Loc,
}
