//! `weft run`: compile a library kernel, launch it (in-process ranks, or this process's PE of
//! a CUDA world), verify, time.

use clap::Args;
use weft::kernels::tune::Shape;
use weft::runtime::{DType, LocalOptions, MpiOptions, Topology, World};

/// Arguments of `weft run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Library kernel name (see `weft list`).
    kernel: String,
    /// Total ranks.
    #[arg(long, default_value_t = 4)]
    ranks: usize,
    /// Nodes the ranks are split over (ranks must divide evenly).
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Elements per rank (the collective's unit: shard size for AllGather, buffer size otherwise).
    #[arg(long, default_value_t = 1 << 20)]
    elems: usize,
    /// Element type: f32, f16, bf16, i32, or f8e4m3 / f8e5m2 (FP8: data-movement collectives only).
    #[arg(long, default_value = "f32")]
    dtype: String,
    /// Timed iterations (after one warm-up).
    #[arg(long, default_value_t = 5)]
    iters: usize,
    /// GEMM kernels: rows of C (all ranks together for ag_gemm and gemm_rs).
    #[arg(long, default_value_t = 1024)]
    m: usize,
    /// GEMM kernels: columns of C (ag_moe / moe_rs / moe_gemm: of each expert's weights).
    #[arg(long, default_value_t = 1024)]
    n: usize,
    /// GEMM kernels: reduction length (per rank for gemm_rs).
    #[arg(long, default_value_t = 512)]
    k: usize,
    /// flash_decode: sequences (one query token each).
    #[arg(long, default_value_t = 1)]
    batch: usize,
    /// flash_decode: query heads.
    #[arg(long, default_value_t = 32)]
    heads: usize,
    /// flash_decode: KV heads (grouped-query attention when fewer than --heads).
    #[arg(long, default_value_t = 8)]
    kv_heads: usize,
    /// flash_decode: cached positions, all ranks together (split over them).
    #[arg(long, default_value_t = 32768)]
    seq: usize,
    /// flash_decode: elements per head.
    #[arg(long, default_value_t = 128)]
    head_dim: usize,
    /// ep_dispatch / ep_combine / ag_moe / moe_rs: tokens per rank.
    #[arg(long, default_value_t = 128)]
    tokens: usize,
    /// ep_dispatch / ep_combine / ag_moe / moe_rs: elements per token (the expert GEMMs' k).
    #[arg(long, default_value_t = 1024)]
    hidden: usize,
    /// ep_dispatch / ep_combine / ag_moe / moe_rs: experts each token picks.
    #[arg(long, default_value_t = 8)]
    topk: usize,
    /// ep_dispatch / ep_combine / ag_moe / moe_rs: experts, all ranks together (split evenly over them).
    #[arg(long, default_value_t = 32)]
    experts: usize,
    /// ep_dispatch / ep_combine: random routing `uniform`, `sparse` (half the experts get no
    /// token) or `hot` (one expert in every token's top-k).
    #[arg(long, default_value = "uniform")]
    routing: String,
    /// `local` (ranks as threads here), `cuda` (this process is one NVSHMEM PE on its GPU;
    /// the launcher's environment gives the ranks, so --ranks and --nodes are ignored) or `mpi`
    /// (this process is one rank under mpirun; --nodes > 1 splits the processes into that many
    /// emulated nodes, otherwise the machines they run on are the nodes).
    #[arg(long, default_value = "local")]
    transport: String,
    /// Run GPU code for this architecture (`sm_80`, `sm_90a`, `sm_100a`, `gfx90a`, `gfx942`) in the SIMT emulator
    /// on the `local` transport, instead of CPU code.
    #[arg(long)]
    target: Option<String>,
    /// Constexpr overrides, e.g. `-D BLOCK=1024`.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
    /// Run under the race detector (`local` only; as `WEFT_RACECHECK=1`): reports data races
    /// between shmem ops and signals sent after a non-blocking put with no fence. Slow.
    #[arg(long)]
    racecheck: bool,
}

/// The emulated architecture `--target` names.
pub(super) fn emulated_arch(t: &str) -> Result<&'static str, String> {
    match weft::compiler::Target::parse(t) {
        Some(t @ (weft::compiler::Target::Cuda { .. } | weft::compiler::Target::Amd { .. })) => Ok(t.name()),
        _ => Err(format!("--target `{t}`: the emulator runs sm_80, sm_90a, sm_100a, gfx90a and gfx942")),
    }
}

/// Runs `weft run`.
pub fn run(a: RunArgs) -> Result<(), String> {
    let dtype = DType::parse(&a.dtype).ok_or_else(|| format!("unknown dtype `{}` (f32, f16, bf16, i32, f8e4m3, f8e5m2)", a.dtype))?;
    let world = match a.transport.as_str() {
        "local" => {
            if a.ranks == 0 || a.nodes == 0 || a.ranks % a.nodes != 0 {
                return Err(format!("--ranks {} must be a positive multiple of --nodes {}", a.ranks, a.nodes));
            }
            let topology = Topology { nodes: a.nodes, local_size: a.ranks / a.nodes };
            let emulate = a.target.as_deref().map(emulated_arch).transpose()?;
            let env = LocalOptions::from_env();
            World::local_with(LocalOptions { topology, emulate, racecheck: a.racecheck || env.racecheck, ..env })
        }
        _ if a.racecheck => return Err(format!("--racecheck runs on the local transport, not {}", a.transport)),
        "cuda" if a.target.is_some() => return Err("--target runs GPU code in the emulator on the local transport; a cuda world compiles for its own GPU".into()),
        "cuda" => World::cuda(),
        "mpi" => mpi_world(a.target.as_deref(), a.nodes),
        t => return Err(format!("unknown transport `{t}` (local, cuda, mpi)")),
    }
    .map_err(|e| e.to_string())?;
    let topology = world.topology();
    if weft::kernels::list().iter().any(|k| k.name == a.kernel && k.collective == weft::kernels::Collective::FlashDecode) {
        return run_decode(&a, &world, dtype);
    }
    if weft::kernels::list().iter().any(|k| k.name == a.kernel && k.collective.is_moe()) {
        return run_moe(&a, &world, dtype);
    }
    if weft::kernels::list().iter().any(|k| k.name == a.kernel && k.collective == weft::kernels::Collective::MoeAlign) {
        return run_moe_align(&a, &world);
    }
    if weft::kernels::list().iter().any(|k| k.name == a.kernel && k.collective.is_grouped()) {
        return run_moe_gemm(&a, &world, dtype);
    }
    // The target's own defaults: a GPU's collective tile is not the CPU's.
    let mut constexprs = weft::kernels::topology_constexprs(&a.kernel, dtype.name(), weft::kernels::tune::target_of(&world), topology).map_err(|e| e.to_string())?;
    let matmul = weft::kernels::list().iter().any(|k| k.name == a.kernel && k.collective.is_matmul());
    if matmul {
        let shape = weft::kernels::MatmulShape { m: a.m, n: a.n, k: a.k };
        constexprs = weft::kernels::shape_constexprs(&a.kernel, shape, world.n_ranks(), dtype.name());
    }
    super::compile::apply_defines(&mut constexprs, &a.define)?;
    // The tuned config when every rank's cache holds one (explicit -D overrides win).
    let mut kernel = a.kernel.clone();
    if a.define.is_empty() {
        let shape = if matmul { Shape::Matmul(weft::kernels::MatmulShape { m: a.m, n: a.n, k: a.k }) } else { Shape::Elems(a.elems) };
        let (tuned, line) = super::tune::tuned_for_run(&world, &a.kernel, shape, dtype);
        if printer(&world) {
            println!("{line}");
        }
        if let Some(c) = tuned {
            if c.msccl().is_some() {
                let problem = weft::kernels::tune::Problem { op: a.kernel.clone(), shape, dtype };
                return super::tune::run_tuned_msccl(&world, &problem, &c, a.iters);
            }
            constexprs = c.constexprs(dtype.name());
            kernel = c.algorithm.clone();
        }
    }
    if matmul {
        return run_matmul(&a, &kernel, &world, dtype, &constexprs);
    }
    let opts = weft::kernels::RunOptions { iters: a.iters.max(1), warmup: 1, constexprs, seed: 0x5eed };
    let counted = weft::emulator::executed_instructions();
    let r = weft::kernels::run_collective(&world, &kernel, a.elems, dtype, &opts).map_err(|e| e.to_string())?;
    let median = r.median();
    let secs = median.as_secs_f64().max(1e-9);
    let (verified, max_err) = world.agree_verdict(r.verified, r.max_err).map_err(|e| e.to_string())?;
    if printer(&world) {
        println!(
        "{} ranks={} ({topology}, {}) elems={} dtype={}: {}  max_err={:.3e}  time={:.3} ms (median of {})  algbw={:.2} GB/s  busbw={:.2} GB/s",
        kernel,
        world.n_ranks(),
        world.transport(),
        a.elems,
        dtype,
        if verified { "PASS" } else { "FAIL" },
        max_err,
        secs * 1e3,
        r.times.len(),
        r.alg_bytes as f64 / secs / 1e9,
        r.bus_bytes as f64 / secs / 1e9,
        );
    }
    emulation_speed(&world, counted, 1, &r.times);
    for w in &r.warnings {
        eprintln!("weft: warning: {w}");
    }
    if !verified {
        return Err(format!("{}: result differs from the reference (max error {max_err:.3e})", a.kernel));
    }
    Ok(())
}

/// With `WEFT_EMU_CHECKS=count` on an emulated world, prints the emulation speed: GPU-thread
/// instructions (per-thread IR, before optimization) per second of the timed launches, which
/// followed `warmup` untimed ones of the same kernel (counted since `before`).
fn emulation_speed(world: &World, before: u64, warmup: usize, times: &[std::time::Duration]) {
    if world.gpu_arch().is_none() || world.transport() != "local" || !weft::emulator::Checks::from_env().count || times.is_empty() {
        return;
    }
    let per_launch = (weft::emulator::executed_instructions() - before) as f64 / (warmup + times.len()) as f64;
    let secs: f64 = times.iter().map(|t| t.as_secs_f64()).sum();
    println!(
        "emulated {}: {:.0} GPU-thread instructions per launch, {:.1} M thread-instructions/s",
        world.gpu_arch().unwrap_or_default(),
        per_launch,
        per_launch * times.len() as f64 / secs.max(1e-9) / 1e6
    );
}

/// The verdict every rank agrees on (ok, max error) and the median launch in seconds.
fn verdict(world: &World, (ok, max_err): (bool, f64), times: &[std::time::Duration]) -> Result<(bool, f64, f64), String> {
    let (ok, max_err) = world.agree_verdict(ok, max_err).map_err(|e| e.to_string())?;
    let mut sorted = times.to_vec();
    sorted.sort();
    Ok((ok, max_err, sorted[sorted.len() / 2].as_secs_f64().max(1e-9)))
}

/// `weft run flash_decode`: verify against softmax attention in f64, report time and the KV
/// cache's read bandwidth.
fn run_decode(a: &RunArgs, world: &World, dtype: DType) -> Result<(), String> {
    use weft::kernels::{decode_constexprs, prepare_decode, time_launches, DecodeShape};
    let shape = DecodeShape { batch: a.batch, heads: a.heads, kv_heads: a.kv_heads, seq: a.seq, head_dim: a.head_dim };
    let mut c = decode_constexprs(shape, dtype.name(), world.gpu_arch().is_some());
    super::compile::apply_defines(&mut c, &a.define)?;
    let mut p = prepare_decode(world, &a.kernel, shape, dtype, &c).map_err(|e| e.to_string())?;
    let times = time_launches(|| Ok(p.launch()?.timed()), 1, a.iters.max(1)).map_err(|e| e.to_string())?;
    let (ok, max_err, secs) = verdict(world, p.verify().map_err(|e| e.to_string())?, &times)?;
    if printer(world) {
        println!(
            "{} ranks={} ({}) batch={} heads={} kv_heads={} seq={} head_dim={} dtype={}: {}  max_err={:.3e}  time={:.3} ms (median of {})  KV {:.2} GB/s",
            a.kernel,
            world.n_ranks(),
            world.topology(),
            a.batch,
            a.heads,
            a.kv_heads,
            a.seq,
            a.head_dim,
            dtype,
            if ok { "PASS" } else { "FAIL" },
            max_err,
            secs * 1e3,
            times.len(),
            p.kv_bytes() as f64 / secs / 1e9,
        );
    }
    if !ok {
        return Err(format!("{}: result differs from the reference (max error {max_err:.3e})", a.kernel));
    }
    Ok(())
}

/// `weft run ep_dispatch` / `ep_combine` / `ep_dispatch_v`: verify against the plain-math
/// dispatch or weighted combine, report time and the token payload's bandwidth.
fn run_moe(a: &RunArgs, world: &World, dtype: DType) -> Result<(), String> {
    use weft::kernels::{moe_constexprs, prepare_moe, time_launches, MoeShape};
    let kind = routing_kind(a)?;
    let shape = MoeShape { tokens: a.tokens, hidden: a.hidden, topk: a.topk, experts: a.experts };
    let mut c = moe_constexprs(shape, dtype.name());
    super::compile::apply_defines(&mut c, &a.define)?;
    let mut p = prepare_moe(world, &a.kernel, shape, dtype, &c).map_err(|e| e.to_string())?;
    p.seed(0x5eed, kind).map_err(|e| e.to_string())?;
    let times = time_launches(|| Ok(p.launch()?.timed()), 1, a.iters.max(1)).map_err(|e| e.to_string())?;
    let bytes = p.payload_bytes() as f64;
    moe_verdict(a, world, dtype, "", p.verify().map_err(|e| e.to_string())?, &times, |secs| format!("payload {:.2} GB/s", bytes / secs / 1e9))
}

/// Prints an MoE run's line (`sizes` after the common flags, `rate` of the median seconds) on
/// the printing process, and fails when any rank's result differs from the reference.
fn moe_verdict(a: &RunArgs, world: &World, dtype: DType, sizes: &str, checked: (bool, f64), times: &[std::time::Duration], rate: impl Fn(f64) -> String) -> Result<(), String> {
    let (ok, max_err, secs) = verdict(world, checked, times)?;
    if printer(world) {
        println!(
            "{} ranks={} ({}) tokens={} hidden={}{sizes} topk={} experts={} routing={} dtype={}: {}  max_err={:.3e}  time={:.3} ms (median of {})  {}",
            a.kernel,
            world.n_ranks(),
            world.topology(),
            a.tokens,
            a.hidden,
            a.topk,
            a.experts,
            a.routing,
            dtype,
            if ok { "PASS" } else { "FAIL" },
            max_err,
            secs * 1e3,
            times.len(),
            rate(secs),
        );
    }
    if !ok {
        return Err(format!("{}: result differs from the reference (max error {max_err:.3e})", a.kernel));
    }
    Ok(())
}

/// The `--routing` flag.
fn routing_kind(a: &RunArgs) -> Result<weft::kernels::RoutingKind, String> {
    use weft::kernels::RoutingKind;
    match a.routing.as_str() {
        "uniform" => Ok(RoutingKind::Uniform),
        "sparse" => Ok(RoutingKind::Sparse),
        "hot" => Ok(RoutingKind::Hot),
        r => Err(format!("--routing `{r}` (uniform, sparse, hot)")),
    }
}

/// `weft run moe_align`: the row layout of the gathered tokens over each rank's experts (as
/// `ag_moe` reads it) from --routing, checked against the plain-math dispatch's layout.
fn run_moe_align(a: &RunArgs, world: &World) -> Result<(), String> {
    use weft::kernels::{align_constexprs, prepare_align, time_launches, AlignSpec, MoeShape, Routing};
    let kind = routing_kind(a)?;
    let w = world.n_ranks();
    let spec = AlignSpec::gathered(w, a.tokens, a.topk, a.experts);
    let mut c = align_constexprs(a.topk);
    super::compile::apply_defines(&mut c, &a.define)?;
    let p = prepare_align(world, spec, &c).map_err(|e| e.to_string())?;
    let routing = Routing::random(w, MoeShape { tokens: a.tokens, hidden: a.hidden, topk: a.topk, experts: a.experts }, kind, 0x5eed);
    p.write_routing(&routing.idx).map_err(|e| e.to_string())?;
    let times = time_launches(|| Ok(p.launch()?.timed()), 1, a.iters.max(1)).map_err(|e| e.to_string())?;
    let ok = p.verify(&routing.idx).map_err(|e| e.to_string())?;
    let choices = spec.choices() as f64;
    moe_verdict(a, world, DType::I32, "", (ok, if ok { 0.0 } else { 1.0 }), &times, |secs| format!("{:.2} M choices/s", choices / secs / 1e6))
}

/// `weft run moe_gemm` / `ag_moe` / `moe_rs` (and the baselines): tokens of width --hidden
/// times --n-column expert weights; verify against f64 plain math, report time and TFLOP/s.
fn run_moe_gemm(a: &RunArgs, world: &World, dtype: DType) -> Result<(), String> {
    use weft::kernels::{moe_gemm_constexprs, prepare_moe_gemm, time_launches, MoeGemmShape};
    let kind = routing_kind(a)?;
    let shape = MoeGemmShape { tokens: a.tokens, k: a.hidden, n: a.n, topk: a.topk, experts: a.experts };
    let mut c = moe_gemm_constexprs(&a.kernel, shape, world.n_ranks(), dtype.name());
    super::compile::apply_defines(&mut c, &a.define)?;
    let mut p = prepare_moe_gemm(world, &a.kernel, shape, dtype, &c).map_err(|e| e.to_string())?;
    p.seed(0x5eed, kind).map_err(|e| e.to_string())?;
    let times = time_launches(|| Ok(p.launch()?.timed()), 1, a.iters.max(1)).map_err(|e| e.to_string())?;
    let flops = p.flops();
    moe_verdict(a, world, dtype, &format!(" n={}", a.n), p.verify().map_err(|e| e.to_string())?, &times, |secs| format!("{:.3} TFLOP/s", flops / secs / 1e12))
}

/// `weft run` for the GEMM family: verify against a naive GEMM, report time and TFLOP/s.
/// `kernel` is the one the tuned config picked (`ag_gemm_ce` for `ag_gemm`, say), else `a.kernel`.
fn run_matmul(a: &RunArgs, kernel: &str, world: &World, dtype: DType, c: &weft::compiler::dsl::Constexprs) -> Result<(), String> {
    let shape = weft::kernels::MatmulShape { m: a.m, n: a.n, k: a.k };
    let mut p = weft::kernels::prepare_matmul(world, kernel, shape, dtype, c).map_err(|e| e.to_string())?;
    let mut warnings = vec![];
    let counted = weft::emulator::executed_instructions();
    let times = weft::kernels::time_launches(
        || {
            let r = p.launch()?;
            let t = r.timed();
            warnings = r.warnings;
            Ok(t)
        },
        1,
        a.iters.max(1),
    )
    .map_err(|e| e.to_string())?;
    emulation_speed(world, counted, 1, &times);
    let (ok, max_err, secs) = verdict(world, p.verify().map_err(|e| e.to_string())?, &times)?;
    if printer(world) {
        println!(
        "{} ranks={} ({}) m={} n={} k={} dtype={}: {}  max_err={:.3e}  time={:.3} ms (median of {})  {:.3} TFLOP/s",
        kernel,
        world.n_ranks(),
        world.topology(),
        a.m,
        a.n,
        a.k,
        dtype,
        if ok { "PASS" } else { "FAIL" },
        max_err,
        secs * 1e3,
        times.len(),
        p.flops() / secs / 1e12,
        );
    }
    for w in &warnings {
        eprintln!("weft: warning: {w}");
    }
    if !ok {
        return Err(format!("{}: result differs from the reference (max error {max_err:.3e})", a.kernel));
    }
    Ok(())
}

/// This process's rank of an MPI world (`--nodes` > 1: that many emulated nodes).
pub(super) fn mpi_world(target: Option<&str>, nodes: usize) -> Result<World, weft::runtime::RuntimeError> {
    if target.is_some() {
        return Err(weft::runtime::MpiError::Unsupported("it runs CPU code; --target runs GPU code in the emulator on the local transport".into()).into());
    }
    World::mpi(MpiOptions { nodes: (nodes > 1).then_some(nodes), ..MpiOptions::from_env() })
}

/// Whether this process prints the result line: the one holding rank 0 (every process verifies
/// its own ranks; the verdict is agreed first).
pub(super) fn printer(world: &World) -> bool {
    world.host_ranks().start == 0
}
