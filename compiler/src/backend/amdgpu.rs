//! The AMDGPU steps below our LLVM IR: O3, AMDGCN assembly and an object, in process; then
//! `ld.lld -shared` to the HSA code object, with a resource report read from the code
//! generator's kernel-info comments (the counterpart of `ptxas -v`).

use super::device;
pub use super::tools::GpuToolError;
use super::toolchain::llvm_tool;
use super::tools::{run, Scratch};
use crate::lower::gpu::amdgpu::Amdgpu;
use inkwell::module::Module;
use inkwell::targets::{FileType, TargetMachine};

/// Registers and memory of a kernel as the AMDGPU back end reports them in its assembly.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AmdgpuReport {
    /// Scalar registers, VCC and friends included (`TotalNumSgprs`).
    pub sgprs: u32,
    /// Architected vector registers (`NumVgprs`).
    pub vgprs: u32,
    /// Accumulation registers (`NumAgprs`).
    pub agprs: u32,
    /// Private (scratch) bytes per work-item (`ScratchSize`).
    pub scratch: u32,
    /// Static LDS bytes per workgroup (`LDSByteSize`).
    pub lds: u32,
    /// Waves per SIMD the register use allows (`Occupancy`).
    pub occupancy: u32,
    /// Spill stores and reloads the back end marked in the code (`Folded Spill` / `Folded Reload`).
    pub spill_insts: u32,
}

impl AmdgpuReport {
    /// Whether the kernel spills: our kernels have no stack objects, so any scratch is spill
    /// space.
    pub fn spills(&self) -> bool {
        self.scratch > 0 || self.spill_insts > 0
    }

    /// One line for logs and the CLI.
    pub fn summary(&self) -> String {
        format!(
            "SGPRs {}, VGPRs {}, AGPRs {}, scratch {} B, spill instructions {}, LDS {} B, occupancy {} waves/SIMD",
            self.sgprs, self.vgprs, self.agprs, self.scratch, self.spill_insts, self.lds, self.occupancy
        )
    }
}

/// The AMDGPU target machine for `t`.
pub fn target_machine(t: &Amdgpu) -> Result<TargetMachine, GpuToolError> {
    Ok(device::target_machine("amdgcn-amd-amdhsa", t.name, "")?)
}

/// Optimises `m` at O3 (no device library to link on AMD).
pub fn optimize(m: &Module, tm: &TargetMachine) -> Result<(), GpuToolError> {
    Ok(device::optimize(m, tm, "default<O3>")?)
}

/// AMDGCN assembly of an optimised module (emitted from a copy: [`link`] still needs it).
pub fn emit_asm(m: &Module, tm: &TargetMachine) -> Result<String, GpuToolError> {
    Ok(String::from_utf8_lossy(&device::emit(&m.clone(), tm, FileType::Assembly)?).into_owned())
}

/// The HSA code object (an ELF shared object) of an optimised module: its object file linked by
/// `ld.lld -shared`, which stays a process (LLVM has no C API for lld).
pub fn link(m: &Module, tm: &TargetMachine) -> Result<Vec<u8>, GpuToolError> {
    let lld = llvm_tool("ld.lld")?;
    let s = Scratch::new()?;
    let obj = s.write("kernel.o", &device::emit(m, tm, FileType::Object)?)?;
    let out = s.0.join("kernel.hsaco");
    run("ld.lld", &lld, &["-shared", &obj.display().to_string(), "-o", &out.display().to_string()])?;
    s.read("kernel.hsaco")
}

/// Reads the kernel-info comments the back end writes after entry `symbol` in AMDGCN assembly.
pub fn parse_report(asm: &str, symbol: &str) -> AmdgpuReport {
    let mut r = AmdgpuReport::default();
    let start = asm.find(&format!("{symbol}:")).unwrap_or(0);
    let body = &asm[start..];
    let end = body.find("; -- End function").unwrap_or(body.len());
    r.spill_insts = body[..end].lines().filter(|l| l.contains("Folded Spill") || l.contains("Folded Reload")).count() as u32;
    let info = body.find("; Kernel info:").map(|i| &body[i..]).unwrap_or("");
    for line in info.lines().take_while(|l| l.starts_with(';')) {
        let Some((key, val)) = line.trim_start_matches(';').split_once(':') else { continue };
        let n = val.split_whitespace().next().and_then(|v| v.parse().ok()).unwrap_or(0);
        match key.trim() {
            "TotalNumSgprs" => r.sgprs = n,
            "NumVgprs" => r.vgprs = n,
            "NumAgprs" => r.agprs = n,
            "ScratchSize" => r.scratch = n,
            "LDSByteSize" => r.lds = n,
            "Occupancy" => r.occupancy = n,
            _ => {}
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_llc_kernel_info() {
        let asm = "k:\n\tv_mov_b32 v0, 0\n\tscratch_store_dword off, v3, s0 ; 4-byte Folded Spill\n\
\tscratch_load_dword v3, off, s0 ; 4-byte Folded Reload\n\ts_endpgm\n; -- End function\n\
; Kernel info:\n; codeLenInByte = 348\n; TotalNumSgprs: 13\n; NumVgprs: 5\n; NumAgprs: 2\n; TotalNumVgprs: 8\n\
; ScratchSize: 16\n; LDSByteSize: 256 bytes/workgroup (compile time only)\n; Occupancy: 8\n";
        let r = parse_report(asm, "k");
        assert_eq!((r.sgprs, r.vgprs, r.agprs, r.scratch, r.lds, r.occupancy, r.spill_insts), (13, 5, 2, 16, 256, 8, 2));
        assert!(r.spills());
        assert!(!parse_report(&asm.replace("16", "0").replace("Folded", "x"), "k").spills());
    }
}
