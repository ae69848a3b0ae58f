//! `cargo bench --bench fused`: the fused kernels of the library's second wave against their
//! baselines, same run, on `local` at 2, 4 and 8 ranks and 2x2 nodes:
//! - GEMM-AllReduce (`gemm_ar`, each `METHOD` and the size-picked default) against the GEMM
//!   then the library's AllReduce;
//! - distributed flash decoding (`flash_decode`) against its non-fused sequence on the same
//!   ranks (`flash_decode_v`: local partials, AllGather of them, combine on every rank), and,
//!   for scale, the same decode on one rank holding the whole cache (Triton-distributed
//!   reports its decode by node count that way; on a shared 2-core machine the one rank uses
//!   both cores with no communication at all): batch 1, 32 query / 8 KV heads of 128, caches
//!   of 1M and 64K positions divided by 32.
//!
//! Shapes: Qwen3-32B's row-parallel layers, Triton-distributed's GEMM-AllReduce anchor (MLP
//! down projection N = 5120, K = 25600; attention output N = 5120, K = 8192), with M = 256
//! tokens, N and K divided by 32 so a 2-core CPU finishes in minutes: `k` is split over the
//! ranks as tensor parallelism does. bf16 in, f32 accumulation.
//!
//! A 2-core machine shared with other work is noisy, so the baseline and every fused variant
//! run interleaved, one launch each per round, for `WEFT_FUSED_ROUNDS` rounds (default 15);
//! a time is the median over rounds, and the load average is printed beside each row. Writes
//! `target/weft-bench/fused.md`. `WEFT_FUSED_ONLY=gemm_ar` or `=flash_decode` runs one part;
//! `WEFT_FUSED_LAYOUTS=1x4,1x8` keeps those gemm_ar topologies, and
//! `WEFT_FUSED_CX="BLOCK_K=32,..."` overrides every gemm_ar variant's constexprs;
//! `WEFT_FUSED_METHODS=default,two-shot` keeps those gemm_ar variants (one-shot alone takes
//! most of a run at 8 ranks).
//!
//! gemm_ar rows also give the median CPU time per launch (every thread of this process): on
//! 2 shared cores the wall time moves 2x with the load, while the CPU time counts the work
//! and the spinning of waits, which other processes' load does not change.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use support::{load, median, ms, process_cpu};
use weft::kernels::{prepare, prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::{DType, LocalOptions, Topology, World};

const TOPOLOGIES: [(usize, usize); 4] = [(1, 2), (1, 4), (1, 8), (2, 2)];
/// (label, M, N, K all ranks together), scaled by 1/32 in N and K.
const SHAPES: [(&str, usize, usize, usize); 2] = [("mlp down", 256, 160, 800), ("attn out", 256, 160, 256)];
const DTYPE: DType = DType::BF16;

fn main() {
    let rounds: usize = std::env::var("WEFT_FUSED_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(15).max(3);
    let mut table = format!(
        "GEMM-AllReduce vs GEMM then AllReduce, `local`, bf16, {rounds} interleaved rounds, median ms (wall; CPU of every thread)\n\n| kernel | topology | M x N x K (k/rank) | gemm + allreduce ms | fused ms | speedup | CPU ms base / fused | load |\n|---|---|---|---|---|---|---|---|\n"
    );
    let only = std::env::var("WEFT_FUSED_ONLY").unwrap_or_default();
    let total = TOPOLOGIES.len() * SHAPES.len();
    let layouts = std::env::var("WEFT_FUSED_LAYOUTS").unwrap_or_default();
    let wanted = |&(nodes, local): &(usize, usize)| layouts.is_empty() || layouts.split(',').any(|l| l.trim() == format!("{nodes}x{local}"));
    let gemm_ar_rows = TOPOLOGIES.iter().filter(|t| wanted(t)).flat_map(|t| SHAPES.iter().map(move |s| (t, s))).filter(|_| only.is_empty() || only == "gemm_ar");
    for (i, (&(nodes, local), &(label, m, n, k_all))) in gemm_ar_rows.enumerate() {
        let topology = Topology { nodes, local_size: local };
        let world = World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).expect("world");
        let w = topology.world_size();
        let shape = MatmulShape { m, n, k: k_all / w };
        eprintln!("[{}/{total}] gemm_ar {topology} {label} {shape:?}", i + 1);
        let mut gemm = prepare_matmul(&world, "gemm", shape, DTYPE, &shape_constexprs("gemm", shape, w, DTYPE.name())).expect("gemm prepares");
        let ccx = weft::kernels::default_constexprs("allreduce", DTYPE.name()).expect("known");
        let mut ar = prepare(&world, "allreduce", m * n, DTYPE, &ccx).expect("allreduce prepares");
        let methods: &[(&str, Option<&str>)] = if nodes == 1 {
            &[("default", None), ("one-shot", Some("1")), ("two-shot", Some("2")), ("multimem", Some("3"))]
        } else {
            &[("default", None), ("one-shot", Some("1")), ("two-shot", Some("2"))]
        };
        let kept = std::env::var("WEFT_FUSED_METHODS").unwrap_or_default();
        let methods: Vec<_> = methods.iter().filter(|(name, _)| kept.is_empty() || kept.split(',').any(|m| m.trim() == *name)).collect();
        let mut fused: Vec<_> = methods
            .iter()
            .map(|(name, method)| {
                let mut cx = shape_constexprs("gemm_ar", shape, w, DTYPE.name());
                for (k, v) in std::env::var("WEFT_FUSED_CX").unwrap_or_default().split(',').filter_map(|kv| kv.split_once('=')) {
                    cx.set(k.trim(), v.trim());
                }
                if let Some(m) = method {
                    cx.set("METHOD", m);
                }
                let mut p = prepare_matmul(&world, "gemm_ar", shape, DTYPE, &cx).expect("gemm_ar prepares");
                p.launch().expect("launch");
                let (ok, err) = p.verify().expect("verify");
                assert!(ok, "gemm_ar {name} {topology} {shape:?}: wrong result (max err {err})");
                p
            })
            .collect();
        let (mut base, mut times) = ((vec![], vec![]), vec![(vec![], vec![]); fused.len()]);
        for _ in 0..rounds {
            wall_and_cpu(&mut base, &mut || {
                gemm.launch().expect("launch");
                ar.launch().expect("launch");
            });
            for (p, t) in fused.iter_mut().zip(&mut times) {
                wall_and_cpu(t, &mut || {
                    p.launch().expect("launch");
                });
            }
        }
        let (b, b_cpu) = (median(base.0), median(base.1));
        for ((name, _), (t, cpu)) in methods.iter().zip(times) {
            let f = median(t);
            let line = format!("| gemm_ar {name} | {topology} | {m}x{n}x{k_all} ({}) | {b:.3} | {f:.3} | {:.2}x | {b_cpu:.2} / {:.2} | {} |", shape.k, b / f, median(cpu), load());
            eprintln!("{line}");
            let _ = writeln!(table, "{line}");
        }
    }
    if only.is_empty() || only == "flash_decode" {
        decode_rows(&mut table, rounds);
    }
    support::write_summary("fused.md", &table);
}

/// Appends the wall and the CPU milliseconds of one call of `f` to `to`.
fn wall_and_cpu(to: &mut (Vec<f64>, Vec<f64>), f: &mut dyn FnMut()) {
    let cpu = process_cpu();
    to.0.push(ms(f));
    to.1.push((process_cpu() - cpu) * 1e3);
}

/// `flash_decode` on each topology against its non-fused baseline (`flash_decode_v`: local
/// partials, AllGather, combine) and against one rank holding the whole cache, interleaved.
fn decode_rows(table: &mut String, rounds: usize) {
    use weft::kernels::{decode_constexprs, prepare_decode, DecodeShape};
    let _ = write!(
        table,
        "\nflash_decode over split KV caches vs the non-fused sequence (partials, AllGather, combine: three launches) on the same ranks, and vs one rank holding the whole cache, `local`, bf16, {rounds} interleaved rounds, median ms\n\n| seq | topology | non-fused ms | fused ms | speedup | 1 rank ms | 1 rank / fused | load |\n|---|---|---|---|---|---|---|---|\n"
    );
    let prepared = |world: &World, name: &str, seq: usize| {
        let shape = DecodeShape { batch: 1, heads: 32, kv_heads: 8, seq, head_dim: 128 };
        let mut p = prepare_decode(world, name, shape, DTYPE, &decode_constexprs(shape, DTYPE.name(), false)).expect("flash_decode prepares");
        p.launch().expect("launch");
        assert!(p.verify().expect("verify").0, "{name} {} seq={seq}: wrong result", world.topology());
        p
    };
    let one = World::local(1).expect("world");
    for seq in [(1 << 20) / 32, (64 << 10) / 32] {
        let mut single = prepared(&one, "flash_decode", seq);
        for &(nodes, local) in &TOPOLOGIES {
            let topology = Topology { nodes, local_size: local };
            let world = World::local_with(LocalOptions { topology, ..LocalOptions::from_env() }).expect("world");
            eprintln!("flash_decode {topology} seq={seq}");
            let mut runs = [prepared(&world, "flash_decode_v", seq), prepared(&world, "flash_decode", seq)];
            let mut times = [vec![], vec![], vec![]];
            for _ in 0..rounds {
                for (p, t) in runs.iter_mut().chain([&mut single]).zip(&mut times) {
                    t.push(ms(&mut || {
                        p.launch().expect("launch");
                    }));
                }
            }
            let [v, f, one] = times.map(median);
            let line = format!("| {seq} | {topology} | {v:.3} | {f:.3} | {:.2}x | {one:.3} | {:.2}x | {} |", v / f, one / f, load());
            eprintln!("{line}");
            let _ = writeln!(table, "{line}");
        }
    }
}
