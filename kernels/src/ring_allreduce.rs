//! `allreduce_ring` and `allreduce_ring_bidir`: the bandwidth-optimal AllReduce as a pipelined
//! ring (see `ring`): a ReduceScatter ring leaves rank `r` with segment `r` of the sum in
//! `out`, each chunk of it is put to the next rank as soon as it is reduced, and the reduced
//! segments travel an AllGather ring straight into the peers' outputs. Put-based (no load
//! from a peer), so it crosses nodes. Each rank moves `2 (world - 1) / world` of the buffer
//! and touches its input once, where the two-shot kernel reads every peer's input.

use crate::common::*;
use crate::reduce::seg_chunk;
use crate::ring::{p2p, reduce_args, Pipe};
use weft_compiler::dsl::shmem::n_pes;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Ring AllReduce, one direction. Args: `inp[n], out[n], slots[programs*RING_SLOTS*chunk],
/// stage[programs*chunk] (accumulator type), sig[programs*RING_SIGNALS], n, segmax, chunk, epoch`.
pub fn ring(c: &Constexprs) -> Result<Kernel, DslError> {
    build(c, "allreduce_ring", 1)
}

/// Ring AllReduce, half of every segment each way round: as [`ring`], with twice the slots,
/// stages and signals (`2*programs` lanes).
pub fn ring_bidir(c: &Constexprs) -> Result<Kernel, DslError> {
    build(c, "allreduce_ring_bidir", 2)
}

fn build(c: &Constexprs, name: &str, ndirs: i64) -> Result<Kernel, DslError> {
    let (cfg, p2p) = (Config::from(c)?, p2p(c)?);
    kernel(name, c, |a| {
        let (inp, out, slots, args, n, segmax) = reduce_args(a, &cfg, p2p);
        let world = n_pes();
        let longest = cdiv(segmax, num_programs(0).to(Scalar::I64));
        let pipe = Pipe::new(&args, ndirs, longest, Box::new(move |x| seg_chunk(x, n, world, segmax)));
        let first = constant(0, Scalar::I32, &[]);
        pipe.for_chunks(&|dir, c| {
            if p2p {
                // The reduced chunk goes into `next`'s output as it is stored here: the
                // AllGather's first step costs no second pass over it.
                let there = pipe.at_next(dir, out);
                pipe.reduce_scatter(&cfg, inp, slots, dir, c, &|offs, m, sum| {
                    let v = sum.to(cfg.t);
                    store_masked(out + offs, v, m);
                    store_masked(there + offs, v, m);
                });
                pipe.gather_stored(dir, c);
            } else {
                pipe.reduce_scatter(&cfg, inp, slots, dir, c, &|offs, m, sum| store_masked(out + offs, sum.to(cfg.t), m));
                pipe.gather_push(dir, out, pipe.own(dir, c), c, first);
            }
            pipe.gather(dir, out, c);
        });
        Ok(())
    })
}
