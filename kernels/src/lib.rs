//! weft's kernel library: collectives written in the kernel DSL, each with a plain-math
//! reference, behind one registry (`list`, `build`, `prepare`, `run_collective`).

mod allgather;
mod broadcast;
mod common;
mod error;
pub mod host;
mod reduce;
pub mod reference;
mod registry;

pub use error::KernelError;
pub use registry::{
    build, default_constexprs, list, prepare, run_collective, KernelInfo, Prepared, RunOptions, RunResult, ONE_SHOT_MAX_BYTES,
};
