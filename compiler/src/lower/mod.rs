//! Lowerings from the `tile` / `shmem` IR to upstream MLIR dialects, one module per target.

pub mod cpu;
pub mod gpu;
pub mod fp8;

use crate::ir::Loc;

/// A call site of a runtime operation, reported by deadlock and fault diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteInfo {
    /// Op name (`shmem.signal_wait_until`).
    pub op: String,
    /// Where the op was written.
    pub loc: Loc,
}

/// Lowering failures.
#[derive(Debug, thiserror::Error)]
pub enum LowerError {
    /// The op has no lowering on this target.
    #[error("`{op}` at {loc} is not supported on target {target}: {why}")]
    Unsupported {
        /// Op name.
        op: String,
        /// Where it was written.
        loc: Loc,
        /// Target name.
        target: String,
        /// Why.
        why: String,
    },
    /// A constexpr the lowering reads has a bad value.
    #[error("constexpr `{name}` = `{value}` is invalid for target {target}: {why}")]
    BadConstexpr {
        /// Constexpr name.
        name: String,
        /// Its value.
        value: String,
        /// Target name.
        target: String,
        /// Why.
        why: String,
    },
    /// The IR violates an invariant the verifier should have caught.
    #[error("malformed `{op}` at {loc}: {why}")]
    Malformed {
        /// Op name.
        op: String,
        /// Where it was written.
        loc: Loc,
        /// Why.
        why: String,
    },
}
