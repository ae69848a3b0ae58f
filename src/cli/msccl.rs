//! `weft msccl`: verify, compile and run MSCCL algorithms, built in, from MSCCL-IR XML or from
//! MSCCL++ JSON execution plans.

use clap::{Args, Subcommand};
use std::path::Path;
use weft::compiler::msccl::algorithms::{self, AlgoParams};
use weft::compiler::msccl::lower::{lower, LowerOptions};
use weft::compiler::msccl::{verify_ir, xml, MscclIr, Protocol};
use weft::compiler::pipeline::Options;
use weft::kernels::msccl::{dtype_scalar, run_msccl, MscclOptions};
use weft::runtime::{DType, LocalOptions, Topology, World};

/// Arguments of `weft msccl`.
#[derive(Args, Debug)]
pub struct MscclArgs {
    #[command(subcommand)]
    cmd: MscclCmd,
}

#[derive(Subcommand, Debug)]
enum MscclCmd {
    /// List the built-in algorithms.
    List,
    /// Check an algorithm symbolically against its collective (and for deadlocks).
    Verify(AlgoArgs),
    /// Lower an algorithm to one kernel and print a stage (or `--emit xml` for MSCCL-IR).
    Compile(CompileArgs),
    /// Run an algorithm on in-process ranks and check it against the collective's plain math.
    Run(RunArgs),
    /// Topologies for synthesis.
    #[command(subcommand)]
    Topo(super::msccl_synth::TopoCmd),
    /// Synthesize algorithms for a topology (writes MSCCL-IR XML).
    #[command(subcommand)]
    Synth(super::msccl_synth::SynthCmd),
    /// Lower bounds for a topology and collective.
    #[command(subcommand)]
    Analyze(super::msccl_synth::AnalyzeCmd),
    /// Distributed algorithms stitched from local ones (writes MSCCL-IR XML).
    #[command(subcommand)]
    Distribute(super::msccl_synth::DistributeCmd),
}

/// Which algorithm, and the parameters of a built-in one.
#[derive(Args, Debug)]
struct AlgoArgs {
    /// A built-in algorithm (see `weft msccl list`), a path to an MSCCL-IR XML file, or a path
    /// to an MSCCL++ execution plan (`.json`).
    algo: String,
    /// Ranks (built-in algorithms; an XML file fixes its own).
    #[arg(long, default_value_t = 8)]
    ranks: usize,
    /// Nodes the ranks are split over (hierarchical algorithms and the run's topology).
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Instances (built-in algorithms).
    #[arg(long, default_value_t = 1)]
    instances: usize,
    /// Protocol of a built-in algorithm: Simple, LL or LL128.
    #[arg(long, default_value = "Simple")]
    proto: String,
    /// Root of rooted collectives (the XML format does not record it).
    #[arg(long, default_value_t = 0)]
    root: usize,
    /// Width of the lowered kernel's elementwise loops (compile and run).
    #[arg(long, default_value_t = LowerOptions::default().block)]
    block: i64,
}

#[derive(Args, Debug)]
struct CompileArgs {
    #[command(flatten)]
    algo: AlgoArgs,
    /// Stage to print: xml, or a stage of the target (as `weft compile`: CPU tir, lowered,
    /// llvm-mlir, llvm, asm; NVIDIA tir, gpu, llvm, ptx, cubin; AMD tir, gpu, llvm, amdgcn, hsaco).
    #[arg(long, default_value = "tir")]
    emit: String,
    /// Element type: f32, f16, bf16, i32.
    #[arg(long, default_value = "f32")]
    dtype: String,
    /// Target: cpu, sm_80, sm_90a, sm_100a, gfx90a or gfx942.
    #[arg(long, default_value = "cpu")]
    target: String,
    /// Write the stage (a cubin / code object for binary stages) to this file.
    #[arg(short, long)]
    output: Option<std::path::PathBuf>,
}

#[derive(Args, Debug)]
struct RunArgs {
    #[command(flatten)]
    algo: AlgoArgs,
    /// Elements of each rank's input buffer.
    #[arg(long, default_value_t = 1 << 20)]
    elems: usize,
    /// Element type: f32, f16, bf16, i32.
    #[arg(long, default_value = "f32")]
    dtype: String,
    /// Timed launches after the verified one.
    #[arg(long, default_value_t = 5)]
    iters: usize,
    /// Bytes per FIFO slot (default: the protocol's); smaller slots pipeline more.
    #[arg(long)]
    slot_bytes: Option<usize>,
    /// Run the GPU code for this architecture (`sm_80`, `sm_90a`, `sm_100a`, `gfx90a`, `gfx942`) in the SIMT emulator.
    #[arg(long)]
    target: Option<String>,
    /// `local` (ranks as threads here) or `mpi` (this process is one rank under mpirun, which
    /// must start as many processes as the algorithm has ranks; --nodes emulates nodes).
    #[arg(long, default_value = "local")]
    transport: String,
}

/// Runs `weft msccl`.
pub fn msccl(a: MscclArgs) -> Result<(), String> {
    match a.cmd {
        MscclCmd::List => {
            for b in algorithms::BUILTINS {
                let nodes = if b.hierarchical { " (uses --nodes)" } else { "" };
                println!("{:<24} {:<14} {}{nodes}", b.name, b.collective.xml_name(), b.description);
            }
            Ok(())
        }
        MscclCmd::Verify(a) if super::msccl_plan::is_plan(&a.algo) => {
            super::msccl_plan::verify(&super::msccl_plan::load(&a.algo)?);
            Ok(())
        }
        MscclCmd::Verify(a) => {
            let ir = load(&a)?;
            let coll = ir.collective_with_root(a.root).map_err(|e| e.to_string())?;
            verify_ir(&ir, &coll).map_err(|e| format!("{}: {e}", ir.name))?;
            let tbs: usize = ir.gpus.iter().map(|g| g.tbs.len()).sum();
            let steps: usize = ir.gpus.iter().flat_map(|g| &g.tbs).map(|t| t.steps.len()).sum();
            println!(
                "{}: verified {} on {} ranks ({} protocol, {} channels, {tbs} thread blocks, {steps} steps): every output chunk holds its expected data, with no deadlock at {} FIFO slots",
                ir.name,
                ir.collective,
                ir.ngpus(),
                ir.protocol,
                ir.nchannels,
                ir.protocol.fifo_slots()
            );
            Ok(())
        }
        MscclCmd::Compile(c) if super::msccl_plan::is_plan(&c.algo.algo) && c.emit != "xml" => {
            let plan = super::msccl_plan::load(&c.algo.algo)?;
            super::msccl_plan::compile(&plan, parse_dtype(&c.dtype)?, c.algo.block, &c.target, &c.emit, c.output.as_deref())
        }
        MscclCmd::Compile(c) => {
            let ir = load(&c.algo)?;
            if c.emit == "xml" {
                print!("{}", xml::to_xml(&ir));
                return Ok(());
            }
            let dtype = parse_dtype(&c.dtype)?;
            let t = dtype_scalar(dtype).ok_or_else(|| format!("dtype {dtype} cannot be lowered"))?;
            let lowered = lower(&ir, &LowerOptions { dtype: t, block: c.algo.block }).map_err(|e| e.to_string())?;
            let target = super::compile::parse_target(&c.target)?;
            let out = weft::compiler::cache::run_cached(&lowered.kernel, target, Some(&c.emit), &Options::from_env()).map_err(|e| e.to_string())?;
            super::compile::write_output(out, target, c.output.as_deref())
        }
        MscclCmd::Run(r) => run(r),
        MscclCmd::Topo(c) => super::msccl_synth::topo(c),
        MscclCmd::Synth(c) => super::msccl_synth::synth(c),
        MscclCmd::Analyze(c) => super::msccl_synth::analyze(c),
        MscclCmd::Distribute(c) => super::msccl_synth::distribute(c),
    }
}

fn run(r: RunArgs) -> Result<(), String> {
    let dtype = parse_dtype(&r.dtype)?;
    let opts = MscclOptions { dtype, slot_bytes: r.slot_bytes, root: r.algo.root, block: r.algo.block };
    if super::msccl_plan::is_plan(&r.algo.algo) {
        let plan = super::msccl_plan::load(&r.algo.algo)?;
        let world = world_for(&r, plan.ngpus(), &plan.name)?;
        return super::msccl_plan::run(&world, &plan, r.elems, &opts, r.iters);
    }
    let ir = load(&r.algo)?;
    let ranks = ir.ngpus();
    let world = world_for(&r, ranks, &ir.name)?;
    let topology = world.topology();
    let res = run_msccl(&world, &ir, r.elems, &opts, r.iters).map_err(|e| e.to_string())?;
    let mut t = res.times.clone();
    t.sort();
    let median = t.get(t.len() / 2).map_or(0.0, |d| d.as_secs_f64());
    let g = res.geometry;
    let (verified, max_err) = world.agree_verdict(res.verified, res.max_err).map_err(|e| e.to_string())?;
    if super::run::printer(&world) {
        println!(
        "{} ranks={ranks} ({topology}) proto={} elems={} dtype={dtype}: {}  max_err={:.3e}  time={:.3} ms (median of {})  algbw={:.2} GB/s  chunk={} tile={} tiles={}",
        ir.name,
        ir.protocol,
        r.elems,
        if verified { "PASS" } else { "FAIL" },
        max_err,
        median * 1e3,
        t.len(),
        if median > 0.0 { res.alg_bytes as f64 / median / 1e9 } else { 0.0 },
        g.chunk_elems,
        g.tile_elems,
        g.tiles,
        );
    }
    for w in &res.warnings {
        eprintln!("weft: warning: {w}");
    }
    if !verified {
        return Err(format!("{}: result differs from the collective's plain math (max error {max_err:.3e})", ir.name));
    }
    Ok(())
}

/// The world `r` asks for, which must hold the algorithm's `ranks`.
fn world_for(r: &RunArgs, ranks: usize, name: &str) -> Result<World, String> {
    if r.algo.nodes == 0 || ranks % r.algo.nodes != 0 {
        return Err(format!("{ranks} ranks cannot be split over --nodes {}", r.algo.nodes));
    }
    let topology = Topology { nodes: r.algo.nodes, local_size: ranks / r.algo.nodes };
    let world = match r.transport.as_str() {
        "local" => {
            let emulate = r.target.as_deref().map(super::run::emulated_arch).transpose()?;
            World::local_with(LocalOptions { topology, emulate, ..LocalOptions::from_env() })
        }
        "mpi" => super::run::mpi_world(r.target.as_deref(), r.algo.nodes),
        t => return Err(format!("unknown transport `{t}` (local, mpi)")),
    }
    .map_err(|e| e.to_string())?;
    if world.topology() != topology {
        return Err(format!("{} needs {ranks} ranks ({topology}), but the {} world has {}", name, world.transport(), world.topology()));
    }
    Ok(world)
}

fn parse_dtype(s: &str) -> Result<DType, String> {
    DType::parse(s).filter(|d| *d != DType::I64).ok_or_else(|| format!("unknown dtype `{s}` (f32, f16, bf16, i32)"))
}

/// The MSCCL-IR of a built-in algorithm (built and verified) or of an XML file.
fn load(a: &AlgoArgs) -> Result<MscclIr, String> {
    let looks_like_file = a.algo.ends_with(".xml") || Path::new(&a.algo).is_file();
    if looks_like_file {
        let text = std::fs::read_to_string(&a.algo).map_err(|e| format!("{}: {e}", a.algo))?;
        return xml::from_xml(&text).map_err(|e| format!("{}: {e}", a.algo));
    }
    let protocol = Protocol::parse(&a.proto).ok_or_else(|| format!("unknown protocol `{}` (Simple, LL, LL128)", a.proto))?;
    let params = AlgoParams { ranks: a.ranks, nodes: a.nodes, instances: a.instances, protocol };
    let algo = algorithms::build(&a.algo, &params).map_err(|e| e.to_string())?;
    algo.to_ir().map_err(|e| format!("{}: {e}", a.algo))
}
