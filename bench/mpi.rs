//! `cargo bench --bench mpi`: the collectives and overlap benches on the `mpi` transport.
//! Run plainly, it starts itself under `mpirun` at 2 and 4 processes and as 2 nodes x 2
//! (`--allow-run-as-root --oversubscribe`); each process is one rank. Every row times weft's
//! kernel next to, in the same run on the same processes, Open MPI's own MPI_Allgather /
//! MPI_Allreduce / MPI_Reduce_scatter_block (collectives, 4 KiB to 64 MiB, NCCL's size
//! convention) or the non-overlapped baseline (overlap: the collective, then the GEMM). Times
//! are the slowest process's median over a fixed number of launches (criterion's adaptive
//! counts would differ between processes, and every launch is collective). Tables go to
//! `target/weft-bench/mpi_collectives.md` and `target/weft-bench/mpi_overlap.md`.
//! A subset: `cargo bench --bench mpi -- --sizes 4K,64K --layouts 1x2,2x2 --only allgather
//! --no-overlap` (layouts are nodes x processes per node; `--only` names collectives and overlap
//! kernels, `ag_gemm` / `gemm_rs`; `--iters N` launches per row, for a profiler; `--block N`
//! launches per timed block in the overlap rows, default 4, see `overlap`), or the same
//! words in `WEFT_BENCH_MPI_ARGS`. Collectives rows also give the MPI progress calls
//! (`MPI_Iprobe`, `MPI_Test`) per launch. Up to 64 KiB on one node the LL
//! AllGather (`allgather_ll`, weft's small-message kernel) has a row of its own next to the
//! push ring; on several nodes, up to 1 MiB, so do the put-only LL mesh AllGather and
//! AllReduce (`allgather_ll_mesh`, `allreduce_ll_mesh`), and the MSCCL hierarchical AllReduce;
//! on several nodes the library's hierarchical AllReduce (`allreduce_hier`) has a row at every size. Overlap rows give the CPU time of every process per launch beside the wall time
//! (ranks outnumber cores: a waiter that burns CPU slows the ranks that compute), and
//! `WEFT_BENCH_MPI_CX="REDUCE_ROWS=64,..."` overrides the fused kernel's constexprs,
//! `WEFT_BENCH_MPI_GEMM_CX` the baseline GEMM's (tiles for both sides alike: `BLOCK_M=32` in
//! both), `WEFT_BENCH_MPI_COLL_CX` the collectives rows' weft kernels' (`DIRECT=1` for the LL meshes).

// The criterion helper `timed` is unused here.
#[allow(dead_code)]
#[path = "support.rs"]
mod support;
#[path = "mpi_support.rs"]
mod mpi_support;

use std::fmt::Write as _;
use std::time::{Duration, Instant};
use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::Protocol;
use weft::kernels::msccl::{prepare_msccl, MscclOptions, PreparedMsccl};
use weft::kernels::{allgather_choice, allreduce_choice, default_constexprs, prepare, prepare_matmul, shape_constexprs, MatmulShape, Prepared};
use weft::runtime::mpi::{MpiCollective, MpiTransport};
use weft::runtime::{DType, MpiOptions, World};

const SIZES: [usize; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20];
/// (processes, nodes).
const LAYOUTS: [(usize, usize); 3] = [(2, 1), (4, 1), (4, 2)];
/// The largest size of the LL AllGather's row.
const LL_MAX: usize = 64 << 10;
/// The largest size of the LL mesh rows (several nodes).
const LL_MESH_MAX: usize = 1 << 20;
/// Overlap shapes (M, N, K) per kernel, chosen so that communication is a real share of the
/// work on CPU ranks: the JIT GEMM runs at a few GFLOP/s per rank while the transport moves
/// about a GB/s, so a LLaMA-like shape scaled down (256x344x128) spent 0.05-0.13 ms gathering
/// and 5-12 ms multiplying, and no overlap could show. AG-GEMM moves A (M x K) and computes
/// 2·M·N·K: its comm share grows as N shrinks, so N is one 64-wide tile column. GEMM-RS moves
/// the M x N partials (in the element type) and computes 2·M·N·K: its share grows as K
/// shrinks, so K is small.
const OVERLAP_SHAPES: [(&str, [(usize, usize, usize); 2]); 2] = [("ag_gemm", [(1024, 64, 256), (2048, 64, 128)]), ("gemm_rs", [(1024, 256, 32), (512, 512, 16)])];

/// What to run (the command line's selection; the processes get it through the environment).
struct Select {
    sizes: Vec<usize>,
    layouts: Vec<(usize, usize)>,
    only: Option<Vec<String>>,
    overlap: bool,
    /// Launches per collectives row (`--iters`; default by size).
    iters: Option<usize>,
    /// Consecutive launches of one side per timed block in the overlap rows (`--block`).
    block: usize,
}

const SELECT_ENV: &str = "WEFT_BENCH_MPI_ARGS";

impl Select {
    fn parse(args: &[String]) -> Select {
        let mut s = Select { sizes: SIZES.to_vec(), layouts: LAYOUTS.to_vec(), only: None, overlap: true, iters: None, block: 4 };
        let list = |v: Option<&String>| v.map(|v| v.split(',').map(str::to_string).collect::<Vec<_>>()).unwrap_or_default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--sizes" => s.sizes = list(it.next()).iter().map(|x| weft::runtime::heap::parse_size(x).expect("a size such as 4K")).collect(),
                "--layouts" => s.layouts = list(it.next()).iter().map(|x| mpi_support::parse_layout(x)).collect(),
                "--only" => s.only = Some(list(it.next())),
                "--no-overlap" => s.overlap = false,
                "--iters" => s.iters = it.next().and_then(|x| x.parse().ok()),
                "--block" => s.block = it.next().and_then(|x| x.parse().ok()).unwrap_or(1).max(1),
                _ => {} // cargo bench's own flags (--bench)
            }
        }
        s
    }

    fn wants(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.iter().any(|x| x == name))
    }
}

fn main() {
    if mpi_support::is_rank() {
        return child();
    }
    // The selection from the command line, else from the environment (`WEFT_BENCH_MPI_ARGS="--only
    // allgather --layouts 2x2" cargo bench --bench mpi`).
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Ok(env) = std::env::var(SELECT_ENV) {
        args.extend(env.split_whitespace().map(str::to_string));
    }
    let select = Select::parse(&args);
    let (mut coll, mut over) = (header_coll(), header_over());
    for (np, nodes, ok, text) in mpi_support::run_layouts(&select.layouts, SELECT_ENV, &args) {
        if !ok {
            // Keep the rows it printed; the table says which layout stopped.
            let _ = writeln!(coll, "| (mpirun -np {np}, {nodes} nodes, stopped: see stderr) | | | | | | | | |");
        }
        for l in text.lines() {
            if let Some(row) = l.strip_prefix("COLL ") {
                let _ = writeln!(coll, "{row}");
            } else if let Some(row) = l.strip_prefix("OVER ") {
                let _ = writeln!(over, "{row}");
            }
        }
    }
    support::write_summary("mpi_collectives.md", &coll);
    if select.overlap {
        support::write_summary("mpi_overlap.md", &over);
    }
}

fn header_coll() -> String {
    "| collective | topology | size | weft µs | Open MPI µs | weft / MPI | weft GB/s | MPI progress calls / launch | load |\n|---|---|---|---|---|---|---|---|---|\n".into()
}

fn header_over() -> String {
    "| kernel | topology | M x N x K | comm ms | gemm ms | baseline ms | fused ms | speedup | CPU ms / launch (all processes), baseline / fused | load |\n|---|---|---|---|---|---|---|---|---|---|\n".into()
}

/// Launches a fixed number of times (a count every process agrees on); the slowest process's
/// median launch (a mean on a loaded, oversubscribed machine is mostly its worst time slices).
fn timed(t: &MpiTransport, iters: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..iters)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    let mine = times[times.len() / 2];
    Duration::from_nanos(t.agree_max("timing", &[mine.as_nanos() as u64]).expect("agree")[0])
}

fn child() {
    let args: Vec<String> = std::env::var(SELECT_ENV).unwrap_or_default().split_whitespace().map(str::to_string).collect();
    let select = Select::parse(&args);
    let t = weft::runtime::mpi::open(MpiOptions::from_env()).expect("mpi world");
    let world = World::with_transport(t.clone());
    let topo = world.topology();
    let print = world.host_ranks().start == 0;
    let names = [("allgather", MpiCollective::Allgather), ("allgather_ll", MpiCollective::Allgather), ("allgather_ll_mesh", MpiCollective::Allgather), ("allreduce", MpiCollective::Allreduce), ("allreduce_ll_mesh", MpiCollective::Allreduce), ("allreduce_hier", MpiCollective::Allreduce), ("allreduce_msccl", MpiCollective::Allreduce), ("reduce_scatter", MpiCollective::ReduceScatterBlock)];
    for (name, reference) in names {
        // The MSCCL hierarchical AllReduce and the put-only LL meshes are second weft rows on
        // several nodes only; the LL AllGather stores into peers' memory, which only a node has.
        let several = matches!(name, "allreduce_msccl" | "allgather_ll_mesh" | "allreduce_ll_mesh" | "allreduce_hier");
        if !select.wants(name) || (several && topo.nodes == 1) || (name == "allgather_ll" && topo.nodes > 1) {
            continue;
        }
        for &bytes in &select.sizes {
            // The LL AllGather is weft's small-message kernel (one hop, flag-tagged words at
            // twice the bytes): a second weft row up to 64 KiB.
            if (name == "allgather_ll" && bytes > LL_MAX) || (name.ends_with("_ll_mesh") && bytes > LL_MESH_MAX) {
                continue;
            }
            // Enough launches for a stable median, few at the sizes that take milliseconds.
            let iters = select.iters.unwrap_or(((32 << 20) / bytes).clamp(3, 200));
            let (label, mut c) = match Coll::prepare(&world, name, bytes) {
                Ok(c) => c,
                Err(e) => {
                    if print {
                        println!("COLL | {name} | {topo} | {bytes} | {} | | | | | |", e.replace('|', "/"));
                    }
                    continue;
                }
            };
            let (ok, err) = c.verify().expect("verify");
            let (ok, err) = world.agree_verdict(ok, err).expect("agree");
            assert!(ok, "{label} {topo} {bytes}: wrong result (max err {err})");
            let calls = t.peers().progress_calls();
            let w = timed(&t, iters, || c.launch());
            // The most any process made per launch (timing's own host step included).
            let calls = t.agree_max("progress calls", &[t.peers().progress_calls() - calls]).expect("agree")[0] as f64 / (iters + 1) as f64;
            let m = t.peers().time_mpi_collective(reference, bytes, iters).expect("MPI collective");
            let us = |d: Duration| d.as_secs_f64() * 1e6;
            if print {
                println!("COLL | {label} | {topo} | {bytes} | {:.1} | {:.1} | {:.2}x | {:.2} | {calls:.1} | {} |", us(w), us(m), w.as_secs_f64() / m.as_secs_f64(), c.bus_bytes() as f64 / w.as_secs_f64() / 1e9, support::load());
            }
        }
    }
    if select.overlap {
        overlap(&t, &world, &select, print);
    }
    weft::runtime::mpi::finalize().expect("finalize");
}

/// weft's side of a collectives row: the library kernel (AllReduce across nodes: the ring), or
/// on several nodes also the MSCCL hierarchical AllReduce compiled by weft (intra-node
/// reduce-scatter, inter-node exchange, intra-node gather).
enum Coll {
    Lib(Prepared),
    /// With its bus bytes per launch.
    Msccl(Box<PreparedMsccl>, usize),
}

impl Coll {
    /// The row's label and the prepared kernel, or why it cannot run (one line).
    fn prepare(world: &World, name: &str, bytes: usize) -> Result<(String, Coll), String> {
        let (topo, ranks) = (world.topology(), world.n_ranks());
        if name == "allreduce_msccl" {
            let params = AlgoParams { ranks, nodes: topo.nodes, instances: 1, protocol: Protocol::Simple };
            let ir = algorithms::build("hierarchical_allreduce", &params).and_then(|a| a.to_ir()).map_err(|e| e.to_string())?;
            let p = prepare_msccl(world, &ir, bytes / 4, &MscclOptions::default()).map_err(|e| e.to_string())?;
            let bus = bytes * 2 * (ranks - 1) / ranks;
            return Ok(("allreduce (msccl hierarchical)".into(), Coll::Msccl(Box::new(p), bus)));
        }
        let per_rank = if name.starts_with("allgather") { bytes / ranks } else { bytes };
        let cx = overridden(default_constexprs(name, "f32").map_err(|e| e.to_string())?, "WEFT_BENCH_MPI_COLL_CX");
        let p = prepare(world, name, per_rank / 4, DType::F32, &cx).map_err(|e| e.to_string())?;
        let label = match name {
            // The library's choice across nodes: the row says which kernel ran.
            "allreduce" if topo.nodes > 1 => format!("allreduce ({})", allreduce_choice(topo, bytes, false).trim_start_matches("allreduce_")),
            "allgather" if topo.nodes > 1 => format!("allgather ({})", if allgather_choice(topo, bytes, false, true) == "allgather" { "ring" } else { "ll_mesh" }),
            "allgather_ll" => "allgather (LL)".into(),
            "allgather_ll_mesh" => "allgather (LL mesh)".into(),
            "allreduce_ll_mesh" => "allreduce (LL mesh)".into(),
            "allreduce_hier" => "allreduce (hier)".into(),
            _ => name.into(),
        };
        Ok((label, Coll::Lib(p)))
    }

    /// Launches once and checks this process's ranks against the plain math.
    fn verify(&mut self) -> Result<(bool, f64), String> {
        match self {
            Coll::Lib(p) => p.verify_after_launch().map_err(|e| e.to_string()),
            Coll::Msccl(p, _) => p.verify_after_launch(7).map_err(|e| e.to_string()),
        }
    }

    fn launch(&mut self) {
        match self {
            Coll::Lib(p) => drop(p.launch().expect("launch")),
            Coll::Msccl(p, _) => drop(p.launch().expect("launch")),
        }
    }

    /// NCCL's bus bytes of one launch.
    fn bus_bytes(&self) -> usize {
        match self {
            Coll::Lib(p) => p.bus_bytes,
            Coll::Msccl(_, bus) => *bus,
        }
    }
}

fn overlap(t: &MpiTransport, world: &World, select: &Select, print: bool) {
    let topo = world.topology();
    let w = world.n_ranks();
    let dtype = DType::BF16;
    for (kernel, shapes) in OVERLAP_SHAPES {
        if !select.wants(kernel) {
            continue;
        }
        for (m, n, k) in shapes {
            let shape = MatmulShape { m, n, k };
            let cx = overridden(shape_constexprs(kernel, shape, w, dtype.name()), "WEFT_BENCH_MPI_CX");
            let mut fused = prepare_matmul(world, kernel, shape, dtype, &cx).expect("prepares");
            fused.launch().expect("launch");
            let (ok, err) = fused.verify().expect("verify");
            let (ok, err) = world.agree_verdict(ok, err).expect("agree");
            assert!(ok, "{kernel} {topo} {shape:?}: wrong result (max err {err})");
            let (coll, elems) = if kernel == "ag_gemm" { ("allgather", m.div_ceil(w) * k) } else { ("reduce_scatter", m * n) };
            let gcx = overridden(shape_constexprs("gemm", shape, w, dtype.name()), "WEFT_BENCH_MPI_GEMM_CX");
            let mut gemm = prepare_matmul(world, "gemm", shape, dtype, &gcx).expect("gemm prepares");
            let mut comm = prepare(world, coll, elems, dtype, &default_constexprs(coll, dtype.name()).expect("known")).expect("collective prepares");
            let iters = select.iters.unwrap_or(11);
            let t_comm = timed(t, iters, || {
                comm.launch().expect("launch");
            });
            let t_gemm = timed(t, iters, || {
                gemm.launch().expect("launch");
            });
            // Baseline and fused alternate, so that both see the same load on a shared machine,
            // in blocks of `--block` launches timed whole (per launch: the block's mean). A
            // process's launch lasts until the closing step lets it go, and with two processes
            // per core the one released first runs its next launch until that blocks: a
            // baseline's GEMM never does (~0.3 ms), a fused kernel within a tile. Timed one
            // launch at a time, each side then carried the other's wait for that core, the fused
            // one far more (gemm_rs 1x4, load ~10, six runs each: 1.00x median, 0.87-1.22, where
            // blocks of 4 gave 1.16x, 1.08-1.27); a block carries it once.
            // CPU time too: on oversubscribed cores a wait that burns its core slows the ranks
            // that compute, and only this shows it.
            let block = select.block;
            let (mut base, mut fused_ms, mut cpu) = (vec![], vec![], [0f64; 2]);
            for _ in 0..iters {
                let c0 = cpu_ms();
                base.push(support::ms(&mut || (0..block).for_each(|_| support::launch_baseline(kernel, &mut comm, &mut gemm))) / block as f64);
                let c1 = cpu_ms();
                fused_ms.push(support::ms(&mut || (0..block).for_each(|_| drop(fused.launch().expect("launch")))) / block as f64);
                cpu[0] += c1 - c0;
                cpu[1] += cpu_ms() - c1;
            }
            let cpu = mpi_support::sum_all(t, world, &cpu.map(|c| c / (iters * block) as f64));
            let slowest = |v: Vec<f64>| Duration::from_nanos(t.agree_max("timing", &[(support::median(v) * 1e6) as u64]).expect("agree")[0]);
            let (t_base, t_fused) = (slowest(base), slowest(fused_ms));
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            if print {
                println!(
                    "OVER | {kernel} | {topo} | {m}x{n}x{k} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2}x | {:.2} / {:.2} | {} |",
                    ms(t_comm),
                    ms(t_gemm),
                    ms(t_base),
                    ms(t_fused),
                    t_base.as_secs_f64() / t_fused.as_secs_f64(),
                    cpu[0],
                    cpu[1],
                    support::load()
                );
            }
        }
    }
}

/// `cx` with the `K=V,...` pairs of env var `var` set on it (A/B of a kernel's constexprs).
fn overridden(mut cx: weft::compiler::dsl::Constexprs, var: &str) -> weft::compiler::dsl::Constexprs {
    for kv in std::env::var(var).unwrap_or_default().split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').expect("K=V");
        cx.set(k, v);
    }
    cx
}

/// This process's CPU time so far (every thread, user and system), in milliseconds.
fn cpu_ms() -> f64 {
    support::process_cpu() * 1e3
}
