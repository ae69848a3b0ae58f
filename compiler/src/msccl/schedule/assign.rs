//! Channel and thread-block assignment.
//!
//! A thread block has one channel, at most one send peer and at most one receive peer, and
//! on each rank a (peer, channel) connection belongs to one thread block per direction, as
//! in MSCCL. A send and its receive share a channel, so a *flow* (a send, the fused
//! receive-and-forward steps it feeds, and the final receive) shares one channel; flows are
//! placed whole, in order of their first instruction, on the lowest channel where every hop
//! fits. User hints pin a thread block (grouping operations) or a channel.

use std::collections::HashMap;

use super::graph::Graph;
use crate::msccl::buffer::Loc;
use crate::msccl::error::{MscclError, Result};
use crate::msccl::program::Algorithm;

/// A thread block being planned on one rank.
#[derive(Debug, Clone)]
pub(super) struct TbPlan {
    /// The user's thread-block id, for hinted thread blocks.
    pub user: Option<usize>,
    /// Send peer.
    pub send: Option<usize>,
    /// Receive peer.
    pub recv: Option<usize>,
    /// Channel.
    pub channel: usize,
    /// Instructions placed so far.
    pub load: usize,
}

/// One rank's thread blocks and who owns each connection.
#[derive(Debug, Clone, Default)]
struct RankTbs {
    tbs: Vec<TbPlan>,
    send_owner: HashMap<(usize, usize), usize>,
    recv_owner: HashMap<(usize, usize), usize>,
}

/// The outcome: thread blocks per rank, and per node its thread block and channel.
#[derive(Debug, Clone)]
pub(super) struct Assignment {
    pub tbs: Vec<Vec<TbPlan>>,
    pub tb_of: Vec<usize>,
    pub channel_of: Vec<usize>,
}

/// What assignment achieved.
#[derive(Debug, Clone)]
pub(super) enum Outcome {
    /// Every node placed.
    Placed(Assignment),
    /// A flow fits no channel because two of its fused hops on one rank need the same
    /// connection with different partners: this fused node must be split back into a
    /// receive and a send, then assignment retried.
    Split(usize),
}

/// Assigns every live node of `g`, visiting flows and local instructions in `order`.
pub(super) fn assign(g: &Graph, order: &[usize], algo: &Algorithm, max_channels: usize) -> Result<Outcome> {
    let mut ranks = vec![RankTbs::default(); algo.ranks()];
    let mut tb_of = vec![usize::MAX; g.nodes.len()];
    let mut channel_of = vec![0; g.nodes.len()];
    let producer = producers(g, order);
    let op_name = |n: usize| algo.ops[g.nodes[n].op].to_string();
    for &n in order {
        let node = &g.nodes[n];
        if node.recv_from.is_some() {
            continue; // placed with the flow its sender starts
        }
        if node.send_to.is_none() {
            let tb = place_local(&mut ranks[node.rank], g, n, producer[n].map(|p| tb_of[p]));
            tb_of[n] = tb;
            channel_of[n] = ranks[node.rank].tbs[tb].channel;
            continue;
        }
        let flow = flow_from(g, n);
        let hinted: Vec<usize> = flow.iter().filter_map(|&h| g.nodes[h].channel).collect();
        if let Some(&other) = hinted.iter().find(|&&c| c != hinted[0]) {
            let reason =
                format!("channel hints {} and {other} meet in one flow, which must use one channel", hinted[0]);
            return Err(MscclError::HintConflict { op: op_name(n), reason });
        }
        let channels: Vec<usize> = match hinted.first() {
            Some(&c) => vec![c],
            None => (0..max_channels).collect(),
        };
        let mut first_failure = None;
        let mut placed = None;
        for &channel in &channels {
            match place_flow(&ranks, g, &flow, channel) {
                Ok(done) => {
                    placed = Some((channel, done));
                    break;
                }
                Err(failure) => {
                    first_failure.get_or_insert(failure);
                }
            }
        }
        let Some((channel, (tbs, trial))) = placed else {
            let hinted_tb = flow.iter().any(|&h| g.nodes[h].tb.is_some());
            if let Some((h, reason)) = first_failure.filter(|_| hinted_tb || !hinted.is_empty()) {
                return Err(MscclError::HintConflict { op: op_name(h), reason });
            }
            // On a channel nothing uses yet, only the flow's own hops can clash.
            let fresh = ranks.iter().flat_map(|r| &r.tbs).map(|t| t.channel + 1).max().unwrap_or(0);
            return match place_flow(&ranks, g, &flow, fresh) {
                Err((h, _)) if g.nodes[h].recv_from.is_some() && g.nodes[h].send_to.is_some() => Ok(Outcome::Split(h)),
                _ => Err(MscclError::TooManyChannels { op: op_name(n), limit: max_channels }),
            };
        };
        ranks = trial;
        for (&h, tb) in flow.iter().zip(tbs) {
            tb_of[h] = tb;
            channel_of[h] = channel;
        }
    }
    let tbs = ranks.into_iter().map(|r| r.tbs).collect();
    Ok(Outcome::Placed(Assignment { tbs, tb_of, channel_of }))
}

/// Places every hop of `flow` on `channel` in a copy of `ranks`; on failure, the hop that
/// did not fit and why.
fn place_flow(
    ranks: &[RankTbs],
    g: &Graph,
    flow: &[usize],
    channel: usize,
) -> std::result::Result<(Vec<usize>, Vec<RankTbs>), (usize, String)> {
    let mut trial = ranks.to_vec();
    let tbs = flow
        .iter()
        .map(|&h| place_peer(&mut trial[g.nodes[h].rank], g, h, channel).map_err(|why| (h, why)))
        .collect::<std::result::Result<Vec<usize>, _>>()?;
    Ok((tbs, trial))
}

/// The send `head` and every node its message passes through, to the final receive.
fn flow_from(g: &Graph, head: usize) -> Vec<usize> {
    let mut flow = vec![head];
    let mut at = head;
    while let Some(next) = g.receiver[at] {
        flow.push(next);
        at = next;
    }
    flow
}

/// For each local instruction, the node that last wrote its source before it (in `order`).
fn producers(g: &Graph, order: &[usize]) -> Vec<Option<usize>> {
    let mut last_writer: HashMap<Loc, usize> = HashMap::new();
    let mut out = vec![None; g.nodes.len()];
    for &n in order {
        let node = &g.nodes[n];
        if node.send_to.is_none() && node.recv_from.is_none() {
            out[n] = node.src.and_then(|s| last_writer.get(&s).copied());
        }
        for slot in node.writes() {
            last_writer.insert(slot, n);
        }
    }
    out
}

/// Places a local instruction: in its hinted thread block, else with the instruction that
/// produced its source (saving a cross-thread-block dependency), else the least loaded one.
fn place_local(rank: &mut RankTbs, g: &Graph, n: usize, producer_tb: Option<usize>) -> usize {
    let tb = match g.nodes[n].tb {
        Some(user) => user_tb(rank, user, 0),
        None => producer_tb.filter(|&t| t < rank.tbs.len()).unwrap_or_else(|| {
            let auto = (0..rank.tbs.len()).filter(|&t| rank.tbs[t].user.is_none()).min_by_key(|&t| rank.tbs[t].load);
            auto.unwrap_or_else(|| new_tb(rank, None, 0))
        }),
    };
    rank.tbs[tb].load += 1;
    tb
}

fn new_tb(rank: &mut RankTbs, user: Option<usize>, channel: usize) -> usize {
    rank.tbs.push(TbPlan { user, send: None, recv: None, channel, load: 0 });
    rank.tbs.len() - 1
}

/// The user's thread block `user`, created on `channel` if new.
fn user_tb(rank: &mut RankTbs, user: usize, channel: usize) -> usize {
    match rank.tbs.iter().position(|t| t.user == Some(user)) {
        Some(t) => t,
        None => new_tb(rank, Some(user), channel),
    }
}

/// Places an instruction with a peer on `channel`, or says why it cannot go there.
fn place_peer(rank: &mut RankTbs, g: &Graph, n: usize, channel: usize) -> std::result::Result<usize, String> {
    let node = &g.nodes[n];
    let send = node.send_to.map(|l| l.rank);
    let recv = node.recv_from.map(|l| l.rank);
    let send_owner = send.and_then(|p| rank.send_owner.get(&(p, channel)).copied());
    let recv_owner = recv.and_then(|p| rank.recv_owner.get(&(p, channel)).copied());
    let tb = match node.tb {
        Some(user) => {
            let t = user_tb(rank, user, channel);
            let plan = &mut rank.tbs[t];
            if plan.send.is_none() && plan.recv.is_none() {
                plan.channel = channel; // a thread block with no peers yet can take any channel
            }
            if plan.channel != channel {
                return Err(format!("thread block {user} is on channel {}, not {channel}", plan.channel));
            }
            t
        }
        None => match (send_owner, recv_owner) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!(
                    "on channel {channel}, one thread block sends to {} and another receives from {}",
                    peer_name(send),
                    peer_name(recv)
                ));
            }
            (Some(a), _) | (None, Some(a)) => a,
            (None, None) => pick_free(rank, send, recv, channel),
        },
    };
    let plan = &rank.tbs[tb];
    let clash = |side: Option<usize>, want: Option<usize>| want.is_some() && side.is_some() && side != want;
    if clash(plan.send, send) || clash(plan.recv, recv) {
        return Err(format!(
            "its thread block sends to {} and receives from {}; it cannot also send to {} and receive from {}",
            peer_name(plan.send),
            peer_name(plan.recv),
            peer_name(send),
            peer_name(recv)
        ));
    }
    for (owner, want) in [(send_owner, send), (recv_owner, recv)] {
        if want.is_some() && owner.is_some_and(|o| o != tb) {
            return Err(format!(
                "another thread block owns the connection with {} on channel {channel}",
                peer_name(want)
            ));
        }
    }
    let plan = &mut rank.tbs[tb];
    if let Some(p) = send {
        plan.send = Some(p);
        rank.send_owner.insert((p, channel), tb);
    }
    if let Some(p) = recv {
        plan.recv = Some(p);
        rank.recv_owner.insert((p, channel), tb);
    }
    rank.tbs[tb].load += 1;
    Ok(tb)
}

/// An unhinted thread block on `channel` with the needed sides free (preferring one that
/// already talks to the same peer the other way), or a new one.
fn pick_free(rank: &mut RankTbs, send: Option<usize>, recv: Option<usize>, channel: usize) -> usize {
    let fits = |t: &TbPlan| {
        t.user.is_none()
            && t.channel == channel
            && (send.is_none() || t.send.is_none())
            && (recv.is_none() || t.recv.is_none())
    };
    let mirrors = |t: &TbPlan| (send.is_some() && t.recv == send) || (recv.is_some() && t.send == recv);
    let best =
        (0..rank.tbs.len()).filter(|&t| fits(&rank.tbs[t])).min_by_key(|&t| (!mirrors(&rank.tbs[t]), rank.tbs[t].load));
    best.unwrap_or_else(|| new_tb(rank, None, channel))
}

/// A peer for messages: its rank, or "nobody".
fn peer_name(peer: Option<usize>) -> String {
    peer.map_or_else(|| "nobody".to_string(), |p| format!("rank {p}"))
}
