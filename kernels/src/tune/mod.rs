//! The whole-operator autotuner. A library operation's space joins its compute and
//! communication choices (declared next to each kernel, see [`space`]); the analytic model of
//! [`cost`] ranks it, the best quarter is compiled in parallel and timed as the whole launch
//! on every rank ([`measure`]); every decision that could differ between ranks is agreed
//! through a collective first ([`agree`]); results live in a JSON disk cache ([`cache`]) that
//! `weft run` and the kernels API read back ([`lookup`]).

pub mod agree;
pub mod cache;
pub mod cost;
pub mod gpu_cost;
pub mod launch;
pub mod measure;
#[cfg(test)]
mod model_tests;
mod search;
pub mod space;
pub mod stalls;
pub mod table;
pub mod tiles;
#[cfg(test)]
mod tests;

pub use search::{measure_config, tune, Options as TuneOptions, Outcome, Progress, Source};
pub use space::{Config, Param, Pruned};

use crate::{KernelError, MatmulShape};
use cache::{Entry, Key, Lookup};
use std::path::PathBuf;
use weft_compiler::pipeline::Target;
use weft_runtime::{DType, World};

/// Why tuning could not be done.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The operation has no search space.
    #[error("`{op}` cannot be tuned (tunable: allreduce, allgather, reduce_scatter, broadcast, gemm, ag_gemm, gemm_rs)")]
    NotTunable {
        /// Requested operation.
        op: String,
    },
    /// Every config was pruned.
    #[error("{op}: every config of the space was pruned (first: {first})")]
    EmptySpace {
        /// Operation.
        op: String,
        /// The first pruned config and why.
        first: String,
    },
    /// No measured config computed the right result.
    #[error("{op}: no config ran and verified ({why})")]
    NothingRan {
        /// Operation.
        op: String,
        /// The last failure.
        why: String,
    },
    /// The cache directory cannot be written.
    #[error("tuning cache {path}: {why}")]
    Cache {
        /// File or directory.
        path: String,
        /// The I/O error.
        why: String,
    },
    /// A GPU target was asked for on a machine without one.
    #[error("tuning for {target} times on the GPU, and this machine has none (`weft devices` says why)")]
    NoGpu {
        /// The requested architecture.
        target: String,
    },
    /// Building, compiling or running a config failed.
    #[error(transparent)]
    Kernel(#[from] KernelError),
}

/// A problem's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Elements per rank of a collective.
    Elems(usize),
    /// A GEMM-family shape.
    Matmul(MatmulShape),
}

/// What is tuned: an operation at a shape and element type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Operation (`allreduce`, `ag_gemm`, ...).
    pub op: String,
    /// Size.
    pub shape: Shape,
    /// Element type.
    pub dtype: DType,
}

impl Problem {
    /// The cache's shape bucket: every dimension (or the byte count) rounded up to a power of two.
    pub fn bucket(&self) -> String {
        let p = |x: usize| x.max(1).next_power_of_two();
        match self.shape {
            Shape::Elems(e) => format!("{}B", p(e * self.dtype.size_bytes())),
            Shape::Matmul(s) => format!("m{} n{} k{}", p(s.m), p(s.n), p(s.k)),
        }
    }

    /// One line: `ag_gemm m=1024 n=1024 k=512 f32`.
    pub fn describe(&self) -> String {
        match self.shape {
            Shape::Elems(e) => format!("{} elems={e} {}", self.op, self.dtype),
            Shape::Matmul(s) => format!("{} m={} n={} k={} {}", self.op, s.m, s.n, s.k, self.dtype),
        }
    }
}

/// Where results are read and written.
#[derive(Clone, Debug, Default)]
pub struct CacheDirs {
    /// One directory per rank (tests plant disagreeing caches this way); `None`: every rank
    /// uses [`cache::tune_dir`].
    pub per_rank: Option<Vec<PathBuf>>,
}

impl CacheDirs {
    /// The directory rank `r` reads and writes.
    pub fn for_rank(&self, r: usize) -> PathBuf {
        self.per_rank.as_ref().and_then(|d| d.get(r).cloned()).unwrap_or_else(cache::tune_dir)
    }
}

/// The compile target a world runs.
pub fn target_of(world: &World) -> Target {
    world.gpu_arch().and_then(Target::parse).unwrap_or(Target::Cpu)
}

/// The cache key of `problem` on `world`.
pub fn key(world: &World, problem: &Problem) -> Result<Key, TuneError> {
    space::space(&problem.op, Target::Cpu)?;
    let t = world.topology();
    Ok(Key {
        op: problem.op.clone(),
        ir: ir_hash(&problem.op, problem.dtype)?,
        target: target_of(world).name().to_string(),
        transport: world.transport().to_string(),
        topology: format!("{}x{}", t.nodes, t.local_size),
        dtype: problem.dtype.name().to_string(),
        shape: problem.bucket(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    })
}

/// The hash of `op`'s default kernel as printed IR, built once per process: building and
/// printing a GEMM-family kernel takes milliseconds, which every repeated lookup would pay.
fn ir_hash(op: &str, dtype: DType) -> Result<String, TuneError> {
    static HASHES: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<(String, String), String>>> = std::sync::OnceLock::new();
    let memo = HASHES.get_or_init(Default::default);
    let id = (op.to_string(), dtype.name().to_string());
    if let Some(h) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return Ok(h.clone());
    }
    let kernel = crate::build(op, &crate::default_constexprs(op, dtype.name())?)?;
    let ir = weft_compiler::ir::print::print_kernel(&kernel, false);
    let h = blake3::hash(ir.as_bytes()).to_hex()[..32].to_string();
    memo.lock().unwrap_or_else(|e| e.into_inner()).insert(id, h.clone());
    Ok(h)
}

/// One rank's view of the cache, as exchanged: `[status, winner hash (2 words), measured
/// hash (2 words)]`, status 0 miss, 1 hit, 2 corrupt.
fn vote(lookup: &Lookup) -> Vec<u32> {
    let h = |s: &str| {
        let b = blake3::hash(s.as_bytes());
        let b = b.as_bytes();
        [u32::from_le_bytes([b[0], b[1], b[2], b[3]]), u32::from_le_bytes([b[4], b[5], b[6], b[7]])]
    };
    match lookup {
        Lookup::Miss => vec![0; 5],
        Lookup::Corrupt(_) => vec![2, 0, 0, 0, 0],
        Lookup::Hit(e) => {
            let measured = serde_json::to_string(&e.measured).unwrap_or_default();
            [vec![1], h(&e.winner).to_vec(), h(&measured).to_vec()].concat()
        }
    }
}

/// The agreed state of the cache over every rank.
pub(crate) struct Agreed {
    /// This process's entry, when every rank holds the same winner.
    pub hit: Option<Entry>,
    /// This process's entry, when every rank holds the same measurements (reusable timings).
    pub reusable: Option<Entry>,
    /// Warnings (corrupt files, ranks that disagree).
    pub notes: Vec<String>,
}

/// Looks `key` up in every rank's cache and agrees on the outcome: a hit only when every rank
/// holds the same winner.
pub(crate) fn agreed_lookup(world: &World, key: &Key, dirs: &CacheDirs, agree: &mut agree::Agreement) -> Result<Agreed, TuneError> {
    let lookups: Vec<(usize, Lookup)> = world.host_ranks().map(|r| (r, cache::load(&dirs.for_rank(r), key))).collect();
    let votes = agree.gather(|r| lookups.iter().find(|(q, _)| *q == r).map(|(_, l)| vote(l)).unwrap_or_default())?;
    let mut notes: Vec<String> = lookups
        .iter()
        .filter_map(|(_, l)| match l {
            Lookup::Corrupt(why) => Some(format!("corrupt tuning cache file ({why}); re-tuning")),
            _ => None,
        })
        .collect();
    notes.dedup();
    let mine = lookups.into_iter().find_map(|(_, l)| if let Lookup::Hit(e) = l { Some(e) } else { None });
    let all_hit = votes.iter().all(|v| v[0] == 1);
    let same = |range: std::ops::Range<usize>| votes.iter().all(|v| v[range.clone()] == votes[0][range.clone()]);
    let hits = votes.iter().filter(|v| v[0] == 1).count();
    if hits > 0 && !(all_hit && same(1..3)) {
        notes.push(format!("the ranks' caches disagree ({hits} of {} hold a result, winners differ or are missing); re-tuning on every rank", votes.len()));
    }
    let hit = (all_hit && same(1..3)).then(|| mine.clone()).flatten();
    let reusable = (all_hit && same(3..5)).then_some(mine).flatten();
    Ok(Agreed { hit, reusable, notes })
}

/// The tuned config of `problem` on `world` when every rank's cache holds the same one (and
/// where it was read), `None` otherwise: the library's defaults apply.
pub fn lookup(world: &World, problem: &Problem, dirs: &CacheDirs) -> Result<Option<(Config, PathBuf)>, TuneError> {
    let key = key(world, problem)?;
    let mut agree = agree::Agreement::new(world)?;
    let a = agreed_lookup(world, &key, dirs, &mut agree)?;
    let path = dirs.for_rank(world.host_ranks().start).join(key.file_name());
    Ok(a.hit.and_then(|e| Config::parse(&e.winner)).map(|c| (c, path)))
}
