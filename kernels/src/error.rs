//! The kernel library's error type.

/// Why a library kernel could not be built, run or checked.
#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    /// No such kernel.
    #[error("unknown kernel `{name}`; kernels are: {known}")]
    Unknown {
        /// Requested name.
        name: String,
        /// Valid names.
        known: String,
    },
    /// The kernel does not support this configuration.
    #[error("`{kernel}` does not support {what}")]
    Unsupported {
        /// Kernel name.
        kernel: String,
        /// What.
        what: String,
    },
    /// The requested size does not fit (byte counts overflow).
    #[error("`{kernel}` with {elems} elements per rank is too large: its buffer sizes overflow")]
    TooLarge {
        /// Kernel name.
        kernel: String,
        /// Requested elements per rank.
        elems: usize,
    },
    /// Building the kernel failed.
    #[error(transparent)]
    Dsl(#[from] weft_compiler::dsl::DslError),
    /// Compiling the kernel failed.
    #[error(transparent)]
    Compile(#[from] weft_compiler::CompileError),
    /// The runtime failed.
    #[error(transparent)]
    Runtime(#[from] weft_runtime::RuntimeError),
}
