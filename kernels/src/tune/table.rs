//! The size-range selection table of a collective, generated instead of hand-written:
//! `weft tune --sizes 1K..64M allreduce` tunes each size of the range (every 4x), merges
//! neighbouring sizes with the same winner into one range, and writes the table that
//! [`crate::msccl::prepare_selected`] reads through [`load`].

use super::search::{tune, Options, Progress};
use super::space::Config;
use super::measure::Runner;
use super::{cache, target_of, Problem, Shape, TuneError};
use crate::msccl::{MscclOptions, Selected};
use crate::KernelError;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use weft_compiler::msccl::{CollectiveKind, Registration, SelectionTable};
use weft_runtime::{DType, World};

/// One size range and the config that won it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    /// Smallest buffer size in bytes (inclusive).
    pub min_bytes: u64,
    /// Largest (inclusive); `None`: unbounded.
    pub max_bytes: Option<u64>,
    /// The winning config's id.
    pub config: String,
    /// Its time at the size that was tuned, in microseconds.
    pub us: f64,
}

/// A selection table file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableFile {
    /// Collective.
    pub op: String,
    /// Cache key fields other than the shape.
    pub key: String,
    /// Ranges in ascending order.
    pub ranges: Vec<Range>,
}

/// `64M` -> 67108864 (suffixes K, M, G are powers of 1024; a plain number is bytes).
pub fn parse_bytes(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()?.to_ascii_uppercase() {
        'K' => (&s[..s.len() - 1], 1u64 << 10),
        'M' => (&s[..s.len() - 1], 1 << 20),
        'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok()?.checked_mul(mult)
}

/// The sizes of `lo..hi` (`1K..64M`): `lo`, then every 4x, and `hi`.
pub fn sizes(spec: &str) -> Option<Vec<u64>> {
    let (lo, hi) = spec.split_once("..")?;
    let (lo, hi) = (parse_bytes(lo)?, parse_bytes(hi)?);
    if lo == 0 || hi < lo {
        return None;
    }
    let mut v: Vec<u64> = std::iter::successors(Some(lo), |&s| s.checked_mul(4).filter(|&n| n < hi)).collect();
    v.push(hi);
    v.dedup();
    Some(v)
}

/// The table's file for `op` on `world` at `dtype`.
fn path(world: &World, op: &str, dtype: DType) -> (PathBuf, String) {
    let t = world.topology();
    let key = format!("{} {} {}x{} {} {}", target_of(world).name(), world.transport(), t.nodes, t.local_size, dtype.name(), env!("CARGO_PKG_VERSION"));
    let h = &blake3::hash(key.as_bytes()).to_hex()[..16];
    (cache::tune_dir().join(format!("selection-{op}-{h}.json")), key)
}

/// Tunes `op` at every size of `sizes` (bytes per rank) and writes the merged table.
pub fn tune_sizes(world: &World, op: &str, dtype: DType, sizes: &[u64], opts: &Options, progress: &mut dyn FnMut(u64, Progress)) -> Result<(TableFile, PathBuf), TuneError> {
    let es = dtype.size_bytes() as u64;
    let mut ranges: Vec<Range> = vec![];
    let mut prev = 0u64;
    for &bytes in sizes {
        let problem = Problem { op: op.into(), shape: Shape::Elems((bytes / es).max(1) as usize), dtype };
        let out = tune(world, &problem, opts, &mut |p| progress(bytes, p))?;
        let us = out.ranked.iter().find(|(id, _)| *id == out.winner.id()).map_or(0.0, |(_, m)| m.us);
        match ranges.last_mut() {
            Some(r) if r.config == out.winner.id() => r.max_bytes = Some(bytes),
            _ => ranges.push(Range { min_bytes: if ranges.is_empty() { 0 } else { prev + 1 }, max_bytes: Some(bytes), config: out.winner.id(), us }),
        }
        prev = bytes;
    }
    if let Some(last) = ranges.last_mut() {
        last.max_bytes = None;
    }
    let (file, key) = path(world, op, dtype);
    let table = TableFile { op: op.into(), key, ranges };
    let io = |e: std::io::Error| TuneError::Cache { path: file.display().to_string(), why: e.to_string() };
    std::fs::create_dir_all(cache::tune_dir()).map_err(io)?;
    std::fs::write(&file, serde_json::to_string_pretty(&table).unwrap_or_default() + "\n").map_err(io)?;
    Ok((table, file))
}

/// The tuned selection table of `kind` on `world` at `dtype` (empty when none was written or
/// it does not parse: the library's kernels run).
pub fn load(world: &World, kind: CollectiveKind, dtype: DType) -> SelectionTable {
    let mut table = SelectionTable::new();
    let op = match kind {
        CollectiveKind::AllReduce => "allreduce",
        CollectiveKind::AllGather => "allgather",
        CollectiveKind::ReduceScatter => "reduce_scatter",
        CollectiveKind::Broadcast => "broadcast",
        _ => return table,
    };
    let file: Option<TableFile> = std::fs::read_to_string(path(world, op, dtype).0).ok().and_then(|t| serde_json::from_str(&t).ok());
    for r in file.map(|f| f.ranges).unwrap_or_default() {
        let reg = Registration { collective: kind, min_bytes: r.min_bytes, max_bytes: r.max_bytes, ranks: Some(world.n_ranks()), algorithm: r.config };
        let _ = table.push(reg);
    }
    table
}

/// Prepares a registration whose algorithm is a tuned config id (`None`: it is a plain
/// algorithm name or XML path, for the caller to resolve).
pub fn prepare_registered(world: &World, reg: &Registration, elems: usize, opts: &MscclOptions) -> Result<Option<Selected>, KernelError> {
    let Some(config) = Config::parse(&reg.algorithm).filter(|c| !c.params.is_empty()) else { return Ok(None) };
    let problem = Problem { op: String::new(), shape: Shape::Elems(elems), dtype: opts.dtype };
    Ok(Some(selected(Runner::prepare(world, &problem, &config)?, &config)?))
}

/// A prepared collective runner as what [`crate::msccl::prepare_selected`] returns.
pub fn selected(runner: Runner, config: &Config) -> Result<Selected, KernelError> {
    match runner {
        Runner::Msccl(p) => Ok(Selected::Msccl(p)),
        Runner::Library(run) => Ok(Selected::Library { kernel: crate::registry::find(&config.algorithm)?.info.name, run }),
        Runner::Matmul(_) => Err(KernelError::Unsupported { kernel: config.algorithm.clone(), what: "selection by buffer size (it is a GEMM)".into() }),
    }
}
