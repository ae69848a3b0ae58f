//! The system MPI, bound by bindgen at build time (see `runtime/build_mpi.rs`) and loaded at
//! run time. Open MPI's predefined handles (`MPI_COMM_WORLD`, `MPI_BYTE`, ...) are addresses of
//! its global objects, which bindgen cannot express, so they are looked up by symbol.

use super::error::MpiError;


#[cfg(weft_mpi)]
#[allow(non_camel_case_types, non_upper_case_globals, non_snake_case, dead_code, unsafe_op_in_unsafe_fn, clippy::all)]
pub mod raw {
    include!(concat!(env!("OUT_DIR"), "/mpi_sys.rs"));
}

#[cfg(weft_mpi)]
pub use loaded::*;

#[cfg(weft_mpi)]
mod loaded {
    use super::raw;
    use super::MpiError;
    use std::ffi::c_void;

    pub use raw::{MPI_Comm, MPI_Datatype, MPI_Info, MPI_Op, MPI_Request, MPI_Status, MPI_Win};

    /// The loaded library and the predefined handles weft uses.
    pub struct Mpi {
        /// The entry points.
        pub f: raw::MpiLib,
        /// `MPI_COMM_WORLD`.
        pub comm_world: MPI_Comm,
        /// `MPI_BYTE`.
        pub byte: MPI_Datatype,
        /// `MPI_UINT64_T`.
        pub u64: MPI_Datatype,
        /// `MPI_FLOAT`.
        pub f32: MPI_Datatype,
        /// `MPI_SUM`.
        pub sum: MPI_Op,
        /// `MPI_MAX`.
        pub max: MPI_Op,
        /// `MPI_REPLACE`.
        pub replace: MPI_Op,
        /// `MPI_INFO_NULL`.
        pub info_null: MPI_Info,
        /// `MPI_ERRORS_RETURN`.
        pub errors_return: raw::MPI_Errhandler,
        /// Open MPI's `opal_progress_yield_when_idle` (in libopen-pal), when found: whether a
        /// progress call that found nothing to do gives the core away (see `Peers::no_yield`).
        pub yield_when_idle: Option<*mut bool>,
    }

    // SAFETY: the handles are addresses of MPI's immutable global objects; calls are
    // serialised by the transport.
    unsafe impl Send for Mpi {}
    unsafe impl Sync for Mpi {}

    impl Mpi {
        /// Loads the library (`RTLD_GLOBAL`: Open MPI's plugins resolve their symbols in it).
        pub fn load() -> Result<Mpi, MpiError> {
            // `$WEFT_MPI_LIB`, else Open MPI 4's soname.
            let name = std::env::var("WEFT_MPI_LIB").unwrap_or_else(|_| "libmpi.so.40".into());
            let err = |e: &dyn std::fmt::Display| MpiError::Load { lib: name.clone(), message: e.to_string() };
            // SAFETY: loading a shared library runs its initialisers; Open MPI's are benign.
            let lib = unsafe { libloading::os::unix::Library::open(Some(&name), libc::RTLD_NOW | libc::RTLD_GLOBAL) }.map_err(|e| err(&e))?;
            let lib: libloading::Library = lib.into();
            let sym = |s: &str| -> Result<*mut c_void, MpiError> {
                let bytes = format!("{s}\0");
                // SAFETY: a data symbol; only its address is taken.
                unsafe { lib.get::<*mut c_void>(bytes.as_bytes()).map(|p| *p) }.map_err(|e| err(&format!("{s}: {e} (weft supports Open MPI)")))
            };
            let comm_world = sym("ompi_mpi_comm_world")? as MPI_Comm;
            let byte = sym("ompi_mpi_byte")? as MPI_Datatype;
            let u64 = sym("ompi_mpi_uint64_t")? as MPI_Datatype;
            let f32 = sym("ompi_mpi_float")? as MPI_Datatype;
            let sum = sym("ompi_mpi_op_sum")? as MPI_Op;
            let max = sym("ompi_mpi_op_max")? as MPI_Op;
            let replace = sym("ompi_mpi_op_replace")? as MPI_Op;
            let info_null = sym("ompi_mpi_info_null")? as MPI_Info;
            let errors_return = sym("ompi_mpi_errors_return")? as raw::MPI_Errhandler;
            // Not part of MPI: absent from another build, weft then leaves it alone.
            let yield_when_idle = sym("opal_progress_yield_when_idle").ok().map(|p| p as *mut bool);
            // SAFETY: bindgen's loader resolves every bound function or fails.
            let f = unsafe { raw::MpiLib::from_library(lib) }.map_err(|e| err(&e))?;
            Ok(Mpi { f, comm_world, byte, u64, f32, sum, max, replace, info_null, errors_return, yield_when_idle })
        }

        /// Turns an MPI return code into a typed error naming the call.
        pub fn check(&self, rc: i32, rank: i32, call: &str) -> Result<(), MpiError> {
            self.check_with(rc, rank, || call.to_string())
        }

        /// [`Mpi::check`] with the call's name made only on failure (timed loops).
        pub fn check_with(&self, rc: i32, rank: i32, call: impl FnOnce() -> String) -> Result<(), MpiError> {
            if rc == raw::MPI_SUCCESS as i32 {
                return Ok(());
            }
            let mut buf = vec![0u8; raw::MPI_MAX_ERROR_STRING as usize + 1];
            let mut len = 0;
            // SAFETY: the buffer holds MPI_MAX_ERROR_STRING bytes.
            unsafe { self.f.MPI_Error_string(rc, buf.as_mut_ptr() as *mut _, &mut len) };
            let message = String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned();
            Err(MpiError::Call { call: call(), rank, code: rc, message })
        }
    }

    /// `MPI_STATUS_IGNORE`.
    pub fn status_ignore() -> *mut MPI_Status {
        std::ptr::null_mut()
    }

    /// Constants bindgen generated.
    pub use raw::{MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_TYPE_SHARED, MPI_MODE_NOCHECK, MPI_THREAD_SERIALIZED};
}

/// Stands for the library in a build without bindings: loading is always the typed error.
#[cfg(not(weft_mpi))]
pub enum Mpi {}

#[cfg(not(weft_mpi))]
impl Mpi {
    /// Always the error saying why there are no bindings.
    pub fn load() -> Result<Mpi, MpiError> {
        Err(MpiError::Unbound { why: option_env!("WEFT_MPI_UNBOUND").unwrap_or("no bindings were generated").into() })
    }
}
