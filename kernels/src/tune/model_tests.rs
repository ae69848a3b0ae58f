//! Tests of the cost model's ordering where the tune bench found it wrong (tile padding of
//! the segmented collectives, multimem's second barrier, MSCCL protocols on CPU threads, wide
//! CPU tiles, wide collective tiles in the caches, the MSCCL executor's staging), of the
//! local search's neighbours, of the quantile used for head-to-head timing, and of the finalists' order.

use super::cache::Measured;
use super::cost::{predict, Machine};
use super::measure::low_quartile;
use super::search::{neighbours, ordered};
use super::space::Config;
use super::{Problem, Shape};
use crate::MatmulShape;
use weft_runtime::{DType, Topology};

/// Constants of the order the 2-core machine measures (fixed, so the test does not time).
const MACHINE: Machine = Machine { flops_per_core: 3e8, copy_bytes_per_s: 1.5e9, cache_copy_bytes_per_s: 6e9, signal_s: 5e-6, launch_s: 3e-4, cores: 2 };
const ONE_BY_FOUR: Topology = Topology { nodes: 1, local_size: 4 };

fn cfg(id: &str) -> Config {
    Config::parse(id).unwrap()
}

fn elems(op: &str, n: usize) -> Problem {
    Problem { op: op.into(), shape: Shape::Elems(n), dtype: DType::F32 }
}

fn us(id: &str, p: &Problem, topo: Topology) -> f64 {
    predict(&cfg(id), p, topo, &MACHINE) * 1e6
}

#[test]
fn a_block_wider_than_a_ranks_segment_is_predicted_slower() {
    // 4 KiB over 4 ranks: 256-element segments; a 1024-wide block does 4x the work.
    for (op, alg) in [("reduce_scatter", "reduce_scatter"), ("allreduce", "allreduce_two_shot")] {
        let p = elems(op, 1024);
        assert!(us(&format!("{alg} BLOCK=256"), &p, ONE_BY_FOUR) < us(&format!("{alg} BLOCK=1024"), &p, ONE_BY_FOUR), "{alg}");
    }
    // One-shot walks the whole buffer: both blocks divide it, and neither pads.
    let p = elems("allreduce", 1024);
    let (a, b) = (us("allreduce_one_shot BLOCK=256", &p, ONE_BY_FOUR), us("allreduce_one_shot BLOCK=1024", &p, ONE_BY_FOUR));
    assert!((a - b).abs() / b < 0.05, "{a} vs {b}");
    // Uneven sizes pad too: 1001-element segments in 4096-wide tiles, against 256-wide ones.
    let p = elems("reduce_scatter", 1000 * 4 + 3);
    assert!(us("reduce_scatter BLOCK=256", &p, ONE_BY_FOUR) < us("reduce_scatter BLOCK=4096", &p, ONE_BY_FOUR));
}

#[test]
fn small_allreduces_do_not_rank_multimem_or_msccl_first() {
    let p = elems("allreduce", 1024);
    let one_shot = us("allreduce_one_shot BLOCK=1024", &p, ONE_BY_FOUR);
    assert!(one_shot < us("allreduce_multimem BLOCK=256", &p, ONE_BY_FOUR), "multimem has two barriers to one-shot's one");
    for proto in ["Simple", "LL", "LL128"] {
        let ring = us(&format!("msccl:ring_allreduce block=512 instances=1 protocol={proto}"), &p, ONE_BY_FOUR);
        assert!(one_shot < ring, "{proto}: {one_shot} vs {ring}");
    }
    // Large: every byte touched counts, and one-shot reads all four inputs whole.
    let p = elems("allreduce", 1 << 22);
    let (one, two, mm) = (us("allreduce_one_shot BLOCK=1024", &p, ONE_BY_FOUR), us("allreduce_two_shot BLOCK=1024", &p, ONE_BY_FOUR), us("allreduce_multimem BLOCK=1024", &p, ONE_BY_FOUR));
    assert!(mm < two && two < one, "{mm} {two} {one}");
    // On CPU threads LL's per-word flags make it slower than Simple, at every size.
    for n in [1024, 1 << 16, 1 << 22] {
        let p = elems("reduce_scatter", n);
        let simple = us("msccl:reduce_scatter_ring block=512 instances=1 protocol=Simple", &p, ONE_BY_FOUR);
        assert!(simple < us("msccl:reduce_scatter_ring block=512 instances=1 protocol=LL", &p, ONE_BY_FOUR), "{n}");
    }
}

#[test]
fn wide_cpu_tiles_cost_more_than_their_flops() {
    // n = 1024: 64, 128 and 256 wide tiles all divide it, so padding does not decide.
    let p = Problem { op: "ag_gemm".into(), shape: Shape::Matmul(MatmulShape { m: 256, n: 1024, k: 128 }), dtype: DType::BF16 };
    let t = |bm: u32, bn: u32| us(&format!("ag_gemm BLOCK_K=64 BLOCK_M={bm} BLOCK_N={bn} COMM_PROGRAMS=1"), &p, ONE_BY_FOUR);
    assert!(t(64, 64) < t(64, 128) && t(64, 128) < t(64, 256));
    assert!(t(64, 64) < t(16, 64));
}

#[test]
fn low_quartile_of_rounds() {
    assert_eq!(low_quartile(&[3.0, 1.0, 2.0]), 1.0);
    assert_eq!(low_quartile(&[8.0, 1.0, 3.0, 2.0, 5.0, 4.0, 7.0, 6.0]), 2.0);
    // One round in a quiet moment does not decide, where a best-of would halve the time.
    let rounds = [10.0, 10.5, 5.0, 11.0, 10.2, 10.4, 30.0, 10.1, 25.0];
    assert_eq!(low_quartile(&rounds), 10.1);
    assert!(low_quartile(&[]).is_nan());
}

#[test]
fn finalists_rank_before_configs_that_were_not_retimed() {
    let m = |us| Measured { us, runs: 4 };
    // `c` was slower than both finalists in the first pass; its best loop (9) is not comparable
    // with their re-timed rounds (10, 12).
    let measured = [("a".to_string(), m(12.0)), ("b".to_string(), m(10.0)), ("c".to_string(), m(9.0)), ("d".to_string(), m(30.0))].into_iter().collect();
    let order: Vec<String> = ordered(&measured, &["b".into(), "a".into()]).into_iter().map(|(id, _)| id).collect();
    assert_eq!(order, ["b", "a", "c", "d"]);
    // Without finalists it is the plain ranking.
    let order: Vec<String> = ordered(&measured, &[]).into_iter().map(|(id, _)| id).collect();
    assert_eq!(order, ["c", "b", "a", "d"]);
}

#[test]
fn cached_collectives_prefer_narrow_tiles_and_the_library_reduce_scatter() {
    // 64 KiB per rank over 4 ranks stays in the caches: 256-wide tiles ahead (the sweeps).
    for (op, alg) in [("reduce_scatter", "reduce_scatter"), ("allreduce", "allreduce_two_shot")] {
        let p = elems(op, 1 << 16);
        let t = |b: u32| us(&format!("{alg} BLOCK={b}"), &p, ONE_BY_FOUR);
        assert!(t(256) < t(1024) && t(1024) < t(4096), "{alg}: {} {} {}", t(256), t(1024), t(4096));
    }
    // The executor stages through scratch: the ring moves fewer bytes but copies each twice.
    for n in [1 << 16, 1 << 22] {
        let p = elems("reduce_scatter", n);
        let ring = us("msccl:reduce_scatter_ring block=512 instances=1 protocol=Simple", &p, ONE_BY_FOUR);
        assert!(us("reduce_scatter BLOCK=1024", &p, ONE_BY_FOUR) < ring, "{n}");
    }
    // LL words are polled one by one on CPU threads.
    let p = elems("allgather", 1024);
    assert!(us("allgather BLOCK=256", &p, ONE_BY_FOUR) < us("allgather_ll BLOCK=256", &p, ONE_BY_FOUR));
}

#[test]
fn the_method_is_one_of_the_neighbours_dimensions() {
    let all: Vec<(Config, f64)> = ["allreduce_multimem BLOCK=256", "allreduce_multimem BLOCK=1024", "allreduce_two_shot BLOCK=256", "allreduce_two_shot BLOCK=1024", "msccl:ring_allreduce block=512 instances=1 protocol=Simple"]
        .iter()
        .enumerate()
        .map(|(i, id)| (cfg(id), i as f64))
        .collect();
    let ids: Vec<String> = neighbours(&cfg("allreduce_multimem BLOCK=256"), &all).iter().map(Config::id).collect();
    // Another block of the same method, or the same block under another method; never a
    // config that shares no parameter (the MSCCL ring) or differs in two.
    assert_eq!(ids, ["allreduce_multimem BLOCK=1024", "allreduce_two_shot BLOCK=256"]);
}
