//! Built-in algorithms, written in the chunk DSL, and a registry by name.
//!
//! Every builder traces its program and returns the verified [`Algorithm`]; a builder that
//! produced a wrong program would fail here, with the postcondition error.

mod direct;
mod hierarchical;
mod ring;

pub use direct::{allgather_direct, alltoall_direct, alltoall_two_step};
pub use hierarchical::hierarchical_allreduce;
pub use ring::{allgather_ring, reduce_scatter_ring, ring_allreduce};

use super::collective::CollectiveKind;
use super::error::{MscclError, Result};
use super::program::Algorithm;
use super::protocol::Protocol;

/// Parameters of a built-in algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlgoParams {
    /// Total ranks.
    pub ranks: usize,
    /// Nodes the ranks are spread over (hierarchical algorithms; `ranks / nodes` per node).
    pub nodes: usize,
    /// Instances.
    pub instances: usize,
    /// Protocol.
    pub protocol: Protocol,
}

impl AlgoParams {
    /// `ranks` ranks on one node, one instance, Simple.
    pub fn new(ranks: usize) -> Self {
        AlgoParams { ranks, nodes: 1, instances: 1, protocol: Protocol::Simple }
    }

    /// `nodes` x `local` ranks.
    pub fn topology(nodes: usize, local: usize) -> Self {
        AlgoParams { nodes, ..AlgoParams::new(nodes * local) }
    }

    /// Sets the instance count.
    pub fn instances(mut self, instances: usize) -> Self {
        self.instances = instances;
        self
    }

    /// Sets the protocol.
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Ranks per node; `nodes` must divide `ranks`.
    pub fn local(&self) -> Result<usize> {
        if self.nodes == 0 || self.ranks == 0 || !self.ranks.is_multiple_of(self.nodes) {
            return Err(MscclError::InvalidConfig(format!(
                "{} ranks cannot be split evenly over {} nodes",
                self.ranks, self.nodes
            )));
        }
        Ok(self.ranks / self.nodes)
    }
}

/// A registered built-in algorithm.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinAlgorithm {
    /// Registry name.
    pub name: &'static str,
    /// The collective it implements.
    pub collective: CollectiveKind,
    /// Whether it uses `nodes` (nodes x local ranks).
    pub hierarchical: bool,
    /// One line on what it does.
    pub description: &'static str,
    /// Builds (and verifies) it.
    pub build: fn(&AlgoParams) -> Result<Algorithm>,
}

/// Every built-in algorithm.
pub const BUILTINS: [BuiltinAlgorithm; 7] = [
    BuiltinAlgorithm {
        name: "ring_allreduce",
        collective: CollectiveKind::AllReduce,
        hierarchical: false,
        description: "ring reduce-scatter then ring all-gather, one chunk per rank, in place",
        build: ring_allreduce,
    },
    BuiltinAlgorithm {
        name: "hierarchical_allreduce",
        collective: CollectiveKind::AllReduce,
        hierarchical: true,
        description: "intra-node reduce-scatter, inter-node reduce-scatter and all-gather, intra-node all-gather",
        build: hierarchical_allreduce,
    },
    BuiltinAlgorithm {
        name: "allgather_ring",
        collective: CollectiveKind::AllGather,
        hierarchical: false,
        description: "each rank's chunk travels once around the ring",
        build: allgather_ring,
    },
    BuiltinAlgorithm {
        name: "allgather_direct",
        collective: CollectiveKind::AllGather,
        hierarchical: false,
        description: "each rank sends its chunk straight to every rank",
        build: allgather_direct,
    },
    BuiltinAlgorithm {
        name: "alltoall_direct",
        collective: CollectiveKind::AllToAll,
        hierarchical: false,
        description: "each rank sends every slice straight to its destination",
        build: alltoall_direct,
    },
    BuiltinAlgorithm {
        name: "alltoall_two_step",
        collective: CollectiveKind::AllToAll,
        hierarchical: true,
        description: "gather slices per destination node within the node, one aggregated transfer per node pair",
        build: alltoall_two_step,
    },
    BuiltinAlgorithm {
        name: "reduce_scatter_ring",
        collective: CollectiveKind::ReduceScatter,
        hierarchical: false,
        description: "each slice is reduced along the ring, ending at its owner",
        build: reduce_scatter_ring,
    },
];

/// The built-in algorithm called `name`.
pub fn lookup(name: &str) -> Result<&'static BuiltinAlgorithm> {
    BUILTINS.iter().find(|b| b.name == name).ok_or_else(|| MscclError::UnknownAlgorithm {
        name: name.to_string(),
        known: BUILTINS.iter().map(|b| b.name.to_string()).collect(),
    })
}

/// Builds the built-in algorithm called `name`.
pub fn build(name: &str, params: &AlgoParams) -> Result<Algorithm> {
    (lookup(name)?.build)(params)
}

/// Checks the common parameters.
fn check(params: &AlgoParams) -> Result<()> {
    if params.ranks == 0 || params.instances == 0 {
        return Err(MscclError::InvalidConfig("ranks and instances must be at least 1".into()));
    }
    Ok(())
}
