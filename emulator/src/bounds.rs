//! The out-of-bounds check on global memory: a runtime call before every load and store the
//! kernel makes outside shared memory (each enabled lane of a masked gather / scatter on its
//! own), which faults unless the bytes lie in one buffer the host allocated (any rank's, as
//! far as the host asked), in the rank's module globals, the CTA's shared memory or its AMD
//! implicit kernel arguments, and unless the address has the alignment the access declares
//! (a GPU faults on a misaligned vector access; the host might not).

use crate::cta::lane;
use crate::ir::{Ir, Val, EMPTY};
use crate::retarget::{Rw, SHARED_AS};
use crate::slots::Slot;
use llvm_sys::core::*;
use llvm_sys::LLVMOpcode;

/// The kernel's global accesses: non-volatile loads and stores outside shared memory and
/// masked gathers / scatters (taken before the rewrite, which replaces volatile loads).
pub fn accesses(ir: &Ir, kernel: Val) -> Vec<Val> {
    ir.instructions(kernel)
        .into_iter()
        .filter(|&i| match ir.opcode(i) {
            LLVMOpcode::LLVMLoad => !ir.is_volatile(i) && ir.addr_space(ir.operand(i, 0)) != SHARED_AS,
            LLVMOpcode::LLVMStore => ir.addr_space(ir.operand(i, 1)) != SHARED_AS,
            LLVMOpcode::LLVMCall => masked(ir, i).is_some(),
            _ => false,
        })
        .collect()
}

/// `Some(true)` for a masked scatter, `Some(false)` for a gather.
fn masked(ir: &Ir, call: Val) -> Option<bool> {
    let name = ir.name_of(ir.called(call));
    if name.starts_with("llvm.masked.scatter.") {
        Some(true)
    } else if name.starts_with("llvm.masked.gather.") {
        Some(false)
    } else {
        None
    }
}

impl Rw<'_> {
    /// Puts the bounds check before global access `inst`.
    pub(crate) fn bounds_check(&mut self, inst: Val) {
        self.ir.position_before(inst);
        let one = self.ir.i32(1);
        let align = unsafe { LLVMGetAlignment(inst) } as u64;
        match self.ir.opcode(inst) {
            LLVMOpcode::LLVMLoad => {
                let bytes = self.ir.store_size(self.ir.type_of(inst));
                self.check("ld.global", inst, self.ir.operand(inst, 0), bytes | align << 16, 0, one);
            }
            LLVMOpcode::LLVMStore => {
                let bytes = self.ir.store_size(self.ir.type_of(self.ir.operand(inst, 0)));
                self.check("st.global", inst, self.ir.operand(inst, 1), bytes | align << 16, 1, one);
            }
            _ => {
                // gather(ptrs, mask, passthru) -> v; scatter(v, ptrs, mask)
                let write = masked(self.ir, inst) == Some(true);
                let (ptrs, mask, ty) = if write {
                    (self.ir.operand(inst, 1), self.ir.operand(inst, 2), self.ir.type_of(self.ir.operand(inst, 0)))
                } else {
                    (self.ir.operand(inst, 0), self.ir.operand(inst, 1), self.ir.type_of(inst))
                };
                let op = if write { "st.global (scatter)" } else { "ld.global (gather)" };
                unsafe {
                    let lanes = LLVMGetVectorSize(ty);
                    let bytes = self.ir.store_size(LLVMGetElementType(ty));
                    for l in 0..lanes {
                        let at = self.ir.i32(l as i64);
                        let p = LLVMBuildExtractElement(self.ir.b, ptrs, at, EMPTY);
                        let m = LLVMBuildExtractElement(self.ir.b, mask, at, EMPTY);
                        let on = LLVMBuildZExt(self.ir.b, m, self.ir.int(32), EMPTY);
                        self.check(op, inst, p, bytes, write as i64, on);
                    }
                }
            }
        }
    }

    /// `size` is the access's bytes, its declared alignment (if any) above bit 16.
    fn check(&mut self, op: &str, inst: Val, p: Val, size: u64, write: i64, enabled: Val) {
        let site = self.site(op, inst);
        let (fp, s, w) = (self.ir.flat(p), self.ir.i32(size as i64), self.ir.i32(write));
        self.ir.rt(Slot::GlobalAccess, site, &[fp, s, w, enabled]);
    }
}

/// The runtime side: faults unless `[p, p + bytes)` is memory the kernel may touch, at the
/// alignment declared in `size`'s bits 16 and up (0: none declared).
pub extern "C" fn global_access(site: i32, p: *const u8, size: i32, write: i32, enabled: i32) {
    if enabled == 0 {
        return;
    }
    let l = lane();
    let cta = l.cta();
    let (a, n, align) = (p as usize, (size & 0xffff) as usize, (size >> 16) as usize);
    if align > 1 && a % align != 0 {
        let what = if write != 0 { "writes" } else { "reads" };
        l.fault(site, &format!("misaligned global access: {what} {n} bytes at {a:#x}, declared {align}-byte aligned"));
    }
    let within = |base: usize, len: usize| a >= base && a + n <= base + len;
    let implicit = (cta.implicit.as_ptr() as usize, std::mem::size_of_val(&cta.implicit));
    if within(cta.smem.as_ptr() as usize, cta.smem.len() * 8) || within(cta.globals as usize, cta.global_bytes) || within(implicit.0, implicit.1) {
        return;
    }
    // SAFETY: the live instance context; the lookup only reads the heap's allocation table.
    let ext = unsafe { ((*(*cta.ctx).fns).extent)(cta.ctx, p, site) };
    if ext >= n as i64 {
        return;
    }
    let what = if write != 0 { "writes" } else { "reads" };
    let msg = if ext < 0 {
        format!("out-of-bounds global access: {what} {n} bytes at {a:#x}, in no buffer the host allocated")
    } else {
        format!("out-of-bounds global access: {what} {n} bytes at {a:#x}, past the end of the buffer the host allocated ({ext} bytes of it left)")
    };
    l.fault(site, &msg);
}
