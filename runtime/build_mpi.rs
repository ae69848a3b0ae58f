//! Generates the MPI FFI (`$OUT_DIR/mpi_sys.rs`) with bindgen from the system MPI's `mpi.h`
//! (found with `mpicc --showme:incdirs`, or `$WEFT_MPI_INCLUDE`). The bindings load
//! `libmpi.so.40` at run time, so nothing links at build time and a machine without MPI still
//! builds weft; `World::mpi()` then says why it cannot run.

use std::path::PathBuf;

/// Exactly the MPI functions the `mpi` transport and its bench call.
const FUNCTIONS: &[&str] = &[
    "MPI_Init_thread", "MPI_Initialized", "MPI_Finalized", "MPI_Finalize", "MPI_Abort",
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_split_type", "MPI_Comm_split", "MPI_Comm_dup",
    "MPI_Comm_set_errhandler", "MPI_Win_set_errhandler", "MPI_Error_string",
    "MPI_Win_allocate_shared", "MPI_Win_shared_query", "MPI_Win_create", "MPI_Win_lock_all",
    "MPI_Win_flush", "MPI_Win_flush_all", "MPI_Win_sync", "MPI_Put", "MPI_Get", "MPI_Accumulate",
    "MPI_Info_create", "MPI_Info_set", "MPI_Info_free",
    "MPI_Iallreduce", "MPI_Ibarrier", "MPI_Test", "MPI_Iprobe", "MPI_Barrier",
    "MPI_Allgather", "MPI_Allreduce", "MPI_Reduce_scatter_block", "MPI_Wtime",
];

fn include_dirs() -> Option<Vec<String>> {
    if let Some(d) = std::env::var_os("WEFT_MPI_INCLUDE") {
        return Some(vec![d.to_string_lossy().into_owned()]);
    }
    let out = std::process::Command::new("mpicc").arg("--showme:incdirs").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).split_whitespace().map(String::from).collect())
}

/// Binds MPI, or records why not in `WEFT_MPI_UNBOUND` (one line) for the run-time error.
pub fn bind() {
    println!("cargo::rustc-check-cfg=cfg(weft_mpi)");
    println!("cargo::rerun-if-env-changed=WEFT_MPI_INCLUDE");
    println!("cargo::rerun-if-changed=build_mpi.rs");
    let unbound = |why: String| {
        println!("cargo::warning={why}");
        println!("cargo::rustc-env=WEFT_MPI_UNBOUND={}", why.replace(['\n', '\r'], " "));
    };
    let Some(dirs) = include_dirs() else {
        return unbound("no MPI found when weft was built (`mpicc --showme:incdirs` failed; install libopenmpi-dev with ./setup.sh, or set WEFT_MPI_INCLUDE)".into());
    };
    let Some(header) = dirs.iter().map(|d| PathBuf::from(d).join("mpi.h")).find(|p| p.is_file()) else {
        return unbound(format!("mpi.h not found in {dirs:?} when weft was built"));
    };
    println!("cargo::rerun-if-changed={}", header.display());
    let mut b = bindgen::Builder::default()
        .header(header.display().to_string())
        .clang_args(dirs.iter().map(|d| format!("-I{d}")))
        .allowlist_var("MPI_(SUCCESS|MAX_ERROR_STRING|UNDEFINED|ANY_SOURCE|ANY_TAG)")
        .allowlist_var("MPI_(THREAD_.*|COMM_TYPE_SHARED|MODE_NOCHECK)")
        .allowlist_var("OMPI_(MAJOR|MINOR|RELEASE)_VERSION")
        .dynamic_library_name("MpiLib")
        .dynamic_link_require_all(true)
        .layout_tests(false)
        .derive_default(true);
    for f in FUNCTIONS {
        b = b.allowlist_function(f);
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("mpi_sys.rs");
    match b.generate().map_err(|e| e.to_string()).and_then(|g| g.write_to_file(&out).map_err(|e| e.to_string())) {
        Ok(()) => println!("cargo::rustc-cfg=weft_mpi"),
        Err(e) => unbound(format!("bindgen could not bind {}: {e}", header.display())),
    }
}
