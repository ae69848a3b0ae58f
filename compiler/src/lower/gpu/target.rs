//! What the lowering needs to know about the hardware, behind one trait so that every GPU goes
//! through the same op lowerings (Triton's model): facts (warp size, triple, data layout) and
//! the spellings of the few operations that differ (special registers, barriers, cross-lane
//! shuffles, the shmem library). [`Nvptx`] is here, [`super::amdgpu::Amdgpu`] in its own file.

/// A hardware index the lowering reads; the axis is 0, 1 or 2 (x, y, z).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sreg {
    /// The thread's index in its CTA (workgroup), x axis.
    Tid,
    /// The CTA's (workgroup's) index in the grid.
    CtaId(u8),
    /// The number of CTAs (workgroups) in the grid.
    NCtaId(u8),
}

/// LLVM IR lines a target spells an operation with, plus the declarations they use. Lines name
/// their result as the caller asked and any temporaries after it (`%t7.lane`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snippet {
    /// `(symbol, declaration)` pairs.
    pub decls: Vec<(String, String)>,
    /// Instructions, in order.
    pub lines: Vec<String>,
}

impl Snippet {
    /// One declared intrinsic call, `{r} = call <ret> @f(args)` (or a void call when `r` is empty).
    pub fn call(r: &str, ret: &str, f: &str, args: &[(&str, &str)]) -> Snippet {
        let tys: Vec<&str> = args.iter().map(|a| a.0).collect();
        let vals: Vec<String> = args.iter().map(|(t, v)| format!("{t} {v}")).collect();
        let call = format!("call {ret} @{f}({})", vals.join(", "));
        Snippet {
            decls: vec![(f.to_string(), format!("declare {ret} @{f}({})", tys.join(", ")))],
            lines: vec![if r.is_empty() { call } else { format!("{r} = {call}") }],
        }
    }
}

/// How `shmem` ops are implemented on a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShmemLib {
    /// Calls into NVSHMEM's device library, linked in as bitcode.
    Nvshmem,
    /// Loads and stores through IPC-mapped peer heaps and system-scope atomics, with the
    /// device state in module globals (see `shmem_peer`).
    PeerHeap,
}

/// Hardware facts and operation spellings used by the GPU lowering.
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
    /// The calling convention keyword of kernel entry points.
    fn kernel_cc(&self) -> &'static str;
    /// The attribute group body of the kernel entry for CTAs of `threads` threads, of which
    /// registers should let `min_ctas` be resident per multiprocessor.
    fn kernel_attributes(&self, threads: usize, min_ctas: usize) -> String;
    /// Module-level text appended after the kernel (module flags), if any.
    fn module_suffix(&self) -> &'static str {
        ""
    }
    /// Reads `reg` into `r` (an i32).
    fn sreg(&self, reg: Sreg, r: &str) -> Snippet;
    /// A CTA-wide barrier after which every thread's earlier memory accesses are visible to
    /// every thread of the CTA.
    fn barrier(&self) -> Snippet;
    /// `r` = the 32-bit value `x` (LLVM type `ty`: `float` or `i32`) of the lane whose index
    /// differs from this one's in bit `off`; `tid` is the thread's index in the CTA.
    fn shuffle_xor(&self, r: &str, x: &str, ty: &str, off: usize, tid: &str) -> Snippet;
    /// `r` = an i64 zero the compiler cannot see through, computed from `tok`: addresses
    /// offset by it depend on the wait that produced the token.
    fn opaque_zero(&self, r: &str, tok: &str) -> Snippet;
    /// The right-hand side of one poll of a word another GPU writes (a fresh load each time).
    fn poll_load(&self, ty: &str, p: &str, align: usize) -> String;
    /// How `shmem` ops are implemented.
    fn shmem_lib(&self) -> ShmemLib;
    /// Shared memory bytes a CTA has without opting in (static), and the most the launch can
    /// opt in to (dynamic shared memory, NVIDIA's `MAX_DYNAMIC_SHARED_SIZE_BYTES`).
    fn shared_limits(&self) -> (usize, usize);
    /// The warp-level `m16n8k16` matrix instruction for operands of element `a` with f32
    /// accumulation, or `None` (dots then use the generic FMA lowering).
    fn mma(&self, a: crate::ir::Scalar) -> Option<MmaSpec> {
        let _ = a;
        None
    }
    /// Whether wavefront MFMA instructions with 16-bit operands and f32 accumulation exist
    /// (AMD CDNA2 / CDNA3: see [`super::mfma`]).
    fn mfma(&self) -> bool {
        false
    }
    /// Whether 16-byte `cp.async` copies global memory straight to shared memory.
    fn cp_async(&self) -> bool {
        false
    }
    /// Whether `cvt` converts FP8 (E4M3FN / E5M2) natively: sm_89 on (PTX 7.8), so sm_90a
    /// and sm_100a; AMD's gfx942 converts only the FNUZ variants, a different format.
    fn fp8_cvt(&self) -> bool {
        false
    }
    /// Whether warp-group `wgmma.mma_async` exists (sm_90a only: sm_100a replaced it).
    fn wgmma(&self) -> bool {
        false
    }
    /// Whether `mma.sync` operands are staged swizzled for `ldmatrix` (the layout a TMA box
    /// writes, no row padding: [`super::ldmatrix_swizzle`]) rather than in padded rows.
    fn swizzled_ldmatrix(&self) -> bool {
        false
    }
    /// Whether `exp` and `log` go through base 2 (`llvm.exp2` / `llvm.log2`, the hardware's
    /// `ex2.approx` / `lg2.approx`): NVPTX has no natural-base lowering without libdevice.
    fn base2_exp_log(&self) -> bool {
        false
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
    /// The PTX ISA we emit: NVSHMEM's device code needs 8.2 (`.mmio`); sm_100 exists from
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

/// `x`, `y` or `z`.
pub(crate) fn axis_name(a: u8) -> &'static str {
    ["x", "y", "z"].get(a as usize).copied().unwrap_or("x")
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

    fn kernel_cc(&self) -> &'static str {
        "ptx_kernel"
    }

    fn kernel_attributes(&self, threads: usize, min_ctas: usize) -> String {
        // The launch bound (`.maxntid`) tells ptxas the CTA size. Alone, it makes ptxas cap
        // registers so that several CTAs fit on an SM, and NVSHMEM's inlined transfer code then
        // spills; `.minnctapersm` says how many resident CTAs per SM are enough (one for
        // kernels that wait on the network; see `Gx::resident_ctas` for the others).
        format!("\"nvvm.maxntid\"=\"{threads}\" \"nvvm.minctasm\"=\"{min_ctas}\"")
    }

    fn sreg(&self, reg: Sreg, r: &str) -> Snippet {
        let name = match reg {
            Sreg::Tid => "tid.x".to_string(),
            Sreg::CtaId(a) => format!("ctaid.{}", axis_name(a)),
            Sreg::NCtaId(a) => format!("nctaid.{}", axis_name(a)),
        };
        Snippet::call(r, "i32", &format!("llvm.nvvm.read.ptx.sreg.{name}"), &[])
    }

    fn barrier(&self) -> Snippet {
        Snippet::call("", "void", "llvm.nvvm.barrier.cta.sync.aligned.all", &[("i32", "0")])
    }

    fn shuffle_xor(&self, r: &str, x: &str, ty: &str, off: usize, _tid: &str) -> Snippet {
        let f = if ty == "float" { "llvm.nvvm.shfl.sync.bfly.f32" } else { "llvm.nvvm.shfl.sync.bfly.i32" };
        Snippet::call(r, ty, f, &[("i32", "-1"), (ty, x), ("i32", &off.to_string()), ("i32", "31")])
    }

    fn opaque_zero(&self, r: &str, tok: &str) -> Snippet {
        Snippet { decls: vec![], lines: vec![format!("{r} = call i64 asm sideeffect \"and.b64 $0, $1, 0;\", \"=l,l\"(i64 {tok})")] }
    }

    fn poll_load(&self, ty: &str, p: &str, align: usize) -> String {
        format!("load volatile {ty}, ptr {p}, align {align}")
    }

    fn shmem_lib(&self) -> ShmemLib {
        ShmemLib::Nvshmem
    }

    fn shared_limits(&self) -> (usize, usize) {
        // 48 KiB static on every NVIDIA GPU; opt-in up to 163 KiB on sm_80, 227 KiB on sm_90+.
        (48 * 1024, if self.sm >= 90 { 227 * 1024 } else { 163 * 1024 })
    }

    fn cp_async(&self) -> bool {
        self.sm >= 80
    }

    fn wgmma(&self) -> bool {
        self.sm == 90 && self.name.ends_with('a')
    }

    fn fp8_cvt(&self) -> bool {
        self.sm >= 89
    }

    fn swizzled_ldmatrix(&self) -> bool {
        // sm_100a: its ring is to be filled by TMA, which cannot write padded rows.
        self.sm >= 100
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
    fn base2_exp_log(&self) -> bool {
        true
    }
}
