//! Timing one config as the whole operation: prepared once, launched on every rank (each
//! launch starts with the kernel's own synchronisation and ends when every rank is done),
//! warm-up launches first, then rounds of timed launches whose medians are MAX-reduced over
//! the ranks (the best round counts); whether to go on is decided from the agreed numbers only, so every rank runs
//! the same launches.

use super::agree::Agreement;
use super::space::Config;
use super::{Problem, Shape};
use crate::msccl::{prepare_msccl, MscclOptions, PreparedMsccl};
use crate::run::{prepare, Prepared};
use crate::{prepare_matmul, KernelError, PreparedMatmul};
use std::time::Duration;
use weft_compiler::msccl::algorithms::{self, AlgoParams};
use weft_runtime::World;

/// A config prepared on a world.
pub enum Runner {
    /// A library collective.
    Library(Box<Prepared>),
    /// A registered MSCCL algorithm.
    Msccl(Box<PreparedMsccl>),
    /// A GEMM-family kernel.
    Matmul(Box<PreparedMatmul>),
}

impl Runner {
    /// Compiles `config` for `problem` and allocates its buffers on `world`.
    pub fn prepare(world: &World, problem: &Problem, config: &Config) -> Result<Runner, KernelError> {
        let dtype = problem.dtype;
        match problem.shape {
            Shape::Matmul(s) => Ok(Runner::Matmul(Box::new(prepare_matmul(world, &config.algorithm, s, dtype, &config.constexprs(dtype.name()))?))),
            Shape::Elems(elems) => match config.msccl() {
                Some(alg) => {
                    let t = world.topology();
                    let params = AlgoParams::topology(t.nodes, t.local_size).instances(config.int("instances").unwrap_or(1) as usize).protocol(config.protocol());
                    let ir = algorithms::build(alg, &params)?.to_ir()?;
                    let opts = MscclOptions { dtype, block: config.int("block").unwrap_or(128), ..MscclOptions::default() };
                    Ok(Runner::Msccl(Box::new(prepare_msccl(world, &ir, elems, &opts)?)))
                }
                None => Ok(Runner::Library(Box::new(prepare(world, &config.algorithm, elems, dtype, &config.constexprs(dtype.name()))?))),
            },
        }
    }

    /// Launches once on every rank; this process's wall time.
    pub fn launch(&mut self) -> Result<Duration, KernelError> {
        match self {
            Runner::Library(p) => p.launch(),
            Runner::Msccl(p) => Ok(p.launch()?.elapsed),
            Runner::Matmul(p) => Ok(p.launch()?.elapsed),
        }
    }

    /// Launches on fresh inputs and checks every rank against the plain-math reference.
    pub fn verify(&mut self) -> Result<(bool, f64), KernelError> {
        match self {
            Runner::Library(p) => {
                p.seed(0x7e57)?;
                p.verify_after_launch()
            }
            Runner::Msccl(p) => p.verify_after_launch(0x7e57),
            Runner::Matmul(p) => {
                p.seed(0x7e57)?;
                p.launch()?;
                p.verify()
            }
        }
    }
}

/// How long to time each config.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Untimed launches first.
    pub warmup: usize,
    /// Timed launches per round.
    pub round: usize,
    /// Rounds at most.
    pub rounds: usize,
    /// Stop after a round once the agreed median times the launches so far exceed this.
    pub budget: Duration,
    /// Stop once the agreed median exceeds the best so far by this factor (it cannot win).
    pub give_up: f64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule { warmup: 2, round: 3, rounds: 3, budget: Duration::from_millis(1500), give_up: 1.15 }
    }
}

/// The agreed launch time of `runner` in seconds (per round the median, MAX-reduced over the
/// ranks; the best round), and how many timed launches it ran.
pub fn time(runner: &mut Runner, agree: &mut Agreement, s: &Schedule, best: Option<f64>) -> Result<(f64, usize), KernelError> {
    for _ in 0..s.warmup {
        runner.launch()?;
    }
    let mut agreed = f64::MAX;
    let mut runs = 0;
    for _ in 0..s.rounds.max(1) {
        let times = (0..s.round.max(1)).map(|_| Ok(runner.launch()?.as_secs_f64())).collect::<Result<Vec<f64>, KernelError>>()?;
        runs += times.len();
        // One process times all of its ranks together, so its own median stands for each. The
        // best round's agreed median is kept: on a machine shared with other work, a round
        // that other processes slowed down says nothing about the config.
        agreed = agreed.min(agree.max_f64(|_| median(&times))?);
        let spent = agreed * runs as f64;
        if best.is_some_and(|b| agreed > b * s.give_up) || spent > s.budget.as_secs_f64() {
            break;
        }
    }
    Ok((agreed, runs))
}

/// The median of `t` (the upper one of an even count).
fn median(t: &[f64]) -> f64 {
    let mut v = t.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}
