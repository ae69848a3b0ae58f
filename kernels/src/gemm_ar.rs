//! GEMM-AllReduce, `C = sum_r A_r · B_r` on every rank, with the reduction fused into the
//! kernel. `METHOD` (constexpr) picks how partial tiles meet, as Triton-distributed's
//! GEMM-AllReduce does by size:
//! 1. **one-shot**: every finished partial tile is put to every rank; each rank's reduction
//!    programs sum all `world` partials of every tile. One step, `world x` the traffic: small C.
//! 2. **two-shot**: `gemm_rs`'s scatter and hierarchical reduction, after which each owner puts
//!    its reduced tiles to every peer, which copy them into `C` (ReduceScatter + AllGather).
//! 3. **multimem** (one node): each rank keeps its partial tiles in place and signals every
//!    peer; the tile's owner sums them with `multimem_ld_reduce` and writes every rank's `C`
//!    with `multimem_st` (NVLink SHARP on sm_90a; emulated on `local`).
//!
//! Args (the same for every method): `a[m, k], b[k, n], c[m, n], stage, part, nstage, inter,
//! sig, gather, m, n, k, local, epoch`; the host sizes the scratch buffers per method
//! (`crate::matmul`).

use crate::gemm::{store_tile, tile_indices, tile_product, GemmConfig, Mat};
use crate::gemm_rs::{slot_indices, slot_tile, Arrivals, Output, Scatter};
use crate::tiles::{i64c, role_split, segment};
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::{Kernel, Scalar};

/// `METHOD` values.
pub(crate) const ONE_SHOT: i64 = 1;
/// Reduce-scatter, then all-gather of the reduced tiles.
pub(crate) const TWO_SHOT: i64 = 2;
/// `multimem_ld_reduce` + `multimem_st` over one node.
pub(crate) const MULTIMEM: i64 = 3;

/// Builds `gemm_ar` for its `METHOD` (default two-shot).
pub fn gemm_ar(c: &Constexprs) -> Result<Kernel, DslError> {
    let method = if c.get("METHOD").is_some() { c.int("METHOD", ONE_SHOT, MULTIMEM)? } else { TWO_SHOT };
    if method == TWO_SHOT {
        return crate::gemm_rs::build(c, "gemm_ar", Scatter::Programs, Output::Gathered);
    }
    let cfg = GemmConfig::from(c)?;
    let comm = c.int("COMM_PROGRAMS", 1, 64)?;
    kernel("gemm_ar", c, |a| {
        let (am, bm, out) = (a.ptr("a", cfg.t), a.ptr("b", cfg.t), a.ptr("c", cfg.t));
        let (stage, part) = (a.ptr("stage", Scalar::F32), a.ptr("part", Scalar::F32));
        let _unused = (a.ptr("nstage", Scalar::F32), a.ptr("inter", Scalar::F32));
        let (sig, _gather) = (a.ptr("sig", Scalar::I64), a.ptr("gather", cfg.t));
        let (m, n, k, _local, epoch) = (a.i64("m"), a.i64("n"), a.i64("k"), a.i64("local"), a.i64("epoch"));
        let arrivals = Arrivals::new(c, cfg, epoch)?;
        let (me, world) = (my_pe().to(Scalar::I64), n_pes().to(Scalar::I64));
        let num_pn = cdiv(n, cfg.bn);
        let tiles = cdiv(m, cfg.bm) * num_pn;
        let tile_elems = cfg.bm * cfg.bn;
        let (si, sj) = slot_indices(&cfg);
        let (amat, bmat) = (Mat::dense(am, m, k), Mat::dense(bm, k, n));
        let (g, gemm_programs, is_gemm) = role_split(comm);
        // Tile `t` covers rows `(t / num_pn) * BLOCK_M..` and columns `(t % num_pn) * BLOCK_N..`.
        let place = |t: Val| tile_indices(t / num_pn, t % num_pn, &cfg);
        if_(is_gemm, || {
            for_range(g, tiles, gemm_programs, |t| {
                let (rows, cols) = place(t);
                let acc = tile_product(&amat, &bmat, rows, cols, &cfg);
                let staged = slot_tile(stage, t, &cfg);
                store_tile(&staged, si, sj, acc, Scalar::F32);
                if method == ONE_SHOT {
                    // Own rank first, then the ring: every rank's reduction starts on arrival.
                    for_range(0i64, world, 1i64, |q| {
                        let slot = me * tiles + t;
                        put_signal(part + slot * tile_elems, staged.ptr, tile_elems, sig + slot, epoch, (me + q) % world, PutSignal::default());
                    });
                } else {
                    // The partial stays here; the owner reads it through multimem once every
                    // rank of the node has counted its own in.
                    fence();
                    signal_op(sig + t, 1i64, Signal::Add, t % world);
                }
            });
        });
        if_(is_gemm.eq_(0), || {
            let (cp, (ci, cj)) = (g - gemm_programs, arrivals.indices());
            let reduce = |t: Val, r0: Val| -> Val {
                if method == ONE_SHOT {
                    let zero = zeros(&[arrivals.rr as usize, cfg.bn as usize], Scalar::F32);
                    arrivals.sum(world, &|q: Val| ((me + q) % world) * tiles + t, sig, part, r0, zero)
                } else {
                    let tok = wait_until(sig + t, Cmp::Ge, epoch * world);
                    let (p, mask) = Arrivals::chunk(&slot_tile(consume_token(stage, tok), t, &cfg), r0).tile(ci, cj);
                    multimem_ld_reduce(p, Some(mask))
                }
            };
            // One-shot: every rank reduces every tile. Multimem: tile `t`'s owner is `t % world`.
            let (first, step) = if method == ONE_SHOT { (cp, i64c(comm)) } else { (cp * world + me, world * comm) };
            for_range(first, tiles, step, |t| {
                let (_, cols) = place(t);
                let row0 = (t / num_pn) * cfg.bm;
                let ctile = Mat { ptr: out + row0 * n, rows: m - row0, cols: n, ld: n };
                for_range(0i64, cfg.bm, arrivals.rr, |r0| {
                    let total = reduce(t, r0);
                    let (p, mask) = Arrivals::chunk(&ctile, r0).tile(ci, cols);
                    if method == ONE_SHOT {
                        store_masked(p, total.to(cfg.t), mask);
                    } else {
                        multimem_st(p, total.to(cfg.t), Some(mask));
                    }
                });
            });
        });
        if method == MULTIMEM {
            // Peers store into our `c`: it is complete only once every rank is done.
            barrier_all();
        }
        Ok(())
    })
}

/// Puts this rank's reduced tile at gather slot `slot` to every peer (two-shot's gather).
pub(crate) fn send_reduced(gather: Val, gather_sig: Val, slot: Val, tile_elems: i64, me: Val, world: Val, epoch: Val) {
    for_range(1i64, world, 1i64, |q| {
        let at = gather + slot * tile_elems;
        put_signal(at, at, tile_elems, gather_sig + slot, epoch, (me + q) % world, PutSignal::default());
    });
}

/// Two-shot's last step on the reduction programs `(first, step)`: copies every other rank's
/// reduced tiles from their gather slots into `c[m, n]` as they arrive.
pub(crate) fn receive_reduced(gather: Val, gather_sig: Val, out: Val, (first, step): (Val, Val), (me, world): (Val, Val), (m, n): (Val, Val), max_tiles: Val, arrivals: &Arrivals) {
    let cfg = arrivals.cfg;
    let num_pn = cdiv(n, cfg.bn);
    for_range(1i64, world, 1i64, |q| {
        let src = (me + q) % world;
        let (s0, s1) = segment(src, m, world);
        for_range(first, cdiv(s1 - s0, cfg.bm) * num_pn, step, |index| {
            let slot = src * max_tiles + index;
            let tok = wait_until(gather_sig + slot, Cmp::Ge, arrivals.epoch);
            let tile = slot_tile(consume_token(gather, tok), slot, &cfg);
            let (row0, pn) = (s0 + (index / num_pn) * cfg.bm, index % num_pn);
            let cmat = Mat { ptr: out + row0 * n, rows: s1 - row0, cols: n, ld: n };
            for_range(0i64, cfg.bm, arrivals.rr, |r0| copy_rows(&tile, &cmat, r0, pn, arrivals));
        });
    });
}

/// Copies rows `r0..r0 + rr` of the dense slot tile `tile` into column tile `pn` of `cmat`
/// (`cols` = the row length), `COPY_COLS` columns at a time and only over the columns `cmat` has: the
/// CPU lowering writes a partly masked 16-bit row store element by element, so a tile that
/// `n` fills in part (128 wide at n = 160) paid that on every row; where 32 divides `n` every
/// store is whole.
pub(crate) fn copy_rows(tile: &Mat, cmat: &Mat, r0: Val, pn: Val, arrivals: &Arrivals) {
    let cfg = arrivals.cfg;
    let w = arrivals.copy_cols;
    let (ci, cj) = (arange(0, arrivals.rr as i32).to(Scalar::I64), arange(0, w as i32).to(Scalar::I64));
    let col0 = pn * cfg.bn;
    for_range(0i64, minimum(i64c(cfg.bn), cmat.cols - col0), w, |c0| {
        let src = Arrivals::chunk(tile, r0);
        let src = Mat { ptr: src.ptr + c0, cols: src.cols - c0, ..src };
        let (p, mask) = src.tile(ci, cj);
        store_tile(&Arrivals::chunk(cmat, r0), ci, col0 + c0 + cj, load_masked(p, mask, 0), cfg.t);
    });
}

/// Sets `METHOD` when the caller did not: one-shot on at most 2 ranks while `C` is at most
/// [`crate::ONE_SHOT_MAX_BYTES`] (the AllReduce's own cut-over), two-shot otherwise: one-shot
/// moves `world` f32 partials of every tile to every rank, and `cargo bench --bench fused`
/// measured it behind the baseline at 8 ranks and behind two-shot at 4. Multimem on several
/// nodes is a typed error.
pub(crate) fn choose_method(c: &mut Constexprs, world: &weft_runtime::World, c_bytes: usize, name: &str) -> Result<(), crate::KernelError> {
    if c.get("METHOD").is_none() {
        let one_shot = world.n_ranks() <= 2 && c_bytes <= crate::ONE_SHOT_MAX_BYTES;
        c.set("METHOD", &(if one_shot { ONE_SHOT } else { TWO_SHOT }).to_string());
    }
    if c.int("METHOD", ONE_SHOT, MULTIMEM)? == MULTIMEM && world.topology().nodes > 1 {
        let what = format!("METHOD=3 (multimem) on {} nodes: multimem reaches one node's ranks only", world.topology().nodes);
        return Err(crate::KernelError::Unsupported { kernel: name.into(), what });
    }
    Ok(())
}

/// Bytes of each buffer argument (`a` to `gather`) for `METHOD` in `c` on `(nodes, local)`,
/// or `None` on overflow.
pub(crate) fn buffer_sizes(c: &Constexprs, shape: crate::MatmulShape, es: usize, (nodes, local): (usize, usize)) -> Option<Vec<usize>> {
    let get = |key: &str| c.get(key).and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
    let (bm, bn, method) = (get("BLOCK_M"), get("BLOCK_N"), get("METHOD") as i64);
    let crate::MatmulShape { m, n, k } = shape;
    let w = nodes * local;
    let mul = |f: &[usize]| f.iter().try_fold(1usize, |a, &b| a.checked_mul(b));
    let te = bm * bn;
    // Scratch a method does not use is one word, so every method takes the same arguments.
    let (stage, part, nstage, inter, sig, gather) = if method == TWO_SHOT {
        let max_tiles = m.div_ceil(w).div_ceil(bm) * n.div_ceil(bn);
        // Two-shot's partials are in the element type (`crate::gemm_rs`); the others' f32.
        let t = mul(&[max_tiles, te, es])?;
        let sig = mul(&[(local + 1) * nodes + w, max_tiles, 8])?;
        (mul(&[w, t])?, mul(&[local, nodes, t])?, mul(&[nodes, t])?, mul(&[nodes, t])?, sig, mul(&[w, max_tiles, te, es])?)
    } else {
        let tiles = m.div_ceil(bm) * n.div_ceil(bn);
        let t = mul(&[tiles, te, 4])?;
        let part = if method == ONE_SHOT { mul(&[w, t])? } else { 8 };
        (t, part, 8, 8, mul(&[if method == ONE_SHOT { w } else { 1 }, tiles, 8])?, 8)
    };
    Some(vec![mul(&[m, k, es])?, mul(&[k, n, es])?, mul(&[m, n, es])?, stage, part, nstage, inter, sig, gather])
}
