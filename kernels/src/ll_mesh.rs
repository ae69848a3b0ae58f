//! The put-only LL mesh for several nodes (`allgather_ll_mesh`, `allreduce_ll_mesh`): every
//! rank's LL row reaches every rank with no signal, so no step waits for a target process to
//! take part (on `mpi` a signal to another node is an accumulate, which completes only once
//! the target enters MPI; a ring makes 2(world-1) such hand-offs). Two levels: a rank stores
//! its row into every node peer, puts it (nbi, one quiet) to the rank with its local index on
//! each other node, and forwards the rows it receives that way to its node peers by stores.
//! One put per other node, not one per rank there: on `mpi` each put is a system call (CMA)
//! on every launch's critical path, with processes sharing cores.

use crate::allgather::{ll_unpack_all, pack_to_ranks};
use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// LL-packs this rank's input words `[ws, we)` into its row (`ll + me * words`) on every rank
/// (`local` ranks per node), as the module notes say; returns once its own puts are complete
/// and the rows it forwards are stored (other ranks' rows may still be on their way).
/// `direct`: put the row to every rank of each other node instead (`local` puts per node, no
/// forwarding), so a rank waits once, for rows sent straight to it, not for a node peer that
/// must first receive a row and then get a core to forward it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mesh_send(cfg: &Config, inp: Val, ll: Val, flag: Val, words: Val, local: Val, (ws, we): (Val, Val), direct: bool) {
    let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
    let (nodes, my_node, my_local) = (world / local, me / local, me % local);
    let first = my_node * local;
    let row = |r: Val| ll + r * words;
    pack_to_ranks(cfg, inp, row(me), flag, (ws, we), (first.into(), (first + local).into()));
    // Ranks of the other nodes this rank puts to: all of them, or its counterparts.
    let (lo, hi): (Operand, Operand) = if direct { (0i64.into(), local.into()) } else { (my_local.into(), (my_local + 1).into()) };
    for_range(1i64, nodes, 1i64, |step| {
        for_range(lo, hi, 1i64, |q| {
            let to = ((my_node + step) % nodes) * local + q;
            put_nbi(row(me) + ws, row(me) + ws, we - ws, to, ShmemScope::Block);
        });
    });
    quiet();
    if direct {
        return;
    }
    // Re-packed from `ll_recv`, so every word keeps its flag; this rank's copy is rewritten
    // with the same words.
    for_range(1i64, nodes, 1i64, |step| {
        let from = ((my_node + nodes - step) % nodes) * local + my_local;
        for_tiles(ws, we, cfg.block, |offs, m| {
            let packed = ll_pack(ll_recv(row(from) + offs, flag, Some(m)), flag);
            for_range(first, first + local, 1i64, |q| store_masked(remote_ptr(row(from) + offs, q), packed, m));
        });
    });
}

/// LL mesh AllReduce (small messages): every rank's whole input gathered by the mesh, then
/// summed by each rank, at `world`x a ring's traffic in one round. Args: `inp[words]
/// (word-padded), out[n], ll[world*words] (i64), rows[world*words] (i32: every rank's input,
/// each row starting on a word), n, words, flag, local` (ranks per node); `flag` must differ
/// from the last launch's (and from 0).
pub fn allreduce(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    kernel("allreduce_ll_mesh", c, |a| {
        let (inp, out, ll, rows) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t), a.ptr("ll", Scalar::I64), a.ptr("rows", Scalar::I32));
        let (n, words, flag, local) = (a.i64("n"), a.i64("words"), a.i32("flag"), a.i64("local"));
        let (ws, we) = my_chunk(words);
        mesh_send(&cfg, inp, ll, flag, words, local, (ws, we), c.flag("DIRECT")?);
        // Rows of whole words (`words * per_word` elements each): no row ends mid-word.
        let per_word = 4 / cfg.t.bytes() as i64;
        let row_elems = words * per_word;
        let typed = ptr_cast(rows, cfg.t);
        ll_unpack_all(&cfg, typed, ll, rows, row_elems, words, flag, (ws, we));
        // This program unpacked words [ws, we) of every row: it sums their elements.
        let acc = cfg.acc();
        for_tiles(minimum(ws * per_word, n), minimum(we * per_word, n), cfg.block, |offs, m| {
            let zero = zeros(&offs.shape(), acc);
            let sum = for_range_carry(0, n_pes(), 1, &[zero], |q, carried| {
                let v = load_masked(typed + q.to(Scalar::I64) * row_elems + offs, m, 0);
                vec![carried[0] + v.to(acc)]
            });
            store_masked(out + offs, sum[0].to(cfg.t), m);
        });
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::{default_constexprs, run_collective, RunOptions};
    use weft_runtime::{DType, LocalOptions, Topology, World};

    /// The direct mesh (`DIRECT=1`: a put to every rank of each other node, no forwarding)
    /// against the plain math on every node grid shape, uneven counts, 16-bit rows that end
    /// mid-word, repeated launches (the flag alternates).
    #[test]
    fn direct_mesh_matches_the_reference_on_every_grid() {
        let cases = [((2, 2), 999, DType::BF16), ((3, 1), 1001, DType::F32), ((2, 4), 333, DType::I32), ((4, 2), 65, DType::F16), ((2, 2), 70_001, DType::F32)];
        for (i, ((nodes, local), elems, dtype)) in cases.into_iter().enumerate() {
            let world = World::local_with(LocalOptions { topology: Topology { nodes, local_size: local }, ..LocalOptions::from_env() }).unwrap();
            for name in ["allgather_ll_mesh", "allreduce_ll_mesh"] {
                let what = format!("{name} DIRECT=1 {nodes}x{local} elems={elems} {dtype}");
                let c = default_constexprs(name, dtype.name()).unwrap().with("DIRECT", 1);
                let opts = RunOptions { iters: 3, warmup: 0, constexprs: c, seed: 70 + i as u64 };
                let r = run_collective(&world, name, elems, dtype, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(r.verified, "{what}: max error {}", r.max_err);
            }
        }
    }
}
