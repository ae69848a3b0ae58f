//! AllGather-GEMM, `C = AllGather(A_shard) · B`, with the gather fused into the kernel.
//!
//! Program instances `0..G` compute tiles and `G..G+COMM_PROGRAMS` push this rank's shard.
//! Row tiles start at each shard's first row, so a tile needs exactly one chunk of one
//! source: the comm programs push every row tile of the own shard to every rank (itself
//! included, which is the local copy) with `put_signal`, one signal per (source rank, row
//! tile); a GEMM tile waits on that one signal and consumes its token before loading A.
//! Shards are consumed and pushed in [`ag_source`] order (own shard first, own node first).
//!
//! With `PULL=1` (CPU code: `prepare_matmul` sets it there) a tile whose rows a rank of this
//! node holds reads them where they lie, through `remote_ptr` (a node's ranks share memory),
//! and the communication programs get other nodes' shards (see [`pull_far`]): on a CPU, where
//! the ranks of a node share its cores, the copies of the push cost as much CPU as they could hide. That is safe
//! because a CPU launch reaches a peer only after the peer's host has issued the same launch
//! (its inputs written); a GPU kernel has no such guarantee, so GPUs push.
//!
//! `ag_gemm_ce` is the same GEMM with the gather on the copy engine (no communication programs).
//!
//! Args: `a_shard, a_full, b, c, sig[world * max_row_tiles], m, n, k, local, epoch`, where
//! `m` is the gathered row count (shard `r` is rows `[r*m/world, (r+1)*m/world)`), `local`
//! the ranks per node and `max_row_tiles = cdiv(cdiv(m, world), BLOCK_M)`.

use crate::gemm::{store_tile, tile_product, GemmConfig, Mat};
use crate::swizzle::ag_source;
use crate::tiles::{i64c, role_split, round_tiles, seg_tiles, segment, SegTile};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Builds `ag_gemm`.
pub fn ag_gemm(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 1, 64)?;
    let amd = amd_swizzle(c)?;
    let pull = pull(c)?;
    kernel("ag_gemm", c, |a| {
        let x = AgArgs::declare(a, &cfg);
        let (g, gemm_programs, is_gemm) = role_split(comm);
        if_(is_gemm, || consume_gathered(&x, &cfg, g, gemm_programs, amd, pull));
        if_(is_gemm.eq_(0), || {
            let cp = g - gemm_programs;
            if pull {
                pull_far(&x, &cfg, cp, comm)
            } else {
                push_shard(&x, &cfg, cp, comm)
            }
        });
        Ok(())
    })
}

/// Communication program `cp` of `comm` pushes its share of this rank's row tiles to every
/// rank (itself included), each with the tile's signal.
fn push_shard(x: &AgArgs, cfg: &GemmConfig, cp: Val, comm: i64) {
    let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
    let (s0, s1) = segment(me, x.m, world);
    for_range(cp, cdiv(s1 - s0, cfg.bm), i64c(comm), |i| {
        let r0 = i * cfg.bm;
        let count = (minimum(r0 + cfg.bm, s1 - s0) - r0) * x.k;
        let (src, dst) = (x.shard + r0 * x.k, x.full + (s0 + r0) * x.k);
        let slot = x.sig + me * x.max_tiles(cfg) + i;
        for_range(0i64, world, 1i64, |step| {
            put_signal(dst, src, count, slot, x.epoch, x.order(step), PutSignal::default());
        });
    });
}

/// `PULL=1`: communication program `cp` of `comm` gets its share of the row tiles of every
/// other node's shards, in consumption order, into `a_full` and sets each tile's signal here.
/// A get needs nothing from the rank it reads (on `mpi` a single copy), where a pushed
/// signal is an accumulate that waits for the target to enter MPI; the shard is there since
/// the peer's launch began (see the module notes).
fn pull_far(x: &AgArgs, cfg: &GemmConfig, cp: Val, comm: i64) {
    let (me, world) = (my_pe(), n_pes().to(Scalar::I64));
    let max_tiles = x.max_tiles(cfg);
    for_range(x.local, world, 1i64, |step| {
        let src = x.order(step);
        let (s0, s1) = segment(src, x.m, world);
        for_range(cp, cdiv(s1 - s0, cfg.bm), i64c(comm), |i| {
            let r0 = i * cfg.bm;
            let count = (minimum(r0 + cfg.bm, s1 - s0) - r0) * x.k;
            get(x.full + (s0 + r0) * x.k, x.shard + r0 * x.k, count, src.to(Scalar::I32), ShmemScope::Block);
            signal_op(x.sig + src * max_tiles + i, x.epoch, Signal::Set, me);
        });
    });
}

/// Builds `ag_gemm_ce`: every program computes; the host's copy-engine queues (see
/// `crate::ce_plan`) gather the shards and write the signals the tiles wait on, so
/// `a_shard` is read by the copy engine only. `CE_PULL` (0 or 1, default 0) picks push or
/// pull on the host; the kernel is the same for both.
pub fn ag_gemm_ce(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = GemmConfig::from(c)?;
    ce_pull(c)?;
    let amd = amd_swizzle(c)?;
    kernel("ag_gemm_ce", c, |a| {
        let x = AgArgs::declare(a, &cfg);
        let (g, programs) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        consume_gathered(&x, &cfg, g, programs, amd, false);
        Ok(())
    })
}

/// Whether the tiles go in AMD's swizzle order (`SWIZZLE=1`: every step one row tile of every
/// shard, [`round_tiles`]) rather than NVIDIA's (`SWIZZLE=0`, the default: shard by shard).
pub fn amd_swizzle(c: &Constexprs) -> Result<bool, DslError> {
    c.flag("SWIZZLE")
}

/// Whether `ag_gemm` reads node peers' shards in place (`PULL=1`) rather than having them pushed.
pub fn pull(c: &Constexprs) -> Result<bool, DslError> {
    c.flag("PULL")
}

/// Whether the copy-engine AG-GEMM gathers by pulling (`CE_PULL=1`) rather than pushing.
pub fn ce_pull(c: &Constexprs) -> Result<bool, DslError> {
    c.flag("CE_PULL")
}

/// The arguments both AG-GEMM kernels take.
struct AgArgs {
    shard: Val,
    full: Val,
    b: Val,
    out: Val,
    sig: Val,
    m: Val,
    n: Val,
    k: Val,
    local: Val,
    epoch: Val,
}

impl AgArgs {
    fn declare(a: &mut Args, cfg: &GemmConfig) -> AgArgs {
        let (shard, full) = (a.ptr("a_shard", cfg.t), a.ptr("a_full", cfg.t));
        let (b, out, sig) = (a.ptr("b", cfg.t), a.ptr("c", cfg.t), a.ptr("sig", Scalar::I64));
        let (m, n, k, local, epoch) = (a.i64("m"), a.i64("n"), a.i64("k"), a.i64("local"), a.i64("epoch"));
        AgArgs { shard, full, b, out, sig, m, n, k, local, epoch }
    }

    fn max_tiles(&self, cfg: &GemmConfig) -> Val {
        cdiv(cdiv(self.m, n_pes().to(Scalar::I64)), cfg.bm)
    }

    /// The shard consumed (and pushed) at `step`.
    fn order(&self, step: Val) -> Val {
        ag_source(step, my_pe().to(Scalar::I64), self.local, n_pes().to(Scalar::I64))
    }
}

/// Program `g` of `programs` computes its tiles of `C`, each after waiting on the signal of
/// its (source rank, row tile) chunk of the gathered A, in AMD's swizzle order if `amd`;
/// `pull`: chunks of this node's ranks are read from their shards, with no wait.
fn consume_gathered(x: &AgArgs, cfg: &GemmConfig, g: Val, programs: Val, amd: bool, pull: bool) {
    let world = n_pes().to(Scalar::I64);
    let max_tiles = x.max_tiles(cfg);
    let bmat = Mat::dense(x.b, x.k, x.n);
    let body = |t: SegTile| {
        let me = pull.then(|| my_pe().to(Scalar::I64));
        let near = me.map(|me| (t.rank / x.local).eq_(me / x.local));
        // A wait for 0 is met at once: a pulled chunk has no signal to wait for.
        let want = near.map_or(x.epoch, |near| select(near, 0i64, x.epoch));
        let tok = wait_until(x.sig + t.rank * max_tiles + t.row_tile, Cmp::Ge, want);
        let mut a_rows = consume_token(x.full, tok) + t.row0 * x.k;
        if let (Some(me), Some(near)) = (me, near) {
            // `remote_ptr` only on this node: the address of another node's shard is an error.
            let (s0, _) = segment(t.rank, x.m, world);
            let shard = remote_ptr(x.shard, select(near, t.rank, me).to(Scalar::I32));
            a_rows = select(near, shard + (t.row0 - s0) * x.k, a_rows);
        }
        let amat = Mat { ptr: a_rows, rows: t.rows, cols: x.k, ld: x.k };
        let acc = tile_product(&amat, &bmat, t.rows_idx, t.cols_idx, cfg);
        let cmat = Mat { ptr: x.out + t.row0 * x.n, rows: t.rows, cols: x.n, ld: x.n };
        store_tile(&cmat, t.rows_idx, t.cols_idx, acc, cfg.t);
    };
    if amd {
        round_tiles(g, programs, world, x.m, x.n, cfg, |s| x.order(s), body);
    } else {
        seg_tiles(g, programs, world, x.m, x.n, cfg, |s| x.order(s), body);
    }
}

/// The tuner's search space of `ag_gemm`: tiles, communication programs, warps and K-loop
/// stages on GPUs.
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[
    crate::tune::Param::all("BLOCK_M", &["16", "32", "64"]),
    crate::tune::Param::all("BLOCK_N", &["64", "128", "256"]),
    crate::tune::Param::all("BLOCK_K", &["32", "64"]),
    crate::tune::Param::all("COMM_PROGRAMS", &["1", "2"]),
    crate::tune::Param::gpu("num_warps", &["4", "8"]),
    crate::tune::Param::gpu("num_stages", &["3", "4"]),
    // Last: `gemm_rs` takes the parameters before it.
    crate::tune::Param::all("SWIZZLE", &["0", "1"]),
];

/// The tuner's space of `ag_gemm_ce`: the tiles and swizzle order of `ag_gemm`, and push or
/// pull on the copy engine (it has no communication programs).
pub(crate) const CE_TUNE_SPACE: &[crate::tune::Param] = &[
    crate::tune::Param::all("BLOCK_M", &["16", "32", "64"]),
    crate::tune::Param::all("BLOCK_N", &["64", "128", "256"]),
    crate::tune::Param::all("BLOCK_K", &["32", "64"]),
    crate::tune::Param::gpu("num_warps", &["4", "8"]),
    crate::tune::Param::gpu("num_stages", &["3", "4"]),
    crate::tune::Param::all("SWIZZLE", &["0", "1"]),
    crate::tune::Param::all("CE_PULL", &["0", "1"]),
];
