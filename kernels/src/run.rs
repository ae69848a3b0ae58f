//! The host side of every collective: allocate symmetric buffers, write random inputs,
//! launch with per-launch epochs, and verify against the plain-math reference.

use crate::host::{check, HostVec};
use crate::reference;
use crate::registry::{allgather_choice, allreduce_choice, find, Algo, Collective, DEFS};
use crate::ring::{ring_chunk, ring_programs, RING_SIGNALS, RING_SLOTS};
use crate::KernelError;
use std::time::Duration;
use weft_compiler::dsl::Constexprs;
use weft_runtime::{Arg, DType, LaunchWarning, Launchable, RawBuf, World};

/// Options of [`run_collective`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Timed launches.
    pub iters: usize,
    /// Untimed launches first.
    pub warmup: usize,
    /// Constexprs (from [`crate::default_constexprs`], possibly overridden).
    pub constexprs: Constexprs,
    /// Seed of the random inputs.
    pub seed: u64,
}

/// The outcome of [`run_collective`].
#[derive(Clone, Debug)]
pub struct RunResult {
    /// Whether every rank's output matched the reference.
    pub verified: bool,
    /// Largest absolute error.
    pub max_err: f64,
    /// Time of each timed launch.
    pub times: Vec<Duration>,
    /// Bytes per rank by NCCL's algorithm-bandwidth convention.
    pub alg_bytes: usize,
    /// Bytes per rank by NCCL's bus-bandwidth convention.
    pub bus_bytes: usize,
    /// Warnings of the last launch.
    pub warnings: Vec<LaunchWarning>,
}

impl RunResult {
    /// Median launch time.
    pub fn median(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        t.get(t.len() / 2).copied().unwrap_or_default()
    }
}

/// Compiles `name`, launches it `warmup + iters` times on `world` with random inputs of
/// `elems` elements per rank, and checks the result against the reference.
pub fn run_collective(world: &World, name: &str, elems: usize, dtype: DType, opts: &RunOptions) -> Result<RunResult, KernelError> {
    let mut p = prepare(world, name, elems, dtype, &opts.constexprs)?;
    p.seed(opts.seed)?;
    for _ in 0..opts.warmup {
        p.launch()?;
    }
    let mut times = Vec::with_capacity(opts.iters);
    let mut warnings = vec![];
    for _ in 0..opts.iters {
        let r = p.launch_report()?;
        times.push(r.timed());
        warnings = r.warnings;
    }
    let (verified, max_err) = p.verify()?;
    let (alg_bytes, bus_bytes) = (p.alg_bytes, p.bus_bytes);
    p.free();
    Ok(RunResult { verified, max_err, times, alg_bytes, bus_bytes, warnings })
}

/// One kernel argument, resolved per launch.
#[derive(Clone, Copy, Debug)]
enum ArgSpec {
    Buf(usize),
    I64(i64),
    /// The broadcast root, set by `Prepared::set_root`.
    Root,
    Epoch,
    Flag,
}

/// A collective ready to launch repeatedly on fixed buffers.
pub struct Prepared {
    world: World,
    kernel: Launchable,
    dtype: DType,
    bufs: Vec<RawBuf>,
    args: Vec<ArgSpec>,
    grid: [u32; 3],
    epoch: i64,
    input: usize,
    output: usize,
    elems: usize,
    algo: Algo,
    root: usize,
    inputs: Vec<Vec<f64>>,
    /// The last launch's arguments (kept for the vector's room).
    launch_args: Vec<Arg>,
    /// Bytes per rank, NCCL algorithm-bandwidth convention.
    pub alg_bytes: usize,
    /// Bytes per rank, NCCL bus-bandwidth convention.
    pub bus_bytes: usize,
    /// Ranks.
    pub world_size: usize,
}

/// `c` (`auto`'s defaults and the caller's overrides) moved onto `chosen`'s defaults: the
/// overrides, the entries that differ from `auto`'s defaults, apply to `chosen`'s, so `allreduce`
/// runs the chosen kernel as it runs by its own name (the ring's CPU tile is 64, not 1024), with
/// its defaults for the world's topology ([`crate::topology_constexprs`]).
pub(crate) fn rebase(c: &Constexprs, auto: &str, chosen: &str, dtype: DType, world: &World) -> Result<Constexprs, KernelError> {
    let target = crate::tune::target_of(world);
    let defaults = crate::target_constexprs(auto, dtype.name(), target)?;
    let base = crate::topology_constexprs(chosen, dtype.name(), target, world.topology())?;
    Ok(c.iter().filter(|(k, v)| defaults.get(k) != Some(*v)).fold(base, |b, (k, v)| b.with(k, v)))
}

/// Allocates buffers for `name` on `world` with `elems` elements per rank, compiles the
/// kernel and writes random inputs.
pub fn prepare(world: &World, name: &str, elems: usize, dtype: DType, c: &Constexprs) -> Result<Prepared, KernelError> {
    let d = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if d.info.collective.is_matmul() {
        return Err(unsupported("an element count (it is a GEMM: give m, n and k)".into()));
    }
    if elems == 0 {
        return Err(unsupported("zero elements (every rank needs at least one)".into()));
    }
    if dtype.fp8().is_some() && !matches!(d.info.collective, Collective::AllGather | Collective::Broadcast) {
        // Each hop of a reduction would round its partial sums to FP8 again: convert to f32
        // (or bf16) first, reduce, and convert back once.
        return Err(unsupported(format!("dtype {dtype} in a reduction (FP8 only moves data: reduce in f32 or bf16)")));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16 | DType::I32 | DType::F8E4M3 | DType::F8E5M2) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16, bf16, i32, or f8e4m3 / f8e5m2 to move data)")));
    }
    let w = world.n_ranks();
    let es = dtype.size_bytes();
    let gpu = world.gpu_arch().is_some();
    let mut c = c.clone();
    let algo = match d.algo {
        Algo::AllReduceAuto => {
            let chosen = allreduce_choice(world.topology(), elems.saturating_mul(es), gpu);
            c = rebase(&c, name, chosen, dtype, world)?;
            find(chosen)?.algo
        }
        Algo::AllGatherRing => {
            let chosen = allgather_choice(world.topology(), elems.saturating_mul(es).saturating_mul(w), gpu, world.transport() == "mpi");
            // The LL mesh's own defaults (its tile), as `allreduce` rebases on its choice.
            c = rebase(&c, name, chosen, dtype, world)?;
            find(chosen)?.algo
        }
        a => a,
    };
    if algo == Algo::AllReduceMultimem && world.topology().nodes > 1 {
        return Err(unsupported(format!("topology {} (multimem reaches one node)", world.topology())));
    }
    c.set("T", dtype.name());
    // The ring ReduceScatters store partials straight into the next rank's slots where every
    // rank is reachable by load/store and no P2P path has to be checked: CPU code on one node.
    let ring_rs = matches!(algo, Algo::AllReduceRing | Algo::AllReduceRingBidir | Algo::ReduceScatterBidir);
    if ring_rs && !gpu && world.topology().nodes == 1 && c.get("P2P").is_none() {
        c.set("P2P", 1);
    }
    // CPU transports order a kernel's first access to a peer after that peer's launch.
    if algo == Algo::AllReduceHier && !gpu && c.get("HOST_ARRIVAL").is_none() {
        c.set("HOST_ARRIVAL", 1);
    }
    let def = DEFS.iter().find(|x| x.algo == algo).unwrap_or(d);
    let kernel = crate::gpu::launchable_for(world, &(def.build)(&c)?)?;
    let programs = ring_programs(elems, !gpu && matches!(algo, Algo::AllReduceRing | Algo::AllReduceRingBidir));
    // The ring kernels' largest chunk (`-D CHUNK=`, elements).
    let chunk_cap = match c.get("CHUNK") {
        None => None,
        Some(v) => Some(v.parse().ok().filter(|&x: &usize| x > 0).ok_or_else(|| unsupported(format!("CHUNK={v} (it is a positive element count)")))?),
    };
    let chunk_for = |share: usize| ring_chunk(share, world.gpu_arch().is_some(), chunk_cap);
    let segmax = elems.div_ceil(w);
    let words = elems.checked_mul(es).ok_or_else(|| too_large(name, elems))?.div_ceil(4);
    let n = i64::try_from(elems).map_err(|_| too_large(name, elems))?;
    // Buffer sizes as products of factors, checked so absurd sizes are an error, not a wrap.
    let sized = |factors: &[&[usize]]| -> Result<Vec<usize>, KernelError> {
        factors.iter().map(|f| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b)).ok_or_else(|| too_large(name, elems))).collect()
    };
    use ArgSpec::*;
    let (sizes, args, input, output, alg, bus) = match algo {
        Algo::AllGatherRing => {
            let b = sized(&[&[elems, es], &[elems, w, es], &[w, programs, 8]])?;
            (b, vec![Buf(0), Buf(1), Buf(2), I64(n), Epoch], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllGatherPull => {
            let b = sized(&[&[elems, es], &[elems, w, es]])?;
            (b, vec![Buf(0), Buf(1), I64(n)], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllGatherLl | Algo::AllGather2d | Algo::AllGatherLlMesh => {
            // The input is word-padded (its tail stays zero) so the sender reads whole words.
            // The receive stage is only used when a shard ends mid-word.
            let stage = if words * 4 == elems * es { 0 } else { w };
            let b = sized(&[&[words, 4], &[elems, w, es], &[w, words, 8], &[stage, words, 4]])?;
            let mut args = vec![Buf(0), Buf(1), Buf(2), Buf(3), I64(n), I64(words as i64), Flag];
            if algo != Algo::AllGatherLl {
                args.push(I64(world.topology().local_size as i64));
            }
            (b, args, 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllReduceLlMesh => {
            // Word-padded input as the LL AllGathers'; `rows` holds every rank's input.
            let b = sized(&[&[words, 4], &[elems, es], &[w, words, 8], &[w, words, 4]])?;
            let args = vec![Buf(0), Buf(1), Buf(2), Buf(3), I64(n), I64(words as i64), Flag, I64(world.topology().local_size as i64)];
            (b, args, 0, 1, elems * es, (elems * es).saturating_mul(2 * (w - 1)) / w)
        }
        Algo::AllReduceHier => {
            // Shards of `cdiv(n, local)` per node rank; partials in the accumulator type (4 bytes).
            let (local, nodes) = (world.topology().local_size, world.topology().nodes);
            let seg = elems.div_ceil(local);
            let sig = crate::allreduce_hier::signal_words(local, nodes);
            let b = sized(&[&[elems, es], &[elems, es], &[seg, 4], &[2, nodes, seg, 4], &[programs, sig, 8]])?;
            let args = vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), I64(n), I64(seg as i64), I64(local as i64), Epoch];
            (b, args, 0, 1, elems * es, (elems * es).saturating_mul(2 * (w - 1)) / w)
        }
        Algo::ReduceScatterRing => {
            let b = sized(&[&[elems, es], &[segmax, es], &[w.saturating_sub(1), segmax, 4], &[segmax, 4], &[w, programs, 8]])?;
            let args = vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), I64(n), I64(segmax as i64), Epoch];
            (b, args, 0, 1, elems * es, (elems * es).saturating_mul(w - 1) / w)
        }
        Algo::AllReduceRing | Algo::AllReduceRingBidir | Algo::ReduceScatterBidir => {
            let dirs = if algo == Algo::AllReduceRing { 1 } else { 2 };
            let (lanes, chunk) = (dirs * programs, chunk_for(segmax.div_ceil(programs).div_ceil(dirs)));
            let (out, hops) = if algo == Algo::ReduceScatterBidir { (segmax, w - 1) } else { (elems, 2 * (w - 1)) };
            let b = sized(&[&[elems, es], &[out, es], &[lanes, RING_SLOTS, chunk, 4], &[lanes, chunk, 4], &[lanes, RING_SIGNALS, 8]])?;
            let args = vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), I64(n), I64(segmax as i64), I64(chunk as i64), Epoch];
            (b, args, 0, 1, elems * es, (elems * es).saturating_mul(hops) / w)
        }
        Algo::AllGatherBidir => {
            let chunk = chunk_for(elems.div_ceil(programs).div_ceil(2));
            let b = sized(&[&[elems, es], &[elems, w, es], &[2, programs, RING_SIGNALS, 8]])?;
            (b, vec![Buf(0), Buf(1), Buf(2), I64(n), I64(chunk as i64), Epoch], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllReduceOneShot | Algo::AllReduceTwoShot | Algo::AllReduceMultimem | Algo::AllReduceAuto => {
            let b = sized(&[&[elems, es], &[elems, es]])?;
            let mut args = vec![Buf(0), Buf(1), I64(n)];
            if algo != Algo::AllReduceOneShot {
                args.push(I64(segmax as i64));
            }
            (b, args, 0, 1, elems * es, (elems * es).saturating_mul(2 * (w - 1)) / w)
        }
        Algo::Broadcast => {
            let b = sized(&[&[elems, es], &[programs, 8]])?;
            (b, vec![Buf(0), Buf(1), I64(n), Root, Epoch], 0, 0, elems * es, elems * es)
        }
        Algo::Gemm | Algo::AgGemm | Algo::GemmRs | Algo::AgGemmCe | Algo::GemmRsCe | Algo::GemmAr | Algo::FlashDecode | Algo::FlashDecodeV | Algo::GemmRsPs | Algo::EpDispatch | Algo::EpDispatchV | Algo::EpCombine | Algo::EpCombineV | Algo::MoeGemm | Algo::AgMoe | Algo::AgMoeV | Algo::MoeRs | Algo::MoeRsV | Algo::MoeAlign | Algo::EpDispatchFp8 => return Err(unsupported("an element count".into())),
    };
    let bufs = alloc_all(world, &sizes)?;
    let grid_n = if matches!(algo, Algo::AllGatherLl | Algo::AllGather2d | Algo::AllGatherLlMesh | Algo::AllReduceLlMesh) { words.div_ceil(16 << 10).clamp(1, 4) } else { programs };
    let mut p = Prepared {
        world: world.clone(),
        kernel,
        dtype,
        bufs,
        args,
        grid: [grid_n as u32, 1, 1],
        epoch: 0,
        input,
        output,
        elems,
        algo,
        root: 0,
        inputs: vec![],
        launch_args: vec![],
        alg_bytes: alg,
        bus_bytes: bus,
        world_size: w,
    };
    p.seed(0x5eed)?;
    Ok(p)
}

/// The error for sizes whose buffers cannot even be described.
fn too_large(kernel: &str, elems: usize) -> KernelError {
    KernelError::TooLarge { kernel: kernel.into(), elems }
}

/// Allocates one symmetric buffer per size (at least 8 bytes each), all or none.
pub(crate) fn alloc_all(world: &World, sizes: &[usize]) -> Result<Vec<RawBuf>, KernelError> {
    let mut bufs = Vec::with_capacity(sizes.len());
    for &bytes in sizes {
        match world.alloc_bytes(bytes.max(8)) {
            Ok(b) => bufs.push(b),
            Err(e) => {
                bufs.into_iter().for_each(|b| world.free_raw(b));
                return Err(e.into());
            }
        }
    }
    Ok(bufs)
}

impl Prepared {
    /// Writes fresh random inputs (seeded) on every rank this process holds; every rank's
    /// inputs are known to all, for the reference.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        self.inputs.clear();
        for r in 0..self.world_size {
            let v = HostVec::random(self.dtype, self.elems, seed.wrapping_add(r as u64 * 7919)).map_err(|d| KernelError::Unsupported {
                kernel: self.kernel.name.clone(),
                what: format!("dtype {d}"),
            })?;
            if self.world.host_ranks().contains(&r) {
                v.write(&self.world, self.bufs[self.input], r, 0, self.dtype)?;
            }
            self.inputs.push(v.to_f64());
        }
        Ok(())
    }

    /// Sets the broadcast root (other kernels ignore it).
    pub fn set_root(&mut self, root: usize) -> Result<(), KernelError> {
        if root >= self.world_size {
            return Err(weft_runtime::RuntimeError::RankOutOfRange { rank: root, world: self.world_size }.into());
        }
        self.root = root;
        Ok(())
    }

    /// Launches once; returns its time (the GPU's on a GPU, else the wall time).
    pub fn launch(&mut self) -> Result<Duration, KernelError> {
        Ok(self.launch_report()?.timed())
    }

    /// Launches once; returns the runtime's report.
    pub fn launch_report(&mut self) -> Result<weft_runtime::LaunchReport, KernelError> {
        self.launch_with(&weft_runtime::LaunchOptions::default())
    }

    /// Launches once with `opts`; returns the runtime's report.
    pub fn launch_with(&mut self, opts: &weft_runtime::LaunchOptions) -> Result<weft_runtime::LaunchReport, KernelError> {
        self.epoch += 1;
        // Last launch's vector, for its room: a small launch allocates nothing here.
        let mut args = std::mem::take(&mut self.launch_args);
        args.clear();
        args.extend(self.args.iter().map(|a| match *a {
                ArgSpec::Buf(i) => Arg::Buf(self.bufs[i]),
                ArgSpec::I64(x) => Arg::I64(x),
                ArgSpec::Root => Arg::I32(self.root as i32),
                ArgSpec::Epoch => Arg::I64(self.epoch),
                // Every launch rewrites every LL word, so a flag only has to differ from the
                // previous launch's (and from the zeroed buffer's 0 on the first launch):
                // wrapping at 2^32 launches is harmless.
                ArgSpec::Flag => Arg::I32(self.epoch as i32),
            }));
        // The LL kernels need no closing step: every word is written once and awaited by the
        // rank it lands on, whose kernel ends only after every rank's row came; nor does
        // `allreduce_hier` (see its module notes); nor the push-ring AllGather: a rank's memory
        // is only written by `put_signal`s whose signals it awaits (one per source rank and
        // chunk, even an empty one), and each shard it awaits started at its source's launch.
        // The ring ReduceScatter likewise: each step's partial lands by `put_signal` (empty
        // chunks too) and is awaited, and the last one a rank awaits passed through every rank.
        let self_closing = matches!(self.algo, Algo::AllGatherRing | Algo::AllGatherLl | Algo::AllGatherLlMesh | Algo::AllReduceLlMesh | Algo::AllReduceHier | Algo::ReduceScatterRing);
        let r = if self_closing && !opts.self_closing {
            let opts = weft_runtime::LaunchOptions { self_closing: true, ..opts.clone() };
            self.world.launch_with(&self.kernel, self.grid, &args, &opts)
        } else {
            self.world.launch_with(&self.kernel, self.grid, &args, opts)
        };
        self.launch_args = args;
        Ok(r?)
    }

    /// Launches once, then checks every rank against the reference.
    pub fn verify_after_launch(&mut self) -> Result<(bool, f64), KernelError> {
        self.launch()?;
        self.verify()
    }

    /// Checks the output of every rank this process holds against the reference.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let w = self.world_size;
        let (expected, terms) = match self.algo {
            Algo::AllGatherRing | Algo::AllGatherPull | Algo::AllGatherLl | Algo::AllGather2d | Algo::AllGatherLlMesh | Algo::AllGatherBidir => (reference::all_gather(&self.inputs), 1),
            Algo::ReduceScatterRing | Algo::ReduceScatterBidir => (reference::reduce_scatter(&self.inputs), w),
            Algo::Broadcast => (reference::broadcast(&self.inputs, self.root), 1),
            _ => (reference::all_reduce(&self.inputs), w),
        };
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, want) in expected.iter().enumerate().filter(|(r, _)| self.world.host_ranks().contains(r)) {
            let got = HostVec::read(&self.world, self.bufs[self.output], r, 0, want.len(), self.dtype)?.to_f64();
            // Reductions round once from f32 partials; data movement must be bit exact.
            let want_rounded = HostVec::from_f64(self.dtype, want).to_f64();
            let (k, e) = check(&got, if terms > 1 { want } else { &want_rounded }, self.dtype, terms);
            ok &= k;
            max_err = max_err.max(e);
        }
        Ok((ok, max_err))
    }

    /// Returns the buffers to the heap now (dropping does the same).
    pub fn free(self) {}
}

impl Drop for Prepared {
    fn drop(&mut self) {
        for b in self.bufs.drain(..) {
            self.world.free_raw(b);
        }
    }
}
