//! The compiler's error type: every failure names the stage it happened in.

use crate::backend::link::LinkError;
use crate::backend::llvm::LlvmError;
use crate::backend::nvptx::GpuToolError;
use crate::dsl::DslError;
use crate::lower::LowerError;

/// A compilation failure.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// Building the kernel in the DSL failed.
    #[error("building the kernel: {0}")]
    Dsl(#[from] DslError),
    /// MLIR rejected a stage's IR.
    #[error("stage `{stage}`: {source}")]
    Mlir {
        /// Stage name.
        stage: &'static str,
        /// The MLIR diagnostic.
        source: weft_dialects::DialectError,
    },
    /// Lowering failed.
    #[error("stage `{stage}`: {source}")]
    Lower {
        /// Stage name.
        stage: &'static str,
        /// Why.
        source: LowerError,
    },
    /// An MLIR pass pipeline failed.
    #[error("stage `{stage}`: pass pipeline `{pipeline}` failed: {message}")]
    Pass {
        /// Stage name.
        stage: &'static str,
        /// The pipeline.
        pipeline: String,
        /// Diagnostics.
        message: String,
    },
    /// LLVM failed.
    #[error("stage `{stage}`: {source}")]
    Llvm {
        /// Stage name.
        stage: &'static str,
        /// LLVM's error.
        source: LlvmError,
    },
    /// A GPU back-end step (NVSHMEM linking, passes, code generation, ptxas, ld.lld) failed.
    #[error("stage `{stage}`: {source}")]
    Gpu {
        /// Stage name.
        stage: &'static str,
        /// Why.
        source: GpuToolError,
    },
    /// The stage exists for the target but is not implemented yet.
    #[error("stage `{stage}` for target {target} is not implemented: {what}")]
    NotImplemented {
        /// Stage name.
        stage: String,
        /// Target name.
        target: String,
        /// What is missing.
        what: String,
    },
    /// Linking or loading failed.
    #[error("stage `{stage}`: {source}")]
    Link {
        /// Stage name.
        stage: &'static str,
        /// Why.
        source: LinkError,
    },
    /// Importing MLIR text into the IR failed.
    #[error("importing {file}: {message}")]
    Import {
        /// Input file.
        file: String,
        /// Why.
        message: String,
    },
    /// A layout-stage file spells an encoding that is malformed or that the lowering cannot use.
    #[error("{file}: {source}")]
    Layout {
        /// Input file.
        file: String,
        /// What is wrong, naming the value.
        source: crate::layout::LayoutError,
    },
    /// A constexpr the pipeline reads has a value it does not know.
    #[error("constexpr `{name} = \"{value}\"`: expected {expected}")]
    BadConstexpr {
        /// The constexpr.
        name: &'static str,
        /// Its value.
        value: String,
        /// The values it takes.
        expected: &'static str,
    },
    /// The requested stage does not exist for the target.
    #[error("unknown stage `{stage}` for target {target}; stages are: {known}")]
    UnknownStage {
        /// What was asked.
        stage: String,
        /// Target name.
        target: String,
        /// Valid names.
        known: String,
    },
    /// The CPU model code is compiled for (`WEFT_CPU`) needs features this host's CPU lacks:
    /// its code would stop at the first launch with an illegal instruction.
    #[error(
        "CPU model `{model}` (WEFT_CPU) needs features this CPU lacks: {missing}; its code cannot run here. \
         Unset WEFT_CPU, or name a model this CPU runs (this one is `{host}`)"
    )]
    CpuModel {
        /// The model named.
        model: String,
        /// The features it needs that the host lacks (the first few, and how many in all).
        missing: String,
        /// The host's own level (e.g. `x86-64-v3`), a model that runs here.
        host: String,
    },
    /// File system trouble (cache, dumps).
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}
