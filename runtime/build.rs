//! Generates the NVSHMEM host FFI (`$OUT_DIR/nvshmem_sys.rs`) with bindgen from the headers of
//! the `nvidia-nvshmem-cu12` wheel that `./setup.sh` puts in `.tools/nvshmem/include`. The
//! bindings load `libnvshmem_host.so.3` at run time, so nothing links at build time. Without
//! the headers the build still succeeds (no `weft_nvshmem` cfg) and `World::cuda()` says to
//! run `./setup.sh`; setup.sh touches this file when it installs them, so the next build binds.

use std::path::{Path, PathBuf};

#[path = "build_mpi.rs"]
mod mpi;

/// Exactly the NVSHMEM host functions the CUDA transport calls.
const FUNCTIONS: &[&str] = &[
    "nvshmemx_hostlib_init_attr",
    "nvshmemx_hostlib_finalize",
    "nvshmemx_get_uniqueid",
    "nvshmemx_set_attr_uniqueid_args",
    "nvshmem_my_pe",
    "nvshmem_n_pes",
    "nvshmem_malloc",
    "nvshmem_free",
    "nvshmemx_cumodule_init",
    "nvshmemx_cumodule_finalize",
    "nvshmemx_barrier_all_on_stream",
    "nvshmem_ptr",
    "nvshmemx_mc_ptr",
    "nvshmem_global_exit",
];

fn include_dir(manifest: &Path) -> PathBuf {
    match std::env::var_os("WEFT_TOOLS_DIR") {
        Some(d) => PathBuf::from(d),
        None => manifest.parent().unwrap_or(Path::new(".")).join(".tools"),
    }
    .join("nvshmem/include")
}

fn main() {
    mpi::bind();
    println!("cargo::rustc-check-cfg=cfg(weft_nvshmem)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=WEFT_TOOLS_DIR");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let include = include_dir(&manifest);
    let wrapper = manifest.join("src/cuda/nvshmem.h");
    let shim = manifest.join("src/cuda/shim");
    // Why there are no bindings, for the run-time error (one line: it travels in an env var).
    let unbound = |why: String| {
        println!("cargo::warning={why}");
        println!("cargo::rustc-env=WEFT_NVSHMEM_UNBOUND={}", why.replace(['\n', '\r'], " "));
    };
    if !include.join("nvshmemx.h").is_file() {
        return unbound(format!("NVSHMEM headers not found in {} when weft was built", include.display()));
    }
    println!("cargo::rerun-if-changed={}", include.join("non_abi/nvshmem_version.h").display());
    println!("cargo::rerun-if-changed={}", wrapper.display());
    println!("cargo::rerun-if-changed={}", shim.display());
    let mut b = bindgen::Builder::default()
        .header(wrapper.display().to_string())
        .clang_args(["-x", "c++", "-std=c++17"])
        .clang_arg(format!("-I{}", shim.display()))
        .clang_arg(format!("-I{}", include.display()))
        .allowlist_type("nvshmemx_init_attr_t")
        .allowlist_type("nvshmemx_uniqueid_t")
        .allowlist_var("NVSHMEM_VENDOR_(MAJOR|MINOR|PATCH)_VERSION")
        .allowlist_item("flags")
        .constified_enum_module("flags")
        .dynamic_library_name("NvshmemHost")
        .dynamic_link_require_all(true)
        .layout_tests(false)
        .derive_default(true);
    for f in FUNCTIONS {
        b = b.allowlist_function(f);
    }
    // Headers that do not parse (a different NVSHMEM) are reported at run time, not here: a
    // CPU-only build must never fail because of the GPU transport.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("nvshmem_sys.rs");
    match b.generate().map_err(|e| e.to_string()).and_then(|g| g.write_to_file(&out).map_err(|e| e.to_string())) {
        Ok(()) => println!("cargo::rustc-cfg=weft_nvshmem"),
        Err(e) => unbound(format!("bindgen could not bind NVSHMEM's headers in {}: {e}", include.display())),
    }
}
