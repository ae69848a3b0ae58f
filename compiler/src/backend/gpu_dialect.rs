//! The `gpu` stage in MLIR's own dialects. The lowering's per-thread LLVM IR is imported into
//! MLIR (`mlir-translate --import-llvm`: the `llvm` dialect, with NVVM / AMDGPU intrinsics
//! raised to `nvvm` / `rocdl` ops) and wrapped in a `gpu.module` that carries its
//! `#nvvm.target` / `#rocdl.target`. That module is verified in process, and the next stage
//! translates *it* — not the text it came from — back to LLVM IR, so what `--emit gpu` shows
//! is what the device code is built from.

use super::llvm::{LlvmError, LlvmModule};
use super::toolchain::{llvm_tool, ToolError};
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::{Location, Module, RegionLike};
use std::io::Write;
use std::process::{Command, Stdio};

/// A step of the `gpu` stage failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuDialectError {
    /// `mlir-translate` is not installed.
    #[error(transparent)]
    Missing(#[from] ToolError),
    /// The importer rejected the lowering's LLVM IR.
    #[error("mlir-translate --import-llvm failed: {0}")]
    Import(String),
    /// The wrapped module does not parse or verify.
    #[error("the gpu.module does not verify: {0}")]
    Verify(String),
    /// The text holds no `gpu.module`, or it cannot be translated.
    #[error("{0}")]
    Translate(String),
    /// LLVM rejected the translated module.
    #[error(transparent)]
    Llvm(#[from] LlvmError),
}

/// Imports `llvm_ir` (one kernel `symbol`) into the MLIR LLVM dialect and wraps it in
/// `gpu.module @symbol [target_attr]`; returns the verified module's text.
pub fn to_gpu_module(llvm_ir: &str, symbol: &str, target_attr: &str) -> Result<String, GpuDialectError> {
    let imported = import(llvm_ir)?;
    let body = module_body(&imported).ok_or_else(|| GpuDialectError::Import("the importer printed no module".into()))?;
    // The importer's module attributes (data layout spec, triple) are left behind: the target
    // attribute names the chip, and the translation back sets the target's triple and layout.
    // MLIR's importer raises NVVM intrinsics to `nvvm` ops itself but has no ROCDL import.
    let body = if target_attr.starts_with("#rocdl") { raise_rocdl(&body) } else { body };
    let text = format!("module attributes {{gpu.container_module}} {{\n  gpu.module @{symbol} [{target_attr}] {{\n{body}  }}\n}}\n");
    let ctx = weft_dialects::context().map_err(|e| GpuDialectError::Verify(e.to_string()))?;
    let module = weft_dialects::parse(&ctx, &text, "gpu.mlir").map_err(|e| GpuDialectError::Verify(e.to_string()))?;
    Ok(module.as_operation().to_string())
}

/// Translates the `gpu.module` in `gpu_mlir` to LLVM IR text for `triple` and `data_layout`.
pub fn to_llvm_ir(gpu_mlir: &str, triple: &str, data_layout: &str) -> Result<String, GpuDialectError> {
    let ctx = weft_dialects::context().map_err(|e| GpuDialectError::Verify(e.to_string()))?;
    let outer = weft_dialects::parse(&ctx, gpu_mlir, "gpu.mlir").map_err(|e| GpuDialectError::Verify(e.to_string()))?;
    let gpu_module = first_op(&outer.body().first_operation(), "gpu.module")
        .ok_or_else(|| GpuDialectError::Translate("the gpu stage holds no gpu.module".into()))?;
    let region = gpu_module.region(0).map_err(|e| GpuDialectError::Translate(e.to_string()))?;
    let block = region.first_block().ok_or_else(|| GpuDialectError::Translate("the gpu.module is empty".into()))?;
    // A builtin module with clones of the gpu.module's ops is what MLIR's LLVM IR export takes.
    let inner = Module::new(Location::unknown(&ctx));
    let mut op = block.first_operation();
    while let Some(o) = op {
        // SAFETY: `mlirOperationClone` returns a new, unowned op, which the module then owns.
        inner.body().append_operation(unsafe { melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(o.to_raw())) });
        op = o.next_in_block();
    }
    let mut m = LlvmModule::from_mlir(&inner)?;
    m.set_target(triple, data_layout);
    Ok(m.print())
}

/// The first op named `name` at or after `op` in its block.
fn first_op<'c, 'a>(op: &Option<melior::ir::OperationRef<'c, 'a>>, name: &str) -> Option<melior::ir::OperationRef<'c, 'a>> {
    let mut cur = *op;
    while let Some(o) = cur {
        if o.name().as_string_ref().as_str().ok() == Some(name) {
            return Some(o);
        }
        cur = o.next_in_block();
    }
    None
}

/// Runs the LLVM IR importer.
fn import(llvm_ir: &str) -> Result<String, GpuDialectError> {
    let tool = llvm_tool("mlir-translate")?;
    let mut child = Command::new(&tool)
        .args(["--import-llvm", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| GpuDialectError::Import(format!("{}: {e}", tool.display())))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = llvm_ir.to_string();
    // Write from another thread: the importer may fill its stdout pipe before reading all input.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| GpuDialectError::Import(e.to_string()))?;
    let _ = writer.join();
    // Unknown data layout tokens (`v16:16`) are warnings; the layout is set again on export.
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(GpuDialectError::Import(stderr.trim().to_string()));
    }
    String::from_utf8(out.stdout).map_err(|e| GpuDialectError::Import(e.to_string()))
}

/// AMDGPU intrinsic calls that have a `rocdl` op, as (intrinsic, op); each is rewritten to the
/// op, which translates back to the same intrinsic.
const ROCDL_OPS: [(&str, &str); 7] = [
    ("llvm.amdgcn.workitem.id.x", "rocdl.workitem.id.x"),
    ("llvm.amdgcn.workitem.id.y", "rocdl.workitem.id.y"),
    ("llvm.amdgcn.workitem.id.z", "rocdl.workitem.id.z"),
    ("llvm.amdgcn.workgroup.id.x", "rocdl.workgroup.id.x"),
    ("llvm.amdgcn.workgroup.id.y", "rocdl.workgroup.id.y"),
    ("llvm.amdgcn.workgroup.id.z", "rocdl.workgroup.id.z"),
    ("llvm.amdgcn.s.barrier", "rocdl.s.barrier"),
];

/// Rewrites `llvm.call_intrinsic` lines of the AMDGPU intrinsics in [`ROCDL_OPS`] and of
/// `ds.bpermute` to `rocdl` ops, and drops the declarations left unused.
fn raise_rocdl(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut raised = vec![];
    for line in body.lines() {
        let indent = &line[..line.len() - line.trim_start().len()];
        let (lhs, rhs) = match line.trim_start().split_once(" = ") {
            Some((l, r)) if l.starts_with('%') => (Some(l), r),
            _ => (None, line.trim_start()),
        };
        let new = ROCDL_OPS.iter().find_map(|(intr, op)| {
            let call = format!("llvm.call_intrinsic \"{intr}\"()");
            match lhs {
                Some(l) if rhs == format!("{call} : () -> i32") => Some((*intr, format!("{l} = {op} : i32"))),
                None if rhs == format!("{call} : () -> ()") => Some((*intr, op.to_string())),
                _ => None,
            }
        });
        let bperm = || -> Option<(&str, String)> {
            let args = rhs.strip_prefix("llvm.call_intrinsic \"llvm.amdgcn.ds.bpermute\"(")?.strip_suffix(") : (i32, i32) -> i32")?;
            Some(("llvm.amdgcn.ds.bpermute", format!("{} = rocdl.ds_bpermute {args} : (i32, i32) -> i32", lhs?)))
        };
        match new.or_else(bperm) {
            Some((intr, text)) => {
                raised.push(intr);
                out.push_str(indent);
                out.push_str(&text);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    // A declaration of a raised intrinsic with no call left would clash with the one the
    // translation back creates.
    out.lines()
        .filter(|l| {
            let decl = l.trim_start().strip_prefix("llvm.func @").and_then(|r| r.split('(').next());
            !decl.is_some_and(|d| raised.contains(&d) && !out.contains(&format!("\"{d}\"")))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The body of `module [attributes {...}] {\n body }`.
fn module_body(text: &str) -> Option<String> {
    let start = text.find("module")?;
    let mut rest = text[start + "module".len()..].trim_start();
    if let Some(r) = rest.strip_prefix("attributes") {
        // Skip the attribute dictionary: its braces are not the body's.
        let r = r.trim_start();
        rest = &r[take_attr(r).len()..];
    }
    let open = rest.find('{')?;
    let close = rest.rfind('}')?;
    Some(rest[open + 1..close].trim_start_matches('\n').to_string())
}

/// The balanced `{...}`, `<...>`, `[...]` or `(...)` attribute at the start of `s` (or up to
/// the first top-level `,` / `}` when it is not bracketed).
fn take_attr(s: &str) -> String {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '{' | '<' | '[' | '(' => depth += 1,
            '}' | '>' | ']' | ')' => {
                depth -= 1;
                if depth == 0 {
                    return s[..=i].to_string();
                }
                if depth < 0 {
                    return s[..i].to_string();
                }
            }
            ',' if depth == 0 => return s[..i].to_string(),
            _ => {}
        }
    }
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_taken_balanced() {
        assert_eq!(take_attr("{a = <1, 2>, b} {\n x }"), "{a = <1, 2>, b}");
        assert_eq!(take_attr("#dlti.dl_spec<i64 = dense<64> : vector<2xi64>>, x"), "#dlti.dl_spec<i64 = dense<64> : vector<2xi64>>");
        let b = module_body("module attributes {x = {y = 1}} {\n  llvm.func @f()\n}\n").unwrap();
        assert_eq!(b.trim(), "llvm.func @f()");
    }

    #[test]
    fn amdgpu_intrinsics_are_raised_to_rocdl_ops() {
        let body = "    llvm.func @llvm.amdgcn.workitem.id.x() -> i32\n    llvm.func @llvm.amdgcn.s.sleep(i32)\n    %1 = llvm.call_intrinsic \"llvm.amdgcn.workitem.id.x\"() : () -> i32\n    llvm.call_intrinsic \"llvm.amdgcn.s.barrier\"() : () -> ()\n    %3 = llvm.call_intrinsic \"llvm.amdgcn.ds.bpermute\"(%1, %2) : (i32, i32) -> i32\n    llvm.call_intrinsic \"llvm.amdgcn.s.sleep\"(%1) : (i32) -> ()\n";
        let r = raise_rocdl(body);
        assert_eq!(
            r,
            "    llvm.func @llvm.amdgcn.s.sleep(i32)\n    %1 = rocdl.workitem.id.x : i32\n    rocdl.s.barrier\n    %3 = rocdl.ds_bpermute %1, %2 : (i32, i32) -> i32\n    llvm.call_intrinsic \"llvm.amdgcn.s.sleep\"(%1) : (i32) -> ()\n"
        );
    }
}
