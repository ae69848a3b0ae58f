//! The instruction graph: traced operations split into per-rank instructions (a remote copy
//! is a send plus a receive, a remote reduce a send plus a receive-reduce-copy), with edges
//! for every ordering the program needs:
//! - data dependencies between instructions touching the same slot of one rank;
//! - a send before its receive;
//! - sends between one pair of ranks in trace order, and their receives in the same order,
//!   so connection FIFOs deliver messages in the order the receivers expect them.
//!
//! Fusion then merges a receive with the send that forwards what it received (rcs, rrcs,
//! rrs), as msccl-tools does, whenever that keeps the graph acyclic.

use std::collections::{BTreeSet, HashMap};

use crate::msccl::buffer::Loc;
use crate::msccl::ir::StepKind;
use crate::msccl::program::{Algorithm, OpKind};

/// One instruction on one rank.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// Rank executing it.
    pub rank: usize,
    /// Step type (after fusion).
    pub kind: StepKind,
    /// Consecutive chunks.
    pub count: usize,
    /// Local slot read (for `rrc` / `rrs` / `rrcs`, the local operand).
    pub src: Option<Loc>,
    /// Local slot written (for `rrs`, the slot the sum would have gone to).
    pub dst: Option<Loc>,
    /// Where the sent data lands on the peer (its rank is the send peer).
    pub send_to: Option<Loc>,
    /// Where the received data came from on the peer (its rank is the recv peer).
    pub recv_from: Option<Loc>,
    /// Trace position (2 * op id, +1 for the receiving half of a remote op).
    pub key: usize,
    /// The operation it came from (the receive's, for fused nodes).
    pub op: usize,
    /// Thread-block hint.
    pub tb: Option<usize>,
    /// Channel hint.
    pub channel: Option<usize>,
    /// False once merged into another node.
    pub alive: bool,
}

impl Node {
    /// Slots read locally.
    pub fn reads(&self) -> Vec<Loc> {
        let mut out = Vec::new();
        if self.kind.reads_src() {
            out.extend(self.src.iter().flat_map(|l| (0..self.count).map(move |j| l.offset(j))));
        }
        if self.kind == StepKind::Reduce {
            out.extend(self.dst.iter().flat_map(|l| (0..self.count).map(move |j| l.offset(j))));
        }
        out
    }

    /// Slots written locally.
    pub fn writes(&self) -> Vec<Loc> {
        if !self.kind.writes_dst() {
            return Vec::new();
        }
        self.dst.iter().flat_map(|l| (0..self.count).map(move |j| l.offset(j))).collect()
    }
}

/// How an instruction touches a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Touch {
    Read,
    Write,
    ReadWrite,
}

/// Instructions and their ordering constraints.
#[derive(Debug, Clone)]
pub(super) struct Graph {
    pub nodes: Vec<Node>,
    pub succ: Vec<BTreeSet<usize>>,
    pub pred: Vec<BTreeSet<usize>>,
    /// For a node that receives: the node that sends its message.
    pub sender: Vec<Option<usize>>,
    /// For a node that sends: the node that receives its message.
    pub receiver: Vec<Option<usize>>,
    /// Per slot, the unfused instructions touching it in trace order.
    touches: HashMap<Loc, Vec<(usize, Touch)>>,
}

impl Graph {
    /// Splits the trace into instructions and adds every ordering edge.
    pub fn build(algo: &Algorithm) -> Graph {
        let mut g = Graph {
            nodes: Vec::new(),
            succ: Vec::new(),
            pred: Vec::new(),
            sender: Vec::new(),
            receiver: Vec::new(),
            touches: HashMap::new(),
        };
        for op in &algo.ops {
            let (src, dst, key) = (op.src, op.dst, 2 * op.id);
            let local = Node {
                rank: src.rank,
                kind: StepKind::Nop,
                count: op.count,
                src: Some(src),
                dst: Some(dst),
                send_to: None,
                recv_from: None,
                key,
                op: op.id,
                tb: op.hints.send_tb.or(op.hints.recv_tb),
                channel: op.hints.channel,
                alive: true,
            };
            if src.rank == dst.rank {
                let kind = if op.kind == OpKind::Copy { StepKind::Copy } else { StepKind::Reduce };
                g.push(Node { kind, ..local });
                continue;
            }
            let send = g.push(Node {
                kind: StepKind::Send,
                dst: None,
                send_to: Some(dst),
                tb: op.hints.send_tb,
                ..local.clone()
            });
            let (kind, operand) = match op.kind {
                OpKind::Copy => (StepKind::Recv, None),
                OpKind::Reduce => (StepKind::RecvReduceCopy, Some(dst)),
            };
            let recv = g.push(Node {
                rank: dst.rank,
                kind,
                src: operand,
                recv_from: Some(src),
                key: key + 1,
                tb: op.hints.recv_tb,
                ..local
            });
            g.sender[recv] = Some(send);
            g.receiver[send] = Some(recv);
        }
        g.add_data_edges();
        g.add_message_edges();
        g
    }

    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.succ.push(BTreeSet::new());
        self.pred.push(BTreeSet::new());
        self.sender.push(None);
        self.receiver.push(None);
        self.nodes.len() - 1
    }

    fn edge(&mut self, from: usize, to: usize) {
        if from != to {
            self.succ[from].insert(to);
            self.pred[to].insert(from);
        }
    }

    /// Read-after-write, write-after-read and write-after-write on every slot.
    fn add_data_edges(&mut self) {
        let mut last_writer: HashMap<Loc, usize> = HashMap::new();
        let mut readers: HashMap<Loc, Vec<usize>> = HashMap::new();
        // Nodes are created in trace order, which is their key order.
        for n in 0..self.nodes.len() {
            let (reads, writes) = (self.nodes[n].reads(), self.nodes[n].writes());
            for &slot in &reads {
                if let Some(&w) = last_writer.get(&slot) {
                    self.edge(w, n);
                }
                readers.entry(slot).or_default().push(n);
                let touch = if writes.contains(&slot) { Touch::ReadWrite } else { Touch::Read };
                self.touches.entry(slot).or_default().push((n, touch));
            }
            for &slot in &writes {
                for r in readers.remove(&slot).unwrap_or_default() {
                    self.edge(r, n);
                }
                if let Some(w) = last_writer.insert(slot, n) {
                    self.edge(w, n);
                }
                if !reads.contains(&slot) {
                    self.touches.entry(slot).or_default().push((n, Touch::Write));
                }
            }
        }
    }

    /// Send before receive; per rank pair, sends and receives each in trace order.
    fn add_message_edges(&mut self) {
        let mut last_send: HashMap<(usize, usize), usize> = HashMap::new();
        let mut last_recv: HashMap<(usize, usize), usize> = HashMap::new();
        for s in 0..self.nodes.len() {
            let Some(r) = self.receiver[s] else { continue };
            self.edge(s, r);
            let pair = (self.nodes[s].rank, self.nodes[r].rank);
            if let Some(prev) = last_send.insert(pair, s) {
                self.edge(prev, s);
            }
            if let Some(prev) = last_recv.insert(pair, r) {
                self.edge(prev, r);
            }
        }
    }

    /// The instruction touching `slot` right after `node`, in trace order.
    fn next_touch(&self, slot: Loc, node: usize) -> Option<(usize, Touch)> {
        let list = self.touches.get(&slot)?;
        let at = list.iter().position(|&(n, _)| n == node)?;
        list.get(at + 1).copied()
    }

    /// Fuses receives with the sends forwarding their data, in trace order.
    pub fn fuse(&mut self) {
        for r in 0..self.nodes.len() {
            let node = &self.nodes[r];
            if !node.alive || !matches!(node.kind, StepKind::Recv | StepKind::RecvReduceCopy) {
                continue;
            }
            let Some(dst) = node.dst else { continue };
            let Some((s, Touch::Read)) = self.next_touch(dst, r) else { continue };
            let send = &self.nodes[s];
            let forwards = send.alive
                && send.kind == StepKind::Send
                && send.src == Some(dst)
                && send.count == node.count
                && (1..node.count).all(|j| self.next_touch(dst.offset(j), r) == Some((s, Touch::Read)))
                && compatible(node.tb, send.tb)
                && compatible(node.channel, send.channel);
            if forwards && !self.reaches_avoiding_edge(r, s) {
                self.merge(r, s);
            }
        }
    }

    /// Whether `to` is reachable from `from` other than through the direct edge.
    fn reaches_avoiding_edge(&self, from: usize, to: usize) -> bool {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<usize> = self.succ[from].iter().copied().filter(|&n| n != to).collect();
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            // Every edge goes forward in trace order except into merged nodes, so nodes past
            // `to` can only reach it through a merged node; keep exploring them all.
            if seen.insert(n) {
                stack.extend(self.succ[n].iter().copied());
            }
        }
        false
    }

    /// Merges send `s` into receive `r`, making it rcs / rrcs / rrs.
    fn merge(&mut self, r: usize, s: usize) {
        let send = self.nodes[s].clone();
        self.nodes[s].alive = false;
        for p in std::mem::take(&mut self.pred[s]) {
            self.succ[p].remove(&s);
            self.edge(p, r);
        }
        for n in std::mem::take(&mut self.succ[s]) {
            self.pred[n].remove(&s);
            self.edge(r, n);
        }
        self.receiver[r] = self.receiver[s].take();
        if let Some(downstream) = self.receiver[r] {
            self.sender[downstream] = Some(r);
        }
        let overwritten_next = self.nodes[r].writes().iter().all(|&slot| {
            // The forwarded sum is never read locally: it is next overwritten outright.
            matches!(self.next_touch(slot, s), Some((_, Touch::Write)))
        });
        let node = &mut self.nodes[r];
        node.send_to = send.send_to;
        node.tb = node.tb.or(send.tb);
        node.channel = node.channel.or(send.channel);
        node.kind = match node.kind {
            StepKind::Recv => StepKind::RecvCopySend,
            _ if overwritten_next => StepKind::RecvReduceSend,
            _ => StepKind::RecvReduceCopySend,
        };
    }

    /// Splits fused node `n` back into its receive (which now writes its slot again) and a
    /// new send of that slot; returns the send. Used when a flow cannot be placed whole.
    pub fn unfuse(&mut self, n: usize) -> usize {
        let node = self.nodes[n].clone();
        let send = self.push(Node { kind: StepKind::Send, src: node.dst, dst: None, recv_from: None, ..node });
        let recv = &mut self.nodes[n];
        recv.send_to = None;
        recv.kind = if recv.kind == StepKind::RecvCopySend { StepKind::Recv } else { StepKind::RecvReduceCopy };
        self.receiver[send] = self.receiver[n].take();
        self.edge(n, send);
        if let Some(downstream) = self.receiver[send] {
            self.sender[downstream] = Some(send);
            self.edge(send, downstream);
        }
        send
    }

    /// Live node ids.
    pub fn alive(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.nodes.len()).filter(|&n| self.nodes[n].alive)
    }
}

/// Two optional hints agree when either is unset or both are equal.
fn compatible(a: Option<usize>, b: Option<usize>) -> bool {
    a.is_none() || b.is_none() || a == b
}
