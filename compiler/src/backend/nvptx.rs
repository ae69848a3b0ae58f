//! The NVPTX steps below our LLVM IR, as measured in DESIGN.md: `llvm-link` with NVSHMEM's
//! device bitcode, `opt` (internalize everything but the kernel and NVSHMEM's device state,
//! globaldce, O3), `llc` to PTX, and `ptxas` to a cubin with its resource report.

pub use super::tools::GpuToolError;
use super::tools::{run, Scratch};
use super::toolchain::{llvm_tool, Toolchain};
use crate::lower::gpu::target::Nvptx;

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

/// Links our module (LLVM IR text) with NVSHMEM's bitcode for `t`, internalizes everything
/// but `symbol` and NVSHMEM's device-state globals (the host finds those by name when it
/// loads the module), and optimises. Returns the LLVM IR text.
pub fn link_and_optimize(ir: &str, symbol: &str, t: &Nvptx, tc: &Toolchain) -> Result<String, GpuToolError> {
    let bc = tc.nvshmem_bitcode(t.nvshmem_arch())?;
    let (link, opt, nm) = (llvm_tool("llvm-link")?, llvm_tool("opt")?, llvm_tool("llvm-nm")?);
    let s = Scratch::new()?;
    let input = s.write("kernel.ll", ir.as_bytes())?;
    let linked = s.0.join("linked.bc");
    let (i, b, l) = (input.display().to_string(), bc.display().to_string(), linked.display().to_string());
    run("llvm-link", &link, &["--only-needed", &i, &b, "-o", &l])?;
    let (syms, _) = run("llvm-nm", &nm, &["--defined-only", "--format=just-symbols", &l])?;
    let mut public = vec![symbol.to_string()];
    public.extend(String::from_utf8_lossy(&syms).lines().filter(|n| n.starts_with("nvshmemi_") && n.ends_with("_d")).map(str::to_string));
    let out = s.0.join("opt.ll");
    let o = out.display().to_string();
    let (mcpu, mattr) = (format!("-mcpu={}", t.name), format!("-mattr={}", t.ptx_feature()));
    let api = format!("-internalize-public-api-list={}", public.join(","));
    run("opt", &opt, &["-passes=internalize,globaldce,default<O3>", &api, &mcpu, &mattr, "-S", &l, "-o", &o])?;
    Ok(String::from_utf8_lossy(&s.read("opt.ll")?).into_owned())
}

/// PTX assembly of an optimised module.
pub fn emit_ptx(ir: &str, t: &Nvptx) -> Result<String, GpuToolError> {
    let llc = llvm_tool("llc")?;
    let s = Scratch::new()?;
    let input = s.write("opt.ll", ir.as_bytes())?;
    let out = s.0.join("kernel.ptx");
    let (i, o) = (input.display().to_string(), out.display().to_string());
    let (mcpu, mattr) = (format!("-mcpu={}", t.name), format!("-mattr={}", t.ptx_feature()));
    run("llc", &llc, &["-O3", "-mtriple=nvptx64-nvidia-cuda", &mcpu, &mattr, &i, "-o", &o])?;
    Ok(String::from_utf8_lossy(&s.read("kernel.ptx")?).into_owned())
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
