//! A thin layer over LLVM's C API for the rewrite: one module, one builder, the runtime table
//! global, and the few queries and constructions [`crate::retarget`] needs.

use crate::slots::{Slot, Ty, COUNT};
use crate::EmuError;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::ffi::{CStr, CString};

/// An LLVM value.
pub type Val = LLVMValueRef;

const EMPTY: *const std::ffi::c_char = c"".as_ptr();

/// The module being rewritten and a builder on it.
pub struct Ir {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    b: LLVMBuilderRef,
    td: LLVMTargetDataRef,
    table: Val,
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

    fn int_ty(&self, bits: u32) -> LLVMTypeRef {
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }

    fn ptr_ty(&self) -> LLVMTypeRef {
        unsafe { LLVMPointerTypeInContext(self.ctx, 0) }
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

    pub fn erase(&self, inst: Val) {
        unsafe { LLVMInstructionEraseFromParent(inst) };
    }

    fn llvm_ty(&self, t: Ty) -> LLVMTypeRef {
        match t {
            Ty::I32 => self.int_ty(32),
            Ty::I64 => self.int_ty(64),
            Ty::Ptr => self.ptr_ty(),
        }
    }

    /// Loads runtime table slot `s`.
    pub fn slot_fn(&self, s: Slot) -> Val {
        unsafe {
            let ty = LLVMGlobalGetValueType(self.table);
            let mut idx = [self.i64(0), self.i64(s as usize as i64)];
            let at = LLVMBuildInBoundsGEP2(self.b, ty, self.table, idx.as_mut_ptr(), 2, EMPTY);
            LLVMBuildLoad2(self.b, self.ptr_ty(), at, EMPTY)
        }
    }

    /// Calls an indirect function `f` of the given types.
    pub fn call_ptr(&self, f: Val, params: &[LLVMTypeRef], ret: Option<LLVMTypeRef>, args: &[Val]) -> Val {
        unsafe {
            let ret = ret.unwrap_or_else(|| LLVMVoidTypeInContext(self.ctx));
            let mut ps = params.to_vec();
            let fty = LLVMFunctionType(ret, ps.as_mut_ptr(), ps.len() as u32, 0);
            let mut a = args.to_vec();
            LLVMBuildCall2(self.b, fty, f, a.as_mut_ptr(), a.len() as u32, EMPTY)
        }
    }

    /// Calls runtime slot `s` with `site` and `args` (already of the slot's types, pointers in
    /// any address space).
    pub fn rt(&self, s: Slot, site: Val, args: &[Val]) -> Val {
        let (ps, ret) = s.sig();
        let mut params = vec![self.int_ty(32)];
        params.extend(ps.iter().map(|&t| self.llvm_ty(t)));
        let mut a = vec![site];
        a.extend(args.iter().zip(ps).map(|(&v, &t)| if t == Ty::Ptr { self.flat(v) } else { v }));
        let f = self.slot_fn(s);
        self.call_ptr(f, &params, ret.map(|t| self.llvm_ty(t)), &a)
    }

    /// `p` as a generic (address space 0) pointer.
    pub fn flat(&self, p: Val) -> Val {
        if self.addr_space(p) == 0 {
            return p;
        }
        unsafe { LLVMBuildAddrSpaceCast(self.b, p, self.ptr_ty(), EMPTY) }
    }

    pub fn addrspace_cast(&self, p: Val, to: LLVMTypeRef) -> Val {
        if self.type_of(p) == to {
            return p;
        }
        unsafe { LLVMBuildAddrSpaceCast(self.b, p, to, EMPTY) }
    }

    /// `base + off` bytes.
    pub fn byte_offset(&self, base: Val, off: u64) -> Val {
        unsafe {
            let mut idx = [self.i64(off as i64)];
            LLVMBuildInBoundsGEP2(self.b, self.int_ty(8), base, idx.as_mut_ptr(), 1, EMPTY)
        }
    }

    /// The 32 bits of `v` (an i32, a float, or two 16-bit elements) as an i32.
    pub fn to_i32(&self, v: Val) -> Val {
        let t = self.type_of(v);
        if t == self.int_ty(32) {
            return v;
        }
        unsafe { LLVMBuildBitCast(self.b, v, self.int_ty(32), EMPTY) }
    }

    /// The bits of a 32- or 64-bit value as an i64 (zero-extended).
    pub fn to_i64(&self, v: Val) -> Val {
        let t = self.type_of(v);
        if t == self.int_ty(64) {
            return v;
        }
        unsafe {
            if self.kind(t) == LLVMTypeKind::LLVMDoubleTypeKind {
                return LLVMBuildBitCast(self.b, v, self.int_ty(64), EMPTY);
            }
            LLVMBuildZExt(self.b, self.to_i32(v), self.int_ty(64), EMPTY)
        }
    }

    /// A runtime result (i32, i64 or ptr) as type `to`: integers resized, floats by their
    /// bits, pointers cast between address spaces.
    pub fn int_cast(&self, v: Val, to: LLVMTypeRef) -> Val {
        let from = self.type_of(v);
        if from == to {
            return v;
        }
        unsafe {
            match (self.kind(from), self.kind(to)) {
                (LLVMTypeKind::LLVMIntegerTypeKind, LLVMTypeKind::LLVMIntegerTypeKind) => LLVMBuildIntCast2(self.b, v, to, 0, EMPTY),
                (LLVMTypeKind::LLVMPointerTypeKind, LLVMTypeKind::LLVMPointerTypeKind) => LLVMBuildAddrSpaceCast(self.b, v, to, EMPTY),
                (LLVMTypeKind::LLVMIntegerTypeKind, LLVMTypeKind::LLVMPointerTypeKind) => LLVMBuildIntToPtr(self.b, v, to, EMPTY),
                (LLVMTypeKind::LLVMIntegerTypeKind, _) => {
                    let bits = (self.store_size(to) * 8) as u32;
                    let w = LLVMBuildIntCast2(self.b, v, self.int_ty(bits), 0, EMPTY);
                    LLVMBuildBitCast(self.b, w, to, EMPTY)
                }
                _ => LLVMBuildBitCast(self.b, v, to, EMPTY),
            }
        }
    }

    /// `mma.sync` through memory: the ten fragment registers are stored as i32 words, the
    /// runtime writes the four results over the first four, returned as `{float x 4}`.
    pub fn mma(&self, site: Val, kind: i32, args: &[Val], call: Val) -> Val {
        unsafe {
            let words = LLVMArrayType2(self.int_ty(32), 10);
            // The buffer is allocated once per call site, in the entry block.
            let f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
            LLVMPositionBuilderBefore(self.b, self.first_instruction(f));
            let io = LLVMBuildAlloca(self.b, words, EMPTY);
            LLVMPositionBuilderBefore(self.b, call);
            for (i, &a) in args.iter().enumerate().take(10) {
                let at = self.byte_offset(io, 4 * i as u64);
                LLVMBuildStore(self.b, self.to_i32(a), at);
            }
            self.rt(Slot::Mma, site, &[self.i32(kind as i64), io]);
            let f32t = LLVMFloatTypeInContext(self.ctx);
            let mut fields = [f32t; 4];
            let sty = LLVMStructTypeInContext(self.ctx, fields.as_mut_ptr(), 4, 0);
            let mut s = LLVMGetUndef(sty);
            for q in 0..4 {
                let at = self.byte_offset(io, 4 * q);
                let x = LLVMBuildLoad2(self.b, f32t, at, EMPTY);
                s = LLVMBuildInsertValue(self.b, s, x, q as u32, EMPTY);
            }
            s
        }
    }

    /// Sets operands of `inst` that are (or are constant expressions over) a global in `repl`
    /// to the replacement, materializing constant expressions as instructions.
    pub fn replace_operands(&self, inst: Val, repl: &[(Val, Val)]) -> Result<(), EmuError> {
        let n = unsafe { LLVMGetNumOperands(inst) };
        for i in 0..n as u32 {
            let op = self.operand(inst, i);
            if !self.mentions(op, repl) {
                continue;
            }
            unsafe {
                if self.opcode(inst) == LLVMOpcode::LLVMPHI {
                    let bb = LLVMGetIncomingBlock(inst, i);
                    LLVMPositionBuilderBefore(self.b, LLVMGetBasicBlockTerminator(bb));
                } else {
                    LLVMPositionBuilderBefore(self.b, inst);
                }
            }
            let v = self.materialize(op, repl)?;
            unsafe { LLVMSetOperand(inst, i, v) };
        }
        Ok(())
    }

    fn mentions(&self, v: Val, repl: &[(Val, Val)]) -> bool {
        if repl.iter().any(|(g, _)| *g == v) {
            return true;
        }
        unsafe {
            if LLVMIsAConstantExpr(v).is_null() {
                return false;
            }
            (0..LLVMGetNumOperands(v) as u32).any(|i| self.mentions(LLVMGetOperand(v, i), repl))
        }
    }

    fn materialize(&self, v: Val, repl: &[(Val, Val)]) -> Result<Val, EmuError> {
        if let Some((_, r)) = repl.iter().find(|(g, _)| *g == v) {
            return Ok(*r);
        }
        if !self.mentions(v, repl) {
            return Ok(v);
        }
        unsafe {
            let n = LLVMGetNumOperands(v) as u32;
            let ops: Vec<Val> = (0..n).map(|i| self.materialize(LLVMGetOperand(v, i), repl)).collect::<Result<_, _>>()?;
            match LLVMGetConstOpcode(v) {
                LLVMOpcode::LLVMGetElementPtr => {
                    let mut idx = ops[1..].to_vec();
                    Ok(LLVMBuildGEP2(self.b, LLVMGetGEPSourceElementType(v), ops[0], idx.as_mut_ptr(), idx.len() as u32, EMPTY))
                }
                op @ (LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMPtrToInt) => Ok(LLVMBuildCast(self.b, op, ops[0], LLVMTypeOf(v), EMPTY)),
                op => Err(EmuError::Unsupported(format!("a constant expression ({op:?}) over a module global"))),
            }
        }
    }

    pub fn context(&self) -> LLVMContextRef {
        self.ctx
    }

    pub fn builder(&self) -> LLVMBuilderRef {
        self.b
    }

    pub fn ptr(&self) -> LLVMTypeRef {
        self.ptr_ty()
    }

    pub fn int(&self, bits: u32) -> LLVMTypeRef {
        self.int_ty(bits)
    }
}
