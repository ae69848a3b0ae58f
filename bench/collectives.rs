//! `cargo bench --bench collectives`: AllGather and AllReduce on the `local` transport at 2, 4
//! and 8 ranks, 4 KiB to 64 MiB (NCCL's size convention: the output buffer), each next to a
//! plain `memcpy` of the same bytes in the same run (the physical limit on one machine).
//! Prints GB/s and the fraction of memcpy, and writes a summary table to
//! `target/weft-bench/collectives.md`. `WEFT_BENCH_COLLECTIVES=allreduce_ring` runs only the
//! named ones. On the `mpi` transport (one rank per process, next to
//! Open MPI's own collectives): `cargo bench --bench mpi`.

#[path = "support.rs"]
mod support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write as _;
use std::time::{Duration, Instant};
use weft::kernels::{prepare, Prepared};
use weft::runtime::{DType, World};

const SIZES: [usize; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20];
const RANKS: [usize; 3] = [2, 4, 8];
const COLLECTIVES: [&str; 3] = ["allgather", "allreduce", "allreduce_ring"];

/// Bytes a memcpy baseline must move to match what the collective moves in total.
fn copied_bytes(p: &Prepared) -> usize {
    p.bus_bytes * p.world_size
}

fn memcpy_time(bytes: usize, iters: u64, src: &[u8], dst: &mut [u8]) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        let mut left = bytes;
        while left > 0 {
            let n = left.min(src.len());
            dst[..n].copy_from_slice(&src[..n]);
            left -= n;
        }
        std::hint::black_box(&mut *dst);
    }
    start.elapsed()
}

fn bench(c: &mut Criterion) {
    let mut summary = String::from("| collective | ranks | size | weft GB/s | memcpy GB/s | % of memcpy |\n|---|---|---|---|---|---|\n");
    let scratch_src = vec![1u8; 64 << 20];
    let mut scratch_dst = vec![0u8; 64 << 20];
    // `WEFT_BENCH_COLLECTIVES=allreduce_ring`: only the named ones (comma separated).
    let only = std::env::var("WEFT_BENCH_COLLECTIVES").ok();
    let names: Vec<&str> = COLLECTIVES.into_iter().filter(|n| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == *n))).collect();
    let total = names.len() * RANKS.len() * SIZES.len();
    let mut done = 0;
    for name in names {
        let mut group = c.benchmark_group(name);
        group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
        for ranks in RANKS {
            let world = World::local(ranks).expect("world");
            for bytes in SIZES {
                done += 1;
                eprintln!("[{done}/{total}] {name} ranks={ranks} size={bytes}");
                let per_rank = if name == "allgather" { bytes / ranks } else { bytes };
                let elems = per_rank / DType::F32.size_bytes();
                let mut p = prepare(&world, name, elems, DType::F32, &weft::kernels::default_constexprs(name, "f32").expect("known"))
                    .expect("prepares");
                let (ok, err) = p.verify_after_launch().expect("runs");
                assert!(ok, "{name} ranks={ranks} bytes={bytes}: wrong result (max err {err})");
                let moved = copied_bytes(&p);
                group.throughput(Throughput::Bytes(moved as u64));
                let id = format!("{ranks}ranks/{bytes}B");
                let weft_t = support::timed(&mut group, "weft", &id, || {
                    p.launch().expect("launch");
                });
                let mem_t = support::timed(&mut group, "memcpy", &id, || {
                    memcpy_time(moved, 1, &scratch_src, &mut scratch_dst);
                });
                let gbs = |t: Duration| moved as f64 / t.as_secs_f64().max(1e-12) / 1e9;
                let (w, m) = (gbs(weft_t), gbs(mem_t));
                let line = format!("| {name} | {ranks} | {bytes} | {w:.2} | {m:.2} | {:.0}% |", 100.0 * w / m);
                eprintln!("{line}");
                let _ = writeln!(summary, "{line}");
                p.free();
            }
        }
        group.finish();
    }
    support::write_summary("collectives.md", &summary);
}

criterion_group!(benches, bench);
criterion_main!(benches);
