//! The exact instance solver: does a schedule of `steps` steps and `rounds` rounds exist?
//!
//! Same model as msccl-tools' path encoding: a chunk moves one hop per step; in a step of `r`
//! rounds a link of bandwidth `b` carries at most `b*r` chunks; every step has at least one
//! round. Instead of an SMT solver it is a depth-first search over steps:
//! - every rounds split of `rounds` over the steps is tried;
//! - a step decomposes by destination (an in-link only feeds its destination, and sources
//!   hold what they held at the step's start), and each destination receives a *maximum*
//!   set of useful chunks: receiving is a transversal matroid, and taking more never hurts
//!   without memory limits, so only its bases are branched on;
//! - chunks with the same pre/post and the same holders are interchangeable, so a basis is a
//!   vector of counts per class, not a set of chunks;
//! - the last step is decided by one max flow per destination;
//! - states are pruned by hop distance and by each rank's in-bandwidth over the remaining
//!   rounds (split by how far each missing chunk is), and refuted states are memoized.

use std::collections::HashSet;

use super::flow::Transport;
use super::problem::ChunkDemand;
use super::topo::Topology;

/// One send of the solution: `chunk` from `src` to `dst`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Send {
    /// Chunk id (see [`super::problem::SynthCollective::demand`]).
    pub chunk: usize,
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
}

/// One step of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolvedStep {
    /// Rounds the step uses.
    pub rounds: u32,
    /// Its sends, all concurrent.
    pub sends: Vec<Send>,
}

/// Outcome of one instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A schedule.
    Found(Vec<SolvedStep>),
    /// Proven impossible.
    Impossible,
    /// The node budget ran out first.
    GaveUp,
}

/// Search state shared by the whole instance.
struct Solver<'a> {
    chunks: &'a [ChunkDemand],
    n: usize,
    /// `in_links[v]`: `(src, bandwidth)` of every link into v.
    in_links: Vec<Vec<(usize, u32)>>,
    /// Out-neighbour mask of each rank.
    nbr: Vec<u64>,
    /// Total in-bandwidth of each rank.
    incap: Vec<u32>,
    /// Rounds of each step (current split).
    rounds: Vec<u32>,
    nodes: u64,
    budget: u64,
    refuted: HashSet<(usize, Vec<(ChunkDemand, u64)>)>,
}

/// Decides an instance; `budget` bounds the search nodes.
pub fn solve(topo: &Topology, chunks: &[ChunkDemand], steps: usize, rounds: u32, budget: u64) -> Outcome {
    let n = topo.ranks();
    if steps == 0 || (rounds as usize) < steps {
        return Outcome::Impossible;
    }
    let mut solver = Solver {
        chunks,
        n,
        in_links: (0..n).map(|v| (0..n).filter(|&u| topo.bw(u, v) > 0).map(|u| (u, topo.bw(u, v))).collect()).collect(),
        nbr: (0..n).map(|u| (0..n).filter(|&v| topo.bw(u, v) > 0).fold(0, |m, v| m | 1 << v)).collect(),
        incap: (0..n).map(|v| (0..n).map(|u| topo.bw(u, v)).sum()).collect(),
        rounds: Vec::new(),
        nodes: 0,
        budget,
        refuted: HashSet::new(),
    };
    let have: Vec<u64> = chunks.iter().map(|c| c.pre).collect();
    for split in splits(rounds, steps) {
        solver.rounds = split;
        solver.refuted.clear();
        match solver.step(0, &have) {
            Some(s) => return Outcome::Found(s),
            None if solver.nodes > solver.budget => return Outcome::GaveUp,
            None => {}
        }
    }
    Outcome::Impossible
}

/// Every way to split `rounds` into `steps` parts of at least 1, most even first.
fn splits(rounds: u32, steps: usize) -> Vec<Vec<u32>> {
    fn rec(left: u32, parts: usize, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if parts == 1 {
            cur.push(left);
            out.push(cur.clone());
            cur.pop();
            return;
        }
        for r in 1..=left.saturating_sub(parts as u32 - 1) {
            cur.push(r);
            rec(left - r, parts - 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    rec(rounds, steps, &mut Vec::new(), &mut out);
    let spread = |s: &Vec<u32>| s.iter().max().unwrap_or(&0) - s.iter().min().unwrap_or(&0);
    out.sort_by_key(spread);
    out
}

/// A class of interchangeable candidate chunks for one destination.
struct Class {
    members: Vec<usize>,
    holders: u64,
    priority: (bool, u32),
}

impl Solver<'_> {
    fn ball(&self, mut set: u64, hops: usize) -> u64 {
        for _ in 0..hops {
            let mut grown = set;
            let mut bits = set;
            while bits != 0 {
                grown |= self.nbr[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            if grown == set {
                break;
            }
            set = grown;
        }
        set
    }

    /// Whether the state at the start of step `t` can still finish (necessary conditions).
    fn viable(&self, t: usize, have: &[u64]) -> bool {
        let left = self.rounds.len() - t;
        // need[v][d]: chunks v still needs whose nearest holder is d hops away (d in 1..=left).
        let mut need = vec![vec![0u32; left + 1]; self.n];
        for (c, &h) in self.chunks.iter().zip(have) {
            let mut missing = c.post & !h;
            if missing == 0 {
                continue;
            }
            let mut ball = h;
            for d in 1..=left {
                let next = self.ball(ball, 1);
                let mut reached = missing & next & !ball;
                missing &= !next;
                while reached != 0 {
                    need[reached.trailing_zeros() as usize][d] += 1;
                    reached &= reached - 1;
                }
                ball = next;
            }
            if missing != 0 {
                return false;
            }
        }
        for v in 0..self.n {
            let mut far = 0u32;
            for d in (1..=left).rev() {
                far += need[v][d];
                let rounds: u32 = self.rounds[t + d - 1..].iter().sum();
                if far > self.incap[v] * rounds {
                    return false;
                }
            }
        }
        true
    }

    fn key(&self, t: usize, have: &[u64]) -> (usize, Vec<(ChunkDemand, u64)>) {
        let mut k: Vec<(ChunkDemand, u64)> = self.chunks.iter().copied().zip(have.iter().copied()).collect();
        k.sort_unstable();
        (t, k)
    }

    /// Solves from the start of step `t`.
    fn step(&mut self, t: usize, have: &[u64]) -> Option<Vec<SolvedStep>> {
        if self.chunks.iter().zip(have).all(|(c, &h)| c.post & !h == 0) {
            // Done early: the remaining steps send nothing.
            return Some(self.rounds[t..].iter().map(|&r| SolvedStep { rounds: r, sends: Vec::new() }).collect());
        }
        if t == self.rounds.len() || self.nodes > self.budget || !self.viable(t, have) {
            return None;
        }
        self.nodes += 1;
        let key = self.key(t, have);
        if self.refuted.contains(&key) {
            return None;
        }
        let mut next = have.to_vec();
        let mut sends = Vec::new();
        let found = self.destination(t, 0, have, &mut next, &mut sends);
        if found.is_none() {
            self.refuted.insert(key);
        }
        found
    }

    /// Chooses what destination `v` receives in step `t`, then the later destinations.
    fn destination(&mut self, t: usize, v: usize, have: &[u64], next: &mut Vec<u64>, sends: &mut Vec<Send>) -> Option<Vec<SolvedStep>> {
        if v == self.n {
            let rest = self.step(t + 1, next)?;
            let mut out = vec![SolvedStep { rounds: self.rounds[t], sends: sends.clone() }];
            out.extend(rest);
            return Some(out);
        }
        let classes = self.classes(v, have, next);
        let caps: Vec<u32> = self.in_links[v].iter().map(|&(_, b)| b * self.rounds[t]).collect();
        let src: Vec<usize> = self.in_links[v].iter().map(|&(u, _)| u).collect();
        let tp = Transport { caps: &caps, src: &src };
        let holders: Vec<u64> = classes.iter().map(|c| c.holders).collect();
        let full: Vec<u32> = classes.iter().map(|c| c.members.len() as u32).collect();
        let last = t + 1 == self.rounds.len();
        let (rank, _) = tp.solve(&full, &holders);
        if last {
            // Everything v still needs must arrive now; useless chunks are not candidates.
            let needed: u32 = classes.iter().filter(|c| c.priority.0).map(|c| c.members.len() as u32).sum();
            let want: Vec<u32> = classes.iter().map(|c| if c.priority.0 { c.members.len() as u32 } else { 0 }).collect();
            if tp.rank(&want, &holders) < needed {
                return None;
            }
            return self.take(t, v, &classes, &want, &tp, have, next, sends);
        }
        let mut counts = vec![0u32; classes.len()];
        self.bases(t, v, &classes, &tp, rank, 0, &mut counts, have, next, sends)
    }

    /// Enumerates count vectors of maximum size `rank` (bases), most urgent classes fullest first.
    #[allow(clippy::too_many_arguments)]
    fn bases(
        &mut self,
        t: usize,
        v: usize,
        classes: &[Class],
        tp: &Transport,
        rank: u32,
        i: usize,
        counts: &mut Vec<u32>,
        have: &[u64],
        next: &mut Vec<u64>,
        sends: &mut Vec<Send>,
    ) -> Option<Vec<SolvedStep>> {
        if self.nodes > self.budget {
            return None;
        }
        let chosen: u32 = counts.iter().sum();
        if i == classes.len() || chosen == rank {
            if chosen < rank {
                return None;
            }
            return self.take(t, v, classes, counts, tp, have, next, sends);
        }
        let holders: Vec<u64> = classes.iter().map(|c| c.holders).collect();
        let top = (classes[i].members.len() as u32).min(rank - chosen);
        for x in (0..=top).rev() {
            counts[i] = x;
            if tp.rank(counts, &holders) < chosen + x {
                continue;
            }
            let mut reach = counts.clone();
            for (j, c) in classes.iter().enumerate().skip(i + 1) {
                reach[j] = c.members.len() as u32;
            }
            if tp.rank(&reach, &holders) < rank {
                continue;
            }
            if let Some(s) = self.bases(t, v, classes, tp, rank, i + 1, counts, have, next, sends) {
                return Some(s);
            }
        }
        counts[i] = 0;
        None
    }

    /// Applies destination v's receptions (`counts` per class), recurses, and undoes them.
    #[allow(clippy::too_many_arguments)]
    fn take(
        &mut self,
        t: usize,
        v: usize,
        classes: &[Class],
        counts: &[u32],
        tp: &Transport,
        have: &[u64],
        next: &mut Vec<u64>,
        sends: &mut Vec<Send>,
    ) -> Option<Vec<SolvedStep>> {
        let holders: Vec<u64> = classes.iter().map(|c| c.holders).collect();
        let (_, flow) = tp.solve(counts, &holders);
        let mark = sends.len();
        for (class, row) in classes.iter().zip(&flow) {
            let mut members = class.members.iter();
            for (j, &f) in row.iter().enumerate() {
                for c in members.by_ref().take(f as usize) {
                    next[*c] |= 1 << v;
                    sends.push(Send { chunk: *c, src: tp.src[j], dst: v });
                }
            }
        }
        let found = if self.promising(t, v, have, next) { self.destination(t, v + 1, have, next, sends) } else { None };
        for s in sends.drain(mark..) {
            next[s.chunk] &= !(1 << v);
        }
        found
    }

    /// Whether the step being built (destinations up to `v` decided) can still lead to a
    /// solution, assuming each undecided destination receives everything it could: a
    /// relaxation, since holding more never hurts. Before the last step the last step's max
    /// flows are checked exactly against that optimistic state.
    fn promising(&self, t: usize, v: usize, have: &[u64], next: &[u64]) -> bool {
        if t + 1 >= self.rounds.len() {
            return true;
        }
        let undecided: u64 = (v + 1..self.n).fold(0, |m, u| m | 1 << u);
        let hope: Vec<u64> = have
            .iter()
            .zip(next)
            .map(|(&h, &nx)| {
                let fed = (0..self.n).filter(|&u| undecided >> u & 1 == 1 && self.in_links[u].iter().any(|&(s, _)| h >> s & 1 == 1));
                fed.fold(nx, |m, u| m | 1 << u)
            })
            .collect();
        if !self.viable(t + 1, &hope) {
            return false;
        }
        t + 2 != self.rounds.len() || (0..self.n).all(|w| self.last_step_feasible(t + 1, w, &hope))
    }

    /// Whether `w` can receive everything it still needs in the last step `t`.
    fn last_step_feasible(&self, t: usize, w: usize, have: &[u64]) -> bool {
        let caps: Vec<u32> = self.in_links[w].iter().map(|&(_, b)| b * self.rounds[t]).collect();
        let src: Vec<usize> = self.in_links[w].iter().map(|&(u, _)| u).collect();
        let mut supply: Vec<u32> = Vec::new();
        let mut holders: Vec<u64> = Vec::new();
        for (c, &h) in self.chunks.iter().zip(have) {
            if c.post >> w & 1 == 1 && h >> w & 1 == 0 {
                match holders.iter().position(|&x| x == h) {
                    Some(i) => supply[i] += 1,
                    None => {
                        holders.push(h);
                        supply.push(1);
                    }
                }
            }
        }
        let need: u32 = supply.iter().sum();
        need == 0 || Transport { caps: &caps, src: &src }.rank(&supply, &holders) == need
    }

    /// The useful chunks v could receive this step, grouped into interchangeable classes.
    fn classes(&self, v: usize, have: &[u64], next: &[u64]) -> Vec<Class> {
        let srcs = self.in_links[v].iter().fold(0u64, |m, &(u, _)| m | 1 << u);
        let mut classes: Vec<(ChunkDemand, u64, u64, Class)> = Vec::new();
        for (c, (d, &h)) in self.chunks.iter().zip(have).enumerate() {
            if h >> v & 1 == 1 || h & srcs == 0 || d.post & !h == 0 {
                continue;
            }
            match classes.iter_mut().find(|k| k.0 == *d && k.1 == h && k.2 == next[c]) {
                Some(k) => k.3.members.push(c),
                None => {
                    let priority = (d.post >> v & 1 == 1, h.count_ones());
                    classes.push((*d, h, next[c], Class { members: vec![c], holders: h & srcs, priority }));
                }
            }
        }
        let mut out: Vec<Class> = classes.into_iter().map(|k| k.3).collect();
        // Needed here first, then the rarest (fewest holders).
        out.sort_by_key(|c| (!c.priority.0, c.priority.1));
        out
    }
}
