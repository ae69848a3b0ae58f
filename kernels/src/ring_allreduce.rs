//! `allreduce_ring`: put-based ring AllReduce, the bandwidth-optimal algorithm that needs no
//! load from a peer, so it runs across nodes (where `remote_ptr` cannot reach). A ring
//! ReduceScatter (the `reduce_scatter` kernel's steps) leaves rank `r` with segment `r` of the
//! sum in `out`; the reduced segments then travel a second ring, each rank forwarding the
//! segment it just received, as the push-ring AllGather does. Every transfer is a
//! `put_signal` into a slot no other step uses, each program instance pipelines its own chunk
//! of every segment, and signals wait for the launch's epoch, so nothing is cleared between
//! launches. `2 (world - 1)` steps of `n / world` elements each.

use crate::common::*;
use crate::reduce::{ring_reduce_scatter, seg_chunk, Ring};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::Kernel;

/// Ring AllReduce. Args: `inp[n], out[n], recv[(world-1)*segmax] (f32), work[segmax] (f32),
/// sig[(2*world-1)*programs], n, segmax, epoch`.
pub fn ring(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allreduce_ring", c, |a| {
        let (out, ring) = Ring::args(a, &cfg);
        let Ring { inp, sig, n, segmax, epoch, .. } = ring;
        let (me, world) = (my_pe(), n_pes());
        let (my_s, my_e) = seg_chunk(me, n, world, segmax);
        if_(world.eq_(1), || copy_range(out, inp, my_s, my_e, cfg.block));
        ring_reduce_scatter(&cfg, &ring, &|offs, m, sum, _| store_masked(out + offs, sum.to(cfg.t), m));
        // The gather ring: signal row `world - 1 + x` says segment `x` has arrived.
        let arrived = |x: Val| signal_slot(sig, world - 1 + x);
        let next = peer(me, 1, world);
        if_(world.gt(1), || push_chunk(out, my_s, my_e, arrived(me), epoch, next));
        for_range(1, world, 1, |s| {
            let src = peer(me, -s, world);
            let _ = wait_until(arrived(src), Cmp::Ge, epoch);
            if_(s.lt(world - 1), || {
                let (ss, se) = seg_chunk(src, n, world, segmax);
                push_chunk(out, ss, se, arrived(src), epoch, next);
            });
        });
        Ok(())
    })
}
