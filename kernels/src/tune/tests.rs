//! Tuner tests: the exchange, cache keys, pruning, corrupt files and ranks whose caches
//! disagree (which must re-tune together, not hang).

use super::cache::{self, Entry, Measured};
use super::measure::Schedule;
use super::search::Options;
use super::space::{self, Config};
use super::*;
use std::sync::mpsc;
use std::time::Duration;
use weft_runtime::{LocalOptions, Topology};

fn world(nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap()
}

/// Removes a test's cache folders when the test ends, passed or failed.
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dirs(tag: &str, n: usize) -> (RemoveOnDrop, Vec<PathBuf>) {
    let base = std::env::temp_dir().join(format!("weft-tune-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let dirs = (0..n).map(|r| base.join(format!("rank{r}"))).collect();
    (RemoveOnDrop(base), dirs)
}

fn bcast(elems: usize) -> Problem {
    Problem { op: "broadcast".into(), shape: Shape::Elems(elems), dtype: DType::F32 }
}

fn quick(dirs: Vec<PathBuf>) -> Options {
    let schedule = Schedule { warmup: 1, round: 2, rounds: 1, min_loop: Duration::ZERO, sample: Duration::ZERO, ..Schedule::default() };
    Options { dirs: CacheDirs { per_rank: Some(dirs) }, schedule, ..Options::default() }
}

/// Runs `f` on a thread and fails the test if it does not finish in time (a hang).
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs)).expect("tuning hung")
}

#[test]
fn agreement_gathers_every_ranks_words() {
    let w = world(1, 3);
    // The in-place exchange `local` uses and the AllGather multi-process transports use.
    for mut a in [agree::Agreement::new(&w).unwrap(), agree::Agreement::collective(&w).unwrap()] {
        for round in 0..3u32 {
            let got = a.gather(|r| vec![r as u32 * 10 + round, 7]).unwrap();
            let want: Vec<Vec<u32>> = (0..3u32).map(|r| [vec![r * 10 + round, 7], vec![0; agree::WORDS - 2]].concat()).collect();
            assert_eq!(got, want);
        }
        assert_eq!(a.max_f64(|r| [2.5, -1.0, 9.25][r]).unwrap(), 9.25);
    }
}

#[test]
fn cache_keys_follow_what_decides_the_result() {
    let (w2, w4, w22) = (world(1, 2), world(1, 4), world(2, 1));
    let k = |w: &World, p: &Problem| key(w, p).unwrap().file_name();
    let ar = |elems, dtype| Problem { op: "allreduce".into(), shape: Shape::Elems(elems), dtype };
    // Same power-of-two bucket of bytes: the same entry.
    assert_eq!(k(&w2, &ar(1000, DType::F32)), k(&w2, &ar(1024, DType::F32)));
    assert_ne!(k(&w2, &ar(1000, DType::F32)), k(&w2, &ar(1025, DType::F32)));
    assert_ne!(k(&w2, &ar(1000, DType::F32)), k(&w2, &ar(1000, DType::BF16)));
    assert_ne!(k(&w2, &ar(1000, DType::F32)), k(&w4, &ar(1000, DType::F32)));
    assert_ne!(k(&w2, &ar(1000, DType::F32)), k(&w22, &ar(1000, DType::F32)));
    let mm = |m, n, kk| Problem { op: "ag_gemm".into(), shape: Shape::Matmul(MatmulShape { m, n, k: kk }), dtype: DType::F32 };
    assert_eq!(k(&w2, &mm(1000, 520, 300)), k(&w2, &mm(1024, 1024, 512)));
    assert_ne!(k(&w2, &mm(1000, 520, 300)), k(&w2, &mm(1024, 1024, 513)));
    // The IR hash is the printed default kernel's, so a kernel edit changes the key.
    let kernel = crate::build("allreduce", &crate::default_constexprs("allreduce", "f32").unwrap()).unwrap();
    let printed = weft_compiler::ir::print::print_kernel(&kernel, false);
    assert_eq!(key(&w2, &ar(64, DType::F32)).unwrap().ir, blake3::hash(printed.as_bytes()).to_hex()[..32]);
    assert!(matches!(key(&w2, &Problem { op: "nope".into(), ..ar(1, DType::F32) }), Err(TuneError::NotTunable { .. })));
}

#[test]
fn pruning_removes_padding_tiles_oversized_shared_memory_and_bad_constexprs() {
    use weft_compiler::pipeline::Target;
    let topo = Topology { nodes: 1, local_size: 4 };
    // 72 rows over 4 ranks: 18 per rank, so 64-row tiles are pure padding.
    let p = Problem { op: "ag_gemm".into(), shape: Shape::Matmul(MatmulShape { m: 72, n: 200, k: 48 }), dtype: DType::F32 };
    let full = space::space("ag_gemm", Target::Cpu).unwrap();
    let (keep, pruned) = space::prune(full.clone(), &p, topo, Target::Cpu);
    assert_eq!(keep.len() + pruned.len(), full.len());
    for c in &keep {
        assert!(c.int("BLOCK_M").unwrap() <= 32 && c.int("BLOCK_K").unwrap() <= 64, "{}", c.id());
    }
    // Pruned: 64-row tiles, and 2 communication programs for the one 32-row tile of a shard.
    let comm = |x: &space::Pruned| x.config.int("BLOCK_M") == Some(32) && x.config.int("COMM_PROGRAMS") == Some(2) && x.why.contains("COMM_PROGRAMS=2 exceeds the 1 tiles");
    assert!(pruned.iter().all(|x| (x.config.int("BLOCK_M") == Some(64) && x.why.contains("BLOCK_M")) || comm(x)), "{pruned:?}");
    assert!(pruned.iter().any(comm) && keep.iter().any(|c| c.int("BLOCK_M") == Some(16) && c.int("COMM_PROGRAMS") == Some(2)));
    // On sm_80 a 128x256 f32 accumulator overflows the static shared memory; on sm_90a the
    // dynamic shared memory holds it, but not four f32 stages of 128x64 and 64x256, nor a
    // 128x256 accumulator spread over 4 warps' registers.
    let big = Problem { op: "gemm".into(), shape: Shape::Matmul(MatmulShape { m: 4096, n: 4096, k: 4096 }), ..p.clone() };
    let (sm80, sm90) = (Target::parse("sm_80").unwrap(), Target::parse("sm_90a").unwrap());
    let (ak, ap) = space::prune(space::space("gemm", sm80).unwrap(), &big, topo, sm80);
    assert!(ap.iter().any(|x| x.config.int("BLOCK_M") == Some(128) && x.config.int("BLOCK_N") == Some(256) && x.why.contains("shared memory")));
    assert!(ak.iter().all(|c| c.int("BLOCK_M").unwrap() * c.int("BLOCK_N").unwrap() * 4 <= space::GPU_SHARED_BYTES as i64));
    let (gk, gp) = space::prune(space::space("gemm", sm90).unwrap(), &big, topo, sm90);
    let of = |c: &space::Config, k: &str| c.int(k).unwrap();
    let is = |c: &space::Config, v: [i64; 5]| ["BLOCK_M", "BLOCK_N", "BLOCK_K", "num_warps", "num_stages"].iter().zip(v).all(|(k, v)| of(c, k) == v);
    assert!(gp.iter().any(|x| is(&x.config, [128, 256, 64, 8, 4]) && x.why.contains("shared memory")), "{gp:?}");
    assert!(gp.iter().any(|x| is(&x.config, [128, 256, 32, 4, 3]) && x.why.contains("accumulator registers")), "{gp:?}");
    assert!(gk.iter().any(|c| is(c, [128, 256, 32, 8, 3])));
    // A constexpr outside the kernel's range is rejected by its builder, before compiling.
    let mut bad = gk[0].clone();
    bad.params.insert("BLOCK_K".into(), "512".into());
    let (k2, p2) = space::prune(vec![bad], &big, topo, Target::Cpu);
    assert!(k2.is_empty() && p2[0].why.contains("rejected by the kernel"), "{:?}", p2);
    // multimem needs one node.
    let ar = Problem { op: "allreduce".into(), shape: Shape::Elems(1 << 16), dtype: DType::F32 };
    let two = Topology { nodes: 2, local_size: 2 };
    let (_, p3) = space::prune(space::space("allreduce", Target::Cpu).unwrap(), &ar, two, Target::Cpu);
    assert!(p3.iter().any(|x| x.config.algorithm == "allreduce_multimem"));
}

#[test]
fn overlap_spaces_join_the_comm_method_and_the_model_ranks_every_method() {
    use weft_compiler::pipeline::Target;
    let algs = |op: &str| space::space(op, Target::Cpu).unwrap().into_iter().map(|c| c.algorithm).collect::<std::collections::BTreeSet<_>>();
    // The collectives' spaces hold the pipelined rings, and across nodes the rings are kept.
    for (op, ring) in [("allreduce", "allreduce_ring"), ("allreduce", "allreduce_ring_bidir"), ("allgather", "allgather_bidir"), ("reduce_scatter", "reduce_scatter_bidir")] {
        assert!(algs(op).contains(ring), "{op}: {ring}");
        let p = Problem { op: op.into(), shape: Shape::Elems(1000), dtype: DType::F32 };
        let (keep, _) = space::prune(space::space(op, Target::Cpu).unwrap(), &p, Topology { nodes: 2, local_size: 2 }, Target::Cpu);
        assert!(keep.iter().any(|c| c.algorithm == ring), "{op}: {ring} pruned on 2x2");
    }
    assert_eq!(algs("ag_gemm").into_iter().collect::<Vec<_>>(), ["ag_gemm", "ag_gemm_ce"]);
    assert_eq!(algs("gemm_rs").into_iter().collect::<Vec<_>>(), ["gemm_rs", "gemm_rs_ce", "gemm_rs_ps"]);
    // Pull and push, and both swizzle orders, are points of the copy-engine AG-GEMM's space.
    let ce: Vec<_> = space::space("ag_gemm", Target::Cpu).unwrap().into_iter().filter(|c| c.algorithm == "ag_gemm_ce").collect();
    for (key, v) in [("CE_PULL", 1), ("CE_PULL", 0), ("SWIZZLE", 1)] {
        assert!(ce.iter().any(|c| c.int(key) == Some(v)), "{key}={v}");
    }
    // The producer-scatter GEMM-RS is pruned across nodes; every kept config gets a finite,
    // positive prediction, and every method is in the model's ranking.
    let p = Problem { op: "gemm_rs".into(), shape: Shape::Matmul(MatmulShape { m: 256, n: 344, k: 128 }), dtype: DType::BF16 };
    let (_, pruned) = space::prune(space::space("gemm_rs", Target::Cpu).unwrap(), &p, Topology { nodes: 2, local_size: 2 }, Target::Cpu);
    assert!(pruned.iter().any(|x| x.config.algorithm == "gemm_rs_ps" && x.why.contains("one node")));
    let machine = super::cost::Machine { flops_per_core: 1e9, copy_bytes_per_s: 1e10, cache_copy_bytes_per_s: 4e10, signal_s: 1e-6, launch_s: 1e-5, spawn_s: 1e-4, poll_share: 0.05, cores: 2, tiles: super::tiles::TileCosts::NONE };
    let (keep, _) = space::prune(space::space("gemm_rs", Target::Cpu).unwrap(), &p, Topology { nodes: 1, local_size: 4 }, Target::Cpu);
    for c in &keep {
        let t = super::cost::predict(c, &p, Topology { nodes: 1, local_size: 4 }, &machine);
        assert!(t.is_finite() && t > 0.0, "{} -> {t}", c.id());
    }
}

/// An entry for `problem` on `w` naming `winner`, as another rank (or an older run) wrote it.
fn planted(w: &World, problem: &Problem, winner: &str, us: f64) -> Entry {
    let full = space::space(&problem.op, weft_compiler::pipeline::Target::Cpu).unwrap();
    let space_hash = blake3::hash(full.iter().map(Config::id).collect::<Vec<_>>().join("\n").as_bytes()).to_hex()[..32].to_string();
    let measured = [(winner.to_string(), Measured { us, runs: 3 })].into_iter().collect();
    Entry { key: key(w, problem).unwrap(), winner: winner.into(), measured, space: full.len(), space_hash, pruned: 0 }
}

#[test]
fn ranks_with_disagreeing_caches_retune_together_without_hanging() {
    let w = world(1, 2);
    let p = bcast(1000);
    let (_cleanup, dirs) = temp_dirs("disagree", 2);
    cache::store(&dirs[0], &planted(&w, &p, "broadcast BLOCK=256", 5.0)).unwrap();
    cache::store(&dirs[1], &planted(&w, &p, "broadcast BLOCK=1024", 4.0)).unwrap();
    let cd = CacheDirs { per_rank: Some(dirs.clone()) };
    assert!(lookup(&w, &p, &cd).unwrap().is_none(), "disagreeing caches must not be a hit");
    let (w2, p2, o) = (w.clone(), p.clone(), quick(dirs.clone()));
    let out = within(240, move || tune(&w2, &p2, &o, &mut |_| {})).unwrap();
    assert_eq!(out.source, Source::Tuned);
    assert!(out.notes.iter().any(|n| n.contains("disagree")), "{:?}", out.notes);
    let e0 = std::fs::read_to_string(dirs[0].join(key(&w, &p).unwrap().file_name())).unwrap();
    let e1 = std::fs::read_to_string(dirs[1].join(key(&w, &p).unwrap().file_name())).unwrap();
    assert_eq!(e0, e1, "every rank must end with the same entry");
    // Now every rank agrees: a hit on the winner, which heads the tuner's own ranking. Which
    // config that is depends on timing (on a loaded machine any of them may be fastest), so
    // only the rule is checked, not a time: the winner is the default (which an unproven lead
    // does not replace, `prefer_default`) or within the 2% tie of the fastest re-timed
    // finalist. The first-pass times of configs that were not re-timed are not comparable
    // with the finalists' rounds (`ordered`), so they are left out; the rule itself is tested
    // on planted timings in `model_tests`.
    let (c, _) = lookup(&w, &p, &cd).unwrap().expect("hit after re-tuning");
    assert_eq!(c, out.winner);
    assert_eq!(out.ranked[0].0, c.id(), "{:?}", out.ranked);
    assert!(out.retimed >= 2, "two measured configs are re-timed together: {:?}", out.ranked);
    let fastest = out.ranked[..out.retimed].iter().map(|r| r.1.us).fold(f64::MAX, f64::min);
    let winner_us = out.ranked[0].1.us;
    let default = space::default_config(&p, w.topology(), weft_compiler::pipeline::Target::Cpu).unwrap();
    assert!(winner_us <= fastest * 1.02 || c == default, "{} at {winner_us} us, fastest {fastest} us, default {}", c.id(), default.id());
    // One rank missing its file is a disagreement too.
    std::fs::remove_file(dirs[1].join(key(&w, &p).unwrap().file_name())).unwrap();
    assert!(lookup(&w, &p, &cd).unwrap().is_none());
}

#[test]
fn a_corrupt_cache_file_warns_and_retunes_reusing_nothing_of_it() {
    let w = world(1, 2);
    let p = bcast(700);
    let (_cleanup, dirs) = temp_dirs("corrupt", 2);
    let name = key(&w, &p).unwrap().file_name();
    for d in &dirs {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join(&name), "{ \"key\": not json").unwrap();
    }
    let o = quick(dirs.clone());
    let (w2, p2) = (w.clone(), p.clone());
    let out = within(240, move || tune(&w2, &p2, &o, &mut |_| {})).unwrap();
    assert!(out.notes.iter().any(|n| n.contains("corrupt tuning cache file") && n.contains(&name)), "{:?}", out.notes);
    assert_eq!(out.source, Source::Tuned);
    // 700 elements prune the 4096-wide block: the budget's two configs are the whole space,
    // so every later candidate has a timing to reuse, whatever the timings say.
    assert_eq!(out.measured_now, out.space - out.pruned.len(), "{:?}", out.ranked);
    let e = cache::load(&dirs[0], &key(&w, &p).unwrap());
    assert!(matches!(e, cache::Lookup::Hit(ref e) if e.winner == out.winner.id()), "{e:?}");
    // A second tune is a cache hit; a space edit keeps the timings of the configs still in it.
    let again = tune(&w, &p, &quick(dirs.clone()), &mut |_| {}).unwrap();
    assert_eq!(again.source, Source::Cache);
    let cache::Lookup::Hit(mut edited) = cache::load(&dirs[0], &key(&w, &p).unwrap()) else { panic!() };
    edited.space_hash = "an older space".into();
    edited.measured.insert("broadcast BLOCK=999".into(), Measured { us: 1.0, runs: 1 });
    for d in &dirs {
        cache::store(d, &edited).unwrap();
    }
    let re = tune(&w, &p, &quick(dirs.clone()), &mut |_| {}).unwrap();
    assert_eq!((re.source, re.measured_now), (Source::Tuned, 0), "every candidate's timing is reused");
    assert!(re.reused >= 1 && !re.ranked.iter().any(|r| r.0.contains("999")), "{:?}", re.ranked);
}

#[test]
fn size_ranges_parse_and_tuned_registrations_run_through_prepare_selected() {
    use crate::msccl::{prepare_selected, MscclOptions};
    use weft_compiler::msccl::{CollectiveKind, Registration, SelectionTable};
    assert_eq!(table::parse_bytes("64M"), Some(64 << 20));
    assert_eq!(table::parse_bytes("3k"), Some(3072));
    assert_eq!(table::parse_bytes("x"), None);
    assert_eq!(table::sizes("1K..64K"), Some(vec![1 << 10, 4 << 10, 16 << 10, 64 << 10]));
    assert_eq!(table::sizes("1K..10K"), Some(vec![1 << 10, 4 << 10, 10 << 10]));
    assert_eq!(table::sizes("8K..1K"), None);
    // A table as `weft tune --sizes` writes it: config ids, not bare algorithm names.
    let w = world(1, 2);
    let mut t = SelectionTable::new();
    let reg = |min, max: Option<u64>, config: &str| Registration { collective: CollectiveKind::AllReduce, min_bytes: min, max_bytes: max, ranks: Some(2), algorithm: config.into() };
    t.push(reg(0, Some(4096), "allreduce_two_shot BLOCK=256")).unwrap();
    t.push(reg(4097, None, "msccl:ring_allreduce block=512 instances=1 protocol=Simple")).unwrap();
    let o = MscclOptions { dtype: DType::F32, ..MscclOptions::default() };
    for (elems, name) in [(1000, "library:allreduce_two_shot"), (3001, "ring_allreduce")] {
        let mut s = prepare_selected(&w, &t, CollectiveKind::AllReduce, elems, &o).unwrap();
        assert_eq!(s.name(), name);
        let (ok, err) = s.verify_after_launch(11).unwrap();
        assert!(ok, "{name} at {elems}: max error {err}");
    }
}

#[test]
fn defaults_follow_the_measured_allreduce_choice_and_ring_chunks_are_pruned_to_distinct_launches() {
    use weft_compiler::pipeline::Target;
    let cpu = Target::Cpu;
    let ar = |bytes: usize| Problem { op: "allreduce".into(), shape: Shape::Elems(bytes / 4), dtype: DType::F32 };
    let d = |bytes: usize, topo: Topology, t: Target| space::default_config(&ar(bytes), topo, t).unwrap();
    let (one4, two2, one8) = (Topology { nodes: 1, local_size: 4 }, Topology { nodes: 2, local_size: 2 }, Topology { nodes: 1, local_size: 8 });
    // Across nodes in GPU code the ring (the shots reach one node), in CPU code on 2x2 the
    // hierarchical kernel at every size.
    let sm90 = Target::parse("sm_90a").unwrap();
    for b in [4 << 10, 256 << 10, 16 << 20] {
        assert_eq!(d(b, two2, cpu).algorithm, "allreduce_hier");
        assert_eq!(d(b, two2, sm90).algorithm, "allreduce_ring");
    }
    // CPU code: one-shot up to 4 KiB on 4 or more ranks, two-shot at the other sizes below 16 MiB.
    assert_eq!(d(4 << 10, one4, cpu).algorithm, "allreduce_one_shot");
    assert_eq!(d(4 << 10, one8, cpu).algorithm, "allreduce_one_shot");
    assert_eq!(d((4 << 10) + 4, one4, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(256 << 10, one4, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(1 << 20, one4, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(4 << 10, Topology { nodes: 1, local_size: 2 }, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(16 << 20, Topology { nodes: 1, local_size: 2 }, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(1 << 20, one8, cpu).algorithm, "allreduce_two_shot");
    // From 16 MiB on 4 or more ranks the hierarchical kernel (one node: a two-shot by stores).
    assert_eq!(d((16 << 20) - 4, one4, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(16 << 20, one4, cpu).algorithm, "allreduce_hier");
    assert_eq!(d(64 << 20, one8, cpu).algorithm, "allreduce_hier");
    assert_eq!(d(64 << 20, Topology { nodes: 1, local_size: 2 }, cpu).algorithm, "allreduce_two_shot");
    assert_eq!(d(16 << 20, one4, sm90).algorithm, "allreduce_two_shot");
    // GPU code keeps its cut-over.
    assert_eq!(d(256 << 10, one4, sm90).algorithm, "allreduce_one_shot");
    assert_eq!(d((256 << 10) + 4, one4, sm90).algorithm, "allreduce_two_shot");
    // The default is a point of the space: across 4 nodes of 1 rank above 1 MiB the ring, whose
    // chunk is the launch's own (`-`, which sets no constexpr), at its CPU tile.
    let four1 = Topology { nodes: 4, local_size: 1 };
    let def = d(4 << 20, four1, cpu);
    assert_eq!((def.params.get("CHUNK").map(String::as_str), def.int("BLOCK")), (Some(space::DEFAULT), Some(64)));
    assert!(def.constexprs("f32").get("CHUNK").is_none());
    assert!(space::prune(space::space("allreduce", cpu).unwrap(), &ar(4 << 20), four1, cpu).0.contains(&def));
    // 4 KiB on 4 ranks: a 256-element share, which every cap of 1024 and more takes whole:
    // only the smallest such cap is kept. At 16 MiB (a 1 Mi-element share, the launch's own
    // chunk 64 Ki) 65536 is the launch's own chunk again, the other caps cut it differently.
    let ring64 = |c: &Config| c.algorithm == "allreduce_ring" && c.int("BLOCK") == Some(64);
    let chunks = |v: Vec<Config>| v.into_iter().filter(ring64).map(|c| c.params["CHUNK"].clone()).collect::<Vec<_>>();
    let (keep, pruned) = space::prune(space::space("allreduce", cpu).unwrap(), &ar(4 << 10), one4, cpu);
    assert_eq!(chunks(keep), [space::DEFAULT, "1024"]);
    assert!(pruned.iter().filter(|p| ring64(&p.config)).all(|p| p.why.contains("whole 256-element share")), "{pruned:?}");
    let (keep, pruned) = space::prune(space::space("allreduce", cpu).unwrap(), &ar(16 << 20), one4, cpu);
    assert_eq!(chunks(keep), [space::DEFAULT, "1024", "8192"]);
    assert!(pruned.iter().filter(|p| ring64(&p.config)).all(|p| p.why.contains("CHUNK=65536 cuts the 1048576-element share in 65536-element chunks")), "{pruned:?}");
}

#[test]
fn a_first_pass_candidate_is_timed_against_the_reference_in_alternation() {
    // The same broadcast config as candidate and reference: their paired ratio is 1 up to
    // noise, so the candidate's time is near the reference's, not its own quiet moment's.
    let w = world(1, 2);
    let p = bcast(1 << 12);
    let c = Config::parse("broadcast BLOCK=1024").unwrap();
    let prep = || measure::Runner::prepare(&w, &p, &c).unwrap();
    let mut agree = agree::Agreement::new(&w).unwrap();
    let s = Schedule { warmup: 1, round: 2, rounds: 3, min_loop: Duration::from_micros(200), sample: Duration::ZERO, first_pass: Duration::from_millis(20), ..Schedule::default() };
    // A reference of one second: the candidate's time is that scaled by their median paired
    // ratio (1 up to the load, which a loaded 2-core machine can move by several times in a
    // 200 us loop, so the bound is wide), never its own tens of microseconds.
    let (t, runs, mut reference) = measure::time_against(prep(), prep(), 1.0, &mut agree, &s).unwrap();
    assert!((0.01..100.0).contains(&t), "{t}");
    assert!(runs >= 3 * 2, "{runs} launches in at least 3 rounds of 2");
    // The reference comes back usable for the next candidate.
    assert!(matches!(reference.verify(), Ok((true, _))));
}

#[test]
fn a_candidates_time_is_the_reference_time_scaled_by_their_median_paired_ratio() {
    // Planted rounds: the candidate is 1.25x the reference in every round, the load moves the
    // rounds by up to 3x, and one burst hits the candidate alone: the median ratio stays 1.25.
    let load = [1.0, 3.0, 1.5, 2.0, 1.1];
    let reference: Vec<f64> = load.iter().map(|l| 20e-6 * l).collect();
    let mut candidate: Vec<f64> = reference.iter().map(|r| r * 1.25).collect();
    candidate[2] *= 4.0;
    let t = measure::against(2e-3, &[candidate.clone(), reference.clone()]);
    assert!((t - 2.5e-3).abs() < 1e-12, "{t}");
    // Faster in most rounds: below the reference; the same loops: the reference's own time.
    let faster: Vec<f64> = reference.iter().map(|r| r * 0.8).collect();
    assert!((measure::against(2e-3, &[faster, reference.clone()]) - 1.6e-3).abs() < 1e-12);
    assert!((measure::against(2e-3, &[reference.clone(), reference]) - 2e-3).abs() < 1e-12);
}

#[test]
fn the_launch_and_signal_costs_are_timed_on_the_world_once_and_agreed() {
    let m = super::cost::Machine { launch_s: 0.0, ..super::cost::Machine::measure() };
    let w = world(1, 3);
    let mut agree = agree::Agreement::new(&w).unwrap();
    let first = launch::on_world(&w, &mut agree, &m).unwrap();
    // A launch on the pool, less the model's own terms: finite, not negative, and far from
    // the seconds a broken measurement (or a hang) would take; the signal within the
    // ping-pong's bound; every other constant as given.
    assert!(first.launch_s.is_finite() && (0.0..1.0).contains(&first.launch_s), "{first:?}");
    assert!((0.0..=m.signal_s).contains(&first.signal_s), "{first:?}");
    assert_eq!(super::cost::Machine { launch_s: 0.0, signal_s: m.signal_s, ..first }, m);
    // Measured once per process and world shape: the same values again, on every rank (one
    // process holds them all, through the collective exchange as well).
    assert_eq!(launch::on_world(&w, &mut agree, &m).unwrap(), first);
    let mut collective = agree::Agreement::collective(&w).unwrap();
    assert_eq!(launch::on_world(&w, &mut collective, &m).unwrap(), first);
}
