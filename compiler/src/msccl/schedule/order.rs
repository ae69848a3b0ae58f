//! The global order every thread block follows: a topological order of the instruction
//! graph, preferring (as msccl-tools does) instructions fewer steps from the start, then
//! those with more steps still to go, then trace order. Among ready instructions it avoids
//! a send whose rank pair already has every FIFO slot in flight while anything else can run.
//!
//! Any such order is deadlock-free once each thread block runs its instructions in it: the
//! earliest unfinished instruction can always run (its sender and dependencies come earlier),
//! provided no connection ever holds more sends than slots along the order, which
//! [`check_fifo`] verifies after channels are known.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::graph::Graph;
use crate::msccl::error::{MscclError, Result};
use crate::msccl::protocol::Protocol;

/// Orders the live nodes of `g`; `slots` is the FIFO depth used to steer sends.
pub(super) fn order(g: &Graph, slots: usize) -> Vec<usize> {
    let (depth, height) = levels(g);
    let mut missing: Vec<usize> = (0..g.nodes.len()).map(|n| g.pred[n].len()).collect();
    let priority = |n: usize| Reverse((depth[n], Reverse(height[n]), g.nodes[n].key, n));
    let mut ready: BinaryHeap<_> = g.alive().filter(|&n| missing[n] == 0).map(priority).collect();
    let mut in_flight: HashMap<(usize, usize), usize> = HashMap::new();
    let mut out = Vec::with_capacity(missing.len());
    while let Some(best) = ready.pop() {
        // Prefer the best candidate whose send has a free slot; fall back to the best one.
        let mut skipped = Vec::new();
        let mut chosen = best;
        while is_blocked(g, chosen.0.3, &in_flight, slots) {
            match ready.pop() {
                Some(next) => {
                    skipped.push(chosen);
                    chosen = next;
                }
                None => {
                    skipped.push(chosen);
                    chosen = skipped.remove(0);
                    break;
                }
            }
        }
        ready.extend(skipped);
        let n = chosen.0.3;
        let node = &g.nodes[n];
        if let Some(c) = node.recv_from.and_then(|from| in_flight.get_mut(&(from.rank, node.rank))) {
            *c = c.saturating_sub(1);
        }
        if let Some(to) = node.send_to {
            *in_flight.entry((node.rank, to.rank)).or_default() += 1;
        }
        out.push(n);
        for &s in &g.succ[n] {
            missing[s] -= 1;
            if missing[s] == 0 {
                ready.push(priority(s));
            }
        }
    }
    out
}

fn is_blocked(g: &Graph, n: usize, in_flight: &HashMap<(usize, usize), usize>, slots: usize) -> bool {
    let node = &g.nodes[n];
    node.send_to.is_some_and(|to| in_flight.get(&(node.rank, to.rank)).copied().unwrap_or(0) >= slots)
}

/// Longest path from a source (depth) and to a sink (height) for every live node.
fn levels(g: &Graph) -> (Vec<usize>, Vec<usize>) {
    let topo = topological(g);
    let mut depth = vec![0; g.nodes.len()];
    for &n in &topo {
        for &s in &g.succ[n] {
            depth[s] = depth[s].max(depth[n] + 1);
        }
    }
    let mut height = vec![0; g.nodes.len()];
    for &n in topo.iter().rev() {
        for &s in &g.succ[n] {
            height[n] = height[n].max(height[s] + 1);
        }
    }
    (depth, height)
}

/// Any topological order of the live nodes (Kahn's algorithm, trace order first).
fn topological(g: &Graph) -> Vec<usize> {
    let mut missing: Vec<usize> = (0..g.nodes.len()).map(|n| g.pred[n].len()).collect();
    let mut ready: BinaryHeap<Reverse<(usize, usize)>> =
        g.alive().filter(|&n| missing[n] == 0).map(|n| Reverse((g.nodes[n].key, n))).collect();
    let mut out = Vec::new();
    while let Some(Reverse((_, n))) = ready.pop() {
        out.push(n);
        for &s in &g.succ[n] {
            missing[s] -= 1;
            if missing[s] == 0 {
                ready.push(Reverse((g.nodes[s].key, s)));
            }
        }
    }
    out
}

/// Walks `order` counting, per connection (from, to, channel), sends not yet received; more
/// than `slots` at any point is rejected, since a full FIFO could then deadlock.
pub(super) fn check_fifo(
    g: &Graph,
    order: &[usize],
    channel_of: &[usize],
    slots: usize,
    protocol: Protocol,
) -> Result<()> {
    let mut in_flight: HashMap<(usize, usize, usize), usize> = HashMap::new();
    for &n in order {
        let node = &g.nodes[n];
        let channel = channel_of[n];
        if let Some(c) = node.recv_from.and_then(|from| in_flight.get_mut(&(from.rank, node.rank, channel))) {
            *c = c.saturating_sub(1);
        }
        if let Some(to) = node.send_to {
            let c = in_flight.entry((node.rank, to.rank, channel)).or_default();
            *c += 1;
            if *c > slots {
                return Err(MscclError::FifoOverflow {
                    from: node.rank,
                    to: to.rank,
                    channel,
                    outstanding: *c,
                    slots,
                    protocol,
                });
            }
        }
    }
    Ok(())
}
