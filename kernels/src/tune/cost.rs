//! The analytic cost model that ranks a space before anything is compiled: roofline compute
//! (padded tile work over the machine's flop rate), bytes over the link bandwidth, and a
//! latency per message or synchronisation step. The machine constants are measured once and
//! cached next to the tuning results ([`MACHINE_FILE`]).

use super::space::Config;
use super::tiles::TileCosts;
use super::{Problem, Shape};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use crate::ring::ring_chunk;
use std::time::Instant;
use weft_runtime::Topology;

/// The machine constants' file in a tuning directory. Its version changes when a constant's
/// measurement changes meaning (v2: the flop rate of vector code, not of libm's `fmaf`, and
/// the polling thread's share of a core; v3: thread starts are `spawn_s`, their fastest try,
/// and `launch_s` is measured per world by the tuner), so constants measured the old way are measured again
/// instead of read.
pub const MACHINE_FILE: &str = "machine-v3.json";

/// What the model knows about the machine.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
pub struct Machine {
    /// Floating-point operations per second of one core (vectorized f32 multiply-add loop).
    pub flops_per_core: f64,
    /// Bytes per second of a large copy (the `local` transport's "link").
    pub copy_bytes_per_s: f64,
    /// Bytes per second of a copy that stays in the caches (256 KiB buffers); 0 in caches
    /// written before it existed, which are re-measured.
    #[serde(default)]
    pub cache_copy_bytes_per_s: f64,
    /// Seconds for one cross-thread signal (one way).
    pub signal_s: f64,
    /// Seconds of one launch's fixed cost on the world being tuned, set by the tuner
    /// ([`super::launch::on_world`]): 0 as measured here, without a world.
    pub launch_s: f64,
    /// Seconds to start and join one thread per core (the copy engine starts its transfer
    /// threads with every launch on `local`, see [`copy_engine_charge`]).
    pub spawn_s: f64,
    /// Fraction of a core a thread polling every [`CE_POLL_S`] takes (its wake-ups' CPU time
    /// over the wall time), as a waiting copy-engine queue does on `local`.
    pub poll_share: f64,
    /// Cores.
    pub cores: usize,
    /// The GEMM tiles' measured cost for the element type being tuned (not in
    /// [`MACHINE_FILE`]: the tuner reads it per element type, see [`TileCosts::cached`]).
    #[serde(skip)]
    pub tiles: TileCosts,
}

impl Machine {
    /// The constants cached in `dir/`[`MACHINE_FILE`], measured (and cached) if absent or unreadable.
    pub fn cached(dir: &Path) -> Machine {
        let path = dir.join(MACHINE_FILE);
        if let Some(m) = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str::<Machine>(&t).ok()).filter(|m| m.cache_copy_bytes_per_s > 0.0) {
            return m;
        }
        let m = Machine::measure();
        if std::fs::create_dir_all(dir).is_ok() {
            let _ = std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap_or_default());
        }
        m
    }

    /// Measures the constants (about a tenth of a second).
    pub fn measure() -> Machine {
        let cores = std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1);
        Machine {
            flops_per_core: flop_rate(),
            copy_bytes_per_s: copy_rate(16 << 20, 4),
            cache_copy_bytes_per_s: copy_rate(256 << 10, 256),
            signal_s: signal_latency(),
            launch_s: 0.0,
            spawn_s: spawn_latency(cores),
            poll_share: poll_share(),
            cores,
            tiles: TileCosts::NONE,
        }
    }
}

/// Flops per second of one core running vector code: 32 independent multiply-add chains, which
/// the compiler vectorizes as the JIT vectorizes a tile's inner loop, fastest of five batches.
/// Not `f32::mul_add`: without the FMA target feature that is a call to libm's `fmaf`, which
/// measured 2e8 flop/s where these loops (and the GEMM tiles) run at 1e10 and more, and made
/// every communication term of a GEMM vanish beside its compute.
fn flop_rate() -> f64 {
    let x: Vec<f32> = (0..4096).map(|i| (i % 7) as f32 * 1e-3).collect();
    let reps = 500;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let mut acc = [0f32; 32];
        let t = Instant::now();
        for _ in 0..reps {
            for c in x.chunks_exact(32) {
                for (a, v) in acc.iter_mut().zip(c) {
                    *a = *a * 0.999 + *v;
                }
            }
            std::hint::black_box(&mut acc);
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    (2 * reps * x.len()) as f64 / best.max(1e-9)
}

/// Bytes per second copying `bytes` between the same two buffers `reps` times, the fastest of
/// five such batches (one batch lasts milliseconds: a preempted batch must not decide). The
/// destination starts 1088 bytes into its allocation: two page-aligned buffers share their low
/// address bits, and the 4K-aliasing stalls made a 256 KiB copy measure 2 GB/s, not 40.
fn copy_rate(bytes: usize, reps: usize) -> f64 {
    let src = vec![1u8; bytes];
    let mut dst_alloc = vec![0u8; bytes + 4096];
    let dst = &mut dst_alloc[1088..1088 + bytes];
    dst.copy_from_slice(&src);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..reps {
            dst.copy_from_slice(std::hint::black_box(&src));
        }
        std::hint::black_box(&*dst);
        best = best.min(t.elapsed().as_secs_f64());
    }
    (reps * bytes) as f64 / best.max(1e-9)
}

fn signal_latency() -> f64 {
    let flag = AtomicU64::new(0);
    let rounds = 2000u64;
    let t = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            for i in 0..rounds {
                while flag.load(Ordering::Acquire) != 2 * i + 1 {
                    std::hint::spin_loop();
                    std::thread::yield_now();
                }
                flag.store(2 * i + 2, Ordering::Release);
            }
        });
        for i in 0..rounds {
            flag.store(2 * i + 1, Ordering::Release);
            while flag.load(Ordering::Acquire) != 2 * i + 2 {
                std::hint::spin_loop();
                std::thread::yield_now();
            }
        }
    });
    t.elapsed().as_secs_f64() / (2 * rounds) as f64
}

/// Seconds to start and join `cores` threads, the fastest of 20 tries: the mean measured the
/// scheduler's wait for a free core under other work (2.3 ms at load 8, 4.1 ms at load 9),
/// which charged every copy-engine config milliseconds (the 1x4 ag_gemm sweep: model 5.4 ms,
/// measured 1.2 ms) where its launch costs a fraction of one.
fn spawn_latency(cores: usize) -> f64 {
    (0..20)
        .map(|_| {
            let t = Instant::now();
            std::thread::scope(|s| (0..cores).for_each(|_| drop(s.spawn(|| std::hint::black_box(0)))));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// The CPU time of the calling thread, in seconds.
fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write; the clock id is a constant Linux provides.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok { ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9 } else { 0.0 }
}

/// A thread sleeping [`CE_POLL_S`] between polls, as a waiting copy-engine queue does: the
/// CPU time of its wake-ups over the wall time they span.
fn poll_share() -> f64 {
    let share = std::thread::scope(|s| {
        s.spawn(|| {
            let (cpu, t) = (thread_cpu_s(), Instant::now());
            for _ in 0..100 {
                std::thread::sleep(std::time::Duration::from_secs_f64(CE_POLL_S));
            }
            (thread_cpu_s() - cpu) / t.elapsed().as_secs_f64().max(1e-9)
        })
        .join()
        .unwrap_or(0.0)
    });
    share.clamp(0.0, 1.0)
}

/// Protocol bandwidth factor and synchronisations per step on the `local` transport, where
/// ranks are CPU threads: LL and LL128 tag every 8 or 128 bytes with a flag that the receiver
/// polls word by word, which a GPU hides behind its many threads and a CPU thread pays in
/// full, so on CPUs they move data slower than Simple's plain copy and flag.
fn protocol(p: &str) -> (f64, f64) {
    // Simple at half a copy: the executor stages every chunk through a scratch slot and
    // copies it out again (the 1x4 sweeps: the ring ReduceScatter behind the library's at
    // 64 KiB and 16 MiB, which moves 17 segments to the ring's 9).
    match p {
        "LL" => (0.125, 2.0),
        "LL128" => (0.25, 2.0),
        _ => (0.5, 2.0),
    }
}

/// Chunks each program of a pipelined ring kernel cuts its `chunk`-element share of a segment
/// into, both directions together: as `ring::ring_chunk` cuts a direction's share on the CPU,
/// or as many as the config's `CHUNK` cap makes; 1 for every other kernel.
pub(super) fn ring_pieces(c: &Config, chunk: f64) -> f64 {
    let dirs = match c.algorithm.as_str() {
        "allreduce_ring" => 1.0,
        "allreduce_ring_bidir" | "reduce_scatter_bidir" | "allgather_bidir" => 2.0,
        _ => return 1.0,
    };
    let per_dir = match c.int("CHUNK") {
        Some(cap) if cap > 0 => (chunk / dirs / cap as f64).ceil().max(1.0),
        _ => {
            let share = (chunk / dirs).ceil().max(1.0) as usize;
            share.div_ceil(ring_chunk(share, false, None)) as f64
        }
    };
    dirs * per_dir
}

/// Segments each rank touches (reads plus writes, of one `bytes / w` segment each) and the
/// synchronised messages per chunk of a ring kernel on `w` ranks (a second direction moves the
/// same bytes, a put being the sender's memcpy on `local`, so it only adds chunks: see
/// [`ring_pieces`]).
/// - Puts (`p2p` false, across nodes): the ReduceScatter's step 0 reads the input and puts it
///   (4), the middle steps add the incoming partial as well (5), the last reads both and
///   stores (3): `5w - 3`; the AllReduce's AllGather adds `w - 1` puts (2 each): `7w - 5`.
/// - `P2P` (one node): step 0 sends nothing; steps 1 .. w-2 read the partial (at step 1
///   `prev`'s input in place) and the input and store into the next rank's slot (3), the last
///   reads both and stores the sum (3): `3w - 3` with `w - 2` messages; the AllReduce stores the
///   sum into `next`'s output as well (1 more) and forwards `w - 2` segments: `5w - 6`, with
///   `2w - 3` messages.
pub(super) fn ring_volume(algorithm: &str, w: f64, p2p: bool) -> (f64, f64) {
    let allreduce = algorithm != "reduce_scatter_bidir";
    let (segs, msgs) = match (allreduce, p2p) {
        (true, false) => (7.0 * w - 5.0, 2.0 * (w - 1.0)),
        (false, false) => (5.0 * w - 3.0, w - 1.0),
        (true, true) => (5.0 * w - 6.0, 2.0 * w - 3.0),
        (false, true) => (3.0 * w - 3.0, w - 2.0),
    };
    // One rank: the ReduceScatter's last step only (read, store).
    if w <= 1.0 { (2.0, 0.0) } else { (segs, msgs.max(0.0)) }
}

/// Working sets up to this many bytes (every rank's buffers together) stay in the caches.
const CACHED_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// Relative cost per element of a `block`-wide tile while the data is in the caches: the CPU
/// back end holds a tile as one vector value, which past 256 f32 lanes lives in stack slots,
/// so every element makes an extra trip through L1 (the 1x4 sweeps at 4-64 KiB: 1024-wide
/// tiles 2-10% and 4096-wide 10-45% slower than 256-wide; from DRAM the difference vanishes).
fn cached_tile_cost(block: f64) -> f64 {
    1.0 + 0.035 * (block / 256.0 - 1.0).max(0.0)
}

/// Relative cost per element of a `block`-wide tile of a [`small_cpu_tile`] kernel while the
/// data is in the caches: the lanes it spills past a few registers cost an extra trip through
/// L1 each, which the cached copy rate does not hide as DRAM's does, so every doubling from 64
/// costs about 40% of the cached copy (the tune bench's 1x4 sweeps at 256 KiB, over the
/// model's cached copy time: 256-wide tiles 0.5-1.1x more, 1024-wide 0.6-1.6x, two-shot's 4096
/// 4.2x; reduce_scatter_bidir 64 / 256 / 1024 at CHUNK=8192: 40 / 59 / 59-65 us, while
/// [`cached_tile_cost`] ranked 256 first).
fn cached_small_tile_cost(block: f64) -> f64 {
    1.0 + 0.4 * (block / 64.0).log2().max(0.0)
}

/// Relative cost per element of a `block`-wide tile of a [`small_cpu_tile`] kernel when the
/// data comes from DRAM: each tile value is straight-line vector code whose lanes spill to the
/// stack past a few registers, so every doubling from 64 costs about 15% (the tune bench at
/// 16 MiB on 1x4, head to head: two-shot 256 / 1024 at 1.24x / 2.2x of 64, allgather_bidir
/// 1.27x / 1.66x).
pub(super) fn dram_tile_cost(block: f64) -> f64 {
    1.0 + 0.15 * (block / 64.0).log2().max(0.0)
}

/// Whether library kernel `algorithm` defaults to the registry's small CPU tile on `topo` (64:
/// the rings and two-shot, whose tile values the CPU back end spills when wide, and the
/// hierarchical AllReduce on one node, see `registry::topology_constexprs`: by name alone its
/// 256 across nodes left its wide tiles uncharged on one node, where the quiet tune bench
/// timed 1x4 16 MiB at BLOCK=64 in 5239 us against 6375 at 256).
/// `None`: the by-name tile (`registry::default_constexprs`).
fn small_cpu_tile(algorithm: &str, topo: Option<Topology>) -> bool {
    let tile = match topo {
        Some(t) => crate::topology_constexprs(algorithm, "f32", weft_compiler::pipeline::Target::Cpu, t),
        None => crate::default_constexprs(algorithm, "f32"),
    };
    tile.is_ok_and(|d| d.get("BLOCK") == Some("64"))
}

/// A synchronisation step of a lowered MSCCL schedule costs this many library signals: each
/// step waits on its thread block's flags and re-enters the schedule's dispatch, where a
/// library kernel's step is a single put_signal or barrier.
const MSCCL_STEP_SIGNALS: f64 = 3.0;

/// Elements each program of a collective walks in `block`-wide tiles, padded to whole tiles,
/// over the elements it is given (1 when `block` divides its chunk). The library splits a
/// launch into up to 4 programs (see `run::prepare`) and the segmented kernels work on
/// `elems / world` per rank: a 1024-wide block over a 256-element segment does 4x the work.
fn padding(chunk: f64, block: f64) -> f64 {
    if chunk <= 0.0 { 1.0 } else { (chunk / block).ceil() * block / chunk }
}

/// Predicted seconds of one launch of `c` on `problem` over `topo`.
pub fn predict(c: &Config, problem: &Problem, topo: Topology, m: &Machine) -> f64 {
    let w = topo.world_size() as f64;
    let cores = m.cores.max(1) as f64;
    let es = problem.dtype.size_bytes() as f64;
    // Ranks share the cores: the world's aggregate rates.
    let bw = m.copy_bytes_per_s * cores.min(w) / w.max(1.0);
    let lat = m.signal_s * (w / cores).max(1.0);
    let inter = if topo.nodes > 1 { 2.0 } else { 1.0 };
    match problem.shape {
        Shape::Elems(elems) => {
            let bytes = elems as f64 * es;
            let block = c.int("BLOCK").or(c.int("block")).unwrap_or(1024) as f64;
            // The kernel's programs (as `run::prepare` sizes the grid) and each one's chunk:
            // the whole buffer, or one rank's segment for the segmented kernels.
            // The AllReduce rings' CPU code runs one program per rank (`ring::ring_programs`).
            let programs = crate::ring::ring_programs(elems, c.algorithm.starts_with("allreduce_ring")) as f64;
            let segmented = matches!(c.algorithm.as_str(), "allreduce_two_shot" | "allreduce_multimem" | "reduce_scatter" | "allreduce_ring" | "allreduce_ring_bidir" | "reduce_scatter_bidir" | "allreduce_hier");
            let chunk = ((if segmented { (elems as f64 / w).ceil() } else { elems as f64 }) / programs).ceil();
            // The rings walk each program's share in `pieces` chunks (per direction), each in
            // whole tiles, and synchronise once per chunk and step.
            let pieces = ring_pieces(c, chunk);
            let chunk = (chunk / pieces).ceil();
            let pad = if c.msccl().is_some() { 1.0 } else { padding(chunk, block) };
            // A fixed cost per tile (loop, masks) per program.
            let tile_cost = programs * pieces * (chunk * pad / block).ceil() * 40e-9;
            // Bytes each rank reads and writes: on `local` the "link" is memory, so a remote
            // load costs what a local one does and every byte touched counts (one-shot reads
            // all `w` inputs whole, multimem reads and writes each segment once per rank:
            // 5x against 2x at 4 ranks, as the 16 MiB sweep measures them).
            let seg = bytes / w;
            // One node: the ring ReduceScatters store partials straight into the next rank's
            // slots (`P2P`, set by `run::prepare` for CPU code), see `ring_volume`.
            let p2p = topo.nodes == 1;
            let (bytes_moved, steps) = match c.algorithm.as_str() {
                "allreduce_one_shot" => ((w + 1.0) * bytes, 2.0),
                // Reduce a segment (w reads, 1 write), then copy every peer's (w-1 each way).
                "allreduce_two_shot" => ((3.0 * w - 1.0) * seg, 4.0),
                // Two barriers, like two-shot: one before reading, one before the output is complete.
                "allreduce_multimem" => (2.0 * w * seg, 4.0),
                // Per step: send the partial (2), read it back with the input and store (3).
                "reduce_scatter" => ((2.0 + 5.0 * (w - 1.0)) * seg, 2.0 * (w - 1.0)),
                "allgather" => (2.0 * w * bytes, w - 1.0),
                "allgather_pull" => (2.0 * w * bytes, 2.0),
                // Flag words double what is written and polled, and a CPU thread polls each
                // word (as MSCCL's LL protocol, see `protocol`).
                "allgather_ll" => (8.0 * (w - 1.0) * bytes, 1.0),
                "broadcast" => (2.0 * bytes, 1.0),
                "allreduce_ring" | "allreduce_ring_bidir" | "reduce_scatter_bidir" => {
                    let (segs, msgs) = ring_volume(&c.algorithm, w, p2p);
                    (segs * seg, msgs * pieces)
                }
                // One node: a two-shot by stores (read every peer's shard, write the partial;
                // read it, store it into every peer's output; `HOST_ARRIVAL` drops the opening
                // barrier). Across nodes each counterpart's partial is also put and read once.
                "allreduce_hier" => {
                    let (local, nodes) = (topo.local_size.max(1) as f64, topo.nodes.max(1) as f64);
                    ((2.0 * local + 2.0 + 3.0 * (nodes - 1.0)) * bytes / local, 2.0 + (nodes - 1.0))
                }
                // Copy the own shard in, then push or forward `w - 1` shards.
                "allgather_bidir" => (2.0 * w * bytes, (w - 1.0) * pieces),
                _ => msccl_volume(c, bytes, w),
            };
            let (pbw, psync) = match c.msccl() {
                Some(_) => {
                    let (pbw, psync) = protocol(c.params.get("protocol").map_or("Simple", |s| s));
                    (pbw, psync * MSCCL_STEP_SIGNALS)
                }
                None => (1.0, 1.0),
            };
            let inst = c.int("instances").unwrap_or(1) as f64;
            // Instances split the bytes but each adds its own synchronisation.
            let parallel = inst.min((cores / w).max(1.0));
            // In the caches the copy rate is the cached one and the tile width shows; from
            // DRAM the large-copy rate decides and only the small-tile kernels' spills show.
            let cached_bw = m.cache_copy_bytes_per_s.max(m.copy_bytes_per_s) * cores.min(w) / w.max(1.0);
            // The registry's per-topology tile from DRAM, its by-name tile in the caches: the
            // one-node hier's 64 (see `small_cpu_tile`) wins from DRAM, while at 256 KiB on 1x4
            // its 256-wide tile led the sweep (32 us against 36 at 1024 and 40 at 64).
            let copy = if 3.0 * w * bytes > CACHED_BYTES {
                bytes_moved * pad * if small_cpu_tile(&c.algorithm, Some(topo)) { dram_tile_cost(block) } else { 1.0 } / bw
            } else {
                bytes_moved * pad * if small_cpu_tile(&c.algorithm, None) { cached_small_tile_cost(block) } else { cached_tile_cost(block) } / cached_bw
            };
            copy * inter / (pbw * parallel) + steps * psync * lat * inst + tile_cost + m.launch_s
        }
        Shape::Matmul(s) => {
            let get = |k: &str, d: i64| c.int(k).unwrap_or(d) as f64;
            let (bm, bn, bk) = (get("BLOCK_M", 64), get("BLOCK_N", 256), get("BLOCK_K", 64));
            let comm = get("COMM_PROGRAMS", 1);
            let (nf, kf) = (s.n as f64, s.k as f64);
            let rows = crate::matmul::rank_rows(&c.algorithm, s.m, w as usize) as f64;
            let segs = if c.algorithm == "gemm" { 1.0 } else { w };
            // Padded work of every rank: whole tiles, whole k steps.
            let padded = segs * (rows / bm).ceil() * bm * (nf / bn).ceil() * bn * (kf / bk).ceil() * bk * 2.0 * w;
            // Narrow or short tiles reload A and B more often: the loads per flop of a tile step.
            let loads = segs * w * (rows / bm).ceil() * (nf / bn).ceil() * (kf / bk).ceil() * (bm * bk + bk * bn) * es;
            // The tile's measured CPU seconds per flop (see `tiles`), which has its loads in it;
            // unmeasured, the vector flop rate and the loads at a quarter of the copy rate.
            let compute = match m.tiles.at(bm, bn) {
                Some(s_per_flop) => padded * s_per_flop / cores,
                None => padded / (m.flops_per_core * cores) + loads / (m.copy_bytes_per_s * 4.0 * cores),
            };
            let comm_bytes = matmul_comm_bytes(&c.algorithm, rows, nf, kf, w, es);
            let messages = match c.algorithm.as_str() {
                "ag_gemm" | "ag_gemm_ce" => w * (rows / bm).ceil(),
                "gemm_rs" | "gemm_rs_ce" | "gemm_rs_ps" => w * (rows / bm).ceil() * (nf / bn).ceil(),
                _ => 0.0,
            };
            match c.algorithm.as_str() {
                // The copy engine: no program is given up, but its transfer threads share the
                // cores the workers already fill (see `copy_engine_charge`); only the waits
                // for its signals overlap the tiles.
                "ag_gemm_ce" | "gemm_rs_ce" => {
                    let waits = messages * lat;
                    copy_engine_charge(c, compute, comm_bytes * inter / bw, w, m) + 0.1 * waits.min(compute) + (waits - compute).max(0.0) + m.launch_s
                }
                // The producer stores its partials to the owners as it goes, then every rank
                // waits at a barrier and reduces: the reduction does not overlap the tiles.
                "gemm_rs_ps" => compute + comm_bytes * inter / (bw * cores) + 2.0 * w * lat + m.launch_s,
                // No communication programs.
                "gemm" => compute + m.launch_s,
                _ => {
                    // Communication programs take cores from the tiles but overlap with them.
                    let comm_t = comm_bytes * inter / (bw * comm.min(cores)) + messages * lat / comm;
                    let share = (comm / (comm + (cores / w).max(1.0))).min(0.5);
                    compute / (1.0 - share) + 0.1 * comm_t.min(compute) + (comm_t - compute).max(0.0) + m.launch_s
                }
            }
        }
    }
}

/// Bytes a GEMM-family kernel moves between ranks (all ranks together) when each tiles `rows`
/// rows of an `n`-wide, `k`-deep problem of `es`-byte elements: AG-GEMM gathers A's shards,
/// GEMM-RS scatters partials of C in the element type.
pub(super) fn matmul_comm_bytes(algorithm: &str, rows: f64, n: f64, k: f64, w: f64, es: f64) -> f64 {
    match algorithm {
        "ag_gemm" | "ag_gemm_ce" => (w - 1.0) * rows * k * es,
        "gemm_rs" | "gemm_rs_ce" | "gemm_rs_ps" => (w - 1.0) * rows * n * es,
        _ => 0.0,
    }
}

/// Seconds between a waiting copy-engine thread's polls on `local` (its 20 us sleep, see the
/// runtime's `copy_engine::local::wait`).
pub const CE_POLL_S: f64 = 20e-6;

/// Seconds of the tiles (`compute`) and the copy engine's transfers (`copy`: its bytes over
/// the world's copy rate) together on `local`, where the engine is one transfer thread per
/// rank beside workers that fill every core, so nothing it does hides behind the tiles:
/// - its `w` threads are started with every launch (`spawn_s` starts `cores` threads);
/// - its copies take the workers' cores: their time adds to the tiles';
/// - a queue that waits for the kernel's progress (GEMM-RS scatters each partial tile once it
///   is staged) polls through the whole compute, each taking `poll_share` of a core: the
///   workers keep the rest.
pub(super) fn copy_engine_charge(c: &Config, compute: f64, copy: f64, w: f64, m: &Machine) -> f64 {
    let cores = m.cores.max(1) as f64;
    let start = m.spawn_s * w / cores;
    let polling = c.algorithm == "gemm_rs_ce";
    // Cores taken by the polls, at most all but one (the tiles still run, one poll at a time).
    let taken = if polling { (w * m.poll_share).min(cores - 1.0).max(0.0) } else { 0.0 };
    compute * cores / (cores - taken).max(1.0) + copy + start
}

/// Bytes each rank reads and writes, and synchronisation steps, of an MSCCL algorithm by its
/// shape (ring or direct): each step reads and writes the chunk it moves (a reduction also
/// reads its local input).
fn msccl_volume(c: &Config, bytes: f64, w: f64) -> (f64, f64) {
    let seg = bytes / w;
    match c.msccl().unwrap_or("") {
        "ring_allreduce" => (4.0 * (w - 1.0) * seg, 2.0 * (w - 1.0)),
        "hierarchical_allreduce" => (4.0 * (w - 1.0) * seg, 4.0),
        "allgather_ring" => (2.0 * (w - 1.0) * bytes, w - 1.0),
        "allgather_direct" => (2.0 * (w - 1.0) * bytes, 1.0),
        "reduce_scatter_ring" => (3.0 * (w - 1.0) * seg, w - 1.0),
        _ => (2.0 * w * bytes, w),
    }
}
