//! The constructions of [`Ir`]: runtime-table calls, casts between the runtime's few types and
//! the kernel's, `mma.sync` through memory, the instruction counter, and materializing
//! constant expressions over globals as instructions.

use crate::ir::{Ir, Val, EMPTY};
use crate::slots::{Slot, Ty};
use crate::EmuError;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

impl Ir {
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

    /// `&p[1]` for elements of type `elem`.
    pub fn gep1(&self, elem: LLVMTypeRef, p: Val) -> Val {
        unsafe {
            let mut idx = [self.i64(1)];
            LLVMBuildGEP2(self.b, elem, p, idx.as_mut_ptr(), 1, EMPTY)
        }
    }

    /// `base + off` bytes.
    pub fn byte_offset(&self, base: Val, off: u64) -> Val {
        unsafe {
            let mut idx = [self.i64(off as i64)];
            LLVMBuildInBoundsGEP2(self.b, self.int_ty(8), base, idx.as_mut_ptr(), 1, EMPTY)
        }
    }

    /// `c ? a : b`.
    pub fn select(&self, c: Val, a: Val, b: Val) -> Val {
        unsafe { LLVMBuildSelect(self.b, c, a, b, EMPTY) }
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
            let io = self.entry_alloca(call, 10);
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

    /// `wgmma.mma_async` through memory: `args` are the two descriptors, the scale-d operand
    /// and the accumulators (floats); the runtime updates them in a buffer, returned as the
    /// call's `{float x N/2}`.
    pub fn wgmma(&self, site: Val, kind: i32, args: &[Val], call: Val) -> Val {
        let accs = &args[3..];
        unsafe {
            let io = self.entry_alloca(call, accs.len() as u32);
            for (i, &a) in accs.iter().enumerate() {
                LLVMBuildStore(self.b, self.to_i32(a), self.byte_offset(io, 4 * i as u64));
            }
            self.rt(Slot::Wgmma, site, &[self.i32(kind as i64), args[0], args[1], io]);
            let f32t = LLVMFloatTypeInContext(self.ctx);
            let vals: Vec<Val> = (0..accs.len()).map(|q| LLVMBuildLoad2(self.b, f32t, self.byte_offset(io, 4 * q as u64), EMPTY)).collect();
            self.pack(&vals, self.type_of(call))
        }
    }

    /// An AMD MFMA through memory: `args` are A and B (four 16-bit elements each) and the
    /// accumulator vector; the runtime updates the accumulators in a buffer after the
    /// operands' 4 words, returned as the call's `<N x float>`.
    pub fn mfma(&self, site: Val, kind: i32, args: &[Val], call: Val) -> Val {
        unsafe {
            let acc_ty = self.type_of(call);
            let n = LLVMGetVectorSize(acc_ty);
            let io = self.entry_alloca(call, 4 + n);
            let two = LLVMVectorType(self.int_ty(32), 2);
            for (w, &x) in args[..2].iter().enumerate() {
                let words = LLVMBuildBitCast(self.b, x, two, EMPTY);
                for j in 0..2u64 {
                    let word = LLVMBuildExtractElement(self.b, words, self.i32(j as i64), EMPTY);
                    LLVMBuildStore(self.b, word, self.byte_offset(io, 4 * (2 * w as u64 + j)));
                }
            }
            for q in 0..n as u64 {
                let x = LLVMBuildExtractElement(self.b, args[2], self.i32(q as i64), EMPTY);
                LLVMBuildStore(self.b, self.to_i32(x), self.byte_offset(io, 16 + 4 * q));
            }
            self.rt(Slot::Mfma, site, &[self.i32(kind as i64), io]);
            let f32t = LLVMFloatTypeInContext(self.ctx);
            let mut v = LLVMGetUndef(acc_ty);
            for q in 0..n as u64 {
                let x = LLVMBuildLoad2(self.b, f32t, self.byte_offset(io, 16 + 4 * q), EMPTY);
                v = LLVMBuildInsertElement(self.b, v, x, self.i32(q as i64), EMPTY);
            }
            v
        }
    }

    /// The struct of type `ty` whose fields are `vals`.
    pub fn pack(&self, vals: &[Val], ty: LLVMTypeRef) -> Val {
        unsafe {
            let mut s = LLVMGetUndef(ty);
            for (q, &x) in vals.iter().enumerate() {
                s = LLVMBuildInsertValue(self.b, s, x, q as u32, EMPTY);
            }
            s
        }
    }

    /// `ldmatrix` through memory: the runtime writes the `count` registers into a 4-word
    /// buffer, returned as `{i32 x count}`.
    pub fn ldmatrix(&self, site: Val, kind: i32, count: usize, p: Val, call: Val) -> Val {
        unsafe {
            let io = self.entry_alloca(call, 4);
            self.rt(Slot::Ldmatrix, site, &[self.i32(kind as i64), p, io]);
            let i32t = self.int_ty(32);
            let mut fields = vec![i32t; count];
            let sty = LLVMStructTypeInContext(self.ctx, fields.as_mut_ptr(), count as u32, 0);
            let mut s = LLVMGetUndef(sty);
            for q in 0..count {
                let x = LLVMBuildLoad2(self.b, i32t, self.byte_offset(io, 4 * q as u64), EMPTY);
                s = LLVMBuildInsertValue(self.b, s, x, q as u32, EMPTY);
            }
            s
        }
    }

    /// A buffer of `words` i32s in the entry block of `call`'s function (once per call site);
    /// leaves the builder before `call`.
    pub(crate) fn entry_alloca(&self, call: Val, words: u32) -> Val {
        unsafe {
            let ty = LLVMArrayType2(self.int_ty(32), words as u64);
            let f = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
            LLVMPositionBuilderBefore(self.b, self.first_instruction(f));
            let io = LLVMBuildAlloca(self.b, ty, EMPTY);
            LLVMPositionBuilderBefore(self.b, call);
            io
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

    /// `name(x)` for a target-independent float intrinsic overloaded on `x`'s type (e.g.
    /// `llvm.log2`), which runs on the host as it is.
    pub fn float_intrinsic(&self, name: &str, x: Val) -> Val {
        unsafe {
            let mut ty = [self.type_of(x)];
            let id = llvm_sys::core::LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
            let f = LLVMGetIntrinsicDeclaration(self.module(), id, ty.as_mut_ptr(), 1);
            self.call_ptr(f, &ty, Some(ty[0]), &[x])
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
