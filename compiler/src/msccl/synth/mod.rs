//! Algorithm synthesis for a topology (msccl-tools' `solve` / `analyze` / `distribute`):
//! topologies as data ([`Topology`]), an exact instance search ([`search`]), the least-steps
//! and Pareto-optimal strategies and lower bounds ([`strategy`]), and the emitter that turns
//! a schedule into a verified chunk-DSL [`crate::msccl::Algorithm`]; [`alltoall_gather_scatter`]
//! stitches local Gather and Scatter schedules into a distributed AllToAll.

mod distribute;
mod emit;
mod error;
mod flow;
mod problem;
pub mod search;
pub mod strategy;
mod topo;

pub use distribute::alltoall_gather_scatter;
pub use emit::Synthesized;
pub use error::{Result, SynthError};
pub use problem::{ChunkDemand, SynthCollective};
pub use strategy::{DEFAULT_BUDGET, Ratio, instance, least_steps, lower_bound_rounds, lower_bound_steps, pareto_optimal};
pub use topo::{MAX_RANKS, Topology};

#[cfg(test)]
mod tests;
