//! weft: a compiler and runtime for kernels that compute and communicate in the same kernel.
//!
//! This facade re-exports the layers: the `tile` / `shmem` dialects, the compiler (DSL, IR,
//! stage pipeline, back ends), the runtime (symmetric heap, transports, launch) and the kernel
//! library.

pub use weft_compiler as compiler;
pub use weft_dialects as dialects;
pub use weft_emulator as emulator;
pub use weft_kernels as kernels;
pub use weft_runtime as runtime;

pub use weft_compiler::dsl;
pub use weft_compiler::{compile, CompileError, CompiledKernel, Options, Target};
