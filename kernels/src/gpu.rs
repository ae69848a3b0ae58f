//! Launch handles for the world at hand: native code for `local`, the GPU code run by the SIMT
//! emulator for a `local` world that emulates a GPU, and for a `cuda` world a cubin compiled
//! (NVSHMEM linked, ptxas) for the architecture of its GPU.

use crate::KernelError;
use weft_compiler::analysis::Specialization;
use weft_compiler::backend::nvshmem_transport::{self, DeviceTransport};
use weft_compiler::cache::Compiled;
use weft_compiler::ir::{Elem, Kernel, OpKind, Type};
use weft_compiler::pipeline::{Options, Target};
use weft_runtime::{GpuCode, GpuParam, Launchable, World};

/// Compiles `kernel` for `world`: CPU code unless the world runs GPU code. GPU code is the
/// general variant plus a specializer: a launch whose pointers are 16-byte aligned or whose
/// integers are multiples of 16 runs a variant compiled for those facts (see
/// `weft_runtime::variants`), as `triton.jit` specializes.
pub fn launchable_for(world: &World, kernel: &Kernel) -> Result<Launchable, KernelError> {
    launchable_with(world, kernel, false)
}

/// [`launchable_for`] a kernel whose program instances wait on one another (the overlap
/// kernels' tiles wait on their communication programs; MSCCL thread blocks on each other's
/// signals): on a GPU all of them must be resident at once, so the launch is cooperative,
/// which checks that they fit rather than deadlocking when they do not.
pub fn launchable_for_resident(world: &World, kernel: &Kernel) -> Result<Launchable, KernelError> {
    launchable_with(world, kernel, true)
}

/// Every launch of library kernel `name` ([`crate::build_all`]), each [`launchable_for_resident`].
pub(crate) fn launchables(world: &World, name: &str, c: &weft_compiler::dsl::Constexprs) -> Result<Vec<Launchable>, KernelError> {
    crate::registry::build_all(name, c)?.iter().map(|k| launchable_for_resident(world, k)).collect()
}

fn launchable_with(world: &World, kernel: &Kernel, resident: bool) -> Result<Launchable, KernelError> {
    let Some(arch) = world.gpu_arch() else {
        let spec = Specialization::of(kernel);
        // A world that checks every launch for races gets kernels that report their accesses.
        let opts = Options { racecheck: world.racecheck(), ..Options::from_env() };
        return match weft_compiler::cache::compile_variant(kernel, Target::Cpu, &spec, &opts)? {
            Compiled::Cpu(k) => Ok(k.launchable()),
            Compiled::Gpu(_) => Err(KernelError::Unsupported { kernel: kernel.name.clone(), what: "a GPU binary for the CPU".into() }),
        };
    };
    let emulated = world.transport() == "local";
    let general = gpu_variant(kernel, arch, emulated, resident)?;
    let (k, arch) = (kernel.clone(), arch.to_string());
    Ok(general.with_variants(move |facts| {
        let spec = Specialization { div16: facts.div16.clone(), small: facts.small.clone() }.apply(&k);
        // Facts only of arguments that cannot carry one (floats) leave the general variant.
        if Specialization::of(&spec).is_general() {
            return None;
        }
        gpu_variant(&spec, &arch, emulated, resident).ok()
    }))
}

/// One compiled variant for `arch`: emulated on a `local` world, a cubin otherwise.
fn gpu_variant(kernel: &Kernel, arch: &str, emulated: bool, resident: bool) -> Result<Launchable, KernelError> {
    let mut l = if emulated { weft_emulator::launchable(kernel, arch, weft_emulator::Checks::from_env())? } else { gpu_launchable(kernel, arch)? };
    if let (true, weft_runtime::KernelCode::Gpu(code)) = (resident, &mut l.code) {
        std::sync::Arc::make_mut(code).cooperative = true;
    }
    Ok(l)
}

/// Compiles `kernel` to a cubin for NVIDIA architecture `arch` (`sm_80`, `sm_90a`, `sm_100a`),
/// or takes it from the compile cache.
pub fn gpu_launchable(kernel: &Kernel, arch: &str) -> Result<Launchable, KernelError> {
    let unsupported = |what: String| KernelError::Unsupported { kernel: kernel.name.clone(), what };
    let Some(target @ Target::Cuda { sm }) = Target::parse(arch) else {
        return Err(unsupported(format!("GPU architecture `{arch}` (the cuda transport runs sm_80, sm_90a, sm_100a)")));
    };
    // NVSHMEM's environment picks the device-transport variant unless the kernel names one;
    // the cuda transport checks the choice when it loads the cubin.
    let kernel = &match kernel.constexpr(nvshmem_transport::CONSTEXPR) {
        Some(_) => kernel.clone(),
        None => DeviceTransport::from_env().apply(kernel),
    };
    let spec = Specialization::of(kernel);
    let Compiled::Gpu(out) = weft_compiler::cache::compile_variant(kernel, target, &spec, &Options::from_env())? else {
        return Err(unsupported(format!("{arch}: the pipeline produced no GPU binary")));
    };
    if out.image.is_empty() {
        return Err(unsupported(format!("{arch}: the pipeline produced no cubin")));
    }
    let num_warps = weft_compiler::lower::gpu::num_warps(kernel, &sm.info())
        .map_err(|source| weft_compiler::CompileError::Lower { stage: "gpu", source })?;
    let params = kernel
        .params
        .iter()
        .map(|p| match kernel.ty(p.value) {
            Type::Val { elem: Elem::Ptr(_), shape } if shape.is_empty() => Ok(GpuParam::Ptr),
            Type::Val { elem: Elem::Num(s), shape } if shape.is_empty() => Ok(GpuParam::Scalar(s.bytes() as u8)),
            t => Err(unsupported(format!("parameter `{}` of type {t:?} on a GPU", p.name))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let uses = |f: fn(&OpKind) -> bool| kernel.ops.iter().any(|o| f(&o.kind));
    // A program that waits (for a signal, an LL flag, a barrier) may wait on a CTA that is not
    // running yet unless every CTA is resident at once.
    let cooperative = uses(|k| matches!(k, OpKind::BarrierAll | OpKind::WaitUntil(_) | OpKind::LlRecv { .. }));
    let remote_ptr = uses(|k| matches!(k, OpKind::RemotePtr));
    let multimem = uses(|k| matches!(k, OpKind::MultimemSt { .. } | OpKind::MultimemLdReduce { .. }));
    let code = GpuCode { arch: arch.into(), image: out.image.clone(), symbol: out.symbol.clone(), num_warps: num_warps as u32, dynamic_smem: out.dynamic_smem, cooperative, remote_ptr, multimem, params, tma: out.tma.clone() };
    Ok(Launchable::gpu(kernel.name.clone(), code))
}
