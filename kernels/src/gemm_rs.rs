//! GEMM-ReduceScatter, `C_shard = ReduceScatter(A · B)`, with the scatter and the reduction
//! fused into the kernel, hierarchically over a `nodes x local` topology.
//!
//! Program instances `0..G` compute partial tiles, segment by segment in [`rs_dest`] order
//! (own segment last). A finished tile is stored straight into its slot of `part` on the rank
//! of this node that has the owner's local index (on one node, the owner itself; a node's
//! memory is reachable by `remote_ptr`), then signalled. That rank reduces each such tile in the
//! program that computed its own partial of it, right after (its peers computed theirs earlier):
//! 1. intra-node: sum the `local` partials of the tile, other nodes' segments first;
//! 2. inter-node: push each such node partial (`put_signal`) to its owner on its node;
//! 3. final: the owner adds the other nodes' partials to its own node's and stores `C_shard`.
//!
//! `gemm_rs_ce` instead stages every tile for the copy engine, and its programs
//! `G..G+COMM_PROGRAMS` reduce on arrival. (Reduction programs that waited for a rank's own
//! partial, computed last, summed every tile after the GEMM on a CPU rank's one core: on
//! `mpi` at 1x4 the fused kernel was 0.83-0.87x its baseline, with the staging copy.)
//!
//! The reductions walk each tile `REDUCE_ROWS` rows at a time (constexpr, default 8).
//!
//! Partial and node-partial tiles are stored, put and summed in the element type (bf16/f16
//! halve the bytes against f32; the sums themselves run in f32), each rounded once, as the
//! GEMM-then-ReduceScatter baseline rounds its GEMM output and sums in the element type.
//!
//! Args: `a[m, k], b[k, n], c[seg_rows, n], stage, part, nstage, inter, sig, m, n, k, local,
//! epoch`. With `T = max_tiles * BLOCK_M * BLOCK_N` (elements per segment's tiles,
//! `max_tiles = cdiv(cdiv(m, world), BLOCK_M) * cdiv(n, BLOCK_N)`): `stage[world * T]` (the
//! copy engine's staging slots; `gemm_rs` leaves it alone),
//! `part[local * nodes * T]`, `nstage[nodes * T]`, `inter[nodes * T]`, and
//! `sig[(local + 1) * nodes * max_tiles]` (i64; partial signals, then node-partial signals).

use crate::gemm::{store_tile, tile_product, GemmConfig, Mat};
use crate::swizzle::rs_dest;
use crate::tiles::{i64c, role_split, seg_tiles, segment, SegTile};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// A dense `BLOCK_M x BLOCK_N` tile at slot `slot` of a tile array.
pub(crate) fn slot_tile(base: Val, slot: Val, cfg: &GemmConfig) -> Mat {
    let size = cfg.bm * cfg.bn;
    Mat { ptr: base + slot * size, rows: i64c(cfg.bm), cols: i64c(cfg.bn), ld: i64c(cfg.bn) }
}

/// Row and column indices of a whole slot tile.
pub(crate) fn slot_indices(cfg: &GemmConfig) -> (Val, Val) {
    (arange(0, cfg.bm as i32).to(Scalar::I64), arange(0, cfg.bn as i32).to(Scalar::I64))
}

/// Who moves a finished partial tile to the rank that reduces it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scatter {
    /// The computing program, with `put_signal`.
    Programs,
    /// The host's copy-engine queue: the program stores the tile to its staging slot and
    /// sets the slot's ready signal; the queue waits on it, copies and signals the peer.
    CopyEngine,
}

/// What the reduction programs leave in `c`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// This rank's segment of the sum, `c[seg_rows, n]` (GEMM-ReduceScatter).
    Shard,
    /// The whole sum, `c[m, n]` on every rank: owners also put their reduced tiles to every
    /// peer, which copy them in (GEMM-AllReduce, two-shot; see `crate::gemm_ar`).
    Gathered,
}

/// The reduction programs' inner loop: sums `rr`-row chunks of arrived partial tiles in f32.
/// Reductions are memory-bound, and a whole tile carried through the arrival loop is
/// straight-line code that costs seconds of compile time on the CPU and registers on a GPU.
pub(crate) struct Arrivals {
    pub(crate) cfg: GemmConfig,
    pub(crate) epoch: Val,
    /// Rows per chunk.
    pub(crate) rr: i64,
    /// Columns per store of gathered rows into `c` (`COPY_COLS`, default 32, at most the
    /// tile's width; see `crate::gemm_ar::copy_rows`).
    pub(crate) copy_cols: i64,
}

impl Arrivals {
    /// Reads `REDUCE_ROWS` (default 8, at most the tile's height) and `COPY_COLS`.
    pub(crate) fn new(c: &Constexprs, cfg: GemmConfig, epoch: Val) -> Result<Arrivals, DslError> {
        let rr = if c.get("REDUCE_ROWS").is_some() { c.pow2("REDUCE_ROWS", 1, 256)? } else { 8 };
        let copy_cols = if c.get("COPY_COLS").is_some() { c.pow2("COPY_COLS", 1, 256)? } else { 32 };
        Ok(Arrivals { cfg, epoch, rr: rr.min(cfg.bm), copy_cols: copy_cols.min(cfg.bn) })
    }

    /// Row and column indices of one chunk.
    pub(crate) fn indices(&self) -> (Val, Val) {
        (arange(0, self.rr as i32).to(Scalar::I64), arange(0, self.cfg.bn as i32).to(Scalar::I64))
    }

    /// Rows `r0..` of `t`.
    pub(crate) fn chunk(t: &Mat, r0: Val) -> Mat {
        Mat { ptr: t.ptr + r0 * t.ld, rows: t.rows - r0, cols: t.cols, ld: t.ld }
    }

    /// `init` plus rows `r0..r0 + rr` of slot tiles `bufs[slot_of(q)]`, `q` in `0..count`,
    /// each waited for on `sigs + slot` (once it has arrived, a wait is one load of its signal).
    pub(crate) fn sum(&self, count: Val, slot_of: &dyn Fn(Val) -> Val, sigs: Val, bufs: Val, r0: Val, init: Val) -> Val {
        for_range_carry(0i64, count, 1i64, &[init], |q, acc| {
            let slot = slot_of(q);
            let tok = wait_until(sigs + slot, Cmp::Ge, self.epoch);
            vec![self.add_chunk(consume_token(bufs, tok), slot, r0, acc[0])]
        })[0]
    }

    /// [`Arrivals::sum`] of partials known to be in place (after a barrier): no waits.
    pub(crate) fn sum_in_place(&self, count: Val, slot_of: &dyn Fn(Val) -> Val, bufs: Val, r0: Val, init: Val) -> Val {
        for_range_carry(0i64, count, 1i64, &[init], |q, acc| vec![self.add_chunk(bufs, slot_of(q), r0, acc[0])])[0]
    }

    /// `acc` plus rows `r0..r0 + rr` of slot tile `slot` of `bufs`.
    fn add_chunk(&self, bufs: Val, slot: Val, r0: Val, acc: Val) -> Val {
        let (ci, cj) = self.indices();
        let (p, mask) = Self::chunk(&slot_tile(bufs, slot, &self.cfg), r0).tile(ci, cj);
        acc + load_masked(p, mask, 0).to(Scalar::F32)
    }
}

/// Whether a `gemm_rs` launch of `m x n` on `world` ranks needs no closing step between
/// processes (`LaunchOptions::self_closing`; the conditions are in `weft_runtime`'s mpi `sync`):
/// every rank then owns at least one tile, so (a) every access a peer makes to a rank's memory
/// (a partial stored into its `part` slot, a node partial put into its `inter` slot) is
/// followed by a signal that rank awaits before its kernel ends, and (b) a rank's kernel ends
/// only after every rank started the launch: it awaits a partial from each node peer, and a
/// node partial from each other node, which that node's rank sent only after awaiting its own
/// node peers' partials. A peer's next launch stores into a rank only once that rank
/// announced it (`remote_ptr` and puts wait for the target's arrival), so no slot is refilled
/// while it is still being summed. On 2 shared cores the closing step's wait was a median
/// 0.26-0.50 ms of a 0.9 ms launch at 1x4 (`WEFT_MPI_PHASES=1`, load 6.6).
pub(crate) fn closes_itself(m: usize, n: usize, world: usize) -> bool {
    m >= world && n > 0
}

/// Builds `gemm_rs`.
pub fn gemm_rs(c: &Constexprs) -> Result<Kernel, DslError> {
    build(c, "gemm_rs", Scatter::Programs, Output::Shard)
}

/// Builds `gemm_rs_ce`: `gemm_rs` with the intra-node scatter on the copy engine (plans in
/// `crate::ce_plan`); `sig` has `world * max_tiles` more words at its end, the ready signals
/// of the staging slots (segment-major).
pub fn gemm_rs_ce(c: &Constexprs) -> Result<Kernel, DslError> {
    build(c, "gemm_rs_ce", Scatter::CopyEngine, Output::Shard)
}

/// Builds the GEMM-RS family; `Output::Gathered` adds the `gather` argument after `sig`.
pub(crate) fn build(c: &Constexprs, name: &str, scatter: Scatter, output: Output) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 1, 64)?;
    kernel(name, c, |a| {
        let (am, bm, out) = (a.ptr("a", cfg.t), a.ptr("b", cfg.t), a.ptr("c", cfg.t));
        let (stage, part) = (a.ptr("stage", cfg.t), a.ptr("part", cfg.t));
        let (nstage, inter, sig) = (a.ptr("nstage", cfg.t), a.ptr("inter", cfg.t), a.ptr("sig", Scalar::I64));
        let gather = (output == Output::Gathered).then(|| a.ptr("gather", cfg.t));
        let (m, n, k, local, epoch) = (a.i64("m"), a.i64("n"), a.i64("k"), a.i64("local"), a.i64("epoch"));
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let nodes = world / local;
        let max_tiles = cdiv(cdiv(m, world), cfg.bm) * cdiv(n, cfg.bn);
        let r = Reducer {
            arrivals: Arrivals::new(c, cfg, epoch)?,
            bufs: [part, nstage, inter, out],
            gather,
            sig,
            topo: [me, world, local, nodes],
            mn: (m, n),
            max_tiles,
        };
        let (my_node, my_local) = (me / local, me % local);
        let tile_elems = cfg.bm * cfg.bn;
        let bmat = Mat::dense(bm, k, n);
        let (si, sj) = slot_indices(&cfg);
        let (g, gemm_programs, is_gemm) = role_split(comm);
        if_(is_gemm, || {
            let order = |step: Val| rs_dest(step, me, local, world);
            seg_tiles(g, gemm_programs, world, m, n, &cfg, order, |t: SegTile| {
                let amat = Mat { ptr: am + t.row0 * k, rows: t.rows, cols: k, ld: k };
                let acc = tile_product(&amat, &bmat, t.rows_idx, t.cols_idx, &cfg);
                if scatter == Scatter::CopyEngine {
                    let staged = slot_tile(stage, t.rank * max_tiles + t.index, &cfg);
                    store_tile(&staged, si, sj, acc, cfg.t);
                    // The copy engine reads the staged tile once this signal is set.
                    fence();
                    let ready = sig + (local + 1) * nodes * max_tiles;
                    signal_op(ready + t.rank * max_tiles + t.index, epoch, Signal::Set, my_pe());
                    return;
                }
                // The rank of this node that sums the tile's partials is always on this node:
                // store the partial straight into its slot there (no staging copy), then signal.
                let via = my_node * local + t.rank % local;
                let slot = (my_local * nodes + t.rank / local) * max_tiles + t.index;
                store_tile(&slot_tile(remote_ptr(part, via), slot, &cfg), si, sj, acc, cfg.t);
                fence();
                signal_op(sig + slot, epoch, Signal::Set, via);
                // The tiles this rank sums are the last of their segment it computes (its peers
                // computed theirs earlier, see `rs_dest`): sum them here, as they complete, rather
                // than after every tile on a reduction program (one core per process on CPUs).
                if_(via.eq_(me), || r.tile(t.rank / local, t.index, tile_elems));
            });
        });
        if_(is_gemm.eq_(0), || {
            let cp = g - gemm_programs;
            if scatter == Scatter::CopyEngine {
                for_range(0i64, nodes, 1i64, |step| {
                    let node = (my_node + 1 + step) % nodes;
                    let (s0, s1) = segment(node * local + my_local, m, world);
                    for_range(cp, cdiv(s1 - s0, cfg.bm) * cdiv(n, cfg.bn), i64c(comm), |index| r.tile(node, index, tile_elems));
                });
            }
            if let Some(gather) = gather {
                let gather_sig = sig + (local + 1) * nodes * max_tiles;
                crate::gemm_ar::receive_reduced(gather, gather_sig, out, (cp, i64c(comm)), (me, world), (m, n), max_tiles, &r.arrivals);
            }
        });
        Ok(())
    })
}

/// The hierarchical reduction of one tile, on the rank of each node with the owner's local index.
struct Reducer {
    arrivals: Arrivals,
    /// `part, nstage, inter, c`.
    bufs: [Val; 4],
    gather: Option<Val>,
    sig: Val,
    /// `me, world, local, nodes`.
    topo: [Val; 4],
    mn: (Val, Val),
    max_tiles: Val,
}

impl Reducer {
    /// Sums the `local` partials of tile `index` of the segment of the rank of `node` with this
    /// rank's local index; on another node pushes the node partial to that owner, on this one
    /// adds the other nodes' and stores `C` (and, gathered, sends the reduced tile to every peer).
    fn tile(&self, node: Val, index: Val, tile_elems: i64) {
        let (cfg, rr, epoch) = (self.arrivals.cfg, self.arrivals.rr, self.arrivals.epoch);
        let [part, nstage, inter, out] = self.bufs;
        let [me, world, local, nodes] = self.topo;
        let (m, n) = self.mn;
        let (my_node, my_local, max_tiles) = (me / local, me % local, self.max_tiles);
        let inter_sig = self.sig + local * nodes * max_tiles;
        let owner = node * local + my_local;
        let (s0, s1) = segment(owner, m, world);
        let num_pn = cdiv(n, cfg.bn);
        let (ci, cj) = self.arrivals.indices();
        let chunk = Arrivals::chunk;
        let intra = |q: Val| (((my_local + 1 + q) % local) * nodes + node) * max_tiles + index;
        let from = |q: Val| ((my_node + 1 + q) % nodes) * max_tiles + index;
        let staged = slot_tile(nstage, node * max_tiles + index, &cfg);
        let (row_tile, pn) = (index / num_pn, index % num_pn);
        let row0 = row_tile * cfg.bm;
        // A shard starts at its first row; the gathered C holds every segment.
        let first = if self.gather.is_some() { s0 + row0 } else { row0 };
        let cmat = Mat { ptr: out + first * n, rows: s1 - s0 - row0, cols: n, ld: n };
        let cols = pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
        for_range(0i64, cfg.bm, rr, |r0| {
            let zero = zeros(&[rr as usize, cfg.bn as usize], Scalar::F32);
            let acc = self.arrivals.sum(local, &intra, self.sig, part, r0, zero);
            if_(node.ne_(my_node), || store_tile(&chunk(&staged, r0), ci, cj, acc, cfg.t));
            if_(node.eq_(my_node), || {
                let total = self.arrivals.sum(nodes - 1, &from, inter_sig, inter, r0, acc);
                if let Some(gather) = self.gather {
                    // Gathered, the reduced rows go to this rank's own slot (whole stores), and
                    // from there into `c` as the peers copy them (see `copy_rows`).
                    let mine = slot_tile(gather, me * max_tiles + index, &cfg);
                    store_tile(&chunk(&mine, r0), ci, cj, total, cfg.t);
                    crate::gemm_ar::copy_rows(&mine, &cmat, r0, pn, &self.arrivals);
                } else {
                    store_tile(&chunk(&cmat, r0), ci, cols, total, cfg.t);
                }
            });
        });
        if_(node.ne_(my_node), || {
            let slot = my_node * max_tiles + index;
            put_signal(inter + slot * tile_elems, staged.ptr, tile_elems, inter_sig + slot, epoch, owner, PutSignal::default());
        });
        if let Some(gather) = self.gather {
            let gather_sig = self.sig + (local + 1) * nodes * max_tiles;
            if_(node.eq_(my_node), || crate::gemm_ar::send_reduced(gather, gather_sig, me * max_tiles + index, tile_elems, me, world, epoch));
        }
    }
}

/// The tuner's search space of `gemm_rs` and `gemm_rs_ce`: `ag_gemm`'s without its swizzle
/// order (tiles, communication programs, here the reducing ones, warps on GPUs).
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = crate::ag_gemm::TUNE_SPACE.split_at(6).0;
