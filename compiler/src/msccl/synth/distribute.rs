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
use super::strategy::lower_bound_steps;
use super::topo::{Topology, MAX_RANKS};

/// The fewest-steps schedule of a non-combining `coll` on `topo`, one chunk per slice.
fn least_schedule(topo: &Topology, coll: SynthCollective, budget: u64) -> Result<Vec<SolvedStep>> {
    let demand = coll.demand(topo.ranks(), 1)?;
    let lb = lower_bound_steps(topo, coll)?.max(1);
    for steps in lb..lb + 2 * topo.ranks() {
        match search::solve(topo, &demand, steps, steps as u32, budget) {
            Outcome::Found(s) => return Ok(s),
            Outcome::Impossible => {}
            Outcome::GaveUp => return Err(SynthError::Budget(format!("{coll} on {} at {steps} steps", topo.name))),
        }
    }
    Err(SynthError::Budget(format!("{coll} on {}: no schedule up to {} steps", topo.name, lb + 2 * topo.ranks())))
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
    let scaled = |st: &SolvedStep, sends: Vec<Send>| SolvedStep { rounds: st.rounds * n as u32, sends };
    let mut steps = vec![];
    // Gather: a local chunk id is its origin; every chunk of that origin but its own slice follows it.
    for st in &gather {
        let sends = (0..copies)
            .flat_map(|a| st.sends.iter().map(move |s| (a, *s)))
            .flat_map(|(a, s)| (0..n).filter(move |&d| d != at(a, s.chunk)).map(move |d| Send { chunk: id(at(a, s.chunk), d), src: at(a, s.src), dst: at(a, s.dst) }))
            .collect();
        steps.push(scaled(st, sends));
    }
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
    for st in &scatter {
        let sends = (0..copies)
            .flat_map(|b| st.sends.iter().map(move |s| (b, *s)))
            .flat_map(|(b, s)| (0..n).filter(move |&o| o != at(b, s.chunk)).map(move |o| Send { chunk: id(o, at(b, s.chunk)), src: at(b, s.src), dst: at(b, s.dst) }))
            .collect();
        steps.push(scaled(st, sends));
    }
    let name = format!("{}x{copies}", local.name);
    emit::build(SynthCollective::AllToAll, &name, n, 1, &steps, &[])
}
