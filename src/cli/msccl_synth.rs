//! `weft msccl topo|synth|analyze`: topologies, algorithm synthesis and lower bounds.

use clap::{Args, Subcommand};
use std::path::PathBuf;
use weft::compiler::msccl::synth::{self, SynthCollective, Synthesized, Topology};
use weft::compiler::msccl::xml;

/// `weft msccl topo`.
#[derive(Subcommand, Debug)]
pub enum TopoCmd {
    /// Print a topology's link matrix: ring:N, fc:N, dgx1, hier:NxL[:INTRA:INTER], or a JSON file.
    Show {
        /// The topology.
        topo: String,
    },
}

/// Which topology and collective.
#[derive(Args, Debug)]
pub struct Target {
    /// ring:N, fc:N, dgx1, hier:NODESxLOCAL[:INTRA:INTER], or a JSON file
    /// (`{"name": .., "links": [[..], ..]}`, links[src][dst] = chunks per round).
    #[arg(long)]
    topo: String,
    /// allgather, gather, scatter, broadcast, alltoall, reducescatter or allreduce.
    #[arg(long)]
    coll: String,
    /// Root of gather, scatter and broadcast.
    #[arg(long, default_value_t = 0)]
    root: usize,
}

impl Target {
    fn parse(&self) -> Result<(Topology, SynthCollective), String> {
        let t = Topology::parse(&self.topo).map_err(|e| e.to_string())?;
        Ok((t, SynthCollective::parse(&self.coll, self.root).map_err(|e| e.to_string())?))
    }
}

/// Options every synthesis strategy takes.
#[derive(Args, Debug)]
pub struct SynthOpts {
    #[command(flatten)]
    target: Target,
    /// Directory the algorithms' MSCCL-IR XML files are written to.
    #[arg(short, long, default_value = ".")]
    out: PathBuf,
    /// Search nodes an instance may explore before giving up.
    #[arg(long, default_value_t = synth::DEFAULT_BUDGET)]
    budget: u64,
}

/// `weft msccl synth`.
#[derive(Subcommand, Debug)]
pub enum SynthCmd {
    /// One instance: exactly --steps steps, at most --rounds rounds, --chunks chunks per slice.
    Instance {
        #[command(flatten)]
        opts: SynthOpts,
        /// Steps.
        #[arg(long)]
        steps: usize,
        /// Rounds (default: steps).
        #[arg(long)]
        rounds: Option<u32>,
        /// Chunks per slice.
        #[arg(long, default_value_t = 1)]
        chunks: usize,
    },
    /// The fewest steps.
    LeastSteps(SynthOpts),
    /// The Pareto frontier of steps against rounds per chunk.
    ParetoOptimal {
        #[command(flatten)]
        opts: SynthOpts,
        /// Most chunks per slice to try.
        #[arg(long, default_value_t = 8)]
        max_chunks: usize,
    },
}

/// `weft msccl analyze`.
#[derive(Subcommand, Debug)]
pub enum AnalyzeCmd {
    /// Lower bound on rounds per chunk (inverse bandwidth over every cut) and on steps.
    Rounds(Target),
}

/// `weft msccl distribute`.
#[derive(Subcommand, Debug)]
pub enum DistributeCmd {
    /// AllToAll over --copies nodes of a local topology: a local Gather to --gather-root, one
    /// transpose step between roots of different nodes, a local Scatter from --scatter-root.
    Alltoall {
        /// The local (one node's) topology.
        #[arg(long)]
        topo: String,
        /// Nodes.
        #[arg(long)]
        copies: usize,
        /// Local rank the Gather collects at.
        #[arg(long, default_value_t = 0)]
        gather_root: usize,
        /// Local rank the Scatter sends from.
        #[arg(long, default_value_t = 0)]
        scatter_root: usize,
        /// Directory the algorithm's MSCCL-IR XML is written to.
        #[arg(short, long, default_value = ".")]
        out: PathBuf,
        /// Search nodes each local schedule may explore before giving up.
        #[arg(long, default_value_t = synth::DEFAULT_BUDGET)]
        budget: u64,
    },
}

/// Runs `weft msccl distribute`.
pub fn distribute(cmd: DistributeCmd) -> Result<(), String> {
    let DistributeCmd::Alltoall { topo, copies, gather_root, scatter_root, out, budget } = cmd;
    let local = Topology::parse(&topo).map_err(|e| e.to_string())?;
    let a = synth::alltoall_gather_scatter(&local, copies, gather_root, scatter_root, budget).map_err(|e| e.to_string())?;
    write(&a, &out)
}

/// Runs `weft msccl topo`.
pub fn topo(cmd: TopoCmd) -> Result<(), String> {
    let TopoCmd::Show { topo } = cmd;
    println!("{}", Topology::parse(&topo).map_err(|e| e.to_string())?);
    Ok(())
}

/// Runs `weft msccl analyze`.
pub fn analyze(cmd: AnalyzeCmd) -> Result<(), String> {
    let AnalyzeCmd::Rounds(t) = cmd;
    let (topo, coll) = t.parse()?;
    let rounds = synth::lower_bound_rounds(&topo, coll).map_err(|e| e.to_string())?;
    let steps = synth::lower_bound_steps(&topo, coll).map_err(|e| e.to_string())?;
    println!("{coll} (n={}) algorithms need at least {rounds} rounds per chunk and {steps} steps in {}.", topo.ranks(), topo.name);
    Ok(())
}

/// Runs `weft msccl synth`.
pub fn synth(cmd: SynthCmd) -> Result<(), String> {
    let start = std::time::Instant::now();
    let mut log = |l: String| println!("{l}");
    let (algos, out) = match cmd {
        SynthCmd::Instance { opts, steps, rounds, chunks } => {
            let (topo, coll) = opts.target.parse()?;
            let r = rounds.unwrap_or(steps as u32);
            let a = synth::instance(&topo, coll, steps, r, chunks, opts.budget).map_err(|e| e.to_string())?;
            let a = a.ok_or_else(|| format!("{coll} on {}: no algorithm with steps={steps} rounds={r} chunks={chunks}", topo.name))?;
            (vec![a], opts.out)
        }
        SynthCmd::LeastSteps(opts) => {
            let (topo, coll) = opts.target.parse()?;
            (vec![synth::least_steps(&topo, coll, opts.budget, &mut log).map_err(|e| e.to_string())?], opts.out)
        }
        SynthCmd::ParetoOptimal { opts, max_chunks } => {
            let (topo, coll) = opts.target.parse()?;
            (synth::pareto_optimal(&topo, coll, max_chunks, opts.budget, &mut log).map_err(|e| e.to_string())?, opts.out)
        }
    };
    println!("synthesis took {:.3}s", start.elapsed().as_secs_f64());
    for a in &algos {
        write(a, &out)?;
    }
    Ok(())
}

/// Schedules (and verifies) an algorithm and writes its MSCCL-IR XML into `dir`.
fn write(a: &Synthesized, dir: &std::path::Path) -> Result<(), String> {
    let ir = a.to_ir().map_err(|e| format!("{}: {e}", a.name))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{}.xml", a.name));
    std::fs::write(&path, xml::to_xml(&ir)).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("steps={} rounds={} chunks={}: wrote {}", a.steps, a.rounds, a.chunks, path.display());
    Ok(())
}
