//! The NVPTX lowering on small kernels: the text is parsed and verified by LLVM in process, so
//! these run without the GPU tools.

use crate::dsl::shmem::*;
use crate::dsl::*;
use crate::ir::{Kernel, Scalar, Scope};
use crate::pipeline::{run, Options, Target};

fn gpu(k: &Kernel, target: &str) -> String {
    run(k, Target::parse(target).unwrap(), Some("gpu"), &Options::default()).unwrap_or_else(|e| panic!("{}: {e}", k.name)).text
}

#[test]
fn contiguous_tiles_move_as_vectors_with_a_per_slot_fallback() {
    let k = crate::tests::vector_add(1024).unwrap();
    let ir = gpu(&k, "sm_90a");
    // 1024 elements over 128 threads: 8 consecutive floats per thread.
    assert!(ir.contains("load <8 x float>, ptr addrspace(1)") && ir.contains("store <8 x float>"), "{ir}");
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
fn reductions_use_shuffles_then_shared_memory() {
    let c = Constexprs::new();
    let k = kernel("rsum", &c, |a| {
        let (x, out) = (a.ptr("x", Scalar::F32), a.ptr("out", Scalar::F32));
        let v = load(x + arange(0, 512));
        store(out, sum(v, 0));
        Ok(())
    })
    .unwrap();
    let ir = gpu(&k, "sm_90a");
    assert_eq!(ir.matches("llvm.nvvm.shfl.sync.bfly.f32(").count(), 5 + 1, "{ir}");
    assert!(ir.contains("@__weft_red") && ir.contains("llvm.vector.reduce.fadd.v4f32"), "{ir}");
}

#[test]
fn every_shmem_op_calls_nvshmem() {
    let c = Constexprs::new();
    let k = kernel("ops", &c, |a| {
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
    .unwrap();
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
