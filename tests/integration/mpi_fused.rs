//! Issue 16's fused kernels under `mpirun` (2 and 4 processes, oversubscribed): every
//! `gemm_ar` method, the LL AllToAll (`ep_dispatch`, `ep_combine`, `ep_dispatch_fp8`),
//! `ag_moe`, `moe_rs` and `flash_decode`, on uneven shapes drawn from a fixed seed, one node
//! and 2x2; each process checks its ranks against the kernel's plain-math reference (f64) and
//! the processes agree on the verdict. `tests/integration/mpi.rs` has the first runs of each
//! (2x2 `gemm_ar` default, 2-process MoE kernels); these add the rest.

use crate::checks_compiled::Rng;
use crate::mpi::{have_mpirun, passes, weft_mpi};

/// A value in `lo..=hi`.
fn pick(rng: &mut Rng, lo: u64, hi: u64) -> String {
    (lo + rng.below(hi - lo + 1)).to_string()
}

/// `weft run NAME --transport mpi --nodes NODES` followed by `more`.
fn run_args<'a>(name: &'a str, nodes: &'a str, more: &'a [String]) -> Vec<&'a str> {
    ["run", name, "--transport", "mpi", "--nodes", nodes, "--iters", "2"].into_iter().chain(more.iter().map(String::as_str)).collect()
}

#[test]
fn gemm_ar_every_method_on_processes() {
    if !have_mpirun() {
        return;
    }
    let mut rng = Rng(0x5eed_16a4);
    // (processes, nodes, METHOD or default, dtype, topology shown)
    let runs = [(2, "1", None, "f16", "(1x2)"), (4, "1", Some("1"), "bf16", "(1x4)"), (4, "1", Some("2"), "f32", "(1x4)"), (4, "1", Some("3"), "bf16", "(1x4)"), (4, "2", Some("1"), "f16", "(2x2)")];
    for (np, nodes, method, dtype, shows) in runs {
        let mut more = vec!["--m".into(), pick(&mut rng, 37, 150), "--n".into(), pick(&mut rng, 9, 90), "--k".into(), pick(&mut rng, 5, 70), "--dtype".into(), dtype.into()];
        if let Some(m) = method {
            more.extend(["-D".into(), format!("METHOD={m}")]);
        }
        passes(np, &run_args("gemm_ar", nodes, &more), shows);
    }
    // Multimem reaches one node's ranks: across nodes a typed error from every process.
    let more = ["--m", "64", "--n", "32", "--k", "16", "-D", "METHOD=3"].map(String::from);
    let (ok, _, err) = weft_mpi(4, &run_args("gemm_ar", "2", &more));
    assert!(!ok && err.contains("multimem reaches one node's ranks only"), "{err}");
}

#[test]
fn ll_alltoall_on_4_processes() {
    if !have_mpirun() {
        return;
    }
    let mut rng = Rng(0x5eed_16e9);
    // Hot routing sends every token to one expert; sparse leaves half the experts empty.
    for (name, routing, dtype) in [("ep_dispatch", "hot", "bf16"), ("ep_combine", "sparse", "f32"), ("ep_combine", "hot", "f16"), ("ep_dispatch_fp8", "uniform", "bf16")] {
        let experts = 4 * (1 + rng.below(3));
        let more = [
            "--tokens".into(),
            pick(&mut rng, 1, 45),
            "--hidden".into(),
            (4 * (1 + rng.below(40))).to_string(),
            "--topk".into(),
            pick(&mut rng, 1, experts.min(5)),
            "--experts".into(),
            experts.to_string(),
            "--routing".into(),
            routing.into(),
            "--dtype".into(),
            dtype.into(),
        ];
        passes(4, &run_args(name, "1", &more), "ranks=4 (1x4)");
    }
}

#[test]
fn expert_gemms_on_4_processes() {
    if !have_mpirun() {
        return;
    }
    let mut rng = Rng(0x5eed_16a9);
    for (name, routing, dtype, nodes, shows) in [("ag_moe", "sparse", "f16", "1", "(1x4)"), ("moe_rs", "hot", "bf16", "1", "(1x4)"), ("ag_moe", "hot", "f32", "2", "(2x2)"), ("moe_rs", "sparse", "f32", "2", "(2x2)")] {
        let more = [
            "--tokens".into(),
            pick(&mut rng, 3, 40),
            "--hidden".into(),
            pick(&mut rng, 4, 60),
            "--n".into(),
            pick(&mut rng, 3, 50),
            "--topk".into(),
            pick(&mut rng, 1, 4),
            "--experts".into(),
            "8".into(),
            "--routing".into(),
            routing.into(),
            "--dtype".into(),
            dtype.into(),
        ];
        passes(4, &run_args(name, nodes, &more), shows);
    }
}

#[test]
fn flash_decode_on_processes() {
    if !have_mpirun() {
        return;
    }
    let mut rng = Rng(0x5eed_16dc);
    // GQA groups of 1 to 4 query heads per KV head; caches that do not split evenly.
    // The non-fused baseline's three launches once, at 4 processes.
    for (name, np, nodes, dtype, shows) in [("flash_decode", 2, "1", "f16", "(1x2)"), ("flash_decode", 4, "1", "bf16", "(1x4)"), ("flash_decode", 4, "1", "f32", "(1x4)"), ("flash_decode_v", 4, "1", "bf16", "(1x4)")] {
        let kv = 1 + rng.below(3);
        let more = [
            "--seq".into(),
            pick(&mut rng, 5, 1500),
            "--heads".into(),
            (kv * (1 + rng.below(4))).to_string(),
            "--kv-heads".into(),
            kv.to_string(),
            "--head-dim".into(),
            pick(&mut rng, 3, 70),
            "--batch".into(),
            pick(&mut rng, 1, 3),
            "--dtype".into(),
            dtype.into(),
        ];
        passes(np, &run_args(name, nodes, &more), shows);
    }
}
