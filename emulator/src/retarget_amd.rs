//! The AMDGPU intrinsics the lowering emits (`lower::gpu::amdgpu`), retargeted like the NVVM
//! ones: workitem / workgroup ids as special registers, `s_barrier` as the CTA barrier (its
//! workgroup fences stay, as host fences), `ds_bpermute` as a wavefront collective, the
//! implicit-argument pointer as the CTA's block counts, `s_sleep` as nothing (a polling
//! load already yields), MFMAs as wavefront collectives (`mfma`).

use crate::ir::Val;
use crate::retarget::Rw;
use crate::slots::{sreg, Slot};

impl Rw<'_> {
    /// The runtime call for `llvm.amdgcn.*` intrinsic `name`, `None` if unknown; the inner
    /// option is the result, or nothing for void calls.
    pub(crate) fn amd_call(&mut self, name: &str, site: Val, a: &[Val], call: Val) -> Option<Option<Val>> {
        let ir = &mut *self.ir;
        let reg = |ir: &mut crate::ir::Ir, which: i32| {
            let w = ir.i32(which as i64);
            Some(Some(ir.rt(Slot::Sreg, site, &[w])))
        };
        match name.strip_prefix("llvm.amdgcn.")? {
            "workitem.id.x" => reg(ir, sreg::TID),
            "workgroup.id.x" => reg(ir, sreg::CTAID),
            "workgroup.id.y" => reg(ir, sreg::CTAID + 1),
            "workgroup.id.z" => reg(ir, sreg::CTAID + 2),
            "implicitarg.ptr" => Some(Some(ir.rt(Slot::ImplicitArgs, site, &[]))),
            "s.barrier" => {
                ir.rt(Slot::Barrier, site, &[]);
                Some(None)
            }
            "ds.bpermute" => {
                let x = ir.to_i32(a[1]);
                Some(Some(ir.rt(Slot::Bpermute, site, &[a[0], x])))
            }
            "s.sleep" => Some(None),
            n if n.starts_with("mfma.") => {
                let kind = crate::mfma::kind(n)?;
                Some(Some(ir.mfma(site, kind, a, call)))
            }
            _ => None,
        }
    }
}
