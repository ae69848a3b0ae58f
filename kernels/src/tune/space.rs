//! Search spaces: the parameters each kernel declares next to itself (`TUNE_SPACE`), the
//! algorithms an operation may run (library variants and registered MSCCL algorithms), their
//! product as [`Config`]s, and pruning of configs that cannot build or cannot help, before
//! anything is compiled.

use super::{Problem, Shape, TuneError};
use crate::MatmulShape;
use crate::registry::find;
use crate::ring::ring_chunk;
use std::collections::BTreeMap;
use weft_compiler::dsl::Constexprs;
use weft_compiler::msccl::algorithms::{self, AlgoParams};
use weft_compiler::msccl::{CollectiveKind, Protocol};
use weft_compiler::pipeline::Target;
use weft_runtime::Topology;

/// One tunable parameter and the values to try.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Constexpr (or option) name.
    pub name: &'static str,
    /// Values to try, in the kernel's spelling.
    pub values: &'static [&'static str],
    /// Whether only GPU targets read it (`num_warps`).
    pub gpu_only: bool,
}

impl Param {
    /// A parameter every target reads.
    pub const fn all(name: &'static str, values: &'static [&'static str]) -> Param {
        Param { name, values, gpu_only: false }
    }

    /// A parameter only GPU targets read.
    pub const fn gpu(name: &'static str, values: &'static [&'static str]) -> Param {
        Param { name, values, gpu_only: true }
    }
}

/// The parameters of a registered MSCCL algorithm run through the tuner: protocol, instances
/// and the width of the lowered kernel's elementwise loops.
pub const MSCCL_SPACE: &[Param] = &[
    Param::all("protocol", &["Simple", "LL", "LL128"]),
    Param::all("instances", &["1", "2"]),
    Param::all("block", &["512"]),
];

/// A parameter value that leaves the kernel's (or the launch's) own default in place, so the
/// library's default is a point of the space even where it depends on the size.
pub const DEFAULT: &str = "-";

/// Prefix of MSCCL algorithm names in a [`Config`].
pub const MSCCL_PREFIX: &str = "msccl:";

/// One point of a space: the algorithm and a value per parameter.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Config {
    /// A library kernel name, or `msccl:<built-in algorithm>`.
    pub algorithm: String,
    /// Parameter values by name.
    pub params: BTreeMap<String, String>,
}

impl Config {
    /// The canonical one-line spelling (`ag_gemm BLOCK_K=64 BLOCK_M=32 ...`), which is also
    /// the config's identity in the cache.
    pub fn id(&self) -> String {
        let mut s = self.algorithm.clone();
        for (k, v) in &self.params {
            s.push_str(&format!(" {k}={v}"));
        }
        s
    }

    /// Parses [`Config::id`]'s spelling.
    pub fn parse(id: &str) -> Option<Config> {
        let mut words = id.split_whitespace();
        let algorithm = words.next()?.to_string();
        let mut params = BTreeMap::new();
        for w in words {
            let (k, v) = w.split_once('=')?;
            params.insert(k.to_string(), v.to_string());
        }
        Some(Config { algorithm, params })
    }

    /// The MSCCL algorithm it runs, if any.
    pub fn msccl(&self) -> Option<&str> {
        self.algorithm.strip_prefix(MSCCL_PREFIX)
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> Option<i64> {
        self.params.get(name).and_then(|v| v.parse().ok())
    }

    /// The library kernel's constexprs: its defaults (for what the space leaves out, such as
    /// `GROUP_M` of the overlap kernels), `T`, then every parameter.
    pub fn constexprs(&self, dtype: &str) -> Constexprs {
        let base = crate::default_constexprs(&self.algorithm, dtype).unwrap_or_default().with("T", dtype);
        self.params.iter().filter(|(_, v)| *v != DEFAULT).fold(base, |c, (k, v)| c.with(k, v))
    }

    /// The MSCCL protocol parameter.
    pub fn protocol(&self) -> Protocol {
        self.params.get("protocol").and_then(|p| Protocol::parse(p)).unwrap_or(Protocol::Simple)
    }
}

/// The library kernels and MSCCL collective an operation may run.
fn candidates(op: &str) -> Result<(Vec<&'static str>, Option<CollectiveKind>), TuneError> {
    Ok(match op {
        // The pipelined rings (one direction or both) are the library's too: which of them
        // wins depends on the size, the topology and the transport, not on a fixed rule.
        "allreduce" => (vec!["allreduce_one_shot", "allreduce_two_shot", "allreduce_multimem", "allreduce_ring", "allreduce_ring_bidir", "allreduce_ll_mesh", "allreduce_hier"], Some(CollectiveKind::AllReduce)),
        "allgather" => (vec!["allgather", "allgather_pull", "allgather_ll", "allgather_bidir"], Some(CollectiveKind::AllGather)),
        "reduce_scatter" => (vec!["reduce_scatter", "reduce_scatter_bidir"], Some(CollectiveKind::ReduceScatter)),
        "broadcast" => (vec!["broadcast"], None),
        // The comm method is the kernel: program instances, the copy engine, or (GEMM-RS) the
        // producer storing straight to the owner. One more method is one more name here.
        "gemm" => (vec!["gemm"], None),
        "ag_gemm" => (vec!["ag_gemm", "ag_gemm_ce"], None),
        "gemm_rs" => (vec!["gemm_rs", "gemm_rs_ce", "gemm_rs_ps"], None),
        _ => return Err(TuneError::NotTunable { op: op.into() }),
    })
}

/// The parameters a library kernel declares.
fn declared(kernel: &str) -> &'static [Param] {
    match kernel {
        "gemm" => crate::gemm::TUNE_SPACE,
        "ag_gemm" => crate::ag_gemm::TUNE_SPACE,
        "ag_gemm_ce" => crate::ag_gemm::CE_TUNE_SPACE,
        "gemm_rs" | "gemm_rs_ce" => crate::gemm_rs::TUNE_SPACE,
        "gemm_rs_ps" => crate::gemm_rs_ps::TUNE_SPACE,
        "broadcast" => crate::broadcast::TUNE_SPACE,
        "allreduce_ring" | "allreduce_ring_bidir" | "reduce_scatter_bidir" | "allgather_bidir" => crate::reduce::RING_TUNE_SPACE,
        k if k.starts_with("allgather") => crate::allgather::TUNE_SPACE,
        _ => crate::reduce::TUNE_SPACE,
    }
}

/// Every combination of `params`' values (those the target reads) for `algorithm`.
fn product(algorithm: &str, params: &[Param], gpu: bool) -> Vec<Config> {
    let mut out = vec![Config { algorithm: algorithm.into(), params: BTreeMap::new() }];
    for p in params.iter().filter(|p| gpu || !p.gpu_only) {
        out = out
            .into_iter()
            .flat_map(|c| {
                p.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.params.insert(p.name.into(), (*v).into());
                    c
                })
            })
            .collect();
    }
    out
}

/// The whole space of `op` for `target`, in a fixed order (the same on every rank).
pub fn space(op: &str, target: Target) -> Result<Vec<Config>, TuneError> {
    let gpu = target != Target::Cpu;
    let (kernels, msccl) = candidates(op)?;
    let mut out: Vec<Config> = kernels.iter().flat_map(|k| product(k, declared(k), gpu)).collect();
    if let Some(kind) = msccl {
        for b in algorithms::BUILTINS.iter().filter(|b| b.collective == kind) {
            out.extend(product(&format!("{MSCCL_PREFIX}{}", b.name), MSCCL_SPACE, gpu));
        }
    }
    Ok(out)
}

/// A config pruned before compiling, and why.
#[derive(Clone, Debug)]
pub struct Pruned {
    /// The config.
    pub config: Config,
    /// Why it cannot run or cannot help.
    pub why: String,
}

/// Shared memory a GPU CTA has without opting in (bytes).
pub const GPU_SHARED_BYTES: usize = 48 << 10;

/// Shared memory a CTA of the GEMM family can use on `target`: Hopper and Blackwell stage the
/// K loop in dynamic shared memory (227 KiB opted in), other targets in the static 48 KiB.
pub fn gpu_shared_bytes(target: Target) -> usize {
    use weft_compiler::pipeline::Sm;
    match target {
        Target::Cuda { sm: Sm::Sm90a | Sm::Sm100a } => 227 << 10,
        _ => GPU_SHARED_BYTES,
    }
}

/// Splits `space` into the configs worth compiling and the pruned ones: a constexpr the
/// kernel's builder rejects, a GPU tile that overflows shared memory, a tile or block larger
/// than the problem (pure padding), an algorithm the topology cannot run.
pub fn prune(space: Vec<Config>, problem: &Problem, topo: Topology, target: Target) -> (Vec<Config>, Vec<Pruned>) {
    let (mut keep, mut pruned) = (vec![], vec![]);
    for config in space {
        match why_pruned(&config, problem, topo, target) {
            Some(why) => pruned.push(Pruned { config, why }),
            None => keep.push(config),
        }
    }
    (keep, pruned)
}

/// Why `c` is pruned, or `None`.
fn why_pruned(c: &Config, problem: &Problem, topo: Topology, target: Target) -> Option<String> {
    let w = topo.world_size();
    let too_big = |name: &str, limit: usize, what: &str| {
        let v = c.int(name)? as usize;
        (v > limit.next_power_of_two().max(16)).then(|| format!("{name}={v} exceeds {what} ({limit})"))
    };
    if let Some(alg) = c.msccl() {
        let protocol = c.protocol();
        let params = AlgoParams::topology(topo.nodes, topo.local_size).instances(c.int("instances").unwrap_or(1) as usize).protocol(protocol);
        return algorithms::build(alg, &params).err().map(|e| format!("{alg} on {topo}: {e}"));
    }
    if c.algorithm == "allreduce_multimem" && topo.nodes > 1 {
        return Some(format!("multimem reaches one node, the topology is {topo}"));
    }
    if c.algorithm == "gemm_rs_ps" && topo.nodes > 1 {
        return Some(format!("gemm_rs_ps's remote stores reach one node, the topology is {topo}"));
    }
    let es = problem.dtype.size_bytes();
    match problem.shape {
        Shape::Elems(elems) => {
            if let Some(w) = too_big("BLOCK", elems, "the elements per rank") {
                return Some(w);
            }
            if let Some(why) = chunk_pruned(c, elems, w, target == Target::Cpu) {
                return Some(why);
            }
        }
        Shape::Matmul(MatmulShape { m, n, k }) => {
            let rows = crate::matmul::rank_rows(&c.algorithm, m, w);
            let why = too_big("BLOCK_M", rows, "a rank's rows").or_else(|| too_big("BLOCK_N", n, "n")).or_else(|| too_big("BLOCK_K", k, "k"));
            if why.is_some() {
                return why;
            }
            // Communication programs beyond the tiles they serve idle (AG-GEMM pushes a rank's
            // row tiles, GEMM-RS reduces its tiles of C).
            let row_tiles = rows.div_ceil(c.int("BLOCK_M").unwrap_or(64).max(1) as usize);
            let served = if c.algorithm.starts_with("gemm_rs") { row_tiles * n.div_ceil(c.int("BLOCK_N").unwrap_or(256).max(1) as usize) } else { row_tiles };
            if let Some(comm) = c.int("COMM_PROGRAMS").filter(|&p| p as usize > served) {
                return Some(format!("COMM_PROGRAMS={comm} exceeds the {served} tiles they serve"));
            }
            if target != Target::Cpu {
                let (bm, bn, bk) = (c.int("BLOCK_M")? as usize, c.int("BLOCK_N")? as usize, c.int("BLOCK_K")? as usize);
                let (warps, stages) = (c.int("num_warps").unwrap_or(4) as usize, c.int("num_stages").unwrap_or(2).max(2) as usize);
                // Every stage's A and B tiles, and the f32 accumulator on its way out of the
                // mma layout, each have to fit the CTA's shared memory.
                let staged = stages * (bm * bk + bk * bn) * es;
                let acc = bm * bn * 4;
                let limit = gpu_shared_bytes(target);
                if staged.max(acc) > limit {
                    return Some(format!("{} bytes of shared memory > {limit}", staged.max(acc)));
                }
                let regs = super::gpu_cost::acc_regs(bm, bn, warps);
                if regs > super::gpu_cost::ACC_REGS_MAX {
                    return Some(format!("{regs} accumulator registers a thread > {}", super::gpu_cost::ACC_REGS_MAX));
                }
            }
        }
    }
    let built = crate::registry::build(&c.algorithm, &c.constexprs(problem.dtype.name()));
    built.err().map(|e| format!("rejected by the kernel: {e}"))
}

/// Why a ring's `CHUNK` is pruned: a cap at or above its lane's share (one chunk per lane)
/// when a smaller value of the space already is, or a cap that cuts the share as the launch's
/// own chunk (`-`) does (the same launch twice: `CHUNK` only sets the chunk `run::prepare`
/// passes, the kernel's code is the same; the 16 MiB 1x4 ReduceScatter's `-` and 65536,
/// both 65536-element chunks, came out 5-15% apart between runners, the tuner's and the
/// bench's in opposite order).
fn chunk_pruned(c: &Config, elems: usize, w: usize, cpu: bool) -> Option<String> {
    let cap = c.int("CHUNK")? as usize;
    let share = ring_share(&c.algorithm, elems, w, cpu)?;
    let chunk = ring_chunk(share, !cpu, None);
    if ring_chunk(share, !cpu, Some(cap)) == chunk {
        return Some(format!("CHUNK={cap} cuts the {share}-element share in {chunk}-element chunks, as the launch's own chunk does"));
    }
    let values = declared(&c.algorithm).iter().find(|p| p.name == "CHUNK")?.values;
    let smaller_whole = values.iter().filter_map(|v| v.parse::<usize>().ok()).any(|v| v < cap && v >= share);
    smaller_whole.then(|| format!("CHUNK={cap} and a smaller cap both take the whole {share}-element share in one chunk"))
}

/// Elements of one lane's (program and direction) share in a ring kernel, as `run::prepare`
/// cuts them for CPU code (`cpu`) or GPU code; `None` for other kernels.
pub(crate) fn ring_share(algorithm: &str, elems: usize, w: usize, cpu: bool) -> Option<usize> {
    let programs = crate::ring::ring_programs(elems, cpu && algorithm.starts_with("allreduce_ring"));
    Some(match algorithm {
        "allreduce_ring" => elems.div_ceil(w).div_ceil(programs),
        "allreduce_ring_bidir" | "reduce_scatter_bidir" => elems.div_ceil(w).div_ceil(programs).div_ceil(2),
        "allgather_bidir" => elems.div_ceil(programs).div_ceil(2),
        _ => return None,
    })
}

/// What the library runs without tuning, as a point of the space: the op's default kernel
/// (`allreduce` picks its shot by size) with its default (or shape-fitted) constexprs.
pub fn default_config(problem: &Problem, topo: Topology, target: Target) -> Result<Config, TuneError> {
    let algorithm = match problem.shape {
        Shape::Matmul(_) => find(&problem.op)?.info.name,
        Shape::Elems(e) => match problem.op.as_str() {
            "allreduce" => crate::allreduce_choice(topo, e * problem.dtype.size_bytes(), target != Target::Cpu),
            op => find(op)?.info.name,
        },
    };
    method_default(algorithm, problem, topo, target)
}

/// The point of the space that library kernel `algorithm` runs with its own defaults (a GEMM
/// family's fitted to the shape); an error for MSCCL algorithms, which have none.
pub fn method_default(algorithm: &str, problem: &Problem, topo: Topology, target: Target) -> Result<Config, TuneError> {
    let dtype = problem.dtype.name();
    let gpu = target != Target::Cpu;
    let c = match problem.shape {
        Shape::Matmul(s) => {
            let mut c = crate::shape_constexprs(algorithm, s, topo.world_size(), dtype);
            // On a GPU the default is what a launch runs: the shape's tiles fitted to the target.
            if gpu {
                crate::matmul::gpu_tiles(&mut c, algorithm, problem.dtype, target.name(), crate::matmul::rank_rows(algorithm, s.m, topo.world_size()))?;
            }
            c
        }
        Shape::Elems(_) if !gpu => crate::topology_constexprs(algorithm, dtype, target, topo)?,
        Shape::Elems(_) => crate::default_constexprs(algorithm, dtype)?,
    };
    let params = declared(algorithm)
        .iter()
        .filter(|p| gpu || !p.gpu_only)
        .map(|p| (p.name.to_string(), c.get(p.name).unwrap_or(p.values[0]).to_string()))
        .collect();
    Ok(Config { algorithm: algorithm.into(), params })
}
