//! Ring algorithms: every chunk moves rank r -> r+1.

use super::{AlgoParams, check};
use crate::msccl::buffer::Buffer;
use crate::msccl::chunk::ChunkRef;
use crate::msccl::collective::Collective;
use crate::msccl::error::Result;
use crate::msccl::program::{Algorithm, Program, ProgramSpec};

fn program(name: &str, collective: Collective, in_place: bool, p: &AlgoParams) -> Result<Program> {
    check(p)?;
    Program::new(ProgramSpec::new(name, collective).instances(p.instances).protocol(p.protocol).in_place(in_place))
}

/// Reduces chunk `index` of `buffer` along the ring, starting at `first` and visiting
/// `hops` more ranks; `dst(rank)` names where each visited rank keeps its partial sum
/// (its own contribution is copied there first unless it already is there).
fn reduce_along_ring(
    prog: &Program,
    first: usize,
    hops: usize,
    index: usize,
    dst: impl Fn(usize) -> (Buffer, usize),
) -> Result<ChunkRef> {
    let n = prog.ranks();
    let mut partial = prog.chunk(first, Buffer::Input, index, 1)?;
    for hop in 1..=hops {
        let rank = (first + hop) % n;
        let own = prog.chunk(rank, Buffer::Input, index, 1)?;
        let (buffer, at) = dst(rank);
        let acc = if (buffer, at) == (Buffer::Input, index) { own } else { own.copy(rank, buffer, at)? };
        partial = acc.reduce(&partial)?;
    }
    Ok(partial)
}

/// Copies `chunk` (on rank r) to the same place on the next `hops` ranks of the ring.
fn pass_along_ring(mut chunk: ChunkRef, hops: usize, n: usize, buffer: Buffer, index: usize) -> Result<ChunkRef> {
    for _ in 0..hops {
        chunk = chunk.copy((chunk.rank() + 1) % n, buffer, index)?;
    }
    Ok(chunk)
}

/// Ring AllReduce, in place, one chunk per rank: chunk k is reduced along the ring ending
/// at rank k, then passed on around the ring.
pub fn ring_allreduce(p: &AlgoParams) -> Result<Algorithm> {
    let n = p.ranks;
    let prog = program("ring_allreduce", Collective::AllReduce { ranks: n, chunks: n }, true, p)?;
    for k in 0..n {
        let reduced = reduce_along_ring(&prog, (k + 1) % n, n - 1, k, |_| (Buffer::Input, k))?;
        pass_along_ring(reduced, n - 1, n, Buffer::Input, k)?;
    }
    prog.finish()
}

/// Ring AllGather: each rank copies its chunk into its output, then it travels the ring.
pub fn allgather_ring(p: &AlgoParams) -> Result<Algorithm> {
    let n = p.ranks;
    let prog = program("allgather_ring", Collective::AllGather { ranks: n, chunks: 1 }, false, p)?;
    for r in 0..n {
        let own = prog.chunk(r, Buffer::Input, 0, 1)?.copy(r, Buffer::Output, r)?;
        pass_along_ring(own, n - 1, n, Buffer::Output, r)?;
    }
    prog.finish()
}

/// Ring ReduceScatter, out of place: slice k is reduced along the ring ending at rank k,
/// each rank adding its contribution in scratch (inputs stay untouched) and the owner
/// adding its own in the output.
pub fn reduce_scatter_ring(p: &AlgoParams) -> Result<Algorithm> {
    let n = p.ranks;
    let prog = program("reduce_scatter_ring", Collective::ReduceScatter { ranks: n, chunks: 1 }, false, p)?;
    for k in 0..n {
        let place = |rank: usize| if rank == k { (Buffer::Output, 0) } else { (Buffer::Scratch, k) };
        let reduced = reduce_along_ring(&prog, (k + 1) % n, n - 1, k, place)?;
        if n == 1 {
            reduced.copy(k, Buffer::Output, 0)?;
        }
    }
    prog.finish()
}
