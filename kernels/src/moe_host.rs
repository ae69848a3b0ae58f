//! The host side of the expert-parallel kernels (`ep_dispatch`, its two-collective baseline
//! `ep_dispatch_v`, and `ep_combine`): top-k routing (given, or random with uneven counts),
//! buffers, launches with per-launch flags, and checks against the plain math of
//! [`crate::reference::ep_dispatch`] and [`crate::reference::ep_combine`].

use crate::host::{check, HostVec};
use crate::reference::{self, Choice};
use crate::registry::{find, Algo};
use crate::KernelError;
use rand::{Rng, SeedableRng};
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchReport, Launchable, RawBuf, World};

/// An expert-parallel problem: tokens per rank, their width, choices per token, experts in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoeShape {
    /// Tokens on every rank.
    pub tokens: usize,
    /// Elements per token.
    pub hidden: usize,
    /// Experts each token picks (distinct).
    pub topk: usize,
    /// Experts, all ranks together (split evenly over them).
    pub experts: usize,
}

/// How random routing spreads the tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutingKind {
    /// Every expert equally likely.
    Uniform,
    /// Tokens pick only among a random half of the experts (at least `topk`): the rest get none.
    Sparse,
    /// One expert is in every token's top-k (it takes all the tokens); the others are uniform.
    Hot,
}

/// Top-k routing of every rank's tokens: `idx[r][t * topk + k]` is the expert of choice `k`
/// of rank `r`'s token `t`, `weights[r][..]` its weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Routing {
    /// Expert ids, per rank.
    pub idx: Vec<Vec<i32>>,
    /// Routing weights, per rank.
    pub weights: Vec<Vec<f32>>,
}

impl Routing {
    /// Random routing of `kind` for `world` ranks (seeded, the same in every process).
    pub fn random(world: usize, shape: MoeShape, kind: RoutingKind, seed: u64) -> Routing {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut pool: Vec<i32> = (0..shape.experts as i32).collect();
        let hot = rng.random_range(0..shape.experts) as i32;
        if kind == RoutingKind::Sparse {
            shuffle(&mut pool, shape.experts, &mut rng);
            pool.truncate((shape.experts / 2).max(shape.topk));
        }
        let (mut idx, mut weights) = (vec![], vec![]);
        for _ in 0..world {
            let (mut ids, mut ws) = (vec![], vec![]);
            for _ in 0..shape.tokens {
                let mut choice = pool.clone();
                if kind == RoutingKind::Hot {
                    // The hot expert first, then topk - 1 others.
                    let at = choice.iter().position(|&e| e == hot).unwrap_or(0);
                    choice.swap(0, at);
                    shuffle(&mut choice[1..], shape.topk.saturating_sub(1), &mut rng);
                } else {
                    shuffle(&mut choice, shape.topk, &mut rng);
                }
                ids.extend_from_slice(&choice[..shape.topk]);
                ws.extend((0..shape.topk).map(|_| rng.random_range(0.0f32..1.0)));
            }
            idx.push(ids);
            weights.push(ws);
        }
        Routing { idx, weights }
    }

    /// Tokens each expert receives, all ranks together.
    pub fn expert_loads(&self, experts: usize) -> Vec<usize> {
        let mut n = vec![0; experts];
        self.idx.iter().flatten().for_each(|&e| n[e as usize] += 1);
        n
    }
}

/// Moves a random choice into each of the first `k` places (a partial Fisher-Yates shuffle).
fn shuffle(v: &mut [i32], k: usize, rng: &mut impl Rng) {
    for i in 0..k.min(v.len()) {
        let j = rng.random_range(i..v.len());
        v.swap(i, j);
    }
}

/// One MoE kernel (with its baseline's second step) ready to launch repeatedly.
pub struct PreparedMoe {
    world: World,
    name: String,
    algo: Algo,
    kernels: Vec<Launchable>,
    dtype: DType,
    shape: MoeShape,
    bufs: Vec<RawBuf>,
    grid: [u32; 3],
    epoch: i64,
    routing: Routing,
    /// Each rank's tokens (dispatch) or expert outputs (combine), as written.
    data: Vec<Vec<f64>>,
}

/// Tile constexprs fitted to `shape`: the words of a token in as few tiles as fit 256 words,
/// the top-k in one tile.
pub fn moe_constexprs(shape: MoeShape, dtype: &str) -> Constexprs {
    let words = (shape.hidden * if dtype == "f32" { 4 } else { 2 }).div_ceil(4);
    Constexprs::new().with("T", dtype).with("BLOCK", words.next_power_of_two().clamp(16, 256)).with("BLOCK_K", shape.topk.max(1).next_power_of_two())
}

/// Allocates, compiles and seeds the MoE kernel `name` on `world` (uniform random routing).
pub fn prepare_moe(world: &World, name: &str, shape: MoeShape, dtype: DType, c: &Constexprs) -> Result<PreparedMoe, KernelError> {
    let def = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if !matches!(def.algo, Algo::EpDispatch | Algo::EpDispatchV | Algo::EpDispatchFp8 | Algo::EpCombine | Algo::EpCombineV) {
        return Err(unsupported("an expert-parallel shape (give --elems or --m/--n/--k)".into()));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16 or bf16)")));
    }
    let w = world.n_ranks();
    let MoeShape { tokens, hidden, topk, experts } = shape;
    if tokens == 0 || hidden == 0 || topk == 0 {
        return Err(unsupported(format!("an empty problem {shape:?}")));
    }
    if experts % w != 0 || topk > experts {
        return Err(unsupported(format!("{experts} experts with top-{topk} on {w} ranks (experts must split evenly over the ranks and number at least topk)")));
    }
    let es = dtype.size_bytes();
    if hidden * es % 4 != 0 {
        return Err(unsupported(format!("hidden {hidden} of {dtype} (a token must be whole 32-bit words: LL words carry 32 bits)")));
    }
    if def.algo == Algo::EpDispatchFp8 && hidden % 4 != 0 {
        return Err(unsupported(format!("hidden {hidden} for an FP8 payload (four e4m3 codes make an LL word: hidden must be a multiple of 4)")));
    }
    // LL words are stored into peers' memory, which only a node's ranks reach on `mpi` (the
    // baseline's put_signal and get cross nodes).
    if !matches!(def.algo, Algo::EpDispatchV | Algo::EpCombineV) && world.transport() == "mpi" && world.topology().nodes > 1 {
        return Err(unsupported(format!("topology {} on mpi (its LL stores reach only the ranks of one node)", world.topology())));
    }
    let mut c = c.clone();
    c.set("T", dtype.name());
    let bk: usize = c.get("BLOCK_K").and_then(|v| v.parse().ok()).unwrap_or(0);
    if bk < topk {
        return Err(unsupported(format!("BLOCK_K={bk} for top-{topk} (BLOCK_K must hold every choice)")));
    }
    let kernels = crate::gpu::launchables(world, name, &c)?;
    let words = hidden * es / 4;
    let too_large = || KernelError::TooLarge { kernel: name.into(), elems: tokens.saturating_mul(hidden) };
    let mul = |f: &[usize]| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(too_large);
    let epr = experts / w;
    let recv = mul(&[epr, w, tokens])?;
    let sizes = match def.algo {
        Algo::EpDispatch | Algo::EpDispatchFp8 => vec![mul(&[tokens, hidden, es])?, mul(&[tokens, topk, 4])?, mul(&[recv, hidden, es])?, mul(&[epr, w + 1, 4])?, mul(&[recv, 4])?, mul(&[2, recv, words + 1, 8])?, mul(&[2, epr, w, 8])?],
        Algo::EpDispatchV => {
            let send = mul(&[experts, tokens])?;
            let mut s = vec![mul(&[tokens, hidden, es])?, mul(&[tokens, topk, 4])?, mul(&[recv, hidden, es])?, mul(&[epr, w + 1, 4])?, mul(&[recv, 4])?];
            s.extend([mul(&[send, hidden, es])?, mul(&[send, 4])?, mul(&[experts, 8])?, mul(&[epr, w, 8])?, mul(&[epr, w, 8])?]);
            s
        }
        _ => {
            let mut s = vec![mul(&[recv, hidden, es])?, mul(&[epr, w + 1, 4])?, mul(&[recv, 4])?, mul(&[tokens, topk, 4])?, mul(&[tokens, hidden, es])?];
            // Both combines: the rows back at their parity's half, one count or signal per block.
            s.extend([mul(&[2, tokens, topk, hidden, es])?, mul(&[2, w, epr, 8])?]);
            s
        }
    };
    let bufs = crate::run::alloc_all(world, &sizes)?;
    let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
    let programs = world.gpu_sms().unwrap_or_else(|| cores.div_ceil(w)).clamp(1, experts.max(tokens));
    let routing = Routing { idx: vec![], weights: vec![] };
    let mut p = PreparedMoe { world: world.clone(), name: name.into(), algo: def.algo, kernels, dtype, shape, bufs, grid: [programs as u32, 1, 1], epoch: 0, routing, data: vec![] };
    p.seed(0x5eed, RoutingKind::Uniform)?;
    Ok(p)
}

impl PreparedMoe {
    /// Random routing of `kind` and random data (seeded, the same in every process).
    pub fn seed(&mut self, seed: u64, kind: RoutingKind) -> Result<(), KernelError> {
        let w = self.world.n_ranks();
        self.set_routing(Routing::random(w, self.shape, kind, seed), seed)
    }

    /// Uses `routing` (checked: one entry per choice of every token, distinct experts in
    /// range, finite weights) and random data seeded by `seed`.
    pub fn set_routing(&mut self, routing: Routing, seed: u64) -> Result<(), KernelError> {
        check_routing(&routing, self.shape, self.world.n_ranks()).map_err(|what| self.unsupported(what))?;
        let MoeShape { tokens, hidden, topk, experts } = self.shape;
        let w = self.world.n_ranks();
        let recv = experts / w * w * tokens;
        let rows = if self.is_combine() { recv } else { tokens };
        let random = |r: usize| HostVec::random(self.dtype, rows * hidden, seed ^ (r as u64 + 1).wrapping_mul(0x9e37_79b9)).map_err(|d| self.unsupported(format!("dtype {d}")));
        let data: Vec<HostVec> = (0..w).map(random).collect::<Result<_, _>>()?;
        let layout = reference::ep_dispatch(&routing.idx, topk, experts);
        for r in self.world.host_ranks() {
            let ints = |v: &[i32]| HostVec::I32(v.to_vec());
            if self.is_combine() {
                data[r].write(&self.world, self.bufs[0], r, 0, self.dtype)?;
                let (off, src_tk) = expected_layout(&layout[r], w, tokens, topk);
                ints(&off).write(&self.world, self.bufs[1], r, 0, DType::I32)?;
                ints(&src_tk).write(&self.world, self.bufs[2], r, 0, DType::I32)?;
                HostVec::F32(routing.weights[r].clone()).write(&self.world, self.bufs[3], r, 0, DType::F32)?;
            } else {
                data[r].write(&self.world, self.bufs[0], r, 0, self.dtype)?;
                ints(&routing.idx[r]).write(&self.world, self.bufs[1], r, 0, DType::I32)?;
            }
        }
        self.data = data.iter().map(HostVec::to_f64).collect();
        self.routing = routing;
        Ok(())
    }

    fn is_combine(&self) -> bool {
        matches!(self.algo, Algo::EpCombine | Algo::EpCombineV)
    }

    fn unsupported(&self, what: String) -> KernelError {
        KernelError::Unsupported { kernel: self.name.clone(), what }
    }

    /// Launches once (the baseline: both steps); returns the runtime's report, the time and
    /// warnings of both steps for a baseline.
    pub fn launch(&mut self) -> Result<LaunchReport, KernelError> {
        self.epoch += 1;
        let MoeShape { tokens, hidden, topk, experts } = self.shape;
        let words = (hidden * self.dtype.size_bytes() / 4) as i64;
        let dims = [tokens as i64, words, topk as i64, experts as i64].map(Arg::I64);
        let buf = |i: usize| Arg::Buf(self.bufs[i]);
        // Every launch rewrites every LL word it reads, so the flag only has to differ from the
        // last launch's on the same parity buffer (and from 0); `ep_dispatch`'s credits carry
        // the last launch's flag, so flags count launches from 1.
        let flag = Arg::I32(self.epoch as i32);
        if self.algo == Algo::EpCombineV {
            let (hidden, epoch) = (Arg::I64(hidden as i64), Arg::I64(self.epoch));
            let a2a = vec![buf(0), buf(1), buf(2), buf(5), buf(6), dims[0], hidden, dims[2], dims[3], epoch];
            let first = self.world.launch(&self.kernels[0], self.grid, &a2a)?;
            let sum = vec![buf(5), buf(6), buf(3), buf(4), dims[0], hidden, dims[2], dims[3], epoch];
            return Ok(both(first, self.world.launch(&self.kernels[1], self.grid, &sum)?));
        }
        if self.algo != Algo::EpDispatchV {
            let mut args: Vec<Arg> = self.bufs.iter().map(|&b| Arg::Buf(b)).collect();
            args.extend(dims);
            args.push(flag);
            return Ok(self.world.launch(&self.kernels[0], self.grid, &args)?);
        }
        let mut counts = vec![buf(0), buf(1), buf(5), buf(6), buf(7), buf(8), buf(9), buf(3)];
        counts.extend(dims);
        counts.push(Arg::I64(self.epoch));
        let first = self.world.launch(&self.kernels[0], self.grid, &counts)?;
        let a2a = vec![buf(5), buf(6), buf(2), buf(4), buf(3), dims[0], dims[1], dims[3]];
        Ok(both(first, self.world.launch(&self.kernels[1], self.grid, &a2a)?))
    }

    /// Checks every rank this process holds against the reference; returns (ok, max error).
    /// Dispatch: offsets, headers and rows exact. Combine: the weighted sum within f32
    /// accumulation of `topk` terms and one rounding.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let MoeShape { tokens, hidden, topk, experts } = self.shape;
        let w = self.world.n_ranks();
        let layout = reference::ep_dispatch(&self.routing.idx, topk, experts);
        let (mut ok, mut max_err) = (true, 0.0f64);
        if self.is_combine() {
            let weights: Vec<Vec<f64>> = self.routing.weights.iter().map(|v| v.iter().map(|&x| x as f64).collect()).collect();
            let at = row_of(&layout, &self.routing.idx, topk);
            let want = reference::ep_combine(&weights, topk, hidden, |r, t, k| {
                let (d, row) = at[r][t * topk + k];
                &self.data[d][row * hidden..(row + 1) * hidden]
            });
            for r in self.world.host_ranks() {
                let got = HostVec::read(&self.world, self.bufs[4], r, 0, tokens * hidden, self.dtype)?.to_f64();
                let (k, e) = check(&got, &want[r], self.dtype, topk.max(2));
                ok &= k;
                max_err = max_err.max(e);
            }
            return Ok((ok, max_err));
        }
        let epr = experts / w;
        for r in self.world.host_ranks() {
            let (off, src_tk) = expected_layout(&layout[r], w, tokens, topk);
            let read_ints = |buf: usize, n: usize| HostVec::read(&self.world, self.bufs[buf], r, 0, n, DType::I32).map(|v| v.to_f64());
            let got_off = read_ints(3, off.len())?;
            ok &= got_off.iter().zip(&off).all(|(g, &x)| *g == x as f64);
            let got_tk = read_ints(4, src_tk.len())?;
            let out = HostVec::read(&self.world, self.bufs[2], r, 0, epr * w * tokens * hidden, self.dtype)?.to_f64();
            for (le, got) in layout[r].iter().enumerate() {
                for (j, &(src, t, k)) in got.iter().enumerate() {
                    let at = le * w * tokens + j;
                    ok &= got_tk[at] == (t * topk + k) as f64;
                    let (row, want) = (&out[at * hidden..(at + 1) * hidden], &self.data[src][t * hidden..(t + 1) * hidden]);
                    if self.algo == Algo::EpDispatchFp8 {
                        let (e, within) = crate::fp8::check_dequantized(row, want, self.dtype);
                        max_err = max_err.max(e);
                        ok &= within;
                        continue;
                    }
                    for (g, x) in row.iter().zip(want) {
                        max_err = max_err.max((g - x).abs());
                        ok &= g == x;
                    }
                }
            }
        }
        Ok((ok, max_err))
    }

    /// Bytes of token data moved by one launch, all ranks together (each choice's token once).
    pub fn payload_bytes(&self) -> usize {
        self.world.n_ranks() * self.shape.tokens * self.shape.topk * self.shape.hidden * self.dtype.size_bytes()
    }

    /// The routing in use.
    pub fn routing(&self) -> &Routing {
        &self.routing
    }

    /// The problem shape.
    pub fn shape(&self) -> MoeShape {
        self.shape
    }
}

/// Checks `routing` for `shape` on `w` ranks: one entry per choice of every token, distinct
/// experts in range, finite weights; the error says which.
pub(crate) fn check_routing(routing: &Routing, shape: MoeShape, w: usize) -> Result<(), String> {
    let MoeShape { tokens, topk, experts, .. } = shape;
    if routing.idx.len() != w || routing.weights.len() != w || routing.idx.iter().any(|v| v.len() != tokens * topk) || routing.weights.iter().any(|v| v.len() != tokens * topk) {
        return Err(format!("routing that is not {tokens} x top-{topk} choices and weights on each of {w} ranks"));
    }
    for (r, ids) in routing.idx.iter().enumerate() {
        for (t, choice) in ids.chunks(topk).enumerate() {
            for (k, &e) in choice.iter().enumerate() {
                if e < 0 || e as usize >= experts || choice[..k].contains(&e) {
                    return Err(format!("routing where rank {r}'s token {t} picks expert {e} as choice {k} (choices must be distinct experts in 0..{experts})"));
                }
            }
        }
    }
    if let Some((r, _)) = routing.weights.iter().enumerate().find(|(_, v)| v.iter().any(|x| !x.is_finite())) {
        return Err(format!("routing weights on rank {r} that are not finite"));
    }
    Ok(())
}

/// Launches each `(kernel, args)` in order on `grid`; one report of them all ([`both`]).
pub(crate) fn launch_in_order<'a>(world: &World, grid: [u32; 3], steps: impl IntoIterator<Item = (&'a Launchable, &'a [Arg])>) -> Result<LaunchReport, KernelError> {
    launch_in_order_closing(world, grid, steps, |_| false)
}

/// [`launch_in_order`], each launch whose kernel `closes_itself` without the closing host
/// step between processes (`LaunchOptions::self_closing`; its kernel's protocol must meet the
/// conditions in `weft_runtime`'s mpi `sync`).
pub(crate) fn launch_in_order_closing<'a>(
    world: &World,
    grid: [u32; 3],
    steps: impl IntoIterator<Item = (&'a Launchable, &'a [Arg])>,
    closes_itself: impl Fn(&Launchable) -> bool,
) -> Result<LaunchReport, KernelError> {
    let mut total: Option<LaunchReport> = None;
    for (kernel, args) in steps {
        let opts = weft_runtime::LaunchOptions { self_closing: closes_itself(kernel), ..Default::default() };
        let r = world.launch_with(kernel, grid, args, &opts)?;
        total = Some(match total {
            Some(t) => both(t, r),
            None => r,
        });
    }
    total.ok_or_else(|| KernelError::Unsupported { kernel: "launch".into(), what: "no launches".into() })
}

/// One report of two launches in a row: both times, both warnings.
pub(crate) fn both(mut first: LaunchReport, second: LaunchReport) -> LaunchReport {
    first.elapsed += second.elapsed;
    first.device = first.device.zip(second.device).map(|(a, b)| a + b);
    first.warnings.extend(second.warnings);
    first
}

/// A rank's dispatch layout as the kernel writes it: `off[epr, world + 1]` (where each source's
/// rows start, then the total) and each row's header `t * topk + k` at `[le, row]` of
/// `[epr, world * tokens]` (rows past a count are 0 here and never read).
fn expected_layout(mine: &[Vec<Choice>], world: usize, tokens: usize, topk: usize) -> (Vec<i32>, Vec<i32>) {
    let (mut off, mut src_tk) = (vec![], vec![0; mine.len() * world * tokens]);
    for (le, got) in mine.iter().enumerate() {
        off.extend((0..=world).map(|s| got.iter().filter(|c| c.0 < s).count() as i32));
        for (j, &(_, t, k)) in got.iter().enumerate() {
            src_tk[le * world * tokens + j] = (t * topk + k) as i32;
        }
    }
    (off, src_tk)
}

/// For every rank's choice `t * topk + k`: (the rank holding its expert, the row of that
/// expert's output in the dispatch layout `[epr, world * tokens]`).
fn row_of(layout: &[Vec<Vec<Choice>>], idx: &[Vec<i32>], topk: usize) -> Vec<Vec<(usize, usize)>> {
    let w = layout.len();
    let tokens = idx.first().map_or(0, |v| v.len() / topk);
    let mut at: Vec<Vec<(usize, usize)>> = idx.iter().map(|v| vec![(0, 0); v.len()]).collect();
    for (d, experts_here) in layout.iter().enumerate() {
        for (le, got) in experts_here.iter().enumerate() {
            for (j, &(src, t, k)) in got.iter().enumerate() {
                at[src][t * topk + k] = (d, le * w * tokens + j);
            }
        }
    }
    at
}
