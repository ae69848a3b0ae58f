//! The `mpi` transport under `mpirun` (2 and 4 processes, oversubscribed, `--allow-run-as-root`
//! as CI runs as root): the CLI's collectives, GEMM family and MSCCL runs (each process
//! verifies its ranks against the reference), a 2x2 topology as two process groups, the
//! shmem ops across nodes, a deadlock reported by every process, and a killed process.
//! Without `mpirun` on the machine (no ./setup.sh) each test says so and passes as skipped.

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, MpiOptions, RuntimeError, World};

pub(crate) fn have_mpirun() -> bool {
    let ok = Command::new("mpirun").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: no mpirun (run ./setup.sh)");
    }
    ok
}

fn mpirun_cmd(np: usize, program: &str, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np", &np.to_string(), program]).args(args);
    c.env("WEFT_DEADLOCK_TIMEOUT_MS", "3000").stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// Waits for `child`, killing it (and failing) after `limit`.
fn finish(mut child: Child, limit: Duration, what: &str) -> (Output, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let (mut stdout, mut stderr) = (vec![], vec![]);
            child.stdout.take().map(|mut o| o.read_to_end(&mut stdout));
            child.stderr.take().map(|mut e| e.read_to_end(&mut stderr));
            return (Output { status, stdout, stderr }, start.elapsed());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `weft ARGS` on `np` processes; returns (success, stdout, stderr).
pub(crate) fn weft_mpi(np: usize, args: &[&str]) -> (bool, String, String) {
    let child = mpirun_cmd(np, env!("CARGO_BIN_EXE_weft"), args).spawn().expect("mpirun starts");
    let (out, _) = finish(child, Duration::from_secs(60), &args.join(" "));
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Checks a run passed and that only rank 0 printed its one result line.
pub(crate) fn passes(np: usize, args: &[&str], shows: &str) {
    let (ok, out, err) = weft_mpi(np, args);
    assert!(ok, "{np} processes: weft {}\n{out}\n{err}", args.join(" "));
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("PASS")).collect();
    assert_eq!(lines.len(), 1, "one result line expected:\n{out}");
    assert!(lines[0].contains(shows), "{shows:?} not in {}", lines[0]);
}

#[test]
fn collectives_on_2_and_4_processes() {
    if !have_mpirun() {
        return;
    }
    passes(2, &["run", "allgather", "--transport", "mpi", "--elems", "10007", "--iters", "1"], "ranks=2 (1x2, mpi)");
    passes(4, &["run", "allreduce_two_shot", "--transport", "mpi", "--elems", "4099", "--dtype", "bf16", "--iters", "1"], "ranks=4 (1x4, mpi)");
    passes(4, &["run", "reduce_scatter", "--transport", "mpi", "--elems", "8192", "--iters", "1"], "ranks=4");
    passes(2, &["run", "allgather_ll", "--transport", "mpi", "--elems", "999", "--iters", "1"], "ranks=2");
    // Across nodes `allgather` is the put-only LL mesh up to 64 KiB gathered, the ring above.
    passes(4, &["run", "allgather", "--transport", "mpi", "--nodes", "2", "--elems", "999", "--dtype", "f16", "--iters", "3"], "(2x2, mpi)");
    passes(4, &["run", "allgather", "--transport", "mpi", "--nodes", "2", "--elems", "70001", "--iters", "1"], "(2x2, mpi)");
    passes(2, &["run", "allgather_ll_mesh", "--transport", "mpi", "--nodes", "2", "--elems", "1001", "--dtype", "bf16", "--iters", "3"], "(2x1, mpi)");
    passes(4, &["run", "allreduce_ll_mesh", "--transport", "mpi", "--nodes", "2", "--elems", "1003", "--dtype", "bf16", "--iters", "3"], "(2x2, mpi)");
    // Across nodes CPU `allreduce` is the hierarchical kernel (2 program instances here); it
    // also runs on one node and on one rank per node.
    passes(4, &["run", "allreduce", "--transport", "mpi", "--nodes", "2", "--elems", "70001", "--iters", "3"], "(2x2, mpi)");
    passes(4, &["run", "allreduce_hier", "--transport", "mpi", "--nodes", "2", "--elems", "1003", "--dtype", "bf16", "--iters", "3"], "(2x2, mpi)");
    passes(3, &["run", "allreduce_hier", "--transport", "mpi", "--nodes", "3", "--elems", "999", "--dtype", "f16", "--iters", "3"], "(3x1, mpi)");
    passes(2, &["run", "allreduce_hier", "--transport", "mpi", "--elems", "4097", "--iters", "2"], "(1x2, mpi)");
}

#[test]
fn gemm_family_on_2_and_4_processes() {
    if !have_mpirun() {
        return;
    }
    passes(4, &["run", "ag_gemm", "--transport", "mpi", "--m", "264", "--n", "72", "--k", "40", "--iters", "1"], "ranks=4 (1x4)");
    passes(2, &["run", "gemm_rs", "--transport", "mpi", "--m", "130", "--n", "96", "--k", "56", "--iters", "1"], "ranks=2 (1x2)");
    passes(4, &["run", "gemm_ar", "--transport", "mpi", "--nodes", "2", "--m", "136", "--n", "64", "--k", "48", "--iters", "1"], "(2x2)");
    passes(4, &["run", "flash_decode", "--transport", "mpi", "--nodes", "2", "--seq", "999", "--heads", "8", "--kv-heads", "2", "--head-dim", "32", "--iters", "1"], "(2x2)");
}

#[test]
fn msccl_on_mpi() {
    if !have_mpirun() {
        return;
    }
    passes(4, &["msccl", "run", "ring_allreduce", "--ranks", "4", "--transport", "mpi", "--elems", "3001", "--iters", "1"], "ranks=4 (1x4)");
    passes(2, &["msccl", "run", "allgather_ring", "--ranks", "2", "--proto", "LL", "--transport", "mpi", "--elems", "777", "--iters", "1"], "proto=LL");
    // The algorithm's rank count must be the number of processes: a typed error otherwise.
    let (ok, _, err) = weft_mpi(2, &["msccl", "run", "ring_allreduce", "--ranks", "4", "--transport", "mpi", "--elems", "64"]);
    assert!(!ok && err.contains("needs 4 ranks (1x4), but the mpi world has 1x2"), "{err}");
}

#[test]
fn ep_kernels_on_processes_ll_within_a_node() {
    if !have_mpirun() {
        return;
    }
    let shape = ["--tokens", "37", "--hidden", "66", "--topk", "3", "--experts", "8", "--iters", "2"];
    for (name, routing, dtype) in [("ep_dispatch", "hot", "bf16"), ("ep_combine", "sparse", "f16"), ("ep_dispatch_v", "uniform", "f32")] {
        let args: Vec<&str> = ["run", name, "--transport", "mpi", "--routing", routing, "--dtype", dtype].into_iter().chain(shape).collect();
        passes(2, &args, "ranks=2 (1x2)");
    }
    // The baseline's put_signal and get cross nodes; LL stores into peers do not.
    let args = |name| ["run", name, "--transport", "mpi", "--nodes", "2"].into_iter().chain(shape).collect::<Vec<_>>();
    passes(4, &args("ep_dispatch_v"), "ranks=4 (2x2)");
    for name in ["ep_dispatch", "ep_combine"] {
        let (ok, _, err) = weft_mpi(4, &args(name));
        assert!(!ok && err.contains("reach only the ranks of one node"), "{name}: {err}");
    }
}

#[test]
fn expert_gemms_and_combine_baseline_on_processes() {
    if !have_mpirun() {
        return;
    }
    // put_signal, get, fence + signal_op and barrier_all only: every one crosses nodes.
    let shape = ["--tokens", "21", "--hidden", "36", "--n", "20", "--topk", "3", "--experts", "8", "--iters", "2"];
    let args = |name, routing, dtype, nodes| ["run", name, "--transport", "mpi", "--routing", routing, "--dtype", dtype, "--nodes", nodes].into_iter().chain(shape).collect::<Vec<_>>();
    for (name, routing, dtype) in [("ag_moe", "hot", "bf16"), ("moe_rs", "sparse", "f16"), ("ag_moe_v", "uniform", "f32"), ("moe_rs_v", "hot", "bf16"), ("ep_combine_v", "sparse", "f32")] {
        passes(2, &args(name, routing, dtype, "1"), "ranks=2 (1x2)");
    }
    for name in ["ag_moe", "moe_rs", "ep_combine_v"] {
        passes(4, &args(name, "uniform", "bf16", "2"), "ranks=4 (2x2)");
    }
}

#[test]
fn two_nodes_of_two_processes() {
    if !have_mpirun() {
        return;
    }
    passes(4, &["run", "allgather", "--transport", "mpi", "--nodes", "2", "--elems", "5003", "--iters", "2"], "ranks=4 (2x2, mpi)");
    passes(4, &["run", "ag_gemm", "--transport", "mpi", "--nodes", "2", "--m", "264", "--n", "72", "--k", "40", "--iters", "1"], "(2x2)");
    passes(4, &["run", "gemm_rs", "--transport", "mpi", "--nodes", "2", "--m", "136", "--n", "64", "--k", "48", "--iters", "1"], "(2x2)");
    passes(4, &["msccl", "run", "hierarchical_allreduce", "--ranks", "4", "--nodes", "2", "--transport", "mpi", "--elems", "3001", "--iters", "1"], "(2x2)");
    // Load/store access across nodes is refused with a typed error naming both nodes.
    let (ok, _, err) = weft_mpi(4, &["run", "allreduce_one_shot", "--transport", "mpi", "--nodes", "2", "--elems", "64", "--iters", "1"]);
    assert!(!ok && err.contains("no load/store path across nodes"), "{err}");
}

#[test]
fn ring_allreduce_on_processes_and_across_nodes() {
    if !have_mpirun() {
        return;
    }
    passes(2, &["run", "allreduce_ring", "--transport", "mpi", "--elems", "3001", "--dtype", "f16", "--iters", "2"], "ranks=2 (1x2, mpi)");
    passes(4, &["run", "allreduce_ring", "--transport", "mpi", "--elems", "70001", "--iters", "2"], "ranks=4 (1x4, mpi)");
    // On two nodes the library's allreduce is the ring (the shots load from peers).
    passes(4, &["run", "allreduce", "--transport", "mpi", "--nodes", "2", "--elems", "5003", "--dtype", "i32", "--iters", "2"], "ranks=4 (2x2, mpi)");
}

/// Runs this test binary's ignored test `name` on `np` processes (with `env`).
fn child_run(np: usize, name: &str, env: &[(&str, &str)]) -> (Output, Duration) {
    let exe = std::env::current_exe().expect("test binary");
    let mut c = mpirun_cmd(np, exe.to_str().expect("utf-8 path"), &["--ignored", "--exact", name, "--nocapture", "--test-threads", "1"]);
    // mpirun starts its local processes with its own environment.
    for (k, v) in env {
        c.env(k, v);
    }
    finish(c.spawn().expect("mpirun starts"), Duration::from_secs(60), name)
}

/// Runs the ignored test `name` on `np` processes as `nodes` nodes (with `env`), checks every
/// process succeeded, and returns their output.
pub(crate) fn child_passes(np: usize, nodes: &str, name: &str, env: &[(&str, &str)]) -> String {
    let env: Vec<(&str, &str)> = [("WEFT_MPI_NODES", nodes)].into_iter().chain(env.iter().copied()).collect();
    let (out, _) = child_run(np, name, &env);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{np} processes, {nodes} nodes:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// One process of a multi-process test: its `mpi` world, `body(world, rank, ranks)`, then the
/// line the parent counts (`rank {me}: {what body returned}`) and MPI's finalize.
pub(crate) fn as_child(body: impl FnOnce(&World, usize, usize) -> String) {
    let world = World::mpi(MpiOptions::from_env()).expect("mpi world");
    let (me, n) = (world.host_ranks().start, world.n_ranks());
    let line = body(&world, me, n);
    println!("rank {me}: {line}");
    weft::runtime::mpi::finalize().expect("finalize");
}

pub(crate) fn compile(k: Result<weft::compiler::ir::Kernel, DslError>) -> weft::runtime::Launchable {
    weft::compile(&k.expect("kernel builds"), &weft::Options::default()).expect("kernel compiles").launchable()
}

/// get from the next rank, put_nbi + quiet to it, signal adds to both neighbours, barrier_all:
/// on 2x2 every one of them crosses a node for some rank.
fn ops_kernel() -> Result<weft::compiler::ir::Kernel, DslError> {
    kernel("mpi_ops", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::I32);
        let sig = a.ptr("sig", Scalar::I64);
        let epoch = a.i64("epoch");
        let me = my_pe();
        let n = n_pes();
        let next = (me + 1) % n;
        let prev = (me + n - 1) % n;
        store(buf, me * 10 + cast(epoch, Scalar::I32));
        barrier_all();
        get(buf + 1, buf, 1, next, ShmemScope::Block);
        put_nbi(buf + 2, buf, 1, next, ShmemScope::Block);
        quiet();
        signal_op(sig, 1, Signal::Add, next);
        signal_op(sig, 2, Signal::Add, prev);
        let _ = wait_until(sig, Cmp::Ge, epoch * 3);
        barrier_all();
        Ok(())
    })
}

/// Every rank adds 1 to every rank's signal `ADDS` times: on 2x2 each word takes CPU atomics
/// from its node and `MPI_Accumulate`s (osc rdma's, applied by the target's progress) from
/// the other node at once, and none may be lost (checked exactly, over several launches).
const ADDS: i64 = 200;

fn mixed_signals_kernel() -> Result<weft::compiler::ir::Kernel, DslError> {
    kernel("mpi_mixed_signals", &Constexprs::new(), |a| {
        let sig = a.ptr("sig", Scalar::I64);
        let epoch = a.i64("epoch");
        let n = n_pes();
        for_range(0i64, ADDS, 1i64, |_| {
            for_range(0, n, 1, |q| {
                signal_op(sig, 1, Signal::Add, q);
            });
        });
        let _ = wait_until(sig, Cmp::Ge, epoch * ADDS * cast(n, Scalar::I64));
        barrier_all();
        Ok(())
    })
}

#[test]
#[ignore = "a process of mpi::shmem_ops_cross_nodes, run under mpirun"]
fn child_ops() {
    let world = World::mpi(MpiOptions::from_env()).expect("mpi world");
    let k = compile(ops_kernel());
    let (me, n) = (world.host_ranks().start, world.n_ranks());
    let buf = world.alloc::<i32>(3).expect("alloc");
    let sig = world.alloc::<u64>(1).expect("alloc");
    for epoch in 1..=3i64 {
        world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(epoch)]).expect("launch");
        let got = world.read(&buf, me).expect("read");
        let (next, prev) = ((me + 1) % n, (me + n - 1) % n);
        assert_eq!(got, [me as i32 * 10 + epoch as i32, next as i32 * 10 + epoch as i32, prev as i32 * 10 + epoch as i32], "rank {me}, epoch {epoch}");
        assert_eq!(world.read(&sig, me).expect("read"), [3 * epoch as u64], "rank {me}");
    }
    let mixed = compile(mixed_signals_kernel());
    let sig = world.alloc::<u64>(1).expect("alloc");
    for epoch in 1..=4i64 {
        world.launch(&mixed, [1, 1, 1], &[Arg::from(&sig), Arg::I64(epoch)]).expect("launch");
        assert_eq!(world.read(&sig, me).expect("read"), [(epoch * ADDS) as u64 * n as u64], "rank {me}: signal adds lost");
    }
    println!("rank {me} of {} ({}): shmem ops verified", n, world.topology());
    weft::runtime::mpi::finalize().expect("finalize");
}

#[test]
fn shmem_ops_cross_nodes() {
    if !have_mpirun() {
        return;
    }
    for (np, nodes) in [(2, "1"), (4, "2")] {
        let text = child_passes(np, nodes, "mpi::child_ops", &[]);
        assert_eq!(text.matches("shmem ops verified").count(), np, "{text}");
    }
}

#[test]
#[ignore = "a process of mpi::deadlock_reported_by_every_process, run under mpirun"]
fn child_deadlock() {
    let world = World::mpi(MpiOptions::from_env()).expect("mpi world");
    let k = compile(kernel("planted_deadlock", &Constexprs::new(), |a| {
        let sig = a.ptr("sig", Scalar::I64);
        let _ = wait_until(sig, Cmp::Eq, 42);
        Ok(())
    }));
    let sig = world.alloc::<u64>(1).expect("alloc");
    match world.launch(&k, [2, 1, 1], &[Arg::from(&sig)]) {
        Err(RuntimeError::Deadlock(report)) => println!("REPORT {}", report.to_string().replace('\n', " | ")),
        other => panic!("expected a deadlock, got {other:?}"),
    }
    weft::runtime::mpi::finalize().expect("finalize");
}

#[test]
fn deadlock_reported_by_every_process() {
    if !have_mpirun() {
        return;
    }
    let (out, took) = child_run(2, "mpi::child_deadlock", &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    // Each process reports its own rank's blocked waits, within the 3 s deadlock timeout (+ start-up).
    for rank in ["rank 0", "rank 1"] {
        let line = text.lines().find_map(|l| l.split_once("REPORT").map(|(_, r)| r).filter(|r| r.contains(&format!("{rank} program")))).unwrap_or_else(|| panic!("no report of {rank}:\n{text}"));
        for needle in ["planted_deadlock", "shmem.signal_wait_until", "mpi.rs", "== 42", "but it is 0"] {
            assert!(line.contains(needle), "{needle:?} not in {line}");
        }
    }
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// Rank 0 runs a serial f32 recurrence for `iters` steps (the others for none), then every
/// rank sends its result to the next one with put_signal and waits for its left neighbour's.
/// With `signal = 0` nobody's wait can ever be satisfied.
fn slow_producer() -> weft::runtime::Launchable {
    compile(kernel("slow_producer", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::F32);
        let sig = a.ptr("sig", Scalar::I64);
        let (iters, signal) = (a.i64("iters"), a.i64("signal"));
        let me = my_pe();
        let n = select(me.eq_(0), iters, 0i64);
        let x = for_range_carry(0i64, n, 1i64, &[constant(1.0, Scalar::F32, &[])], |_, c| vec![c[0] * 1.000_000_1 + 1e-7])[0];
        store(buf, x);
        put_signal(buf + 1, buf, 1, sig, signal, (me + 1) % n_pes(), PutSignal::default());
        let tok = wait_until(sig, Cmp::Ge, 1i64);
        store(buf + 2, load(consume_token(buf + 1, tok)));
        Ok(())
    }))
}

#[test]
#[ignore = "a process of mpi::slow_peer_is_not_a_deadlock_but_a_missing_signal_is, run under mpirun"]
fn child_slow_peer() {
    let world = World::mpi(MpiOptions::from_env()).expect("mpi world");
    let t = weft::runtime::mpi::open(MpiOptions::from_env()).expect("the same world");
    let timeout = Duration::from_millis(std::env::var("WEFT_DEADLOCK_TIMEOUT_MS").expect("set by the test").parse().expect("ms"));
    let k = slow_producer();
    let me = world.host_ranks().start;
    let (buf, sig) = (world.alloc::<f32>(3).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
    // Calibrate rank 0's recurrence, then make it compute ~3 timeouts while the others wait.
    let probe = 5_000_000i64;
    let start = Instant::now();
    world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(probe), Arg::I64(1)]).expect("calibration launch");
    let per_iter = start.elapsed().as_secs_f64() / probe as f64;
    let iters = t.agree_max("iterations", &[(3.0 * timeout.as_secs_f64() / per_iter) as u64]).expect("agree")[0] as i64;
    let sig = world.alloc::<u64>(1).expect("alloc");
    let start = Instant::now();
    world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(iters), Arg::I64(1)]).expect("a slow but healthy peer is no deadlock");
    let took = start.elapsed();
    if me == 1 {
        assert_eq!(world.read(&buf, 1).expect("read")[2].to_bits(), (0..iters).fold(1.0f32, |x, _| x * 1.000_000_1 + 1e-7).to_bits(), "rank 0's result");
    }
    println!("rank {me}: healthy launch of {:.1} timeouts", took.as_secs_f64() / timeout.as_secs_f64());
    // Nobody computes and nobody can signal: every process reports within about the timeout
    // (the margin is for a loaded machine with more processes than cores).
    let sig = world.alloc::<u64>(1).expect("alloc");
    let start = Instant::now();
    match world.launch(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&sig), Arg::I64(0), Arg::I64(0)]) {
        Err(RuntimeError::Deadlock(r)) if start.elapsed() < 4 * timeout => println!("REPORT {}", r.to_string().replace('\n', " | ")),
        other => panic!("rank {me}: expected a deadlock within {:?}, got {other:?} after {:?}", 4 * timeout, start.elapsed()),
    }
    weft::runtime::mpi::finalize().expect("finalize");
}

/// A peer computing for three deadlock timeouts before it signals is slow, not stuck, whether it
/// shares the waiter's node or not; once nobody can signal, every process reports.
#[test]
fn slow_peer_is_not_a_deadlock_but_a_missing_signal_is() {
    if !have_mpirun() {
        return;
    }
    for (np, nodes) in [(2, "1"), (4, "2")] {
        let text = child_passes(np, nodes, "mpi::child_slow_peer", &[("WEFT_DEADLOCK_TIMEOUT_MS", "1000")]);
        assert_eq!(text.matches("healthy launch").count(), np, "{text}");
        for r in 0..np {
            assert!(text.lines().any(|l| l.starts_with("REPORT") && l.contains(&format!("rank {r} program"))), "no report of rank {r}:\n{text}");
        }
    }
}

#[test]
fn killed_process_stops_the_others() {
    if !have_mpirun() {
        return;
    }
    let mut c = mpirun_cmd(2, env!("CARGO_BIN_EXE_weft"), &["run", "allgather", "--transport", "mpi", "--elems", "65536", "--iters", "100000000"]);
    let child = c.spawn().expect("mpirun starts");
    // Wait until both ranks run, then kill -9 one of them.
    let start = Instant::now();
    let victim = loop {
        let kids = children(child.id());
        if kids.len() == 2 {
            std::thread::sleep(Duration::from_millis(1500));
            break kids[1];
        }
        assert!(start.elapsed() < Duration::from_secs(30), "ranks never started");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(unsafe { libc::kill(victim as i32, libc::SIGKILL) }, 0);
    let (out, took) = finish(child, Duration::from_secs(30), "after kill -9");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("signal 9") || err.contains("Killed"), "no clear error:\n{err}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// Process ids whose parent is `pid` (from /proc).
fn children(pid: u32) -> Vec<u32> {
    let mut kids = vec![];
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else { continue };
        if rest.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            kids.extend(e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()));
        }
    }
    kids.sort();
    kids
}
