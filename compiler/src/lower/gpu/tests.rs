//! The NVPTX lowering on small kernels: the text is parsed and verified by LLVM in process, so
//! these run without the GPU tools.

use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::{Kernel, Scalar, Scope};
use crate::pipeline::{run, Options, Target};

/// The lowering's per-thread LLVM IR for `target` (before the `gpu` stage imports it into MLIR).
fn gpu(k: &Kernel, target: &str) -> String {
    let lowered = match Target::parse(target).unwrap() {
        Target::Cuda { sm } => super::lower(k, &sm.info()),
        Target::Amd { gfx } => super::lower(k, &gfx.info()),
        Target::Cpu => unreachable!("a GPU target"),
    };
    let m = lowered.unwrap_or_else(|e| panic!("{}: {e}", k.name));
    crate::backend::llvm::LlvmModule::parse_ir(&m.llvm).unwrap_or_else(|e| panic!("{}: {e}\n{}", k.name, m.llvm));
    m.llvm
}

#[test]
fn contiguous_tiles_move_as_vectors_with_a_per_slot_fallback() {
    let k = crate::tests::vector_add(1024).unwrap();
    let ir = gpu(&k, "sm_90a");
    // 1024 elements over 128 threads: 8 consecutive floats per thread, two 16-byte vectors;
    // nothing proves alignment or a per-vector mask, so a run-time check guards them.
    assert!(ir.contains("load <4 x float>, ptr addrspace(1)") && ir.contains("store <4 x float>"), "{ir}");
    assert!(ir.contains("llvm.masked.gather.v8f32.v8p1") && ir.contains("llvm.masked.scatter.v8f32.v8p1"), "{ir}");
    assert!(ir.contains("\"nvvm.maxntid\"=\"128\""), "{ir}");
    let k8 = {
        let mut k = crate::tests::vector_add(64).unwrap();
        k.constexprs.push(("num_warps".into(), "8".into()));
        k
    };
    // 64 elements over 256 threads: replicated, stored only by the 64 owners.
    let ir = gpu(&k8, "sm_80");
    assert!(ir.contains("icmp ult i32") && ir.contains("<1 x float>"), "{ir}");
}

#[test]
fn specialized_arguments_give_unchecked_predicated_vectors() {
    let general = crate::tests::vector_add(1024).unwrap();
    // Listed per parameter, as `of` reads them back: all four aligned, none assumed small.
    let spec = crate::analysis::Specialization { div16: vec![true; 4], small: vec![false; 4] };
    let k = spec.apply(&general);
    assert_eq!(crate::analysis::Specialization::of(&k), spec);
    // The facts survive printing and importing (a file of the specialized tir compiles as it).
    let text = crate::ir::print::print_kernel(&k, false);
    let back = crate::pipeline::import_tir(&text, "spec.mlir").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(crate::analysis::Specialization::of(&back), spec, "{text}");
    let ir = gpu(&k, "sm_90a");
    // Aligned pointers and `n % 16 == 0`: each 16-byte vector is on or off as a whole, so
    // two loads per input and two stores, each under its chunk's mask slot, and no fallback.
    assert_eq!(ir.matches("load <4 x float>, ptr addrspace(1)").count(), 4, "{ir}");
    assert_eq!(ir.matches("store <4 x float>").count(), 2, "{ir}");
    assert!(!ir.contains("masked.gather") && !ir.contains("masked.scatter"), "{ir}");
    assert_ne!(crate::cache::cache_key(&k, Target::parse("sm_90a").unwrap()), crate::cache::cache_key(&general, Target::parse("sm_90a").unwrap()));
}

/// A full reduction of 512 floats to one.
fn rsum() -> Kernel {
    kernel("rsum", &Constexprs::new(), |a| {
        let (x, out) = (a.ptr("x", Scalar::F32), a.ptr("out", Scalar::F32));
        let v = load(x + arange(0, 512));
        store(out, sum(v, 0));
        Ok(())
    })
    .unwrap()
}

#[test]
fn reductions_use_shuffles_then_shared_memory() {
    let k = rsum();
    let ir = gpu(&k, "sm_90a");
    assert_eq!(ir.matches("llvm.nvvm.shfl.sync.bfly.f32(").count(), 5 + 1, "{ir}");
    assert!(ir.contains("@__weft_red") && ir.contains("llvm.vector.reduce.fadd.v4f32"), "{ir}");
}

/// A kernel using every shmem op once.
fn shmem_ops() -> Kernel {
    let c = Constexprs::new();
    kernel("ops", &c, |a| {
        let (buf, sig) = (a.ptr("buf", Scalar::F32), a.ptr("sig", Scalar::I64));
        let n = a.i64("n");
        let (me, world) = (my_pe(), n_pes());
        let peer = (me + 1) % world;
        put(buf, buf, n, peer, Scope::Thread);
        put_nbi(buf, buf, n, peer, Scope::Warp);
        get(buf, buf, n, peer, Scope::Block);
        put_signal(buf, buf, n, sig, 1i64, peer, PutSignal { scope: Scope::Warp, nbi: true, sig_op: Signal::Add });
        signal_op(sig, 2i64, Signal::Set, peer);
        let tok = wait_until(sig, Cmp::Ge, 1i64);
        let p = consume_token(remote_ptr(buf, peer), tok);
        store(buf + arange(0, 128), load(p + arange(0, 128)));
        fence();
        quiet();
        barrier_all();
        Ok(())
    })
    .unwrap()
}

#[test]
fn every_shmem_op_calls_nvshmem() {
    let k = shmem_ops();
    let ir = gpu(&k, "sm_80");
    for f in [
        "@nvshmem_my_pe()",
        "@nvshmem_n_pes()",
        "@nvshmem_putmem(",
        "@nvshmemx_putmem_nbi_warp(",
        "@nvshmemx_getmem_block(",
        "@nvshmemx_putmem_signal_nbi_warp(",
        "@nvshmemx_signal_op(",
        "@nvshmem_signal_wait_until(",
        "@nvshmem_ptr(",
        "@nvshmem_fence()",
        "@nvshmem_quiet()",
        "@nvshmemx_barrier_all_block()",
        "@__weft_grid_gen",
    ] {
        assert!(ir.contains(&format!("call void {f}")) || ir.contains(f), "{f} missing:\n{ir}");
    }
}

#[test]
fn bad_num_warps_is_a_typed_error() {
    let mut k = crate::tests::vector_add(64).unwrap();
    k.constexprs.push(("num_warps".into(), "3".into()));
    let e = run(&k, Target::parse("sm_90a").unwrap(), Some("gpu"), &Options::default()).err().unwrap().to_string();
    assert!(e.contains("num_warps") && e.contains("sm_90a"), "{e}");
}

#[test]
fn amd_uses_wavefronts_of_64_and_amdgcn_intrinsics() {
    let k = crate::tests::vector_add(1024).unwrap();
    let ir = gpu(&k, "gfx942");
    // 1024 elements over 4 wavefronts of 64: 4 consecutive floats per work-item.
    assert!(ir.contains("define amdgpu_kernel void @") && ir.contains("load <4 x float>, ptr addrspace(1)"), "{ir}");
    assert!(ir.contains("@llvm.amdgcn.workitem.id.x()") && ir.contains("\"amdgpu-flat-work-group-size\"=\"256,256\""), "{ir}");
    assert!(ir.contains("target triple = \"amdgcn-amd-amdhsa\"") && ir.contains("amdhsa_code_object_version"), "{ir}");
}

#[test]
fn amd_reductions_use_bpermute_then_lds() {
    let k = rsum();
    let ir = gpu(&k, "gfx90a");
    // log2(64) butterfly steps, then one LDS slot per wavefront between s_barriers.
    assert_eq!(ir.matches("call i32 @llvm.amdgcn.ds.bpermute(").count(), 6, "{ir}");
    assert!(ir.contains("@__weft_red") && ir.contains("call void @llvm.amdgcn.s.barrier()"), "{ir}");
    assert!(ir.contains("fence syncscope(\"workgroup\") release") && !ir.contains("nvvm"), "{ir}");
}

#[test]
fn amd_shmem_ops_use_peer_heaps_and_system_scope_atomics() {
    let k = shmem_ops();
    let ir = gpu(&k, "gfx942");
    for needle in [
        "@weft_shmem_state = protected addrspace(4) externally_initialized global",
        "atomicrmw add ptr addrspace(1)",
        "i64 2, ptr addrspace(1)",
        "release, align 8",
        "monotonic, align 8",
        "call void @llvm.amdgcn.s.sleep(i32 1)",
        "icmp uge i64",
        "fence acquire",
        "fence release",
        "fence seq_cst",
        "v_and_b32 $0, 0, $1",
        "@__weft_grid_gen",
        "@llvm.amdgcn.implicitarg.ptr()",
    ] {
        assert!(ir.contains(needle), "{needle} missing:\n{ir}");
    }
    assert!(!ir.contains("nvshmem"), "{ir}");
}

#[test]
fn multimem_on_amd_is_a_typed_error() {
    let c = Constexprs::new();
    let k = kernel("mm", &c, |a| {
        let x = a.ptr("x", Scalar::F32);
        let v = multimem_ld_reduce(x + arange(0, 256), None);
        store(x + arange(0, 256), v);
        Ok(())
    })
    .unwrap();
    let e = run(&k, Target::parse("gfx942").unwrap(), Some("gpu"), &Options::default()).err().unwrap().to_string();
    assert!(e.contains("multimem") && e.contains("gfx942") && e.contains("AMD"), "{e}");
}
