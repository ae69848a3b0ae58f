//! Capturing MLIR diagnostics and turning them into [`Diagnostic`]s / [`DialectError`]s.

use crate::error::{Diagnostic, DialectError, Severity};
use melior::{
    Context,
    diagnostic::{Diagnostic as MlirDiagnostic, DiagnosticHandlerId, DiagnosticSeverity},
    ir::Location,
};
use std::{cell::RefCell, rc::Rc};

/// A diagnostic handler attached to a context for as long as this guard lives. It swallows
/// every diagnostic (nothing reaches stderr) and records it.
pub(crate) struct Capture<'c> {
    context: &'c Context,
    id: Option<DiagnosticHandlerId>,
    sink: Rc<RefCell<Vec<Diagnostic>>>,
}

impl<'c> Capture<'c> {
    /// Attaches the handler; it is detached (and the previous handlers restored) on drop.
    pub(crate) fn attach(context: &'c Context) -> Self {
        let sink = Rc::new(RefCell::new(Vec::new()));
        let inner = Rc::clone(&sink);
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            if let Ok(mut sink) = inner.try_borrow_mut() {
                sink.push(convert(&diagnostic));
            }
            true
        });
        Capture {
            context,
            id: Some(id),
            sink,
        }
    }

    /// Takes the diagnostics recorded so far.
    pub(crate) fn take(&self) -> Vec<Diagnostic> {
        std::mem::take(&mut *self.sink.borrow_mut())
    }
}

impl Drop for Capture<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
    }
}

fn convert(diagnostic: &MlirDiagnostic) -> Diagnostic {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Remark => Severity::Remark,
        DiagnosticSeverity::Note => Severity::Note,
    };
    let (file, line, col) = position(diagnostic.location(), 0).unwrap_or_default();
    let notes = (0..diagnostic.note_count())
        .filter_map(|i| diagnostic.note(i).ok())
        .map(|note| text_of(&note))
        .collect();
    Diagnostic {
        severity,
        file,
        line,
        col,
        op: None,
        message: text_of(&diagnostic),
        notes,
    }
}

/// File, line and column of a location, looking through call-site, fused and name locations.
fn position(location: Location, depth: usize) -> Option<(String, usize, usize)> {
    if depth > 16 {
        return None;
    }
    if location.is_file_line_col_range() {
        let file = location
            .file_line_col_range_filename()
            .as_string_ref()
            .as_str()
            .map(str::to_owned)
            .unwrap_or_default();
        return Some((
            file,
            location.file_line_col_range_start_line(),
            location.file_line_col_range_start_column(),
        ));
    }
    if location.is_call_site() {
        return position(location.call_site_callee(), depth + 1);
    }
    if location.is_name() {
        return position(location.name_child_location(), depth + 1);
    }
    if location.is_fused() {
        return (0..location.fused_num_locations())
            .find_map(|i| position(location.fused_location(i), depth + 1));
    }
    None
}

/// Fills in `op` (from the message, the "see current operation" note, or the source text at the
/// diagnostic's position) and strips MLIR's `'name' op ` prefix from the message.
pub(crate) fn annotate(diagnostics: &mut [Diagnostic], text: &str, filename: &str) {
    for d in diagnostics {
        if d.file.is_empty() {
            d.file = filename.to_owned();
        }
        let (named, rest) = split_op_prefix(&d.message);
        if let Some(name) = named {
            d.op = Some(name.to_owned());
            d.message = rest.to_owned();
            continue;
        }
        d.op = d
            .notes
            .iter()
            .find_map(|note| {
                note.strip_prefix("see current operation:")
                    .and_then(first_generic_name)
            })
            .map(str::to_owned)
            .or_else(|| {
                (d.file == filename)
                    .then(|| op_in_source(text, d.line, d.col))
                    .flatten()
            });
    }
}

/// `'arith.addi' op requires ...` → (Some("arith.addi"), "requires ...").
fn split_op_prefix(message: &str) -> (Option<&str>, &str) {
    let split = || {
        let rest = message.strip_prefix('\'')?;
        let end = rest.find('\'')?;
        let name = &rest[..end];
        let tail = rest[end + 1..].strip_prefix(" op ")?;
        is_op_name(name).then_some((name, tail))
    };
    match split() {
        Some((name, tail)) => (Some(name), tail),
        None => (None, message),
    }
}

fn is_op_name(name: &str) -> bool {
    let mut parts = name.splitn(2, '.');
    let dialect = parts.next().unwrap_or("");
    let op = parts.next().unwrap_or("");
    !dialect.is_empty()
        && !op.is_empty()
        && dialect
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '-'))
}

/// The first `"dialect.op"(` in a piece of generic-form text.
fn first_generic_name(text: &str) -> Option<&str> {
    generic_names(text).next().map(|(_, name)| name)
}

/// Every `"dialect.op"` followed by `(` in `line`, with its byte offset.
fn generic_names(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.match_indices('"').filter_map(move |(start, _)| {
        let rest = &line[start + 1..];
        let end = rest.find('"')?;
        let name = &rest[..end];
        let after = rest[end + 1..].trim_start();
        (is_op_name(name) && after.starts_with('(')).then_some((start, name))
    })
}

/// The op at 1-based (`line`, `col`) of `text`: the generic op name at or before the column
/// (else the first on the line), else a pretty-form op name (`func.func`, `%x = arith.addi`).
pub(crate) fn op_in_source(text: &str, line: usize, col: usize) -> Option<String> {
    let source_line = text.lines().nth(line.checked_sub(1)?)?;
    let col_byte = col.saturating_sub(1).min(source_line.len());
    let names: Vec<_> = generic_names(source_line).collect();
    if let Some((_, name)) = names
        .iter()
        .rev()
        .find(|(at, _)| *at <= col_byte)
        .or_else(|| names.first())
    {
        return Some((*name).to_owned());
    }
    // Pretty form: `[%a, %b = ] dialect.op ...`.
    let mut rest = source_line.trim_start();
    if rest.starts_with('%') {
        rest = rest.split_once('=').map(|(_, r)| r.trim_start())?;
    }
    let token: &str = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$')))
        .next()?;
    is_op_name(token).then(|| token.to_owned())
}

/// Builds a Parse or Verify error from captured diagnostics (the first error decides).
pub(crate) fn error_from(
    mut diagnostics: Vec<Diagnostic>,
    text: &str,
    filename: &str,
    fallback: &str,
) -> DialectError {
    annotate(&mut diagnostics, text, filename);
    let first = diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .or_else(|| diagnostics.first())
        .cloned();
    let Some(first) = first else {
        return DialectError::Parse {
            file: filename.to_owned(),
            line: 0,
            col: 0,
            op: None,
            message: fallback.to_owned(),
            diagnostics,
        };
    };
    // Diagnostics emitted by an op's verifier carry MLIR's "see current operation" note; those
    // from the parser proper do not.
    let verify = first
        .notes
        .iter()
        .any(|n| n.starts_with("see current operation"));
    let Diagnostic {
        file,
        line,
        col,
        op,
        message,
        ..
    } = first;
    if verify {
        DialectError::Verify {
            file,
            line,
            col,
            op,
            message,
            diagnostics,
        }
    } else {
        DialectError::Parse {
            file,
            line,
            col,
            op,
            message,
            diagnostics,
        }
    }
}

/// A diagnostic's text. melior's `Display` fails when MLIR hands it bytes that are not UTF-8
/// (a message quoting part of a multi-byte character), and `to_string` would then panic inside
/// MLIR's callback, which aborts the process: keep what was written and say the rest was not text.
fn text_of(d: &impl std::fmt::Display) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    if write!(s, "{d}").is_err() {
        s.push_str(" (rest of the message is not UTF-8)");
    }
    s
}
