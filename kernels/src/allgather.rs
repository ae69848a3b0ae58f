//! AllGather: `out[r*n .. (r+1)*n] = inp` of rank `r`, on every rank.
//!
//! * `allgather` (push ring): each shard travels the ring with `put_signal`, one signal per
//!   (source rank, chunk); a rank forwards a chunk once its left neighbour's signal arrives.
//! * `allgather_pull` (full mesh): copy the own shard, `barrier_all`, then load every peer's
//!   shard through `remote_ptr`.
//! * `allgather_ll` (LL protocol, small messages): data words tagged with a flag are stored
//!   straight into every peer's LL buffer; receivers poll with `ll_recv`, no signals at all.

use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Push-ring AllGather. Args: `inp, out, sig[world*programs], n, epoch`.
pub fn push_ring(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather", c, |a| {
        let (inp, out, sig) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.ptr("sig", Scalar::I64));
        let (n, epoch) = (a.i64("n"), a.i64("epoch"));
        let (me, world) = (my_pe(), n_pes());
        let (start, end) = my_chunk(n);
        let shard = |r: Val| out + r.to(Scalar::I64) * n;
        copy_range(shard(me), inp, start, end, cfg.block);
        let next = peer(me, 1, world);
        if_(world.gt(1), || push_chunk(shard(me), start, end, signal_slot(sig, me), epoch, next));
        for_range(1, world, 1, |s| {
            let src = peer(me, -s, world);
            let _ = wait_until(signal_slot(sig, src), Cmp::Ge, epoch);
            if_(s.lt(world - 1), || push_chunk(shard(src), start, end, signal_slot(sig, src), epoch, next));
        });
        Ok(())
    })
}

/// Full-mesh pull AllGather. Args: `inp, out, n`.
pub fn pull(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather_pull", c, |a| {
        let (inp, out, n) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.i64("n"));
        let (me, world) = (my_pe(), n_pes());
        let (start, end) = my_chunk(n);
        let shard = |r: Val| out + r.to(Scalar::I64) * n;
        copy_range(shard(me), inp, start, end, cfg.block);
        barrier_all();
        for_range(1, world, 1, |s| {
            let q = peer(me, s, world);
            copy_range(shard(q), remote_ptr(shard(q), q), start, end, cfg.block);
        });
        Ok(())
    })
}

/// LL-protocol AllGather. Args: `inp[words] (word-padded), out, ll[world*words] (i64),
/// stage[world*words] (i32; only read when a shard is not whole words), n, words, flag`.
/// `words` = 32-bit words per shard; `flag` must differ from the last launch's (and from 0).
pub fn ll(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather_ll", c, |a| {
        let LlArgs { inp, out, ll, stage, n, words, flag } = LlArgs::declare(a, &cfg);
        let (me, world) = (my_pe(), n_pes());
        let (ws, we) = my_chunk(words);
        pack_to_ranks(&cfg, inp, ll + me.to(Scalar::I64) * words, flag, (ws, we), (0.into(), world.into()));
        ll_unpack_all(&cfg, out, ll, stage, n, words, flag, (ws, we));
        Ok(())
    })
}

/// 2-D AllGather over `nodes x local` (Triton-distributed's `_forward_push_2d_ll_multimem`).
/// Args as `allgather_ll`, then `local` (ranks per node). Each rank LL-packs its shard into
/// its own LL row, puts that row to the rank with its local index on every other node, and
/// broadcasts it within its node with `multimem_st`; it then forwards every shard that arrives from another node to its own
/// node the same way (re-packed from `ll_recv`, so each word keeps its flag), and finally
/// unpacks every row as `allgather_ll` does. Across nodes only LL words travel (no
/// signals); within a node one multicast store reaches every peer.
pub fn two_d(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather_2d", c, |a| {
        let LlArgs { inp, out, ll, stage, n, words, flag } = LlArgs::declare(a, &cfg);
        let local = a.i64("local");
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let (nodes, my_node, my_local) = (world / local, me / local, me % local);
        let (ws, we) = my_chunk(words);
        let row = |r: Val| r.to(Scalar::I64) * words;
        let inp_words = ptr_cast(inp, Scalar::I32);
        for_tiles(ws, we, cfg.block, |offs, m| {
            store_masked(ll + row(me) + offs, ll_pack(load_masked(inp_words + offs, m, 0), flag), m);
        });
        for_range(1i64, nodes, 1i64, |step| {
            let to = ((my_node + step) % nodes) * local + my_local;
            put(ll + row(me) + ws, ll + row(me) + ws, we - ws, to, ShmemScope::Block);
        });
        for_tiles(ws, we, cfg.block, |offs, m| {
            multimem_st(ll + row(me) + offs, load_masked(ll + row(me) + offs, m, 0), Some(m));
        });
        // Shards of this local index from the other nodes, nearest first.
        for_range(1i64, nodes, 1i64, |step| {
            let from = ((my_node + nodes - step) % nodes) * local + my_local;
            for_tiles(ws, we, cfg.block, |offs, m| {
                let got = ll_recv(ll + row(from) + offs, flag, Some(m));
                multimem_st(ll + row(from) + offs, ll_pack(got, flag), Some(m));
            });
        });
        ll_unpack_all(&cfg, out, ll, stage, n, words, flag, (ws, we));
        Ok(())
    })
}

/// Put-only LL AllGather for several nodes. Args as `allgather_2d`. Each rank's LL row
/// reaches every rank through the two-level mesh of `ll_mesh` (stores within a node, one put
/// per other node, forwarded there by stores); readers then poll only their own memory. No
/// signal, and no step waits for a target to take part (on `mpi` a cross-node ring's
/// `put_signal`s each did), so it suits oversubscribed processes.
pub fn ll_mesh(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allgather_ll_mesh", c, |a| {
        let LlArgs { inp, out, ll, stage, n, words, flag } = LlArgs::declare(a, &cfg);
        let local = a.i64("local");
        let (ws, we) = my_chunk(words);
        crate::ll_mesh::mesh_send(&cfg, inp, ll, flag, words, local, (ws, we), c.flag("DIRECT")?);
        ll_unpack_all(&cfg, out, ll, stage, n, words, flag, (ws, we));
        Ok(())
    })
}

/// LL-packs this rank's input words `[ws, we)` (`inp`) into `row` of every rank in `ranks`
/// (stores through `remote_ptr`, one load and pack per tile for all of them).
pub(crate) fn pack_to_ranks(cfg: &Config, inp: Val, row: Val, flag: Val, (ws, we): (Val, Val), ranks: (Operand, Operand)) {
    let inp_words = ptr_cast(inp, Scalar::I32);
    for_tiles(ws, we, cfg.block, |offs, m| {
        let packed = ll_pack(load_masked(inp_words + offs, m, 0), flag);
        for_range(ranks.0, ranks.1, 1, |q| store_masked(remote_ptr(row + offs, q), packed, m));
    });
}

/// The arguments the LL AllGathers share.
struct LlArgs {
    inp: Val,
    out: Val,
    ll: Val,
    stage: Val,
    n: Val,
    words: Val,
    flag: Val,
}

impl LlArgs {
    fn declare(a: &mut Args, cfg: &Config) -> LlArgs {
        let (inp, out) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t));
        let (ll, stage) = (a.ptr("ll", Scalar::I64), a.ptr("stage", Scalar::I32));
        let (n, words, flag) = (a.i64("n"), a.i64("words"), a.i32("flag"));
        LlArgs { inp, out, ll, stage, n, words, flag }
    }
}

/// Waits for and unpacks words `ws..we` of every rank's LL row into `out`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ll_unpack_all(cfg: &Config, out: Val, ll: Val, stage: Val, n: Val, words: Val, flag: Val, (ws, we): (Val, Val)) {
    let world = n_pes();
    let row = |r: Val| r.to(Scalar::I64) * words;
    let bytes = cfg.t.bytes() as i64;
    let per_word = 4 / bytes;
    let out_words = ptr_cast(out, Scalar::I32);
    // Shards of whole words unpack straight into `out`. A shard ending mid-word (16-bit `T`,
    // odd `n`) would clobber the next shard's first element, so it goes through `stage`.
    let unaligned = (per_word > 1).then(|| (n * bytes % 4).ne_(0));
    for_range(0, world, 1, |q| {
        for_tiles(ws, we, cfg.block, |offs, m| {
            let got = ll_recv(ll + row(q) + offs, flag, Some(m));
            match unaligned {
                None => store_masked(out_words + row(q) + offs, got, m),
                Some(u) => {
                    let dst = if_else(u, || vec![stage + row(q) + offs], || vec![out_words + row(q) + offs]);
                    store_masked(dst[0], got, m);
                }
            }
        });
        if let Some(u) = unaligned {
            if_(u, || {
                let elems = ptr_cast(stage + row(q), cfg.t);
                copy_range(out + q.to(Scalar::I64) * n, elems, minimum(ws * per_word, n), minimum(we * per_word, n), cfg.block);
            });
        }
    });
}

/// The tuner's search space of the AllGathers (push ring, pull, LL): the CPU default 64 first,
/// 32 below it (`cargo bench --bench alternate` on 1x4, load 4.5-5.1: the pull at 4 KiB p50
/// 3.2 us against 3.5 at 64; the push ring at 256 KiB 147 against 155), and wider.
pub(crate) const TUNE_SPACE: &[crate::tune::Param] = &[crate::tune::Param::all("BLOCK", &["64", "32", "256", "1024", "4096"])];
