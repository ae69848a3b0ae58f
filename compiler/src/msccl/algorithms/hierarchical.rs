//! Hierarchical AllReduce over nodes x local ranks (MSCCLang's running example).
//!
//! Rank (node, g) is `node * local + g`. There are `nodes * local` chunks; local rank g owns
//! group g, chunks `g * nodes + m` for m in 0..nodes, and within the group node m owns
//! member m. Four ring phases, all in place:
//! 1. intra-node ReduceScatter: every group is reduced onto its owning local rank;
//! 2. inter-node ReduceScatter among the ranks with the same local index: member m onto node m;
//! 3. inter-node AllGather of the members;
//! 4. intra-node AllGather of the groups.

use std::collections::HashMap;

use super::{AlgoParams, check};
use crate::msccl::buffer::Buffer;
use crate::msccl::chunk::ChunkRef;
use crate::msccl::collective::Collective;
use crate::msccl::error::Result;
use crate::msccl::program::{Algorithm, Program, ProgramSpec};

/// A ring over a subset of ranks: `ring(i)` is its i-th member.
struct Ring<'a> {
    len: usize,
    member: &'a dyn Fn(usize) -> usize,
}

impl Ring<'_> {
    /// Reduces the latest references in `refs` for `index` around the ring, ending at member
    /// `owner`; returns the reference at the owner.
    fn reduce(
        &self,
        prog: &Program,
        refs: &mut HashMap<(usize, usize), ChunkRef>,
        owner: usize,
        index: usize,
    ) -> Result<ChunkRef> {
        let mut partial = latest(prog, refs, (self.member)((owner + 1) % self.len), index)?;
        for hop in 2..=self.len {
            let rank = (self.member)((owner + hop) % self.len);
            partial = latest(prog, refs, rank, index)?.reduce(&partial)?;
            refs.insert((rank, index), partial.clone());
        }
        Ok(partial)
    }

    /// Copies `chunk`, held by member `owner`, to every other member.
    fn broadcast(
        &self,
        refs: &mut HashMap<(usize, usize), ChunkRef>,
        owner: usize,
        mut chunk: ChunkRef,
        index: usize,
    ) -> Result<()> {
        for hop in 1..self.len {
            let rank = (self.member)((owner + hop) % self.len);
            chunk = chunk.copy(rank, Buffer::Input, index)?;
            refs.insert((rank, index), chunk.clone());
        }
        Ok(())
    }
}

/// The latest reference to `in[rank][index]`.
fn latest(prog: &Program, refs: &HashMap<(usize, usize), ChunkRef>, rank: usize, index: usize) -> Result<ChunkRef> {
    match refs.get(&(rank, index)) {
        Some(r) => Ok(r.clone()),
        None => prog.chunk(rank, Buffer::Input, index, 1),
    }
}

/// Hierarchical AllReduce on `p.nodes` x `p.ranks / p.nodes` ranks.
pub fn hierarchical_allreduce(p: &AlgoParams) -> Result<Algorithm> {
    check(p)?;
    let (nodes, local) = (p.nodes, p.local()?);
    let total = nodes * local;
    let spec = ProgramSpec::new("hierarchical_allreduce", Collective::AllReduce { ranks: total, chunks: total })
        .instances(p.instances)
        .protocol(p.protocol)
        .in_place(true);
    let prog = Program::new(spec)?;
    let mut refs = HashMap::new();
    let chunk = |g: usize, m: usize| g * nodes + m;
    // Phase 1: within node n, group g ends reduced on local rank g.
    for n in 0..nodes {
        let in_node = move |i: usize| n * local + i;
        let ring = Ring { len: local, member: &in_node };
        for g in 0..local {
            for m in 0..nodes {
                ring.reduce(&prog, &mut refs, g, chunk(g, m))?;
            }
        }
    }
    // Phases 2 and 3: across nodes, among local rank g of every node.
    for g in 0..local {
        let across = move |node: usize| node * local + g;
        let ring = Ring { len: nodes, member: &across };
        for m in 0..nodes {
            let reduced = ring.reduce(&prog, &mut refs, m, chunk(g, m))?;
            ring.broadcast(&mut refs, m, reduced, chunk(g, m))?;
        }
    }
    // Phase 4: within node n, local rank g shares group g.
    for n in 0..nodes {
        let in_node = move |i: usize| n * local + i;
        let ring = Ring { len: local, member: &in_node };
        for g in 0..local {
            for m in 0..nodes {
                let owned = latest(&prog, &refs, in_node(g), chunk(g, m))?;
                ring.broadcast(&mut refs, g, owned, chunk(g, m))?;
            }
        }
    }
    prog.finish()
}
