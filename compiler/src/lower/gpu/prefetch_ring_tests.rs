//! The prefetching K loop in the lowered IR: its global loads come before the MFMAs, one
//! barrier a step, two LDS buffers; with `num_stages` 1 the single-buffer step (two barriers).

use crate::ir::Scalar;
use crate::layout::tests::small_gemm;

/// The lines of the K loop's body: from its `for.body` block to its latch.
fn loop_body(ir: &str) -> Vec<&str> {
    let lines: Vec<&str> = ir.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("for.body")).expect("a K loop");
    let end = start + lines[start..].iter().position(|l| l.starts_with("for.latch")).expect("a latch");
    lines[start..end].to_vec()
}

#[test]
fn an_amd_k_loop_prefetches_over_two_lds_buffers_with_one_barrier() {
    let amd = crate::pipeline::Gfx::Gfx942.info();
    for (stages, barriers) in [(2, 1), (3, 1), (1, 2)] {
        let mut k = small_gemm(64, 64, 32, 3, 4, Scalar::BF16);
        k.constexprs.push(("num_stages".into(), stages.to_string()));
        let ir = super::super::lower(&k, &amd).unwrap_or_else(|e| panic!("{e}")).llvm;
        crate::backend::llvm::LlvmModule::parse_ir(&ir).unwrap_or_else(|e| panic!("{e}\n{ir}"));
        let body = loop_body(&ir);
        let at = |pat: &str| body.iter().position(|l| l.contains(pat));
        let count = |pat: &str| body.iter().filter(|l| l.contains(pat)).count();
        assert_eq!(count("call void @llvm.amdgcn.s.barrier()"), barriers, "num_stages={stages}:\n{}", body.join("\n"));
        assert_eq!(count("@llvm.amdgcn.mfma.f32.32x32x8bf16.1k("), 4, "num_stages={stages}");
        let (last_load, first_mfma) = (body.iter().rposition(|l| l.contains("load <") && l.contains("ptr addrspace(1)")), at("@llvm.amdgcn.mfma"));
        if stages > 1 {
            // Step k + 1's tiles are requested before step k's products.
            assert!(last_load < first_mfma, "num_stages={stages}: loads at {last_load:?}, first MFMA at {first_mfma:?}");
            // Two buffers of A [64][36] and B^T [64][36] bf16.
            assert!(ir.contains("@__weft_smem = internal addrspace(3) global [18432 x i8]"), "{ir}");
        }
    }
}
