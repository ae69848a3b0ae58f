//! The GPU back ends proven without a GPU: every library kernel (collectives, GEMMs) and the
//! MSCCL built-ins lower to per-thread LLVM IR that LLVM verifies for each NVIDIA target, and, where
//! `./setup.sh` installed ptxas and NVSHMEM's bitcode, link NVSHMEM and assemble with
//! `ptxas -v` (collectives for sm_80, sm_90a and sm_100a; GEMMs and MSCCL kernels for sm_80 and
//! sm_90a); a kernel that spills under its GPU default config fails.

use std::process::Command;
use weft::compiler::backend::toolchain::Toolchain;
use weft::compiler::ir::Kernel;
use weft::compiler::pipeline::{run, Options, Output, Target};
use weft::compiler::CompileError;

/// The 1-D collectives.
pub(crate) const COLLECTIVES: [&str; 14] = [
    "allgather",
    "allgather_pull",
    "reduce_scatter",
    "allreduce_one_shot",
    "allreduce_two_shot",
    "broadcast",
    "allgather_ll",
    "allgather_ll_mesh",
    "allreduce_ll_mesh",
    "allreduce_hier",
    "allreduce_ring",
    "allreduce_ring_bidir",
    "reduce_scatter_bidir",
    "allgather_bidir",
];

/// Library kernel `name` at its GPU default (a collective's is the same on every GPU target,
/// and differs from the CPU's tile for the copies and rings), with `defines` set.
pub(crate) fn kernel(name: &str, dtype: &str, defines: &[(&str, &str)]) -> Kernel {
    let mut c = weft::kernels::target_constexprs(name, dtype, Target::parse("sm_80").unwrap()).unwrap();
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
pub(crate) fn tools_or_skip(test: &str) -> bool {
    let tc = Toolchain::new();
    let missing = [tc.ptxas().err(), tc.nvshmem_bitcode(80).err(), tc.nvshmem_bitcode(90).err(), tc.nvshmem_bitcode(100).err()];
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
                // The gpu stage is the kernel's per-thread LLVM IR for NVPTX, as LLVM prints it.
                assert!(out.text.contains("target triple = \"nvptx64-nvidia-cuda\""), "{name}: {}", out.text);
                assert!(out.text.contains(&format!("define ptx_kernel void @{name}(")), "{name}: {}", out.text);
                assert!(out.text.contains("call i32 @llvm.nvvm.read.ptx.sreg.tid.x()"), "{name}: {}", out.text);
            }
        }
    }
}

#[test]
fn collectives_assemble_with_nvshmem_linked_and_do_not_spill() {
    if !tools_or_skip("collectives_assemble_with_nvshmem_linked_and_do_not_spill") {
        return;
    }
    prove(&["sm_80", "sm_90a", "sm_100a"], collective_jobs, cubin_report);
}

/// Every collective at its default config, multimem ones where the target has NVLS.
fn collective_jobs(target: &str) -> Vec<Job> {
    let multimem = (target != "sm_80").then_some(["allreduce_multimem", "allgather_2d"]);
    COLLECTIVES.into_iter().chain(multimem.into_iter().flatten()).map(|name| (name.to_string(), kernel(name, "f32", &[]), true)).collect()
}

/// A cubin's ptxas report as (summary, spills), or what is wrong with the output.
pub(crate) fn cubin_report(out: &Output, _target: &str) -> Result<(String, bool), String> {
    let r = out.ptxas.as_ref().expect("a cubin comes with ptxas's report");
    if out.object.as_ref().is_none_or(|o| o.is_empty()) {
        return Err("empty cubin".into());
    }
    Ok((r.summary(), r.spills()))
}

/// What a proof test builds for one target: a label, the kernel, and whether a spill fails it
/// (default configs do; larger ones are only reported).
pub(crate) type Job = (String, Kernel, bool);

/// Builds every job of every target down to its binary (one thread per target: ptxas and code generation
/// take seconds a kernel), prints each `report`, and fails listing every error and every spill
/// of a strict job.
pub(crate) fn prove(targets: &[&'static str], jobs: fn(&str) -> Vec<Job>, report: fn(&Output, &str) -> Result<(String, bool), String>) {
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = targets.iter().map(|&target| s.spawn(move || prove_target(target, jobs(target), report))).collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker")).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn prove_target(target: &str, jobs: Vec<Job>, report: fn(&Output, &str) -> Result<(String, bool), String>) -> Vec<String> {
    let mut failures = vec![];
    for (label, k, strict) in jobs {
        match run(&k, Target::parse(target).unwrap(), None, &Options::default()).map_err(|e| e.to_string()).and_then(|out| report(&out, target)) {
            Ok((summary, spills)) => {
                println!("{label:<36} {target:<7} {summary}");
                if strict && spills {
                    failures.push(format!("{label} on {target} spills: {summary}"));
                }
            }
            Err(e) => failures.push(format!("{label} on {target}: {e}")),
        }
    }
    failures
}

#[test]
fn multimem_lowers_to_nvls_instructions_on_sm_90a() {
    let k = kernel("allreduce_multimem", "f32", &[]);
    let ir = run(&k, Target::parse("sm_90a").unwrap(), Some("gpu"), &Options::default()).unwrap().text;
    for needle in ["call ptr @nvshmemx_mc_ptr(", "multimem.ld_reduce.relaxed.sys.global.add.f32", "multimem.st.relaxed.sys.global.f32"] {
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
    // 256x256x256 f16 operands need 256 KiB of shared memory (264 KiB with their rows padded
    // for ldmatrix), more than sm_90a's 227 KiB.
    let k = kernel("gemm", "f16", &[("BLOCK_M", "256"), ("BLOCK_N", "256"), ("BLOCK_K", "256")]);
    let e = run(&k, Target::parse("sm_90a").unwrap(), Some("ptx"), &Options::default()).err().expect("too large for a CTA");
    assert!(matches!(e, CompileError::Lower { .. }) && e.to_string().contains("is not supported on target sm_90a"), "{e}");
    assert!(e.to_string().contains("270336 bytes of shared memory, more than the 232448"), "{e}");
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

#[test]
fn cli_cubin_names_the_tensor_maps_a_launcher_must_pass() {
    if !tools_or_skip("cli_cubin_names_the_tensor_maps_a_launcher_must_pass") {
        return;
    }
    // sm_90a stages a bf16 GEMM's A and B tiles through TMA where its rows are 16-byte aligned:
    // the cubin takes two descriptors after its six arguments, and a launcher outside weft
    // (bench/gpu) must encode them.
    let path = std::env::temp_dir().join(format!("weft-gemm-{}.cubin", std::process::id()));
    let d = |kv: &str| ["-D".to_string(), kv.to_string()];
    let mut args: Vec<String> = ["compile", "gemm", "--target", "sm_90a", "--dtype", "bf16", "--emit", "cubin", "-o", path.to_str().unwrap()].map(String::from).to_vec();
    for kv in ["BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64", "num_warps=8", "num_stages=3", "divisible_by_16=a,b,c,m,n,k"] {
        args.extend(d(kv));
    }
    let (code, out, err) = weft(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{err}");
    let maps: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("tensor map ")).collect();
    // A[m, k] (pointer arg 0, rows arg 3, columns and row stride arg 5) in 128x64 boxes, and
    // B[k, n] (pointer 1, rows 5, columns and stride 4) in 64-row boxes, 128-byte swizzled.
    assert_eq!(maps.len(), 2, "{out}");
    assert!(maps[0].starts_with("0 3 5 5 128 64 bf16 128") && maps[1].starts_with("1 5 4 4 64 "), "{maps:?}");
}

#[test]
fn moe_kernels_assemble_and_do_not_spill() {
    if !tools_or_skip("moe_kernels_assemble_and_do_not_spill") {
        return;
    }
    prove(&["sm_80", "sm_90a"], moe_jobs, cubin_report);
}

/// The expert-parallel kernels (`ep_dispatch_v`'s two steps each) at their GPU default,
/// strict, bf16 and f32.
fn moe_jobs(target: &str) -> Vec<Job> {
    let mut jobs = vec![];
    for name in ["ep_dispatch", "ep_combine", "ep_dispatch_v", "ep_dispatch_fp8"] {
        for dtype in ["bf16", "f32"] {
            let c = weft::kernels::target_constexprs(name, dtype, Target::parse(target).unwrap()).unwrap();
            for k in weft::kernels::build_all(name, &c).unwrap() {
                jobs.push((format!("{} {dtype} default", k.name), k, true));
            }
        }
    }
    jobs
}

/// The expert GEMMs (`moe_gemm`, `ag_moe`, `moe_rs`, the baselines' two steps each) and the
/// combine baseline at their GPU default, strict, bf16 and f32, on every NVIDIA target.
#[test]
fn expert_gemms_assemble_and_do_not_spill() {
    if !tools_or_skip("expert_gemms_assemble_and_do_not_spill") {
        return;
    }
    prove(&["sm_80", "sm_90a", "sm_100a"], expert_gemm_jobs, cubin_report);
}

/// The expert GEMMs' and `ep_combine_v`'s jobs (shared with the AMD proof).
pub(crate) fn expert_gemm_jobs(target: &str) -> Vec<Job> {
    let mut jobs = vec![];
    for name in ["moe_gemm", "ag_moe", "ag_moe_v", "moe_rs", "moe_rs_v", "ep_combine_v", "moe_align"] {
        for dtype in ["bf16", "f32"] {
            let c = weft::kernels::target_constexprs(name, dtype, Target::parse(target).unwrap()).unwrap();
            for k in weft::kernels::build_all(name, &c).unwrap() {
                jobs.push((format!("{} ({name}) {dtype} default", k.name), k, true));
            }
        }
    }
    jobs
}

/// The GEMM kernels at their GPU default config and two more, per dtype.
pub(crate) const GEMMS: [&str; 4] = ["gemm", "ag_gemm", "gemm_rs", "gemm_rs_ps"];

/// GEMM configs beyond the default: (BLOCK_M, BLOCK_N, BLOCK_K, num_warps).
pub(crate) const GEMM_CONFIGS: [(usize, usize, usize, usize); 2] = [(64, 64, 32, 8), (128, 64, 32, 8)];

pub(crate) fn gpu_kernel(name: &str, dtype: &str, target: &str, config: Option<(usize, usize, usize, usize)>) -> Kernel {
    let mut c = weft::kernels::target_constexprs(name, dtype, Target::parse(target).unwrap()).unwrap();
    if let Some((m, n, k, w)) = config {
        for (key, v) in [("BLOCK_M", m), ("BLOCK_N", n), ("BLOCK_K", k), ("num_warps", w)] {
            c.set(key, &v.to_string());
        }
    }
    weft::kernels::build(name, &c).unwrap()
}

/// Every MSCCL built-in algorithm in every protocol (8 ranks; 2 nodes of 4 for the
/// hierarchical ones), lowered to one kernel each, and the MSCCL++ plan fixtures (Simple, and
/// LL packets in f32 and bf16).
pub(crate) fn msccl_kernels() -> Vec<(String, Kernel)> {
    use weft::compiler::msccl::algorithms::{self, AlgoParams, BUILTINS};
    use weft::compiler::msccl::lower::{lower, LowerOptions};
    use weft::compiler::msccl::Protocol;
    let mut out = vec![];
    for algo in BUILTINS {
        for proto in [Protocol::Simple, Protocol::LL, Protocol::LL128] {
            let params = AlgoParams { ranks: 8, nodes: if algo.hierarchical { 2 } else { 1 }, instances: 1, protocol: proto };
            let ir = algorithms::build(algo.name, &params).unwrap().to_ir().unwrap();
            let k = lower(&ir, &LowerOptions { dtype: weft::compiler::ir::Scalar::F32, block: LowerOptions::default().block }).unwrap().kernel;
            out.push((format!("{}/{proto:?}", algo.name), k));
        }
    }
    use weft::compiler::ir::Scalar;
    use weft::compiler::msccl::plan::{from_json, lower_plan};
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/compiler/src/msccl/tests/fixtures/");
    for (file, dtypes) in [("mscclpp_allreduce_allpairs_4.json", &[Scalar::F32][..]), ("mscclpp_allreduce_packet_4.json", &[Scalar::F32, Scalar::BF16])] {
        let plan = from_json(&std::fs::read_to_string(format!("{fixtures}{file}")).unwrap()).unwrap();
        for &t in dtypes {
            out.push((format!("{file}/{}", t.mlir()), lower_plan(&plan, t, 128).unwrap().kernel));
        }
    }
    out
}

#[test]
fn gemms_and_msccl_kernels_lower_to_verified_llvm_ir() {
    for target in ["sm_80", "sm_90a", "sm_100a"] {
        for name in GEMMS {
            for dtype in ["bf16", "f16", "f32"] {
                for config in [None].into_iter().chain(GEMM_CONFIGS.map(Some)) {
                    let k = gpu_kernel(name, dtype, target, config);
                    let out = run(&k, Target::parse(target).unwrap(), Some("gpu"), &Options::default())
                        .unwrap_or_else(|e| panic!("{name} {dtype} {config:?} on {target}: {e}"));
                    // 16-bit operands use the tensor cores from sm_80 on; f32 ones the FMA path.
                    let mma = out.text.contains("@llvm.nvvm.mma.m16n8k16.row.col");
                    assert_eq!(mma, dtype != "f32", "{name} {dtype} {config:?} on {target}");
                }
            }
        }
        for (name, k) in msccl_kernels() {
            run(&k, Target::parse(target).unwrap(), Some("gpu"), &Options::default()).unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
        }
    }
}

#[test]
fn gemms_and_msccl_kernels_assemble_and_the_defaults_do_not_spill() {
    if !tools_or_skip("gemms_and_msccl_kernels_assemble_and_the_defaults_do_not_spill") {
        return;
    }
    prove(&["sm_80", "sm_90a"], gemm_and_msccl_jobs, cubin_report);
}

/// The GEMMs (bf16 and f32; the GPU default config, strict, and [`GEMM_CONFIGS`]) and every
/// MSCCL built-in kernel (strict) for `target`.
pub(crate) fn gemm_and_msccl_jobs(target: &str) -> Vec<Job> {
    let mut jobs = vec![];
    for name in GEMMS {
        for dtype in ["bf16", "f32"] {
            for config in [None].into_iter().chain(GEMM_CONFIGS.map(Some)) {
                let label = match config {
                    None => format!("{name} {dtype} default"),
                    Some((m, n, k, w)) => format!("{name} {dtype} {m}x{n}x{k} w{w}"),
                };
                jobs.push((label, gpu_kernel(name, dtype, target, config), config.is_none()));
            }
        }
    }
    // gemm_ar at its GPU default, every method, strict; multimem (f32 only, as
    // allreduce_multimem) where the target has NVLS.
    let nvls = target.starts_with("sm_") && target != "sm_80";
    for method in ["1", "2", "3"] {
        for dtype in ["bf16", "f32"].into_iter().filter(|&d| method != "3" || (nvls && d == "f32")) {
            let c = weft::kernels::target_constexprs("gemm_ar", dtype, Target::parse(target).unwrap()).unwrap().with("METHOD", method);
            jobs.push((format!("gemm_ar {dtype} METHOD={method} default"), weft::kernels::build("gemm_ar", &c).unwrap(), true));
        }
    }
    // flash_decode assembles; its spills are reported, not failed, while every kernel with
    // NVSHMEM calls in several roles sits at ptxas's 255-register cap (gemm_rs's issue too).
    // Its baseline's three launches too.
    for (name, dtype) in ["flash_decode", "flash_decode_v"].into_iter().flat_map(|n| ["bf16", "f32"].map(|d| (n, d))) {
        let c = weft::kernels::target_constexprs(name, dtype, Target::parse(target).unwrap()).unwrap();
        for k in weft::kernels::build_all(name, &c).unwrap() {
            jobs.push((format!("{} ({name}) {dtype} default", k.name), k, false));
        }
    }
    jobs.extend(msccl_kernels().into_iter().map(|(n, k)| (n, k, true)));
    jobs
}

/// A ringed GEMM that calls no library asks ptxas to keep as many CTAs resident as an SM's
/// shared memory holds (`.minnctapersm`), and ptxas's registers let that many in without
/// spilling; kernels that call NVSHMEM ask for one.
#[test]
fn ringed_gemms_ask_for_the_ctas_shared_memory_holds_and_fit_their_registers() {
    if !tools_or_skip("ringed_gemms_ask_for_the_ctas_shared_memory_holds_and_fit_their_registers") {
        return;
    }
    let resident = |ptx: &str| -> usize {
        let line = ptx.lines().find(|l| l.trim_start().starts_with(".minnctapersm")).expect("a CTA residency hint");
        line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a count")
    };
    // Per SM: shared memory (with each CTA's 1 KiB reservation), threads and registers.
    for (target, sm_smem) in [("sm_80", 164 * 1024), ("sm_90a", 228 * 1024)] {
        let t = Target::parse(target).unwrap();
        for config in [(64, 64, 32, 4), (128, 128, 64, 8)] {
            // The variant a launch with aligned buffers and sizes divisible by 16 runs (the
            // general one checks alignment at run time and stages no operand by `cp.async`).
            let mut k = gpu_kernel("gemm", "bf16", target, Some(config));
            k.constexprs.push(("divisible_by_16".into(), "a,b,c,m,n,k".into()));
            let ctas = resident(&run(&k, t, Some("ptx"), &Options::default()).unwrap().text);
            let out = run(&k, t, None, &Options::default()).unwrap();
            let r = out.ptxas.as_ref().expect("ptxas's report");
            let (threads, smem) = (config.3 * 32, (r.shared + out.dynamic_smem) as usize + 1024);
            let label = format!("gemm {config:?} on {target}: {ctas} CTAs, {} registers, {smem} B", r.registers);
            assert!(!r.spills(), "{label} spills");
            assert!(ctas * smem <= sm_smem && ctas * threads <= 2048, "{label}: more CTAs than an SM holds");
            assert!(ctas * threads * (r.registers as usize).div_ceil(8) * 8 <= 65536, "{label}: registers for fewer CTAs");
            // Below 64 KiB of ring per CTA, an SM's shared memory holds several.
            assert_eq!(ctas > 1, smem * 2 <= sm_smem, "{label}");
        }
        let ag = gpu_kernel("ag_gemm", "bf16", target, None);
        assert_eq!(resident(&run(&ag, t, Some("ptx"), &Options::default()).unwrap().text), 1, "ag_gemm on {target}");
    }
}
