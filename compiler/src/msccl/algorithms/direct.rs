//! Direct algorithms (every chunk goes straight to its destination) and the two-step
//! AllToAll, which aggregates inter-node traffic.

use super::{AlgoParams, check};
use crate::msccl::buffer::Buffer;
use crate::msccl::collective::Collective;
use crate::msccl::error::Result;
use crate::msccl::program::{Algorithm, Program, ProgramSpec};

fn program(name: &str, collective: Collective, p: &AlgoParams) -> Result<Program> {
    check(p)?;
    Program::new(ProgramSpec::new(name, collective).instances(p.instances).protocol(p.protocol))
}

/// AllGather: each rank copies its chunk into every rank's output.
pub fn allgather_direct(p: &AlgoParams) -> Result<Algorithm> {
    let n = p.ranks;
    let prog = program("allgather_direct", Collective::AllGather { ranks: n, chunks: 1 }, p)?;
    for r in 0..n {
        let own = prog.chunk(r, Buffer::Input, 0, 1)?;
        for step in 0..n {
            own.copy((r + step) % n, Buffer::Output, r)?;
        }
    }
    prog.finish()
}

/// AllToAll: slice d of rank s goes straight to output slot s of rank d.
pub fn alltoall_direct(p: &AlgoParams) -> Result<Algorithm> {
    let n = p.ranks;
    let prog = program("alltoall_direct", Collective::AllToAll { ranks: n, chunks: 1 }, p)?;
    for s in 0..n {
        for step in 0..n {
            let d = (s + step) % n;
            prog.chunk(s, Buffer::Input, d, 1)?.copy(d, Buffer::Output, s)?;
        }
    }
    prog.finish()
}

/// Two-step AllToAll on nodes x local ranks. Slices for the own node go straight to their
/// destination. A slice from (n, g) for (n', g') on another node first moves within node n
/// to (n, g'), into scratch slot n' * local + g; then (n, g') sends the `local` slices for
/// (n', g') in one transfer into the second half of its scratch, and (n', g') copies them
/// to its output. Scratch keeps the aggregated transfer contiguous; it also keeps every
/// input/output access single-chunk, which instance replication requires.
pub fn alltoall_two_step(p: &AlgoParams) -> Result<Algorithm> {
    let (nodes, local) = (p.nodes, p.local()?);
    let total = nodes * local;
    let prog = program("alltoall_two_step", Collective::AllToAll { ranks: total, chunks: 1 }, p)?;
    let rank = |node: usize, g: usize| node * local + g;
    // Step 1 (and the whole journey of node-local slices).
    for n in 0..nodes {
        for g in 0..local {
            for dn in 0..nodes {
                for dg in 0..local {
                    let slice = prog.chunk(rank(n, g), Buffer::Input, rank(dn, dg), 1)?;
                    if dn == n {
                        slice.copy(rank(n, dg), Buffer::Output, rank(n, g))?;
                    } else {
                        slice.copy(rank(n, dg), Buffer::Scratch, dn * local + g)?;
                    }
                }
            }
        }
    }
    // Step 2: one aggregated transfer per (node pair, local index), then local copies out.
    for n in 0..nodes {
        for dg in 0..local {
            for step in 1..nodes {
                let dn = (n + step) % nodes;
                let gathered = prog.chunk(rank(n, dg), Buffer::Scratch, dn * local, local)?;
                let landed = gathered.copy(rank(dn, dg), Buffer::Scratch, total + n * local)?;
                for (g, slice) in landed.split(local)?.into_iter().enumerate() {
                    slice.copy(rank(dn, dg), Buffer::Output, rank(n, g))?;
                }
            }
        }
    }
    prog.finish()
}
