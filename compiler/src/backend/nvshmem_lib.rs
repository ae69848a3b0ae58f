//! NVSHMEM's device library, prepared once per toolchain and set of references. Loading the
//! 30-50 MB bitcode and linking what a kernel needs from it cost ~35 ms of CPU per compile
//! (ag_gemm, measured with `WEFT_TIMINGS=1`), and the linked code still carried the IBGDA and
//! GDAKI paths that the proxy fold ([`nvshmem_transport`]) then leaves O3 to delete. Prepared,
//! the definitions a kernel's NVSHMEM calls reach are linked into a module of their own, folded
//! to the transport, internalized, cleaned of dead code and written as bitcode to the
//! toolchain cache, keyed by the bitcode file, this build of weft, the target, the transport
//! and the referenced names; a later kernel with the same references links that small file.

use super::device;
use super::llvm::lazy_bitcode;
use super::nvshmem_transport::{self, DeviceTransport, MARKER};
use super::tools::GpuToolError;
use crate::pipeline::timings::time;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::targets::TargetMachine;
use inkwell::types::BasicTypeEnum;
use inkwell::AddressSpace;
use std::path::{Path, PathBuf};

/// What preparing runs after the fold: dead paths out (the folded transport switch), then
/// dead functions. The kernel's O3 runs on the result later, so this only needs to be cheap
/// and to lose nothing.
pub const CLEANUP: &str = "function(sccp,simplifycfg),globaldce";

/// NVSHMEM's device-state globals (`nvshmemi_*_d`): the host finds them by name when it
/// loads the module, so they stay external and are linked whether referenced or not.
pub fn is_device_state(name: &str) -> bool {
    name.starts_with("nvshmemi_") && name.ends_with("_d")
}

/// Links into `m` the NVSHMEM definitions that `references` (its declarations, sorted) reach,
/// from the prepared library in `dir` (prepared from `bitcode` first when it is not there; a
/// `None` dir prepares without keeping it). The proxy fold's marker comes along when the
/// library was folded.
pub fn link<'c>(ctx: &'c Context, m: &Module<'c>, references: &[String], bitcode: &Path, dir: Option<&Path>, arch: &str, transport: DeviceTransport, tm: &TargetMachine) -> Result<(), GpuToolError> {
    let path = dir.map(|d| d.join(format!("nvshmem-{}.bc", key(references, bitcode, arch, transport))));
    let stored = path.as_deref().filter(|p| p.is_file()).and_then(|p| time("nvshmem.load", || lazy_bitcode(ctx, p)).ok());
    let lib = match stored {
        Some(lib) => lib,
        None => {
            let lib = time("nvshmem.prepare", || prepare(ctx, m, references, bitcode, transport, tm))?;
            if let Some(p) = &path {
                // Losing the write only costs the next compile a preparation.
                let _ = time("nvshmem.store", || store(&lib, p));
            }
            lib
        }
    };
    Ok(time("nvshmem.link", || device::link_library(m, lib, |name| is_device_state(name) || name == MARKER))?)
}

/// The cache key of a prepared library.
fn key(references: &[String], bitcode: &Path, arch: &str, transport: DeviceTransport) -> String {
    let mut h = blake3::Hasher::new();
    h.update(crate::cache::build_id().as_bytes());
    h.update(crate::cache::file_id(bitcode).as_bytes());
    h.update(format!("{arch} {transport:?};").as_bytes());
    for r in references {
        h.update(r.as_bytes());
        h.update(b";");
    }
    h.finalize().to_hex()[..32].to_string()
}

/// A module that declares `references` as `m` does, with what they reach of `bitcode` linked
/// in, folded to `transport`, everything but the references and the device state internal,
/// and [`CLEANUP`] run.
fn prepare<'c>(ctx: &'c Context, m: &Module<'c>, references: &[String], bitcode: &Path, transport: DeviceTransport, tm: &TargetMachine) -> Result<Module<'c>, GpuToolError> {
    let lib = ctx.create_module("nvshmem.prepared");
    lib.set_triple(&m.get_triple());
    lib.set_data_layout(&m.get_data_layout());
    for name in references {
        if let Some(f) = m.get_function(name) {
            lib.add_function(name, f.get_type(), None);
        } else if let Some(g) = m.get_global(name) {
            let space = g.as_pointer_value().get_type().get_address_space();
            if let Ok(ty) = BasicTypeEnum::try_from(g.get_value_type()) {
                lib.add_global(ty, (space != AddressSpace::default()).then_some(space), name);
            }
        }
    }
    device::link_needed(ctx, &lib, bitcode)?;
    if transport == DeviceTransport::Proxy {
        time("nvshmem.fold_proxy", || nvshmem_transport::assume_proxy(ctx, &lib, tm));
    }
    device::internalize(&lib, |name| references.iter().any(|r| r == name) || is_device_state(name) || name == MARKER);
    device::optimize(&lib, tm, CLEANUP)?;
    Ok(lib)
}

/// Writes `lib` to `path` through a temporary file and a rename, so that a concurrent reader
/// finds the whole file or none.
fn store(lib: &Module, path: &Path) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp: PathBuf = path.with_extension(format!("{}.{:?}.tmp", std::process::id(), std::thread::current().id()).replace(['(', ')'], ""));
    std::fs::write(&tmp, lib.write_bitcode_to_memory().as_slice())?;
    std::fs::rename(&tmp, path)
}
