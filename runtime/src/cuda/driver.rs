//! The CUDA driver through cudarc (loaded at run time): finding the driver and the GPUs,
//! the device's context and stream, memory copies, modules and launches. Every call returns
//! a [`CudaError`] naming the driver call.

use super::error::CudaError;
use cudarc::driver::{result, sys};
use std::ffi::{c_void, CString};

/// The driver library the loader must find.
pub const DRIVER_LIB: &str = "libcuda.so.1";

/// Checks the driver library loads; cudarc panics on first use when it does not, so this
/// runs before any other driver call.
pub fn probe_driver() -> Result<(), CudaError> {
    // SAFETY: loading the NVIDIA driver runs only its initialisers.
    match unsafe { libloading::Library::new(DRIVER_LIB) } {
        Ok(_) => Ok(()),
        Err(e) => Err(CudaError::DriverNotFound { lib: DRIVER_LIB, reason: e.to_string() }),
    }
}

/// Initialises the driver and counts the GPUs; zero GPUs is [`CudaError::NoGpu`].
pub fn device_count() -> Result<usize, CudaError> {
    probe_driver()?;
    match result::init() {
        Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NO_DEVICE => return Err(CudaError::NoGpu("cuInit found no CUDA device".into())),
        r => r.map_err(CudaError::driver("cuInit"))?,
    }
    let n = result::device::get_count().map_err(CudaError::driver("cuDeviceGetCount"))?;
    if n <= 0 {
        return Err(CudaError::NoGpu("cuDeviceGetCount returned 0".into()));
    }
    Ok(n as usize)
}

/// What a GPU is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuInfo {
    /// Device ordinal.
    pub ordinal: usize,
    /// Device name.
    pub name: String,
    /// Compute capability (major, minor).
    pub cc: (i32, i32),
    /// Streaming multiprocessors.
    pub sms: u32,
    /// Memory in bytes.
    pub memory: usize,
}

/// Describes GPU `ordinal` (after [`device_count`]).
pub fn describe(ordinal: usize) -> Result<GpuInfo, CudaError> {
    let dev = result::device::get(ordinal as i32).map_err(CudaError::driver("cuDeviceGet"))?;
    // SAFETY: `dev` is a valid device handle.
    let attr = |a| unsafe { result::device::get_attribute(dev, a) }.map_err(CudaError::driver("cuDeviceGetAttribute"));
    use sys::CUdevice_attribute::*;
    Ok(GpuInfo {
        ordinal,
        name: result::device::get_name(dev).map_err(CudaError::driver("cuDeviceGetName"))?,
        cc: (attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?),
        sms: attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?.max(1) as u32,
        memory: unsafe { result::device::total_mem(dev) }.map_err(CudaError::driver("cuDeviceTotalMem"))?,
    })
}

/// One GPU with its primary context, and a stream for this process's work.
pub struct Device {
    /// What it is.
    pub info: GpuInfo,
    dev: sys::CUdevice,
    ctx: sys::CUcontext,
    /// The stream launches, copies and barriers go through.
    pub stream: sys::CUstream,
    /// Two timing events, recorded before and after a launch's kernel ([`Device::mark`]).
    marks: [sys::CUevent; 2],
}

// SAFETY: CUDA handles may be used from any thread once the context is made current there,
// which every method does first.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

/// A loaded module and its kernel.
pub struct Module {
    /// The module handle (for NVSHMEM's `cumodule_init`).
    pub module: sys::CUmodule,
    /// The kernel.
    pub func: sys::CUfunction,
}

// SAFETY: module handles belong to the context, not to a thread (see `Device`).
unsafe impl Send for Module {}
unsafe impl Sync for Module {}

impl Device {
    /// Opens GPU `ordinal` (retains its primary context, creates a stream).
    pub fn open(ordinal: usize) -> Result<Device, CudaError> {
        let info = describe(ordinal)?;
        let dev = result::device::get(ordinal as i32).map_err(CudaError::driver("cuDeviceGet"))?;
        // SAFETY: `dev` is a valid device; the context is released in Drop.
        let ctx = unsafe { result::primary_ctx::retain(dev) }.map_err(CudaError::driver("cuDevicePrimaryCtxRetain"))?;
        let mut d = Device { info, dev, ctx, stream: std::ptr::null_mut(), marks: [std::ptr::null_mut(); 2] };
        d.bind()?;
        d.stream = result::stream::create(result::stream::StreamKind::NonBlocking).map_err(CudaError::driver("cuStreamCreate"))?;
        for m in &mut d.marks {
            *m = result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT).map_err(CudaError::driver("cuEventCreate"))?;
        }
        Ok(d)
    }

    /// Makes this device's context current on the calling thread.
    pub fn bind(&self) -> Result<(), CudaError> {
        // SAFETY: the context is retained for as long as `self` lives.
        unsafe { result::ctx::set_current(self.ctx) }.map_err(CudaError::driver("cuCtxSetCurrent"))
    }

    /// Waits for everything queued on the stream.
    pub fn sync(&self) -> Result<(), CudaError> {
        unsafe { result::stream::synchronize(self.stream) }.map_err(CudaError::driver("cuStreamSynchronize"))
    }

    /// Records timing event `end` (0: before the kernel, 1: after it) on the stream.
    pub fn mark(&self, end: bool) -> Result<(), CudaError> {
        // SAFETY: the event and the stream live as long as `self`; the context is current.
        unsafe { result::event::record(self.marks[end as usize], self.stream) }.map_err(CudaError::driver("cuEventRecord"))
    }

    /// The GPU time between the two marks, once the stream has passed the second.
    pub fn marked(&self) -> Result<std::time::Duration, CudaError> {
        // SAFETY: both events were recorded on this context's stream and have completed.
        let ms = unsafe { result::event::elapsed(self.marks[0], self.marks[1]) }.map_err(CudaError::driver("cuEventElapsedTime"))?;
        Ok(std::time::Duration::from_secs_f64(f64::from(ms.max(0.0)) * 1e-3))
    }

    /// Whether everything queued on the stream has finished, without waiting.
    pub fn stream_done(&self) -> Result<bool, CudaError> {
        self.bind()?;
        // SAFETY: the stream lives as long as `self`.
        match unsafe { sys::cuStreamQuery(self.stream) } {
            sys::CUresult::CUDA_SUCCESS => Ok(true),
            sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            e => Err(CudaError::driver("cuStreamQuery")(cudarc::driver::DriverError(e))),
        }
    }

    // Copies and fills go on this process's stream (it does not synchronise with the legacy
    // default stream), ordered with the launches and NVSHMEM barriers queued there.

    /// Copies host bytes to device address `dst` and waits.
    pub fn write(&self, dst: u64, data: &[u8]) -> Result<(), CudaError> {
        self.bind()?;
        unsafe { result::memcpy_htod_async(dst, data, self.stream) }.map_err(CudaError::driver("cuMemcpyHtoDAsync"))?;
        self.sync()
    }

    /// Copies from device address `src` into host bytes and waits.
    pub fn read(&self, src: u64, out: &mut [u8]) -> Result<(), CudaError> {
        self.bind()?;
        unsafe { result::memcpy_dtoh_async(out, src, self.stream) }.map_err(CudaError::driver("cuMemcpyDtoHAsync"))?;
        self.sync()
    }

    /// Queues zeroing `bytes` at device address `dst`.
    pub fn zero(&self, dst: u64, bytes: usize) -> Result<(), CudaError> {
        self.bind()?;
        unsafe { result::memset_d8_async(dst, 0, bytes, self.stream) }.map_err(CudaError::driver("cuMemsetD8Async"))
    }

    /// Loads a cubin and finds `symbol` in it.
    pub fn load(&self, image: &[u8], symbol: &str) -> Result<Module, CudaError> {
        self.bind()?;
        // SAFETY: `image` is an ELF cubin; the driver copies what it needs.
        let module = unsafe { result::module::load_data(image.as_ptr() as *const c_void) }.map_err(CudaError::driver("cuModuleLoadData"))?;
        let name = CString::new(symbol).map_err(|_| CudaError::Driver { call: "cuModuleGetFunction", message: format!("symbol {symbol:?} has a NUL") })?;
        match unsafe { result::module::get_function(module, name) } {
            Ok(func) => Ok(Module { module, func }),
            Err(e) => {
                let _ = unsafe { result::module::unload(module) };
                Err(CudaError::driver("cuModuleGetFunction")(e))
            }
        }
    }

    /// The device address and size of global `name` in `m`, or `None` when it has none.
    pub fn global(&self, m: &Module, name: &str) -> Result<Option<(u64, usize)>, CudaError> {
        self.bind()?;
        let c = CString::new(name).map_err(|_| CudaError::Driver { call: "cuModuleGetGlobal", message: format!("name {name:?} has a NUL") })?;
        // SAFETY: `m.module` is a loaded module of this context.
        match unsafe { result::module::get_global(m.module, c) } {
            Ok(g) => Ok(Some(g)),
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NOT_FOUND => Ok(None),
            Err(e) => Err(CudaError::driver("cuModuleGetGlobal")(e)),
        }
    }

    /// Unloads a module.
    pub fn unload(&self, m: &Module) {
        if self.bind().is_ok() {
            let _ = unsafe { result::module::unload(m.module) };
        }
    }

    /// Lets `m`'s kernel use `bytes` of dynamic shared memory per CTA: above 48 KiB a kernel
    /// must opt in before its launch asks for it.
    pub fn allow_dynamic_smem(&self, m: &Module, bytes: u32) -> Result<(), CudaError> {
        if bytes <= 48 * 1024 {
            return Ok(());
        }
        self.bind()?;
        let attr = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
        // SAFETY: `m.func` is a function of a loaded module.
        unsafe { result::function::set_function_attribute(m.func, attr, bytes as i32) }.map_err(CudaError::driver("cuFuncSetAttribute"))
    }

    /// How many CTAs of `m`'s kernel with `threads` threads and `smem` bytes of dynamic shared
    /// memory can be resident at once on one SM.
    pub fn resident_per_sm(&self, m: &Module, threads: u32, smem: u32) -> Result<u64, CudaError> {
        let per_sm = unsafe { result::occupancy::max_active_block_per_multiprocessor(m.func, threads as i32, smem as usize) }
            .map_err(CudaError::driver("cuOccupancyMaxActiveBlocksPerMultiprocessor"))?;
        Ok(per_sm.max(0) as u64)
    }

    /// Queues `m`'s kernel on the stream; cooperative launches guarantee every CTA is resident.
    ///
    /// # Safety
    /// `params` must point to one value per kernel parameter, of the parameter's type.
    pub unsafe fn launch(&self, m: &Module, grid: [u32; 3], threads: u32, smem: u32, cooperative: bool, params: &mut [*mut c_void]) -> Result<(), CudaError> {
        self.bind()?;
        let (g, b) = ((grid[0], grid[1], grid[2]), (threads, 1, 1));
        if cooperative {
            unsafe { result::launch_cooperative_kernel(m.func, g, b, smem, self.stream, params) }.map_err(CudaError::driver("cuLaunchCooperativeKernel"))
        } else {
            unsafe { result::launch_kernel(m.func, g, b, smem, self.stream, params) }.map_err(CudaError::driver("cuLaunchKernel"))
        }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        if self.bind().is_ok() {
            for m in self.marks.iter().filter(|m| !m.is_null()) {
                let _ = unsafe { result::event::destroy(*m) };
            }
            let _ = unsafe { result::stream::destroy(self.stream) };
        }
        let _ = unsafe { result::primary_ctx::release(self.dev) };
    }
}
