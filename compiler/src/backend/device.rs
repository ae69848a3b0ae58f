//! LLVM in process for the GPU targets, through inkwell: parsing and verifying the lowering's
//! per-thread IR, linking what a kernel needs from a device library's bitcode, internalizing,
//! running a pass pipeline, and emitting assembly or an object. No LLVM tool runs as a process.

use super::llvm::{lazy_bitcode, link_modules, LlvmError};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::values::GlobalValue;
use inkwell::OptimizationLevel;
use std::path::Path;
use crate::pipeline::timings::time;
use std::sync::Once;

fn fail(what: &str, message: impl ToString) -> LlvmError {
    LlvmError { what: what.into(), message: message.to_string() }
}

/// An O3 target machine for `triple`, chip `cpu` (`sm_90a`, `gfx942`) and `features` (`+ptx82`).
pub fn target_machine(triple: &str, cpu: &str, features: &str) -> Result<TargetMachine, LlvmError> {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let config = InitializationConfig::default();
        Target::initialize_nvptx(&config);
        Target::initialize_amd_gpu(&config);
    });
    let what = format!("{triple} target machine for {cpu}");
    let t = TargetTriple::create(triple);
    let target = Target::from_triple(&t).map_err(|e| fail(&what, e))?;
    let tm = target
        .create_target_machine(&t, cpu, features, OptimizationLevel::Aggressive, RelocMode::Default, CodeModel::Default)
        .ok_or_else(|| fail(&what, "LLVM could not create it"))?;
    // As llc: AMDGCN's register / scratch report is made of the verbose assembly's comments.
    tm.set_asm_verbosity(true);
    Ok(tm)
}

/// Parses LLVM IR text into `ctx` and verifies it.
pub fn parse<'c>(ctx: &'c Context, text: &str, name: &str) -> Result<Module<'c>, LlvmError> {
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), name);
    let m = ctx.create_module_from_ir(buf).map_err(|e| fail("parse LLVM IR", e))?;
    m.verify().map_err(|e| fail("verify LLVM IR", e))?;
    Ok(m)
}

/// Links into `m` the definitions of the bitcode library at `path` that `m` references, and
/// what those reference in turn (`llvm-link --only-needed`).
pub fn link_needed<'c>(ctx: &'c Context, m: &Module<'c>, path: &Path) -> Result<(), LlvmError> {
    link_library(m, time("nvshmem.load_bitcode", || lazy_bitcode(ctx, path))?, |_| false)
}

/// Links into `m` the definitions of `lib` that `m` references, and what those reference in
/// turn, and every external definition that `always` names.
pub fn link_library<'c>(m: &Module<'c>, lib: Module<'c>, always: impl Fn(&str) -> bool) -> Result<(), LlvmError> {
    // The C API's linker has no only-needed flag, but it links a linkonce definition only when
    // something refers to it: so every external definition of the library becomes one. The
    // kernel internalizes what it keeps anyway.
    for g in globals(&lib) {
        if !g.is_declaration() && g.get_linkage() == Linkage::External && !always(&g.get_name().to_string_lossy()) {
            g.set_linkage(Linkage::LinkOnceODR);
        }
    }
    link_modules(m, lib)
}

/// What `m` declares for a library to define, sorted: every declared function and global but
/// LLVM intrinsics and a GPU's dynamic shared memory (an external array in address space 3 that
/// the launch sizes).
pub fn external_references(m: &Module) -> Vec<String> {
    let shared = |g: &GlobalValue| g.as_pointer_value().get_type().get_address_space() == inkwell::AddressSpace::from(3u16);
    let mut names: Vec<String> = globals(m)
        .filter(|g| g.is_declaration() && !g.get_name().to_bytes().starts_with(b"llvm.") && !shared(g))
        .map(|g| g.get_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Gives internal linkage to every definition of `m` that `public` does not name, so that
/// `globaldce` drops what nothing uses and O3 may inline and specialize the rest; the public
/// ones get external linkage (the linked library's copies were linkonce).
pub fn internalize(m: &Module, public: impl Fn(&str) -> bool) {
    for g in globals(m) {
        let name = g.get_name().to_string_lossy();
        if g.is_declaration() || name.starts_with("llvm.") {
            continue;
        }
        g.set_linkage(if public(&name) { Linkage::External } else { Linkage::Internal });
    }
}

/// Every function and global variable of `m`.
pub fn globals<'c>(m: &Module<'c>) -> impl Iterator<Item = GlobalValue<'c>> {
    m.get_functions().map(|f| f.as_global_value()).chain(m.get_globals())
}

/// The lowering computes a tile's addresses and masks as vectors (one lane per slot) and
/// extracts the lanes its 16-byte chunks use; scalar evolution sees through no vector op, so
/// O3 alone leaves every K loop recomputing each chunk's 64-bit address from the induction
/// variable. Splitting those vectors before O3 (fragments of at least 32 bits, so packed
/// `f16x2` / `bf16x2` math stays packed) drops the unused lanes and lets loop strength
/// reduction turn each chunk's address into a pointer advanced by a constant per iteration
/// (measured by `cargo bench --bench codegen`: 102 to 84 SASS per K-step, 64x64x32 sm_80).
pub const SPLIT_VECTORS: &str = "function(scalarizer<min-bits=32>)";

/// Runs the new pass manager pipeline `passes` (`globaldce,default<O3>`) on `m` for `tm`.
pub fn optimize(m: &Module, tm: &TargetMachine, passes: &str) -> Result<(), LlvmError> {
    m.run_passes(passes, tm, PassBuilderOptions::create()).map_err(|e| fail(&format!("passes `{passes}`"), e))
}

/// Assembly text (PTX, AMDGCN) or an object of `m`. Code generation rewrites the module it
/// runs on: emit from a clone when `m` is needed again.
pub fn emit(m: &Module, tm: &TargetMachine, kind: FileType) -> Result<Vec<u8>, LlvmError> {
    let buf = tm.write_to_memory_buffer(m, kind).map_err(|e| fail("code generation", e))?;
    Ok(buf.as_slice().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn external_references_leave_out_intrinsics_and_dynamic_shared_memory() {
        let ctx = Context::create();
        let text = "target triple = \"nvptx64-nvidia-cuda\"\n\
@__weft_smem = external addrspace(3) global [0 x i8], align 16\n\
@nvshmemi_device_state_d = external addrspace(4) global i32\n\
@defined = internal global i32 0\n\
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
declare i32 @nvshmem_n_pes()\n\
declare void @nvshmemx_putmem_block(ptr, ptr, i64, i32)\n\
define void @k() {\n  ret void\n}\n";
        let m = parse(&ctx, text, "refs.ll").unwrap();
        assert_eq!(external_references(&m), ["nvshmem_n_pes", "nvshmemi_device_state_d", "nvshmemx_putmem_block"]);
        let plain = parse(&ctx, "@__weft_smem = external addrspace(3) global [0 x i8]\ndeclare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n", "plain.ll").unwrap();
        assert!(external_references(&plain).is_empty());
    }
}
