//! The `weft` binary as a user runs it.

use std::process::Command;

fn weft(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft")).args(args).output().expect("weft runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn compile_allgather_shows_shmem_ops() {
    let (code, out, err) = weft(&["compile", "allgather", "--emit", "tir"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"shmem.put_signal\"") && out.contains("\"shmem.signal_wait_until\""), "{out}");
}

#[test]
fn run_verifies_and_reports_bandwidth() {
    let (code, out, err) = weft(&["run", "allgather", "--ranks", "8", "--elems", "1000003", "--dtype", "bf16"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS") && out.contains("GB/s"), "{out}");
    let (code, out, err) = weft(&["run", "allreduce", "--ranks", "4", "--elems", "7", "--dtype", "f16"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn expert_parallel_kernels_are_listed_and_run() {
    let (code, out, _) = weft(&["list"]);
    assert_eq!(code, 0);
    assert!(["ep_dispatch ", "ep_combine ", "ep_dispatch_v "].iter().all(|k| out.contains(k)), "{out}");
    for (name, routing) in [("ep_dispatch", "hot"), ("ep_combine", "sparse"), ("ep_dispatch_v", "uniform")] {
        let (code, out, err) = weft(&["run", name, "--ranks", "4", "--tokens", "19", "--hidden", "40", "--topk", "3", "--experts", "8", "--routing", routing, "--dtype", "bf16"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("PASS") && out.contains("tokens=19") && out.contains("payload"), "{out}");
    }
    let (code, _, err) = weft(&["run", "ep_dispatch", "--experts", "6"]);
    assert!(code != 0 && err.contains("split evenly"), "{err}");
    let (code, _, err) = weft(&["run", "ep_combine", "--routing", "skewed"]);
    assert!(code != 0 && err.contains("uniform, sparse, hot"), "{err}");
}

#[test]
fn expert_gemm_kernels_are_listed_and_run() {
    let (code, out, _) = weft(&["list"]);
    assert_eq!(code, 0);
    assert!(["moe_gemm ", "ag_moe ", "ag_moe_v ", "moe_rs ", "moe_rs_v ", "ep_combine_v "].iter().all(|k| out.contains(k)), "{out}");
    for (name, routing, ranks) in [("ag_moe", "hot", "4"), ("moe_rs", "sparse", "3"), ("ag_moe_v", "uniform", "2"), ("moe_rs_v", "hot", "4"), ("moe_gemm", "sparse", "1")] {
        let (code, out, err) = weft(&["run", name, "--ranks", ranks, "--tokens", "13", "--hidden", "40", "--n", "24", "--topk", "3", "--experts", "12", "--routing", routing, "--dtype", "bf16"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("PASS") && out.contains("tokens=13") && out.contains("TFLOP/s"), "{out}");
    }
    let (code, _, err) = weft(&["run", "moe_rs", "--ranks", "4", "--experts", "6"]);
    assert!(code != 0 && err.contains("split evenly"), "{err}");
}

#[test]
fn moe_align_is_listed_and_runs() {
    let (code, out, _) = weft(&["list"]);
    assert!(code == 0 && out.contains("moe_align "), "{out}");
    for (routing, ranks, nodes) in [("hot", "1", "1"), ("sparse", "3", "1"), ("uniform", "8", "1"), ("hot", "4", "2")] {
        let (code, out, err) = weft(&["run", "moe_align", "--ranks", ranks, "--nodes", nodes, "--tokens", "37", "--topk", "3", "--experts", "24", "--routing", routing]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("PASS") && out.contains("choices/s"), "{out}");
    }
    let (code, _, err) = weft(&["run", "moe_align", "--ranks", "4", "--experts", "6", "--topk", "2"]);
    assert!(code != 0 && err.contains("split evenly"), "{err}");
}

#[test]
fn bad_arguments_give_one_line_and_a_nonzero_exit() {
    for args in [
        &["run", "nosuchkernel"][..],
        &["run", "allgather", "--ranks", "0"],
        &["run", "allgather", "--dtype", "f64"],
        &["compile", "allgather", "--emit", "nosuchstage"],
        &["frobnicate"],
    ] {
        let (code, out, err) = weft(args);
        assert_ne!(code, 0, "{args:?} succeeded: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?} printed:\n{err}");
        assert!(err.starts_with("weft: error:"), "{err}");
    }
}

#[test]
fn compile_reports_bad_ir_with_location() {
    let dir = std::env::temp_dir().join(format!("weft-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.mlir");
    std::fs::write(&bad, "func.func @k(%s: i32) {\n  %t = \"shmem.signal_wait_until\"(%s, %s) {cmp = \"eq\"} : (i32, i32) -> !shmem.token\n  return\n}\n").unwrap();
    let (code, _, err) = weft(&["compile", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("bad.mlir:2") && err.contains("shmem.signal_wait_until"), "{err}");
}

#[test]
fn list_and_every_stage_of_a_library_kernel() {
    let (code, out, _) = weft(&["list"]);
    assert_eq!(code, 0);
    for name in ["allgather", "allgather_ll", "reduce_scatter", "allreduce_multimem", "broadcast"] {
        assert!(out.contains(name), "{out}");
    }
    for (stage, needle) in [("lowered", "llvm.call"), ("llvm-mlir", "llvm.func"), ("llvm", "define void @weft_kernel_allreduce_one_shot"), ("asm", "weft_kernel_allreduce_one_shot:")] {
        let (code, out, err) = weft(&["compile", "allreduce_one_shot", "--emit", stage, "--dtype", "bf16", "-D", "BLOCK=64"]);
        assert_eq!(code, 0, "{stage}: {err}");
        assert!(out.contains(needle), "{stage} lacks {needle:?}");
    }
}

#[test]
fn run_overlap_kernels_verifies_and_reports_tflops() {
    // The commands, scaled down so the naive reference stays quick in debug builds.
    for args in [
        &["run", "ag_gemm", "--ranks", "4", "--m", "256", "--n", "128", "--k", "64", "--iters", "1"][..],
        &["run", "gemm_rs", "--ranks", "4", "--nodes", "2", "--m", "250", "--n", "96", "--k", "40", "--dtype", "bf16", "--iters", "1"],
        &["run", "gemm", "--ranks", "1", "--m", "65", "--n", "33", "--k", "17", "--dtype", "f16", "--iters", "1"],
    ] {
        let (code, out, err) = weft(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert!(out.contains("PASS") && out.contains("TFLOP/s"), "{out}");
    }
    let (code, _, err) = weft(&["run", "ag_gemm", "--ranks", "4", "--m", "2"]);
    assert_ne!(code, 0);
    assert!(err.contains("every rank needs a row"), "{err}");
}

#[test]
fn msccl_verify_compile_run_and_xml_round_trip() {
    let (code, out, err) = weft(&["msccl", "verify", "hierarchical_allreduce", "--ranks", "8", "--nodes", "2", "--proto", "LL128"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified allreduce on 8 ranks"), "{out}");
    let (code, out, err) = weft(&["msccl", "compile", "ring_allreduce", "--ranks", "4", "--emit", "tir"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"shmem.put_signal\"") && out.contains("\"shmem.signal_wait_until\""), "{out}");
    // The same kernel for GPUs: the gpu stage is its per-thread LLVM IR for the target.
    for (target, kernel) in [("sm_90a", "define ptx_kernel void"), ("gfx942", "define amdgpu_kernel void")] {
        let (code, out, err) = weft(&["msccl", "compile", "ring_allreduce", "--ranks", "4", "--target", target, "--emit", "gpu"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("{kernel} @msccl_ring_allreduce(")), "{out}");
    }
    let (code, _, err) = weft(&["msccl", "compile", "ring_allreduce", "--target", "sm_75"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("weft: error: unknown target `sm_75`"), "{err}");
    // Export to MSCCL-IR XML, then run the file: the plain-math check must pass.
    let (code, xml, err) = weft(&["msccl", "compile", "allgather_ring", "--ranks", "3", "--proto", "LL", "--emit", "xml"]);
    assert_eq!(code, 0, "{err}");
    let path = std::env::temp_dir().join(format!("weft-cli-{}.xml", std::process::id()));
    std::fs::write(&path, xml).unwrap();
    let (code, out, err) = weft(&["msccl", "run", path.to_str().unwrap(), "--elems", "1001", "--dtype", "f16", "--iters", "1"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS") && out.contains("proto=LL"), "{out}");
    let (code, out, err) = weft(&["msccl", "run", "ring_allreduce", "--ranks", "8", "--elems", "100003", "--proto", "LL128", "--iters", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn msccl_errors_are_one_line() {
    for (args, needle) in [
        (&["msccl", "verify", "nosuch"][..], "unknown MSCCL algorithm `nosuch`"),
        (&["msccl", "run", "ring_allreduce", "--proto", "LL256"], "unknown protocol `LL256`"),
        (&["msccl", "run", "hierarchical_allreduce", "--ranks", "6", "--nodes", "4"], "cannot be split evenly"),
        (&["msccl", "verify", "/nonexistent/algo.xml"], "/nonexistent/algo.xml"),
    ] {
        let (code, _, err) = weft(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn synthesized_and_distributed_algorithms_run_from_their_xml() {
    let dir = std::env::temp_dir().join(format!("weft-synth-cli-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (code, out, err) = weft(&["msccl", "synth", "least-steps", "--topo", "ring:4", "--coll", "allgather", "-o", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    let (code, out, err) = weft(&["msccl", "distribute", "alltoall", "--topo", "fc:2", "--copies", "2", "--scatter-root", "1", "-o", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("alltoall.n4-fc2x2"), "{out}");
    let mut xmls: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    xmls.sort();
    assert_eq!(xmls.len(), 2, "{xmls:?}");
    for x in &xmls {
        let (code, out, err) = weft(&["msccl", "run", x.to_str().unwrap(), "--nodes", "2", "--elems", "1000", "--iters", "1"]);
        assert_eq!(code, 0, "{x:?}: {err}");
        assert!(out.contains("PASS"), "{x:?}: {out}");
    }
    let (code, _, err) = weft(&["msccl", "distribute", "alltoall", "--topo", "ring:4", "--copies", "2", "--scatter-root", "2"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no link from gather root 0 to scatter root 2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cuda_transport_without_a_gpu_says_what_is_missing() {
    let (code, out, err) = weft(&["devices"]);
    if code == 0 {
        return eprintln!("skipped: this machine has GPUs:\n{out}");
    }
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.starts_with("weft: error: CUDA driver not found: libcuda.so.1") || err.contains("NVSHMEM") || err.contains("no CUDA GPU"), "{err}");
    let (code, _, run_err) = weft(&["run", "allgather", "--transport", "cuda", "--elems", "64"]);
    assert_eq!((code, run_err.as_str()), (2, err.as_str()));
    let (code, _, bad) = weft(&["run", "allgather", "--transport", "tcp"]);
    assert!(code == 2 && bad.contains("unknown transport `tcp` (local, cuda, mpi)"), "{bad}");
}

#[test]
fn the_layout_stage_dumps_for_a_gemm_and_a_collective_and_a_file_of_it_compiles() {
    let dir = std::env::temp_dir().join(format!("weft-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (kernel, target, needle) in [("gemm", "sm_90a", "kind = \"mma\""), ("allgather", "sm_90a", "kind = \"blocked\""), ("gemm", "gfx942", "kind = \"dot_op\"")] {
        let file = dir.join(format!("{kernel}.layout.mlir"));
        let f = file.to_str().unwrap();
        let (code, _, err) = weft(&["compile", kernel, "--target", target, "--dtype", "bf16", "--emit", "layout", "-o", f]);
        assert_eq!(code, 0, "{kernel} {target}: {err}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains(needle) && text.contains("tensor<"), "{kernel} {target}:\n{text}");
        // The file starts a compilation that gives the same per-thread code as the kernel.
        let (code, from_file, err) = weft(&["compile", f, "--target", target, "--emit", "gpu"]);
        assert_eq!(code, 0, "{kernel} {target} from its layout file: {err}");
        let (_, direct, _) = weft(&["compile", kernel, "--target", target, "--dtype", "bf16", "--emit", "gpu"]);
        let count = |t: &str, pat: &str| t.matches(pat).count();
        for pat in ["mma.sync", "load <", "store <", "barrier"] {
            assert_eq!(count(&from_file, pat), count(&direct, pat), "{kernel} {target}: `{pat}`");
        }
        // An encoding the lowering cannot use is one line naming the value.
        let bad = text.replacen("kind = \"blocked\", sizePerThread = array<i64: ", "kind = \"blocked\", sizePerThread = array<i64: 3, ", 1);
        std::fs::write(&file, bad).unwrap();
        let (code, _, err) = weft(&["compile", f, "--target", target, "--emit", "gpu"]);
        assert!(code != 0 && err.trim_end().lines().count() == 1 && err.contains(".layout.mlir"), "{kernel} {target}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compilation_starts_from_a_dumped_nvidia_stage() {
    if !super::gpu::tools_or_skip("a_compilation_starts_from_a_dumped_nvidia_stage") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("weft-resume-{}", std::process::id()));
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    // What a launcher reads from the report: the summary (registers, dynamic shared memory) and
    // sm_90a's tensor maps, which the IR does not carry (ptxas's log has its own compile time).
    let launch_lines = |report: &str| report.lines().filter(|l| l.starts_with("tensor map")).chain(report.lines().next()).map(str::to_string).collect::<Vec<_>>();
    let mut d = dir.clone();
    for target in ["sm_90a", "sm_80"] {
        d = dir.join(target).join("dump");
        let reference = dir.join(target).join("ref.cubin");
        let mut args = vec!["compile", "gemm", "--target", target, "--dtype", "bf16", "--emit", "cubin"];
        // sm_90a stages 16-byte aligned bf16 tiles through TMA (tensor maps, dynamic shared memory).
        if target == "sm_90a" {
            for kv in ["BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64", "num_warps=8", "divisible_by_16=a,b,c,m,n,k"] {
                args.extend(["-D", kv]);
            }
        }
        let (dump, out) = (path(&d), path(&reference));
        args.extend(["--dump-dir", &dump, "-o", &out]);
        let (code, report, err) = weft(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(report.contains("tensor map"), target == "sm_90a", "{report}");
        let want = std::fs::read(&reference).unwrap();
        // Each later stage's dump, compiled on, gives the same cubin, resource summary and
        // tensor maps as the whole run.
        for stage in ["gemm.layout.mlir", "gemm.gpu.ll", "gemm.llvm.ll", "gemm.ptx.ptx"] {
            let out = dir.join(format!("{target}.{stage}.cubin"));
            let (code, text, err) = weft(&["compile", &path(&d.join(stage)), "--target", target, "--emit", "cubin", "-o", &path(&out)]);
            assert_eq!(code, 0, "{target} {stage}: {err}");
            assert_eq!((launch_lines(&text), std::fs::read(&out).unwrap()), (launch_lines(&report), want.clone()), "{target} {stage}");
        }
    }
    // A damaged launch fact is one line of error naming it.
    let ptx = std::fs::read_to_string(dir.join("sm_90a/dump/gemm.ptx.ptx")).unwrap();
    let bad = dir.join("sm_90a/gemm.ptx.ptx");
    std::fs::write(&bad, ptx.replacen("tensor_map ", "tensor_map x", 1)).unwrap();
    let (code, _, err) = weft(&["compile", &path(&bad), "--target", "sm_90a", "--emit", "cubin"]);
    assert!(code != 0 && err.contains("malformed launch fact") && err.trim_end().lines().count() == 1, "{err}");
    let (code, ptx, err) = weft(&["compile", &path(&d.join("gemm.gpu.ll")), "--target", "sm_80", "--emit", "ptx"]);
    assert_eq!((code, ptx), (0, std::fs::read_to_string(d.join("gemm.ptx.ptx")).unwrap()), "{err}");
    // A stage before the start, or a target that cannot resume, is one line of error.
    for (file, target, emit) in [("gemm.ptx.ptx", "sm_80", "llvm"), ("gemm.gpu.ll", "gfx942", "hsaco"), ("gemm.cubin.txt", "sm_80", "cubin")] {
        let (code, _, err) = weft(&["compile", &path(&d.join(file)), "--target", target, "--emit", emit]);
        assert!(code != 0 && err.trim_end().lines().count() == 1 && err.starts_with("weft: error:"), "{file} {target}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mscclpp_plan_runs_verifies_and_compiles() {
    let plan = concat!(env!("CARGO_MANIFEST_DIR"), "/compiler/src/msccl/tests/fixtures/mscclpp_allreduce_allpairs_4.json");
    let (code, out, err) = weft(&["msccl", "run", plan, "--elems", "1003", "--iters", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("allreduce_allpairs_put (MSCCL++ plan) ranks=4") && out.contains("PASS"), "{out}");
    let (code, out, err) = weft(&["msccl", "verify", plan]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("every wait has its signal"), "{out}");
    let (code, out, err) = weft(&["msccl", "compile", plan, "--emit", "tir"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"shmem.signal_op\"") && out.contains("\"shmem.put\""), "{out}");
    // A broken plan is one line naming where it is wrong.
    let err = broken_plan(plan, "\"put\"", "\"glres\"", "run");
    assert!(err.contains("gpus[0].threadblocks[0].ops[0]: operation `glres` is not supported"), "{err}");
}

/// `weft msccl <cmd>` on `plan` with its first `from` replaced by `to`: it must fail with one
/// line of error, which is returned.
fn broken_plan(plan: &str, from: &str, to: &str, cmd: &str) -> String {
    let text = std::fs::read_to_string(plan).unwrap().replacen(from, to, 1);
    let bad = std::env::temp_dir().join(format!("weft-plan-{}-{}.json", std::process::id(), to.trim_matches('"')));
    std::fs::write(&bad, text).unwrap();
    let (code, _, err) = weft(&["msccl", cmd, bad.to_str().unwrap()]);
    let _ = std::fs::remove_file(&bad);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    err
}

#[test]
fn mscclpp_ll_plan_runs_and_compiles_to_ll_words() {
    let plan = concat!(env!("CARGO_MANIFEST_DIR"), "/compiler/src/msccl/tests/fixtures/mscclpp_allreduce_packet_4.json");
    for dtype in ["f32", "bf16"] {
        let (code, out, err) = weft(&["msccl", "run", plan, "--elems", "1003", "--iters", "1", "--dtype", dtype]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("allreduce_packets (MSCCL++ plan) ranks=4") && out.contains("PASS"), "{out}");
    }
    let (code, out, err) = weft(&["msccl", "compile", plan, "--emit", "tir"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"shmem.ll_pack\"") && out.contains("\"shmem.ll_recv\""), "{out}");
    // A local packet copy aimed at a peer is one line naming the op.
    let err = broken_plan(plan, "\"ppkt\"", "\"cpkt\"", "verify");
    assert!(err.contains("gpus[0].threadblocks[1].ops[0]") && err.contains("`cpkt` has the wrong operands"), "{err}");
}

#[test]
fn cache_shows_its_entries_and_limit_and_clears() {
    let dir = std::env::temp_dir().join(format!("weft-cli-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |args: &[&str], max: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_weft")).args(args).env("WEFT_CACHE_DIR", &dir).env("WEFT_CACHE_MAX_MB", max).output().expect("weft runs");
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, out, err) = run(&["cache"], "64");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 entries") && out.contains("limit 64 MiB"), "{out}");
    let (code, out, err) = run(&["run", "allgather", "--ranks", "2", "--elems", "33"], "64");
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = run(&["cache"], "0");
    assert_eq!(code, 0);
    assert!(!out.contains(" 0 entries") && out.contains("limit none"), "{out}");
    let (code, out, err) = run(&["cache"], "lots");
    assert!(code == 0 && err.contains("WEFT_CACHE_MAX_MB") && out.contains("limit 2048 MiB"), "{out}{err}");
    let (code, out, _) = run(&["cache", "--clear"], "64");
    assert!(code == 0 && out.contains("cleared"), "{out}");
    assert!(run(&["cache"], "64").1.contains("0 entries"));
    let _ = std::fs::remove_dir_all(&dir);
}
