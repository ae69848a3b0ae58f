//! The host entry points added to a retargeted module: `__weft_emu_thread(args)` unpacks the
//! runtime's argument slots into the kernel's typed parameters and runs one GPU thread;
//! `__weft_emu_entry(ctx, args)` is the `local` runtime's kernel entry (one call per program
//! instance) and hands the CTA to the emulator with the kernel's descriptor.

use crate::ir::{Ir, Val};
use crate::slots::Slot;
use crate::EmuError;
use llvm_sys::core::*;
use llvm_sys::LLVMTypeKind;
use weft_runtime::cuda::tensor_map::TmaParam;

/// The `local` runtime's entry symbol.
pub const ENTRY: &str = "__weft_emu_entry";
/// The global the loader points at the kernel's descriptor.
pub const DESC: &str = "__weft_emu_desc";
/// The runtime table global.
pub const TABLE: &str = "__weft_emu_rt";

/// Adds both entry points around `kernel`, whose last `tma.len()` parameters are tensor maps
/// the entry computes from the others (see [`crate::tma_map`]).
pub fn add(ir: &Ir, kernel: Val, tma: &[TmaParam]) -> Result<(), EmuError> {
    crate::tma_map::strip_byval(kernel);
    unsafe {
        let (ctx, m, b) = (ir.context(), ir.module(), ir.builder());
        let ptr = ir.ptr();
        LLVMSetFunctionCallConv(kernel, 0);
        LLVMSetLinkage(kernel, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        let void = LLVMVoidTypeInContext(ctx);
        let mut one = [ptr];
        let thread = LLVMAddFunction(m, c"__weft_emu_thread".as_ptr(), LLVMFunctionType(void, one.as_mut_ptr(), 1, 0));
        LLVMSetLinkage(thread, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        let bb = LLVMAppendBasicBlockInContext(ctx, thread, c"entry".as_ptr());
        ir.position_at_end(bb);
        let slots = LLVMGetParam(thread, 0);
        let mut args = vec![];
        let own = (LLVMCountParams(kernel) as usize).checked_sub(tma.len()).ok_or_else(|| EmuError::Unsupported(format!("{} tensor maps for a kernel of fewer parameters", tma.len())))?;
        for i in 0..LLVMCountParams(kernel) {
            let ty = LLVMTypeOf(LLVMGetParam(kernel, i));
            if let Some(p) = tma.get((i as usize).wrapping_sub(own)) {
                args.push(crate::tma_map::param(ir, slots, i as usize - own, p));
                continue;
            }
            let at = ir.byte_offset(slots, 8 * i as u64);
            let word = LLVMBuildLoad2(b, ir.int(64), at, c"".as_ptr());
            let v = match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMPointerTypeKind => LLVMBuildIntToPtr(b, word, ty, c"".as_ptr()),
                LLVMTypeKind::LLVMIntegerTypeKind => LLVMBuildIntCast2(b, word, ty, 1, c"".as_ptr()),
                LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind => {
                    let bits = (ir.store_size(ty) * 8) as u32;
                    let w = LLVMBuildIntCast2(b, word, ir.int(bits), 0, c"".as_ptr());
                    LLVMBuildBitCast(b, w, ty, c"".as_ptr())
                }
                k => return Err(EmuError::Unsupported(format!("a kernel parameter of LLVM type kind {k:?}"))),
            };
            args.push(v);
        }
        LLVMBuildCall2(b, LLVMGlobalGetValueType(kernel), kernel, args.as_mut_ptr(), args.len() as u32, c"".as_ptr());
        LLVMBuildRetVoid(b);

        let desc = LLVMAddGlobal(m, ptr, c"__weft_emu_desc".as_ptr());
        LLVMSetInitializer(desc, LLVMConstNull(ptr));
        let mut two = [ptr, ptr];
        let entry = LLVMAddFunction(m, c"__weft_emu_entry".as_ptr(), LLVMFunctionType(void, two.as_mut_ptr(), 2, 0));
        let bb = LLVMAppendBasicBlockInContext(ctx, entry, c"entry".as_ptr());
        ir.position_at_end(bb);
        let d = LLVMBuildLoad2(b, ptr, desc, c"".as_ptr());
        let run = ir.slot_fn(Slot::RunCta);
        ir.call_ptr(run, &[ptr, ptr, ptr, ptr], None, &[LLVMGetParam(entry, 0), LLVMGetParam(entry, 1), thread, d]);
        LLVMBuildRetVoid(b);
    }
    Ok(())
}

/// Defines `__truncsfbf2` (f32 → bf16, round to nearest even), the compiler-rt routine LLVM's
/// x86 back end calls for `fptrunc` to bfloat; the system's libgcc (GCC 12) lacks it.
pub fn add_builtins(ir: &Ir) {
    unsafe {
        let (ctx, m, b) = (ir.context(), ir.module(), ir.builder());
        if !LLVMGetNamedFunction(m, c"__truncsfbf2".as_ptr()).is_null() {
            return;
        }
        let (f32t, bf) = (LLVMFloatTypeInContext(ctx), LLVMBFloatTypeInContext(ctx));
        let mut ps = [f32t];
        let f = LLVMAddFunction(m, c"__truncsfbf2".as_ptr(), LLVMFunctionType(bf, ps.as_mut_ptr(), 1, 0));
        ir.position_at_end(LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr()));
        let e = c"".as_ptr();
        let x = LLVMGetParam(f, 0);
        let i32t = ir.int(32);
        let c = |v: i64| ir.i32(v);
        let bits = LLVMBuildBitCast(b, x, i32t, e);
        // NaN stays a (quiet) NaN; everything else rounds: bits + 0x7fff + lsb of the result.
        let nan = LLVMBuildFCmp(b, llvm_sys::LLVMRealPredicate::LLVMRealUNO, x, x, e);
        let hi = LLVMBuildLShr(b, bits, c(16), e);
        let quiet = LLVMBuildOr(b, hi, c(0x40), e);
        let lsb = LLVMBuildAnd(b, hi, c(1), e);
        let bias = LLVMBuildAdd(b, lsb, c(0x7fff), e);
        let sum = LLVMBuildAdd(b, bits, bias, e);
        let rounded = LLVMBuildLShr(b, sum, c(16), e);
        let r = LLVMBuildSelect(b, nan, quiet, rounded, e);
        let h = LLVMBuildTrunc(b, r, ir.int(16), e);
        LLVMBuildRet(b, LLVMBuildBitCast(b, h, bf, e));
    }
}
