//! From placed instructions to MSCCL-IR: cross-thread-block dependencies, `nop` steps for
//! extra dependencies, `hasdep` flags, instance replication and thread-block numbering.

use std::collections::{BTreeMap, HashMap};

use super::assign::Assignment;
use super::graph::{Graph, Node};
use crate::msccl::buffer::{Buffer, Loc};
use crate::msccl::ir::{BufRef, Dep, Gpu, MscclIr, Step, StepKind, ThreadBlock};
use crate::msccl::program::Algorithm;

/// Builds the MSCCL-IR for the whole algorithm, instances included.
pub(super) fn emit(g: &Graph, order: &[usize], asg: &Assignment, algo: &Algorithm) -> MscclIr {
    let lists = tb_lists(g, order, asg, algo.ranks());
    let deps = dependencies(g, order, asg);
    let base = base_tbs(g, asg, &lists, &deps);
    let nchannels_base = base.iter().flatten().map(|t| t.channel + 1).max().unwrap_or(0);
    let coll = &algo.collective;
    let n = algo.instances.max(1);
    let gpus: Vec<Gpu> = base
        .into_iter()
        .enumerate()
        .map(|(rank, tbs)| Gpu {
            id: rank,
            input_chunks: coll.canonical_chunks(Buffer::Input, algo.in_place) * n,
            output_chunks: coll.canonical_chunks(Buffer::Output, algo.in_place) * n,
            scratch_chunks: algo.scratch_chunks.get(rank).copied().unwrap_or(0) * n,
            tbs: number(replicate(&tbs, n, nchannels_base, &algo.scratch_chunks, rank)),
        })
        .collect();
    let nchannels = gpus.iter().flat_map(|g| &g.tbs).map(|t| t.channel + 1).max().unwrap_or(0);
    let nchunksperloop = gpus.iter().map(|g| g.input_chunks.max(g.output_chunks)).max().unwrap_or(0);
    MscclIr {
        name: algo.name.clone(),
        collective: coll.xml_name().to_string(),
        protocol: algo.protocol,
        nchannels,
        nchunksperloop,
        inplace: algo.in_place,
        outofplace: None,
        min_bytes: None,
        max_bytes: None,
        extra_attrs: BTreeMap::new(),
        gpus,
    }
}

/// `lists[rank][tb]`: the thread block's instructions in global order.
fn tb_lists(g: &Graph, order: &[usize], asg: &Assignment, ranks: usize) -> Vec<Vec<Vec<usize>>> {
    let mut lists: Vec<Vec<Vec<usize>>> = (0..ranks).map(|r| vec![Vec::new(); asg.tbs[r].len()]).collect();
    for &n in order {
        lists[g.nodes[n].rank][asg.tb_of[n]].push(n);
    }
    lists
}

/// For every node, the nodes in other thread blocks it must wait for (at most one per thread
/// block, the latest), minus those an earlier step of its own thread block already waited for.
fn dependencies(g: &Graph, order: &[usize], asg: &Assignment) -> Vec<Vec<usize>> {
    let mut position = vec![0; g.nodes.len()];
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for &n in order {
        let counter = seen.entry((g.nodes[n].rank, asg.tb_of[n])).or_default();
        position[n] = *counter;
        *counter += 1;
    }
    let mut last_writer: HashMap<Loc, usize> = HashMap::new();
    let mut readers: HashMap<Loc, Vec<usize>> = HashMap::new();
    // What each thread block already knows has completed: (rank, tb, other tb) -> position.
    let mut known: HashMap<(usize, usize, usize), usize> = HashMap::new();
    let mut out = vec![Vec::new(); g.nodes.len()];
    for &n in order {
        let node = &g.nodes[n];
        let (reads, writes) = (node.reads(), node.writes());
        let mut needed: Vec<usize> = reads.iter().filter_map(|s| last_writer.get(s).copied()).collect();
        for slot in &writes {
            needed.extend(readers.get(slot).into_iter().flatten().copied());
            needed.extend(last_writer.get(slot).copied());
        }
        let me = asg.tb_of[n];
        let mut latest: BTreeMap<usize, usize> = BTreeMap::new();
        for d in needed.into_iter().filter(|&d| d != n && asg.tb_of[d] != me) {
            let slot = latest.entry(asg.tb_of[d]).or_insert(d);
            if position[d] > position[*slot] {
                *slot = d;
            }
        }
        for (tb, d) in latest {
            let k = known.entry((node.rank, me, tb)).or_insert(usize::MAX);
            if *k != usize::MAX && *k >= position[d] {
                continue;
            }
            *k = position[d];
            out[n].push(d);
        }
        for slot in reads {
            readers.entry(slot).or_default().push(n);
        }
        for slot in writes {
            readers.remove(&slot);
            last_writer.insert(slot, n);
        }
    }
    out
}

/// One instance's thread blocks per rank; dependencies point at (plan index, step index).
fn base_tbs(g: &Graph, asg: &Assignment, lists: &[Vec<Vec<usize>>], deps: &[Vec<usize>]) -> Vec<Vec<ThreadBlock>> {
    // First lay out steps (a nop per extra dependency) to learn every node's step index.
    let mut step_of = vec![0; g.nodes.len()];
    for tbs in lists {
        for list in tbs {
            let mut at = 0;
            for &n in list {
                at += deps[n].len().saturating_sub(1);
                step_of[n] = at;
                at += 1;
            }
        }
    }
    let dep = |d: usize| Dep { tb: asg.tb_of[d], step: step_of[d] };
    let mut out: Vec<Vec<ThreadBlock>> = Vec::with_capacity(lists.len());
    for (rank, tbs) in lists.iter().enumerate() {
        let mut rank_tbs = Vec::with_capacity(tbs.len());
        for (t, list) in tbs.iter().enumerate() {
            let plan = &asg.tbs[rank][t];
            let mut steps = Vec::new();
            for &n in list {
                let (last, extra) = match deps[n].split_last() {
                    Some((last, extra)) => (Some(dep(*last)), extra),
                    None => (None, &[][..]),
                };
                steps.extend(extra.iter().map(|&d| Step::nop(dep(d))));
                steps.push(Step { dep: last, ..step_for(&g.nodes[n]) });
            }
            rank_tbs.push(ThreadBlock { id: t, send: plan.send, recv: plan.recv, channel: plan.channel, steps });
        }
        out.push(rank_tbs);
    }
    for tbs in &mut out {
        let targets: Vec<Dep> = tbs.iter().flat_map(|t| &t.steps).filter_map(|s| s.dep).collect();
        for d in targets {
            tbs[d.tb].steps[d.step].has_dep = true;
        }
    }
    out
}

/// The step for a node: local operands where the step type uses them, the peer's slot
/// otherwise (as msccl-tools records it).
fn step_for(node: &Node) -> Step {
    let at = |l: Option<Loc>| l.map(|l| BufRef::new(l.buffer, l.index));
    let (src, dst) = if node.kind.reads_src() {
        (at(node.src), at(node.dst.or(node.send_to)))
    } else {
        (at(node.recv_from), at(node.dst))
    };
    Step { kind: node.kind, src, dst, count: node.count, dep: None, has_dep: false }
}

/// `instances` copies of a rank's thread blocks: copy i uses channels shifted by
/// i * `nchannels` and sub-chunk i of every chunk (msccl-tools' interleaved replication:
/// input/output chunk k -> k*instances + i*count; scratch is laid out instance by instance).
fn replicate(
    tbs: &[ThreadBlock],
    instances: usize,
    nchannels: usize,
    scratch: &[usize],
    rank: usize,
) -> Vec<ThreadBlock> {
    if instances == 1 {
        return tbs.to_vec();
    }
    let map = |at: Option<BufRef>, owner: Option<usize>, count: usize, i: usize| {
        at.map(|b| {
            let index = match b.buffer {
                Buffer::Scratch => scratch.get(owner.unwrap_or(rank)).copied().unwrap_or(0) * i + b.index,
                _ => b.index * instances + i * count,
            };
            BufRef::new(b.buffer, index)
        })
    };
    let mut out = Vec::with_capacity(tbs.len() * instances);
    for tb in tbs {
        for i in 0..instances {
            let steps = tb
                .steps
                .iter()
                .map(|s| {
                    // Which rank's buffers src / dst name: a send's dst and a receive's src are the peer's.
                    let src_owner = if s.kind.reads_src() { None } else { tb.recv };
                    let dst_owner = if s.kind == StepKind::Send { tb.send } else { None };
                    Step {
                        src: map(s.src, src_owner, s.count, i),
                        dst: map(s.dst, dst_owner, s.count, i),
                        dep: s.dep.map(|d| Dep { tb: d.tb * instances + i, step: d.step }),
                        ..s.clone()
                    }
                })
                .collect();
            out.push(ThreadBlock {
                id: tb.id * instances + i,
                channel: nchannels * i + tb.channel,
                steps,
                ..tb.clone()
            });
        }
    }
    out.sort_by_key(|t| t.id);
    out
}

/// Sorts thread blocks by (send, recv, channel), as msccl-tools does so thread blocks using
/// the same link sit together, and renumbers them and the dependencies naming them.
fn number(mut tbs: Vec<ThreadBlock>) -> Vec<ThreadBlock> {
    tbs.sort_by_key(|t| (t.send, t.recv, t.channel, t.id));
    let renumber: HashMap<usize, usize> = tbs.iter().enumerate().map(|(new, t)| (t.id, new)).collect();
    for (new, tb) in tbs.iter_mut().enumerate() {
        tb.id = new;
        for step in &mut tb.steps {
            if let Some(d) = &mut step.dep {
                d.tb = renumber.get(&d.tb).copied().unwrap_or(d.tb);
            }
        }
    }
    tbs
}
