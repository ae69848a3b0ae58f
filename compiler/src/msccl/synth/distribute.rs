//! msccl-tools' `distribute alltoall-gather-scatter`: an AllToAll over `copies` nodes of a
//! local topology, stitched from one local Gather (root `g`) and one local Scatter (root `s`)
//! schedule. Every node gathers, for each destination node, the chunks bound there at `g`;
//! one transpose step sends them from `g` of the source node to `s` of the destination node
//! (the link the construction assumes between roots); every node scatters what arrived.
//! A node's own chunks take the same path, with a local `g -> s` hop when the roots differ.

use super::emit::{self, Synthesized};
use super::error::{Result, SynthError};
use super::problem::SynthCollective;
use super::search::{self, Outcome, Send, SolvedStep};
use super::strategy::{first_steps, lower_bound_steps};
use super::topo::{Topology, MAX_RANKS};

/// The fewest-steps schedule of a non-combining `coll` on `topo`, one chunk per slice.
fn least_schedule(topo: &Topology, coll: SynthCollective, budget: u64) -> Result<Vec<SolvedStep>> {
    let demand = coll.demand(topo.ranks(), 1)?;
    first_steps(topo, coll, lower_bound_steps(topo, coll)?.max(1), |steps| match search::solve(topo, &demand, steps, steps as u32, budget) {
        Outcome::Found(s) => Ok(Some(s)),
        Outcome::Impossible => Ok(None),
        Outcome::GaveUp => Err(SynthError::Budget(format!("{coll} on {} at {steps} steps", topo.name))),
    })
}

/// The distributed AllToAll on `copies` nodes of `local`, gathering at local rank
/// `gather_root` and scattering from local rank `scatter_root`.
pub fn alltoall_gather_scatter(local: &Topology, copies: usize, gather_root: usize, scatter_root: usize, budget: u64) -> Result<Synthesized> {
    let l = local.ranks();
    let n = copies * l;
    if copies == 0 || n > MAX_RANKS {
        return Err(SynthError::Topology(format!("{copies} copies of {} make {n} ranks (1..={MAX_RANKS} supported)", local.name)));
    }
    for (what, r) in [("gather", gather_root), ("scatter", scatter_root)] {
        if r >= l {
            return Err(SynthError::Collective(format!("{what} root {r} is out of range for {l} local ranks")));
        }
    }
    if gather_root != scatter_root && local.bw(gather_root, scatter_root) == 0 {
        return Err(SynthError::Topology(format!(
            "{}: no link from gather root {gather_root} to scatter root {scatter_root}, which a node's own chunks need",
            local.name
        )));
    }
    let gather = least_schedule(local, SynthCollective::Gather { root: gather_root }, budget)?;
    let scatter = least_schedule(local, SynthCollective::Scatter { root: scatter_root }, budget)?;
    let at = |node: usize, r: usize| node * l + r;
    // AllToAll chunk ids with one chunk per slice: `src * n + dst`.
    let id = |src: usize, dst: usize| src * n + dst;
    // Gather: a local chunk id is its origin; every chunk of that origin but its own slice follows it.
    let mut steps = lift(&gather, copies, l, |origin, d| id(origin, d));
    let mut transpose = vec![];
    for (a, b) in (0..copies).flat_map(|a| (0..copies).map(move |b| (a, b))) {
        let (src, dst) = (at(a, gather_root), at(b, scatter_root));
        if src == dst {
            continue;
        }
        for (u, v) in (0..l).flat_map(|u| (0..l).map(move |v| (u, v))).filter(|&(u, v)| a != b || u != v) {
            transpose.push(Send { chunk: id(at(a, u), at(b, v)), src, dst });
        }
    }
    if !transpose.is_empty() {
        steps.push(SolvedStep { rounds: (l * l) as u32, sends: transpose });
    }
    // Scatter: a local chunk id is its destination; every chunk bound there but its own follows it.
    steps.extend(lift(&scatter, copies, l, |dest, o| id(o, dest)));
    let name = format!("{}x{copies}", local.name);
    emit::build(SynthCollective::AllToAll, &name, n, 1, &steps, &[])
}

/// `sched` (a local schedule whose chunk ids are local ranks) run on every one of `copies`
/// nodes of `l` ranks, each send carrying the AllToAll chunks `chunk(rank, other)` for every
/// global rank `other` but `rank` itself, where `rank` is the send's chunk id made global.
fn lift(sched: &[SolvedStep], copies: usize, l: usize, chunk: impl Fn(usize, usize) -> usize) -> Vec<SolvedStep> {
    let n = copies * l;
    sched
        .iter()
        .map(|st| {
            let sends = (0..copies)
                .flat_map(|node| st.sends.iter().map(move |s| (node * l, *s)))
                .flat_map(|(base, s)| (0..n).filter(move |&o| o != base + s.chunk).map(move |o| (base, s, o)))
                .map(|(base, s, o)| Send { chunk: chunk(base + s.chunk, o), src: base + s.src, dst: base + s.dst })
                .collect();
            SolvedStep { rounds: st.rounds * n as u32, sends }
        })
        .collect()
}
