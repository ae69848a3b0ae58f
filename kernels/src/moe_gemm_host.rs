//! The host side of the expert GEMMs (`moe_gemm`; `ag_moe` and its baseline `ag_moe_v`;
//! `moe_rs` and `moe_rs_v`): the row layout a routing gives (as a dispatch leaves it), buffers,
//! launches, and checks against f64 plain math.
//!
//! A rank's rows are (token, choice) pairs of its experts. `moe_gemm` runs on each rank alone
//! over all `experts` experts and the rank's own tokens. `ag_moe` and `moe_rs` split the experts
//! evenly over the ranks (`epr` each); rank `r`'s block `le * world + s` holds the choices of
//! rank `s`'s tokens for expert `r * epr + le`, in token order.

use crate::host::HostVec;
use crate::moe_align_host::{align_constexprs, prepare_align, AlignSpec, PreparedAlign};
use crate::moe_host::{check_routing, launch_in_order, MoeShape, Routing, RoutingKind};
use crate::reference::Choice;
use crate::registry::{find, Algo};
use crate::KernelError;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchReport, Launchable, RawBuf, World};

/// An expert-GEMM problem: `tokens` per rank of width `k`, each picking `topk` of `experts`
/// experts, each expert a `[k, n]` weight matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoeGemmShape {
    /// Tokens on every rank.
    pub tokens: usize,
    /// Elements per token (the GEMM's reduction).
    pub k: usize,
    /// Output columns per row.
    pub n: usize,
    /// Experts each token picks (distinct).
    pub topk: usize,
    /// Experts, all ranks together.
    pub experts: usize,
}

impl MoeGemmShape {
    fn moe(self) -> MoeShape {
        MoeShape { tokens: self.tokens, hidden: self.k, topk: self.topk, experts: self.experts }
    }
}

/// GEMM tiles of kernel `name` fitted to `shape`: `BLOCK_M` no taller than an expert's average
/// rows (a block is tiled from its first row, so a taller tile is padding; every kernel tiles
/// an expert's rows from all ranks as one block), `BLOCK_N` up to 128. `moe_rs` had 256 while
/// its sum was 256 wide; since that sum goes 64 columns at a time, 128 (the down projection's
/// n = 224 as 128 + 96 instead of one tile masked to 224 of 256) took it from 1.00-1.01x to
/// 1.12-1.16x of `moe_rs_v`'s CPU per launch on `mpi` at 1x4, 1.04-1.10x to 1.11-1.14x at 1x8
/// (3 alternated pairs, load 0-1.3).
pub fn moe_gemm_constexprs(name: &str, shape: MoeGemmShape, world: usize, dtype: &str) -> Constexprs {
    let sources = if name == "moe_gemm" { 1 } else { world.max(1) };
    let rows = (shape.tokens * shape.topk * sources).div_ceil(shape.experts.max(1));
    let bm = [64usize, 32, 16].into_iter().find(|&b| b <= rows).unwrap_or(16);
    let bn = shape.n.next_power_of_two().clamp(16, 128);
    // COMM_PROGRAMS is left to `prepare_moe_gemm`, which knows the target.
    crate::matmul::matmul_constexprs(dtype).without("COMM_PROGRAMS").with("BLOCK_M", bm).with("BLOCK_N", bn).with("BLOCK_K", 32)
}

/// `COMM_PROGRAMS` where the constexprs leave it out: 1, except `moe_rs` on a GPU, whose
/// reduction walks token by token, a chain of dependent loads per choice. On one CTA it took
/// 11.0 ms on an H200 at 1 PE (128 tokens, top-8, n 1024); spread over every GEMM program
/// once they are done (0), 0.21 ms.
pub(crate) fn default_comm_programs(algo: Algo, gpu: bool) -> usize {
    if gpu && algo == Algo::MoeRs { 0 } else { 1 }
}

/// `ag_moe` gathers by pulling on CPUs (`PULL=1` unless given; see `moe_gemm::pull_shards`):
/// a CPU launch reaches a peer only once the peer's host has issued it, so the peer's tokens
/// are written; a GPU kernel starts with no such order, so GPUs push and `PULL=1` there is an
/// error.
/// Returns whether it pulls.
pub(crate) fn pull_on_cpus(c: &mut Constexprs, gpu: bool) -> Result<bool, KernelError> {
    let pull = if c.get("PULL").is_some() { Some(c.flag("PULL")?) } else { None };
    if gpu && pull == Some(true) {
        return Err(KernelError::Unsupported { kernel: "ag_moe".into(), what: "PULL=1 on a GPU (a peer's tokens may not be written when its kernel starts; GPUs push)".into() });
    }
    if pull.is_none() && !gpu {
        c.set("PULL", 1);
    }
    Ok(pull.unwrap_or(!gpu))
}

/// `ag_moe`'s `near`, the group of ranks its shard goes to first: where each process holds its
/// own rank (`mpi`), the node's ranks (reached by load/store; other nodes' puts block until
/// flushed); where one process holds every rank (`local`, nothing blocks), the whole world.
fn near_group(world: &World) -> usize {
    let w = world.n_ranks();
    if world.host_ranks().len() == w { w } else { world.topology().local_size.clamp(1, w) }
}

/// One expert-GEMM kernel (with its baseline's second step) ready to launch repeatedly.
pub struct PreparedMoeGemm {
    world: World,
    name: String,
    algo: Algo,
    kernels: Vec<Launchable>,
    dtype: DType,
    shape: MoeGemmShape,
    bufs: Vec<RawBuf>,
    grids: [[u32; 3]; 2],
    epoch: i64,
    routing: Routing,
    /// Per rank: inputs (tokens, or block-laid rows for `moe_rs`) and weights, as written.
    data: Vec<(Vec<f64>, Vec<f64>)>,
    /// The `moe_align` launches that write the row layout on the device; none: the host writes it.
    align: Vec<PreparedAlign>,
    /// `ag_moe`'s `near` ([`near_group`]; tests set others).
    pub(crate) near: usize,
}

/// Buffer indices: `(inputs, weights, output)` of every kernel, then each family's own.
const X: usize = 0;
const W: usize = 1;
const C: usize = 2;
const GIDX: usize = 3;
const OFF: usize = 4;
const OFF_E: usize = 5;
const SIG: usize = 6;
/// `ag_moe`: the gathered tokens. `moe_rs`: idx, pos, weights, staging, arrivals, rows, scratch.
const X_FULL: usize = 7;
const IDX: usize = 7;
const POS: usize = 8;
const WT: usize = 9;
const STAGE: usize = 10;
const RECV: usize = 11;
const Y: usize = 12;
const SCRATCH: usize = 13;
/// `moe_rs_v`: each pull program's block starts, fetched from every expert's rank.
const STARTS: usize = 14;

/// The `moe_align` launches that lay out `algo`'s rows: a rank's own tokens over every expert
/// (`moe_gemm`), the gathered tokens over the rank's experts (the rest), and for `moe_rs` and
/// `moe_rs_v` also each choice's row within its block.
fn device_layout(world: &World, algo: Algo, shape: MoeGemmShape) -> Result<Vec<PreparedAlign>, KernelError> {
    let MoeGemmShape { tokens, topk, experts, .. } = shape;
    let c = align_constexprs(topk);
    let gathered = AlignSpec::gathered(world.n_ranks(), tokens, topk, experts);
    let specs = match algo {
        Algo::MoeGemm => vec![AlignSpec::own(tokens, topk, experts, false)],
        Algo::MoeRs | Algo::MoeRsV => vec![gathered, AlignSpec::own(tokens, topk, experts, true)],
        _ => vec![gathered],
    };
    specs.into_iter().map(|s| prepare_align(world, s, &c)).collect()
}

/// Allocates, compiles and seeds expert-GEMM kernel `name` on `world` (uniform routing).
pub fn prepare_moe_gemm(world: &World, name: &str, shape: MoeGemmShape, dtype: DType, c: &Constexprs) -> Result<PreparedMoeGemm, KernelError> {
    let def = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if !def.info.collective.is_grouped() {
        return Err(unsupported("an expert-GEMM shape (tokens, k, n, topk, experts)".into()));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16 or bf16)")));
    }
    let w = world.n_ranks();
    let MoeGemmShape { tokens, k, n, topk, experts } = shape;
    if tokens == 0 || k == 0 || n == 0 || topk == 0 {
        return Err(unsupported(format!("an empty problem {shape:?}")));
    }
    if experts % w != 0 || topk > experts {
        return Err(unsupported(format!("{experts} experts with top-{topk} on {w} ranks (experts must split evenly over the ranks and number at least topk)")));
    }
    let mut c = c.clone();
    c.set("T", dtype.name());
    let pulls = def.algo == Algo::AgMoe && pull_on_cpus(&mut c, world.gpu_arch().is_some())?;
    if c.get("COMM_PROGRAMS").is_none() {
        // A pulling `ag_moe`'s GEMM programs get the shards they read themselves.
        c.set("COMM_PROGRAMS", if pulls { 0 } else { default_comm_programs(def.algo, world.gpu_sms().is_some()) });
    }
    let cfg = |key: &str| c.get(key).and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
    let (bm, bn, comm) = (cfg("BLOCK_M"), cfg("BLOCK_N"), cfg("COMM_PROGRAMS"));
    let kernels = crate::gpu::launchables(world, name, &c)?;
    let too_large = || KernelError::TooLarge { kernel: name.into(), elems: tokens.saturating_mul(k).saturating_mul(n) };
    let mul = |f: &[usize]| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(too_large);
    let es = dtype.size_bytes();
    let epr = experts / w;
    let (groups, rows) = if def.algo == Algo::MoeGemm { (experts, tokens * topk) } else { (epr, mul(&[epr, w, tokens])?) };
    let tokens_in = if def.algo == Algo::MoeGemm { tokens } else if matches!(def.algo, Algo::MoeRs | Algo::MoeRsV) { rows } else { tokens };
    let mut sizes = vec![mul(&[tokens_in, k, es])?, mul(&[groups, k, n, es])?, mul(&[rows.max(tokens), n, es])?, mul(&[rows, 4])?, mul(&[epr * w + groups + 1, 4])?, mul(&[groups + 1, 4])?];
    let tiles = mul(&[w, epr, tokens.div_ceil(bm), n.div_ceil(bn)])?;
    // `ag_moe`'s signal per source; `moe_rs`'s count is the first.
    sizes.push(mul(&[w, 8])?);
    if matches!(def.algo, Algo::AgMoe | Algo::AgMoeV) {
        sizes.push(mul(&[w, tokens, k, es])?);
    }
    if matches!(def.algo, Algo::MoeRs | Algo::MoeRsV) {
        let choices = mul(&[tokens, topk, 4])?;
        sizes.extend([choices, choices, choices, mul(&[tiles, bm, bn, es])?, mul(&[tiles, bm, bn, es])?, mul(&[rows, n, es])?, mul(&[tokens, topk, n, es])?]);
    }
    let programs = match world.gpu_sms() {
        Some(sms) => sms.saturating_sub(comm).max(1),
        None => std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1).div_ceil(w).max(1),
    };
    if def.algo == Algo::MoeRsV {
        sizes.push(mul(&[programs, experts, 4])?);
    }
    let bufs = crate::run::alloc_all(world, &sizes)?;
    let fused = if matches!(def.algo, Algo::AgMoe | Algo::MoeRs) { programs + comm } else { programs };
    let grids = [[fused as u32, 1, 1], [programs as u32, 1, 1]];
    let routing = Routing { idx: vec![], weights: vec![] };
    let align = device_layout(world, def.algo, shape)?;
    let mut p = PreparedMoeGemm { world: world.clone(), name: name.into(), algo: def.algo, kernels, dtype, shape, bufs, grids, epoch: 0, routing, data: vec![], align, near: near_group(world) };
    p.seed(0x5eed, RoutingKind::Uniform)?;
    Ok(p)
}

impl PreparedMoeGemm {
    /// Random routing of `kind` and random data (seeded, the same in every process).
    pub fn seed(&mut self, seed: u64, kind: RoutingKind) -> Result<(), KernelError> {
        self.set_routing(Routing::random(self.world.n_ranks(), self.shape.moe(), kind, seed), seed)
    }

    /// Uses `routing` (checked as the dispatch's) and random data seeded by `seed`; writes every
    /// buffer the kernels read on the ranks this process holds.
    pub fn set_routing(&mut self, routing: Routing, seed: u64) -> Result<(), KernelError> {
        let w = self.world.n_ranks();
        check_routing(&routing, self.shape.moe(), w).map_err(|what| KernelError::Unsupported { kernel: self.name.clone(), what })?;
        let MoeGemmShape { tokens, k, n, experts, .. } = self.shape;
        let rs = matches!(self.algo, Algo::MoeRs | Algo::MoeRsV);
        let groups = if self.algo == Algo::MoeGemm { experts } else { experts / w };
        let layouts: Vec<_> = (0..w).map(|r| self.layout(&routing, r)).collect();
        let random = |n: usize, salt: u64| HostVec::random(self.dtype, n, seed ^ salt.wrapping_mul(0x9e37_79b9)).map_err(|d| KernelError::Unsupported { kernel: self.name.clone(), what: format!("dtype {d}") });
        let mut data = vec![];
        for (r, (off, rows)) in layouts.iter().enumerate() {
            let x = random(if rs { rows.len().max(1) * k } else { tokens * k }, 2 * r as u64 + 1)?;
            let wts = random(groups * k * n, 2 * r as u64 + 2)?;
            if self.world.host_ranks().contains(&r) {
                let ints = |v: Vec<i32>, buf: usize| HostVec::I32(v).write(&self.world, self.bufs[buf], r, 0, DType::I32);
                x.write(&self.world, self.bufs[X], r, 0, self.dtype)?;
                wts.write(&self.world, self.bufs[W], r, 0, self.dtype)?;
                let gidx = rows.iter().enumerate().map(|(i, &(s, t, _))| match self.algo {
                    Algo::MoeGemm => t,
                    Algo::AgMoe | Algo::AgMoeV => s * tokens + t,
                    _ => i,
                });
                // On the device, `moe_align` writes all but the identity row map of `moe_rs`
                // and `moe_rs_v`.
                let host = self.align.is_empty();
                if host || rs {
                    ints(gidx.map(|i| i as i32).collect(), GIDX)?;
                }
                if host {
                    ints(off.clone(), OFF)?;
                    let per_expert = if self.algo == Algo::MoeGemm { 1 } else { w };
                    ints((0..=groups).map(|e| off[e * per_expert]).collect(), OFF_E)?;
                }
                if rs {
                    ints(routing.idx[r].clone(), IDX)?;
                    if host {
                        ints(self.positions(&routing, &layouts, r), POS)?;
                    }
                    HostVec::F32(routing.weights[r].clone()).write(&self.world, self.bufs[WT], r, 0, DType::F32)?;
                }
            }
            data.push((x.to_f64(), wts.to_f64()));
        }
        self.layout_on_device(&routing)?;
        self.data = data;
        self.routing = routing;
        Ok(())
    }

    /// Whether the host computes the row layout (else `moe_align` on the device, the
    /// default); takes effect at the next [`seed`](Self::seed) or `set_routing`.
    pub fn set_host_layout(&mut self, host: bool) -> Result<(), KernelError> {
        self.align = if host { vec![] } else { device_layout(&self.world, self.algo, self.shape)? };
        Ok(())
    }

    /// Rank `r`'s layout buffers as the kernels read them: `off`, `off_e`, `gidx` (its rows)
    /// and, for `moe_rs` and `moe_rs_v`, `pos` (tests compare the host's and the device's).
    #[cfg(test)]
    pub(crate) fn layout_buffers(&self, r: usize) -> Result<Vec<Vec<f64>>, KernelError> {
        let MoeGemmShape { tokens, topk, experts, .. } = self.shape;
        let (off, rows) = self.layout(&self.routing, r);
        let groups = if self.algo == Algo::MoeGemm { experts } else { experts / self.world.n_ranks() };
        let read = |buf: usize, n: usize| HostVec::read(&self.world, self.bufs[buf], r, 0, n, DType::I32).map(|v| v.to_f64());
        let mut v = vec![read(OFF, off.len())?, read(OFF_E, groups + 1)?, read(GIDX, rows.len())?];
        if matches!(self.algo, Algo::MoeRs | Algo::MoeRsV) {
            v.push(read(POS, tokens * topk)?);
        }
        Ok(v)
    }

    /// Runs the `moe_align` launches (if any) on `routing`, into the layout buffers.
    fn layout_on_device(&self, routing: &Routing) -> Result<(), KernelError> {
        let out = |i: usize| Some(self.bufs[i]);
        for a in &self.align {
            let s = a.spec();
            a.write_routing(&routing.idx)?;
            let outs = match self.algo {
                _ if s.rel => [None, None, None, out(POS)],
                Algo::MoeRs | Algo::MoeRsV => [out(OFF), out(OFF_E), None, None],
                _ => [out(OFF), out(OFF_E), out(GIDX), None],
            };
            a.launch_into(outs)?;
        }
        Ok(())
    }

    /// Rank `r`'s block offsets and rows `(source rank, token, choice)` in layout order.
    fn layout(&self, routing: &Routing, r: usize) -> (Vec<i32>, Vec<Choice>) {
        let MoeGemmShape { topk, experts, .. } = self.shape;
        let w = self.world.n_ranks();
        // (expert, source) of each block, in layout order.
        let blocks: Vec<(usize, usize)> = if self.algo == Algo::MoeGemm {
            (0..experts).map(|e| (e, r)).collect()
        } else {
            let epr = experts / w;
            (0..epr).flat_map(|le| (0..w).map(move |s| (r * epr + le, s))).collect()
        };
        let (mut off, mut rows) = (vec![0], vec![]);
        for (e, s) in blocks {
            for (i, &x) in routing.idx[s].iter().enumerate() {
                if x as usize == e {
                    rows.push((s, i / topk, i % topk));
                }
            }
            off.push(rows.len() as i32);
        }
        (off, rows)
    }

    /// `moe_rs` and `moe_rs_v`: for each of rank `d`'s choices, its row's index within its
    /// block on its expert's rank.
    fn positions(&self, routing: &Routing, layouts: &[(Vec<i32>, Vec<Choice>)], d: usize) -> Vec<i32> {
        let MoeGemmShape { topk, experts, .. } = self.shape;
        let w = self.world.n_ranks();
        let epr = experts / w;
        routing.idx[d]
            .iter()
            .enumerate()
            .map(|(i, &e)| {
                let (off, rows) = &layouts[e as usize / epr];
                let at = rows.iter().position(|&c| c == (d, i / topk, i % topk)).expect("every choice has a row");
                at as i32 - off[(e as usize % epr) * w + d]
            })
            .collect()
    }

    /// Launches once (the baseline: both steps); returns the runtime's report, its time both
    /// steps' and its warnings both steps'.
    pub fn launch(&mut self) -> Result<LaunchReport, KernelError> {
        self.epoch += 1;
        let MoeGemmShape { tokens, k, n, topk, experts } = self.shape;
        let w = self.world.n_ranks();
        let epr = experts / w;
        let b = |i: usize| Arg::Buf(self.bufs[i]);
        let int = |x: usize| Arg::I64(x as i64);
        let epoch = Arg::I64(self.epoch);
        let rows = epr * w * tokens;
        let steps: Vec<Vec<Arg>> = match self.algo {
            Algo::MoeGemm => vec![vec![b(X), b(GIDX), b(OFF), b(W), b(C), int(tokens), int(n), int(k), int(experts)]],
            Algo::AgMoe => vec![vec![b(X), b(X_FULL), b(GIDX), b(OFF), b(W), b(C), b(SIG), int(tokens), int(n), int(k), int(epr), int(self.near), epoch]],
            Algo::AgMoeV => vec![
                vec![b(X), b(X_FULL), b(SIG), int(tokens), int(k), epoch],
                vec![b(X_FULL), b(GIDX), b(OFF_E), b(W), b(C), int(w * tokens), int(n), int(k), int(epr)],
            ],
            Algo::MoeRs => vec![vec![b(X), b(OFF), b(W), b(IDX), b(POS), b(WT), b(C), b(STAGE), b(RECV), b(SIG), int(tokens), int(n), int(k), int(topk), int(epr), epoch]],
            _ => vec![
                vec![b(X), b(GIDX), b(OFF_E), b(W), b(Y), int(rows), int(n), int(k), int(epr)],
                vec![b(Y), b(IDX), b(POS), b(WT), b(OFF), b(STARTS), b(SCRATCH), b(C), int(tokens), int(n), int(topk), int(epr)],
            ],
        };
        let grid = if steps.len() == 1 { self.grids[0] } else { self.grids[1] };
        launch_in_order(&self.world, grid, self.kernels.iter().zip(steps.iter().map(Vec::as_slice)))
    }

    /// Per rank: the expected output and the sum of `|terms|` of each element (the scale of
    /// its rounding error), from the inputs in f64.
    fn expected(&self) -> Vec<(Vec<f64>, Vec<f64>)> {
        let MoeGemmShape { tokens, k, n, topk, experts } = self.shape;
        let w = self.world.n_ranks();
        let epr = experts / w;
        // Row `i` of `x` times weights `e` of rank `r`'s weights.
        let product = |r: usize, x: &[f64], i: usize, e: usize| -> (Vec<f64>, Vec<f64>) {
            let wts = &self.data[r].1[e * k * n..(e + 1) * k * n];
            let (mut v, mut s) = (vec![0.0; n], vec![0.0; n]);
            for p in 0..k {
                let a = x[i * k + p];
                for j in 0..n {
                    v[j] += a * wts[p * n + j];
                    s[j] += (a * wts[p * n + j]).abs();
                }
            }
            (v, s)
        };
        let layouts: Vec<_> = (0..w).map(|r| self.layout(&self.routing, r)).collect();
        if matches!(self.algo, Algo::MoeRs | Algo::MoeRsV) {
            return (0..w)
                .map(|d| {
                    let (mut v, mut s) = (vec![0.0; tokens * n], vec![0.0; tokens * n]);
                    for (i, &e) in self.routing.idx[d].iter().enumerate() {
                        let (h, wt) = (e as usize / epr, self.routing.weights[d][i] as f64);
                        let row = layouts[h].1.iter().position(|&c| c == (d, i / topk, i % topk)).expect("a row");
                        let (pv, ps) = product(h, &self.data[h].0, row, e as usize % epr);
                        for j in 0..n {
                            v[(i / topk) * n + j] += wt * pv[j];
                            s[(i / topk) * n + j] += wt.abs() * ps[j];
                        }
                    }
                    (v, s)
                })
                .collect();
        }
        (0..w)
            .map(|r| {
                let (off, rows) = &layouts[r];
                let (mut v, mut s) = (vec![], vec![]);
                for (i, &(src, t, _)) in rows.iter().enumerate() {
                    let block = off.iter().rposition(|&o| o as usize <= i).expect("a block");
                    let (e, x) = if self.algo == Algo::MoeGemm { (block, &self.data[r].0) } else { (block / w, &self.data[src].0) };
                    let (pv, ps) = product(r, x, t, e);
                    v.extend(pv);
                    s.extend(ps);
                }
                (v, s)
            })
            .collect()
    }

    /// Checks every rank this process holds: within one rounding to the dtype plus f32
    /// accumulation error over the `k` products (and the `topk` combine; `moe_rs_v` rounds its
    /// rows to the dtype before combining, so one rounding of each term is allowed too).
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let eps_out = crate::host::rounding(self.dtype);
        let MoeGemmShape { k, topk, .. } = self.shape;
        let rs = matches!(self.algo, Algo::MoeRs | Algo::MoeRsV);
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, (want, scale)) in self.expected().into_iter().enumerate().filter(|(r, _)| self.world.host_ranks().contains(r)) {
            let got = HostVec::read(&self.world, self.bufs[C], r, 0, want.len(), self.dtype)?.to_f64();
            for ((g, x), s) in got.iter().zip(&want).zip(&scale) {
                let err = (g - x).abs();
                let rounded = if rs { eps_out * s } else { 0.0 };
                let tol = eps_out * x.abs() + rounded + (k + topk + 2) as f64 * f32::EPSILON as f64 * s + 1e-7;
                max_err = max_err.max(err);
                ok &= err <= tol;
            }
        }
        Ok((ok, max_err))
    }

    /// Floating-point operations of one launch, all ranks together (two per multiply-add).
    pub fn flops(&self) -> f64 {
        let MoeGemmShape { tokens, k, n, topk, .. } = self.shape;
        2.0 * (self.world.n_ranks() * tokens * topk) as f64 * k as f64 * n as f64
    }

    /// The routing in use.
    pub fn routing(&self) -> &Routing {
        &self.routing
    }
}
