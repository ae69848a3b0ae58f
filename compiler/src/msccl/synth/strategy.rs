//! msccl-tools' strategies on top of the instance solver: one instance, least steps, and the
//! Pareto frontier of steps against rounds per chunk; plus the two lower bounds they start
//! from (steps: hop distance; rounds per chunk: the inverse-bandwidth cut bound).

use std::collections::HashMap;

use super::emit::{self, Synthesized};
use super::error::{Result, SynthError};
use super::problem::{ChunkDemand, SynthCollective};
use super::search::{self, Outcome, SolvedStep};
use super::topo::Topology;

/// Search nodes one instance may explore before giving up.
pub const DEFAULT_BUDGET: u64 = 200_000;

/// A non-negative fraction in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: u64,
    /// Denominator (at least 1).
    pub den: u64,
}

impl Ratio {
    /// `num / den` reduced.
    pub fn new(num: u64, den: u64) -> Ratio {
        let g = gcd(num, den).max(1);
        Ratio { num: num / g, den: den / g }
    }

    /// Smallest integer at least `self * k`.
    pub fn ceil_times(self, k: u64) -> u64 {
        (self.num * k).div_ceil(self.den)
    }

    fn lt(self, o: Ratio) -> bool {
        (self.num as u128) * (o.den as u128) < (o.num as u128) * (self.den as u128)
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.den == 1 { write!(f, "{}", self.num) } else { write!(f, "{}/{}", self.num, self.den) }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The topology the non-combining problem runs on (reversed for combining collectives).
fn dual_topology(topo: &Topology, coll: SynthCollective) -> Topology {
    if coll.is_combining() { topo.reversed() } else { topo.clone() }
}

/// Fewest steps any algorithm needs: the farthest hop distance a chunk must travel.
pub fn lower_bound_steps(topo: &Topology, coll: SynthCollective) -> Result<usize> {
    let t = dual_topology(topo, coll);
    let dist = t.distances();
    let mut worst = 0;
    for c in coll.demand(t.ranks(), 1)? {
        for v in (0..t.ranks()).filter(|v| c.post >> v & 1 == 1) {
            let d = (0..t.ranks()).filter(|u| c.pre >> u & 1 == 1).map(|u| dist[u][v]).min().unwrap_or(usize::MAX);
            if d == usize::MAX {
                return Err(SynthError::Unreachable { coll: coll.to_string(), topo: t.name.clone(), rank: v });
            }
            worst = worst.max(d);
        }
    }
    Ok(worst)
}

/// Fewest rounds per chunk any algorithm needs: over every set X of ranks (every subset up to
/// 16 ranks, single ranks beyond), the chunks that must enter X divided by X's in-bandwidth.
/// This is the cut relaxation of msccl-tools' multi-commodity flow bound (never above it).
pub fn lower_bound_rounds(topo: &Topology, coll: SynthCollective) -> Result<Ratio> {
    let t = dual_topology(topo, coll);
    let n = t.ranks();
    let demand = coll.demand(n, 1)?;
    lower_bound_steps(topo, coll)?;
    let sets: Box<dyn Iterator<Item = u64>> =
        if n <= 16 { Box::new(1..(1u64 << n) - 1) } else { Box::new((0..n).map(|v| 1u64 << v)) };
    let mut best = Ratio::new(0, 1);
    for x in sets {
        let need = demand.iter().filter(|c| c.post & x != 0 && c.pre & x == 0).count() as u64;
        let cap: u64 = t.edges().iter().filter(|&&(s, d, _)| x >> s & 1 == 0 && x >> d & 1 == 1).map(|&(_, _, b)| u64::from(b)).sum();
        if need > 0 && cap > 0 && best.lt(Ratio::new(need, cap)) {
            best = Ratio::new(need, cap);
        }
    }
    Ok(best)
}

/// Solves one instance of the non-combining problem (on the dual topology if combining).
fn solve_nc(t: &Topology, demand: &[ChunkDemand], steps: usize, rounds: u32, budget: u64) -> Outcome {
    search::solve(t, demand, steps, rounds, budget)
}

/// Synthesizes `coll` in exactly `steps` steps and at most `rounds` rounds with `chunks` chunks
/// per slice; `Ok(None)`: no such algorithm exists. AllReduce counts its ReduceScatter and its
/// AllGather each in `steps` and `rounds` (the whole algorithm takes twice as many).
pub fn instance(topo: &Topology, coll: SynthCollective, steps: usize, rounds: u32, chunks: usize, budget: u64) -> Result<Option<Synthesized>> {
    if steps == 0 || (rounds as usize) < steps {
        return Err(SynthError::Instance(format!("rounds ({rounds}) must be at least steps ({steps}), and steps at least 1")));
    }
    let n = topo.ranks();
    let demand = coll.demand(n, chunks)?;
    // No cut may need more than its in-bandwidth over all rounds (cheaper than a search).
    if (rounds as u64) < lower_bound_rounds(topo, coll)?.ceil_times(chunks as u64) {
        return Ok(None);
    }
    let run = |t: &Topology| match solve_nc(t, &demand, steps, rounds, budget) {
        Outcome::Found(s) => Ok(Some(s)),
        Outcome::Impossible => Ok(None),
        Outcome::GaveUp => Err(SynthError::Budget(format!("{coll} on {} steps={steps} rounds={rounds} chunks={chunks}", topo.name))),
    };
    let (forward, dual): (Vec<SolvedStep>, Vec<SolvedStep>) = match coll {
        SynthCollective::ReduceScatter => match run(&topo.reversed())? {
            Some(d) => (Vec::new(), d),
            None => return Ok(None),
        },
        SynthCollective::AllReduce => {
            let Some(d) = run(&topo.reversed())? else { return Ok(None) };
            let Some(f) = run(topo)? else { return Ok(None) };
            (f, d)
        }
        _ => match run(topo)? {
            Some(f) => (f, Vec::new()),
            None => return Ok(None),
        },
    };
    emit::build(coll, &topo.name, n, chunks, &forward, &dual).map(Some)
}

/// The fewest-steps algorithm (rounds = steps, one chunk per slice), counting up from the
/// steps lower bound; progress lines go to `log`.
pub fn least_steps(topo: &Topology, coll: SynthCollective, budget: u64, log: &mut dyn FnMut(String)) -> Result<Synthesized> {
    let lb = lower_bound_steps(topo, coll)?.max(1);
    log(format!("Algorithms need at least {lb} steps."));
    first_steps(topo, coll, lb, |steps| logged(topo, coll, steps, steps as u32, 1, budget, log))
}

/// The first result of `try_steps` counting up from `lb` steps, within twice the ranks beyond.
pub(super) fn first_steps<T>(topo: &Topology, coll: SynthCollective, lb: usize, mut try_steps: impl FnMut(usize) -> Result<Option<T>>) -> Result<T> {
    for steps in lb..lb + 2 * topo.ranks() {
        if let Some(s) = try_steps(steps)? {
            return Ok(s);
        }
    }
    Err(SynthError::Budget(format!("{coll} on {}: no algorithm up to {} steps", topo.name, lb + 2 * topo.ranks())))
}

fn logged(topo: &Topology, coll: SynthCollective, steps: usize, rounds: u32, chunks: usize, budget: u64, log: &mut dyn FnMut(String)) -> Result<Option<Synthesized>> {
    let start = std::time::Instant::now();
    let r = instance(topo, coll, steps, rounds, chunks, budget);
    let what = match &r {
        Ok(Some(_)) => "synthesized!",
        Ok(None) => "unsatisfiable.",
        Err(SynthError::Budget(_)) => "gave up (budget).",
        Err(_) => "failed.",
    };
    log(format!("Solving instance steps={steps},rounds={rounds},chunks={chunks}... {what} ({:.3}s)", start.elapsed().as_secs_f64()));
    match r {
        Err(SynthError::Budget(_)) => Ok(None),
        r => r,
    }
}

/// The Pareto frontier of steps against rounds per chunk, as msccl-tools' `pareto-optimal`
/// searches it (assuming monotonic feasibility: once S steps fail at rounds-per-chunk q they
/// are not tried below q), up to `max_chunks` chunks per slice.
pub fn pareto_optimal(topo: &Topology, coll: SynthCollective, max_chunks: usize, budget: u64, log: &mut dyn FnMut(String)) -> Result<Vec<Synthesized>> {
    let steps_lb = lower_bound_steps(topo, coll)?.max(1);
    log(format!("Algorithms need at least {steps_lb} steps."));
    let rpc_lb = lower_bound_rounds(topo, coll)?;
    log(format!("Algorithms need at least {rpc_lb} rounds per chunk."));
    let mut step_rpc_lb: HashMap<usize, Ratio> = HashMap::new();
    let mut found_all: Vec<Synthesized> = Vec::new();
    for chunks in 1..=max_chunks {
        let mut rounds = rpc_lb.ceil_times(chunks as u64).max(steps_lb as u64) as u32;
        let mut rpc = Ratio::new(rounds as u64, chunks as u64);
        let mut found = false;
        while !found && rounds as usize <= steps_lb + 4 * chunks * topo.ranks() {
            rpc = Ratio::new(rounds as u64, chunks as u64);
            if gcd(rounds as u64, chunks as u64) == 1 {
                for steps in steps_lb..=rounds as usize {
                    if step_rpc_lb.get(&steps).is_some_and(|lb| rpc.lt(*lb)) {
                        continue;
                    }
                    if let Some(s) = logged(topo, coll, steps, rounds, chunks, budget, log)? {
                        found_all.push(s);
                        found = true;
                        break;
                    }
                    step_rpc_lb.insert(steps, rpc);
                    log(format!("Assuming {steps} step algorithms need at least {rpc} rounds per chunk."));
                }
            }
            rounds += 1;
        }
        if found && !rpc_lb.lt(rpc) {
            log("Bandwidth optimal algorithm found!".into());
            break;
        }
    }
    let frontier = prune(found_all);
    log(format!("Found {} Pareto optimal algorithms.", frontier.len()));
    Ok(frontier)
}

/// Keeps the algorithms no other beats in both steps and rounds per chunk.
fn prune(all: Vec<Synthesized>) -> Vec<Synthesized> {
    let rpc = |a: &Synthesized| Ratio::new(u64::from(a.rounds), a.chunks as u64);
    let dominated = |a: &Synthesized| {
        all.iter().any(|o| {
            let (sa, so, ra, ro) = (a.steps, o.steps, rpc(a), rpc(o));
            let no_worse = so <= sa && !ra.lt(ro);
            let better = so < sa || ro.lt(ra);
            no_worse && better
        })
    };
    let keep: Vec<bool> = all.iter().map(|a| !dominated(a)).collect();
    all.into_iter().zip(keep).filter_map(|(a, k)| k.then_some(a)).collect()
}
