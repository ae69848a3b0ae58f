//! The crate's error type and the diagnostics it carries.

use std::fmt;

/// How serious an MLIR diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// An error: the input was rejected.
    Error,
    /// A warning.
    Warning,
    /// A remark.
    Remark,
    /// A note (normally attached to another diagnostic).
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        })
    }
}

/// One MLIR diagnostic, with its source position and the op it is about (when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Severity of the diagnostic.
    pub severity: Severity,
    /// File name from the diagnostic's location (the name given to `parse` for parsed text).
    pub file: String,
    /// 1-based line, or 0 when the location has none.
    pub line: usize,
    /// 1-based column, or 0 when the location has none.
    pub col: usize,
    /// The op the diagnostic is about, e.g. `shmem.put`, when it could be determined.
    pub op: Option<String>,
    /// The message, without MLIR's `'op.name' op ` prefix.
    pub message: String,
    /// Notes MLIR attached (e.g. "see current operation: ...").
    pub notes: Vec<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(
            f,
            &self.file,
            self.line,
            self.col,
            &self.severity.to_string(),
            self.op.as_deref(),
            &self.message,
        )
    }
}

/// Writes `file:line:col: error in `op`: message` (position and op left out when unknown).
pub(crate) fn write_located(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    line: usize,
    col: usize,
    severity: &str,
    op: Option<&str>,
    message: &str,
) -> fmt::Result {
    match (line, col) {
        (0, _) => write!(f, "{file}: ")?,
        (l, 0) => write!(f, "{file}:{l}: ")?,
        (l, c) => write!(f, "{file}:{l}:{c}: ")?,
    }
    match op {
        Some(op) => write!(f, "{severity} in `{op}`: {message}"),
        None => write!(f, "{severity}: {message}"),
    }
}

struct Located<'a> {
    file: &'a str,
    line: usize,
    col: usize,
    op: Option<&'a str>,
    message: &'a str,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_located(
            f,
            self.file,
            self.line,
            self.col,
            "error",
            self.op,
            self.message,
        )
    }
}

fn located<'a>(
    file: &'a str,
    line: usize,
    col: usize,
    op: &'a Option<String>,
    message: &'a str,
) -> Located<'a> {
    Located {
        file,
        line,
        col,
        op: op.as_deref(),
        message,
    }
}

/// Errors from building the MLIR context or parsing / verifying `tile` + `shmem` IR.
#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    /// The text is not well-formed MLIR (syntax, unknown op or type, undefined value, bad type).
    #[error("{}", located(file, *line, *col, op, message))]
    Parse {
        /// File name given to `parse`.
        file: String,
        /// 1-based line of the first error (0 if unknown).
        line: usize,
        /// 1-based column of the first error (0 if unknown).
        col: usize,
        /// The op the first error is about, when known.
        op: Option<String>,
        /// Message of the first error.
        message: String,
        /// Every diagnostic MLIR emitted, in order (errors, warnings and remarks).
        diagnostics: Vec<Diagnostic>,
    },
    /// The text parsed but an op broke its dialect's rules (operand types, attributes, counts).
    #[error("{}", located(file, *line, *col, op, message))]
    Verify {
        /// File name given to `parse`.
        file: String,
        /// 1-based line of the first error (0 if unknown).
        line: usize,
        /// 1-based column of the first error (0 if unknown).
        col: usize,
        /// The op the first error is about, when known.
        op: Option<String>,
        /// Message of the first error.
        message: String,
        /// Every diagnostic MLIR emitted, in order.
        diagnostics: Vec<Diagnostic>,
    },
    /// The embedded IRDL definitions could not be loaded (a bug in this crate).
    #[error("cannot load the tile/shmem IRDL dialects: {0}")]
    Irdl(String),
}

impl DialectError {
    /// All diagnostics behind this error (empty for `Irdl`).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            DialectError::Parse { diagnostics, .. } | DialectError::Verify { diagnostics, .. } => {
                diagnostics
            }
            DialectError::Irdl(_) => &[],
        }
    }

    /// The op the (first) error is about, when known.
    pub fn op(&self) -> Option<&str> {
        match self {
            DialectError::Parse { op, .. } | DialectError::Verify { op, .. } => op.as_deref(),
            DialectError::Irdl(_) => None,
        }
    }
}
