//! A thin layer over LLVM's C API for the rewrite: one module, one builder, the runtime table
//! global, and the few queries and constructions [`crate::retarget`] needs.

use crate::slots::COUNT;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::ffi::{CStr, CString};

/// An LLVM value.
pub type Val = LLVMValueRef;

pub(crate) const EMPTY: *const std::ffi::c_char = c"".as_ptr();

/// The module being rewritten and a builder on it.
pub struct Ir {
    pub(crate) ctx: LLVMContextRef,
    module: LLVMModuleRef,
    pub(crate) b: LLVMBuilderRef,
    td: LLVMTargetDataRef,
    pub(crate) table: Val,
}

impl Drop for Ir {
    fn drop(&mut self) {
        unsafe { LLVMDisposeBuilder(self.b) };
    }
}

impl Ir {
    /// Wraps `module` (in `ctx`, its data layout already the host's) and adds the runtime table.
    pub fn new(ctx: LLVMContextRef, module: LLVMModuleRef) -> Ir {
        unsafe {
            let td = LLVMGetModuleDataLayout(module);
            let ptr = LLVMPointerTypeInContext(ctx, 0);
            let ty = LLVMArrayType2(ptr, COUNT as u64);
            let table = LLVMAddGlobal(module, ty, c"__weft_emu_rt".as_ptr());
            LLVMSetInitializer(table, LLVMConstNull(ty));
            Ir { ctx, module, b: LLVMCreateBuilderInContext(ctx), td, table }
        }
    }

    pub fn module(&self) -> LLVMModuleRef {
        self.module
    }

    pub fn function(&self, name: &str) -> Option<Val> {
        let c = CString::new(name).ok()?;
        let f = unsafe { LLVMGetNamedFunction(self.module, c.as_ptr()) };
        (!f.is_null()).then_some(f)
    }

    pub fn name_of(&self, v: Val) -> String {
        let mut len = 0;
        let p = unsafe { LLVMGetValueName2(v, &mut len) };
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p as *const u8, len) }).into_owned()
    }

    pub fn block_name(&self, inst: Val) -> String {
        unsafe { CStr::from_ptr(LLVMGetBasicBlockName(LLVMGetInstructionParent(inst))).to_string_lossy().into_owned() }
    }

    pub(crate) fn int_ty(&self, bits: u32) -> LLVMTypeRef {
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }

    pub(crate) fn ptr_ty(&self) -> LLVMTypeRef {
        unsafe { LLVMPointerTypeInContext(self.ctx, 0) }
    }

    /// An `i1` constant.
    pub fn i1(&self, v: bool) -> Val {
        unsafe { LLVMConstInt(self.int_ty(1), v as u64, 0) }
    }

    pub fn i32(&self, v: i64) -> Val {
        unsafe { LLVMConstInt(self.int_ty(32), v as u64, 1) }
    }

    pub fn i64(&self, v: i64) -> Val {
        unsafe { LLVMConstInt(self.int_ty(64), v as u64, 1) }
    }

    pub fn null_ptr(&self) -> Val {
        unsafe { LLVMConstNull(self.ptr_ty()) }
    }

    pub fn type_of(&self, v: Val) -> LLVMTypeRef {
        unsafe { LLVMTypeOf(v) }
    }

    pub fn kind(&self, t: LLVMTypeRef) -> LLVMTypeKind {
        unsafe { LLVMGetTypeKind(t) }
    }

    pub fn store_size(&self, t: LLVMTypeRef) -> u64 {
        unsafe { LLVMStoreSizeOfType(self.td, t) }
    }

    /// The address space of a pointer value.
    pub fn addr_space(&self, v: Val) -> u32 {
        let t = self.type_of(v);
        if self.kind(t) != LLVMTypeKind::LLVMPointerTypeKind {
            return 0;
        }
        unsafe { LLVMGetPointerAddressSpace(t) }
    }

    /// Defined global variables.
    pub fn globals(&self) -> Vec<Val> {
        let mut out = vec![];
        let mut g = unsafe { LLVMGetFirstGlobal(self.module) };
        while !g.is_null() {
            if unsafe { LLVMIsDeclaration(g) } == 0 {
                out.push(g);
            }
            g = unsafe { LLVMGetNextGlobal(g) };
        }
        out
    }

    /// Shared-memory globals that are only declared: dynamic shared memory, sized at launch.
    pub fn declared_shared(&self) -> Vec<Val> {
        let mut out = vec![];
        let mut g = unsafe { LLVMGetFirstGlobal(self.module) };
        while !g.is_null() {
            if unsafe { LLVMIsDeclaration(g) } != 0 && self.addr_space(g) == crate::retarget::SHARED_AS {
                out.push(g);
            }
            g = unsafe { LLVMGetNextGlobal(g) };
        }
        out
    }

    /// (size, alignment) of a global's value.
    pub fn global_size(&self, g: Val) -> (u64, u64) {
        unsafe {
            let t = LLVMGlobalGetValueType(g);
            let align = (LLVMGetAlignment(g) as u64).max(LLVMABIAlignmentOfType(self.td, t) as u64);
            (LLVMABISizeOfType(self.td, t), align)
        }
    }

    /// Whether a global starts as zero (or undefined, which zero refines).
    pub fn zero_initialized(&self, g: Val) -> bool {
        unsafe {
            let init = LLVMGetInitializer(g);
            init.is_null() || LLVMIsNull(init) != 0 || LLVMIsUndef(init) != 0
        }
    }

    pub fn has_body(&self, f: Val) -> bool {
        unsafe { LLVMIsAFunction(f).is_null() || LLVMIsDeclaration(f) == 0 }
    }

    pub fn first_instruction(&self, f: Val) -> Val {
        unsafe { LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)) }
    }

    /// Every instruction of `f`, in order (a snapshot: the rewrite may replace them).
    pub fn instructions(&self, f: Val) -> Vec<Val> {
        let mut out = vec![];
        unsafe {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    out.push(i);
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
        }
        out
    }

    /// Each block of `f` and its instruction count.
    pub fn block_sizes(&self, f: Val) -> Vec<(LLVMBasicBlockRef, u64)> {
        let mut out = vec![];
        unsafe {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let (mut i, mut n) = (LLVMGetFirstInstruction(bb), 0);
                while !i.is_null() {
                    n += 1;
                    i = LLVMGetNextInstruction(i);
                }
                out.push((bb, n));
                bb = LLVMGetNextBasicBlock(bb);
            }
        }
        out
    }

    /// `*counter += n` at the top of `bb` (after its phis; in the entry block, after the
    /// call that produced `counter`).
    pub fn add_to_counter(&self, counter: Val, bb: LLVMBasicBlockRef, n: u64) {
        unsafe {
            let mut at = LLVMGetFirstInstruction(bb);
            if bb == LLVMGetInstructionParent(counter) {
                at = LLVMGetNextInstruction(counter);
            }
            while self.opcode(at) == LLVMOpcode::LLVMPHI {
                at = LLVMGetNextInstruction(at);
            }
            LLVMPositionBuilderBefore(self.b, at);
            let old = LLVMBuildLoad2(self.b, self.int_ty(64), counter, EMPTY);
            let new = LLVMBuildAdd(self.b, old, self.i64(n as i64), EMPTY);
            LLVMBuildStore(self.b, new, counter);
        }
    }

    pub fn opcode(&self, inst: Val) -> LLVMOpcode {
        unsafe { LLVMGetInstructionOpcode(inst) }
    }

    pub fn is_volatile(&self, inst: Val) -> bool {
        unsafe { LLVMGetVolatile(inst) != 0 }
    }

    pub fn operand(&self, inst: Val, i: u32) -> Val {
        unsafe { LLVMGetOperand(inst, i) }
    }

    pub fn set_operand(&self, inst: Val, i: u32, v: Val) {
        unsafe { LLVMSetOperand(inst, i, v) };
    }

    pub fn num_args(&self, call: Val) -> u32 {
        unsafe { LLVMGetNumArgOperands(call) }
    }

    pub fn called(&self, call: Val) -> Val {
        unsafe { LLVMGetCalledValue(call) }
    }

    /// The assembly string of an inline-asm callee.
    pub fn inline_asm(&self, v: Val) -> Option<String> {
        unsafe {
            if LLVMIsAInlineAsm(v).is_null() {
                return None;
            }
            let mut len = 0;
            let p = LLVMGetInlineAsmAsmString(v, &mut len);
            Some(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned())
        }
    }

    pub fn position_before(&self, inst: Val) {
        unsafe { LLVMPositionBuilderBefore(self.b, inst) };
    }

    pub fn position_at_end(&self, bb: LLVMBasicBlockRef) {
        unsafe { LLVMPositionBuilderAtEnd(self.b, bb) };
    }

    /// Replaces every use of `inst` by `v` and deletes it.
    pub fn replace(&self, inst: Val, v: Val) {
        unsafe {
            LLVMReplaceAllUsesWith(inst, v);
            LLVMInstructionEraseFromParent(inst);
        }
    }

    /// The terminator of `inst`'s block.
    pub fn terminator_of(&self, inst: Val) -> Val {
        unsafe { LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(inst)) }
    }

    /// Inserts a copy of instruction `inst` before `at`.
    pub fn clone_before(&self, inst: Val, at: Val) {
        unsafe {
            let c = LLVMInstructionClone(inst);
            LLVMPositionBuilderBefore(self.b, at);
            LLVMInsertIntoBuilder(self.b, c);
        }
    }

    pub fn erase(&self, inst: Val) {
        unsafe { LLVMInstructionEraseFromParent(inst) };
    }
}
