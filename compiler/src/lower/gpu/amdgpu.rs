//! The AMD GPU target (CDNA2 `gfx90a`, CDNA3 `gfx942`): wavefronts of 64 lanes (a "warp" of
//! the lowering is a wavefront), `amdgpu_kernel` entries, workitem / workgroup id intrinsics,
//! the grid size from code object v5's implicit kernel arguments, `s_barrier` between
//! workgroup-scope fences, `ds_bpermute` shuffles, and shmem through peer heaps.
//! Address spaces: flat 0, global 1, LDS 3, constant 4.

use super::target::{axis_name, ShmemLib, Snippet, Sreg, TargetInfo};

/// An AMD GPU architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amdgpu {
    /// Name (`gfx90a`, `gfx942`), also the CPU of the target machine.
    pub name: &'static str,
}

impl TargetInfo for Amdgpu {
    fn shared_limits(&self) -> (usize, usize) {
        // 64 KiB of LDS per workgroup, all of it static.
        (64 * 1024, 64 * 1024)
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn warp_size(&self) -> usize {
        64
    }

    fn triple(&self) -> &'static str {
        "amdgcn-amd-amdhsa"
    }

    fn data_layout(&self) -> &'static str {
        // LLVM 22's AMDGPU layout (what clang-22 writes for amdgcn-amd-amdhsa).
        "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
    }

    fn multimem_unsupported(&self) -> Option<String> {
        Some(format!("multimem needs NVLink SHARP multicast memory (NVIDIA sm_90+); AMD GPUs such as {} have none, use a one-shot or two-shot all-reduce", self.name))
    }

    fn kernel_cc(&self) -> &'static str {
        "amdgpu_kernel"
    }

    fn kernel_attributes(&self, threads: usize, _min_ctas: usize) -> String {
        // Every launch uses exactly `threads` work-items per workgroup, and whole workgroups.
        format!("\"amdgpu-flat-work-group-size\"=\"{threads},{threads}\" \"uniform-work-group-size\"=\"true\"")
    }

    fn module_suffix(&self) -> &'static str {
        // Pin code object v5: the grid size is read from its implicit-argument layout.
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"amdhsa_code_object_version\", i32 500}\n"
    }

    fn sreg(&self, reg: Sreg, r: &str) -> Snippet {
        match reg {
            Sreg::Tid => Snippet::call(r, "i32", "llvm.amdgcn.workitem.id.x", &[]),
            Sreg::CtaId(a) => Snippet::call(r, "i32", &format!("llvm.amdgcn.workgroup.id.{}", axis_name(a)), &[]),
            Sreg::NCtaId(a) => {
                // Code object v5 implicit arguments start with hidden_block_count_{x,y,z} (u32).
                let mut s = Snippet::call(&format!("{r}.args"), "ptr addrspace(4)", "llvm.amdgcn.implicitarg.ptr", &[]);
                s.lines.push(format!("{r}.at = getelementptr i8, ptr addrspace(4) {r}.args, i64 {}", 4 * a.min(2) as usize));
                s.lines.push(format!("{r} = load i32, ptr addrspace(4) {r}.at, align 4"));
                s
            }
        }
    }

    fn barrier(&self) -> Snippet {
        // s_barrier alone orders no memory: LLVM's AMDGPU memory model wants a workgroup
        // release fence before it and an acquire fence after it.
        let mut s = Snippet::call("", "void", "llvm.amdgcn.s.barrier", &[]);
        s.lines.insert(0, "fence syncscope(\"workgroup\") release".into());
        s.lines.push("fence syncscope(\"workgroup\") acquire".into());
        s
    }

    fn shuffle_xor(&self, r: &str, x: &str, ty: &str, off: usize, tid: &str) -> Snippet {
        // ds_bpermute reads the lane whose byte address (lane * 4) it is given.
        let xi = if ty == "i32" { x.to_string() } else { format!("{r}.in") };
        let got = if ty == "i32" { r.to_string() } else { format!("{r}.out") };
        let mut s = Snippet::call(&got, "i32", "llvm.amdgcn.ds.bpermute", &[("i32", &format!("{r}.addr")), ("i32", &xi)]);
        let mut pre = vec![];
        if ty != "i32" {
            pre.push(format!("{xi} = bitcast {ty} {x} to i32"));
        }
        pre.push(format!("{r}.lane = and i32 {tid}, 63"));
        pre.push(format!("{r}.peer = xor i32 {r}.lane, {off}"));
        pre.push(format!("{r}.addr = shl i32 {r}.peer, 2"));
        pre.append(&mut s.lines);
        if ty != "i32" {
            pre.push(format!("{r} = bitcast i32 {got} to {ty}"));
        }
        s.lines = pre;
        s
    }

    fn opaque_zero(&self, r: &str, tok: &str) -> Snippet {
        Snippet {
            decls: vec![],
            lines: vec![
                format!("{r}.lo = trunc i64 {tok} to i32"),
                format!("{r}.z = call i32 asm sideeffect \"v_and_b32 $0, 0, $1\", \"=v,v\"(i32 {r}.lo)"),
                format!("{r} = zext i32 {r}.z to i64"),
            ],
        }
    }

    fn poll_load(&self, ty: &str, p: &str, align: usize) -> String {
        // A relaxed system-scope atomic load: it bypasses the non-coherent caches every time.
        format!("load atomic volatile {ty}, ptr {p} monotonic, align {align}")
    }

    fn shmem_lib(&self) -> ShmemLib {
        ShmemLib::PeerHeap
    }

    fn mfma(&self) -> bool {
        // `v_mfma_f32_{32x32x8,16x16x16}_{bf16,f16}` on CDNA2 (the `bf16_1k` forms) and CDNA3.
        matches!(self.name, "gfx90a" | "gfx942")
    }
}
