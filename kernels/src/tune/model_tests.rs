//! Tests of the cost model's ordering where the tune bench found it wrong (tile padding of
//! the segmented collectives, multimem's second barrier, MSCCL protocols on CPU threads, wide
//! CPU tiles, wide collective tiles in the caches, the MSCCL executor's staging, the copy
//! engine's threads on the workers' cores), of the local search's neighbours, of the quantile
//! used for head-to-head timing, of the finalists (their order, other methods among them) and
//! of the machine constants' file version, of paired timing, the first pass's seeds and the
//! default's margin.

use super::cache::Measured;
use super::cost::{copy_engine_charge, predict, Machine, MACHINE_FILE};
use super::measure::{beats, leader_settled, low_quartile, median, paired_times, paired_total_ratio, robustly_beats, steady, MEAN_LEAD, STEADY_LOSS, upper_quartile, round_bounds, sampled_rounds, stop_rounds, loop_reps, Schedule, MAX_SAMPLED_ROUNDS};
use super::search::{finalist_ids, neighbours, versus_default_note, ordered, prefer_default, seeds, walk};
use super::space::Config;
use super::tiles::{TileCosts, GRID_M, GRID_N};
use super::{Problem, Shape};
use crate::MatmulShape;
use weft_compiler::pipeline::Target;
use weft_runtime::{DType, Topology};

/// Constants of the order the 2-core machine measures (fixed, so the test does not time).
const MACHINE: Machine = Machine { flops_per_core: 2e10, copy_bytes_per_s: 1.5e9, cache_copy_bytes_per_s: 6e9, signal_s: 5e-6, launch_s: 2e-5, spawn_s: 3e-4, poll_share: 0.1, cores: 2, tiles: TileCosts::NONE };
const ONE_BY_FOUR: Topology = Topology { nodes: 1, local_size: 4 };

fn cfg(id: &str) -> Config {
    Config::parse(id).unwrap()
}

fn elems(op: &str, n: usize) -> Problem {
    Problem { op: op.into(), shape: Shape::Elems(n), dtype: DType::F32 }
}

/// The pruned CPU space of `p` on `topo` ranked by the model on `m` as the tuner ranks it
/// (ties by config), the default config, and what a budget of a quarter of the space seeds.
fn model_seeds(p: &Problem, topo: Topology, m: &Machine) -> (Vec<(Config, f64)>, Config, Vec<Config>) {
    let (space, _) = super::space::prune(super::space::space(&p.op, Target::Cpu).unwrap(), p, topo, Target::Cpu);
    let mut by_model: Vec<(Config, f64)> = space.iter().map(|c| (c.clone(), predict(c, p, topo, m))).collect();
    by_model.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let default = super::space::default_config(p, topo, Target::Cpu).unwrap();
    let method_default = |alg: &str| super::space::method_default(alg, p, topo, Target::Cpu).ok();
    let seeded = seeds(&by_model, &default, &method_default, space.len() / 4);
    (by_model, default, seeded)
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
fn gemm_compute_is_the_measured_tile_cost_of_the_padded_work() {
    // bf16 as the 2-core machine measured it (CPU us per launch at m=256 n=448 k=128 over
    // 29.4 Mflop, BLOCK_K=64): 64-wide tiles cost the most, 128-wide the least.
    let us_at = [[1720.0, 810.0, 1120.0], [1160.0, 740.0, 900.0], [930.0, 630.0, 840.0]];
    let mut tiles = TileCosts::NONE;
    for (i, row) in us_at.iter().enumerate() {
        for (j, t) in row.iter().enumerate() {
            tiles.s_per_flop[i][j] = t * 1e-6 / (2.0 * 256.0 * 448.0 * 128.0);
        }
    }
    let m = Machine { tiles, ..MACHINE };
    let p = Problem { op: "gemm".into(), shape: Shape::Matmul(MatmulShape { m: 256, n: 1024, k: 128 }), dtype: DType::BF16 };
    let t = |bm: i64, bn: i64| predict(&cfg(&format!("gemm BLOCK_K=64 BLOCK_M={bm} BLOCK_N={bn} GROUP_M=8")), &p, ONE_BY_FOUR, &m);
    // n = 1024 divides by every width, so the prediction is the flops at the tile's measured
    // rate, the ranks' work over the cores, plus the launch.
    let flops = 2.0 * 256.0 * 1024.0 * 128.0 * 4.0;
    for (i, bm) in GRID_M.iter().enumerate() {
        for (j, bn) in GRID_N.iter().enumerate() {
            let want = flops * tiles.s_per_flop[i][j] / 2.0 + MACHINE.launch_s;
            assert!((t(*bm, *bn) - want).abs() < 1e-9 * want, "{bm}x{bn}: {} vs {want}", t(*bm, *bn));
        }
    }
    assert!(t(64, 128) < t(64, 256) && t(64, 256) < t(64, 64) && t(16, 64) > t(64, 64));
    // Padding counts: n = 448 pads 256-wide tiles to 512, 64-wide ones not at all.
    let p448 = Problem { shape: Shape::Matmul(MatmulShape { m: 256, n: 448, k: 128 }), ..p.clone() };
    let t448 = |bn: i64| predict(&cfg(&format!("gemm BLOCK_K=64 BLOCK_M=64 BLOCK_N={bn} GROUP_M=8")), &p448, ONE_BY_FOUR, &m) - MACHINE.launch_s;
    let ratio = t448(256) / t448(64);
    assert!((ratio - 512.0 / 448.0 * tiles.s_per_flop[2][2] / tiles.s_per_flop[2][0]).abs() < 1e-9, "{ratio}");
    // Off the grid, the nearest point in log2 (128 rows cost what 64 do); unmeasured, none.
    assert_eq!(tiles.at(128.0, 512.0), Some(tiles.s_per_flop[2][2]));
    assert_eq!(tiles.at(20.0, 100.0), tiles.at(16.0, 128.0));
    assert_eq!(TileCosts::NONE.at(64.0, 64.0), None);
}

#[test]
fn unsettled_finalists_get_a_bounded_extension_of_their_budget() {
    let s = Schedule { budget: std::time::Duration::from_secs(1), extend: 2.0, ..Schedule::default() };
    let (yes, no): (&dyn Fn() -> bool, &dyn Fn() -> bool) = (&|| true, &|| false);
    // Within the budget: only a settled comparison stops, and not before `min_rounds`.
    assert!(!stop_rounds(5, 7, 0.5, &s, yes) && stop_rounds(7, 7, 0.5, &s, yes) && !stop_rounds(7, 7, 0.5, &s, no));
    // Past the budget (after 3 rounds): settled stops; unsettled goes on up to `extend` budgets.
    assert!(stop_rounds(3, 7, 1.2, &s, yes));
    assert!(!stop_rounds(3, 7, 1.2, &s, no) && !stop_rounds(10, 31, 1.9, &s, no));
    assert!(stop_rounds(10, 31, 2.1, &s, no));
    // Without an extension the budget ends the rounds as before.
    let plain = Schedule { extend: 1.0, ..s };
    assert!(stop_rounds(3, 7, 1.2, &plain, no) && !stop_rounds(2, 7, 5.0, &plain, no));
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
        assert!(us("reduce_scatter BLOCK=64", &p, ONE_BY_FOUR) < ring, "{n}");
    }
    // LL words are polled one by one on CPU threads.
    let p = elems("allgather", 1024);
    assert!(us("allgather BLOCK=64", &p, ONE_BY_FOUR) < us("allgather_ll BLOCK=256", &p, ONE_BY_FOUR));
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

#[test]
fn neighbours_take_the_best_value_of_every_knob_first() {
    // The model puts every other BLOCK (and another method) ahead of any CHUNK, where the tune
    // bench's 256 KiB ReduceScatter won by CHUNK alone: one value of each knob comes first.
    let all: Vec<(Config, f64)> = [
        "reduce_scatter_bidir BLOCK=64 CHUNK=8192",
        "reduce_scatter_bidir BLOCK=256 CHUNK=8192",
        "reduce_scatter_bidir BLOCK=1024 CHUNK=8192",
        "reduce_scatter BLOCK=64",
        "reduce_scatter BLOCK=256",
        "reduce_scatter_bidir BLOCK=64 CHUNK=65536",
        "reduce_scatter_bidir BLOCK=256 CHUNK=1024",
        "reduce_scatter_bidir BLOCK=64 CHUNK=1024",
    ]
    .iter()
    .enumerate()
    .map(|(i, id)| (cfg(id), i as f64))
    .collect();
    let ids: Vec<String> = neighbours(&cfg("reduce_scatter_bidir BLOCK=64 CHUNK=8192"), &all).iter().map(Config::id).collect();
    let want = [
        "reduce_scatter_bidir BLOCK=256 CHUNK=8192",
        "reduce_scatter BLOCK=64",
        "reduce_scatter_bidir BLOCK=64 CHUNK=65536",
        "reduce_scatter_bidir BLOCK=1024 CHUNK=8192",
        "reduce_scatter_bidir BLOCK=64 CHUNK=1024",
    ];
    assert_eq!(ids, want);
}

#[test]
fn the_walk_takes_turns_between_the_two_fastest_methods() {
    // Planted first pass of the 16 MiB AllGather: the library ring leads by noise, the
    // bidirectional ring (whose CHUNK wins) is second; the MSCCL ring is more than 2x slower.
    let m = |us| Measured { us, runs: 1 };
    let ranked: Vec<(String, Measured)> = [("allgather BLOCK=1024", 35.0), ("allgather BLOCK=4096", 36.0), ("allgather_bidir BLOCK=64 CHUNK=-", 40.0), ("msccl:allgather_ring block=512", 80.0)]
        .into_iter()
        .map(|(id, us)| (id.to_string(), m(us)))
        .collect();
    let all: Vec<(Config, f64)> = [
        "allgather BLOCK=256",
        "allgather BLOCK=4096",
        "allgather_bidir BLOCK=64 CHUNK=65536",
        "allgather_bidir BLOCK=256 CHUNK=-",
        "allgather_pull BLOCK=1024",
        "msccl:allgather_ring block=1024",
    ]
    .iter()
    .enumerate()
    .map(|(i, id)| (cfg(id), i as f64))
    .collect();
    let measured = |c: &Config| ranked.iter().any(|(id, _)| *id == c.id());
    let ids: Vec<String> = walk(&ranked, &all, "allgather BLOCK=64", 0, &|c| !measured(c)).iter().map(Config::id).collect();
    // In turn: the leader's best knob value, the runner-up's, the leader's next (the pull is
    // its method neighbour), the runner-up's next; never the slow MSCCL ring's neighbour.
    let want = ["allgather BLOCK=256", "allgather_bidir BLOCK=64 CHUNK=65536", "allgather_pull BLOCK=1024", "allgather_bidir BLOCK=256 CHUNK=-"];
    assert_eq!(ids, want);
    // One method measured: its neighbours alone; nothing measured: nothing to walk.
    assert_eq!(walk(&ranked[2..3], &all, "allgather BLOCK=64", 0, &|_| true).len(), 2);
    assert!(walk(&[], &all, "allgather BLOCK=64", 0, &|_| true).is_empty());
    // The next walk step starts from the runner-up: the caller takes one config per call.
    let next: Vec<String> = walk(&ranked, &all, "allgather BLOCK=64", 1, &|c| !measured(c)).iter().map(Config::id).collect();
    assert_eq!(next, ["allgather_bidir BLOCK=64 CHUNK=65536", "allgather BLOCK=256", "allgather_bidir BLOCK=256 CHUNK=-", "allgather_pull BLOCK=1024"]);
}

#[test]
fn the_walk_starts_from_the_default_too() {
    // Planted first pass of ag_gemm 1x2: another tile leads the default by 2%; the default's
    // SWIZZLE=1 neighbour (the sweep's best) is walked on the second step, not after every
    // neighbour of the leader.
    let m = |us| Measured { us, runs: 1 };
    let (lead, default) = ("ag_gemm BLOCK_M=32 SWIZZLE=0", "ag_gemm BLOCK_M=64 SWIZZLE=0");
    let ranked: Vec<(String, Measured)> = [(lead, 2481.0), (default, 2531.0)].into_iter().map(|(id, us)| (id.to_string(), m(us))).collect();
    let all: Vec<(Config, f64)> = ["ag_gemm BLOCK_M=16 SWIZZLE=0", "ag_gemm BLOCK_M=32 SWIZZLE=1", "ag_gemm BLOCK_M=64 SWIZZLE=1", lead, default]
        .iter()
        .enumerate()
        .map(|(i, id)| (cfg(id), i as f64))
        .collect();
    let measured = |c: &Config, also: &str| c.id() == also || ranked.iter().any(|(id, _)| *id == c.id());
    let step = |turn: usize, also: &str| walk(&ranked, &all, default, turn, &|c| !measured(c, also)).first().map(Config::id);
    assert_eq!(step(0, "").as_deref(), Some("ag_gemm BLOCK_M=16 SWIZZLE=0"));
    assert_eq!(step(1, "ag_gemm BLOCK_M=16 SWIZZLE=0").as_deref(), Some("ag_gemm BLOCK_M=64 SWIZZLE=1"));
    // A default more than 2x slower than the leader is no start.
    let slow: Vec<(String, Measured)> = [(lead, 1000.0), (default, 2100.0)].into_iter().map(|(id, us)| (id.to_string(), m(us))).collect();
    assert_eq!(walk(&slow, &all, default, 1, &|c| !slow.iter().any(|(id, _)| *id == c.id())).first().map(Config::id).as_deref(), Some("ag_gemm BLOCK_M=16 SWIZZLE=0"));
}

#[test]
fn short_launches_get_more_rounds_of_the_same_sample_time() {
    let s = Schedule { rounds: 31, sample: std::time::Duration::from_millis(250), ..Schedule::default() };
    // 3 ms loops (a 10 us launch): 84 rounds make the 250 ms sample; unsettled, twice that.
    assert_eq!(round_bounds(0.003, 7, &s), (84, 168));
    // 50 ms loops (16 MiB): the sample is 5 rounds, below the schedule's own bounds.
    assert_eq!(round_bounds(0.05, 7, &s), (7, 31));
    // No sample, or no loop length: the schedule's bounds, and never unbounded.
    assert_eq!(round_bounds(0.003, 7, &Schedule { sample: std::time::Duration::ZERO, ..s }), (7, 31));
    assert_eq!(sampled_rounds(0.0, s.sample), MAX_SAMPLED_ROUNDS);
}

#[test]
fn a_launch_as_long_as_a_loop_is_timed_alone_as_the_bench_times_it() {
    let s = Schedule::default();
    // 10 ms (16 MiB AllReduce) and 3.3 ms (the 896-wide AG-GEMM on 1x2): one launch a loop,
    // so no loop holds a launch that follows its own config's.
    assert_eq!(loop_reps(0.010, &s), 1);
    assert_eq!(loop_reps(0.0033, &s), 1);
    // Shorter launches fill the 3 ms loop: 1.2 ms takes 3, 10 us 300.
    assert_eq!(loop_reps(0.0012, &s), 3);
    assert_eq!(loop_reps(10e-6, &s), 300);
    // A schedule's own least count still holds (the launch-cost probes' pairs).
    assert_eq!(loop_reps(0.010, &Schedule { round: 2, ..s }), 2);
}

#[test]
fn the_sign_test_against_the_default_needs_a_majority_of_paired_rounds() {
    // A 2x lead in a third of 60 rounds (bursts) and a 5% loss in the rest: the median
    // normalised time says little, the sign test says the lead is not proven.
    let n = 60;
    let default: Vec<f64> = (0..n).map(|i| 10.0 + (i % 7) as f64).collect();
    let bursty: Vec<f64> = default.iter().enumerate().map(|(i, d)| if i % 3 == 0 { d / 2.0 } else { d * 1.05 }).collect();
    assert!(!beats(&bursty, &default) && beats(&default, &bursty));
    // A steady 3% lead wins every pair: proven.
    let steady: Vec<f64> = default.iter().map(|d| d / 1.03).collect();
    assert!(beats(&steady, &default) && !beats(&default, &steady));
    assert!(!beats(&[], &[]));
}

fn gemm(op: &str, m: usize, n: usize, k: usize) -> Problem {
    Problem { op: op.into(), shape: Shape::Matmul(MatmulShape { m, n, k }), dtype: DType::BF16 }
}

#[test]
fn the_copy_engine_pays_for_its_threads_and_copies() {
    let cores = MACHINE.cores as f64;
    for w in [2.0, 4.0, 8.0] {
        let (compute, copy) = (1e-3, 2e-4);
        // The copies take the workers' cores: all of their time adds, none hides.
        let push = cfg("ag_gemm_ce BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 CE_PULL=0 SWIZZLE=0");
        let with = copy_engine_charge(&push, compute, copy, w, &MACHINE);
        let without = copy_engine_charge(&push, compute, 0.0, w, &MACHINE);
        assert!((with - without - copy).abs() < 1e-12, "{w}: {with} - {without}");
        // Starting one transfer thread per rank: w/cores of a launch's thread starts.
        assert!((without - compute - MACHINE.spawn_s * w / cores).abs() < 1e-12, "{w}: {without}");
        // GEMM-RS's queues poll through the compute: each takes poll_share of a core, at most
        // all cores but one (0.2, 0.4 and 0.8 of the 2 cores here).
        let scatter = cfg("gemm_rs_ce BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 COMM_PROGRAMS=1");
        let taken = (w * MACHINE.poll_share).min(cores - 1.0);
        let polled = copy_engine_charge(&scatter, compute, 0.0, w, &MACHINE);
        assert!((polled - compute * cores / (cores - taken) - MACHINE.spawn_s * w / cores).abs() < 1e-12, "{w}: {polled}");
    }
}

#[test]
fn polling_queues_shrink_gemm_rs_copy_engine_lead_with_the_ranks() {
    // The same tiles: the programs give up half the cores to their communication programs
    // (one per rank beside one compute program); the copy engine's scatter queues poll, 0.1 of
    // a core each here, so the tiles keep 1.8, 1.6 and 1.2 of the 2 cores at 2, 4 and 8 ranks:
    // the copy engine's time over the programs' grows with the ranks toward 1.
    let (ce, programs) = ("gemm_rs_ce BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 COMM_PROGRAMS=1", "gemm_rs BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 COMM_PROGRAMS=1");
    let p = gemm("gemm_rs", 256, 896, 256);
    let at = |ranks| Topology { nodes: 1, local_size: ranks };
    // Tiles at a quarter of the vector flop rate (as bf16 tiles run): they dominate.
    let slow = Machine { flops_per_core: MACHINE.flops_per_core / 4.0, ..MACHINE };
    let t = |id: &str, r| predict(&cfg(id), &p, at(r), &slow);
    let ratio: Vec<f64> = [2, 4, 8].into_iter().map(|r| t(ce, r) / t(programs, r)).collect();
    assert!(ratio[0] < ratio[1] && ratio[1] < ratio[2] && ratio[2] < 1.0, "{ratio:?}");
    // Against the tiles' share alone (the thread starts and copies are small beside the tiles).
    for (r, kept) in ratio.iter().zip([1.8, 1.6, 1.2]) {
        assert!((r / (2.0 / kept / 2.0) - 1.0).abs() < 0.05, "{ratio:?}");
    }
    // The push AllGather's queues never wait: no polling, so its lead over the programs holds.
    let (ce, programs) = ("ag_gemm_ce BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 CE_PULL=0 SWIZZLE=0", "ag_gemm BLOCK_K=64 BLOCK_M=32 BLOCK_N=128 COMM_PROGRAMS=1 SWIZZLE=0");
    let p = gemm("ag_gemm", 256, 896, 256);
    assert!(us(ce, &p, at(8)) < us(programs, &p, at(8)));
}

#[test]
fn other_methods_and_the_default_join_the_finalists() {
    let m = |us| Measured { us, runs: 4 };
    let ranked: Vec<(String, Measured)> = [
        ("ag_gemm_ce BLOCK_M=16", 10.0),
        ("ag_gemm_ce BLOCK_M=32", 11.0),
        ("ag_gemm_ce BLOCK_M=64", 12.0),
        ("ag_gemm_ce BLOCK_N=64", 13.0),
        ("ag_gemm_ce BLOCK_N=128", 14.0),
        ("ag_gemm BLOCK_M=16", 15.0),
        ("ag_gemm BLOCK_M=32", 16.0),
        ("gemm_rs_ps BLOCK_M=16", 25.0),
    ]
    .into_iter()
    .map(|(id, us)| (id.to_string(), m(us)))
    .collect();
    // The four fastest, then the other method's fastest (once); the third method is more than
    // twice as slow as the fastest, and the fifth copy-engine config is no other method.
    let five = ["ag_gemm_ce BLOCK_M=16", "ag_gemm_ce BLOCK_M=32", "ag_gemm_ce BLOCK_M=64", "ag_gemm_ce BLOCK_N=64", "ag_gemm BLOCK_M=16"];
    assert_eq!(finalist_ids(&ranked, "ag_gemm_ce BLOCK_M=32"), five);
    // Already among the four fastest: nothing is added.
    assert_eq!(finalist_ids(&ranked[4..], "ag_gemm BLOCK_M=16").len(), 4);
    assert!(finalist_ids(&[], "ag_gemm BLOCK_M=16").is_empty());
    // The default joins them whatever its first-pass time, once it was measured.
    assert_eq!(finalist_ids(&ranked, "gemm_rs_ps BLOCK_M=16"), [&five[..], &["gemm_rs_ps BLOCK_M=16"]].concat());
    assert_eq!(finalist_ids(&ranked, "ag_gemm BLOCK_M=64"), five);
}

#[test]
fn constants_measured_the_old_way_are_measured_again() {
    let dir = std::env::temp_dir().join(format!("weft-machine-version-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A v1 file (libm's fmaf rate) and a v2 file (thread starts as `launch_s`) are not read;
    // the current version's file is, as it is.
    let old = Machine { flops_per_core: 1.0, ..MACHINE };
    std::fs::write(dir.join("machine.json"), serde_json::to_string(&old).unwrap()).unwrap();
    std::fs::write(dir.join("machine-v2.json"), serde_json::to_string(&old).unwrap()).unwrap();
    let measured = Machine::cached(&dir);
    assert_ne!(measured.flops_per_core, 1.0);
    // Without a world there is no launch to time: the tuner sets `launch_s` per world.
    assert!(measured.launch_s == 0.0 && measured.spawn_s > 0.0, "{measured:?}");
    assert!(dir.join(MACHINE_FILE).exists());
    std::fs::write(dir.join(MACHINE_FILE), serde_json::to_string(&old).unwrap()).unwrap();
    assert_eq!(Machine::cached(&dir), old);
    // Neither file is listed as a cache entry.
    assert!(super::cache::list(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ring_collectives_cost_their_bytes_and_a_second_direction_only_its_steps() {
    // 1 MiB per rank on 1x4 (from DRAM: 3w x 1 MiB > the cached 8 MiB): the AllReduce rings run
    // one program (`ring_programs`), two-shot four; 64 Ki-element segments, the ring's share in
    // `RING_CPU_CHUNKS` chunks of 32 Ki, the bidirectional ring's in 2 x 2 of 16 Ki; every
    // chunk divides by the 1024-wide block, so every kernel walks 64 tiles: the differences
    // are bytes and steps.
    let (w, lat) = (4.0, MACHINE.signal_s * 2.0);
    let p = elems("allreduce", 1 << 18);
    let (two, ring, bidir) = (us("allreduce_two_shot BLOCK=1024", &p, ONE_BY_FOUR), us("allreduce_ring BLOCK=1024", &p, ONE_BY_FOUR), us("allreduce_ring_bidir BLOCK=1024", &p, ONE_BY_FOUR));
    // One node, P2P: the ring touches 5w - 6 = 14 segments, two-shot 3w - 1 = 11; the ring
    // synchronises 2w - 3 = 5 times a chunk (2 chunks), two-shot 4 times.
    let seg = (1u64 << 20) as f64 / w;
    let bw = MACHINE.copy_bytes_per_s * 2.0 / w / super::cost::dram_tile_cost(1024.0);
    let extra = (14.0 - 11.0) * seg / bw * 1e6 + (5.0 * 2.0 - 4.0) * lat * 1e6;
    assert!((ring - two - extra).abs() < 1e-6 * ring, "{ring} - {two} vs {extra}");
    // Both directions: twice the chunks, each with its 5 messages.
    let steps = 5.0 * 2.0 * lat * 1e6;
    assert!((bidir - ring - steps).abs() < 1e-6 * ring, "{bidir} - {ring} vs {steps}");
    // Across nodes the rings put (7w - 5 = 23 segments against P2P's 14, 2 (w - 1) = 6
    // messages a chunk), and the inter-node factor doubles every byte.
    let two_nodes = Topology { nodes: 2, local_size: 2 };
    let (two2, ring2) = (us("allreduce_two_shot BLOCK=1024", &p, two_nodes), us("allreduce_ring BLOCK=1024", &p, two_nodes));
    let extra = 2.0 * (23.0 - 11.0) * seg / bw * 1e6 + (6.0 * 2.0 - 4.0) * lat * 1e6;
    assert!((ring2 - two2 - extra).abs() < 1e-6 * ring2, "{ring2} - {two2} vs {extra}");
    // ReduceScatter, 4 MiB per rank (four programs, each share in 2 x 2 chunks): the library's
    // ring touches 2 + 5 (w - 1) = 17 segments in 2 (w - 1) = 6 steps, the bidirectional P2P
    // ring 3w - 3 = 9 in w - 2 = 2 messages per chunk (4 chunks).
    let p = elems("reduce_scatter", 1 << 20);
    let seg = (1u64 << 22) as f64 / w;
    let bw = MACHINE.copy_bytes_per_s * 2.0 / w;
    // (At 64-wide tiles, where the rings' wide-tile cost is none.)
    let (rs, rs2) = (us("reduce_scatter BLOCK=64", &p, ONE_BY_FOUR), us("reduce_scatter_bidir BLOCK=64", &p, ONE_BY_FOUR));
    let diff = (9.0 - 17.0) * seg / bw * 1e6 + (2.0 * 4.0 - 6.0) * lat * 1e6;
    assert!((rs2 - rs - diff).abs() < 1e-6 * rs, "{rs2} - {rs} vs {diff}");
    let chunks = crate::ring::RING_CPU_CHUNKS as f64;
    let p = elems("allgather", 1 << 20);
    let (ag, ag2) = (us("allgather BLOCK=64", &p, ONE_BY_FOUR), us("allgather_bidir BLOCK=64", &p, ONE_BY_FOUR));
    let steps = ((w - 1.0) * 2.0 * chunks - (w - 1.0)) * lat * 1e6;
    assert!((ag2 - ag - steps).abs() < 1e-6 * ag, "{ag2} - {ag} vs {steps}");
    // From DRAM the small-tile kernels' wide tiles spill: 64 ahead (the bench's head to head).
    let t = |id: &str, op: &str| us(id, &elems(op, 1 << 22), ONE_BY_FOUR);
    assert!(t("allgather_bidir BLOCK=64 CHUNK=65536", "allgather") < t("allgather_bidir BLOCK=1024 CHUNK=65536", "allgather"));
    assert!(t("allreduce_two_shot BLOCK=64", "allreduce") < t("allreduce_two_shot BLOCK=256", "allreduce"));
}

#[test]
fn the_leader_is_settled_by_a_sign_test_over_paired_rounds() {
    // The threshold from the formula: wins > n/2 + 1.645 sqrt(n)/2; at n = 7 that is 6 wins.
    let need = |n: usize| (n as f64 / 2.0 + 1.645 * (n as f64).sqrt() / 2.0).floor() as usize + 1;
    assert_eq!(need(7), 6);
    // Load moves both sides of every pair alike (x1 .. x2); `a` is 10% faster in `wins` pairs,
    // `b` in the most loaded rest (so `a` keeps the lower quartile and leads).
    let rounds = |n: usize, wins: usize| {
        let load: Vec<f64> = (0..n).map(|i| 1.0 + i as f64 / n as f64).collect();
        let a: Vec<f64> = load.iter().map(|l| 10.0 * l).collect();
        let b: Vec<f64> = load.iter().enumerate().map(|(i, l)| if i < wins { 11.0 * l } else { 9.0 * l }).collect();
        vec![a, b]
    };
    for n in [7, 15, 31] {
        assert!(leader_settled(&rounds(n, need(n))), "n={n}: {} wins settle it", need(n));
        assert!(!leader_settled(&rounds(n, need(n) - 1)), "n={n}: {} wins do not", need(n) - 1);
    }
    // A tie (alternating) is never settled; a lone runner always is.
    let a: Vec<f64> = (0..31).map(|i| if i % 2 == 0 { 10.0 } else { 10.5 }).collect();
    let b: Vec<f64> = (0..31).map(|i| if i % 2 == 0 { 10.5 } else { 10.0 }).collect();
    assert!(!leader_settled(&[a.clone(), b]));
    assert!(leader_settled(&[a]));
}

#[test]
fn paired_times_cancel_load_that_hits_a_whole_round() {
    // `b` is 10% slower than `a` in every round; the load moves each round by up to 3x, and
    // bursts hit `b` alone in two rounds and `a` alone in one (a minority): the times keep the
    // exact 1.1 ratio, on the scale of the rounds' low-quartile geometric mean.
    let load = [1.0, 2.5, 1.2, 3.0, 1.1, 1.9, 2.2, 1.0, 1.4];
    let mut a: Vec<f64> = load.iter().map(|l| 10.0 * l).collect();
    let mut b: Vec<f64> = load.iter().map(|l| 11.0 * l).collect();
    (b[0], b[7], a[4]) = (b[0] * 2.0, b[7] * 3.0, a[4] * 2.0);
    let t = paired_times(&[a.clone(), b.clone()]);
    assert!((t[1] / t[0] - 1.1).abs() < 1e-12, "{t:?}");
    let means: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x * y).sqrt()).collect();
    assert!((t[0] - (10.0f64 / 11.0).sqrt() * low_quartile(&means)).abs() < 1e-9, "{t:?}");
    // Pooled quartiles compare `a`'s and `b`'s rounds at different loads instead (12 vs 15.4).
    assert!((low_quartile(&b) / low_quartile(&a) - 1.1).abs() > 0.1);
    // A runner alone keeps its low-quartile scale; missing rounds are left out; no rounds: NaN.
    assert_eq!(paired_times(&[vec![3.0, 1.0, 2.0]]), [1.0]);
    let t = paired_times(&[vec![1.0, 4.0], vec![2.0]]);
    assert!((t[0] - 1.0).abs() < 1e-12 && (t[1] - 2.0).abs() < 1e-12, "{t:?}");
    assert!(paired_times(&[vec![], vec![1.0]]).iter().all(|t| t.is_nan()));
    assert_eq!(median(vec![3.0, 1.0, 2.0, 10.0]), 2.5);
}

#[test]
fn seeds_hold_the_default_and_a_config_of_every_method_near_the_models_best() {
    let by_model: Vec<(Config, f64)> = [
        ("allgather BLOCK=256", 1.0),
        ("allgather BLOCK=1024", 1.1),
        ("allgather_pull BLOCK=256", 1.5),
        ("allgather_bidir BLOCK=1024 CHUNK=-", 1.8),
        ("allgather BLOCK=4096", 1.9),
        ("allgather_bidir BLOCK=64 CHUNK=-", 1.95),
        ("allgather_ll BLOCK=256", 5.0),
    ]
    .iter()
    .map(|(id, t)| (cfg(id), *t))
    .collect();
    // Methods' own defaults: the pull's is not in the space (its model-best stands for it).
    let method_default = |alg: &str| {
        let id = match alg {
            "allgather" => "allgather BLOCK=1024",
            "allgather_bidir" => "allgather_bidir BLOCK=64 CHUNK=-",
            "allgather_pull" => "allgather_pull BLOCK=9",
            _ => "allgather_ll BLOCK=256",
        };
        Some(cfg(id))
    };
    let ids = |n: usize, default: &str| seeds(&by_model, &cfg(default), &method_default, n).iter().map(Config::id).collect::<Vec<_>>();
    // Two thirds of the budget: the default, every method within 2x of the model's best (the
    // LL one is not), then the model's order; nothing twice. The library AllGather's seed is
    // the model's best (its own defaults' method holds the model's best), the pull's too (its
    // defaults are not in the space), the ring's its own defaults.
    let methods = ["allgather BLOCK=4096", "allgather BLOCK=256", "allgather_pull BLOCK=256", "allgather_bidir BLOCK=64 CHUNK=-"];
    assert_eq!(ids(6, "allgather BLOCK=4096"), [&methods[..], &["allgather BLOCK=1024"]].concat());
    assert_eq!(ids(9, "allgather BLOCK=4096"), [&methods[..], &["allgather BLOCK=1024", "allgather_bidir BLOCK=1024 CHUNK=-", "allgather_ll BLOCK=256"]].concat());
    assert_eq!(ids(3, "allgather BLOCK=4096"), &methods[..3]);
    // Never past the budget itself.
    assert_eq!(ids(2, "allgather BLOCK=4096"), &methods[..2]);
    // A default outside the (pruned) space is not timed.
    assert_eq!(ids(6, "allgather_ll BLOCK=4096"), [&methods[1..], &["allgather BLOCK=1024", "allgather_bidir BLOCK=1024 CHUNK=-"]].concat());
}

/// The bench machine's constants (load 7) with the signal and launch costs fitted on its 1x4
/// world (`launch::on_world`: 0.49 and 0.6 us, where the ping-pong read 1.89 us).
const FITTED: Machine = Machine { flops_per_core: 1.2e10, copy_bytes_per_s: 7.35e9, cache_copy_bytes_per_s: 4.57e10, signal_s: 4.9e-7, launch_s: 6e-7, spawn_s: 5.4e-5, poll_share: 0.21, cores: 2, tiles: TileCosts::NONE };

#[test]
fn small_reduce_scatters_are_predicted_near_their_measured_times_and_seeded() {
    // The 4 KiB sweep on 1x4 (us, load 7): the library's BLOCK=64 3.3, the ring's 64-wide at
    // CHUNK=1024 3.6, the library's BLOCK=256 3.7, the ring 256-wide 4.6, the ring's own
    // defaults 5.2, the library's default BLOCK=1024 6.6, the ring 256-wide whole 7.7, 1024
    // wide 12.4 / 16.0. With the fitted signal every prediction is within 0.5-2.5x of them;
    // with the ping-pong's the library's are several times over (its 12 waits' signals alone
    // are 23 us).
    let p = elems("reduce_scatter", 1024);
    let measured = [
        ("reduce_scatter BLOCK=64", 3.3),
        ("reduce_scatter_bidir BLOCK=64 CHUNK=1024", 3.6),
        ("reduce_scatter BLOCK=256", 3.7),
        ("reduce_scatter_bidir BLOCK=256 CHUNK=1024", 4.6),
        ("reduce_scatter_bidir BLOCK=64 CHUNK=-", 5.2),
        ("reduce_scatter BLOCK=1024", 6.6),
        ("reduce_scatter_bidir BLOCK=256 CHUNK=-", 7.7),
        ("reduce_scatter_bidir BLOCK=1024 CHUNK=1024", 12.4),
        ("reduce_scatter_bidir BLOCK=1024 CHUNK=-", 16.0),
    ];
    for (m, fits) in [(FITTED, true), (Machine { signal_s: 1.89e-6, ..FITTED }, false)] {
        let ratios: Vec<(&str, f64)> = measured.iter().map(|(id, t)| (*id, predict(&cfg(id), &p, ONE_BY_FOUR, &m) * 1e6 / t)).collect();
        assert_eq!(ratios.iter().all(|(_, r)| (0.5..2.5).contains(r)), fits, "{ratios:?}");
    }
    // A budget of 3 (a quarter of the 15 configs) times the default, the model's best (the
    // ring at CHUNK=1024) and the library at a tile that fits the 256-element segment.
    let (_, default, seeded) = model_seeds(&p, ONE_BY_FOUR, &FITTED);
    let seeded: Vec<String> = seeded.iter().map(Config::id).collect();
    assert_eq!(seeded.len(), 3, "{seeded:?}");
    assert_eq!(seeded[0], default.id());
    assert!(seeded.contains(&"reduce_scatter_bidir BLOCK=64 CHUNK=1024".to_string()), "{seeded:?}");
    assert!(seeded.iter().any(|id| id == "reduce_scatter BLOCK=64" || id == "reduce_scatter BLOCK=256"), "{seeded:?}");
}

#[test]
fn a_bimodal_launch_does_not_replace_the_default_on_its_good_mode() {
    // Planted paired rounds of the 256 KiB AllReduce: the default's loops move with the load
    // (10-16 us); the ring runs at 0.6x of them in its good mode and 2.1x in its slow one, in
    // the rounds given by `slow(i)`.
    let n = 120;
    let default: Vec<f64> = (0..n).map(|i| 10.0 + (i * 7 % 13) as f64 / 2.0).collect();
    let ring = |slow: &dyn Fn(usize) -> bool| -> Vec<f64> { default.iter().enumerate().map(|(i, d)| if slow(i) { d * 2.1 } else { d * 0.6 }).collect() };
    // Slow in a third of the rounds: the sign test alone takes it (80 of 120 pairs won, 67
    // needed), its median time is the good mode's, yet its mean launch is 1.1x the default's.
    let third = ring(&|i| i % 3 == 0);
    assert!(beats(&third, &default), "the sign test alone is fooled");
    let times = paired_times(&[third.clone(), default.clone()]);
    assert!(times[0] < 0.7 * times[1], "{times:?}");
    assert!(!robustly_beats(&third, &default));
    // Slow in every other round, or in most: never.
    assert!(!robustly_beats(&ring(&|i| i % 2 == 0), &default));
    assert!(!robustly_beats(&ring(&|i| i % 4 != 0), &default));
    // 2.4x faster in 7 of 10 rounds and 1.3x slower in the rest (the whole tune bench's ring at
    // 41.8 against two-shot's 100.6 us): slow in more than a quarter of the pairs, yet its
    // mean launch is 0.68x the default's, and that is what a user pays.
    let mostly_fast: Vec<f64> = default.iter().enumerate().map(|(i, d)| d * if i % 10 < 3 { 1.3 } else { 0.42 }).collect();
    assert!(upper_quartile(&mostly_fast.iter().zip(&default).map(|(a, b)| a / b).collect::<Vec<_>>()) > 1.0);
    assert!(robustly_beats(&mostly_fast, &default));
    let total = paired_total_ratio(&mostly_fast, &default);
    assert!((0.6..MEAN_LEAD).contains(&total), "{total}");
    assert!(paired_total_ratio(&[], &[]).is_nan());
    // A steady lead whose pairs the load moves by up to +-15% (a burst on either side), and
    // loses 1 in 8 pairs outright: proven.
    let noisy: Vec<f64> = default.iter().enumerate().map(|(i, d)| d * 0.8 * if i % 8 == 0 { 1.3 } else { 1.0 + ((i * 5 % 11) as f64 - 5.0) * 0.03 }).collect();
    assert!(robustly_beats(&noisy, &default));
    // The quartile is the nearest rank, the mirror of the low quartile.
    assert_eq!(upper_quartile(&[8.0, 1.0, 3.0, 2.0, 5.0, 4.0, 7.0, 6.0]), 7.0);
    assert!(upper_quartile(&[]).is_nan());
}

#[test]
fn a_steady_lead_replaces_the_default_and_noise_or_a_slow_mode_does_not() {
    // Planted paired rounds: the default's loops move with the load (10-16 us), and each
    // pair's ratio is `lead` times a load wobble of up to +-`wobble` (a fixed pseudo-random walk).
    let n = 118;
    let default: Vec<f64> = (0..n).map(|i| 10.0 + (i * 7 % 13) as f64 / 2.0).collect();
    let paired = |lead: f64, wobble: f64| -> Vec<f64> { default.iter().enumerate().map(|(i, d)| d * lead * (1.0 + wobble * ((i * 37 % 23) as f64 / 11.0 - 1.0))).collect() };
    let ratios = |a: &[f64]| -> Vec<f64> { a.iter().zip(&default).map(|(x, y)| x / y).collect() };
    // The tune bench's GEMM-RS 448 1x4 row: 5% ahead, pairs moved by +-12%, so its slow quarter
    // is past the default's time (upper quartile 1.01, total 0.95): the quarter-loss test alone
    // kept the default, the steady lead replaces it.
    let gemm_rs_ps = paired(0.95, 0.12);
    let q = upper_quartile(&ratios(&gemm_rs_ps));
    assert!((1.0..=STEADY_LOSS).contains(&q), "{q}");
    assert!(paired_total_ratio(&gemm_rs_ps, &default) > MEAN_LEAD);
    assert!(robustly_beats(&gemm_rs_ps, &default));
    // A 1.5% lead the sign test proves, its slow quarter past the default (pairs moved by +-5%),
    // is not steady: its total is inside the margin.
    let slight = paired(0.985, 0.05);
    assert!(beats(&slight, &default), "the sign test alone takes it");
    assert!(upper_quartile(&ratios(&slight)) > 1.0);
    assert!(!steady(&ratios(&slight), paired_total_ratio(&slight, &default)));
    assert!(!robustly_beats(&slight, &default));
    // Pure noise (the same config twice, pairs moved by +-8%): never.
    assert!(!robustly_beats(&paired(1.0, 0.08), &default));
    // A slow mode: 0.85x in 7 of 10 rounds and 1.1x in the rest is 0.925 in total, and its
    // slow quarter loses by 10%: kept.
    let slow_mode: Vec<f64> = default.iter().enumerate().map(|(i, d)| d * if i % 10 < 3 { 1.1 } else { 0.85 }).collect();
    assert!(beats(&slow_mode, &default));
    assert!(!robustly_beats(&slow_mode, &default));
    // The boundary: a slow quarter at the margin with the total the margin ahead is steady.
    assert!(steady(&[0.9, 0.95, 0.96, STEADY_LOSS], 1.0 / STEADY_LOSS));
    assert!(!steady(&[0.9, 0.95, 0.96, STEADY_LOSS * 1.01], 0.9));
}

#[test]
fn the_one_node_hierarchical_allreduce_is_seeded() {
    // On one node `allreduce_hier` is a two-shot by stores (2w + 2 segments against two-shot's
    // 3w - 1), the best config the 16 MiB 1x4 sweep timed (4444 us against two-shot's 9706),
    // now the default there: below that size, and on 2 ranks, the model must still put it
    // within the seeds' 2x of its best.
    for (bytes, local) in [(4usize << 20, 4usize), (16 << 20, 2)] {
        let topo = Topology { nodes: 1, local_size: local };
        let p = elems("allreduce", bytes / 4);
        let (_, default, seeded) = model_seeds(&p, topo, &MACHINE);
        assert_eq!(default.algorithm, "allreduce_two_shot");
        assert!(seeded.iter().any(|c| c.algorithm == "allreduce_hier"), "{:?}", seeded.iter().map(Config::id).collect::<Vec<_>>());
        assert_eq!(seeded[0], default);
    }
    // Two-shot's bytes and steps less the hier's (1x4: 10 segments and 2 waits, against 11
    // and 4), at the same 64-wide tile.
    let p = elems("allreduce", 1 << 20);
    let seg = (4u64 << 20) as f64 / 4.0;
    let bw = MACHINE.copy_bytes_per_s * 2.0 / 4.0;
    let diff = seg / bw * 1e6 + 2.0 * MACHINE.signal_s * 2.0 * 1e6;
    let (two, hier) = (us("allreduce_two_shot BLOCK=64", &p, ONE_BY_FOUR), us("allreduce_hier BLOCK=64", &p, ONE_BY_FOUR));
    assert!((two - hier - diff).abs() < 1e-6 * two, "{two} - {hier} vs {diff}");
}

#[test]
fn another_config_replaces_the_default_only_by_a_margin() {
    let by_time = |d: f64| vec![("fast".to_string(), 10.0), ("mid".to_string(), 10.1), ("default".to_string(), d)];
    let first = |d: f64, proven: bool| {
        let mut v = by_time(d);
        prefer_default(&mut v, "default", &|lead| {
            assert_eq!(lead, "fast", "the sign test is asked of the fastest");
            proven
        });
        v[0].0.clone()
    };
    // A 3.5% lead, proven, keeps it too (the quiet tune bench's gemm_rs 344 2x2: 3.4% in the
    // finals, 3% behind the default in the head to head); 5.5% replaces it.
    assert_eq!(first(10.25, true), "default");
    assert_eq!(first(10.35, true), "default");
    assert_eq!(first(10.45, true), "default");
    assert_eq!(first(10.55, true), "fast");
    // However far ahead, a lead the paired rounds did not prove keeps the default.
    assert_eq!(first(20.0, false), "default");
    let mut v = by_time(10.2);
    prefer_default(&mut v, "absent", &|_| false);
    assert_eq!(v, by_time(10.2));
}

#[test]
fn the_bidirectional_reduce_scatter_ranks_its_tile_widths_as_measured() {
    // The tune bench's 1x4 sweeps (us, CHUNK=8192 / CHUNK=-): 4 KiB (CHUNK=1024 / -) 64-wide
    // 10.0 / 12.0, 256-wide 11.0 / 22.7, 1024-wide 22.8 / 26.9; 256 KiB 40 / 43-47, 59-61 /
    // 60-61, 59-65 / 61-63; 16 MiB 6300-6370 / 7020-7180, 8800-13440 / 16830-18340,
    // 10330-10460 / 15710. Here on the test's constants and on the bench machine's (its
    // cached copy 4x its DRAM copy, signals in microseconds).
    let bench = Machine { flops_per_core: 2.6e10, copy_bytes_per_s: 1.33e10, cache_copy_bytes_per_s: 5.36e10, signal_s: 1.4e-6, launch_s: 2e-5, ..MACHINE };
    for m in [MACHINE, bench] {
        let t = |block: u32, chunk: &str, n: usize| predict(&cfg(&format!("reduce_scatter_bidir BLOCK={block} CHUNK={chunk}")), &elems("reduce_scatter", n), ONE_BY_FOUR, &m);
        for (n, chunks) in [(1 << 10, ["1024", "-"]), (1 << 16, ["8192", "-"]), (1 << 22, ["8192", "-"])] {
            for chunk in chunks {
                assert!(t(64, chunk, n) < t(256, chunk, n) && t(64, chunk, n) < t(1024, chunk, n), "{n} CHUNK={chunk}: {} {} {}", t(64, chunk, n), t(256, chunk, n), t(1024, chunk, n));
            }
        }
        // At 256 KiB the model's best is the sweep's, and a budget of a quarter of the space
        // (4 of 19) times it.
        let p = elems("reduce_scatter", 1 << 16);
        let (by_model, _, seeded) = model_seeds(&p, ONE_BY_FOUR, &m);
        let best = cfg("reduce_scatter_bidir BLOCK=64 CHUNK=8192");
        assert_eq!(by_model[0].0, best, "{:?}", by_model.iter().map(|(c, t)| format!("{} {:.1}", c.id(), t * 1e6)).collect::<Vec<_>>());
        assert!(seeded.contains(&best));
    }
}

#[test]
fn launch_and_signal_costs_are_fitted_to_two_probes() {
    // Planted probe times from known constants: the fit recovers them, since the model is
    // linear in both (the broadcast's one step against the ReduceScatter's `2(w - 1)`).
    let (c_b, p_b) = (cfg("broadcast BLOCK=1024"), elems("broadcast", 4));
    let (c_r, p_r) = (cfg("reduce_scatter BLOCK=1024"), elems("reduce_scatter", 4 * 1024));
    let probe_s = |m: &Machine| [predict(&c_b, &p_b, ONE_BY_FOUR, m), predict(&c_r, &p_r, ONE_BY_FOUR, m)];
    let truth = Machine { launch_s: 3e-6, signal_s: 4e-7, ..MACHINE };
    let (launch, signal) = super::launch::fit(&MACHINE, &probe_s, probe_s(&truth));
    assert!((launch - 3e-6).abs() < 1e-12 && (signal - 4e-7).abs() < 1e-12, "{launch} {signal}");
    // The ping-pong bounds the signal; a launch never costs less than nothing.
    let (_, signal) = super::launch::fit(&MACHINE, &probe_s, probe_s(&Machine { signal_s: 1e-4, ..truth }));
    assert_eq!(signal, MACHINE.signal_s);
    let (launch, signal) = super::launch::fit(&MACHINE, &probe_s, [0.0, 0.0]);
    assert_eq!((launch, signal), (0.0, 0.0));
    // One rank: no steps to tell them apart; the machine file's signal stays.
    let one = Topology { nodes: 1, local_size: 1 };
    let probe_1 = |m: &Machine| [predict(&c_b, &elems("broadcast", 1), one, m), predict(&c_r, &elems("reduce_scatter", 1024), one, m)];
    assert_eq!(super::launch::fit(&MACHINE, &probe_1, [1e-5, 1e-5]).1, MACHINE.signal_s);
}

#[test]
fn the_hierarchical_allreduce_charges_wide_tiles_from_dram_on_one_node() {
    // One node: the registry's CPU tile is 64 (`topology_constexprs`), and 256 measured slower
    // (the quiet tune bench, 1x4 16 MiB: 5239 us at 64 against 6375 at 256; at load 7-8 the
    // sweep's best was BLOCK=64 too). The model read the by-name default (256) and charged
    // nothing for the wider tile: 256 ranked ahead.
    for m in [MACHINE, FITTED] {
        let p = elems("allreduce", 1 << 22);
        let t = |b: u32, topo: Topology| predict(&cfg(&format!("allreduce_hier BLOCK={b}")), &p, topo, &m);
        assert!(t(64, ONE_BY_FOUR) < t(256, ONE_BY_FOUR), "{} {}", t(64, ONE_BY_FOUR), t(256, ONE_BY_FOUR));
        // Across nodes the registry's tile stays 256, and the model does not charge it.
        let two = Topology { nodes: 2, local_size: 2 };
        assert!(t(256, two) <= t(64, two), "{} {}", t(256, two), t(64, two));
        // In the caches (256 KiB on 1x4) 256 led the sweep (32 us against 40 at 64): not
        // charged as from DRAM.
        let p = elems("allreduce", 1 << 16);
        let t = |b: u32| predict(&cfg(&format!("allreduce_hier BLOCK={b}")), &p, ONE_BY_FOUR, &m);
        assert!(t(256) <= t(64), "{} {}", t(256), t(64));
    }
}

#[test]
fn the_default_kept_or_replaced_says_how_the_paired_rounds_went() {
    // Planted rounds: the lead is faster in 5 of 8 pairs (ratios 0.5 .. 1.5 around 0.9).
    let default = [10.0; 8];
    let lead = [5.0, 6.0, 7.0, 8.0, 9.0, 11.0, 13.0, 15.0];
    let note = versus_default_note(true, "ring", &lead, &default);
    assert!(note.starts_with("default kept: `ring` was faster in 5 of 8 paired rounds"), "{note}");
    // Median of the ratios (0.85 and 0.9 in the middle), upper quartile by nearest rank.
    assert!(note.contains("median ratio 0.85, upper quartile 1.30"), "{note}");
    assert!(note.contains("a 5% lead"), "{note}");
    // The total time of the lead's rounds over the default's (74 / 80).
    assert!(note.contains("total time 0.93") && note.contains("a total under 0.90"), "{note}");
    assert!(note.contains("a slow quarter and a total within 3%"), "{note}");
    // A replaced default says so, with the same statistics (the lead in all 8 pairs, 0.8 each).
    let note = versus_default_note(false, "ring", &[8.0; 8], &default);
    assert!(note.starts_with("default replaced: `ring` was faster in 8 of 8 paired rounds (median ratio 0.80"), "{note}");
}
