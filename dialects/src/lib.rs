//! The `tile` and `shmem` MLIR dialects of weft, defined in IRDL, and the MLIR context that
//! loads them.
//!
//! * [`context`] builds a [`Context`] with every upstream dialect, pass and LLVM translation
//!   registered and the two IRDL dialects loaded.
//! * [`parse`] parses and verifies text, turning MLIR diagnostics into a [`DialectError`] whose
//!   `Display` is one line: `kernel.mlir:3:9: error in `shmem.put`: expected 'i64' but got 'i32'`.
//! * [`verify`] checks a module built or rewritten in memory.
//! * [`print`] / [`print_with_locations`] print a module (our ops in generic form).
//!
//! The op contract is `dialects/README.md`.

#![warn(missing_docs)]

mod diag;
mod error;
#[cfg(test)]
mod tests;

pub use error::{Diagnostic, DialectError, Severity};
pub use melior::{Context, ir::Module};

use melior::{
    dialect::DialectRegistry,
    ir::{BlockLike, Location, operation::OperationLike},
    utility::{
        load_irdl_dialects, register_all_dialects, register_all_llvm_translations,
        register_all_passes,
    },
};
use mlir_sys::{MlirOperation, MlirStringRef};
use std::ffi::c_void;

/// IRDL definition of the `tile` dialect (`dialects/tile.irdl.mlir`).
pub const TILE_IRDL: &str = include_str!("../tile.irdl.mlir");

/// IRDL definition of the `shmem` dialect (`dialects/shmem.irdl.mlir`); it refers to `!tile.ptr`,
/// so it must be loaded together with [`TILE_IRDL`].
pub const SHMEM_IRDL: &str = include_str!("../shmem.irdl.mlir");

/// Creates an MLIR context with all upstream dialects loaded, all passes and LLVM IR
/// translations registered, and the `tile` and `shmem` dialects loaded from their IRDL.
pub fn context() -> Result<Context, DialectError> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_passes();
    register_all_llvm_translations(&context);
    load_weft_dialects(&context)?;
    Ok(context)
}

/// Loads `tile` and `shmem` into `context` (one IRDL module, as `shmem` refers to `tile`).
fn load_weft_dialects(context: &Context) -> Result<(), DialectError> {
    let text = format!("module {{\n{TILE_IRDL}\n{SHMEM_IRDL}\n}}\n");
    let capture = diag::Capture::attach(context);
    let irdl = parse_op(context, &text, "weft.irdl.mlir")
        .and_then(|op| Module::from_operation(op))
        .ok_or_else(|| {
            DialectError::Irdl(
                diag::error_from(capture.take(), &text, "weft.irdl.mlir", "parse failed")
                    .to_string(),
            )
        })?;
    if !load_irdl_dialects(&irdl) {
        let message = diag::error_from(
            capture.take(),
            &text,
            "weft.irdl.mlir",
            "mlirLoadIRDLDialects failed",
        )
        .to_string();
        return Err(DialectError::Irdl(message));
    }
    Ok(())
}

/// Parses `text` (named `filename` in locations and errors) into a module and verifies it.
///
/// The text may be a `module`, a single other op (which is wrapped in a module), or several
/// top-level ops (an implicit module). Diagnostics are captured, never printed.
pub fn parse<'c>(ctx: &'c Context, text: &str, filename: &str) -> Result<Module<'c>, DialectError> {
    // MLIR's lexer stops at a NUL byte and would silently ignore the rest of the text.
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        let col = at - text[..at].rfind('\n').map_or(0, |nl| nl + 1) + 1;
        let message = "unexpected NUL character".to_owned();
        let diagnostic = Diagnostic {
            severity: Severity::Error,
            file: filename.to_owned(),
            line,
            col,
            op: None,
            message: message.clone(),
            notes: Vec::new(),
        };
        return Err(DialectError::Parse {
            file: filename.to_owned(),
            line,
            col,
            op: None,
            message,
            diagnostics: vec![diagnostic],
        });
    }
    let capture = diag::Capture::attach(ctx);
    let module = match parse_op(ctx, text, filename) {
        Some(op) if op.name().as_string_ref().as_str() == Ok("builtin.module") => {
            Module::from_operation(op)
        }
        Some(op) => {
            let module = Module::new(Location::new(ctx, filename, 0, 0));
            module.body().append_operation(op);
            Some(module)
        }
        None => {
            let diagnostics = capture.take();
            match implicit_module(ctx, text, filename, &diagnostics) {
                Some(module) => Some(module),
                None => {
                    return Err(diag::error_from(
                        diagnostics,
                        text,
                        filename,
                        "failed to parse",
                    ));
                }
            }
        }
    };
    let Some(module) = module else {
        return Err(diag::error_from(
            capture.take(),
            text,
            filename,
            "failed to parse",
        ));
    };
    if !module.as_operation().verify() {
        return Err(as_verify(diag::error_from(
            capture.take(),
            text,
            filename,
            "failed to verify",
        )));
    }
    Ok(module)
}

/// Verifies a module built or rewritten in memory (e.g. after a pass); the error names the
/// first failing op and the position its location records.
pub fn verify(module: &Module) -> Result<(), DialectError> {
    // `to_ref` reinterprets the `ContextRef` itself, so it must outlive `ctx`.
    let context_ref = module.context();
    // SAFETY: the module borrows its context, which therefore outlives this call.
    let ctx = unsafe { context_ref.to_ref() };
    let capture = diag::Capture::attach(ctx);
    if module.as_operation().verify() {
        return Ok(());
    }
    Err(as_verify(diag::error_from(
        capture.take(),
        "",
        "",
        "failed to verify",
    )))
}

fn as_verify(error: DialectError) -> DialectError {
    match error {
        DialectError::Parse {
            file,
            line,
            col,
            op,
            message,
            diagnostics,
        } => DialectError::Verify {
            file,
            line,
            col,
            op,
            message,
            diagnostics,
        },
        other => other,
    }
}

/// `module {` prepended on line 1 shifts that line's columns by this much.
const WRAP_PREFIX: &str = "module {";

/// Several top-level ops: MLIR's single-op parser rejects them (after parsing and verifying
/// them all), so parse them again inside `module { ... }` and undo the column shift on line 1.
fn implicit_module<'c>(
    ctx: &'c Context,
    text: &str,
    filename: &str,
    diagnostics: &[Diagnostic],
) -> Option<Module<'c>> {
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.len() != 1
        || !errors[0]
            .message
            .starts_with("source must contain a single top-level operation")
    {
        return None;
    }
    let wrapped = format!("{WRAP_PREFIX}{text}\n}}");
    let capture = diag::Capture::attach(ctx);
    let module = parse_op(ctx, &wrapped, filename).and_then(Module::from_operation);
    drop(capture);
    let module = module?;
    let body = module.body();
    let mut op = body.first_operation().map(|op| op.to_raw());
    while let Some(raw) = op {
        shift_line_one(ctx, raw, filename);
        op = unsafe {
            let next = mlir_sys::mlirOperationGetNextInBlock(raw);
            (!next.ptr.is_null()).then_some(next)
        };
    }
    Some(module)
}

/// Moves locations on line 1 of `filename` left by the length of [`WRAP_PREFIX`], for `op`,
/// everything nested in it and the arguments of its blocks.
fn shift_line_one(ctx: &Context, op: MlirOperation, filename: &str) {
    use mlir_sys::*;
    let fix = |loc: MlirLocation| -> Option<MlirLocation> {
        let location = unsafe { Location::from_raw(loc) };
        if !location.is_file_line_col_range() || location.file_line_col_range_start_line() != 1 {
            return None;
        }
        let file = location.file_line_col_range_filename();
        if file.as_string_ref().as_str() != Ok(filename) {
            return None;
        }
        let col = location.file_line_col_range_start_column();
        let col = col.saturating_sub(WRAP_PREFIX.len()).max(1);
        Some(Location::new(ctx, filename, 1, col).to_raw())
    };
    unsafe {
        if let Some(loc) = fix(mlirOperationGetLocation(op)) {
            mlirOperationSetLocation(op, loc);
        }
        for r in 0..mlirOperationGetNumRegions(op) {
            let region = mlirOperationGetRegion(op, r);
            let mut block = mlirRegionGetFirstBlock(region);
            while !block.ptr.is_null() {
                for a in 0..mlirBlockGetNumArguments(block) {
                    let arg = mlirBlockGetArgument(block, a);
                    if let Some(loc) = fix(mlirValueGetLocation(arg)) {
                        mlirBlockArgumentSetLocation(arg, loc);
                    }
                }
                let mut inner = mlirBlockGetFirstOperation(block);
                while !inner.ptr.is_null() {
                    shift_line_one(ctx, inner, filename);
                    inner = mlirOperationGetNextInBlock(inner);
                }
                block = mlirBlockGetNextInRegion(block);
            }
        }
    }
}

/// Parses one top-level op with `filename` as the source name of its locations.
fn parse_op<'c>(ctx: &'c Context, text: &str, filename: &str) -> Option<melior::ir::Operation<'c>> {
    let raw = unsafe {
        mlir_sys::mlirOperationCreateParse(ctx.to_raw(), string_ref(text), string_ref(filename))
    };
    (!raw.ptr.is_null()).then(|| unsafe { melior::ir::Operation::from_raw(raw) })
}

fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    }
}

/// Prints `module` canonically: upstream ops in their custom form, `tile` / `shmem` ops in
/// generic form, no locations.
pub fn print(module: &Module) -> String {
    print_with_flags(module, false)
}

/// Prints `module` with its locations inline (`loc("kernel.mlir":3:9)`); the text parses back
/// with the same locations.
pub fn print_with_locations(module: &Module) -> String {
    print_with_flags(module, true)
}

fn print_with_flags(module: &Module, locations: bool) -> String {
    unsafe extern "C" fn collect(string: MlirStringRef, data: *mut c_void) {
        unsafe {
            let bytes = &mut *(data as *mut Vec<u8>);
            if !string.data.is_null() && string.length > 0 {
                bytes.extend_from_slice(std::slice::from_raw_parts(
                    string.data as *const u8,
                    string.length,
                ));
            }
        }
    }
    let mut bytes = Vec::<u8>::new();
    unsafe {
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        if locations {
            // Not the "pretty" form: that one does not parse back.
            mlir_sys::mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
            // Local scope prints locations inline rather than as `#locN` aliases.
            mlir_sys::mlirOpPrintingFlagsUseLocalScope(flags);
        }
        mlir_sys::mlirOperationPrintWithFlags(
            module.as_operation().to_raw(),
            flags,
            Some(collect),
            &mut bytes as *mut Vec<u8> as *mut c_void,
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Runs `f` with `ctx`'s diagnostics captured (none reach stderr); returns what it returned
/// and the diagnostics it raised. Use it around pass pipelines so failures can be reported.
pub fn with_diagnostics<R>(ctx: &Context, f: impl FnOnce() -> R) -> (R, Vec<Diagnostic>) {
    let capture = diag::Capture::attach(ctx);
    let r = f();
    (r, capture.take())
}
