//! MoE expert GEMMs: a grouped GEMM over per-expert row offsets, and its two fused
//! communication forms, AllGather-MoE and MoE-ReduceScatter (Triton-distributed's `ag_moe` and
//! `moe_rs`), each beside its two-launch baseline in `crate::moe_gemm_v`.
//!
//! Rows are (token, choice) pairs grouped by expert, as after a dispatch: row `r` reads token
//! `gidx[r]` of the token matrix, and a block's rows are `off[b]..off[b + 1]`. A block's rows
//! are tiled `BLOCK_M` at a time from its first row, so an empty block has no tile and one
//! expert with every row is just a long block.
//!
//! * `moe_gemm`: blocks are experts, `C[off[e]..off[e+1]] = A[gidx[..]] · W[e]`. Args: `a[rows_in,
//!   k], gidx[rows] (i32), off[groups + 1] (i32), w[groups, k, n], c[rows, n], rows_in, n, k, groups`.
//! The fused kernels' communication programs are the first `COMM_PROGRAMS` ones (see
//! [`comm_first`]); with `COMM_PROGRAMS=0` the GEMM programs communicate themselves (`ag_moe`'s
//! push their share of the shard's puts before their tiles, `moe_rs`'s sum after counting in),
//! so no program polls beside the GEMM on a CPU whose ranks outnumber its cores.
//!
//! The fused kernels tile each local expert's rows as one block, every source's (`ag_moe`) or
//! destination's (`moe_rs`) rows together, so a tile is as full as the baseline's: blocks per
//! (expert, rank) pair average `world` times fewer rows and a `BLOCK_M` tile split many in two
//! (1.5x the useful rows at 8 ranks). A tile whose rows span several ranks waits on, or puts to,
//! each of them ([`rank_span`]).
//!
//! * `ag_moe`: communication programs put this rank's token shard to every rank (one signal
//!   per source; with `PULL=1`, the CPU default, each rank gets every shard instead and sets
//!   the signals itself, see [`pull_shards`]); GEMM tiles of local expert `le` cover its rows
//!   `off[le * world]..off[(le + 1) * world]` (block `le * world + src` holding source `src`'s), walked expert by expert as
//!   `moe_gemm`'s, and wait on the signals of the sources their rows span; the shard goes to
//!   this rank's group of `near` ranks first ([`group_first`]). Args: `x[tokens, k],
//!   x_full[world * tokens, k], gidx, off[epr * world + 1], w[epr, k, n], c, sig[world],
//!   tokens, n, k, epr, near, epoch`, `near` a node's ranks on `mpi`, `world` on `local`.
//! * `moe_rs`: block `le * world + dst` holds local expert `le`'s rows of rank `dst`'s tokens;
//!   an expert's tile is staged in the element type and its rows put to the ranks they belong
//!   to, rounded once per row as `moe_rs_v`'s GEMM output is (f32 staging doubled the bytes
//!   staged, put and summed on arrival). Arrivals are laid out per (sender, local expert)
//!   block in the receiver's slots, `BLOCK_M` rows of the block each; a sender tile's piece
//!   covers the start or the end of a slot (or both). Once a GEMM program has put all its
//!   pieces it fences and adds its share to every rank's count (`RS_COUNT`); the communication
//!   programs reduce once the count is complete: token `t`'s output is
//!   `sum_k wt[t, k] * row(t, k)`, the top-k combine and the sum over ranks in one f32 sum,
//!   where `row(t, k)` is row `pos[t, k]` of block `(idx[t, k] % epr) * world + me` on rank
//!   `idx[t, k] / epr`. Args: `a[rows, k], off, w, idx, pos (i32), wt (f32) [tokens, topk],
//!   c[tokens, n], stage (T, [epr * cdiv(world * tokens, BLOCK_M) * cdiv(n, BLOCK_N)] tiles),
//!   recv (T, [world * epr * slots] tiles), sig[1] (the count), tokens, n, k, topk,
//!   epr, epoch`, with `slots = cdiv(tokens, BLOCK_M) * cdiv(n, BLOCK_N)`.

use crate::gemm::{store_tile, tile_product, GemmConfig, Mat};
use crate::gemm_rs::{slot_indices, slot_tile};
use crate::moe::load1;
use crate::tiles::i64c;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// One output tile of a block, as [`block_tiles`] hands it out.
#[derive(Clone, Copy)]
pub(crate) struct BlockTile {
    /// The block's index in walk order, and its bounds `[r0, r1)` in rows.
    pub(crate) step: Val,
    pub(crate) r1: Val,
    /// Row-tile index within the block and column-tile index.
    pub(crate) row_tile: Val,
    pub(crate) pn: Val,
    /// First row of the tile (absolute).
    pub(crate) row0: Val,
}

/// Runs `body` on this program's share of the tiles of `blocks` blocks, block `i` of the walk
/// having rows `bounds(i)`; tiles are dealt round robin over `programs` programs (`g` is this
/// one), continuing across blocks so that short blocks do not all land on program 0.
pub(crate) fn block_tiles(g: Val, programs: Val, blocks: Val, n: Val, cfg: &GemmConfig, bounds: impl Fn(Val) -> (Val, Val), mut body: impl FnMut(BlockTile)) {
    let num_pn = cdiv(n, cfg.bn);
    for_range_carry(0i64, blocks, 1i64, &[i64c(0)], |step, dealt| {
        let (r0, r1) = bounds(step);
        let ntiles = cdiv(r1 - r0, cfg.bm) * num_pn;
        let first = ((g - dealt[0]) % programs + programs) % programs;
        for_range(first, ntiles, programs, |index| {
            let row_tile = index / num_pn;
            body(BlockTile { step, r1, row_tile, pn: index % num_pn, row0: r0 + row_tile * cfg.bm });
        });
        vec![dealt[0] + ntiles]
    });
}

/// Splits the grid into `comm` communication programs, the first ones, and compute programs:
/// returns `(index within its role, compute programs, is this a compute program)`. First, so
/// that a CPU worker, which starts another instance only once its running ones block, starts
/// the puts before the GEMM tiles that wait for them (on a GPU every program runs at once).
fn comm_first(comm: i64) -> (Val, Val, Val) {
    let pid = program_id(0).to(Scalar::I64);
    let is_gemm = pid.ge(comm);
    (select(is_gemm, pid - comm, pid), num_programs(0).to(Scalar::I64) - comm, is_gemm)
}

/// The i32 bound `off[i]` as i64.
pub(crate) fn bound(off: Val, i: Val) -> Val {
    load1(off + i).to(Scalar::I64)
}

/// The f32 tile `A[gidx[row0..r1]] · W` at columns `pn` (rows past `r1` read nothing), with
/// `a` holding `a.rows` tokens of `k` and `w` one expert's `[k, n]`; without `gidx` row `r`
/// reads `A[r]` (inputs already laid out by block).
pub(crate) fn gathered_tile(a: Mat, gidx: Option<Val>, w: Mat, t: &BlockTile, cfg: &GemmConfig) -> Val {
    let rows = t.row0 + arange(0, cfg.bm as i32).to(Scalar::I64);
    let valid = rows.lt(t.r1);
    let read = gidx.map_or(rows, |gidx| load_masked(gidx + rows, valid, 0).to(Scalar::I64));
    // An invalid row indexes past `a`, so the product's own mask drops it.
    let tokens = select(valid, read, a.rows);
    let cols = t.pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
    tile_product(&a, &w, tokens, cols, cfg)
}

/// Stores an f32 tile at rows `row0..r1` and columns of tile `pn` of row-major `c[_, n]`.
pub(crate) fn store_rows(c: Val, n: Val, t: &BlockTile, acc: Val, cfg: &GemmConfig) {
    let out = Mat { ptr: c + t.row0 * n, rows: t.r1 - t.row0, cols: n, ld: n };
    let cols = t.pn * cfg.bn + arange(0, cfg.bn as i32).to(Scalar::I64);
    store_tile(&out, arange(0, cfg.bm as i32).to(Scalar::I64), cols, acc, cfg.t);
}

/// Expert `e`'s weights, `w[e]` of `w[_, k, n]`.
pub(crate) fn expert(w: Val, e: Val, k: Val, n: Val) -> Mat {
    Mat::dense(w + e * k * n, k, n)
}

/// Builds `moe_gemm`.
pub fn moe_gemm(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    kernel("moe_gemm", c, |a| {
        let (am, gidx, off) = (a.ptr("a", cfg.t), a.ptr("gidx", Scalar::I32), a.ptr("off", Scalar::I32));
        let (w, out) = (a.ptr("w", cfg.t), a.ptr("c", cfg.t));
        let (rows_in, n, k, groups) = (a.i64("rows_in"), a.i64("n"), a.i64("k"), a.i64("groups"));
        let (g, programs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let bounds = |e: Val| (bound(off, e), bound(off, e + 1i64));
        block_tiles(g, programs, groups, n, &cfg, bounds, |t| {
            let acc = gathered_tile(Mat::dense(am, rows_in, k), Some(gidx), expert(w, t.step, k, n), &t, &cfg);
            store_rows(out, n, &t, acc, &cfg);
        });
        Ok(())
    })
}

/// Puts this rank's `[tokens, k]` shard `x` into slot `me` of every rank's `x_full`, with
/// signal `sig[me]` set to `epoch`: to destination `order(i)` for each step `i` of
/// `first..world` by `stride` (`order` a permutation of the ranks).
pub(crate) fn push_shard(x: Val, x_full: Val, sig: Val, (tokens, k, epoch): (Val, Val, Val), (first, stride): (Val, Val), order: &dyn Fn(Val) -> Val) {
    let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
    for_range(first, world, stride, |i| {
        put_signal(x_full + me * tokens * k, x, tokens * k, sig + me, epoch, order(i), PutSignal::default());
    });
}

/// `ag_moe`'s gather with `PULL=1` (CPUs): gets shard `order(i)` for each step `i` of
/// `first..world` by `stride` into its slot of this rank's `x_full` and sets its signal here,
/// so a tile waits only for this rank's own programs, never for a peer to be scheduled (on
/// `mpi` at 1x8, 8 processes on 2 cores, the push's waits left ag_moe at 0.87-1.00x of
/// `ag_moe_v`; pulling with `COMM_PROGRAMS=0`, 0.93-1.16x, load 5-7).
fn pull_shards(x: Val, x_full: Val, sig: Val, (tokens, k, epoch): (Val, Val, Val), (first, stride): (Val, Val), order: &dyn Fn(Val) -> Val) {
    let (me, world) = (my_pe(), n_pes().to(Scalar::I64));
    for_range(first, world, stride, |i| {
        let src = order(i);
        get(x_full + src * tokens * k, x, tokens * k, src.to(Scalar::I32), ShmemScope::Block);
        signal_op(sig + src, epoch, Signal::Set, me);
    });
}

/// [`push_shard`] or [`pull_shards`].
type Gather = fn(Val, Val, Val, (Val, Val, Val), (Val, Val), &dyn Fn(Val) -> Val);

/// Step `i`'s rank when this rank's group of `near` ranks goes first, from this rank on, then
/// the other groups' ranks in order (rank order, as before, where the group is the world). On
/// `mpi` a put to another node blocks the worker until it is flushed, and in rank order a
/// second node's ranks put their shards to the first node before their own node (their own GEMM tiles waited behind those flushes: 2x2, kernel 2.2 ms
/// on the second node's processes against 1.2 ms on the first's; 0.88-0.93x of `ag_moe_v`
/// before, 1.01-1.02x after, load 6, where also walking the node's own tiles first made it
/// 0.88-0.97x: not done).
fn group_first(i: Val, near: Val) -> Val {
    let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
    // The last group is short where `near` does not divide the world.
    let group = me - me % near;
    let size = minimum(near, world - group);
    let grouped = select(i.lt(size), group + (me - group + i) % size, (group + i) % world);
    select(near.lt(world), grouped, i)
}

/// Waits until every rank's shard signal `sig[src]` has reached `epoch`.
pub(crate) fn wait_all(sig: Val, epoch: Val) {
    for_range(0i64, n_pes().to(Scalar::I64), 1i64, |src| {
        wait_until(sig + src, Cmp::Ge, epoch);
    });
}

/// The first and last rank whose rows `[row0, row_end)` (not empty) of one local expert span,
/// its rows being `off[base + r]..off[base + r + 1]` for each rank `r` of `world` in order:
/// the last rank whose rows start at or before `row0`, and the last whose start before
/// `row_end`. Empty ranks between them are in the span (waiting on one costs nothing).
pub(crate) fn rank_span(off: Val, base: Val, world: Val, row0: Val, row_end: Val) -> (Val, Val) {
    let count = |c: Val| select(c, i64c(1), i64c(0));
    let span = for_range_carry(1i64, world, 1i64, &[i64c(0), i64c(0)], |r, c| {
        let start = bound(off, base + r);
        vec![c[0] + count(start.le(row0)), c[1] + count(start.lt(row_end))]
    });
    (span[0], span[1])
}

/// `t` (a tile of the block `[r0, t.r1)`) with the block's row tiles rotated so that the walk
/// starts at the one holding row `first`: the rows a rank can start on soonest go first.
fn rotated(t: BlockTile, r0: Val, first: Val, cfg: &GemmConfig) -> BlockTile {
    let row_tile = (t.row_tile + (first - r0) / cfg.bm) % cdiv(t.r1 - r0, cfg.bm);
    BlockTile { row_tile, row0: r0 + row_tile * cfg.bm, ..t }
}

/// Builds `ag_moe`.
pub fn ag_moe(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 0, 64)?;
    let gather: Gather = if c.flag("PULL")? { pull_shards } else { push_shard };
    kernel("ag_moe", c, |a| {
        let (x, x_full, gidx) = (a.ptr("x", cfg.t), a.ptr("x_full", cfg.t), a.ptr("gidx", Scalar::I32));
        let (off, w, out, sig) = (a.ptr("off", Scalar::I32), a.ptr("w", cfg.t), a.ptr("c", cfg.t), a.ptr("sig", Scalar::I64));
        let (tokens, n, k, epr, near, epoch) = (a.i64("tokens"), a.i64("n"), a.i64("k"), a.i64("epr"), a.i64("near"), a.i64("epoch"));
        let world = n_pes().to(Scalar::I64);
        let (g, programs, is_gemm) = comm_first(comm);
        if_(is_gemm, || {
            if comm == 0 {
                gather(x, x_full, sig, (tokens, k, epoch), (g, programs), &|i| group_first(i, near));
            }
            // Each local expert's tiles in turn, as `moe_gemm` walks them: its weights stay in
            // cache across its row tiles (walking in waves by source revisited every expert's
            // weights once per wave: 1.4x `moe_gemm`'s L2 read misses, cachegrind with 512 KiB L2).
            let bounds = |le: Val| (bound(off, le * world), bound(off, (le + 1i64) * world));
            block_tiles(g, programs, epr, n, &cfg, bounds, |t| {
                let le = t.step;
                let base = le * world;
                let (lo, hi) = rank_span(off, base, world, t.row0, minimum(t.row0 + cfg.bm, t.r1));
                for_range(lo, hi, 1i64, |src| {
                    wait_until(sig + src, Cmp::Ge, epoch);
                });
                // The last wait's token orders the loads (the earlier waits are done by then).
                let tok = wait_until(sig + hi, Cmp::Ge, epoch);
                let gathered = Mat::dense(consume_token(x_full, tok), world * tokens, k);
                let acc = gathered_tile(gathered, Some(gidx), expert(w, le, k, n), &t, &cfg);
                store_rows(out, n, &t, acc, &cfg);
            });
            if comm == 0 {
                wait_all(sig, epoch);
            }
        });
        if comm > 0 {
            if_(is_gemm.eq_(0), || {
                gather(x, x_full, sig, (tokens, k, epoch), (g, i64c(comm)), &|i| group_first(i, near));
                // Every shard is observed, including those no local expert reads from.
                wait_all(sig, epoch);
            });
        }
        Ok(())
    })
}

/// Tile slots per (rank, local expert) block of `moe_rs`'s staging: a block holds at most
/// one row per token of its rank.
pub(crate) fn rs_slots(tokens: Val, n: Val, cfg: &GemmConfig) -> Val {
    cdiv(tokens, cfg.bm) * cdiv(n, cfg.bn)
}

/// `sum_k wt[k] * rows(k)[..]` in f32 over `topk` choices, `rows(k)` a tile of pointers
/// (masked by `mask`) to choice `k`'s elements: the top-k combine every MoE output ends with.
pub(crate) fn weighted_rows(topk: Val, wt: Val, rows: &dyn Fn(Val) -> Val, mask: Val, width: i64) -> Val {
    let zero = zeros(&[width as usize], Scalar::F32);
    for_range_carry(0i64, topk, 1i64, &[zero], |k, acc| vec![acc[0] + load_masked(rows(k), mask, 0).to(Scalar::F32) * load1(wt + k)])[0]
}

/// What each rank's `moe_rs` GEMM programs add to every receiver's count per launch, whatever
/// their number (program 0 adds the rest of it): a receiver then waits for `world` of these per
/// epoch without knowing its peers' grids. One count instead of two signals per slot and two
/// waits per (token, choice): at 1x4 on 2 CPU cores those waits were ~0.9 ms of CPU per launch
/// in signal waits, yields and wake-ups (perf), and summing still had to wait for nearly every
/// tile, a token's top-k rows coming from experts all over the world.
const RS_COUNT: i64 = 1 << 20;

/// Columns `moe_rs`'s reduction sums at a time where they divide `BLOCK_N` (else a whole
/// received `BLOCK_N`-wide row): a 256-wide f32 sum (the bench's down projection) spilled its
/// accumulator and every loaded row to the stack on a CPU (perf: 17 % of the kernel's samples in the sum, 11 % on one spill
/// store). 64 columns took the fused kernel from 0.93-0.96x of the baseline's CPU per launch
/// to 1.00-1.06x on `mpi` at 1x4 and 1x8 (32 columns: 0.96-1.04x).
const RS_SUM_COLS: i64 = 64;

/// Builds `moe_rs`.
pub fn moe_rs(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 0, 64)?;
    kernel("moe_rs", c, |a| {
        let (am, off, w) = (a.ptr("a", cfg.t), a.ptr("off", Scalar::I32), a.ptr("w", cfg.t));
        let (idx, pos, wt) = (a.ptr("idx", Scalar::I32), a.ptr("pos", Scalar::I32), a.ptr("wt", Scalar::F32));
        let (out, stage, recv) = (a.ptr("c", cfg.t), a.ptr("stage", cfg.t), a.ptr("recv", cfg.t));
        let sig = a.ptr("sig", Scalar::I64);
        let (tokens, n, k, topk, epr) = (a.i64("tokens"), a.i64("n"), a.i64("k"), a.i64("topk"), a.i64("epr"));
        let epoch = a.i64("epoch");
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let slots = rs_slots(tokens, n, &cfg);
        let num_pn = cdiv(n, cfg.bn);
        let tile_elems = cfg.bm * cfg.bn;
        let (g, programs, is_gemm) = comm_first(comm);
        // Summed once every rank's programs have counted in: per-row waits (two per choice)
        // cost more than they overlapped (see `RS_COUNT`).
        let reduce = |first: Val, stride: Val| {
            let recv = consume_token(recv, wait_until(sig, Cmp::Ge, epoch * world * RS_COUNT));
            // A chunk stays within one received tile's row.
            let width = if cfg.bn % RS_SUM_COLS == 0 { RS_SUM_COLS } else { cfg.bn };
            let cols = arange(0, width as i32).to(Scalar::I64);
            for_range(first, tokens, stride, |t| {
                for_range(0i64, n, width, |c0| {
                    let (pn, within) = (c0 / cfg.bn, c0 % cfg.bn);
                    let mask = (c0 + cols).lt(n);
                    let row = |kk: Val| {
                        let e = load1(idx + t * topk + kk).to(Scalar::I64);
                        let j = load1(pos + t * topk + kk).to(Scalar::I64);
                        // The sender put it at block (its rank * epr + local expert) = e.
                        let at = e * slots + (j / cfg.bm) * num_pn + pn;
                        recv + at * tile_elems + (j % cfg.bm) * cfg.bn + within + cols
                    };
                    let acc = weighted_rows(topk, wt + t * topk, &row, mask, width);
                    store_masked(out + t * n + c0 + cols, acc.to(cfg.t), mask);
                });
            });
        };
        if_(is_gemm, || {
            // Walk step `le`: local expert `le`, every destination's rows.
            let bounds = |le: Val| (bound(off, le * world), bound(off, (le + 1i64) * world));
            let rows_all = bound(off, epr * world);
            let (si, sj) = slot_indices(&cfg);
            block_tiles(g, programs, epr, n, &cfg, bounds, |t| {
                let (le, base) = (t.step, t.step * world);
                // The next rank's rows first, this rank's own last.
                let t = rotated(t, bound(off, base), bound(off, base + (me + 1i64) % world), &cfg);
                let acc = gathered_tile(Mat::dense(am, rows_all, k), None, expert(w, le, k, n), &t, &cfg);
                let staged = slot_tile(stage, (le * cdiv(world * tokens, cfg.bm) + t.row_tile) * num_pn + t.pn, &cfg);
                store_tile(&staged, si, sj, acc, cfg.t);
                let row_end = minimum(t.row0 + cfg.bm, t.r1);
                let (lo, hi) = rank_span(off, base, world, t.row0, row_end);
                for_range(lo, hi + 1i64, 1i64, |dst| {
                    let (bs, be) = (bound(off, base + dst), bound(off, base + dst + 1i64));
                    // This tile's rows of `dst`'s block, as indices within the block (none when
                    // the block is empty), put slot by slot: at most two slots.
                    let (ja, jb) = (maximum(t.row0, bs) - bs, minimum(row_end, be) - bs);
                    for_range(ja / cfg.bm, cdiv(jb, cfg.bm), 1i64, |jt| {
                        let (x0, x1) = (maximum(ja, jt * cfg.bm), minimum(jb, (jt + 1i64) * cfg.bm));
                        let at = (me * epr + le) * slots + jt * num_pn + t.pn;
                        let from = staged.ptr + (x0 + bs - t.row0) * cfg.bn;
                        put(recv + at * tile_elems + (x0 - jt * cfg.bm) * cfg.bn, from, (x1 - x0) * cfg.bn, dst, ShmemScope::Block);
                    });
                });
            });
            // Every piece this program put lands before its count does.
            fence();
            let share = select(g.eq_(0), i64c(RS_COUNT) - programs + 1i64, i64c(1));
            for_range(0i64, world, 1i64, |dst| signal_op(sig, share, Signal::Add, dst));
        });
        if comm == 0 {
            if_(is_gemm, || reduce(g, programs));
        } else {
            if_(is_gemm.eq_(0), || reduce(g, i64c(comm)));
        }
        Ok(())
    })
}
