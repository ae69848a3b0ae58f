//! Running the external tools of the GPU back ends (ptxas; ld.lld for AMD) on files in a
//! scratch directory, and the back ends' one error type.

use super::toolchain::ToolError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A step of a GPU back end failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuToolError {
    /// A tool is not installed.
    #[error(transparent)]
    Missing(#[from] ToolError),
    /// LLVM (linking, passes, code generation in process) failed.
    #[error(transparent)]
    Llvm(#[from] super::llvm::LlvmError),
    /// A tool ran and failed.
    #[error("{step} failed: {message}\n  command: {command}")]
    Failed {
        /// Which step (`ptxas`, `ld.lld`).
        step: &'static str,
        /// The command line.
        command: String,
        /// What the tool printed.
        message: String,
    },
    /// Scratch files could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// A scratch directory removed when dropped.
pub(crate) struct Scratch(pub(crate) PathBuf);

impl Scratch {
    pub(crate) fn new() -> Result<Scratch, GpuToolError> {
        static N: AtomicU32 = AtomicU32::new(0);
        let d = std::env::temp_dir().join(format!("weft-gpu-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        std::fs::create_dir_all(&d).map_err(|source| GpuToolError::Io { path: d.display().to_string(), source })?;
        Ok(Scratch(d))
    }

    pub(crate) fn write(&self, name: &str, data: &[u8]) -> Result<PathBuf, GpuToolError> {
        let p = self.0.join(name);
        std::fs::write(&p, data).map_err(|source| GpuToolError::Io { path: p.display().to_string(), source })?;
        Ok(p)
    }

    pub(crate) fn read(&self, name: &str) -> Result<Vec<u8>, GpuToolError> {
        let p = self.0.join(name);
        std::fs::read(&p).map_err(|source| GpuToolError::Io { path: p.display().to_string(), source })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `tool args...`; returns its stdout and stderr, or the failure with stderr.
pub(crate) fn run(step: &'static str, tool: &Path, args: &[&str]) -> Result<(Vec<u8>, String), GpuToolError> {
    let command = format!("{} {}", tool.display(), args.join(" "));
    let out = Command::new(tool).args(args).output().map_err(|e| GpuToolError::Failed { step, command: command.clone(), message: e.to_string() })?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(GpuToolError::Failed { step, command, message: stderr.trim().to_string() });
    }
    Ok((out.stdout, stderr))
}

