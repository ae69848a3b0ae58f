//! `cargo bench --bench mpi`: the collectives and overlap benches on the `mpi` transport.
//! Run plainly, it starts itself under `mpirun` at 2 and 4 processes and as 2 nodes x 2
//! (`--allow-run-as-root --oversubscribe`); each process is one rank. Every row times weft's
//! kernel next to, in the same run on the same processes, Open MPI's own MPI_Allgather /
//! MPI_Allreduce / MPI_Reduce_scatter_block (collectives, 4 KiB to 64 MiB, NCCL's size
//! convention) or the non-overlapped baseline (overlap: the collective, then the GEMM). Times
//! are the slowest process's mean over a fixed number of launches (criterion's adaptive
//! counts would differ between processes, and every launch is collective). Tables go to
//! `target/weft-bench/mpi_collectives.md` and `target/weft-bench/mpi_overlap.md`.

// The criterion helper `timed` is unused here.
#[allow(dead_code)]
#[path = "support.rs"]
mod support;

use std::fmt::Write as _;
use std::process::Command;
use std::time::{Duration, Instant};
use weft::kernels::{default_constexprs, prepare, prepare_matmul, shape_constexprs, MatmulShape};
use weft::runtime::mpi::{MpiCollective, MpiTransport};
use weft::runtime::{DType, MpiOptions, World};

const SIZES: [usize; 5] = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20];
/// (processes, nodes).
const LAYOUTS: [(usize, usize); 3] = [(2, 1), (4, 1), (4, 2)];
const LLAMA: [(usize, usize, usize); 2] = [(8192 / 32, 11008 / 32, 4096 / 32), (8192 / 32, 14336 / 32, 4096 / 32)];

fn main() {
    if std::env::var_os("OMPI_COMM_WORLD_SIZE").is_some() {
        return child();
    }
    let exe = std::env::current_exe().expect("bench binary");
    let (mut coll, mut over) = (header_coll(), header_over());
    for (np, nodes) in LAYOUTS {
        eprintln!("mpirun -np {np} (nodes {nodes})");
        let out = Command::new("mpirun")
            .args(["--allow-run-as-root", "--oversubscribe", "-np", &np.to_string()])
            .arg(&exe)
            .env("WEFT_MPI_NODES", nodes.to_string())
            .output()
            .expect("mpirun runs (install Open MPI with ./setup.sh)");
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            // Keep the rows it printed; the table says which layout stopped.
            eprintln!("mpirun -np {np} (nodes {nodes}) failed:\n{}", String::from_utf8_lossy(&out.stderr));
            let _ = writeln!(coll, "| (mpirun -np {np}, {nodes} nodes, stopped: see stderr) | | | | | | |");
        }
        for l in text.lines() {
            if let Some(row) = l.strip_prefix("COLL ") {
                let _ = writeln!(coll, "{row}");
            } else if let Some(row) = l.strip_prefix("OVER ") {
                let _ = writeln!(over, "{row}");
            }
        }
    }
    support::write_summary("mpi_collectives.md", &coll);
    support::write_summary("mpi_overlap.md", &over);
}

fn header_coll() -> String {
    "| collective | topology | size | weft µs | Open MPI µs | weft / MPI | weft GB/s |\n|---|---|---|---|---|---|---|\n".into()
}

fn header_over() -> String {
    "| kernel | topology | M x N x K | comm ms | gemm ms | baseline ms | fused ms | speedup |\n|---|---|---|---|---|---|---|---|\n".into()
}

/// Launches a fixed number of times (a count every process agrees on); the slowest process's mean.
fn timed(t: &MpiTransport, iters: usize, mut f: impl FnMut()) -> Duration {
    f();
    let start = Instant::now();
    for _ in 0..iters {
        f();
    }
    let mine = start.elapsed() / iters as u32;
    Duration::from_nanos(t.agree_max("timing", &[mine.as_nanos() as u64]).expect("agree")[0])
}

fn child() {
    let t = weft::runtime::mpi::open(MpiOptions::from_env()).expect("mpi world");
    let world = World::with_transport(t.clone());
    let topo = world.topology();
    let ranks = world.n_ranks();
    let print = world.host_ranks().start == 0;
    // Across nodes the library's AllReduce kernels (remote_ptr loads) fail with a typed error;
    // the row says so.
    for (name, reference) in [("allgather", MpiCollective::Allgather), ("allreduce", MpiCollective::Allreduce), ("reduce_scatter", MpiCollective::ReduceScatterBlock)] {
        for bytes in SIZES {
            // Enough launches for a stable mean, few at the sizes that take milliseconds.
            let iters = ((32 << 20) / bytes).clamp(3, 200);
            let per_rank = if name == "allgather" { bytes / ranks } else { bytes };
            let cx = default_constexprs(name, "f32").expect("known");
            let mut p = match prepare(&world, name, per_rank / 4, DType::F32, &cx) {
                Ok(p) => p,
                Err(e) => {
                    if print {
                        println!("COLL | {name} | {topo} | {bytes} | {} | | | |", e.to_string().replace('|', "/"));
                    }
                    continue;
                }
            };
            let (ok, err) = match p.verify_after_launch() {
                Ok(v) => v,
                Err(e) => {
                    // Every process fails the same launch (a fault anywhere fails it everywhere).
                    if print {
                        println!("COLL | {name} | {topo} | {bytes} | {} | | | |", e.to_string().replace('|', "/"));
                    }
                    p.free();
                    continue;
                }
            };
            let (ok, err) = world.agree_verdict(ok, err).expect("agree");
            assert!(ok, "{name} {topo} {bytes}: wrong result (max err {err})");
            let w = timed(&t, iters, || {
                p.launch().expect("launch");
            });
            let m = t.peers().time_mpi_collective(reference, bytes, iters).expect("MPI collective");
            let us = |d: Duration| d.as_secs_f64() * 1e6;
            if print {
                println!("COLL | {name} | {topo} | {bytes} | {:.1} | {:.1} | {:.2}x | {:.2} |", us(w), us(m), w.as_secs_f64() / m.as_secs_f64(), p.bus_bytes as f64 / w.as_secs_f64() / 1e9);
            }
            p.free();
        }
    }
    overlap(&t, &world, print);
    weft::runtime::mpi::finalize().expect("finalize");
}

fn overlap(t: &MpiTransport, world: &World, print: bool) {
    let topo = world.topology();
    let w = world.n_ranks();
    let dtype = DType::BF16;
    for kernel in ["ag_gemm", "gemm_rs"] {
        for (m, n, k) in LLAMA {
            let shape = MatmulShape { m, n, k };
            let mut fused = prepare_matmul(world, kernel, shape, dtype, &shape_constexprs(kernel, shape, w, dtype.name())).expect("prepares");
            fused.launch().expect("launch");
            let (ok, err) = fused.verify().expect("verify");
            let (ok, err) = world.agree_verdict(ok, err).expect("agree");
            assert!(ok, "{kernel} {topo} {shape:?}: wrong result (max err {err})");
            let (coll, elems) = if kernel == "ag_gemm" { ("allgather", m.div_ceil(w) * k) } else { ("reduce_scatter", m * n) };
            let mut gemm = prepare_matmul(world, "gemm", shape, dtype, &shape_constexprs("gemm", shape, w, dtype.name())).expect("gemm prepares");
            let mut comm = prepare(world, coll, elems, dtype, &default_constexprs(coll, dtype.name()).expect("known")).expect("collective prepares");
            let iters = 5;
            let t_comm = timed(t, iters, || {
                comm.launch().expect("launch");
            });
            let t_gemm = timed(t, iters, || {
                gemm.launch().expect("launch");
            });
            let t_base = timed(t, iters, || support::launch_baseline(kernel, &mut comm, &mut gemm));
            let t_fused = timed(t, iters, || {
                fused.launch().expect("launch");
            });
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            if print {
                println!(
                    "OVER | {kernel} | {topo} | {m}x{n}x{k} | {:.3} | {:.3} | {:.3} | {:.3} | {:.2}x |",
                    ms(t_comm),
                    ms(t_gemm),
                    ms(t_base),
                    ms(t_fused),
                    t_base.as_secs_f64() / t_fused.as_secs_f64()
                );
            }
        }
    }
}
