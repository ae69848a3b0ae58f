//! `cargo bench --bench collectives`: the collectives on the `local` transport at 2, 4 and 8
//! ranks, 64 KiB to 64 MiB (NCCL's size convention: the output buffer), each next to a plain
//! one-thread `memcpy` in the same run (the physical limit on one machine).
//!
//! Bandwidth = bytes moved between ranks / time, where bytes moved = NCCL's bus bytes x ranks:
//! `(ranks - 1)` shards into every rank for an AllGather, `2 (ranks - 1) / ranks` of the buffer
//! out of every rank for an AllReduce. The memcpy copies the same number of bytes.
//! Why that is the fair yardstick: NCCL's busbw (`S 2 (w - 1) / w / t` for an AllReduce of `S`
//! bytes) is one rank's link traffic, held against one link's speed; here every rank's "link"
//! is the same memory system, so the ranks' busbw summed (`2 (w - 1) S / t`, exactly what a
//! ring's puts copy) is held against what that memory system copies. The memcpy is one thread
//! while the collective runs on every worker (`WEFT_WORKERS`, default all cores), so a
//! collective can pass 100%; a ring also reads its input and its receive slots besides the
//! puts, so ~90% needs more than one core busy. At small sizes the memcpy's bytes stay in one
//! core's cache, where a collective's must cross cores: that favours the memcpy.
//!
//! "CPU s, memcpy / weft" is the same ratio over process CPU time instead of wall time: it
//! ignores time the workers lost to other load (and waits in which they slept), so on a busy
//! machine it shows how much work a collective does per byte even when wall times are noise.
//!
//! A 2-core machine shared with other work is noisy, so every round times each collective and
//! then a memcpy of its bytes, back to back (a batch of launches of at least ~10 ms each);
//! GB/s are medians over `WEFT_BENCH_ROUNDS` rounds (default 7), "% of memcpy" the median of
//! the rounds' ratios, and the load average is printed beside each row. Filters (comma
//! separated): `WEFT_BENCH_COLLECTIVES=allreduce_ring`, `WEFT_BENCH_RANKS=4`,
//! `WEFT_BENCH_SIZES=1048576`; `WEFT_BENCH_CHUNK=8192` sets the ring kernels' chunk,
//! `WEFT_BENCH_BLOCK=64` every kernel's tile. Writes `target/weft-bench/collectives.md`. On the `mpi`
//! transport (one rank per process, next to Open MPI's own collectives): `cargo bench --bench mpi`.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;

use std::fmt::Write as _;
use std::time::Instant;
use weft::kernels::{prepare, Prepared};
use weft::runtime::{DType, World};

const SIZES: [usize; 6] = [64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20];
const RANKS: [usize; 3] = [2, 4, 8];
const COLLECTIVES: [&str; 7] = ["allgather", "allgather_bidir", "allreduce", "allreduce_two_shot", "allreduce_ring", "allreduce_ring_bidir", "allreduce_hier"];

/// Seconds a batch of launches (or copies) should take at least.
const BATCH_S: f64 = 0.01;

/// Copies `bytes` from `src` to `dst`, `src.len()` at a time.
fn memcpy(bytes: usize, src: &[u8], dst: &mut [u8]) {
    let mut left = bytes;
    while left > 0 {
        let n = left.min(src.len());
        dst[..n].copy_from_slice(&src[..n]);
        left -= n;
    }
    std::hint::black_box(&mut *dst);
}

/// Wall seconds and process CPU seconds per call of `f` over a batch of `iters` calls.
fn per_call(iters: usize, f: &mut dyn FnMut()) -> (f64, f64) {
    let (t, c) = (Instant::now(), support::process_cpu());
    for _ in 0..iters {
        f();
    }
    (t.elapsed().as_secs_f64() / iters as f64, (support::process_cpu() - c) / iters as f64)
}

/// The values of `var` (comma separated), or `all`.
fn filter<T: Clone + std::str::FromStr + PartialEq>(var: &str, all: &[T]) -> Vec<T> {
    match std::env::var(var) {
        Ok(v) => v.split(',').filter_map(|x| x.trim().parse().ok()).filter(|x| all.contains(x)).collect(),
        Err(_) => all.to_vec(),
    }
}

/// `name` on `world` with `bytes` of output, launched once and checked.
fn prepared(world: &World, name: &str, bytes: usize) -> Prepared {
    let ranks = world.n_ranks();
    let per_rank = if name.starts_with("allgather") { bytes / ranks } else { bytes };
    let elems = per_rank / DType::F32.size_bytes();
    let mut c = weft::kernels::default_constexprs(name, "f32").expect("known");
    if let Ok(chunk) = std::env::var("WEFT_BENCH_CHUNK") {
        c.set("CHUNK", chunk); // the ring kernels' chunk (elements); the others ignore it
    }
    if let Ok(block) = std::env::var("WEFT_BENCH_BLOCK") {
        c.set("BLOCK", block); // the tile width (elements) of every kernel here
    }
    let mut p = prepare(world, name, elems, DType::F32, &c).expect("prepares");
    let (ok, err) = p.verify_after_launch().expect("runs");
    assert!(ok, "{name} ranks={ranks} bytes={bytes}: wrong result (max err {err})");
    p
}

fn main() {
    let rounds: usize = std::env::var("WEFT_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(7).max(3);
    let names: Vec<String> = filter("WEFT_BENCH_COLLECTIVES", &COLLECTIVES.map(String::from));
    let (ranks_all, sizes) = (filter("WEFT_BENCH_RANKS", &RANKS), filter("WEFT_BENCH_SIZES", &SIZES));
    let mut table = format!(
        "Collectives on `local`, f32, {rounds} interleaved rounds (median GB/s; % of memcpy = median of the rounds' ratios)\n\n| collective | ranks | size | weft GB/s | memcpy GB/s | % of memcpy | CPU s, memcpy / weft | load |\n|---|---|---|---|---|---|---|---|\n"
    );
    let src = vec![1u8; 64 << 20];
    let mut dst = vec![0u8; 64 << 20];
    let (total, mut done) = (ranks_all.len() * sizes.len(), 0);
    for &ranks in &ranks_all {
        let world = World::local(ranks).expect("world");
        for &bytes in &sizes {
            done += 1;
            eprintln!("[{done}/{total}] ranks={ranks} size={bytes}");
            let mut ps: Vec<Prepared> = names.iter().map(|n| prepared(&world, n, bytes)).collect();
            let moved: Vec<usize> = ps.iter().map(|p| p.bus_bytes * p.world_size).collect();
            // Launches per batch, from one timed launch.
            let iters: Vec<usize> = ps.iter_mut().map(|p| (BATCH_S / per_call(1, &mut || { p.launch().expect("launch"); }).0).ceil().clamp(1.0, 1000.0) as usize).collect();
            let (mut weft, mut copy, mut ratio, mut cpu) = (vec![vec![]; ps.len()], vec![vec![]; ps.len()], vec![vec![]; ps.len()], vec![vec![]; ps.len()]);
            for _ in 0..rounds {
                for (k, p) in ps.iter_mut().enumerate() {
                    let (wt, wc) = per_call(iters[k], &mut || { p.launch().expect("launch"); });
                    let (mt, mc) = per_call(iters[k], &mut || memcpy(moved[k], &src, &mut dst));
                    let (w, m) = (moved[k] as f64 / wt / 1e9, moved[k] as f64 / mt / 1e9);
                    (weft[k].push(w), copy[k].push(m), ratio[k].push(w / m), cpu[k].push(mc / wc));
                }
            }
            for (k, name) in names.iter().enumerate() {
                let (w, m, r) = (support::median(weft[k].clone()), support::median(copy[k].clone()), support::median(ratio[k].clone()));
                let c = support::median(cpu[k].clone());
                let line = format!("| {name} | {ranks} | {bytes} | {w:.2} | {m:.2} | {:.0}% | {:.0}% | {} |", 100.0 * r, 100.0 * c, support::load());
                eprintln!("{line}");
                let _ = writeln!(table, "{line}");
            }
        }
    }
    support::write_summary("collectives.md", &table);
}
