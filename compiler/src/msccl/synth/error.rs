//! Errors of topology parsing, synthesis, analysis and distribution.

use crate::msccl::MscclError;

/// A failure in `msccl::synth`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SynthError {
    /// A topology name, parameter or file is malformed.
    #[error("topology: {0}")]
    Topology(String),
    /// The collective cannot be synthesized as asked (unknown name, bad root, too many chunks).
    #[error("collective: {0}")]
    Collective(String),
    /// The instance's parameters are inconsistent (rounds below steps, zero chunks).
    #[error("instance: {0}")]
    Instance(String),
    /// Some rank can never receive a chunk it needs: the topology is not connected enough.
    #[error("{coll} cannot be implemented on {topo}: rank {rank} cannot be reached from any holder of a chunk it needs")]
    Unreachable {
        /// The collective.
        coll: String,
        /// The topology.
        topo: String,
        /// The rank.
        rank: usize,
    },
    /// The search ran past its node budget before deciding the instance.
    #[error("search for {0} gave up after its node budget (neither found nor refuted)")]
    Budget(String),
    /// Building the chunk program from a solution failed (a bug in the emitter if it happens).
    #[error("emitting the algorithm: {0}")]
    Emit(#[from] MscclError),
    /// A distribute input does not fit the construction.
    #[error("distribute: {0}")]
    Distribute(String),
}

/// Result alias for `msccl::synth`.
pub type Result<T> = std::result::Result<T, SynthError>;
