//! FP8 on the GPU back ends, proven without a GPU: conversions use `cvt.rn.satfinite.*x2.f32`
//! and `cvt.rn.f16x2.*x2` on sm_90a / sm_100a (PTX that the pinned ptxas assembles) and
//! integer code on sm_80 and gfx942; FP8 kernels (the conversions, FP8 AllGather / Broadcast,
//! `ep_dispatch_fp8`) assemble or link with no spill at their default config.

use super::gpu::{cubin_report, prove, tools_or_skip, Job};
use super::gpu_amd::code_object_report;
use weft::compiler::dsl::*;
use weft::compiler::ir::{Kernel, Scalar};
use weft::compiler::pipeline::{run, Options, Target};

/// Each FP8 type from f32, f16 and bf16 and back: every conversion the compiler has.
fn conversions() -> Kernel {
    kernel("fp8_cvt", &Constexprs::new(), |a| {
        let (x, y) = (a.ptr("x", Scalar::F32), a.ptr("y", Scalar::F32));
        let offs = program_id(0).to(Scalar::I64) * 256i64 + arange(0, 256);
        let v = load(x + offs);
        let mut acc = v;
        for f8 in [Scalar::F8E4M3FN, Scalar::F8E5M2] {
            for wide in [Scalar::F32, Scalar::F16, Scalar::BF16] {
                acc = acc + cast(cast(cast(v, wide), f8), wide).to(Scalar::F32);
            }
        }
        store(y + offs, acc);
        Ok(())
    })
    .unwrap()
}

fn jobs(target: &str) -> Vec<Job> {
    let mut jobs = vec![("fp8_cvt".to_string(), conversions(), true)];
    for name in ["allgather", "allgather_ll", "allgather_bidir", "broadcast"] {
        for dtype in ["f8e4m3", "f8e5m2"] {
            jobs.push((format!("{name} {dtype}"), kernel_of(name, dtype), true));
        }
    }
    for dtype in ["bf16", "f32"] {
        let c = weft::kernels::target_constexprs("ep_dispatch_fp8", dtype, Target::parse(target).unwrap()).unwrap();
        jobs.extend(weft::kernels::build_all("ep_dispatch_fp8", &c).unwrap().into_iter().map(|k| (format!("ep_dispatch_fp8 {dtype}"), k, true)));
    }
    jobs
}

fn kernel_of(name: &str, dtype: &str) -> Kernel {
    super::gpu::kernel(name, dtype, &[])
}

#[test]
fn fp8_converts_with_cvt_on_sm_90a_and_sm_100a_and_integer_code_elsewhere() {
    let k = conversions();
    for target in ["sm_80", "sm_90a", "sm_100a", "gfx942"] {
        let stage = if target.starts_with("sm_") { "ptx" } else { "gpu" };
        let text = run(&k, Target::parse(target).unwrap(), Some(stage), &Options::default()).unwrap_or_else(|e| panic!("{target}: {e}")).text;
        let native = target != "sm_80" && target != "gfx942";
        for needle in ["cvt.rn.satfinite.e4m3x2.f32", "cvt.rn.satfinite.e5m2x2.f32", "cvt.rn.f16x2.e4m3x2", "cvt.rn.f16x2.e5m2x2"] {
            assert_eq!(text.contains(needle), native, "{needle} on {target}");
        }
    }
    // The tir stage keeps the conversions as arith ops on FP8 tensors on every target.
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).unwrap().text;
    assert!(tir.contains("arith.truncf") && tir.contains("xf8E4M3FN>") && tir.contains("xf8E5M2>"), "{tir}");
}

#[test]
fn fp8_kernels_assemble_and_do_not_spill() {
    if !tools_or_skip("fp8_kernels_assemble_and_do_not_spill") {
        return;
    }
    prove(&["sm_80", "sm_90a", "sm_100a"], jobs, cubin_report);
    prove(&["gfx942"], jobs, code_object_report);
}
