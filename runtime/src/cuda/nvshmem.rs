//! NVSHMEM's host library, bound by bindgen at build time (see `runtime/build.rs`) and loaded
//! at run time from `libnvshmem_host.so.3`.
//!
//! `nvshmemx_init_attr` / `nvshmem_finalize` are header inlines over `libnvshmem_device.a`
//! (which needs nvcc to link), so weft uses the host library's own entry points,
//! `nvshmemx_hostlib_init_attr` / `nvshmemx_hostlib_finalize`, as NVSHMEM's Python bindings
//! do; each loaded cubin gets NVSHMEM's device state through `nvshmemx_cumodule_init`.
//! Without the bindings (no headers when weft was built) loading is a typed error.

use super::error::CudaError;
use std::path::PathBuf;

/// The host library's file name.
pub const HOST_LIB: &str = "libnvshmem_host.so.3";

/// Where the host library is looked for: `$WEFT_NVSHMEM_LIB`, else `.tools/nvshmem/lib`
/// (`$WEFT_TOOLS_DIR` overrides `.tools`) when it is there, else the loader's search path.
pub fn library_path() -> PathBuf {
    if let Some(p) = std::env::var_os("WEFT_NVSHMEM_LIB") {
        return PathBuf::from(p);
    }
    let tools = std::env::var_os("WEFT_TOOLS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.tools")));
    let local = tools.join("nvshmem/lib").join(HOST_LIB);
    if local.is_file() { local } else { PathBuf::from(HOST_LIB) }
}

#[cfg(weft_nvshmem)]
#[allow(non_camel_case_types, non_upper_case_globals, non_snake_case, dead_code, unsafe_op_in_unsafe_fn, clippy::all)]
mod sys {
    include!(concat!(env!("OUT_DIR"), "/nvshmem_sys.rs"));
}

/// The loaded host library.
#[cfg(weft_nvshmem)]
pub struct Nvshmem {
    lib: sys::NvshmemHost,
}

/// Stands for the host library in a build without bindings: it cannot be made.
#[cfg(not(weft_nvshmem))]
pub struct Nvshmem {
    never: std::convert::Infallible,
}

#[cfg(not(weft_nvshmem))]
impl Nvshmem {
    /// Always the error saying why there are no bindings.
    pub fn load() -> Result<Nvshmem, CudaError> {
        Err(CudaError::NvshmemUnbound { why: option_env!("WEFT_NVSHMEM_UNBOUND").unwrap_or("no bindings were generated").into() })
    }

    /// Unreachable: no value of this type exists.
    pub fn get(&self) -> &std::convert::Infallible {
        &self.never
    }
}

#[cfg(weft_nvshmem)]
fn check(call: &'static str, status: i32) -> Result<(), CudaError> {
    if status == 0 { Ok(()) } else { Err(CudaError::Nvshmem { call, message: format!("status {status}") }) }
}

#[cfg(weft_nvshmem)]
impl Nvshmem {
    /// Loads the host library (see [`library_path`]).
    pub fn load() -> Result<Nvshmem, CudaError> {
        let path = library_path();
        // SAFETY: NVSHMEM's initialisers only register its plugins; every symbol we bind is
        // resolved here (require_all), so a wrong library fails now, not at a call.
        match unsafe { sys::NvshmemHost::new(&path) } {
            Ok(lib) => Ok(Nvshmem { lib }),
            Err(e) => Err(CudaError::NvshmemNotFound { path: path.display().to_string(), reason: e.to_string() }),
        }
    }

    /// Rank 0's new unique id, for the others to join with.
    pub fn unique_id(&self) -> Result<[u8; super::bootstrap::UID_BYTES], CudaError> {
        let mut uid = sys::nvshmemx_uniqueid_t { version: (1 << 16) + std::mem::size_of::<sys::nvshmemx_uniqueid_t>() as i32, ..Default::default() };
        check("nvshmemx_get_uniqueid", unsafe { self.lib.nvshmemx_get_uniqueid(&mut uid) })?;
        // SAFETY: the id is 128 bytes of plain data.
        Ok(unsafe { std::mem::transmute::<sys::nvshmemx_uniqueid_t, [u8; 128]>(uid) })
    }

    /// Initialises NVSHMEM on CUDA device `device`: with a unique id (every rank passes the
    /// same one) or, with `uid` `None`, through NVSHMEM's environment-driven bootstrap.
    pub fn init(&self, uid: Option<(&[u8; super::bootstrap::UID_BYTES], usize, usize)>, device: usize) -> Result<(), CudaError> {
        // The versions NVSHMEMX_INIT_ATTR_INITIALIZER writes (v2 attributes and arguments).
        let mut attr = sys::nvshmemx_init_attr_t { version: (2 << 16) + std::mem::size_of::<sys::nvshmemx_init_attr_t>() as i32, ..Default::default() };
        attr.args.version = (2 << 16) + std::mem::size_of_val(&attr.args) as i32;
        attr.args.uid_args.version = (1 << 16) + std::mem::size_of_val(&attr.args.uid_args) as i32;
        attr.args.uid_args.myrank = -1;
        attr.args.uid_args.nranks = -1;
        attr.args.cuda_device_id = device as i32;
        let Some((bytes, rank, size)) = uid else {
            return check("nvshmemx_hostlib_init_attr", unsafe { self.lib.nvshmemx_hostlib_init_attr(0, &mut attr) });
        };
        // SAFETY: the id is 128 bytes of plain data, as `unique_id` returned them.
        let id = unsafe { std::mem::transmute::<[u8; 128], sys::nvshmemx_uniqueid_t>(*bytes) };
        check("nvshmemx_set_attr_uniqueid_args", unsafe { self.lib.nvshmemx_set_attr_uniqueid_args(rank as i32, size as i32, &id, &mut attr) })?;
        let flags = sys::flags::NVSHMEMX_INIT_WITH_UNIQUEID as u32;
        check("nvshmemx_hostlib_init_attr", unsafe { self.lib.nvshmemx_hostlib_init_attr(flags, &mut attr) })
    }

    /// This PE and the number of PEs.
    pub fn pe(&self) -> (usize, usize) {
        unsafe { (self.lib.nvshmem_my_pe() as usize, self.lib.nvshmem_n_pes() as usize) }
    }

    /// Allocates `bytes` on every PE (collective); `None` when the symmetric heap is full.
    pub fn malloc(&self, bytes: usize) -> Option<u64> {
        let p = unsafe { self.lib.nvshmem_malloc(bytes) };
        (!p.is_null()).then_some(p as u64)
    }

    /// Frees a symmetric allocation (collective).
    pub fn free(&self, ptr: u64) {
        unsafe { self.lib.nvshmem_free(ptr as *mut std::ffi::c_void) }
    }

    /// Gives a loaded module NVSHMEM's device state.
    pub fn module_init(&self, module: cudarc::driver::sys::CUmodule) -> Result<(), CudaError> {
        check("nvshmemx_cumodule_init", unsafe { self.lib.nvshmemx_cumodule_init(module as sys::CUmodule) })
    }

    /// Releases a module's NVSHMEM state before it is unloaded.
    pub fn module_finalize(&self, module: cudarc::driver::sys::CUmodule) {
        unsafe { self.lib.nvshmemx_cumodule_finalize(module as sys::CUmodule) };
    }

    /// Queues a barrier of every PE on `stream`.
    pub fn barrier_all_on_stream(&self, stream: cudarc::driver::sys::CUstream) {
        unsafe { self.lib.nvshmemx_barrier_all_on_stream(stream as sys::cudaStream_t) }
    }

    /// Finalises NVSHMEM (collective).
    pub fn finalize(&self) {
        unsafe { self.lib.nvshmemx_hostlib_finalize() }
    }

    /// Ends every PE's process with `status` (NVSHMEM's job-wide exit).
    pub fn global_exit(&self, status: i32) {
        unsafe { self.lib.nvshmem_global_exit(status) }
    }
}

/// `NVSHMEMX_TEAM_NODE` (device_host/nvshmem_common.cuh): the PEs of this node.
#[cfg(weft_nvshmem)]
const TEAM_NODE: i32 = 2;

#[cfg(weft_nvshmem)]
impl super::preflight::PeerPointers for Nvshmem {
    fn ptr(&self, addr: u64, pe: usize) -> u64 {
        // SAFETY: host-callable; reads NVSHMEM's heap table only.
        unsafe { self.lib.nvshmem_ptr(addr as *const std::ffi::c_void, pe as i32) as u64 }
    }

    fn mc_ptr(&self, addr: u64) -> u64 {
        // SAFETY: as `ptr`.
        unsafe { self.lib.nvshmemx_mc_ptr(TEAM_NODE, addr as *const std::ffi::c_void) as u64 }
    }
}

#[cfg(all(test, weft_nvshmem))]
mod tests {
    /// The sizes NVSHMEM's headers assert (`static_assert` in nvshmem_types.h and
    /// nvshmem_uniqueid.h): the bound structs are the ones the library reads.
    #[test]
    fn bound_structs_have_nvshmems_sizes() {
        assert_eq!(std::mem::size_of::<super::sys::nvshmemx_uniqueid_t>(), super::super::bootstrap::UID_BYTES);
        assert_eq!(std::mem::size_of::<super::sys::nvshmemx_init_attr_t>(), 144);
        assert_eq!(super::sys::flags::NVSHMEMX_INIT_WITH_UNIQUEID, 1 << 3);
        assert_eq!((super::sys::NVSHMEM_VENDOR_MAJOR_VERSION, super::sys::NVSHMEM_VENDOR_MINOR_VERSION), (3, 8));
    }

    /// The real host library (no GPU needed to load it) exports every bound symbol.
    #[test]
    fn host_library_resolves_every_bound_symbol() {
        let path = super::library_path();
        if !path.is_file() {
            return eprintln!("skipped: {} not installed (run ./setup.sh)", path.display());
        }
        if let Err(e) = super::Nvshmem::load() {
            panic!("{e}");
        }
    }
}

#[cfg(all(test, not(weft_nvshmem)))]
mod unbound_tests {
    /// A build without NVSHMEM's headers says so, and how to get them, instead of failing.
    #[test]
    fn load_says_the_headers_were_missing() {
        let text = super::Nvshmem::load().err().map(|e| e.to_string()).unwrap_or_default();
        assert!(text.contains("NVSHMEM headers not found in") && text.contains("run ./setup.sh"), "{text}");
    }
}
