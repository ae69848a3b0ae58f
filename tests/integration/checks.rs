//! The `local` transport's checks on compiled DSL kernels: a put past the end of its
//! allocation faults, and under `racecheck` overlapping puts and a signal sent after a
//! non-blocking put with no fence are reported, each naming the Rust line of the DSL call.

use weft::compiler::dsl::shmem::*;
use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, LaunchOptions, RaceKind, RuntimeError, World};

fn compile(k: Result<weft::compiler::ir::Kernel, DslError>) -> weft::runtime::Launchable {
    weft::compile(&k.expect("kernel builds"), &weft::Options::default()).expect("kernel compiles").launchable()
}

fn racecheck() -> LaunchOptions {
    LaunchOptions { racecheck: true, ..LaunchOptions::default() }
}

#[test]
fn a_dsl_put_past_the_end_faults_at_its_line() {
    let mut at = 0;
    let k = compile(kernel("past_end", &Constexprs::new(), |a| {
        let buf = a.ptr("buf", Scalar::F32);
        at = line!() + 1;
        put(buf + 6, buf, 4, (my_pe() + 1) % n_pes(), ShmemScope::Block);
        Ok(())
    }));
    let world = World::local(2).expect("world");
    let buf = world.alloc::<f32>(8).expect("alloc");
    let err = world.launch(&k, [1, 1, 1], &[Arg::from(&buf)]).expect_err("out of bounds");
    let RuntimeError::OutOfBounds(f) = &err else { panic!("{err}") };
    assert_eq!((f.span.alloc, f.span.offset, f.span.len), (Some((buf.raw.id, 32)), 24, 16), "{err}");
    assert!(f.origin.loc.contains(&format!("checks.rs:{at}")), "{err}");
    assert_eq!(f.span.rank, (f.origin.rank + 1) % 2);
}

#[test]
fn dsl_puts_overlapping_from_two_ranks_are_reported() {
    let mut at = 0;
    let k = compile(kernel("overlap", &Constexprs::new(), |a| {
        let (buf, src) = (a.ptr("buf", Scalar::F32), a.ptr("src", Scalar::F32));
        at = line!() + 1;
        put(buf + my_pe() * 2, src, 4, 0, ShmemScope::Block);
        Ok(())
    }));
    let world = World::local(2).expect("world");
    let (buf, src) = (world.alloc::<f32>(8).expect("alloc"), world.alloc::<f32>(4).expect("alloc"));
    let err = world.launch_with(&k, [1, 1, 1], &[Arg::from(&buf), Arg::from(&src)], &racecheck()).expect_err("race");
    let RuntimeError::Race(r) = &err else { panic!("{err}") };
    let RaceKind::DataRace { first, second } = &r.kind else { panic!("{err}") };
    assert_ne!(first.origin.rank, second.origin.rank, "{err}");
    for a in [first, second] {
        assert!(a.origin.loc.contains(&format!("checks.rs:{at}")), "{err}");
        assert_eq!((a.span.rank, a.span.alloc, a.span.offset), (0, Some((buf.raw.id, 32)), 8 * a.origin.rank), "{err}");
    }
}

#[test]
fn a_dsl_signal_after_put_nbi_without_fence_is_reported() {
    let build = |with_fence: bool| {
        compile(kernel(if with_fence { "fenced" } else { "unfenced" }, &Constexprs::new(), |a| {
            let (buf, sig) = (a.ptr("buf", Scalar::F32), a.ptr("sig", Scalar::I64));
            let next = (my_pe() + 1) % n_pes();
            put_nbi(buf + 4, buf, 4, next, ShmemScope::Block);
            if with_fence {
                fence();
            }
            signal_op(sig, 1, Signal::Set, next);
            let _ = wait_until(sig, Cmp::Eq, 1);
            quiet();
            Ok(())
        }))
    };
    let world = World::local(2).expect("world");
    let (buf, sig) = (world.alloc::<f32>(8).expect("alloc"), world.alloc::<u64>(1).expect("alloc"));
    let args = [Arg::from(&buf), Arg::from(&sig)];
    world.launch_with(&build(true), [1, 1, 1], &args, &racecheck()).expect("a fence orders the put before the signal");
    world.fill(&sig, 0).expect("reset");
    let err = world.launch_with(&build(false), [1, 1, 1], &args, &racecheck()).expect_err("unfenced");
    let RuntimeError::Race(r) = &err else { panic!("{err}") };
    let RaceKind::UnfencedSignal { put, signal } = &r.kind else { panic!("{err}") };
    assert_eq!((put.origin.rank, put.span.rank, put.span.offset, put.span.len), (signal.rank, (signal.rank + 1) % 2, 16, 16), "{err}");
    assert!(signal.op.contains("signal_op") && err.to_string().contains("no fence or quiet"), "{err}");
}

#[test]
fn weft_run_racecheck_passes_a_library_kernel_and_refuses_other_transports() {
    let weft = |args: &[&str]| std::process::Command::new(env!("CARGO_BIN_EXE_weft")).args(args).output().expect("weft runs");
    let ok = weft(&["run", "allgather", "--ranks", "4", "--elems", "1001", "--iters", "1", "--racecheck"]);
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success() && out.contains("PASS"), "{out}{}", String::from_utf8_lossy(&ok.stderr));
    let bad = weft(&["run", "allgather", "--transport", "cuda", "--racecheck"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert_eq!(err.trim(), "weft: error: --racecheck runs on the local transport, not cuda");
}
