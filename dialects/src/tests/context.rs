//! `context()`: cost, several contexts in sequence and in parallel threads, embedded IRDL.

use super::ops::{CASES, wrap};
use crate::{SHMEM_IRDL, TILE_IRDL, context, parse, print};
use std::time::{Duration, Instant};

#[test]
fn irdl_text_is_embedded() {
    assert!(TILE_IRDL.contains("irdl.dialect @tile"));
    assert!(SHMEM_IRDL.contains("irdl.dialect @shmem"));
    assert!(SHMEM_IRDL.contains("@tile::@ptr"));
}

#[test]
fn context_has_upstream_dialects_and_ours() {
    let ctx = context().unwrap();
    // Every registered upstream dialect is loaded, plus tile and shmem.
    assert!(
        ctx.loaded_dialect_count() > 40,
        "{}",
        ctx.loaded_dialect_count()
    );
    for op in [
        "func.func",
        "scf.for",
        "arith.addi",
        "math.exp",
        "llvm.call",
        "gpu.launch",
        "nvvm.barrier0",
        "tile.dot",
        "shmem.put",
    ] {
        assert!(ctx.is_registered_operation(op), "{op}");
    }
    // Passes are registered: a pipeline using upstream passes parses.
    let pm = melior::pass::PassManager::new(&ctx);
    melior::utility::parse_pass_pipeline(
        pm.as_operation_pass_manager(),
        "builtin.module(canonicalize,cse)",
    )
    .unwrap();
}

#[test]
fn contexts_in_sequence() {
    let body = CASES
        .iter()
        .map(|(_, b)| *b)
        .find(|b| b.contains("put_signal"))
        .unwrap();
    let text = wrap(body);
    let mut printed = None;
    for _ in 0..10 {
        let ctx = context().unwrap();
        let out = print(&parse(&ctx, &text, "seq.mlir").unwrap());
        assert_eq!(printed.get_or_insert_with(|| out.clone()), &out);
    }
}

#[test]
fn contexts_in_parallel_threads() {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..5 {
                    let ctx = context().unwrap();
                    let (_, body) = CASES[(t * 5 + i) % CASES.len()];
                    let text = wrap(body);
                    parse(&ctx, &text, "thread.mlir").unwrap();
                    assert!(parse(&ctx, "garbage", "thread.mlir").is_err());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn timing() {
    // Warm up (first call registers all passes, once per process).
    let t = Instant::now();
    drop(context().unwrap());
    let first = t.elapsed();
    let n = 20;
    let t = Instant::now();
    for _ in 0..n {
        drop(context().unwrap());
    }
    let each = t.elapsed() / n;
    let ctx = context().unwrap();
    let text = super::kernel::AG_GEMM;
    let t = Instant::now();
    for _ in 0..n {
        parse(&ctx, text, "k.mlir").unwrap();
    }
    let parse_each = t.elapsed() / n;
    eprintln!(
        "context(): first {first:?}, then {each:?} each; parse+verify AG-GEMM: {parse_each:?}"
    );
    assert!(each < Duration::from_secs(2));
}
