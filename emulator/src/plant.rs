//! Deliberate bugs planted in a kernel's GPU IR (through LLVM's API, before it is retargeted),
//! so that tests can show each emulator check catching the mistake it exists for.

use crate::ir::Ir;
use crate::EmuError;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;

/// A planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plant {
    /// Delete the `n`-th CTA barrier (in program order, from 0).
    DropBarrier(usize),
    /// Give every `shfl.sync` this member mask instead of the lowering's.
    ShuffleMask(u32),
    /// Swap the two B registers of every `mma.sync` (k rows 0-7 and 8-15: a transposed fragment).
    SwapMmaB,
    /// Add a CTA barrier to the first single-thread section (`one.do` blocks: thread 0, or
    /// lane 0 of each warp), which the other threads never reach.
    BarrierInSingleThread,
    /// Delete the `n`-th store to shared memory (in program order, from 0): its bytes are
    /// read uninitialized.
    DropSharedStore(usize),
    /// Move every store to global memory one element further (an off-by-one index).
    GlobalStoreOffByOne,
    /// Move every vector load from global memory one scalar element further: the vector
    /// access loses the alignment it declares.
    VectorLoadOffByOneElement,
    /// Delete every `cp.async.wait_group` (if any): shared memory is read before the copies
    /// land.
    DropCpAsyncWait,
    /// Make every `mbarrier.try_wait.parity` answer true at once (a TMA ring's slot is read
    /// before its copies land).
    DropMbarrierWait,
}

const BARRIER: &str = "llvm.nvvm.barrier.cta.sync.aligned.all";

/// Plants `p` in `kernel`; an error if the kernel has no place for it.
pub fn apply(ir: &Ir, kernel: LLVMValueRef, p: Plant) -> Result<(), EmuError> {
    let calls: Vec<(LLVMValueRef, String)> = ir
        .instructions(kernel)
        .into_iter()
        .filter(|&i| ir.opcode(i) == LLVMOpcode::LLVMCall)
        .map(|i| (i, ir.name_of(ir.called(i))))
        .collect();
    let none = |what: &str| EmuError::Unsupported(format!("planting {p:?}: the kernel has no {what}"));
    match p {
        Plant::GlobalStoreOffByOne => {
            let global = |i: LLVMValueRef| ir.opcode(i) == LLVMOpcode::LLVMStore && ir.addr_space(ir.operand(i, 1)) != 3;
            let stores: Vec<_> = ir.instructions(kernel).into_iter().filter(|&i| global(i)).collect();
            if stores.is_empty() {
                return Err(none("store to global memory"));
            }
            for st in stores {
                shift(ir, st, 1, ir.type_of(ir.operand(st, 0)));
            }
        }
        Plant::VectorLoadOffByOneElement => {
            let vector = |i: LLVMValueRef| {
                ir.opcode(i) == LLVMOpcode::LLVMLoad && ir.addr_space(ir.operand(i, 0)) != 3 && ir.kind(ir.type_of(i)) == llvm_sys::LLVMTypeKind::LLVMVectorTypeKind
            };
            let loads: Vec<_> = ir.instructions(kernel).into_iter().filter(|&i| vector(i)).collect();
            if loads.is_empty() {
                return Err(none("vector load from global memory"));
            }
            for ld in loads {
                // SAFETY: a vector type.
                shift(ir, ld, 0, unsafe { llvm_sys::core::LLVMGetElementType(ir.type_of(ld)) });
            }
        }
        Plant::DropSharedStore(n) => {
            let shared = |i: LLVMValueRef| ir.opcode(i) == LLVMOpcode::LLVMStore && ir.addr_space(ir.operand(i, 1)) == 3;
            let st = ir.instructions(kernel).into_iter().filter(|&i| shared(i)).nth(n).ok_or_else(|| none(&format!("shared-memory store #{n}")))?;
            ir.erase(st);
        }
        Plant::DropBarrier(n) => {
            let (b, _) = calls.iter().filter(|(_, f)| f == BARRIER).nth(n).ok_or_else(|| none(&format!("barrier #{n}")))?;
            ir.erase(*b);
        }
        Plant::ShuffleMask(m) => {
            let shfl: Vec<_> = calls.iter().filter(|(_, f)| f.starts_with("llvm.nvvm.shfl.sync.")).collect();
            if shfl.is_empty() {
                return Err(none("shuffle"));
            }
            for (c, _) in shfl {
                ir.set_operand(*c, 0, ir.i32(m as i32 as i64));
            }
        }
        Plant::SwapMmaB => {
            let mma: Vec<_> = calls.iter().filter(|(_, f)| f.starts_with("llvm.nvvm.mma.")).collect();
            if mma.is_empty() {
                return Err(none("mma.sync"));
            }
            for (c, _) in mma {
                let (b0, b1) = (ir.operand(*c, 4), ir.operand(*c, 5));
                ir.set_operand(*c, 4, b1);
                ir.set_operand(*c, 5, b0);
            }
        }
        Plant::DropCpAsyncWait => {
            // A variant without copies (the general one of a specializing launch) is left as
            // it is; the test shows the plant took effect by the run failing.
            for (c, _) in calls.iter().filter(|(_, f)| f == "llvm.nvvm.cp.async.wait.group") {
                ir.erase(*c);
            }
        }
        Plant::DropMbarrierWait => {
            let waits: Vec<_> = calls.iter().filter(|(_, f)| f.starts_with("llvm.nvvm.mbarrier.try.wait.parity")).collect();
            if waits.is_empty() {
                return Err(none("mbarrier wait"));
            }
            for (c, _) in waits {
                ir.replace(*c, ir.i1(true));
            }
        }
        Plant::BarrierInSingleThread => {
            let (any, _) = calls.iter().find(|(_, f)| f == BARRIER).ok_or_else(|| none("barrier to copy"))?;
            let block = ir.instructions(kernel).into_iter().find(|&i| ir.block_name(i).starts_with("one.do")).ok_or_else(|| none("single-thread section"))?;
            ir.clone_before(*any, ir.terminator_of(block));
        }
    }
    Ok(())
}

/// Points memory access `inst`'s pointer operand `at` one `elem` further.
fn shift(ir: &Ir, inst: LLVMValueRef, at: u32, elem: llvm_sys::prelude::LLVMTypeRef) {
    ir.position_before(inst);
    let p = ir.gep1(elem, ir.operand(inst, at));
    ir.set_operand(inst, at, p);
}
