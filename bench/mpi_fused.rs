//! `cargo bench --bench mpi_fused`: issue 16's fused kernels on the `mpi` transport against
//! their non-fused baselines, in the same run on the same processes. Run plainly, it starts
//! itself under `mpirun` (`--allow-run-as-root --oversubscribe`, each process pinned to a
//! core as `bench/mpi.rs` does) as 1 node x 4 and x 8 processes and as 2 nodes x 2; each
//! process is one rank. The pairs and shapes are those of the `local` benches:
//! - `gemm_ar` (each `METHOD` and the size-picked default) against the GEMM then the library's
//!   AllReduce (`bench/fused.rs`: Qwen3-32B's row-parallel layers, N and K / 32, M = 256, K
//!   split over the ranks);
//! - `ep_dispatch` / `ep_combine` (the LL AllToAll) against `ep_dispatch_v` / `ep_combine_v`,
//!   `ag_moe` against `ag_moe_v` (AllGather, then the grouped GEMM), `moe_rs` against
//!   `moe_rs_v` (grouped GEMM, then the reduction) and `ep_dispatch_fp8` against `ep_dispatch`
//!   (`bench/moe.rs`: 128 tokens per rank, top-8 of 32 experts, hidden 224, expert width 64);
//!   the LL kernels store into peers' memory, which on `mpi` only a node's ranks share, so
//!   across nodes their rows say so;
//! - `flash_decode` over the split cache against its non-fused sequence on the same processes
//!   (`flash_decode_v`: local partials, AllGather, combine) and against one rank holding the
//!   whole cache (a `local` world of one rank in process 0, the other processes idle
//!   meanwhile), batch 1, 32 query / 8 KV heads of 128, caches of 1M and 64K positions / 32.
//!
//! Every kernel is verified once against its plain-math reference, then baseline and fused
//! launches alternate, one each per round after a barrier, for `--rounds` rounds (default 15):
//! a time is the slowest process's median, and the CPU column is every process's CPU time per
//! launch summed (ranks outnumber cores: a waiter that burns CPU slows the ranks that compute).
//! Writes `target/weft-bench/mpi_fused.md`. A subset: `cargo bench --bench mpi_fused --
//! --layouts 1x4,2x2 --only gemm_ar,ag_moe --rounds 9`, or the same words in
//! `WEFT_BENCH_MPI_FUSED_ARGS` (`--only` names fused kernels: `gemm_ar`, `ep_dispatch`,
//! `ep_combine`, `ag_moe`, `moe_rs`, `ep_dispatch_fp8`, `flash_decode`);
//! `WEFT_BENCH_MPI_FUSED_CX="BLOCK_N=128,..."` overrides every `gemm_ar` variant's constexprs.

#[path = "support.rs"]
#[allow(dead_code)] // the criterion helpers: this bench interleaves its own rounds
mod support;
#[path = "mpi_support.rs"]
mod mpi_support;

use std::fmt::Write as _;
use weft::kernels::{decode_constexprs, moe_constexprs, moe_gemm_constexprs, prepare, prepare_decode, prepare_matmul, prepare_moe, prepare_moe_gemm, shape_constexprs};
use weft::kernels::{DecodeShape, MatmulShape, MoeGemmShape, MoeShape, RoutingKind};
use weft::runtime::mpi::MpiTransport;
use weft::runtime::{DType, MpiOptions, World};

const SELECT_ENV: &str = "WEFT_BENCH_MPI_FUSED_ARGS";
const LAYOUTS: [(usize, usize); 3] = [(4, 1), (8, 1), (4, 2)];
const DTYPE: DType = DType::BF16;
/// `gemm_ar`: (label, M, N, K all ranks together), as `bench/fused.rs`.
const AR_SHAPES: [(&str, usize, usize, usize); 2] = [("mlp down", 256, 160, 800), ("attn out", 256, 160, 256)];
/// The MoE shapes of `bench/moe.rs`.
const SHAPE: MoeShape = MoeShape { tokens: 128, hidden: 7168 / 32, topk: 8, experts: 256 / 8 };
const UP: MoeGemmShape = MoeGemmShape { tokens: 128, k: 7168 / 32, n: 2048 / 32, topk: 8, experts: 256 / 8 };
const DOWN: MoeGemmShape = MoeGemmShape { k: UP.n, n: UP.k, ..UP };
/// (baseline, fused) MoE pairs.
const MOE_PAIRS: [(&str, &str); 5] = [("ep_dispatch_v", "ep_dispatch"), ("ep_combine_v", "ep_combine"), ("ag_moe_v", "ag_moe"), ("moe_rs_v", "moe_rs"), ("ep_dispatch", "ep_dispatch_fp8")];
/// `flash_decode` cache lengths: 1M and 64K positions / 32.
const SEQS: [usize; 2] = [(1 << 20) / 32, (64 << 10) / 32];

/// What to run (the command line's selection; the processes get it through the environment).
struct Select {
    layouts: Vec<(usize, usize)>,
    only: Option<Vec<String>>,
    rounds: usize,
}

impl Select {
    fn parse(args: &[String]) -> Select {
        let mut s = Select { layouts: LAYOUTS.to_vec(), only: None, rounds: 15 };
        let list = |v: Option<&String>| v.map(|v| v.split(',').map(str::to_string).collect::<Vec<_>>()).unwrap_or_default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--layouts" => s.layouts = list(it.next()).iter().map(|x| mpi_support::parse_layout(x)).collect(),
                "--only" => s.only = Some(list(it.next())),
                "--rounds" => s.rounds = it.next().and_then(|x| x.parse().ok()).unwrap_or(15).max(3),
                _ => {} // cargo bench's own flags (--bench)
            }
        }
        s
    }

    fn wants(&self, name: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.iter().any(|x| x == name))
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if let Ok(env) = std::env::var(SELECT_ENV) {
        args.extend(env.split_whitespace().map(str::to_string));
    }
    let select = Select::parse(&args);
    if mpi_support::is_rank() {
        return rank(&select);
    }
    let mut table = format!(
        "issue 16's fused kernels on `mpi` vs their baselines, bf16, {} interleaved rounds, slowest process's median ms (speedup = baseline / fused)\n\n| kernel | topology | shape | baseline | baseline ms | fused ms | speedup | CPU ms / launch (all processes), baseline / fused | load |\n|---|---|---|---|---|---|---|---|---|\n",
        select.rounds
    );
    for (np, nodes, ok, text) in mpi_support::run_layouts(&select.layouts, SELECT_ENV, &args) {
        if !ok {
            let _ = writeln!(table, "| (mpirun -np {np}, {nodes} nodes, stopped: see stderr) | | | | | | | | |");
        }
        for row in text.lines().filter_map(|l| l.strip_prefix("ROW ")) {
            let _ = writeln!(table, "{row}");
        }
    }
    support::write_summary("mpi_fused.md", &table);
}

/// One launch of a prepared kernel (or nothing, in the processes a baseline leaves idle).
type Launch<'a> = Box<dyn FnMut() + 'a>;

/// This process's part: every selected pair on the `mpi` world `mpirun` gave it.
fn rank(select: &Select) {
    let t = weft::runtime::mpi::open(MpiOptions::from_env()).expect("mpi world");
    let world = World::with_transport(t.clone());
    let bench = Bench { t: &t, world: &world, rounds: select.rounds, print: world.host_ranks().start == 0 };
    if select.wants("gemm_ar") {
        bench.gemm_ar();
    }
    for (base, fused) in MOE_PAIRS {
        if select.wants(fused) {
            bench.moe(base, fused);
        }
    }
    if select.wants("flash_decode") {
        bench.decode();
    }
    weft::runtime::mpi::finalize().expect("finalize");
}

struct Bench<'a> {
    t: &'a MpiTransport,
    world: &'a World,
    rounds: usize,
    /// Whether this process prints the rows (the one holding rank 0).
    print: bool,
}

impl Bench<'_> {
    /// Checks every process's verdict on a kernel's first launch.
    fn verified(&self, what: &str, (ok, err): (bool, f64)) {
        let (ok, err) = self.world.agree_verdict(ok, err).expect("agree");
        assert!(ok, "{what} {}: wrong result (max err {err})", self.world.topology());
    }

    /// Times `launches` interleaved, one launch each per round after a barrier: per launch the
    /// slowest process's median wall ms, and the CPU ms per launch of all processes together.
    fn interleaved(&self, launches: &mut [Launch]) -> Vec<(f64, f64)> {
        let n = launches.len();
        let (mut wall, mut cpu) = (vec![vec![]; n], vec![0f64; n]);
        for _ in 0..self.rounds {
            for (i, f) in launches.iter_mut().enumerate() {
                self.t.agree_max("round", &[0]).expect("barrier");
                let c = support::process_cpu();
                wall[i].push(support::ms(&mut **f));
                cpu[i] += (support::process_cpu() - c) * 1e3 / self.rounds as f64;
            }
        }
        let medians: Vec<u64> = wall.into_iter().map(|w| (support::median(w) * 1e6) as u64).collect();
        let slowest = self.t.agree_max("timing", &medians).expect("agree");
        let cpu = mpi_support::sum_all(self.t, self.world, &cpu);
        slowest.iter().zip(cpu).map(|(&w, c)| (w as f64 / 1e6, c)).collect()
    }

    /// Prints one table row: `(ms, cpu)` of the baseline and of the fused kernel.
    fn row(&self, kernel: &str, shape: &str, baseline: &str, b: (f64, f64), f: (f64, f64)) {
        if self.print {
            let topo = self.world.topology();
            println!("ROW | {kernel} | {topo} | {shape} | {baseline} | {:.3} | {:.3} | {:.2}x | {:.2} / {:.2} | {} |", b.0, f.0, b.0 / f.0, b.1, f.1, support::load());
        }
    }

    /// `gemm_ar`'s methods and default against the GEMM then the AllReduce.
    fn gemm_ar(&self) {
        let (w, nodes) = (self.world.n_ranks(), self.world.topology().nodes);
        for (label, m, n, k_all) in AR_SHAPES {
            let shape = MatmulShape { m, n, k: k_all / w };
            let mut gemm = prepare_matmul(self.world, "gemm", shape, DTYPE, &shape_constexprs("gemm", shape, w, DTYPE.name())).expect("gemm prepares");
            let ccx = weft::kernels::default_constexprs("allreduce", DTYPE.name()).expect("known");
            let mut ar = prepare(self.world, "allreduce", m * n, DTYPE, &ccx).expect("allreduce prepares");
            // Multimem reaches one node's ranks only.
            let methods: &[(&str, Option<&str>)] = &[("default", None), ("one-shot", Some("1")), ("two-shot", Some("2")), ("multimem", Some("3"))];
            let methods = &methods[..if nodes == 1 { 4 } else { 3 }];
            let mut fused: Vec<_> = methods
                .iter()
                .map(|&(name, method)| {
                    let mut cx = shape_constexprs("gemm_ar", shape, w, DTYPE.name());
                    if let Some(m) = method {
                        cx.set("METHOD", m);
                    }
                    for kv in std::env::var("WEFT_BENCH_MPI_FUSED_CX").unwrap_or_default().split(',').filter(|s| !s.is_empty()) {
                        let (k, v) = kv.split_once('=').expect("K=V");
                        cx.set(k, v);
                    }
                    let mut p = prepare_matmul(self.world, "gemm_ar", shape, DTYPE, &cx).expect("gemm_ar prepares");
                    p.launch().expect("launch");
                    self.verified(&format!("gemm_ar {name}"), p.verify().expect("verify"));
                    p
                })
                .collect();
            let mut launches: Vec<Launch> = vec![Box::new(|| {
                gemm.launch().expect("launch");
                ar.launch().expect("launch");
            })];
            launches.extend(fused.iter_mut().map(|p| Box::new(move || drop(p.launch().expect("launch"))) as Launch));
            let times = self.interleaved(&mut launches);
            for ((name, _), &f) in methods.iter().zip(&times[1..]) {
                self.row(&format!("gemm_ar {name}"), &format!("{label} {m}x{n}x{k_all} (k/rank {})", shape.k), "gemm + allreduce", times[0], f);
            }
        }
    }

    /// `name` (an MoE kernel) prepared, seeded, launched once and verified.
    fn moe_launch(&self, name: &str) -> Result<Launch<'static>, String> {
        if name.starts_with("ep_") {
            let mut p = prepare_moe(self.world, name, SHAPE, DTYPE, &moe_constexprs(SHAPE, DTYPE.name())).map_err(|e| e.to_string())?;
            p.seed(7, RoutingKind::Uniform).expect("seeds");
            p.launch().expect("launch");
            self.verified(name, p.verify().expect("verify"));
            return Ok(Box::new(move || drop(p.launch().expect("launch"))));
        }
        let shape = if name.starts_with("ag_") { UP } else { DOWN };
        let cx = moe_gemm_constexprs(name, shape, self.world.n_ranks(), DTYPE.name());
        let mut p = prepare_moe_gemm(self.world, name, shape, DTYPE, &cx).map_err(|e| e.to_string())?;
        p.seed(7, RoutingKind::Uniform).expect("seeds");
        p.launch().expect("launch");
        self.verified(name, p.verify().expect("verify"));
        Ok(Box::new(move || drop(p.launch().expect("launch"))))
    }

    /// One MoE pair; a kernel the topology does not support gets a row saying why.
    fn moe(&self, base: &str, fused: &str) {
        let shape = if fused.starts_with("ep_") {
            format!("{} tok x {} hidden, top-{} of {}", SHAPE.tokens, SHAPE.hidden, SHAPE.topk, SHAPE.experts)
        } else {
            let s = if fused.starts_with("ag_") { UP } else { DOWN };
            format!("{} tok, {}x{} per expert, top-{} of {}", s.tokens, s.k, s.n, s.topk, s.experts)
        };
        match (self.moe_launch(base), self.moe_launch(fused)) {
            (Ok(b), Ok(f)) => {
                let times = self.interleaved(&mut [b, f]);
                self.row(fused, &shape, base, times[0], times[1]);
            }
            (b, f) => {
                let why = [b.err(), f.err()].into_iter().flatten().next().unwrap_or_default().replace('|', "/");
                if self.print {
                    println!("ROW | {fused} | {} | {shape} | {base} | {why} | | | | {} |", self.world.topology(), support::load());
                }
            }
        }
    }

    /// `flash_decode` over the split cache against its non-fused sequence and against one rank
    /// (in process 0) holding all of it.
    fn decode(&self) {
        let prepared = |world: &World, name: &str, seq: usize| {
            let shape = DecodeShape { batch: 1, heads: 32, kv_heads: 8, seq, head_dim: 128 };
            let mut p = prepare_decode(world, name, shape, DTYPE, &decode_constexprs(shape, DTYPE.name(), false)).expect("flash_decode prepares");
            p.launch().expect("launch");
            p
        };
        let first = self.world.host_ranks().start == 0;
        let one = World::local(1).expect("world");
        for seq in SEQS {
            let mut single = first.then(|| prepared(&one, "flash_decode", seq));
            if let Some(s) = &single {
                assert!(s.verify().expect("verify").0, "flash_decode on 1 rank seq={seq}: wrong result");
            }
            let (mut unfused, mut split) = (prepared(self.world, "flash_decode_v", seq), prepared(self.world, "flash_decode", seq));
            self.verified("flash_decode_v", unfused.verify().expect("verify"));
            self.verified("flash_decode", split.verify().expect("verify"));
            let times = self.interleaved(&mut [
                Box::new(|| drop(unfused.launch().expect("launch"))),
                Box::new(|| {
                    if let Some(s) = &mut single {
                        s.launch().expect("launch");
                    }
                }),
                Box::new(|| drop(split.launch().expect("launch"))),
            ]);
            let shape = format!("seq {seq}, 32/8 heads of 128");
            self.row("flash_decode", &shape, "partials + AllGather + combine", times[0], times[2]);
            self.row("flash_decode", &shape, "1 rank, whole cache", times[1], times[2]);
        }
    }
}
