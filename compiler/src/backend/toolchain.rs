//! Finds what the GPU back ends use from outside: `ptxas` and NVSHMEM's device bitcode, which
//! `./setup.sh` installs from PyPI wheels into the project's `.tools/`, and LLVM 22's `ld.lld`
//! (AMD code objects). Nothing is downloaded here.

use std::path::{Path, PathBuf};

/// A tool the GPU pipeline needs is not installed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{tool} not found (looked for {looked}); run ./setup.sh to install the GPU tools into .tools/, or point {env} at them")]
pub struct ToolError {
    /// What is missing (`ptxas`, `libnvshmem_device_sm_90.bc`, `ld.lld`).
    pub tool: String,
    /// Where it was looked for.
    pub looked: String,
    /// The environment variable that overrides the location.
    pub env: &'static str,
}

/// Where the project-local tools live: `$WEFT_TOOLS_DIR`, else `<repo>/.tools`.
pub fn tools_dir() -> PathBuf {
    match std::env::var_os("WEFT_TOOLS_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".")).join(".tools"),
    }
}

/// Where LLVM 22's tools live: `$WEFT_LLVM_BIN`, else `/usr/lib/llvm-22/bin`.
pub fn llvm_bin_dir() -> PathBuf {
    std::env::var_os("WEFT_LLVM_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-22/bin"))
}

/// The GPU tools found in one tools directory.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// The directory searched.
    pub dir: PathBuf,
}

impl Toolchain {
    /// The tools in `tools_dir()`.
    pub fn new() -> Toolchain {
        Toolchain::at(tools_dir())
    }

    /// The tools in `dir` (laid out as `./setup.sh` makes it).
    pub fn at(dir: impl Into<PathBuf>) -> Toolchain {
        Toolchain { dir: dir.into() }
    }

    /// `ptxas` (from `nvidia-cuda-nvcc-cu12`).
    pub fn ptxas(&self) -> Result<PathBuf, ToolError> {
        found(self.dir.join("bin/ptxas"), "ptxas", "WEFT_TOOLS_DIR")
    }

    /// NVSHMEM's device library as LLVM bitcode for `sm_<arch>` (80, 90 or 100): the per-arch
    /// file of the CUDA 12 packages, else the single `libnvshmem_device.bc` the CUDA 13 packages
    /// ship for every arch (seen with nvidia-nvshmem-cu13 3.4.5 on an H200 machine).
    pub fn nvshmem_bitcode(&self, arch: u32) -> Result<PathBuf, ToolError> {
        let lib = self.dir.join("nvshmem/lib");
        let name = format!("libnvshmem_device_sm_{arch}.bc");
        let single = lib.join("libnvshmem_device.bc");
        if !lib.join(&name).is_file() && single.is_file() {
            return Ok(single);
        }
        found(lib.join(&name), &name, "WEFT_TOOLS_DIR")
    }

    /// NVSHMEM's headers (`nvshmem.h`), for the host FFI.
    pub fn nvshmem_include(&self) -> Result<PathBuf, ToolError> {
        let dir = self.dir.join("nvshmem/include");
        found(dir.join("nvshmem.h"), "nvshmem.h", "WEFT_TOOLS_DIR").map(|_| dir)
    }
}

impl Default for Toolchain {
    fn default() -> Self {
        Toolchain::new()
    }
}

/// LLVM 22 tool `name` (`ld.lld`).
pub fn llvm_tool(name: &str) -> Result<PathBuf, ToolError> {
    found(llvm_bin_dir().join(name), name, "WEFT_LLVM_BIN")
}

fn found(path: PathBuf, tool: &str, env: &'static str) -> Result<PathBuf, ToolError> {
    if path.is_file() {
        Ok(path)
    } else {
        Err(ToolError { tool: tool.into(), looked: path.display().to_string(), env })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("weft-tools-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn finds_tools_laid_out_like_setup_sh() {
        let d = scratch("found");
        std::fs::create_dir_all(d.join("bin")).unwrap();
        std::fs::create_dir_all(d.join("nvshmem/lib")).unwrap();
        std::fs::write(d.join("bin/ptxas"), "").unwrap();
        for arch in [80, 90, 100] {
            std::fs::write(d.join(format!("nvshmem/lib/libnvshmem_device_sm_{arch}.bc")), "").unwrap();
        }
        let t = Toolchain::at(&d);
        assert_eq!(t.ptxas().unwrap(), d.join("bin/ptxas"));
        for arch in [80, 90, 100] {
            assert!(t.nvshmem_bitcode(arch).unwrap().ends_with(format!("libnvshmem_device_sm_{arch}.bc")));
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn one_bitcode_for_every_arch_is_used_when_no_per_arch_file_is_there() {
        let d = scratch("single");
        std::fs::create_dir_all(d.join("nvshmem/lib")).unwrap();
        std::fs::write(d.join("nvshmem/lib/libnvshmem_device.bc"), "").unwrap();
        std::fs::write(d.join("nvshmem/lib/libnvshmem_device_sm_90.bc"), "").unwrap();
        let t = Toolchain::at(&d);
        // The per-arch file wins where it exists; the single one serves the rest.
        assert_eq!(t.nvshmem_bitcode(90).unwrap(), d.join("nvshmem/lib/libnvshmem_device_sm_90.bc"));
        assert_eq!(t.nvshmem_bitcode(80).unwrap(), d.join("nvshmem/lib/libnvshmem_device.bc"));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn missing_tools_name_the_tool_and_the_fix() {
        let d = scratch("missing");
        let t = Toolchain::at(&d);
        let e = t.ptxas().unwrap_err();
        assert_eq!(e.tool, "ptxas");
        let msg = e.to_string();
        assert!(msg.contains("ptxas not found") && msg.contains("./setup.sh"), "{msg}");
        let e = t.nvshmem_bitcode(90).unwrap_err();
        assert!(e.to_string().contains("libnvshmem_device_sm_90.bc") && e.to_string().contains("./setup.sh"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
