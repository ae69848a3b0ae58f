//! The AMD back end proven without a GPU: every library kernel (the 1-D collectives, and gemm,
//! ag_gemm, gemm_rs with `tile.dot` on MFMA for 16-bit operands, FMA for f32) lowers to per-thread LLVM IR that LLVM
//! verifies, assembles in process and links with `ld.lld-22` into an HSA code object for gfx90a
//! and gfx942, with register / scratch counts printed and no spill under the default config.

use super::gpu::{expert_gemm_jobs, gemm_and_msccl_jobs, kernel, prove, weft, Job, COLLECTIVES};
use weft::compiler::backend::toolchain::llvm_tool;
use weft::compiler::pipeline::{run, Options, Output, Target};
use weft::compiler::CompileError;

const TARGETS: [&str; 2] = ["gfx90a", "gfx942"];

/// Representative configs: (dtype, num_warps), the first being the library default.
const CONFIGS: [(&str, &str); 3] = [("f32", "4"), ("bf16", "8"), ("f16", "1")];

/// Whether ld.lld is installed; if not, says why the caller skips.
fn tools_or_skip(test: &str) -> bool {
    match llvm_tool("ld.lld").err() {
        None => true,
        Some(e) => {
            eprintln!("SKIPPED {test}: {e}");
            false
        }
    }
}

/// `EF_AMDGPU_MACH_*` of an architecture (LLVM's `ELF.h`).
fn mach(target: &str) -> u32 {
    match target {
        "gfx90a" => 0x3f,
        "gfx942" => 0x4c,
        _ => unreachable!("not an AMD target: {target}"),
    }
}

/// Checks that `elf` is an AMDGPU code object for `target`; returns what is wrong.
fn check_code_object(elf: &[u8], target: &str) -> Result<(), String> {
    if elf.len() < 52 || &elf[..4] != b"\x7fELF" {
        return Err("not an ELF file".into());
    }
    // ELF64 header: e_machine at 18, e_flags at 48; EM_AMDGPU = 224.
    let machine = u16::from_le_bytes([elf[18], elf[19]]);
    let flags = u32::from_le_bytes([elf[48], elf[49], elf[50], elf[51]]);
    if machine != 224 {
        return Err(format!("e_machine {machine}, not EM_AMDGPU (224)"));
    }
    if flags & 0xff != mach(target) {
        return Err(format!("e_flags {flags:#x} name another architecture than {target}"));
    }
    Ok(())
}

#[test]
fn collectives_lower_to_verified_llvm_ir_for_every_amd_target() {
    for name in COLLECTIVES {
        for target in TARGETS {
            for (dtype, warps) in CONFIGS {
                let k = kernel(name, dtype, &[("num_warps", warps)]);
                let out = run(&k, Target::parse(target).unwrap(), Some("gpu"), &Options::default())
                    .unwrap_or_else(|e| panic!("{name} {dtype} num_warps={warps} on {target}: {e}"));
                // The gpu stage is the kernel's per-thread LLVM IR for AMDGPU, as LLVM prints it.
                assert!(out.text.contains("target triple = \"amdgcn-amd-amdhsa\""), "{name}: {}", out.text);
                assert!(out.text.contains(&format!("define amdgpu_kernel void @{name}(")), "{name}: {}", out.text);
                assert!(out.text.contains("call i32 @llvm.amdgcn.workitem.id.x()"), "{name}: {}", out.text);
                assert!(!out.text.contains("nvshmem") && !out.text.contains("nvvm"), "{name} on {target}: {}", out.text);
            }
        }
    }
}

#[test]
fn collectives_link_into_code_objects_and_do_not_spill() {
    if !tools_or_skip("collectives_link_into_code_objects_and_do_not_spill") {
        return;
    }
    prove(&TARGETS, collective_jobs, code_object_report);
}

/// Every collective at every config; a spill fails only the default (the first).
fn collective_jobs(_target: &str) -> Vec<Job> {
    let mut jobs = vec![];
    for name in COLLECTIVES {
        for (i, (dtype, warps)) in CONFIGS.into_iter().enumerate() {
            jobs.push((format!("{name} {dtype} waves {warps}"), kernel(name, dtype, &[("num_warps", warps)]), i == 0));
        }
    }
    jobs
}

/// A code object's register report as (summary, spills), or why it is not a code object for `target`.
pub(crate) fn code_object_report(out: &Output, target: &str) -> Result<(String, bool), String> {
    let r = out.amdgpu.as_ref().expect("a code object comes with its register report");
    check_code_object(out.object.as_deref().unwrap_or_default(), target)?;
    Ok((r.summary(), r.spills()))
}

#[test]
fn multimem_on_amd_is_a_clear_error() {
    let k = kernel("allreduce_multimem", "f32", &[]);
    for target in TARGETS {
        let e = run(&k, Target::parse(target).unwrap(), Some("hsaco"), &Options::default()).err().expect("AMD has no multimem");
        let msg = e.to_string();
        assert!(matches!(e, CompileError::Lower { .. }), "{msg}");
        assert!(msg.contains("shmem.multimem_ld_reduce") && msg.contains(target) && msg.contains("no"), "{msg}");
    }
}

/// gemm, ag_gemm and gemm_rs: bf16 dots on MFMA (see `gpu_amd_mfma`), f32 on FMA.
#[test]
fn gemms_and_msccl_kernels_link_into_code_objects_and_the_defaults_do_not_spill() {
    if !tools_or_skip("gemms_and_msccl_kernels_link_into_code_objects_and_the_defaults_do_not_spill") {
        return;
    }
    prove(&TARGETS, gemm_and_msccl_jobs, code_object_report);
}

/// The expert GEMMs and the combine baseline at their GPU default (see `gpu.rs`).
#[test]
fn expert_gemms_link_into_code_objects_and_do_not_spill() {
    if !tools_or_skip("expert_gemms_link_into_code_objects_and_do_not_spill") {
        return;
    }
    prove(&TARGETS, expert_gemm_jobs, code_object_report);
}

#[test]
fn cli_compiles_allgather_to_an_amd_code_object() {
    let (code, out, err) = weft(&["compile", "allgather", "--target", "gfx942", "--emit", "gpu"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("@weft_shmem_state") && out.contains("llvm.amdgcn.s.sleep"), "{out}");
    let (code, _, err) = weft(&["compile", "allreduce_multimem", "--target", "gfx942", "--emit", "hsaco"]);
    assert_eq!(code, 2);
    assert!(err.contains("multimem") && err.contains("gfx942") && err.lines().count() == 1, "{err}");
    if !tools_or_skip("cli_compiles_allgather_to_an_amd_code_object") {
        return;
    }
    let (code, asm, err) = weft(&["compile", "allgather", "--target", "gfx942", "--emit", "amdgcn"]);
    assert_eq!(code, 0, "{err}");
    // A work-item's 4 consecutive floats move as one 16-byte global access.
    assert!(asm.contains(".amdhsa_kernel allgather") && asm.contains("global_load_dwordx4") && asm.contains("global_store_dwordx4"), "{asm}");
    let path = std::env::temp_dir().join(format!("weft-allgather-{}.hsaco", std::process::id()));
    let (code, out, err) = weft(&["compile", "allgather", "--target", "gfx942", "--emit", "hsaco", "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("VGPRs") && out.contains("scratch 0 B"), "{out}");
    let elf = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    check_code_object(&elf, "gfx942").unwrap();
}
