//! The GEMM family's tensor-core path (ldmatrix fragments; `cp.async` operand copies through a
//! `num_stages` ring in the variant a launch with 16-byte-aligned buffers and sizes divisible
//! by 16 runs; MFMA on gfx942) executed on the
//! SIMT emulator at random shapes that are not multiples of the tile, checked against a naive
//! GEMM. The shapes come from a fixed seed and are named in every failure.

use weft::kernels::{prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::{DType, LocalOptions, Topology, World};

/// A small deterministic generator (the test must be reproducible from its message).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// `div16`: every size a multiple of 16 (the cp.async variant), else arbitrary; never a
/// multiple of the 64-wide GPU tiles.
fn shape(r: &mut Lcg, div16: bool) -> MatmulShape {
    let mut dim = |lo: usize| loop {
        let x = if div16 { 16 * (lo / 16 + r.below(6)) } else { lo + r.below(90) };
        if x % 64 != 0 {
            return x;
        }
    };
    MatmulShape { m: dim(40), n: dim(24), k: dim(40) }
}

/// Runs `(kernel, ranks, dtype, div16)` cases on `arch` at shapes drawn from `r`, with the
/// constexprs of `extra` set (e.g. `num_stages`, else the GPU default, 3); `checked`: with the
/// emulator's shared-memory race and global bounds checks.
fn run_cases(arch: &'static str, r: &mut Lcg, extra: &[(&str, usize)], cases: &[(&str, usize, DType, bool)], checked: bool) {
    for &(name, ranks, dtype, div16) in cases {
        let s = shape(r, div16);
        let world = World::local_with(LocalOptions { topology: Topology::single_node(ranks), emulate: Some(arch), ..LocalOptions::from_env() }).unwrap();
        let c = shape_constexprs(name, s, ranks, dtype.name());
        let c = extra.iter().fold(c, |c, &(key, v)| c.with(key, v));
        let what = format!("{name} {arch} ranks={ranks} {}x{}x{} {dtype} {extra:?}", s.m, s.n, s.k);
        let env = weft::emulator::Checks::from_env();
        let checks = weft::emulator::Checks { races: checked || env.races, bounds: checked || env.bounds, ..env };
        weft::emulator::with_checks(checks, None, || {
            let mut p = prepare_matmul(&world, name, s, dtype, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
            p.launch().unwrap_or_else(|e| panic!("{what}: {e}"));
            let (ok, err) = p.verify().unwrap();
            assert!(ok, "{what}: max error {err}");
        });
    }
}

#[test]
fn gemm_family_at_random_shapes_matches_a_naive_gemm_on_the_tensor_core_path() {
    let cases = [("gemm", 1, DType::BF16, true), ("gemm", 1, DType::F16, false), ("ag_gemm", 2, DType::BF16, true), ("gemm_rs", 2, DType::F16, true), ("gemm", 1, DType::BF16, false)];
    run_cases("sm_80", &mut Lcg(0x5eed_13), &[], &cases, false);
}

/// The `cp.async` ring at every depth (1 waits in the step; 2 to 4 keep `S - 1` steps of copies
/// in flight, each thread's chunks spread so a warp copies contiguous rows) on the mma.sync
/// and wgmma paths, at sizes divisible by 16 and ragged against the tile.
#[test]
fn ring_gemm_at_every_num_stages_matches_a_naive_gemm() {
    for (arch, seed) in [("sm_80", 0x5eed_80), ("sm_90a", 0x5eed_90)] {
        let mut r = Lcg(seed);
        for stages in 1..=4 {
            run_cases(arch, &mut r, &[("num_stages", stages)], &[("gemm", 1, DType::BF16, true)], false);
        }
    }
}

/// sm_100a stages the mma.sync operands in the swizzled layout a TMA box writes (no padding),
/// filled by TMA boxes (two tensor maps) and read by `ldmatrix` at the swizzled lane rows.
/// Both library warp tiles, `num_stages` 2 to 4, bf16 and f16, ragged against the tile, under
/// the race detector and bounds checks; the staging is checked to be the unpadded one (smaller
/// than sm_80's padded rows, which `cp.async` fills).
#[test]
fn sm100a_swizzled_ldmatrix_ring_gemm_matches_a_naive_gemm() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let mut r = Lcg(0x5eed_100);
    for (bm, bn, bk, warps) in [(64, 64, 32, 4), (128, 128, 64, 8)] {
        let tile = [("BLOCK_M", bm), ("BLOCK_N", bn), ("BLOCK_K", bk), ("num_warps", warps)];
        let smem = |arch: &str| {
            let Some(weft::Target::Cuda { sm }) = weft::Target::parse(arch) else { unreachable!() };
            let c = tile.iter().fold(shape_constexprs("gemm", MatmulShape { m: 48, n: 80, k: 96 }, 1, "bf16"), |c, &(key, v)| c.with(key, v));
            let k = weft::kernels::build("gemm", &c.with(facts, "a,b,c,m,n,k").with("num_stages", 3)).unwrap();
            let g = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap();
            assert!(g.llvm.contains("@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16"), "{arch} {tile:?}: no ldmatrix");
            assert_eq!(g.tma.len(), if arch == "sm_100a" { 2 } else { 0 }, "{arch} {tile:?}: tensor maps");
            // Static scratch is `[N x i8]`; past 48 KiB it is dynamic, sized by the launch.
            let decl = g.llvm.lines().find(|l| l.starts_with("@__weft_smem")).unwrap_or_else(|| panic!("{arch}: no scratch")).to_string();
            let fixed = decl.split('[').nth(1).and_then(|t| t.split(' ').next()).and_then(|b| b.parse::<usize>().ok()).unwrap_or_else(|| panic!("{decl}"));
            fixed.max(g.dynamic_smem)
        };
        let (s100, s80) = (smem("sm_100a"), smem("sm_80"));
        assert!(s100 < s80, "{tile:?}: {s100} vs {s80}: sm_100a's staging is not the unpadded one");
        for stages in 2..=4 {
            let extra: Vec<(&str, usize)> = tile.iter().copied().chain([("num_stages", stages)]).collect();
            run_cases("sm_100a", &mut r, &extra, &[("gemm", 1, DType::BF16, true), ("gemm", 1, DType::F16, true)], true);
        }
    }
    // The overlap kernels at their GPU defaults: no tensor map describes their loads (a
    // shard's rows), so they keep the `cp.async` ring into the same swizzled slots.
    run_cases("sm_100a", &mut r, &[], &[("ag_gemm", 2, DType::BF16, true), ("gemm_rs", 2, DType::F16, true)], true);
}

/// AMD matrix cores: gemm's 64x64 tiles take the 32x32x8 MFMA, gemm_rs's 32x32 tiles the
/// 16x16x16 one, B staged transposed in LDS with padded rows (the library's GPU BLOCK_K is 32;
/// `gpu_amd_mfma` runs the swizzled BLOCK_K 64); at the default `num_stages` the K loop prefetches the next step's tiles into registers over
/// two LDS buffers, with 1 it does not.
#[test]
fn gemm_family_at_random_shapes_matches_a_naive_gemm_on_amd_matrix_cores() {
    let cases = [("gemm", 1, DType::BF16, false), ("gemm_rs", 2, DType::F16, false), ("ag_gemm", 2, DType::F16, true), ("gemm_rs", 1, DType::BF16, true)];
    run_cases("gfx942", &mut Lcg(0x5eed_42), &[], &cases, false);
    run_cases("gfx942", &mut Lcg(0x5eed_43), &[("num_stages", 1)], &cases[..2], false);
}

/// The specialized gemm (what the div16 cases above run) really takes the new path: with
/// `num_stages` 3 (the GPU default) a ring whose step waits for all but the newest group and
/// meets the CTA at one barrier; with 1, copies waited for in the same step.
#[test]
fn specialized_gemm_copies_with_cp_async_and_reads_fragments_with_ldmatrix() {
    let facts = weft::compiler::analysis::specialize::CONSTEXPR;
    let Some(weft::Target::Cuda { sm }) = weft::Target::parse("sm_80") else { unreachable!() };
    for (stages, wait) in [(3, "wait.group(i32 1)"), (1, "wait.group(i32 0)")] {
        let c = shape_constexprs("gemm", MatmulShape { m: 48, n: 80, k: 96 }, 1, "bf16").with("BLOCK_M", 32).with("BLOCK_N", 64).with("BLOCK_K", 32).with(facts, "a,b,c,m,n,k").with("num_stages", stages);
        let k = weft::kernels::build("gemm", &c).unwrap();
        let ll = weft::compiler::lower::gpu::lower(&k, &sm.info()).unwrap().llvm;
        for needle in ["@llvm.nvvm.cp.async.cg.shared.global.16.s", wait, "@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16", "@llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16"] {
            assert!(ll.contains(needle), "num_stages={stages}: no {needle} in the specialized gemm");
        }
        assert!(!ll.contains("load i32, ptr addrspace(3)"), "fragments still read register by register");
    }
}
