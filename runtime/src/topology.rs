//! Rank topology: nodes × local ranks. Intra- versus inter-node decides protocol and swizzle.

use std::fmt;

/// `nodes` × `local_size` ranks; rank `r` is on node `r / local_size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Topology {
    /// Number of nodes.
    pub nodes: usize,
    /// Ranks per node.
    pub local_size: usize,
}

impl Topology {
    /// One node of `n` ranks.
    pub fn single_node(n: usize) -> Topology {
        Topology { nodes: 1, local_size: n }
    }

    /// Total ranks.
    pub fn world_size(&self) -> usize {
        self.nodes * self.local_size
    }

    /// The node of `rank`.
    pub fn node_of(&self, rank: usize) -> usize {
        rank / self.local_size
    }

    /// `rank`'s index within its node.
    pub fn local_rank(&self, rank: usize) -> usize {
        rank % self.local_size
    }

    /// Checks the shape is usable.
    pub fn validate(&self) -> Result<(), crate::RuntimeError> {
        if self.nodes == 0 || self.local_size == 0 {
            return Err(crate::RuntimeError::BadTopology(format!("{self} has no ranks")));
        }
        if self.world_size() > 4096 {
            return Err(crate::RuntimeError::BadTopology(format!("{self} has more than 4096 ranks")));
        }
        Ok(())
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.nodes, self.local_size)
    }
}
