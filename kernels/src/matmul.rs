//! The host side of the GEMM family (`gemm`, `ag_gemm`, `gemm_rs`): buffers, random inputs
//! per rank, launches with per-launch epochs, and checks against a naive GEMM.
//!
//! Shapes: `gemm` computes `C[m, n] = A[m, k] · B[k, n]` on every rank independently.
//! `ag_gemm` takes `m` as the gathered row count (rank `r` holds rows `segment(m, world, r)`
//! of A) and gives every rank `AllGather(A) · B_r`. `gemm_rs` takes `k` per rank and gives
//! rank `r` rows `segment(m, world, r)` of `sum_r A_r · B_r`; `gemm_ar` gives every rank all
//! of it.

use crate::ce_plan::{AgLayout, RsLayout};
use crate::host::HostVec;
use crate::reference::{matmul, segment};
use crate::registry::{find, Algo};
use crate::KernelError;
use std::time::Duration;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchReport, Launchable, RawBuf, World};

/// A GEMM problem size (see the module docs for what `m` and `k` mean per kernel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulShape {
    /// Rows of C (all ranks together for the distributed kernels).
    pub m: usize,
    /// Columns of C.
    pub n: usize,
    /// Reduction length (per rank for `gemm_rs`).
    pub k: usize,
}

/// Where each argument of a matmul kernel comes from.
#[derive(Clone, Copy, Debug)]
enum ArgSpec {
    Buf(usize),
    I64(i64),
    Epoch,
}

/// A matmul-family kernel ready to launch repeatedly on fixed buffers.
pub struct PreparedMatmul {
    world: World,
    kernel: Launchable,
    algo: Algo,
    dtype: DType,
    shape: MatmulShape,
    bufs: Vec<RawBuf>,
    args: Vec<ArgSpec>,
    grid: [u32; 3],
    epoch: i64,
    /// Per rank: A and B as written (f64 of the dtype-rounded values).
    inputs: Vec<(Vec<f64>, Vec<f64>)>,
    /// Index of the A input buffer, the B buffer and the output buffer.
    io: (usize, usize, usize),
    /// The copy-engine transfers of each launch, for the `_ce` kernels.
    ce: Option<Ce>,
    /// Times a partial sum is rounded to the dtype before the final sum (see `crate::gemm_rs`).
    partial_rounds: usize,
}

/// Which copy-engine plan a `_ce` kernel's launches run (see `crate::ce_plan`).
#[derive(Clone, Copy, Debug)]
enum Ce {
    AgPush(AgLayout),
    AgPull(AgLayout),
    Scatter(RsLayout),
}

impl Ce {
    fn plan(&self, epoch: u64) -> weft_runtime::CopyPlan {
        match self {
            Ce::AgPush(l) => crate::ce_plan::ag_push(l, epoch),
            Ce::AgPull(l) => crate::ce_plan::ag_pull(l, epoch),
            Ce::Scatter(l) => crate::ce_plan::rs_scatter(l, epoch),
        }
    }
}

/// Default constexprs of the matmul family.
pub fn matmul_constexprs(dtype: &str) -> Constexprs {
    Constexprs::new().with("T", dtype).with("BLOCK_M", 64).with("BLOCK_N", 256).with("BLOCK_K", 64).with("GROUP_M", 8).with("COMM_PROGRAMS", 1)
}

/// Rows of C one rank tiles: all `m` for `gemm`, a `world`-th of them (rounded up) for the
/// distributed kernels, which tile each rank's row segment.
pub(crate) fn rank_rows(name: &str, m: usize, world: usize) -> usize {
    if name == "gemm" { m } else { m.div_ceil(world.max(1)) }
}

/// Tile sizes fitted to a problem: `BLOCK_M` no taller than a rank's row segment (the
/// distributed kernels tile each segment from its first row, so a taller tile is padding),
/// the widest `BLOCK_N` that divides `n`, else the one that wastes the least padded work,
/// weighed by the per-flop cost of each width measured at 1024^3 (wider tiles amortise their
/// loads better), and `BLOCK_K` no deeper than `k` needs ([`fitted_block_k`]). A masked last
/// tile costs far more than its padding: `cargo bench --bench alternate` (`WEFT_ALT_MNK`, loop
/// means of 75 launches, 10 alternated rounds, load 10-13) put 256x448x128 at 64 wide
/// 1.38-1.74x faster than 256 wide (the padding rule's pick) for ag_gemm and gemm_rs on 1x2,
/// 1x4, 2x2 and 1x8, and 256x1408x128 at 128 wide 1.26x faster.
pub fn shape_constexprs(name: &str, shape: MatmulShape, world: usize, dtype: &str) -> Constexprs {
    let rows = rank_rows(name, shape.m, world);
    let bm = [64usize, 32, 16].into_iter().find(|&b| b <= rows).unwrap_or(16);
    let cost = |bn: usize| shape.n.div_ceil(bn) * bn * if bn == 256 { 100 } else if bn == 128 { 110 } else { 125 };
    let least_padded = [256usize, 128, 64].into_iter().min_by_key(|&b| cost(b)).unwrap_or(256);
    if name == "gemm_ar" {
        return gemm_ar_tiles(shape, dtype).with("BLOCK_M", bm).with("BLOCK_N", least_padded.min(128).min(shape.n.next_power_of_two().max(16)));
    }
    let bn = [256usize, 128, 64].into_iter().find(|&b| shape.n % b == 0).unwrap_or(least_padded);
    matmul_constexprs(dtype).with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", fitted_block_k(shape.k))
}

/// The GEMM family's `BLOCK_K`: the K step that pads a rank's `k` least (64, 32 or 16, the
/// deeper on a tie), a 16-deep step's padded element weighed 1.1x ([`k_step_cost`]). A padded
/// row is zeros that the CPU's microkernel multiplies all the same, and a partly masked step
/// costs more than its share (gemm_ar 1x8, k / rank 100: fused CPU ms per launch 4.1 / 4.8 at
/// 64 deep, 3.7 / 3.8 at 32, 3.1 at 16). `cargo bench --bench mpi` gemm_rs 1x4 bf16, CPU ms
/// per launch (all processes, 4 alternated runs, load 3.9-6.2), fused / baseline medians:
/// 1024x256x32 6.2 / 6.8 at 64 deep, 3.4 / 4.0 at 32; 512x512x16 6.4 / 6.9 at 64, 2.5 / 3.0
/// at 16. One rule for every kernel, so a fused kernel and its baseline's GEMM step alike.
pub(crate) fn fitted_block_k(k: usize) -> usize {
    [64usize, 32, 16].into_iter().min_by_key(|&b| k_step_cost(k, b)).unwrap_or(64)
}

/// `gemm_ar`'s `BLOCK_K` is [`fitted_block_k`]'s. Its `BLOCK_N` is the GEMM's least-padded width,
/// at most 128 and no wider than `n` needs (`shape_constexprs`): 128-wide tiles at n = 160 pad every row to 256 columns, 1.6x
/// the products, where 64-wide ones pad to 192. `bench/fused.rs`'s shapes on `local` with one
/// worker (CPU ms per launch, two runs each, load 9-14), 128 / 64 wide: 1x4 k/rank 64 1.23,
/// 1.05 / 0.79, 0.80; k/rank 200 2.63, 3.35 / 2.51, 2.70; 1x8 k/rank 32 1.50, 1.64 / 1.32,
/// 1.12; k/rank 100 4.00, 4.40 / 3.33, 3.26 (before the CPU's partly masked 16-bit stores went
/// in 8-lane chunks, 128 wide had led on `mpi`).
fn gemm_ar_tiles(shape: MatmulShape, dtype: &str) -> Constexprs {
    matmul_constexprs(dtype).with("BLOCK_K", fitted_block_k(shape.k))
}

/// The cost of `k` in `bk`-deep steps: padded elements, x 1.1 at 16 deep. `bench/fused.rs`,
/// `local`, bf16, 11 rounds, fused ms with `BLOCK_K` 16 against the old rule's (load 7.9-8.5):
/// 1x8 k / rank 100 (112 against 128 padded) 2.49, 2.54, 2.52 against 3.26, 3.24 (and 7.94
/// in a stalled run); k / rank 200 (208 against 224) 2.16, 2.08 against 2.05, 2.02; 400 (400
/// against 416) 1.65, 1.63 against 1.62, 1.59. The masked last step costs more than its
/// padding, so the shallow step wins only where it saves the most.
pub(crate) fn k_step_cost(k: usize, bk: usize) -> usize {
    k.div_ceil(bk) * bk * if bk == 16 { 110 } else { 100 }
}

/// Compute programs per rank: on a CPU enough to keep every core busy across the ranks; on a
/// GPU one CTA per SM besides the `comm` communication CTAs, so that the cooperative launch of
/// all of them fits (each kernel asks for one resident CTA per SM).
fn compute_programs(world: &World, comm: usize) -> usize {
    if let Some(sms) = world.gpu_sms() {
        return sms.saturating_sub(comm).max(1);
    }
    let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
    cores.div_ceil(world.n_ranks()).max(1)
}

/// Caps the tile constexprs in `c` at the GPU defaults for `arch` (the CPU's 64x256 f32
/// accumulator does not fit a CTA's shared memory on its way out of the mma layout). Tiles
/// chosen for a GPU, which `num_warps` marks (the tuner's GPU configs, `-D num_warps=...`; CPU
/// constexprs never name it), are kept as given: the compiler rejects one that does not fit.
/// `rows` is what one rank tiles (all of `m` for `gemm`).
pub(crate) fn gpu_tiles(c: &mut Constexprs, name: &str, dtype: DType, arch: &str, rows: usize) -> Result<(), KernelError> {
    let target = weft_compiler::pipeline::Target::parse(arch)
        .ok_or_else(|| KernelError::Unsupported { kernel: name.into(), what: format!("GPU architecture `{arch}`") })?;
    let g = crate::registry::target_constexprs(name, dtype.name(), target)?;
    if c.get("num_warps").is_some() {
        if c.get("num_stages").is_none()
            && let Some(s) = g.get("num_stages")
        {
            c.set("num_stages", s);
        }
        return Ok(());
    }
    // Hopper's warpgroup MMA and TMA staging pay off from 128-row tiles: a 16-bit `gemm` whose
    // rows fill one takes 128 x BLOCK_N (the shape-fitted width) x 32 over 8 warps and 4
    // stages (H200, bf16, 2048-4096 x 1024: 2.2-2.8x the 64x64x32 tiles; 164 registers).
    let sm90 = target == weft_compiler::pipeline::Target::Cuda { sm: weft_compiler::pipeline::Sm::Sm90a };
    if name == "gemm" && sm90 && dtype.size_bytes() == 2 && rows >= 128 {
        let bn = c.get("BLOCK_N").and_then(|v| v.parse::<usize>().ok()).unwrap_or(256).min(256);
        for (k, v) in [("BLOCK_M", 128), ("BLOCK_N", bn), ("BLOCK_K", 32), ("num_warps", 8), ("num_stages", 4)] {
            c.set(k, &v.to_string());
        }
        return Ok(());
    }
    for key in ["BLOCK_M", "BLOCK_N", "BLOCK_K"] {
        let (cur, cap) = (c.get(key).and_then(|v| v.parse::<usize>().ok()), g.get(key).and_then(|v| v.parse::<usize>().ok()));
        if let (Some(cur), Some(cap)) = (cur, cap) {
            c.set(key, &cur.min(cap).to_string());
        }
    }
    if let Some(w) = g.get("num_warps") {
        c.set("num_warps", w);
    }
    match g.get("num_stages") {
        Some(s) if c.get("num_stages").is_none() => c.set("num_stages", s),
        _ => {}
    }
    Ok(())
}

/// `ag_gemm` reads node peers' shards in place on CPUs (`PULL=1` unless given): a CPU launch
/// reaches a peer only once the peer has issued it, so its shard is written; a GPU kernel has
/// no such order, and `PULL=1` there is an error.
pub(crate) fn pull_on_cpu(c: &mut Constexprs, gpu: bool) -> Result<(), KernelError> {
    match c.get("PULL") {
        None if !gpu => c.set("PULL", "1"),
        Some(v) if gpu && v.trim() == "1" => {
            return Err(KernelError::Unsupported { kernel: "ag_gemm".into(), what: "PULL=1 on a GPU (a peer's shard may not be written when the kernel starts; GPUs push)".into() })
        }
        _ => {}
    }
    Ok(())
}

/// How many times the GEMM-RS family rounds a partial sum to `dtype` on its way to the final
/// sum: each rank's partial tile, and on several nodes each node's partial (`gemm_ar`'s two-shot
/// only; its other methods keep f32 partials).
fn partial_rounds(algo: Algo, c: &Constexprs, dtype: DType, nodes: usize) -> usize {
    let rs = matches!(algo, Algo::GemmRs | Algo::GemmRsCe | Algo::GemmRsPs) || (algo == Algo::GemmAr && c.get("METHOD") == Some("2"));
    if !rs || dtype == DType::F32 {
        0
    } else {
        1 + usize::from(nodes > 1)
    }
}

/// Allocates, compiles and seeds `name` (`gemm`, `ag_gemm` or `gemm_rs`) on `world`.
pub fn prepare_matmul(world: &World, name: &str, shape: MatmulShape, dtype: DType, c: &Constexprs) -> Result<PreparedMatmul, KernelError> {
    let def = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if !def.info.collective.is_matmul() {
        return Err(unsupported("matrix shapes (it is a collective: give --elems)".into()));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16 or bf16)")));
    }
    let w = world.n_ranks();
    let MatmulShape { m, n, k } = shape;
    if m == 0 || n == 0 || k == 0 {
        return Err(unsupported(format!("an empty problem m={m} n={n} k={k}")));
    }
    if matches!(def.algo, Algo::AgGemm | Algo::AgGemmCe) && m < w {
        return Err(unsupported(format!("m={m} rows over {w} ranks (every rank needs a row)")));
    }
    let mut c = c.clone();
    c.set("T", dtype.name());
    if let Some(arch) = world.gpu_arch() {
        gpu_tiles(&mut c, name, dtype, arch, rank_rows(name, m, w))?;
    }
    if def.algo == Algo::AgGemm {
        pull_on_cpu(&mut c, world.gpu_arch().is_some())?;
    }
    if def.algo == Algo::GemmAr {
        crate::gemm_ar::choose_method(&mut c, world, m.saturating_mul(n).saturating_mul(dtype.size_bytes()), name)?;
    }
    let built = (def.build)(&c)?;
    let kernel = match def.algo {
        Algo::Gemm => crate::gpu::launchable_for(world, &built)?,
        _ => crate::gpu::launchable_for_resident(world, &built)?,
    };
    let get = |key: &str| c.get(key).and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
    let (bm, bn, comm) = (get("BLOCK_M"), get("BLOCK_N"), get("COMM_PROGRAMS"));
    let es = dtype.size_bytes();
    let local = world.topology().local_size;
    let nodes = world.topology().nodes;
    let seg_max = m.div_ceil(w);
    let too_large = || KernelError::TooLarge { kernel: name.into(), elems: m.saturating_mul(n) };
    let prod = |f: &[usize]| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(too_large);
    use ArgSpec::*;
    let dims = [I64(m as i64), I64(n as i64), I64(k as i64)];
    let (sizes, args, io, extra) = match def.algo {
        Algo::Gemm => (vec![prod(&[m, k, es])?, prod(&[k, n, es])?, prod(&[m, n, es])?], vec![Buf(0), Buf(1), Buf(2)], (0, 1, 2), 0),
        Algo::AgGemm | Algo::AgGemmCe => {
            // The copy-engine gather's pull mode adds one ready signal per rank; it needs no
            // communication programs.
            let (ready, extra) = if def.algo == Algo::AgGemmCe { (1, 0) } else { (0, comm) };
            let tiles = seg_max.div_ceil(bm);
            let sizes = vec![prod(&[seg_max, k, es])?, prod(&[m, k, es])?, prod(&[k, n, es])?, prod(&[m, n, es])?, prod(&[w, tiles + ready, 8])?];
            (sizes, vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4)], (0, 2, 3), extra)
        }
        Algo::GemmRsPs => {
            if nodes > 1 {
                return Err(unsupported(format!("{nodes} nodes (its remote stores reach one node's ranks; gemm_rs crosses nodes)")));
            }
            let tiles = seg_max.div_ceil(bm) * n.div_ceil(bn);
            let sizes = vec![prod(&[m, k, es])?, prod(&[k, n, es])?, prod(&[seg_max, n, es])?, prod(&[w, tiles, bm, bn, es])?];
            (sizes, (0..4).map(Buf).collect(), (0, 1, 2), 0)
        }
        Algo::GemmAr => {
            let sizes = crate::gemm_ar::buffer_sizes(&c, MatmulShape { m, n, k }, es, (nodes, local)).ok_or_else(too_large)?;
            (sizes, (0..9).map(Buf).collect(), (0, 1, 2), comm)
        }
        _ => {
            let tiles = seg_max.div_ceil(bm) * n.div_ceil(bn);
            // Partial tiles are in the element type (see `crate::gemm_rs`).
            let t = prod(&[tiles, bm, bn, es])?;
            let sizes = vec![
                prod(&[m, k, es])?,
                prod(&[k, n, es])?,
                prod(&[seg_max, n, es])?,
                prod(&[w, t])?,
                prod(&[local, nodes, t])?,
                prod(&[nodes, t])?,
                prod(&[nodes, t])?,
                // gemm_rs_ce's staging slots' ready signals follow the others.
                prod(&[(local + 1) * nodes + if def.algo == Algo::GemmRsCe { local * nodes } else { 0 }, tiles, 8])?,
            ];
            (sizes, (0..8).map(Buf).collect(), (0, 1, 2), comm)
        }
    };
    let mut args = args;
    args.extend(dims);
    if !matches!(def.algo, Algo::Gemm | Algo::GemmRsPs) {
        args.extend([I64(local as i64), Epoch]);
    }
    let bufs = crate::run::alloc_all(world, &sizes)?;
    let grid = [(compute_programs(world, extra) + extra) as u32, 1, 1];
    let ce = match def.algo {
        Algo::AgGemmCe => {
            let l = AgLayout { shard: bufs[0], full: bufs[1], sig: bufs[4], m, row_bytes: k * es, bm, tiles: seg_max.div_ceil(bm), world: w, local };
            Some(if crate::ag_gemm::ce_pull(&c)? { Ce::AgPull(l) } else { Ce::AgPush(l) })
        }
        Algo::GemmRsCe => {
            let max_tiles = seg_max.div_ceil(bm) * n.div_ceil(bn);
            Some(Ce::Scatter(RsLayout { stage: bufs[3], part: bufs[4], sig: bufs[7], m, n, bm, bn, es, max_tiles, world: w, local }))
        }
        _ => None,
    };
    let partial_rounds = partial_rounds(def.algo, &c, dtype, nodes);
    let mut p = PreparedMatmul { world: world.clone(), kernel, algo: def.algo, dtype, shape, bufs, args, grid, epoch: 0, inputs: vec![], io, ce, partial_rounds };
    p.seed(0x5eed)?;
    Ok(p)
}

impl PreparedMatmul {
    /// Rows of A this rank holds.
    fn a_rows(&self, rank: usize) -> usize {
        match self.algo {
            Algo::AgGemm | Algo::AgGemmCe => segment(self.shape.m, self.world.n_ranks(), rank).len(),
            _ => self.shape.m,
        }
    }

    /// Writes fresh random A and B (seeded) on every rank this process holds; every rank's
    /// inputs are known to all, for the reference.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        self.inputs.clear();
        let MatmulShape { n, k, .. } = self.shape;
        for r in 0..self.world.n_ranks() {
            let random = |len: usize, salt: u64| {
                HostVec::random(self.dtype, len, seed ^ salt.wrapping_mul(0x9e37_79b9) ^ (r as u64) << 32)
                    .map_err(|d| KernelError::Unsupported { kernel: self.kernel.name.clone(), what: format!("dtype {d}") })
            };
            let a = random(self.a_rows(r) * k, 1)?;
            let b = random(k * n, 2)?;
            if self.world.host_ranks().contains(&r) {
                a.write(&self.world, self.bufs[self.io.0], r, 0, self.dtype)?;
                b.write(&self.world, self.bufs[self.io.1], r, 0, self.dtype)?;
            }
            self.inputs.push((a.to_f64(), b.to_f64()));
        }
        Ok(())
    }

    /// Launches once; returns the runtime's report.
    pub fn launch(&mut self) -> Result<LaunchReport, KernelError> {
        self.epoch += 1;
        let args: Vec<Arg> = self
            .args
            .iter()
            .map(|a| match *a {
                ArgSpec::Buf(i) => Arg::Buf(self.bufs[i]),
                ArgSpec::I64(x) => Arg::I64(x),
                ArgSpec::Epoch => Arg::I64(self.epoch),
            })
            .collect();
        match &self.ce {
            Some(ce) => Ok(self.world.launch_with_copies(&self.kernel, self.grid, &args, &ce.plan(self.epoch as u64))?),
            None => {
                let m = self.shape.m;
                let self_closing = self.algo == Algo::GemmRs && crate::gemm_rs::closes_itself(m, self.shape.n, self.world.n_ranks());
                let opts = weft_runtime::LaunchOptions { self_closing, ..Default::default() };
                Ok(self.world.launch_with(&self.kernel, self.grid, &args, &opts)?)
            }
        }
    }

    /// The expected output of every rank and the per-element bound on accumulated error.
    fn expected(&self) -> Vec<(Vec<f64>, Vec<f64>)> {
        let MatmulShape { m, n, k } = self.shape;
        let w = self.world.n_ranks();
        match self.algo {
            Algo::Gemm => self.inputs.iter().map(|(a, b)| matmul(a, b, m, n, k)).collect(),
            Algo::AgGemm | Algo::AgGemmCe => {
                let full: Vec<f64> = self.inputs.iter().flat_map(|(a, _)| a.iter().copied()).collect();
                self.inputs.iter().map(|(_, b)| matmul(&full, b, m, n, k)).collect()
            }
            _ => {
                let parts: Vec<(Vec<f64>, Vec<f64>)> = self.inputs.iter().map(|(a, b)| matmul(a, b, m, n, k)).collect();
                (0..w)
                    .map(|r| {
                        // GEMM-AllReduce: every rank holds all rows of the sum.
                        let rows = if self.algo == Algo::GemmAr { 0..m } else { segment(m, w, r) };
                        let span = rows.start * n..rows.end * n;
                        let sum = |f: fn(&(Vec<f64>, Vec<f64>)) -> &Vec<f64>| -> Vec<f64> {
                            span.clone().map(|i| parts.iter().map(|p| f(p)[i]).sum()).collect()
                        };
                        (sum(|p| &p.0), sum(|p| &p.1))
                    })
                    .collect()
            }
        }
    }

    /// Checks the C of every rank this process holds against the naive GEMM of the current
    /// inputs: within one rounding to the dtype, one more of the absolute sum per rounding of
    /// a partial sum (a partial may be far larger than the total), plus f32 accumulation
    /// error over the whole reduction.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let eps_out = crate::host::rounding(self.dtype);
        let k_total = self.shape.k * if matches!(self.algo, Algo::GemmRs | Algo::GemmRsCe | Algo::GemmRsPs | Algo::GemmAr) { self.world.n_ranks() } else { 1 };
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, (want, abs)) in self.expected().iter().enumerate().filter(|(r, _)| self.world.host_ranks().contains(r)) {
            let got = HostVec::read(&self.world, self.bufs[self.io.2], r, 0, want.len(), self.dtype)?.to_f64();
            for ((g, w), s) in got.iter().zip(want).zip(abs) {
                let err = (g - w).abs();
                let tol = eps_out * (w.abs() + self.partial_rounds as f64 * s) + (k_total as f64 + 2.0) * f32::EPSILON as f64 * s + 1e-7;
                max_err = max_err.max(err);
                ok &= err <= tol;
            }
        }
        Ok((ok, max_err))
    }

    /// Floating-point operations of one launch, all ranks together.
    pub fn flops(&self) -> f64 {
        let MatmulShape { m, n, k } = self.shape;
        let w = self.world.n_ranks() as f64;
        2.0 * m as f64 * n as f64 * k as f64 * w
    }

    /// The problem shape.
    pub fn shape(&self) -> MatmulShape {
        self.shape
    }
}

impl Drop for PreparedMatmul {
    fn drop(&mut self) {
        for b in self.bufs.drain(..) {
            self.world.free_raw(b);
        }
    }
}

/// Times `iters` launches after `warmup` ones; returns the launch times.
pub fn time_launches(mut launch: impl FnMut() -> Result<Duration, KernelError>, warmup: usize, iters: usize) -> Result<Vec<Duration>, KernelError> {
    for _ in 0..warmup {
        launch()?;
    }
    (0..iters).map(|_| launch()).collect()
}
