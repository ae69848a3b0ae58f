//! The one compile entry for every target: `compile_variant(kernel, target, specialization)`
//! compiles the variant of `kernel` that assumes `specialization`'s argument facts (16-byte
//! aligned pointers, integers divisible by 16) for `target`, or returns it from the cache.
//! The facts are a constexpr of the variant, so they are part of its cache key; a launch
//! checks them against its arguments and runs the general variant where one does not hold
//! (`weft_runtime::variants`).

use super::{compile, compile_gpu, CompiledKernel, GpuBinary};
use crate::analysis::Specialization;
use crate::error::CompileError;
use crate::ir::Kernel;
use crate::pipeline::{Options, Target};
use std::sync::Arc;

/// A compiled variant: native code loaded in this process, or a GPU binary.
#[derive(Clone)]
pub enum Compiled {
    /// The CPU's shared library, loaded.
    Cpu(Arc<CompiledKernel>),
    /// A cubin or AMD code object.
    Gpu(Arc<GpuBinary>),
}

impl Compiled {
    /// Whether it came from the on-disk cache.
    pub fn from_disk_cache(&self) -> bool {
        match self {
            Compiled::Cpu(k) => k.from_disk_cache,
            Compiled::Gpu(b) => b.from_disk_cache,
        }
    }
}

/// Compiles `kernel` specialized by `spec` for `target` (through the memory and disk caches).
pub fn compile_variant(kernel: &Kernel, target: Target, spec: &Specialization, opts: &Options) -> Result<Compiled, CompileError> {
    let variant = spec.apply(kernel);
    Ok(match target {
        Target::Cpu => Compiled::Cpu(compile(&variant, opts)?),
        Target::Cuda { .. } | Target::Amd { .. } => Compiled::Gpu(compile_gpu(&variant, target, opts)?),
    })
}
