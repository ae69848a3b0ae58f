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
    Dsl(Box<weft_compiler::dsl::DslError>),
    /// Compiling the kernel failed.
    #[error(transparent)]
    Compile(Box<weft_compiler::CompileError>),
    /// An MSCCL algorithm is malformed or cannot be lowered.
    #[error(transparent)]
    Msccl(Box<weft_compiler::msccl::MscclError>),
    /// The SIMT emulator cannot run the kernel.
    #[error(transparent)]
    Emulator(#[from] weft_emulator::EmuError),
    /// The runtime failed (a fault, a deadlock, an exhausted heap, ...).
    #[error(transparent)]
    Runtime(Box<weft_runtime::RuntimeError>),
}

// Boxed so that `Result<_, KernelError>` stays small on the happy path.
macro_rules! boxed_from {
    ($($variant:ident($t:ty)),*) => {$(
        impl From<$t> for KernelError {
            fn from(e: $t) -> Self {
                KernelError::$variant(Box::new(e))
            }
        }
    )*};
}
boxed_from!(Dsl(weft_compiler::dsl::DslError), Compile(weft_compiler::CompileError), Runtime(weft_runtime::RuntimeError), Msccl(weft_compiler::msccl::MscclError));
