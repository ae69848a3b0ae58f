//! What only the SIMT emulator can check, shown on planted bugs: each is caught with a report
//! naming the thread, warp, rank and op (or, for a wrong mma fragment, by the reference).

use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::emulator::{with_checks, Checks, Plant};
use weft::kernels::{prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::{Arg, DType, LocalOptions, RuntimeError, Topology, World};

const RACES: Checks = Checks { races: true, count: false, bounds: false };
const BOUNDS: Checks = Checks { races: false, count: false, bounds: true };

fn emulated(arch: &'static str, ranks: usize) -> World {
    World::local_with(LocalOptions { topology: Topology::single_node(ranks), emulate: Some(arch), ..LocalOptions::from_env() }).unwrap()
}

/// `out = sum(x[0..1024])`: a per-thread sum, butterfly shuffles in each warp, then warps
/// combined through shared memory.
fn sum_kernel() -> weft::compiler::ir::Kernel {
    kernel("sum_1024", &Constexprs::new(), |a| {
        let x = a.ptr("x", Scalar::F32);
        let out = a.ptr("out", Scalar::F32);
        store(out, sum(load(x + arange(0, 1024)), 0));
        Ok(())
    })
    .unwrap()
}

fn run_sum(plant: Option<Plant>) -> Result<f32, RuntimeError> {
    run_sum_on("sm_80", plant)
}

fn run_sum_on(arch: &'static str, plant: Option<Plant>) -> Result<f32, RuntimeError> {
    run_sum_checked(arch, RACES, plant)
}

fn run_sum_checked(arch: &'static str, checks: Checks, plant: Option<Plant>) -> Result<f32, RuntimeError> {
    let world = emulated(arch, 1);
    let x = world.alloc::<f32>(1024).unwrap();
    let out = world.alloc::<f32>(1).unwrap();
    let data: Vec<f32> = (0..1024).map(|i| ((i * 37) % 101) as f32 * 0.25 - 12.0).collect();
    world.write(&x, 0, &data).unwrap();
    let k = with_checks(checks, plant, || weft::emulator::launchable(&sum_kernel(), arch, checks)).unwrap();
    world.launch(&k, [1, 1, 1], &[Arg::from(&x), Arg::from(&out)])?;
    let want: f32 = data.iter().sum();
    let got = world.read(&out, 0).unwrap()[0];
    assert!(plant.is_some() || (got - want).abs() <= 1e-3 * want.abs().max(1.0), "sum {got}, reference {want}");
    Ok(got)
}

#[test]
fn shuffle_reduction_matches_and_a_partial_mask_is_reported() {
    run_sum(None).expect("the unplanted reduction runs race-free");
    let err = run_sum(Some(Plant::ShuffleMask(0xffff))).expect_err("lanes 16-31 are outside the mask");
    let text = err.to_string();
    assert!(matches!(err, RuntimeError::KernelFault(_)), "{text}");
    for needle in ["shfl.sync.bfly", "0xffff", "lane 16", "rank 0", "outside the member mask"] {
        assert!(text.contains(needle), "report lacks {needle:?}: {text}");
    }
}

/// A dropped store to shared memory is caught on both vendors' code (AMD's wavefront
/// reduction goes through `ds_bpermute`), and the unplanted sum matches on both.
#[test]
fn a_read_of_unwritten_shared_memory_is_reported() {
    for arch in ["sm_80", "gfx942"] {
        run_sum_on(arch, None).unwrap_or_else(|e| panic!("{arch}: the unplanted reduction runs clean: {e}"));
        let err = run_sum_on(arch, Some(Plant::DropSharedStore(0))).expect_err("a dropped shared store");
        let text = err.to_string();
        assert!(matches!(err, RuntimeError::KernelFault(_)), "{text}");
        for needle in ["uninitialized", "ld.shared", "thread ", "warp ", "rank 0", "program (0,0,0)"] {
            assert!(text.contains(needle), "{arch}: report lacks {needle:?}: {text}");
        }
    }
}

/// A store one element past the 1-element output buffer and a vector load moved off its
/// alignment are reported on both vendors' code; the unplanted kernel passes the check.
#[test]
fn an_out_of_bounds_global_store_is_reported() {
    for arch in ["sm_80", "gfx942"] {
        run_sum_checked(arch, BOUNDS, None).unwrap_or_else(|e| panic!("{arch}: the unplanted reduction stays in bounds: {e}"));
        let err = run_sum_checked(arch, BOUNDS, Some(Plant::GlobalStoreOffByOne)).expect_err("a store past the buffer");
        let text = err.to_string();
        assert!(matches!(err, RuntimeError::KernelFault(_)), "{text}");
        for needle in ["out-of-bounds global access", "writes 4 bytes", "past the end of the buffer", "st.global", "thread ", "rank 0", "program (0,0,0)"] {
            assert!(text.contains(needle), "{arch}: report lacks {needle:?}: {text}");
        }
        let err = run_sum_checked(arch, BOUNDS, Some(Plant::VectorLoadOffByOneElement)).expect_err("a misaligned vector load");
        let text = err.to_string();
        for needle in ["misaligned global access", "ld.global", "-byte aligned", "thread ", "rank 0"] {
            assert!(text.contains(needle), "{arch}: report lacks {needle:?}: {text}");
        }
    }
}

#[test]
fn a_barrier_in_a_single_thread_section_is_a_divergent_barrier() {
    let err = run_sum(Some(Plant::BarrierInSingleThread)).expect_err("the other threads never reach it");
    let text = err.to_string();
    assert!(matches!(err, RuntimeError::KernelFault(_)), "{text}");
    for needle in ["divergent barrier", "barrier.cta.sync.aligned.all", "one.do", "rank 0"] {
        assert!(text.contains(needle), "report lacks {needle:?}: {text}");
    }
}

/// The bf16 GEMM of one rank with `plant`: Ok(max error) or the launch's error.
fn gemm(plant: Option<Plant>) -> Result<(bool, f64), String> {
    gemm_of(MatmulShape { m: 40, n: 24, k: 64 }, plant)
}

fn gemm_of(shape: MatmulShape, plant: Option<Plant>) -> Result<(bool, f64), String> {
    gemm_on("sm_90a", shape, plant)
}

fn gemm_on(arch: &'static str, shape: MatmulShape, plant: Option<Plant>) -> Result<(bool, f64), String> {
    let world = emulated(arch, 1);
    let c = shape_constexprs("gemm", shape, 1, "bf16");
    with_checks(RACES, plant, || {
        let mut p = prepare_matmul(&world, "gemm", shape, DType::BF16, &c).map_err(|e| e.to_string())?;
        p.launch().map_err(|e| e.to_string())?;
        p.verify().map_err(|e| e.to_string())
    })
}

#[test]
fn every_removed_shared_memory_barrier_of_the_gemm_is_a_reported_race() {
    every_removed_barrier_is_caught(MatmulShape { m: 40, n: 24, k: 64 });
}

/// The same for the variant with a `num_stages` ring (sizes divisible by 16), with more
/// tiles than CTAs so that a CTA's second tile reuses the scratch of its first. The ring must
/// wrap so that the last step reads slot 0, which the epilogue's accumulator chunk overwrites
/// (where the last step read a slot no epilogue byte touches, the barrier before the epilogue
/// was not needed for that shape): at 160 rows sm_90a's default is 128-row tiles, 32 deep, on
/// four slots, so five K steps.
#[test]
fn every_removed_barrier_of_the_ring_gemm_is_a_reported_race() {
    every_removed_barrier_is_caught(MatmulShape { m: 160, n: 160, k: 160 });
}

/// The same on sm_100a, whose ring is filled by TMA and read by `ldmatrix`: the step's barrier
/// is what keeps thread 0's copies out of a slot another warp still reads (without it, the
/// copy is the op reported).
#[test]
fn every_removed_barrier_of_the_sm100a_tma_ring_gemm_is_a_reported_race() {
    let reports = every_removed_barrier_is_caught_on("sm_100a", MatmulShape { m: 160, n: 160, k: 128 });
    assert!(reports.iter().any(|e| e.contains("cp.async.bulk.tensor") && e.contains("shared-memory race")), "no barrier keeps a copy off a slot being read: {reports:?}");
}

fn every_removed_barrier_is_caught(shape: MatmulShape) {
    every_removed_barrier_is_caught_on("sm_90a", shape);
}

/// The report of each removed barrier (every one is caught).
fn every_removed_barrier_is_caught_on(arch: &'static str, shape: MatmulShape) -> Vec<String> {
    let gemm = |plant| gemm_on(arch, shape, plant);
    let (ok, err) = gemm(None).expect("the unplanted GEMM runs race-free");
    assert!(ok, "max error {err}");
    let mut reports = vec![];
    for n in 0.. {
        match gemm(Some(Plant::DropBarrier(n))) {
            Err(e) if e.contains("has no barrier") => break,
            Err(e) => {
                eprintln!("barrier #{n} removed: {e}");
                // Without the barrier a reader either overlaps the writer's epoch (a race) or
                // runs before any thread wrote the bytes (uninitialized); on the TMA ring, a
                // thread can wait on a slot's mbarrier before thread 0 has initialized it.
                let caught_it = ["shared-memory race", "uninitialized", "no initialized mbarrier"].iter().any(|m| e.contains(m));
                // (`wgmma`: a slot overwritten while a group reading it is in flight.)
                let shared_op = ["ld.shared", "st.shared", "ldmatrix", "cp.async", "wgmma", "mbarrier"].iter().any(|op| e.contains(op));
                assert!(caught_it && shared_op, "barrier #{n}: {e}");
                assert!(e.contains("thread ") && e.contains("warp ") && e.contains("rank 0"), "barrier #{n}: {e}");
                reports.push(e);
            }
            Ok(r) => panic!("removing barrier #{n} went unnoticed ({r:?})"),
        }
    }
    assert!(reports.len() >= 2, "the GEMM's staging and layout conversion have barriers ({} found)", reports.len());
    reports
}

/// Sizes divisible by 16 run the variant whose operand loads are `cp.async` copies; without
/// their wait, `ldmatrix` reads shared memory the copies have not reached yet.
#[test]
fn a_dropped_cp_async_wait_is_caught() {
    let shape = MatmulShape { m: 48, n: 32, k: 64 };
    let (ok, err) = gemm_of(shape, None).expect("the unplanted GEMM runs race-free");
    assert!(ok, "max error {err}");
    match gemm_of(shape, Some(Plant::DropCpAsyncWait)) {
        Err(e) => assert!(e.contains("uninitialized") || e.contains("shared-memory race"), "{e}"),
        Ok((ok, err)) => assert!(!ok, "reading before the copies landed went unnoticed (max error {err})"),
    }
}

#[test]
fn transposed_mma_b_fragment_fails_the_reference() {
    let (ok, err) = gemm(Some(Plant::SwapMmaB)).expect("runs");
    assert!(!ok && err > 0.5, "a swapped B fragment must change the product (max error {err})");
}
