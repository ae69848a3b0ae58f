//! The library on the SIMT emulator: the GPU code (sm_80, sm_90a, gfx942) of every collective, the
//! GEMM family and the MSCCL built-ins, run on in-process ranks and checked against the same
//! plain-math references as CPU code. Sizes are small and uneven (the emulator runs every GPU
//! thread as a fiber); world sizes 1 to 4.

use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::Protocol;
use weft::kernels::msccl::{run_msccl, MscclOptions};
use weft::kernels::{default_constexprs, list, prepare_matmul, run_collective, shape_constexprs, MatmulShape, RunOptions};
use weft::runtime::{DType, LocalOptions, Topology, World};

const TARGETS: [&str; 3] = ["sm_80", "sm_90a", "gfx942"];
const DTYPES: [DType; 4] = [DType::F32, DType::BF16, DType::I32, DType::F16];

fn emulated(arch: &'static str, nodes: usize, local: usize) -> World {
    World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, emulate: Some(arch), ..LocalOptions::from_env() }).unwrap()
}

fn collective(world: &World, name: &str, elems: usize, dtype: DType, seed: u64) {
    let opts = RunOptions { iters: 1, warmup: 0, constexprs: default_constexprs(name, dtype.name()).unwrap(), seed };
    let r = run_collective(world, name, elems, dtype, &opts).unwrap_or_else(|e| panic!("{name} {:?} n={} elems={elems} {dtype}: {e}", world.gpu_arch(), world.n_ranks()));
    assert!(r.verified, "{name} {:?} ranks={} elems={elems} {dtype}: max error {}", world.gpu_arch(), world.n_ranks(), r.max_err);
    assert!(r.warnings.is_empty(), "{name}: unexpected warnings {:?}", r.warnings);
}

#[test]
fn emulated_collectives_every_world_size() {
    let names: Vec<&str> = list().iter().filter(|k| k.collective.takes_elems() && !["allreduce_multimem", "allgather_2d"].contains(&k.name)).map(|k| k.name).collect();
    for (t, arch) in TARGETS.into_iter().enumerate() {
        for n in 1..=4 {
            let world = emulated(arch, 1, n);
            for (i, name) in names.iter().enumerate() {
                let elems = [1usize, 7, 1001, 4099][(n + i + t) % 4];
                collective(&world, name, elems, DTYPES[(n + i + t) % DTYPES.len()], (n * 10 + i) as u64);
            }
        }
    }
}

#[test]
fn emulated_fp8_data_movement_bit_for_bit() {
    // Every finite code through the GPU code of each AllGather variant and Broadcast; counts
    // that end shards mid-word (four codes a word).
    let names: Vec<&str> = list().iter().filter(|k| k.collective.takes_elems() && ["allgather", "broadcast"].contains(&k.collective.name()) && k.name != "allgather_2d").map(|k| k.name).collect();
    for (t, arch) in ["sm_80", "sm_90a", "sm_100a", "gfx942"].into_iter().enumerate() {
        let world = emulated(arch, 1, 2 + t % 2);
        for (i, name) in names.iter().enumerate() {
            let dtype = [DType::F8E4M3, DType::F8E5M2][(i + t) % 2];
            collective(&world, name, [1usize, 7, 1001][(i + t) % 3], dtype, (t * 10 + i) as u64);
        }
    }
}

#[test]
fn emulated_ring_kernels_with_wrapping_slots() {
    // Chunks of 64 elements: as GPU code, the receive slots wrap and senders wait for credits;
    // two launches on the same buffers, two nodes for one of them. AMD code waits by polling
    // one arrival word per lane and signals by plain atomic stores: with many chunks per lane
    // (the gfx942 / gfx90a cases on 2 ranks) the deadlock detector once took those rounds for
    // idle ones and reported a deadlock on every run.
    let cases = [
        ("sm_90a", (1, 3), "allreduce_ring", DType::F32),
        ("sm_80", (1, 4), "allreduce_ring_bidir", DType::BF16),
        ("sm_80", (1, 2), "reduce_scatter_bidir", DType::F16),
        ("sm_90a", (2, 2), "allgather_bidir", DType::I32),
        ("gfx942", (1, 2), "allreduce_ring", DType::F32),
        ("gfx90a", (1, 2), "reduce_scatter_bidir", DType::F16),
        ("gfx942", (1, 4), "reduce_scatter_bidir", DType::F16),
        ("gfx942", (1, 2), "allgather_bidir", DType::I32),
        ("gfx942", (2, 2), "allreduce_ring_bidir", DType::BF16),
    ];
    for (i, (arch, (nodes, local), name, dtype)) in cases.into_iter().enumerate() {
        let constexprs = default_constexprs(name, dtype.name()).unwrap().with("CHUNK", 64);
        let r = run_collective(&emulated(arch, nodes, local), name, 1003, dtype, &RunOptions { iters: 2, warmup: 0, constexprs, seed: i as u64 })
            .unwrap_or_else(|e| panic!("{name} {arch}: {e}"));
        assert!(r.verified && r.warnings.is_empty(), "{name} {arch}: max error {}, warnings {:?}", r.max_err, r.warnings);
    }
}

#[test]
fn emulated_multimem_and_two_nodes() {
    for n in 2..=4 {
        for dtype in [DType::F32, DType::I32] {
            collective(&emulated("sm_90a", 1, n), "allreduce_multimem", 999, dtype, n as u64);
        }
    }
    // The 2-D AllGather's LL puts across nodes and multimem broadcast, as sm_90a code.
    collective(&emulated("sm_90a", 2, 2), "allgather_2d", 517, DType::F16, 7);
    for name in ["allgather", "allreduce", "reduce_scatter", "allgather_ll", "allreduce_hier"] {
        for arch in ["sm_80", "gfx942"] {
            collective(&emulated(arch, 2, 2), name, 517, DType::BF16, 5);
        }
    }
    let err = run_collective(&emulated("sm_80", 1, 2), "allreduce_multimem", 16, DType::F32, &RunOptions { iters: 1, warmup: 0, constexprs: default_constexprs("allreduce_multimem", "f32").unwrap(), seed: 1 });
    assert!(err.is_err_and(|e| e.to_string().contains("sm_90")), "multimem on sm_80 is a typed error");
    let err = run_collective(&emulated("gfx942", 1, 2), "allreduce_multimem", 16, DType::F32, &RunOptions { iters: 1, warmup: 0, constexprs: default_constexprs("allreduce_multimem", "f32").unwrap(), seed: 1 });
    assert!(err.is_err_and(|e| e.to_string().contains("NVLink SHARP")), "multimem on gfx942 is a typed error");
}

#[test]
fn emulated_gemm_family() {
    let shapes = [(96, 80, 64), (40, 24, 48), (72, 56, 32)];
    let mut case = 0;
    for arch in TARGETS {
        for name in ["gemm", "ag_gemm", "gemm_rs"] {
            for (w, &(m, n, k)) in [1usize, 2, 4].iter().zip(&shapes) {
                let dtype = [DType::BF16, DType::F16, DType::F32][case % 3];
                case += 1;
                let world = emulated(arch, 1, *w);
                let shape = MatmulShape { m, n, k };
                let c = shape_constexprs(name, shape, *w, dtype.name());
                let mut p = prepare_matmul(&world, name, shape, dtype, &c).unwrap_or_else(|e| panic!("{name} {arch} w={w}: {e}"));
                p.launch().unwrap_or_else(|e| panic!("{name} {arch} w={w} {m}x{n}x{k} {dtype}: {e}"));
                let (ok, err) = p.verify().unwrap();
                assert!(ok, "{name} {arch} ranks={w} {m}x{n}x{k} {dtype}: max error {err}");
            }
        }
    }
}

#[test]
fn emulated_gemm_allreduce_and_flash_decode() {
    use weft::kernels::{decode_constexprs, prepare_decode, DecodeShape};
    // gemm_ar's three methods (multimem where NVLS exists) and flash_decode's exp / log, on
    // every emulated target, as GPU code.
    for (i, arch) in TARGETS.into_iter().enumerate() {
        let world = emulated(arch, 1, 2);
        let shape = MatmulShape { m: 40 + i, n: 24, k: 16 };
        for method in ["1", "2", "3"].into_iter().filter(|&m| m != "3" || arch == "sm_90a") {
            let c = shape_constexprs("gemm_ar", shape, 2, "f32").with("METHOD", method);
            let mut p = prepare_matmul(&world, "gemm_ar", shape, DType::F32, &c).unwrap_or_else(|e| panic!("gemm_ar {arch} METHOD={method}: {e}"));
            p.launch().unwrap_or_else(|e| panic!("gemm_ar {arch} METHOD={method}: {e}"));
            let (ok, err) = p.verify().unwrap();
            assert!(ok, "gemm_ar {arch} METHOD={method}: max error {err}");
        }
        let shape = DecodeShape { batch: 1, heads: 4, kv_heads: 2, seq: 67 + i, head_dim: 32 };
        let dtype = [DType::BF16, DType::F32][i % 2];
        let mut p = prepare_decode(&world, "flash_decode", shape, dtype, &decode_constexprs(shape, dtype.name(), true)).unwrap_or_else(|e| panic!("flash_decode {arch}: {e}"));
        p.launch().unwrap_or_else(|e| panic!("flash_decode {arch}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "flash_decode {arch} {dtype}: max error {err}");
    }
}

#[test]
fn emulated_expert_parallel_kernels() {
    use weft::kernels::{moe_constexprs, prepare_moe, MoeShape, RoutingKind};
    // LL words (flag in each word) through remote pointers, the baseline's put_signal and get,
    // and the combine's 16-bit unpacking, as GPU code; one of them on two nodes.
    let cases = [(1, 2, DType::BF16, RoutingKind::Hot), (1, 3, DType::F32, RoutingKind::Sparse), (2, 2, DType::F16, RoutingKind::Uniform)];
    for (i, (arch, &(nodes, local, dtype, kind))) in TARGETS.into_iter().zip(&cases).enumerate() {
        let world = emulated(arch, nodes, local);
        let shape = MoeShape { tokens: 5 + i, hidden: 18, topk: 2, experts: 2 * nodes * local };
        for name in ["ep_dispatch", "ep_combine", "ep_dispatch_v", "ep_combine_v", "ep_dispatch_fp8"] {
            // FP8 codes travel four to a word: a whole group and a partial one.
            let shape = if name == "ep_dispatch_fp8" { MoeShape { hidden: 136, ..shape } } else { shape };
            let what = format!("{name} {arch} {} {dtype} {kind:?}", world.topology());
            let mut p = prepare_moe(&world, name, shape, dtype, &moe_constexprs(shape, dtype.name())).unwrap_or_else(|e| panic!("{what}: {e}"));
            p.seed(i as u64, kind).unwrap();
            p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
            let (ok, err) = p.verify().unwrap();
            assert!(ok, "{what}: max error {err}");
        }
    }
}

#[test]
fn emulated_expert_gemms() {
    use weft::kernels::{moe_gemm_constexprs, prepare_moe_gemm, MoeGemmShape, RoutingKind};
    // Grouped GEMM tiles with gathered rows, the fused AllGather / ReduceScatter and their
    // baselines, as GPU code; one on two nodes, one with every token on one hot expert.
    let cases = [("ag_moe", 1, 2, DType::BF16, RoutingKind::Hot), ("moe_rs", 1, 3, DType::F32, RoutingKind::Sparse), ("moe_rs_v", 2, 2, DType::F16, RoutingKind::Uniform)];
    for (arch, &(name, nodes, local, dtype, kind)) in TARGETS.into_iter().zip(&cases) {
        let world = emulated(arch, nodes, local);
        let shape = MoeGemmShape { tokens: 6, k: 20, n: 18, topk: 2, experts: 2 * nodes * local };
        let what = format!("{name} {arch} {} {dtype} {kind:?}", world.topology());
        let c = moe_gemm_constexprs(name, shape, nodes * local, dtype.name()).with("BLOCK_M", 16).with("BLOCK_N", 16).with("BLOCK_K", 16);
        let mut p = prepare_moe_gemm(&world, name, shape, dtype, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
        p.seed(3, kind).unwrap();
        p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "{what}: max error {err}");
    }
}

#[test]
fn emulated_msccl_builtins() {
    let cases = [
        ("ring_allreduce", 1, Protocol::Simple),
        ("allgather_ring", 1, Protocol::LL),
        ("allgather_direct", 1, Protocol::LL128),
        ("alltoall_direct", 1, Protocol::Simple),
        ("reduce_scatter_ring", 1, Protocol::LL),
        ("hierarchical_allreduce", 2, Protocol::Simple),
        ("alltoall_two_step", 2, Protocol::LL128),
    ];
    for (i, (algo, nodes, protocol)) in cases.into_iter().enumerate() {
        let arch = TARGETS[i % TARGETS.len()];
        let ranks = 4;
        let ir = algorithms::build(algo, &AlgoParams { ranks, nodes, instances: 1, protocol }).unwrap().to_ir().unwrap();
        let world = emulated(arch, nodes, ranks / nodes);
        let dtype = [DType::F32, DType::BF16, DType::F16][i % 3];
        let opts = MscclOptions { dtype, slot_bytes: None, root: 0, block: weft::compiler::msccl::lower::LowerOptions::default().block };
        let r = run_msccl(&world, &ir, 777, &opts, 0).unwrap_or_else(|e| panic!("{algo} {protocol:?} {arch}: {e}"));
        assert!(r.verified, "{algo} {protocol:?} {arch} {dtype}: max error {}", r.max_err);
    }
}

/// Found by the emulator: MSCCL's LL protocol with 16-bit elements forwarded wrong data on 3+
/// ranks: the receive wrote the staging buffer as 32-bit words while other threads of the CTA
/// were still reading the previous message from it as 16-bit elements (no barrier between).
/// The LL receive now starts with a `tile.barrier` for 16-bit types.
#[test]
fn emulated_msccl_ll_16bit_forwarding() {
    let ir = algorithms::build("allgather_ring", &AlgoParams { ranks: 3, nodes: 1, instances: 1, protocol: Protocol::LL }).unwrap().to_ir().unwrap();
    let opts = MscclOptions { dtype: DType::BF16, slot_bytes: None, root: 0, block: weft::compiler::msccl::lower::LowerOptions::default().block };
    for arch in TARGETS {
        let r = run_msccl(&emulated(arch, 1, 3), &ir, 776, &opts, 0).unwrap();
        assert!(r.verified, "{arch}: max error {}", r.max_err);
    }
}

/// MSCCL++'s all-pairs LL AllReduce plan (packets as LL words) in GPU code: three launches on
/// the same buffers (flags and scratch halves alternate), 16- and 32-bit elements.
#[test]
fn emulated_mscclpp_ll_plan() {
    use weft::compiler::msccl::plan::from_json;
    use weft::kernels::msccl::prepare_plan;
    let plan = from_json(include_str!("../../compiler/src/msccl/tests/fixtures/mscclpp_allreduce_packet_4.json")).unwrap();
    for (arch, dtype) in [("sm_80", DType::BF16), ("sm_90a", DType::F32), ("gfx942", DType::F16)] {
        let opts = MscclOptions { dtype, ..MscclOptions::default() };
        let mut p = prepare_plan(&emulated(arch, 1, 4), &plan, 333, &opts).unwrap_or_else(|e| panic!("{arch}: {e}"));
        for seed in 1..=3 {
            let (ok, err) = p.verify_after_launch(seed).unwrap();
            assert!(ok, "{arch} {dtype} launch {seed}: max error {err}");
        }
    }
}

/// Emulation speed: GPU-thread instructions (per-thread IR before optimization) per second of
/// launch time, for a collective and a GEMM. Run alone: `cargo test --release --test
/// integration emulation_speed -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn emulation_speed() {
    use weft::emulator::{executed_instructions, with_checks, Checks};
    let count = Checks { count: true, ..Checks::default() };
    with_checks(count, None, || {
        let world = emulated("sm_80", 1, 4);
        let c = default_constexprs("allgather", "f32").unwrap();
        let mut p = weft::kernels::prepare(&world, "allgather", 1 << 16, DType::F32, &c).unwrap();
        p.seed(1).unwrap();
        let before = executed_instructions();
        let t = p.launch().unwrap();
        let n = executed_instructions() - before;
        assert!(p.verify_after_launch().is_ok());
        println!("allgather 4 ranks x 65536 f32, sm_80: {n} thread-instructions in {:.3} s = {:.1} M/s", t.as_secs_f64(), n as f64 / t.as_secs_f64() / 1e6);
        let world = emulated("sm_90a", 1, 1);
        let shape = MatmulShape { m: 128, n: 128, k: 128 };
        let mut p = prepare_matmul(&world, "gemm", shape, DType::BF16, &shape_constexprs("gemm", shape, 1, "bf16")).unwrap();
        let before = executed_instructions();
        let t = p.launch().unwrap().elapsed;
        let n = executed_instructions() - before;
        println!("gemm 128x128x128 bf16, sm_90a: {n} thread-instructions in {:.3} s = {:.1} M/s", t.as_secs_f64(), n as f64 / t.as_secs_f64() / 1e6);
        assert!(p.verify().unwrap().0);
    });
}

#[test]
fn emulated_gemm_large_tiles_convert_the_accumulator_in_chunks() {
    // 128x128 and 128x256 f32 accumulators (64 and 128 KiB) leave through scratch in chunks;
    // 128x256x128 bf16 operands (96 KiB) need dynamic shared memory. Uneven shapes so edge
    // tiles are masked; one dtype per tile config. sm_90a's 128x128 accumulator over 8 warps is
    // the warp-group layout (warps 8x1, what wgmma produces): its chunks are 16 rows of every
    // warp's band, the whole 64 KiB tile, so it needs dynamic shared memory too.
    let cases = [
        ("sm_90a", (128, 128, 64), DType::BF16, (200, 150, 96), true),
        ("sm_80", (128, 256, 32), DType::F32, (150, 260, 72), false),
        ("sm_90a", (128, 256, 128), DType::BF16, (130, 270, 200), true),
    ];
    for (arch, (bm, bn, bk), dtype, (m, n, k), dynamic) in cases {
        let world = emulated(arch, 1, 1);
        let shape = MatmulShape { m, n, k };
        let c = shape_constexprs("gemm", shape, 1, dtype.name()).with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", bk).with("num_warps", 8);
        let sm = weft::Target::parse(arch).and_then(|t| if let weft::Target::Cuda { sm } = t { Some(sm.info()) } else { None }).unwrap();
        let gpu = weft::compiler::lower::gpu::lower(&weft::kernels::build("gemm", &c).unwrap(), &sm).unwrap();
        assert_eq!(gpu.dynamic_smem > 48 * 1024, dynamic, "{arch} {bm}x{bn}x{bk}: dynamic shared memory {}", gpu.dynamic_smem);
        let mut p = prepare_matmul(&world, "gemm", shape, dtype, &c).unwrap_or_else(|e| panic!("gemm {arch} {bm}x{bn}x{bk}: {e}"));
        p.launch().unwrap_or_else(|e| panic!("gemm {arch} {bm}x{bn}x{bk} {m}x{n}x{k} {dtype}: {e}"));
        let (ok, err) = p.verify().unwrap();
        assert!(ok, "gemm {arch} {bm}x{bn}x{bk} {m}x{n}x{k} {dtype}: max error {err}");
    }
}
