//! The NVPTX steps below our LLVM IR: linking NVSHMEM's device bitcode, internalizing
//! everything but the kernel and NVSHMEM's device state, globaldce and O3, and PTX emission, all
//! in process; then `ptxas`, the one outside tool, to a cubin with its resource report.

use super::device;
use super::nvshmem_lib;
use super::nvshmem_transport::{self, DeviceTransport};
pub use super::tools::GpuToolError;
use super::tools::{run, Scratch};
use super::toolchain::Toolchain;
use crate::lower::gpu::target::Nvptx;
use crate::pipeline::timings::time;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::targets::{FileType, TargetMachine};
use std::path::Path;

/// Registers and memory of a kernel as `ptxas -v` reports them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtxasReport {
    /// Registers per thread of the entry function.
    pub registers: u32,
    /// Bytes of spill stores of the entry function (our code and everything inlined into it).
    pub spill_stores: u32,
    /// Bytes of spill loads of the entry function.
    pub spill_loads: u32,
    /// Functions that stayed out of line (NVSHMEM's slow paths) and spill on their own:
    /// `(name, spill store bytes, spill load bytes)`. Their code does not depend on ours.
    pub callee_spills: Vec<(String, u32, u32)>,
    /// Stack frame bytes of the entry function.
    pub stack_frame: u32,
    /// Static shared memory bytes of the entry function.
    pub shared: u32,
    /// ptxas's own text.
    pub log: String,
}

impl PtxasReport {
    /// Whether the kernel itself spilled to local memory.
    pub fn spills(&self) -> bool {
        self.spill_stores > 0 || self.spill_loads > 0
    }

    /// One line for logs and the CLI.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "registers {}, spill stores {} B, spill loads {} B, stack frame {} B, shared {} B",
            self.registers, self.spill_stores, self.spill_loads, self.stack_frame, self.shared
        );
        if !self.callee_spills.is_empty() {
            let (st, ld) = self.callee_spills.iter().fold((0, 0), |a, c| (a.0 + c.1, a.1 + c.2));
            s.push_str(&format!("; out-of-line library functions spill {st} B / {ld} B in {}", self.callee_spills.len()));
        }
        s
    }
}

/// The NVPTX target machine for `t` (PTX ISA feature included).
pub fn target_machine(t: &Nvptx) -> Result<TargetMachine, GpuToolError> {
    Ok(device::target_machine("nvptx64-nvidia-cuda", t.name, t.ptx_feature())?)
}

/// Links into `m` what it needs of NVSHMEM's bitcode for `t` (through the prepared library in
/// the toolchain cache `dir`, see [`nvshmem_lib`]: folded to the proxy transport unless the
/// module asks for every transport, [`nvshmem_transport`]), internalizes everything but
/// `symbol`, NVSHMEM's device-state globals and the fold's marker, and runs globaldce,
/// [`device::SPLIT_VECTORS`] and O3. A kernel without NVSHMEM calls links the library too: it
/// brings NVSHMEM's device state (`llvm.compiler.used` keeps it), which
/// `nvshmemx_cumodule_init` looks up in every module the `cuda` transport loads.
pub fn link_and_optimize<'c>(ctx: &'c Context, m: &Module<'c>, symbol: &str, t: &Nvptx, tc: &Toolchain, tm: &TargetMachine, dir: Option<&Path>) -> Result<(), GpuToolError> {
    let bc = tc.nvshmem_bitcode(t.nvshmem_arch())?;
    nvshmem_lib::link(ctx, m, &device::external_references(m), &bc, dir, t.name, DeviceTransport::of_module(m), tm)?;
    time("nvshmem.internalize", || device::internalize(m, |name| name == symbol || nvshmem_lib::is_device_state(name) || name == nvshmem_transport::MARKER));
    Ok(time("llvm.opt", || device::optimize(m, tm, &format!("globaldce,{},default<O3>", device::SPLIT_VECTORS)))?)
}

/// PTX assembly of an optimised module.
pub fn emit_ptx(m: &Module, tm: &TargetMachine) -> Result<String, GpuToolError> {
    Ok(String::from_utf8_lossy(&device::emit(m, tm, FileType::Assembly)?).into_owned())
}

/// Assembles PTX with `ptxas -v`; returns the cubin and the report for entry `symbol`.
pub fn assemble(ptx: &str, symbol: &str, t: &Nvptx, tc: &Toolchain) -> Result<(Vec<u8>, PtxasReport), GpuToolError> {
    let ptxas = tc.ptxas()?;
    let s = Scratch::new()?;
    let input = s.write("kernel.ptx", ptx.as_bytes())?;
    let out = s.0.join("kernel.cubin");
    let (i, o) = (input.display().to_string(), out.display().to_string());
    let arch = format!("-arch={}", t.name);
    let (_, log) = run("ptxas", &ptxas, &["-v", "-O3", &arch, &i, "-o", &o])?;
    Ok((s.read("kernel.cubin")?, parse_ptxas(&log, symbol)))
}

/// Reads `ptxas -v` output: registers, stack, shared memory and spills of entry `symbol`,
/// and the spills of any other function.
pub fn parse_ptxas(log: &str, symbol: &str) -> PtxasReport {
    let mut r = PtxasReport { log: log.to_string(), ..Default::default() };
    let num = |line: &str, after: &str| -> Option<u32> {
        let i = line.find(after)?;
        line[..i].split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).last()?.parse().ok()
    };
    let mut in_entry = false;
    let mut func = String::new();
    for line in log.lines() {
        if line.contains("Compiling entry function") || line.contains("Function properties for") {
            in_entry = line.contains(&format!("'{symbol}'")) || line.ends_with(&format!(" {symbol}"));
            func = line.rsplit(' ').next().unwrap_or("").trim_matches('\'').to_string();
        }
        let (st, ld) = (num(line, "bytes spill stores"), num(line, "bytes spill loads"));
        if in_entry {
            r.spill_stores += st.unwrap_or(0);
            r.spill_loads += ld.unwrap_or(0);
        } else if st.unwrap_or(0) + ld.unwrap_or(0) > 0 {
            r.callee_spills.push((func.clone(), st.unwrap_or(0), ld.unwrap_or(0)));
        }
        if !in_entry {
            continue;
        }
        if let Some(n) = num(line, "bytes stack frame") {
            r.stack_frame = n;
        }
        if let Some(n) = num(line, "registers") {
            r.registers = n;
        }
        if let Some(n) = num(line, "bytes smem") {
            r.shared = n;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_ptxas_report() {
        let log = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function 'allgather' for 'sm_90a'\n\
ptxas info    : Function properties for allgather\n\
    112 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Used 74 registers, used 1 barriers, 264 bytes smem, 416 bytes cmem[0]\n\
ptxas info    : Function properties for _Z37nvshmemi_transfer_put_signal_dispatch\n\
    0 bytes stack frame, 116 bytes spill stores, 148 bytes spill loads\n";
        let r = parse_ptxas(log, "allgather");
        assert_eq!((r.registers, r.spill_stores, r.spill_loads, r.stack_frame, r.shared), (74, 8, 4, 112, 264));
        assert!(r.spills());
        assert_eq!(r.callee_spills, vec![("_Z37nvshmemi_transfer_put_signal_dispatch".to_string(), 116, 148)]);
    }
}
