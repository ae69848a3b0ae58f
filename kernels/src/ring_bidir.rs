//! Bidirectional ring ReduceScatter and AllGather (the Pallas guide's): half of every
//! program's share goes each way round, over the pipelined ring of `ring`, so both links of
//! every rank carry data and each direction takes `world - 1` steps of half the bytes.

use crate::common::*;
use crate::reduce::{seg, seg_chunk};
use crate::ring::{p2p, reduce_args, Pipe, PipeArgs};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Bidirectional ring ReduceScatter. Args: `inp[n], out[segmax], slots[2*programs*RING_SLOTS*chunk],
/// stage[2*programs*chunk] (accumulator type), sig[2*programs*RING_SIGNALS], n, segmax, chunk, epoch`.
pub fn reduce_scatter(c: &Constexprs) -> Result<Kernel, DslError> {
    let (cfg, p2p) = (Config::from(c)?, p2p(c)?);
    kernel("reduce_scatter_bidir", c, |a| {
        let (inp, out, slots, args, n, segmax) = reduce_args(a, &cfg, p2p);
        let world = n_pes();
        let longest = cdiv(segmax, num_programs(0).to(Scalar::I64));
        let pipe = Pipe::new(&args, 2, longest, Box::new(move |x| seg_chunk(x, n, world, segmax)));
        let mine = out - seg(my_pe(), n, world).0;
        pipe.for_chunks(&|dir, c| pipe.reduce_scatter(&cfg, inp, slots, dir, c, &|offs, m, sum| store_masked(mine + offs, sum.to(cfg.t), m)));
        Ok(())
    })
}

/// Bidirectional ring AllGather. Args: `inp[n], out[world*n], sig[2*programs*RING_SIGNALS], n,
/// chunk, epoch`.
pub fn allgather(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather_bidir", c, |a| {
        let (inp, out, sig) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.ptr("sig", Scalar::I64));
        let (n, chunk, epoch) = (a.i64("n"), a.i64("chunk"), a.i64("epoch"));
        // Shard `x` is `out[x*n ..]`: this program's part of it, in `out`'s coordinates.
        let share = move |x: Val| {
            let (s, e) = my_chunk(n);
            let at = x.to(Scalar::I64) * n;
            (at + s, at + e)
        };
        let longest = cdiv(n, num_programs(0).to(Scalar::I64));
        let pipe = Pipe::new(&PipeArgs { sig, chunk, epoch }, 2, longest, Box::new(share));
        let own = my_pe().to(Scalar::I64) * n;
        let first = constant(0, Scalar::I32, &[]);
        pipe.for_chunks(&|dir, c| {
            let (s, e) = pipe.own(dir, c);
            copy_range(out, inp - own, s, e, cfg.block);
            pipe.gather_push(dir, out, (s, e), c, first);
            pipe.gather(dir, out, c);
        });
        Ok(())
    })
}
