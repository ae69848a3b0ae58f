//! `allreduce_hier`: the hierarchical AllReduce for several nodes. Within a node ranks share
//! memory; across nodes only counterparts (ranks with the same local index) exchange, once:
//! 1. node reduce-scatter: rank `l` of a node sums shard `l` of its node peers' inputs by
//!    `remote_ptr` loads (after a node barrier, so every peer's input is there, where the
//!    transport does not already order them: `HOST_ARRIVAL`);
//! 2. counterparts: that node partial is put once to each counterpart (data, fence, then an
//!    8-byte put of the epoch as the flag: no signal that needs the target inside MPI), and the
//!    counterparts' partials are added as they arrive;
//! 3. node all-gather: the finished shard is stored into every node peer's output, then one
//!    signal per peer.
//! Per rank: `(local-1)/local` of the buffer read from node peers, `(nodes-1)/local` put across
//! nodes, `(local-1)/local` stored into node peers. One node is a two-shot through shared
//! memory; one rank per node is a one-shot by puts.
//!
//! Self-closing (`LaunchOptions::self_closing`: no closing step between processes on `mpi`):
//! every access of a peer to a rank's memory ends before that rank's kernel does (its input
//! is read by node peers before they signal the node all-gather, which it waits for; the
//! counterparts' puts land before their flags, which it waits for; its output is stored
//! before those signals), and a rank's kernel ends only after every rank started it (it waits
//! for its counterparts and its node peers, who waited for theirs). The next launch's rows
//! alternate by epoch parity and its signals only grow.

use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// Signal words per program instance: node barrier (`local`), counterparts' flags
/// (`nodes`), node all-gather (`local`), and the flag's local source word.
pub(crate) fn signal_words(local: usize, nodes: usize) -> usize {
    2 * local + nodes + 1
}

/// Hierarchical AllReduce. Args: `inp[n], out[n], part[segmax] (accumulator type),
/// recv[2*nodes*segmax] (accumulator type; two launches' rows, by epoch parity),
/// sig[programs*signal_words] (i64), n, segmax = cdiv(n, local), local` (ranks per node),
/// `epoch` (grows by launch). Constexpr `HOST_ARRIVAL=1` (CPU transports: `local` launches
/// every rank at once, `mpi` makes an instance's first access to a peer wait for that peer's
/// launch) drops the opening node barrier, one hand-off between processes fewer.
pub fn allreduce(c: &Constexprs) -> Result<Kernel, DslError> {
    let cfg = Config::from(c)?;
    let acc = cfg.acc();
    let host_arrival = c.flag("HOST_ARRIVAL")?;
    kernel("allreduce_hier", c, |a| {
        let (inp, out) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t));
        let (part, recv, sig) = (a.ptr("part", acc), a.ptr("recv", acc), a.ptr("sig", Scalar::I64));
        let (n, segmax, local, epoch) = (a.i64("n"), a.i64("segmax"), a.i64("local"), a.i64("epoch"));
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let (nodes, my_node, my_local) = (world / local, me / local, me % local);
        let first = my_node * local;
        let base = sig + program_id(0).to(Scalar::I64) * (local * 2 + nodes + 1);
        let (arrived, flags, gathered, flag_src) = (base, base + local, base + local + nodes, base + local * 2 + nodes);
        // This rank's shard and this program's part of it (the same on every counterpart).
        let s0 = minimum(my_local * segmax, n);
        let (cs, ce) = my_chunk(minimum(s0 + segmax, n) - s0);
        let node_peer = |step: Val| first + (my_local + step) % local;

        // Node barrier: the peers' inputs are written before their kernels start. Not where
        // the transport already makes a first access to a peer wait for its launch.
        if !host_arrival {
            node_signal(arrived + my_local, epoch, local, &node_peer);
            node_wait(arrived, epoch, local, my_local);
        }
        for_tiles(s0 + cs, s0 + ce, cfg.block, |offs, m| {
            let s = sum_over_peers(inp + offs, m, first.to(Scalar::I32), local.to(Scalar::I32), acc);
            store_masked(part + offs - s0, s, m);
        });

        // One put of the node partial to each counterpart, then its flag.
        let rows = recv + (epoch % 2) * nodes * segmax;
        store(flag_src, epoch);
        for_range(1i64, nodes, 1i64, |step| {
            let to = ((my_node + step) % nodes) * local + my_local;
            put_nbi(rows + my_node * segmax + cs, part + cs, ce - cs, to, ShmemScope::Block);
            fence();
            put_nbi(flags + my_node, flag_src, 1i64, to, ShmemScope::Block);
        });
        quiet();
        // An empty chunk (fewer elements than ranks per node) waits for its counterparts'
        // flags all the same: the launch is self-closing (no closing step on `mpi`), which
        // needs every rank's kernel to end only after every rank started it and every put
        // into it landed.
        if_(cs.ge(ce), || {
            for_range(1i64, nodes, 1i64, |step| {
                let _ = wait_until(flags + (my_node + step) % nodes, Cmp::Ge, epoch);
            });
        });

        // Counterparts' partials added to this one; the sum stored into every node peer.
        for_tiles(cs, ce, cfg.block, |offs, m| {
            let mine = load_masked(part + offs, m, 0);
            let total = for_range_carry(1i64, nodes, 1i64, &[mine], |step, carried| {
                let from = (my_node + step) % nodes;
                let tok = wait_until(flags + from, Cmp::Ge, epoch);
                let row = consume_token(rows + from * segmax, tok);
                vec![carried[0] + load_masked(row + offs, m, 0)]
            });
            let v = total[0].to(cfg.t);
            for_range(first, first + local, 1i64, |q| store_masked(remote_ptr(out + s0 + offs, q), v, m));
        });
        fence();
        node_signal(gathered + my_local, epoch, local, &node_peer);
        node_wait(gathered, epoch, local, my_local);
        Ok(())
    })
}

/// Sets `slot` to `epoch` on every other rank of this node.
fn node_signal(slot: Val, epoch: Val, local: Val, node_peer: &dyn Fn(Val) -> Val) {
    for_range(1i64, local, 1i64, |step| signal_op(slot, epoch, Signal::Set, node_peer(step)));
}

/// Waits until every other node peer's slot (`slots + its local index`) reached `epoch`.
fn node_wait(slots: Val, epoch: Val, local: Val, my_local: Val) {
    for_range(0i64, local, 1i64, |q| {
        if_(q.to(Scalar::I64).ne_(my_local), || {
            let _ = wait_until(slots + q, Cmp::Ge, epoch);
        });
    });
}
