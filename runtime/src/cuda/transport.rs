//! The CUDA transport proper: this process is one NVSHMEM PE on one GPU. Allocations are
//! `nvshmem_malloc` (collective, zeroed before any peer can write), host copies reach only
//! this rank's part, and a launch is collective: every PE's earlier host writes are done
//! before any kernel starts, and it returns when every PE's kernel has finished — the
//! ordering `local` gives, so kernels and host code run unchanged on either transport.
//!
//! Every NVSHMEM collective (malloc, free, barrier, module init, launch) is issued under one
//! lock, so one World's calls reach NVSHMEM in one order; callers that share a World across
//! threads must still agree on that order across PEs (the cuda tests run all their bodies
//! in one test, in order). Each wait on the stream is bounded by the watchdog
//! ([`super::watchdog`]), and each launch is checked first ([`super::preflight`]); a check
//! that fails on one PE only leaves the others in the next barrier until its deadline.

use super::bootstrap::{self, Bootstrap};
use super::driver::{Device, Module};
use super::nvshmem::Nvshmem;
use super::device_transport;
use super::preflight::{check_co_resident, check_peer_access};
use super::watchdog::{self, Waiting, Watched};
use super::{arch_for, CudaError, CudaOptions};
use crate::buffer::RawBuf;
use crate::copy_engine::cuda::SideStream;
use crate::copy_engine::stream_ops::lower;
use crate::copy_engine::{At, CopyPlan};
use super::preflight::PeerPointers;
use crate::launch::{Arg, GpuCode, GpuParam, KernelCode, LaunchOptions, LaunchReport, Launchable};
use crate::topology::Topology;
use crate::transport::Transport;
use crate::RuntimeError;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// NVSHMEM is initialised once per process: every `World::cuda()` alive shares the PE.
enum Slot {
    Never,
    Alive(Weak<Pe>),
    Finalized,
}

static SLOT: Mutex<Slot> = Mutex::new(Slot::Never);

fn slot() -> MutexGuard<'static, Slot> {
    SLOT.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long `nvshmem_global_exit` may take before the process ends itself.
const GLOBAL_EXIT_GRACE: Duration = Duration::from_secs(3);

/// This process's PE.
struct Pe {
    nv: Nvshmem,
    dev: Device,
    rank: usize,
    topology: Topology,
    arch: &'static str,
    /// This PE's share of the GPU's SMs (all of them unless PEs share the GPU).
    sms: u64,
    /// How long a kernel, and a barrier of every PE, may take before the watchdog ends the job.
    deadline: Duration,
    barrier_deadline: Duration,
    /// NVSHMEM is initialised for serialized threads: one call at a time, and every
    /// collective of this PE under this lock.
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Live allocations: id -> (device address, bytes).
    live: HashMap<u64, (u64, usize)>,
    next_id: u64,
    /// Loaded kernels, kept so `Arc::ptr_eq` stays meaningful.
    modules: Vec<(Arc<GpuCode>, Module)>,
}

/// The `cuda` transport (a handle on the process's PE).
pub struct CudaTransport {
    pe: Arc<Pe>,
}

impl CudaTransport {
    /// Joins (or reuses) this process's PE.
    pub fn open(nv: Nvshmem, gpus: usize, opts: CudaOptions) -> Result<Arc<dyn Transport>, CudaError> {
        let mut s = slot();
        match &*s {
            Slot::Alive(w) => return w.upgrade().map(|pe| Arc::new(CudaTransport { pe }) as Arc<dyn Transport>).ok_or(CudaError::Finalized),
            Slot::Finalized => return Err(CudaError::Finalized),
            Slot::Never => {}
        }
        let pe = Arc::new(Pe::init(nv, gpus, opts)?);
        *s = Slot::Alive(Arc::downgrade(&pe));
        Ok(Arc::new(CudaTransport { pe }))
    }
}

impl Pe {
    fn init(nv: Nvshmem, gpus: usize, opts: CudaOptions) -> Result<Pe, CudaError> {
        let p = &opts.placement;
        let ordinal = opts.device.unwrap_or(p.local_rank);
        if ordinal >= gpus {
            return Err(CudaError::DeviceOutOfRange { local_rank: p.local_rank, device: ordinal, count: gpus });
        }
        let dev = Device::open(ordinal)?;
        let info = &dev.info;
        let arch = arch_for(info.cc).ok_or_else(|| CudaError::UnsupportedGpu { device: ordinal, name: info.name.clone(), major: info.cc.0, minor: info.cc.1 })?;
        match &p.bootstrap {
            Bootstrap::NvshmemEnv => nv.init(None, ordinal)?,
            Bootstrap::UidInProcess => nv.init(Some((&nv.unique_id()?, p.rank, p.size)), ordinal)?,
            Bootstrap::UidFile(path) => {
                let uid = if p.rank == 0 {
                    let uid = nv.unique_id()?;
                    bootstrap::publish_uid(path, &uid)?;
                    uid
                } else {
                    bootstrap::await_uid(path, p.uid_timeout)?
                };
                let joined = nv.init(Some((&uid, p.rank, p.size)), ordinal);
                // Init returns once every PE has joined, so nobody needs the file any more.
                if p.rank == 0 {
                    let _ = std::fs::remove_file(path);
                }
                joined?;
            }
        }
        let (rank, size) = nv.pe();
        if p.bootstrap != Bootstrap::NvshmemEnv && (rank, size) != (p.rank, p.size) {
            nv.finalize();
            return Err(super::BootstrapError::Inconsistent(format!("NVSHMEM made this process PE {rank} of {size}, the environment says rank {} of {}", p.rank, p.size)).into());
        }
        let local_size = if size % p.local_size == 0 { p.local_size } else { size };
        let topology = Topology { nodes: size / local_size, local_size };
        let sms = (dev.info.sms as usize / super::pes_per_gpu(opts.pes_per_gpu, opts.device.is_some(), local_size, gpus)).max(1) as u64;
        Ok(Pe { nv, dev, rank, topology, arch, sms, deadline: opts.deadline, barrier_deadline: opts.barrier_deadline, state: Mutex::new(State::default()) })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A collective barrier of every PE, after everything this PE queued, then a wait
    /// bounded by the watchdog (`kernel` names the launch it belongs to). One PE has nobody to
    /// meet: it only waits for its stream.
    fn barrier(&self, kernel: &str) -> Result<(), CudaError> {
        self.dev.bind()?;
        if self.topology.world_size() > 1 {
            self.nv.barrier_all_on_stream(self.dev.stream);
        }
        watchdog::wait(self, kernel, self.rank, Waiting::Barrier, self.barrier_deadline)
    }

    /// The device address of `len` bytes at `offset` in a live allocation.
    fn span(&self, buf: RawBuf, offset: usize, len: usize) -> Result<u64, RuntimeError> {
        let Some(&(addr, bytes)) = self.state().live.get(&buf.id) else {
            return Err(RuntimeError::BadLaunch { kernel: "-".into(), message: format!("allocation #{} is not live on the cuda transport", buf.id) });
        };
        if offset.checked_add(len).is_none_or(|end| end > bytes) {
            return Err(RuntimeError::SizeMismatch { expected: bytes, got: offset.saturating_add(len) });
        }
        Ok(addr + offset as u64)
    }

    /// The loaded module of `code`, loading it (and giving it NVSHMEM's state) on first use.
    fn module<'a>(&self, st: &'a mut State, code: &Arc<GpuCode>) -> Result<&'a Module, CudaError> {
        if let Some(i) = st.modules.iter().position(|(c, _)| Arc::ptr_eq(c, code) || **c == **code) {
            return Ok(&st.modules[i].1);
        }
        let m = self.dev.load(&code.image, &code.symbol)?;
        let init = self.dev.allow_dynamic_smem(&m, code.dynamic_smem).and_then(|()| self.nv.module_init(m.module));
        if let Err(e) = init.and_then(|()| self.check_transport(&m, &code.symbol)) {
            self.dev.unload(&m);
            return Err(e);
        }
        st.modules.push((code.clone(), m));
        Ok(&st.modules[st.modules.len() - 1].1)
    }
}

impl Pe {
    /// For a module compiled for NVSHMEM's proxy transport (it has the marker), checks that
    /// NVSHMEM selected that transport; see [`device_transport`].
    fn check_transport(&self, m: &Module, kernel: &str) -> Result<(), CudaError> {
        let Some((marker, _)) = self.dev.global(m, device_transport::MARKER)? else { return Ok(()) };
        let read_u32 = |addr: u64| -> Result<u32, CudaError> {
            let mut b = [0u8; 4];
            self.dev.read(addr, &mut b)?;
            Ok(u32::from_le_bytes(b))
        };
        let offset = read_u32(marker)? as u64;
        let missing = || CudaError::Driver { call: "cuModuleGetGlobal", message: format!("kernel `{kernel}` has {} but no NVSHMEM device state within it", device_transport::MARKER) };
        let (state, size) = self.dev.global(m, device_transport::STATE)?.ok_or_else(missing)?;
        if offset + 4 > size as u64 {
            return Err(missing());
        }
        device_transport::check_proxy(kernel, self.rank, read_u32(state + offset)?)
    }
}

impl Watched for Pe {
    fn stream_done(&self) -> Result<bool, CudaError> {
        self.dev.stream_done()
    }

    fn global_exit(&self, status: i32) {
        // With a kernel still spinning on the GPU, nvshmem_global_exit itself was seen to hang
        // (4 PEs on one H200): end this process anyway once it has had its chance. Where it
        // returns instead, the caller gets the watchdog's error as before.
        let returned = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = returned.clone();
        std::thread::spawn(move || {
            std::thread::sleep(GLOBAL_EXIT_GRACE);
            if seen.load(std::sync::atomic::Ordering::Acquire) {
                return;
            }
            eprintln!("weft: nvshmem_global_exit did not return within {} s; ending this process", GLOBAL_EXIT_GRACE.as_secs());
            // SAFETY: ends the process without running destructors that could wait on the GPU.
            unsafe { libc::_exit(status) }
        });
        self.nv.global_exit(status);
        returned.store(true, std::sync::atomic::Ordering::Release);
    }
}

impl Drop for Pe {
    fn drop(&mut self) {
        *slot() = Slot::Finalized;
        let st = std::mem::take(&mut *self.state());
        if self.dev.bind().is_ok() {
            for (_, m) in &st.modules {
                self.nv.module_finalize(m.module);
                self.dev.unload(m);
            }
            self.nv.finalize();
        }
    }
}

/// One kernel parameter's value, checked against what the kernel takes.
fn param(kernel: &str, i: usize, want: GpuParam, arg: &Arg, pe: &Pe) -> Result<u64, RuntimeError> {
    let bad = |what: &str| RuntimeError::BadLaunch { kernel: kernel.into(), message: format!("argument {i} is {arg:?}, but the kernel takes {what}") };
    match (want, arg) {
        (GpuParam::Ptr, Arg::Buf(b)) => pe.span(*b, 0, 0),
        (GpuParam::Ptr, _) => Err(bad("a buffer")),
        (GpuParam::Scalar(4), Arg::I32(_) | Arg::F32(_)) | (GpuParam::Scalar(8), Arg::I64(_) | Arg::U64(_)) => Ok(arg.slot(std::ptr::null_mut())),
        (GpuParam::Scalar(n), _) => Err(bad(&format!("a {n}-byte scalar"))),
    }
}

impl Transport for CudaTransport {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn topology(&self) -> Topology {
        self.pe.topology
    }

    fn host_ranks(&self) -> std::ops::Range<usize> {
        self.pe.rank..self.pe.rank + 1
    }

    fn gpu_arch(&self) -> Option<&'static str> {
        Some(self.pe.arch)
    }

    fn gpu_sms(&self) -> Option<usize> {
        Some(self.pe.sms as usize)
    }

    fn alloc(&self, bytes: usize) -> Result<RawBuf, RuntimeError> {
        let pe = &*self.pe;
        let mut st = pe.state();
        pe.dev.bind()?;
        let addr = pe.nv.malloc(bytes.max(1)).ok_or_else(|| CudaError::Nvshmem {
            call: "nvshmem_malloc",
            message: format!("no room for {bytes} bytes in the symmetric heap (raise NVSHMEM_SYMMETRIC_SIZE)"),
        })?;
        // Zeroed on every PE before any PE can write into a peer's part.
        pe.dev.zero(addr, bytes.max(1)).and_then(|_| pe.barrier("nvshmem_malloc"))?;
        st.next_id += 1;
        let id = st.next_id;
        st.live.insert(id, (addr, bytes));
        // The offset is the device address: the GPU heap is addressed from 0.
        Ok(RawBuf { id, offset: addr as usize, bytes })
    }

    fn free(&self, buf: RawBuf) {
        let pe = &*self.pe;
        // Held across nvshmem_free: it is collective, ordered with the other collectives.
        let mut st = pe.state();
        if let Some((addr, _)) = st.live.remove(&buf.id)
            && pe.dev.bind().is_ok()
        {
            pe.nv.free(addr);
        }
    }

    fn write_bytes(&self, buf: RawBuf, _rank: usize, offset: usize, data: &[u8]) -> Result<(), RuntimeError> {
        let addr = self.pe.span(buf, offset, data.len())?;
        Ok(self.pe.dev.write(addr, data)?)
    }

    fn read_bytes(&self, buf: RawBuf, _rank: usize, offset: usize, out: &mut [u8]) -> Result<(), RuntimeError> {
        let addr = self.pe.span(buf, offset, out.len())?;
        Ok(self.pe.dev.read(addr, out)?)
    }

    fn launch(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], _opts: &LaunchOptions) -> Result<LaunchReport, RuntimeError> {
        self.launch_on_streams(kernel, grid, args, None)
    }

    fn launch_with_copies(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], _opts: &LaunchOptions, plan: &CopyPlan) -> Result<LaunchReport, RuntimeError> {
        self.launch_on_streams(kernel, grid, args, Some(plan))
    }
}

impl CudaTransport {
    /// A launch on the PE's stream, with this PE's queue of `plan` on a side stream beside it.
    fn launch_on_streams(&self, kernel: &Launchable, grid: [u32; 3], args: &[Arg], plan: Option<&CopyPlan>) -> Result<LaunchReport, RuntimeError> {
        let pe = &*self.pe;
        let needs = format!("a cubin for {}", pe.arch);
        let code = match &kernel.code {
            KernelCode::Gpu(g) if g.arch == pe.arch => g,
            _ => return Err(kernel.wrong_code("cuda", &needs)),
        };
        let bad = |message: String| RuntimeError::BadLaunch { kernel: kernel.name.clone(), message };
        if grid.contains(&0) {
            return Err(bad(format!("grid {grid:?} must be non-empty")));
        }
        if args.len() != code.params.len() {
            return Err(bad(format!("{} arguments given, the kernel takes {}", args.len(), code.params.len())));
        }
        let mut slots = code.params.iter().zip(args).enumerate().map(|(i, (&p, a))| param(&kernel.name, i, p, a, pe)).collect::<Result<Vec<u64>, _>>()?;
        let mut st = pe.state();
        let m = pe.module(&mut st, code)?;
        let ctas = grid.iter().map(|&g| g as u64).product::<u64>();
        if code.cooperative {
            check_co_resident(&kernel.name, &pe.dev.info.name, ctas, pe.dev.resident_per_sm(m, code.threads(), code.dynamic_smem)?, pe.sms)?;
        }
        let bufs: Vec<u64> = code.params.iter().zip(&slots).filter(|(p, _)| **p == GpuParam::Ptr).map(|(_, &a)| a).collect();
        check_peer_access(&kernel.name, code, pe.rank, pe.topology.world_size(), &bufs, &pe.nv)?;
        // The tensor maps follow the arguments (64-byte aligned, as their `.param`s are).
        let mut maps = super::tma_launch::encode_maps(&kernel.name, &code.tma, &slots)?;
        // Each parameter points at its 8-byte slot; 4-byte scalars are its low half.
        let mut params: Vec<*mut c_void> = slots.iter_mut().map(|s| s as *mut u64 as *mut c_void).collect();
        params.extend(maps.iter_mut().map(|m| m as *mut _ as *mut c_void));
        // Peer addresses of this PE's queue, before anything is queued: an unreachable peer
        // (another node: no P2P path for the copy engine) is an error, not a fault.
        let ops = match plan {
            Some(p) => Some(lower(pe.rank, p.queue(pe.rank), &|at: At, peer: usize| {
                // The allocation's offset is its device address on this transport.
                let local = (at.buf.offset + at.offset) as u64;
                if peer == pe.rank { Some(local) } else { Some(pe.nv.ptr(local, peer)).filter(|&a| a != 0) }
            })?),
            None => None,
        };
        let start = Instant::now();
        pe.barrier(&kernel.name)?;
        pe.dev.mark(false)?;
        let mut side = ops.as_ref().map(|_| SideStream::open(pe.dev.stream)).transpose()?;
        // SAFETY: one slot per parameter, of the parameter's size, checked against `code.params`.
        unsafe { pe.dev.launch(m, grid, code.threads(), code.dynamic_smem, code.cooperative, &mut params) }?;
        if let (Some(s), Some(ops)) = (side.as_mut(), &ops) {
            s.queue(ops)?;
            // The launch stream waits for the transfers too, so the watchdog's wait covers both.
            s.join_into(pe.dev.stream)?;
        }
        pe.dev.mark(true)?;
        watchdog::wait(pe, &kernel.name, pe.rank, Waiting::Kernel, pe.deadline)?;
        let device = pe.dev.marked()?;
        pe.barrier(&kernel.name)?;
        Ok(LaunchReport { elapsed: start.elapsed(), device: Some(device), warnings: vec![] })
    }
}
