//! What the lowering needs to know about the hardware, behind one trait so that another GPU
//! (AMD's wavefronts of 64, its own intrinsics) plugs into the same op lowerings.

/// Hardware facts and intrinsic spellings used by the GPU lowering.
pub trait TargetInfo {
    /// Target name as the CLI spells it (`sm_90a`).
    fn name(&self) -> &'static str;
    /// Threads per warp (wavefront).
    fn warp_size(&self) -> usize;
    /// LLVM target triple.
    fn triple(&self) -> &'static str;
    /// LLVM data layout; it must match the device libraries linked in.
    fn data_layout(&self) -> &'static str;
    /// Why multimem (NVLS) ops cannot be used here, or `None` when they can.
    fn multimem_unsupported(&self) -> Option<String>;
    /// The intrinsic (without `@`) that reads special register `reg`: `tid.x`, `ctaid.y`, ...
    fn sreg(&self, reg: &str) -> String;
    /// The calling convention keyword of kernel entry points.
    fn kernel_cc(&self) -> &'static str;
    /// The warp-level `m16n8k16` matrix instruction for operands of element `a` with f32
    /// accumulation, or `None` (dots then use the generic FMA lowering).
    fn mma(&self, a: crate::ir::Scalar) -> Option<MmaSpec> {
        let _ = a;
        None
    }
}

/// A warp-level `m16n8k16` instruction: `{f32 x 4} @intrinsic(a x 4, b x 2, c x 4)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaSpec {
    /// The intrinsic, without `@`.
    pub intrinsic: &'static str,
    /// The LLVM type of one A / B register (two 16-bit elements).
    pub reg: &'static str,
}

/// An NVIDIA GPU generation, as `sm_XX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nvptx {
    /// Compute capability times ten (80, 90, 100).
    pub sm: u32,
    /// Name (`sm_80`, `sm_90a`, `sm_100a`).
    pub name: &'static str,
}

impl Nvptx {
    /// The PTX ISA `llc` emits: NVSHMEM's device code needs 8.2 (`.mmio`); sm_100 exists from
    /// 8.6 on; the pinned ptxas (CUDA 12.9) takes at most 8.8.
    pub fn ptx_feature(&self) -> &'static str {
        if self.sm >= 100 { "+ptx86" } else { "+ptx82" }
    }

    /// Which of NVSHMEM's device bitcode libraries matches (`libnvshmem_device_sm_XX.bc`).
    pub fn nvshmem_arch(&self) -> u32 {
        match self.sm {
            s if s >= 100 => 100,
            s if s >= 90 => 90,
            _ => 80,
        }
    }
}

impl TargetInfo for Nvptx {
    fn name(&self) -> &'static str {
        self.name
    }

    fn warp_size(&self) -> usize {
        32
    }

    fn triple(&self) -> &'static str {
        "nvptx64-nvidia-cuda"
    }

    fn data_layout(&self) -> &'static str {
        "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
    }

    fn multimem_unsupported(&self) -> Option<String> {
        (self.sm < 90).then(|| format!("multimem (NVLS) instructions need sm_90 or newer; {} has none", self.name))
    }

    fn sreg(&self, reg: &str) -> String {
        format!("llvm.nvvm.read.ptx.sreg.{reg}")
    }

    fn kernel_cc(&self) -> &'static str {
        "ptx_kernel"
    }

    fn mma(&self, a: crate::ir::Scalar) -> Option<MmaSpec> {
        use crate::ir::Scalar;
        // `mma.sync.aligned.m16n8k16` with f32 accumulation exists from sm_80 on.
        match a {
            _ if self.sm < 80 => None,
            Scalar::BF16 => Some(MmaSpec { intrinsic: "llvm.nvvm.mma.m16n8k16.row.col.bf16", reg: "i32" }),
            Scalar::F16 => Some(MmaSpec { intrinsic: "llvm.nvvm.mma.m16n8k16.row.col.f32.f32", reg: "<2 x half>" }),
            _ => None,
        }
    }
}
