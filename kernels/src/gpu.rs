//! Launch handles for the world at hand: native code for `local`, the GPU code run by the SIMT
//! emulator for a `local` world that emulates a GPU, and for a `cuda` world a cubin compiled
//! (NVSHMEM linked, ptxas) for the architecture of its GPU.

use crate::KernelError;
use weft_compiler::ir::{Elem, Kernel, OpKind, Type};
use weft_compiler::pipeline::{Options, Target};
use weft_runtime::{GpuCode, GpuParam, Launchable, World};

/// Compiles `kernel` for `world`: CPU code unless the world runs GPU code.
pub fn launchable_for(world: &World, kernel: &Kernel) -> Result<Launchable, KernelError> {
    match world.gpu_arch() {
        None => Ok(weft_compiler::compile(kernel, &Options::from_env())?.launchable()),
        Some(arch) if world.transport() == "local" => Ok(weft_emulator::launchable(kernel, arch, weft_emulator::Checks::from_env())?),
        Some(arch) => gpu_launchable(kernel, arch),
    }
}

/// [`launchable_for`] a kernel whose program instances wait on one another (the overlap
/// kernels' tiles wait on their communication programs; MSCCL thread blocks on each other's
/// signals): on a GPU all of them must be resident at once, so the launch is cooperative,
/// which checks that they fit rather than deadlocking when they do not.
pub fn launchable_for_resident(world: &World, kernel: &Kernel) -> Result<Launchable, KernelError> {
    let mut l = launchable_for(world, kernel)?;
    if let weft_runtime::KernelCode::Gpu(code) = &mut l.code {
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
    let out = weft_compiler::cache::compile_gpu(kernel, target, &Options::from_env())?;
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
    let code = GpuCode { arch: arch.into(), image: out.image.clone(), symbol: out.symbol.clone(), num_warps: num_warps as u32, dynamic_smem: out.dynamic_smem, cooperative, remote_ptr, multimem, params };
    Ok(Launchable::gpu(kernel.name.clone(), code))
}
