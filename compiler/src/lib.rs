//! weft compiler: the kernel DSL, the IR, the stage pipeline and the back ends.

pub mod analysis;
pub mod backend;
pub mod cache;
pub mod dsl;
pub mod error;
pub mod fuzz;
pub mod ir;
pub mod layout;
pub mod lower;
pub mod msccl;
pub mod pipeline;

pub use cache::{compile, CompiledKernel};
pub use error::CompileError;
pub use pipeline::{Options, Stage, Target};
#[cfg(test)]
mod tests;
#[cfg(test)]
mod fuzz_tests;
