//! Distributed flash decoding (one query token per sequence, the KV cache split over ranks
//! by sequence position): every rank computes partial attention over its part of the cache
//! with its log-sum-exp and puts each partial to the block's owner (block `blk` of the
//! `batch * kv_heads` belongs to rank `blk % world`); the owner combines them with a rescaled
//! sum and puts the output rows to every rank, so each ends with the whole attention output.
//! A block's partials thus travel to one rank, not to all: at 8 ranks and 8 blocks 56 partial
//! puts and 56 output puts, against 448 partial puts when every rank combined every block.
//! Grouped-query heads: the `heads / kv_heads` query heads that share a KV head are one tile
//! of rows.
//!
//! A rank's positions `segment(me, seq, world)` are further split over `splits` programs
//! (flash-decoding's split-K), so a batch of one still fills the machine.
//!
//! Args: `q[batch, heads, head_dim]`, `k[batch, kv_heads, seg / BLOCK_N, head_dim, BLOCK_N]`
//! (this rank's positions, `seg` = `cdiv(seq, world)` padded to a multiple of `BLOCK_N`; K
//! stored transposed a step at a time, so each step's `K^T` tile is one contiguous block),
//! `v[batch, kv_heads, seg, head_dim]`, `o[batch, heads, head_dim]`,
//! `part[world * splits, batch, heads, head_dim]` (f32), `lse[world * splits, batch, heads]`
//! (f32), `sig[(world * splits + 1) * batch * kv_heads]` (a word per partial, then one per
//! output block), `batch, heads, kv_heads, seq, head_dim, splits, scale` (f32, the softmax
//! scale) and `epoch`. Constexprs: `T`, `BLOCK_H` (≥ the group), `BLOCK_D` (≥ head_dim),
//! `BLOCK_N` (positions per step).

use crate::gemm::Mat;
use crate::tiles::segment;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// A score that no position reaches: the start of the running maximum and masked scores
/// (finite, so `exp(x - max)` never sees `-inf - -inf`).
const NEG: f64 = -1.0e30;

/// Builds `flash_decode`.
pub fn flash_decode(c: &Constexprs) -> Result<Kernel, DslError> {
    let t = c.dtype("T", &[Scalar::F32, Scalar::F16, Scalar::BF16])?;
    let (bh, bd, bn) = (c.pow2("BLOCK_H", 1, 256)?, c.pow2("BLOCK_D", 1, 512)?, c.pow2("BLOCK_N", 1, 1024)?);
    kernel("flash_decode", c, |a| {
        let (q, k, v, o) = (a.ptr("q", t), a.ptr("k", t), a.ptr("v", t), a.ptr("o", t));
        let (part, lse, sig) = (a.ptr("part", Scalar::F32), a.ptr("lse", Scalar::F32), a.ptr("sig", Scalar::I64));
        let (batch, heads, kv_heads, seq) = (a.i64("batch"), a.i64("heads"), a.i64("kv_heads"), a.i64("seq"));
        let (head_dim, splits, scale, epoch) = (a.i64("head_dim"), a.i64("splits"), a.f32("scale"), a.i64("epoch"));
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let (pid, progs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let group = heads / kv_heads;
        let blocks = batch * kv_heads;
        let (s0, s1) = segment(me, seq, world);
        // Each rank's positions, padded to whole steps (see the module docs).
        let seg_max = cdiv(cdiv(seq, world), bn) * bn;
        let idx = |n: i64| arange(0, n as i32).to(Scalar::I64);
        let (hi, di, ni) = (idx(bh), idx(bd), idx(bn));
        // Rows of the group's query heads (or of its partials) in a `[.., heads, head_dim]` array.
        let heads_of = |base: Val, b: Val, kvh: Val| Mat { ptr: base + (b * heads + kvh * group) * head_dim, rows: group, cols: head_dim, ld: head_dim };
        let lse_of = |src: Val, b: Val, kvh: Val| lse + (src * batch + b) * heads + kvh * group;
        let part_of = |src: Val, b: Val, kvh: Val| heads_of(part + src * batch * heads * head_dim, b, kvh);
        let hmask = hi.lt(group);
        // Partial attention of work item `(split, block)` over this rank's positions.
        for_range(pid, splits * blocks, progs, |item| {
            let (sp, blk) = (item / blocks, item % blocks);
            let (b, kvh) = (blk / kv_heads, blk % kv_heads);
            // Splits start on a step, so each step's K^T tile is one block of `k`.
            let (q0, q1) = segment(sp, cdiv(s1 - s0, bn), splits);
            let (p0, p1) = (q0 * bn, minimum(q1 * bn, s1 - s0));
            let (qp, qm) = heads_of(q, b, kvh).tile(hi, di);
            let qt = load_masked(qp, qm, 0);
            let kv = (b * kv_heads + kvh) * seg_max * head_dim;
            let init = [full(&[bh as usize], NEG, Scalar::F32), zeros(&[bh as usize], Scalar::F32), zeros(&[bh as usize, bd as usize], Scalar::F32)];
            let out = for_range_carry(p0, p1, bn, &init, |n0, c| {
                let live = (n0 + ni).lt(p1);
                // K^T, stored transposed a step at a time: this step's `[head_dim, BLOCK_N]`
                // tile is one contiguous block (the CPU back end turns a transposed gather into
                // code that takes LLVM's register coalescer 45 s at 4x32x32; rows a whole
                // segment apart missed the cache on every row at 8 ranks).
                let kptr = k + kv + n0 * head_dim + expand_dims(di, 1) * bn + expand_dims(ni, 0);
                let kt = load_masked(kptr, expand_dims(di.lt(head_dim), 1) & expand_dims(live, 0), 0);
                let s = dot(qt, kt, zeros(&[bh as usize, bn as usize], Scalar::F32)) * scale;
                let s = select(expand_dims(live, 0), s, NEG);
                let m = maximum(c[0], max(s, 1));
                let alpha = exp(c[0] - m);
                let p = exp(s - expand_dims(m, 1));
                let (vp, vm) = Mat { ptr: v + kv + n0 * head_dim, rows: p1 - n0, cols: head_dim, ld: head_dim }.tile(ni, di);
                let acc = dot(p.to(t), load_masked(vp, vm, 0), c[2] * expand_dims(alpha, 1));
                vec![m, c[1] * alpha + sum(p, 1), acc]
            });
            let (m, l, acc) = (out[0], out[1], out[2]);
            // An empty range leaves l = 0: a zero partial with weight exp(NEG - max) = 0.
            let src = me * splits + sp;
            let (pp, pm) = part_of(src, b, kvh).tile(hi, di);
            store_masked(pp, acc / expand_dims(maximum(l, 1.0e-30f64), 1), pm);
            store_masked(lse_of(src, b, kvh) + hi, select(l.gt(0.0f64), m + log(maximum(l, 1.0e-30f64)), NEG), hmask);
            fence();
            let (slot, owner) = (src * blocks + blk, blk % world);
            if_(owner.eq_(me), || signal_op(sig + slot, epoch, Signal::Set, me));
            if_(owner.ne_(me), || {
                put(part_of(src, b, kvh).ptr, part_of(src, b, kvh).ptr, group * head_dim, owner, ShmemScope::Block);
                // The lse words carry the signal, so the partial must land first.
                fence();
                put_signal(lse_of(src, b, kvh), lse_of(src, b, kvh), group, sig + slot, epoch, owner, PutSignal::default());
            });
        });
        // Combine every rank's and split's partial of this rank's blocks with a running
        // rescaled sum, then send the output rows to every rank.
        let out_sig = sig + world * splits * blocks;
        for_range(me + pid * world, blocks, progs * world, |blk| {
            let (b, kvh) = (blk / kv_heads, blk % kv_heads);
            let init = [full(&[bh as usize], NEG, Scalar::F32), zeros(&[bh as usize], Scalar::F32), zeros(&[bh as usize, bd as usize], Scalar::F32)];
            let out = for_range_carry(0i64, world * splits, 1i64, &init, |src, c| {
                let tok = wait_until(sig + src * blocks + blk, Cmp::Ge, epoch);
                let l = load_masked(consume_token(lse_of(src, b, kvh), tok) + hi, hmask, NEG);
                let part_src = consume_token(part, tok);
                let (pp, pm) = heads_of(part_src + src * batch * heads * head_dim, b, kvh).tile(hi, di);
                let m = maximum(c[0], l);
                let (keep, w) = (exp(c[0] - m), exp(l - m));
                vec![m, c[1] * keep + w, c[2] * expand_dims(keep, 1) + load_masked(pp, pm, 0) * expand_dims(w, 1)]
            });
            let rows = heads_of(o, b, kvh);
            let (op, om) = rows.tile(hi, di);
            store_masked(op, (out[2] / expand_dims(maximum(out[1], 1.0e-30f64), 1)).to(t), om);
            fence();
            for_range(1i64, world, 1i64, |r| {
                put_signal(rows.ptr, rows.ptr, group * head_dim, out_sig + blk, epoch, (me + r) % world, PutSignal::default());
            });
        });
        // Peers put into our `o`: it is whole once every other rank's blocks have arrived.
        for_range(pid, blocks, progs, |blk| {
            if_((blk % world).ne_(me), || {
                let _ = wait_until(out_sig + blk, Cmp::Ge, epoch);
            });
        });
        Ok(())
    })
}
