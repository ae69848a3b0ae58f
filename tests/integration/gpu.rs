//! The GPU back ends proven without a GPU: every 1-D library collective lowers to verified
//! LLVM IR for each NVIDIA target, and, where `./setup.sh` installed ptxas and NVSHMEM's
//! bitcode, links NVSHMEM and assembles with `ptxas -v` without spilling.

use std::process::Command;
use weft::compiler::backend::toolchain::{llvm_tool, Toolchain};
use weft::compiler::pipeline::{run, Options, Target};
use weft::compiler::CompileError;

/// The collectives the GPU back ends lower today (the GEMMs need `tile.dot`).
pub(crate) const COLLECTIVES: [&str; 7] = ["allgather", "allgather_pull", "reduce_scatter", "allreduce_one_shot", "allreduce_two_shot", "broadcast", "allgather_ll"];

pub(crate) fn kernel(name: &str, dtype: &str, defines: &[(&str, &str)]) -> weft::compiler::ir::Kernel {
    let mut c = weft::kernels::default_constexprs(name, dtype).unwrap();
    for (k, v) in defines {
        c.set(k, v);
    }
    weft::kernels::build(name, &c).unwrap()
}

/// Runs the `weft` CLI; returns (exit code, stdout, stderr).
pub(crate) fn weft(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_weft")).args(args).output().expect("weft runs");
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Whether the GPU tools are installed; if not, says why the caller skips.
fn tools_or_skip(test: &str) -> bool {
    let tc = Toolchain::new();
    let missing = [tc.ptxas().err(), tc.nvshmem_bitcode(80).err(), tc.nvshmem_bitcode(90).err(), llvm_tool("llc").err()];
    match missing.into_iter().flatten().next() {
        None => true,
        Some(e) => {
            eprintln!("SKIPPED {test}: {e}");
            false
        }
    }
}

#[test]
fn collectives_lower_to_verified_llvm_ir_for_every_nvidia_target() {
    for name in COLLECTIVES {
        for target in ["sm_80", "sm_90a", "sm_100a"] {
            for (dtype, warps) in [("f32", "4"), ("bf16", "8"), ("f16", "1")] {
                let k = kernel(name, dtype, &[("num_warps", warps)]);
                let out = run(&k, Target::parse(target).unwrap(), Some("gpu"), &Options::default())
                    .unwrap_or_else(|e| panic!("{name} {dtype} num_warps={warps} on {target}: {e}"));
                assert!(out.text.contains(&format!("define ptx_kernel void @{name}(")), "{name}: {}", out.text);
            }
        }
    }
}

#[test]
fn collectives_assemble_with_nvshmem_linked_and_do_not_spill() {
    if !tools_or_skip("collectives_assemble_with_nvshmem_linked_and_do_not_spill") {
        return;
    }
    // ptxas takes seconds per kernel (NVSHMEM's code is large): one thread per target.
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = ["sm_80", "sm_90a"].map(|target| s.spawn(move || assemble_all(target))).into_iter().collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Compiles every collective for `target` down to a cubin (multimem ones where the target has
/// NVLS); returns what failed or spilled.
fn assemble_all(target: &str) -> Vec<String> {
    let mut failures = vec![];
    let multimem = (target != "sm_80").then_some("allreduce_multimem");
    for name in COLLECTIVES.into_iter().chain(multimem) {
        let k = kernel(name, "f32", &[]);
        match run(&k, Target::parse(target).unwrap(), None, &Options::default()) {
            Ok(out) => {
                let r = out.ptxas.expect("a cubin comes with ptxas's report");
                println!("{name:<20} {target:<7} {}", r.summary());
                if out.object.unwrap_or_default().is_empty() {
                    failures.push(format!("{name} on {target}: empty cubin"));
                }
                if r.spills() {
                    failures.push(format!("{name} on {target} spills: {}", r.summary()));
                }
            }
            Err(e) => failures.push(format!("{name} on {target}: {e}")),
        }
    }
    failures
}

#[test]
fn multimem_lowers_to_nvls_instructions_on_sm_90a() {
    let k = kernel("allreduce_multimem", "f32", &[]);
    let ir = run(&k, Target::parse("sm_90a").unwrap(), Some("gpu"), &Options::default()).unwrap().text;
    for needle in ["@nvshmemx_mc_ptr(i32 2,", "multimem.ld_reduce.relaxed.sys.global.add.f32", "multimem.st.relaxed.sys.global.f32"] {
        assert!(ir.contains(needle), "{needle} missing:\n{ir}");
    }
    let k = kernel("allreduce_multimem", "bf16", &[]);
    let e = run(&k, Target::parse("sm_90a").unwrap(), Some("gpu"), &Options::default()).err().expect("bf16 multimem is not lowered");
    assert!(e.to_string().contains("multimem on bf16"), "{e}");
}

#[test]
fn multimem_on_sm_80_is_a_clear_error() {
    let k = kernel("allreduce_multimem", "f32", &[]);
    let e = run(&k, Target::parse("sm_80").unwrap(), Some("gpu"), &Options::default()).err().expect("sm_80 has no multimem");
    let msg = e.to_string();
    assert!(matches!(e, CompileError::Lower { .. }), "{msg}");
    assert!(msg.contains("shmem.multimem_ld_reduce") && msg.contains("sm_80") && msg.contains("sm_90"), "{msg}");
}

#[test]
fn unlowered_ops_and_stages_are_typed_errors_naming_op_and_target() {
    let k = kernel("gemm", "f16", &[]);
    let e = run(&k, Target::parse("sm_90a").unwrap(), Some("ptx"), &Options::default()).err().expect("tile.dot is not lowered");
    assert!(matches!(e, CompileError::Lower { .. }) && e.to_string().contains("is not supported on target sm_90a"), "{e}");
    let k = kernel("allgather", "f32", &[]);
    let e = run(&k, Target::parse("sm_90a").unwrap(), Some("amdgcn"), &Options::default()).err().expect("not an NVIDIA stage");
    assert!(e.to_string().contains("gpu, llvm, ptx, cubin"), "{e}");
}

#[test]
fn cli_compiles_allgather_to_a_cubin() {
    let (code, out, err) = weft(&["compile", "allgather", "--target", "sm_90a", "--emit", "gpu"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("nvshmemx_putmem_signal_block") && out.contains("nvshmem_signal_wait_until"), "{out}");
    let (code, _, err) = weft(&["compile", "allreduce_multimem", "--target", "sm_80", "--emit", "gpu"]);
    assert_eq!(code, 2);
    assert!(err.contains("multimem") && err.contains("sm_80"), "{err}");
    if !tools_or_skip("cli_compiles_allgather_to_a_cubin") {
        return;
    }
    // A thread's 8 consecutive floats move as two 16-byte global accesses.
    let (code, ptx, err) = weft(&["compile", "allgather", "--target", "sm_90a", "--emit", "ptx"]);
    assert_eq!(code, 0, "{err}");
    assert!(ptx.contains("ld.global.v4.b32") && ptx.contains("st.global.v4.b32") && ptx.contains(".maxntid 128"), "{ptx}");
    let path = std::env::temp_dir().join(format!("weft-allgather-{}.cubin", std::process::id()));
    let (code, out, err) = weft(&["compile", "allgather", "--target", "sm_90a", "--emit", "cubin", "-o", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("registers"), "{out}");
    let cubin = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    // An ELF (cubins are ELF files) with NVIDIA's machine number, EM_CUDA = 190.
    assert_eq!(&cubin[..4], b"\x7fELF");
    assert_eq!(u16::from_le_bytes([cubin[18], cubin[19]]), 190);
}
