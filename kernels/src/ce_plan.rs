//! Copy-engine plans of the overlap kernels, built on the host per launch (the signal value
//! is the launch's epoch). They mirror Triton-distributed's copy-engine paths:
//!
//! * [`ag_push`]: each rank pushes its shard to every rank (itself first: the local copy),
//!   one row tile at a time in [`ag_source`] order, each followed by that tile's signal on
//!   the receiver. No extra synchronisation; arrival order is the senders' business.
//! * [`ag_pull`]: each rank places its shard in its own `a_full` (the local copy), tells every
//!   peer it is placed (a ready signal), then pulls every peer's shard in its own
//!   [`ag_source`] order once that peer's ready signal has arrived: one more synchronisation,
//!   but the receiver controls the order.
//! * [`rs_scatter`]: each rank's queue waits for each partial tile the GEMM programs stage
//!   (their ready signal), copies it to the rank of its node that reduces it, then signals
//!   there: the scatter leaves the programs to computing.

use crate::reference::segment;
use crate::swizzle::{ag_source, rs_dest};
use weft_runtime::{At, CopyOp, CopyPlan, RawBuf};

/// Where the AG-GEMM kernels' gather reads and writes, and the sizes that place each chunk.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AgLayout {
    pub shard: RawBuf,
    pub full: RawBuf,
    /// `world * tiles` tile signals, then (pull) `world` ready signals.
    pub sig: RawBuf,
    pub m: usize,
    /// Bytes per row of A (`k * element size`).
    pub row_bytes: usize,
    pub bm: usize,
    /// Row tiles of the tallest shard.
    pub tiles: usize,
    pub world: usize,
    pub local: usize,
}

impl AgLayout {
    /// Rank `r`'s row tiles: (first row within the shard, rows).
    fn row_tiles(&self, r: usize) -> impl Iterator<Item = (usize, usize)> {
        let len = segment(self.m, self.world, r).len();
        let bm = self.bm;
        (0..len.div_ceil(bm)).map(move |i| (i * bm, bm.min(len - i * bm)))
    }

    fn tile_sig(&self, r: usize, i: usize) -> At {
        At::new(self.sig, 8 * (r * self.tiles + i))
    }

    fn ready(&self, r: usize) -> At {
        At::new(self.sig, 8 * (self.world * self.tiles + r))
    }

    fn order(&self, step: usize, me: usize) -> usize {
        ag_source(step as i64, me as i64, self.local as i64, self.world as i64) as usize
    }

    /// Where row `row0` of shard `r` lands in `a_full`.
    fn full_at(&self, r: usize, row0: usize) -> At {
        At::new(self.full, (segment(self.m, self.world, r).start + row0) * self.row_bytes)
    }
}

/// The push-mode AllGather of A's shards.
pub(crate) fn ag_push(l: &AgLayout, epoch: u64) -> CopyPlan {
    let mut plan = CopyPlan::new(l.world);
    for me in 0..l.world {
        for step in 0..l.world {
            let pe = l.order(step, me);
            for (i, (row0, rows)) in l.row_tiles(me).enumerate() {
                let src = At::new(l.shard, row0 * l.row_bytes);
                plan.push(me, CopyOp::Put { dst: l.full_at(me, row0), src, bytes: rows * l.row_bytes, pe });
                plan.push(me, CopyOp::Signal { sig: l.tile_sig(me, i), value: epoch, pe });
            }
        }
    }
    plan
}

/// The pull-mode AllGather of A's shards.
pub(crate) fn ag_pull(l: &AgLayout, epoch: u64) -> CopyPlan {
    let mut plan = CopyPlan::new(l.world);
    for me in 0..l.world {
        for (i, (row0, rows)) in l.row_tiles(me).enumerate() {
            let src = At::new(l.shard, row0 * l.row_bytes);
            plan.push(me, CopyOp::Put { dst: l.full_at(me, row0), src, bytes: rows * l.row_bytes, pe: me });
            plan.push(me, CopyOp::Signal { sig: l.tile_sig(me, i), value: epoch, pe: me });
        }
        for step in 1..l.world {
            plan.push(me, CopyOp::Signal { sig: l.ready(me), value: epoch, pe: l.order(step, me) });
        }
        for step in 1..l.world {
            let from = l.order(step, me);
            plan.push(me, CopyOp::Wait { sig: l.ready(from), value: epoch });
            for (i, (row0, rows)) in l.row_tiles(from).enumerate() {
                let at = l.full_at(from, row0);
                plan.push(me, CopyOp::Get { dst: at, src: at, bytes: rows * l.row_bytes, pe: from });
                plan.push(me, CopyOp::Signal { sig: l.tile_sig(from, i), value: epoch, pe: me });
            }
        }
    }
    plan
}

/// Where GEMM-RS stages, scatters and signals partial tiles (see `crate::gemm_rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RsLayout {
    pub stage: RawBuf,
    pub part: RawBuf,
    /// Partial and node-partial signals, then `world * max_tiles` ready signals.
    pub sig: RawBuf,
    pub m: usize,
    pub n: usize,
    pub bm: usize,
    pub bn: usize,
    /// Bytes per element of a partial tile (the element type's).
    pub es: usize,
    /// Tiles of the tallest segment.
    pub max_tiles: usize,
    pub world: usize,
    pub local: usize,
}

/// The copy-engine scatter of GEMM-RS's partial tiles.
pub(crate) fn rs_scatter(l: &RsLayout, epoch: u64) -> CopyPlan {
    let nodes = l.world / l.local;
    let tile_bytes = l.bm * l.bn * l.es;
    let ready0 = (l.local + 1) * nodes * l.max_tiles;
    let mut plan = CopyPlan::new(l.world);
    for me in 0..l.world {
        let (my_node, my_local) = (me / l.local, me % l.local);
        for step in 0..l.world {
            let dest = rs_dest(step as i64, me as i64, l.local as i64, l.world as i64) as usize;
            let tiles = segment(l.m, l.world, dest).len().div_ceil(l.bm) * l.n.div_ceil(l.bn);
            let via = my_node * l.local + dest % l.local;
            for index in 0..tiles {
                let staged = dest * l.max_tiles + index;
                let slot = (my_local * nodes + dest / l.local) * l.max_tiles + index;
                plan.push(me, CopyOp::Wait { sig: At::new(l.sig, 8 * (ready0 + staged)), value: epoch });
                plan.push(me, CopyOp::Put { dst: At::new(l.part, slot * tile_bytes), src: At::new(l.stage, staged * tile_bytes), bytes: tile_bytes, pe: via });
                plan.push(me, CopyOp::Signal { sig: At::new(l.sig, 8 * slot), value: epoch, pe: via });
            }
        }
    }
    plan
}
