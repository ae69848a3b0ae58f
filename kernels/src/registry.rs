//! The library's one entry point: names, builders, and host-side runs that allocate, launch
//! and verify each collective against its plain-math reference.

use crate::host::{check, HostVec};
use crate::reference;
use crate::{allgather, broadcast, reduce, KernelError};
use std::time::Duration;
use weft_compiler::dsl::{Constexprs, DslError};
use weft_compiler::ir::Kernel;
use weft_runtime::{Arg, DType, LaunchWarning, Launchable, RawBuf, World};

/// A library kernel.
#[derive(Clone, Copy, Debug)]
pub struct KernelInfo {
    /// Name used by the CLI and the API.
    pub name: &'static str,
    /// One line on what it does and how.
    pub about: &'static str,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Algo {
    AllGatherRing,
    AllGatherPull,
    AllGatherLl,
    ReduceScatterRing,
    AllReduceAuto,
    AllReduceOneShot,
    AllReduceTwoShot,
    AllReduceMultimem,
    Broadcast,
}

struct Def {
    info: KernelInfo,
    algo: Algo,
    build: fn(&Constexprs) -> Result<Kernel, DslError>,
}

const fn def(name: &'static str, about: &'static str, algo: Algo, build: fn(&Constexprs) -> Result<Kernel, DslError>) -> Def {
    Def { info: KernelInfo { name, about }, algo, build }
}

static DEFS: [Def; 9] = [
    def("allgather", "AllGather, push ring: put_signal to the next rank, one signal per chunk", Algo::AllGatherRing, allgather::push_ring),
    def("allgather_pull", "AllGather, full mesh: barrier_all, then remote_ptr loads of every peer", Algo::AllGatherPull, allgather::pull),
    def("allgather_ll", "AllGather, LL protocol (small messages): flag-tagged stores, ll_recv polling", Algo::AllGatherLl, allgather::ll),
    def("reduce_scatter", "ReduceScatter (sum), ring of put_signal partials", Algo::ReduceScatterRing, reduce::reduce_scatter),
    def("allreduce", "AllReduce (sum): one-shot up to 256 KiB, two-shot above", Algo::AllReduceAuto, reduce::two_shot),
    def("allreduce_one_shot", "AllReduce, one-shot: remote_ptr loads of all peers + local reduce", Algo::AllReduceOneShot, reduce::one_shot),
    def("allreduce_two_shot", "AllReduce, two-shot: reduce-scatter then all-gather", Algo::AllReduceTwoShot, reduce::two_shot),
    def("allreduce_multimem", "AllReduce over one node: multimem_ld_reduce + multimem_st", Algo::AllReduceMultimem, reduce::multimem),
    def("broadcast", "Broadcast from any root: put_signal from the root to every peer", Algo::Broadcast, broadcast::broadcast),
];

/// Bytes up to which `allreduce` picks the one-shot algorithm.
pub const ONE_SHOT_MAX_BYTES: usize = 256 << 10;

/// Every library kernel.
pub fn list() -> Vec<KernelInfo> {
    DEFS.iter().map(|d| d.info).collect()
}

fn find(name: &str) -> Result<&'static Def, KernelError> {
    DEFS.iter().find(|d| d.info.name == name).ok_or_else(|| KernelError::Unknown {
        name: name.into(),
        known: DEFS.iter().map(|d| d.info.name).collect::<Vec<_>>().join(", "),
    })
}

/// The default constexprs of `name` for element type `dtype`.
pub fn default_constexprs(name: &str, dtype: &str) -> Result<Constexprs, KernelError> {
    let d = find(name)?;
    let block = if d.algo == Algo::AllGatherLl { 256 } else { 1024 };
    Ok(Constexprs::new().with("T", dtype).with("BLOCK", block))
}

/// Builds kernel `name` with `constexprs`.
pub fn build(name: &str, constexprs: &Constexprs) -> Result<Kernel, KernelError> {
    Ok((find(name)?.build)(constexprs)?)
}

/// Options of [`run_collective`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Timed launches.
    pub iters: usize,
    /// Untimed launches first.
    pub warmup: usize,
    /// Constexprs (from [`default_constexprs`], possibly overridden).
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
        times.push(r.elapsed);
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
    I32(i32),
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
    /// Bytes per rank, NCCL algorithm-bandwidth convention.
    pub alg_bytes: usize,
    /// Bytes per rank, NCCL bus-bandwidth convention.
    pub bus_bytes: usize,
    /// Ranks.
    pub world_size: usize,
}

/// Allocates buffers for `name` on `world` with `elems` elements per rank, compiles the
/// kernel and writes random inputs.
pub fn prepare(world: &World, name: &str, elems: usize, dtype: DType, c: &Constexprs) -> Result<Prepared, KernelError> {
    let d = find(name)?;
    let unsupported = |what: String| KernelError::Unsupported { kernel: name.into(), what };
    if elems == 0 {
        return Err(unsupported("zero elements".into()));
    }
    if !matches!(dtype, DType::F32 | DType::F16 | DType::BF16 | DType::I32) {
        return Err(unsupported(format!("dtype {dtype} (use f32, f16, bf16 or i32)")));
    }
    let w = world.n_ranks();
    let es = dtype.size_bytes();
    let algo = match d.algo {
        Algo::AllReduceAuto if elems * es <= ONE_SHOT_MAX_BYTES => Algo::AllReduceOneShot,
        Algo::AllReduceAuto => Algo::AllReduceTwoShot,
        a => a,
    };
    if algo == Algo::AllReduceMultimem && world.topology().nodes > 1 {
        return Err(unsupported(format!("topology {} (multimem reaches one node)", world.topology())));
    }
    let mut c = c.clone();
    c.set("T", dtype.name());
    let def = DEFS.iter().find(|x| x.algo == algo).unwrap_or(d);
    let kernel = weft_compiler::compile(&(def.build)(&c)?, &weft_compiler::Options::from_env())?.launchable();
    let programs = elems.div_ceil(64 << 10).clamp(1, 4);
    let segmax = elems.div_ceil(w);
    let words = (elems * es).div_ceil(4);
    let n = elems as i64;
    let alloc = |bytes: usize| world.alloc_bytes(bytes.max(8));
    use ArgSpec::*;
    let (bufs, args, input, output, alg, bus) = match algo {
        Algo::AllGatherRing => {
            let b = vec![alloc(elems * es)?, alloc(elems * w * es)?, alloc(w * programs * 8)?];
            (b, vec![Buf(0), Buf(1), Buf(2), I64(n), Epoch], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllGatherPull => {
            let b = vec![alloc(elems * es)?, alloc(elems * w * es)?];
            (b, vec![Buf(0), Buf(1), I64(n)], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::AllGatherLl => {
            let b = vec![alloc(words * 4)?, alloc(elems * w * es)?, alloc(w * words * 8)?, alloc(w * words * 4)?];
            (b, vec![Buf(0), Buf(1), Buf(2), Buf(3), I64(n), I64(words as i64), Flag], 0, 1, elems * w * es, elems * (w - 1) * es)
        }
        Algo::ReduceScatterRing => {
            let b = vec![
                alloc(elems * es)?,
                alloc(segmax * es)?,
                alloc(w.saturating_sub(1) * segmax * 4)?,
                alloc(segmax * 4)?,
                alloc(w * programs * 8)?,
            ];
            let args = vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), I64(n), I64(segmax as i64), Epoch];
            (b, args, 0, 1, elems * es, elems * es * (w - 1) / w)
        }
        Algo::AllReduceOneShot | Algo::AllReduceTwoShot | Algo::AllReduceMultimem | Algo::AllReduceAuto => {
            let b = vec![alloc(elems * es)?, alloc(elems * es)?];
            let mut args = vec![Buf(0), Buf(1), I64(n)];
            if algo != Algo::AllReduceOneShot {
                args.push(I64(segmax as i64));
            }
            (b, args, 0, 1, elems * es, 2 * elems * es * (w - 1) / w)
        }
        Algo::Broadcast => {
            let b = vec![alloc(elems * es)?, alloc(programs * 8)?];
            (b, vec![Buf(0), Buf(1), I64(n), I32(0), Epoch], 0, 0, elems * es, elems * es)
        }
    };
    let grid_n = if algo == Algo::AllGatherLl { words.div_ceil(16 << 10).clamp(1, 4) } else { programs };
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
        alg_bytes: alg,
        bus_bytes: bus,
        world_size: w,
    };
    p.seed(0x5eed)?;
    Ok(p)
}

impl Prepared {
    /// Writes fresh random inputs (seeded) on every rank.
    pub fn seed(&mut self, seed: u64) -> Result<(), KernelError> {
        self.inputs.clear();
        for r in 0..self.world_size {
            let v = HostVec::random(self.dtype, self.elems, seed.wrapping_add(r as u64 * 7919)).map_err(|d| KernelError::Unsupported {
                kernel: self.kernel.name.clone(),
                what: format!("dtype {d}"),
            })?;
            v.write(&self.world, self.bufs[self.input], r, 0, self.dtype)?;
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
        for a in &mut self.args {
            if let ArgSpec::I32(r) = a {
                *r = root as i32;
            }
        }
        Ok(())
    }

    /// Launches once; returns its wall time.
    pub fn launch(&mut self) -> Result<Duration, KernelError> {
        Ok(self.launch_report()?.elapsed)
    }

    /// Launches once; returns the runtime's report.
    pub fn launch_report(&mut self) -> Result<weft_runtime::LaunchReport, KernelError> {
        self.epoch += 1;
        let args: Vec<Arg> = self
            .args
            .iter()
            .map(|a| match *a {
                ArgSpec::Buf(i) => Arg::Buf(self.bufs[i]),
                ArgSpec::I64(x) => Arg::I64(x),
                ArgSpec::I32(x) => Arg::I32(x),
                ArgSpec::Epoch => Arg::I64(self.epoch),
                ArgSpec::Flag => Arg::I32(self.epoch as i32),
            })
            .collect();
        Ok(self.world.launch(&self.kernel, self.grid, &args)?)
    }

    /// Launches once, then checks every rank against the reference.
    pub fn verify_after_launch(&mut self) -> Result<(bool, f64), KernelError> {
        self.launch()?;
        self.verify()
    }

    /// Checks every rank's output against the reference of the current inputs.
    pub fn verify(&self) -> Result<(bool, f64), KernelError> {
        let w = self.world_size;
        let (expected, terms) = match self.algo {
            Algo::AllGatherRing | Algo::AllGatherPull | Algo::AllGatherLl => (reference::all_gather(&self.inputs), 1),
            Algo::ReduceScatterRing => (reference::reduce_scatter(&self.inputs), w),
            Algo::Broadcast => (reference::broadcast(&self.inputs, self.root), 1),
            _ => (reference::all_reduce(&self.inputs), w),
        };
        let (mut ok, mut max_err) = (true, 0.0f64);
        for (r, want) in expected.iter().enumerate() {
            let got = HostVec::read(&self.world, self.bufs[self.output], r, 0, want.len(), self.dtype)?.to_f64();
            // Reductions round once from f32 partials; data movement must be bit exact.
            let want_rounded = HostVec::from_f64(self.dtype, want).to_f64();
            let (k, e) = check(&got, if terms > 1 { want } else { &want_rounded }, self.dtype, terms);
            ok &= k;
            max_err = max_err.max(e);
        }
        Ok((ok, max_err))
    }

    /// Returns the buffers to the heap.
    pub fn free(self) {
        for b in self.bufs {
            self.world.free_raw(b);
        }
    }
}
