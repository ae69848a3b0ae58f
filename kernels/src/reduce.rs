//! Reductions (sum): ReduceScatter and the AllReduce family. Partial sums are kept in f32
//! for float types and rounded to `T` once, at the end.
//!
//! * `reduce_scatter` (ring): the partial for segment `x` starts at rank `x+1` and travels the
//!   ring, each rank adding its input, until it reaches rank `x` (put_signal per step).
//! * `allreduce_ring` (in `ring_allreduce`): that ring, then the reduced segments travel a
//!   second ring as in the push-ring AllGather; put-based, so it crosses nodes.
//! * `allreduce_one_shot`: `barrier_all`, then each rank sums every peer's buffer through
//!   `remote_ptr`. Lowest latency, `world`x the reads.
//! * `allreduce_two_shot`: reduce-scatter by pulling peers' segments, `barrier_all`, then
//!   all-gather the reduced segments.
//! * `allreduce_multimem`: each rank reduces its segment with `multimem_ld_reduce` and
//!   broadcasts it with `multimem_st` (one node).

use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// `[x*n/world, (x+1)*n/world)` as i64 values: the DSL twin of `reference::segment`.
pub(crate) fn seg(x: Val, n: Val, world: Val) -> (Val, Val) {
    let (x, w) = (x.to(Scalar::I64), world.to(Scalar::I64));
    (x * n / w, (x + 1) * n / w)
}

/// This program's share of segment `x` as absolute `[start, end)`.
pub(crate) fn seg_chunk(x: Val, n: Val, world: Val, segmax: Val) -> (Val, Val) {
    let (s, e) = seg(x, n, world);
    let (cs, ce) = my_chunk(segmax);
    (minimum(s + cs, e), minimum(s + ce, e))
}

/// Ring ReduceScatter. Args: `inp[n], out[segmax], recv[(world-1)*segmax] (f32),
/// work[segmax] (f32), sig[(world-1)*programs], n, segmax, epoch`.
pub fn reduce_scatter(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("reduce_scatter", c, |a| {
        let (out, ring) = Ring::args(a, &cfg);
        let Ring { inp, n, segmax, .. } = ring;
        let (me, world) = (my_pe(), n_pes());
        let (my_s, my_e) = seg_chunk(me, n, world, segmax);
        let my_base = seg(me, n, world).0;
        if_(world.eq_(1), || copy_range(out - my_base, inp, my_s, my_e, cfg.block));
        ring_reduce_scatter(&cfg, &ring, &|offs, m, sum, base| store_masked(out - base + offs, sum.to(cfg.t), m));
        Ok(())
    })
}

/// The buffers and sizes of a ring ReduceScatter (see [`reduce_scatter`]'s arguments).
#[derive(Clone, Copy)]
pub(crate) struct Ring {
    pub(crate) inp: Val,
    pub(crate) recv: Val,
    pub(crate) work: Val,
    pub(crate) sig: Val,
    pub(crate) n: Val,
    pub(crate) segmax: Val,
    pub(crate) epoch: Val,
}

impl Ring {
    /// The ring kernels' arguments `inp, out, recv, work, sig, n, segmax, epoch`: `out` and the ring.
    pub(crate) fn args(a: &mut Args, cfg: &Config) -> (Val, Ring) {
        let acc = cfg.acc();
        let (inp, out) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t));
        let (recv, work, sig) = (a.ptr("recv", acc), a.ptr("work", acc), a.ptr("sig", Scalar::I64));
        let (n, segmax, epoch) = (a.i64("n"), a.i64("segmax"), a.i64("epoch"));
        (out, Ring { inp, recv, work, sig, n, segmax, epoch })
    }
}

/// The `world - 1` steps of the ring ReduceScatter: the partial for segment `x` starts at
/// rank `x+1` and travels the ring, each rank adding its input, until it reaches rank `x`,
/// which hands each tile of the full sum to `finish(offsets, mask, sum, segment start)`
/// (absolute offsets, sum in the accumulator type). Uses signal rows `0..world-1` of `sig`.
pub(crate) fn ring_reduce_scatter(cfg: &Config, r: &Ring, finish: &dyn Fn(Val, Val, Val, Val)) {
    let Ring { inp, recv, work, sig, n, segmax, epoch } = *r;
    let (me, world) = (my_pe(), n_pes());
    let next = peer(me, 1, world);
    for_range(0, world - 1, 1, |s| {
        // Send the partial of segment `xs`; on step 0 that is our own input.
        let xs = peer(me, -(s + 1), world);
        let (ss, se) = seg_chunk(xs, n, world, segmax);
        let xs_base = seg(xs, n, world).0;
        if_(s.eq_(0), || copy_range(work - xs_base, inp, ss, se, cfg.block));
        let slot = recv + s.to(Scalar::I64) * segmax - xs_base;
        let sig_s = signal_slot(sig, s);
        put_signal(slot + ss, work - xs_base + ss, se - ss, sig_s, epoch, next, PutSignal::default());
        // Receive the partial of segment `xr` and add our input to it.
        let xr = peer(me, -(s + 2), world);
        let (rs, re) = seg_chunk(xr, n, world, segmax);
        let xr_base = seg(xr, n, world).0;
        let tok = wait_until(sig_s, Cmp::Ge, epoch);
        let rslot = consume_token(recv + s.to(Scalar::I64) * segmax - xr_base, tok);
        let last = s.eq_(world - 2);
        for_tiles(rs, re, cfg.block, |offs, m| {
            let sum = load_masked(rslot + offs, m, 0) + load_masked(inp + offs, m, 0).to(cfg.acc());
            if_else(
                last,
                || {
                    finish(offs, m, sum, xr_base);
                    vec![]
                },
                || {
                    store_masked(work - xr_base + offs, sum, m);
                    vec![]
                },
            );
        });
    });
}

/// One-shot AllReduce. Args: `inp, out, n`.
pub fn one_shot(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allreduce_one_shot", c, |a| {
        let (inp, out, n) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.i64("n"));
        let (start, end) = my_chunk(n);
        barrier_all();
        for_tiles(start, end, cfg.block, |offs, m| {
            let s = sum_over_peers(inp + offs, m, constant(0, Scalar::I32, &[]), n_pes(), cfg.acc());
            store_masked(out + offs, s.to(cfg.t), m);
        });
        Ok(())
    })
}

/// Two-shot AllReduce. Args: `inp, out, n, segmax`.
pub fn two_shot(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allreduce_two_shot", c, |a| {
        let (inp, out, n, segmax) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.i64("n"), a.i64("segmax"));
        let (me, world) = (my_pe(), n_pes());
        barrier_all();
        let (s, e) = seg_chunk(me, n, world, segmax);
        for_tiles(s, e, cfg.block, |offs, m| {
            let sum = sum_over_peers(inp + offs, m, constant(0, Scalar::I32, &[]), world, cfg.acc());
            store_masked(out + offs, sum.to(cfg.t), m);
        });
        barrier_all();
        for_range(1, world, 1, |k| {
            let q = peer(me, k, world);
            let (qs, qe) = seg_chunk(q, n, world, segmax);
            copy_range(out, remote_ptr(out, q), qs, qe, cfg.block);
        });
        Ok(())
    })
}

/// multimem AllReduce over one node. Args: `inp, out, n, segmax`.
pub fn multimem(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allreduce_multimem", c, |a| {
        let (inp, out, n, segmax) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.i64("n"), a.i64("segmax"));
        barrier_all();
        let (s, e) = seg_chunk(my_pe(), n, n_pes(), segmax);
        for_tiles(s, e, cfg.block, |offs, m| {
            let v = multimem_ld_reduce(inp + offs, Some(m));
            multimem_st(out + offs, v, Some(m));
        });
        // Peers store into our `out`: our output is complete only once every rank is done.
        barrier_all();
        Ok(())
    })
}

/// The tuner's search space of the reductions (one-shot, two-shot, multimem, reduce-scatter):
/// the two-shot's CPU default 64 (first: the value a kernel without its own takes), 32 below
/// it (`cargo bench --bench alternate`, 4 KiB AllReduce on 1x4, two runs at load 4.5-5.4:
/// two-shot p50 2.4-2.5 us at 32 against 2.7 at 64, one-shot 4.0 against 4.7-4.8), and wider.
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[crate::tune::Param::all("BLOCK", &["64", "32", "256", "1024", "4096"])];

/// The tuner's space of the pipelined rings (`ring_allreduce`, `ring_bidir`; declared here to
/// keep the ring files to their kernels): the tile, from their CPU default 64 up, and the
/// chunk cap `CHUNK` in elements (`-`: the target's default, see `ring::ring_chunk`).
pub(crate) const RING_TUNE_SPACE: &[crate::tune::Param] =
    &[crate::tune::Param::all("BLOCK", &["64", "256", "1024"]), crate::tune::Param::all("CHUNK", &[crate::tune::space::DEFAULT, "1024", "8192", "65536"])];
