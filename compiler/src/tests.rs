//! Smoke tests of the DSL and the CPU pipeline.

use crate::dsl::*;
use crate::ir::Scalar;
use crate::pipeline::{run, Options, Target};

pub(crate) fn vector_add(block: i64) -> Result<crate::ir::Kernel, DslError> {
    let c = Constexprs::new().with("BLOCK", block);
    kernel("add", &c, |a| {
        let x = a.ptr("x", Scalar::F32);
        let y = a.ptr("y", Scalar::F32);
        let out = a.ptr("out", Scalar::F32);
        let n = a.i32("n");
        let b = c.pow2("BLOCK", 1, 1 << 16)?;
        let offs = program_id(0) * (b as i32) + arange(0, b as i32);
        let mask = offs.lt(n);
        let xv = load_masked(x + offs, mask, 0.0f32);
        let yv = load_masked(y + offs, mask, 0.0f32);
        store_masked(out + offs, xv + yv, mask);
        Ok(())
    })
}

#[test]
fn vector_add_stages() {
    let k = vector_add(64).expect("build");
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).expect("tir");
    assert!(tir.text.contains("tile.load"), "{}", tir.text);
    let asm = run(&k, Target::Cpu, Some("asm"), &Options::default()).expect("asm");
    assert!(asm.text.contains("vaddps") || asm.text.contains("addps"), "{}", asm.text);
    assert!(!asm.text.contains("gather"), "contiguous loads must not gather:\n{}", asm.text);
}

#[test]
fn tir_round_trips_through_import() {
    let k = vector_add(32).expect("build");
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text;
    let back = crate::pipeline::import_tir(&tir, "add.tir").expect("import");
    let tir2 = run(&back, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text;
    assert_eq!(tir, tir2);
    let low1 = run(&k, Target::Cpu, Some("lowered"), &Options::default()).expect("lowered").text;
    let low2 = run(&back, Target::Cpu, Some("lowered"), &Options::default()).expect("lowered").text;
    assert_eq!(low1, low2);
}

fn build_err(f: impl FnOnce(&mut Args) -> Result<(), DslError>) -> DslError {
    kernel("bad", &Constexprs::new(), f).expect_err("kernel must be rejected")
}

#[test]
fn shape_mismatch_is_a_typed_error_at_the_call_site() {
    let e = build_err(|_| {
        let _ = arange(0, 4) + arange(0, 8);
        Ok(())
    });
    assert!(matches!(e.kind, DslErrorKind::ShapeMismatch { .. }), "{e}");
    assert!(e.loc.file.ends_with("tests.rs") && e.loc.line > 0, "{e}");
    assert!(e.to_string().contains("tensor<4xi32> vs tensor<8xi32>"), "{e}");
}

#[test]
fn dtype_mismatches_are_rejected() {
    let e = build_err(|a| {
        let x = a.ptr("x", Scalar::F32);
        let v = load(x + arange(0, 4));
        let _ = v & 1;
        Ok(())
    });
    assert!(matches!(e.kind, DslErrorKind::DTypeMismatch { .. }), "{e}");
    let e = build_err(|a| {
        let x = a.ptr("x", Scalar::F32);
        store(x + arange(0, 4), arange(0, 4));
        Ok(())
    });
    assert!(e.to_string().contains("tile.store"), "{e}");
    let e = build_err(|a| {
        let s = a.ptr("sig", Scalar::I32);
        let _ = shmem::wait_until(s, shmem::Cmp::Eq, 1);
        Ok(())
    });
    assert!(e.to_string().contains("!tile.ptr<i64>"), "{e}");
    // Pointers select only between scalar pointers of one element type, on a scalar i1.
    let e = build_err(|a| {
        let (x, h) = (a.ptr("x", Scalar::F32), a.ptr("h", Scalar::BF16));
        let _ = select(shmem::my_pe().eq_(0), x, h);
        Ok(())
    });
    assert!(e.to_string().contains("two scalar pointers of one type") && e.to_string().contains("bf16"), "{e}");
    let e = build_err(|a| {
        let x = a.ptr("x", Scalar::F32);
        let _ = select(arange(0, 4).eq_(0), x, x);
        Ok(())
    });
    assert!(e.to_string().contains("scalar i1 condition"), "{e}");
    let e = build_err(|a| {
        let x = a.ptr("x", Scalar::F32);
        let _ = select(shmem::my_pe().eq_(0), x, 1.0f32);
        Ok(())
    });
    assert!(matches!(e.kind, DslErrorKind::DTypeMismatch { .. }), "{e}");
}

#[test]
fn constexpr_errors_name_the_parameter() {
    let e = vector_add(3).expect_err("3 is not a power of two");
    assert!(matches!(e.kind, DslErrorKind::ConstexprOutOfRange { .. }), "{e}");
    assert!(e.to_string().contains("BLOCK"), "{e}");
    let c = Constexprs::new().with("T", "f64");
    let e = c.dtype("T", &[Scalar::F32]).expect_err("f64 is not allowed");
    assert!(e.to_string().contains("one of f32"), "{e}");
    let e = Constexprs::new().int("N", 0, 1).expect_err("missing");
    assert!(e.to_string().contains("missing constexpr `N`"), "{e}");
    // A 0/1 switch: absent is off, 0/1 as given, anything else names the switch.
    assert!(!Constexprs::new().flag("P2P").unwrap());
    assert!(Constexprs::new().with("P2P", 1).flag("P2P").unwrap());
    assert!(!Constexprs::new().with("P2P", 0).flag("P2P").unwrap());
    let e = Constexprs::new().with("P2P", 2).flag("P2P").expect_err("2 is not a switch");
    assert!(e.to_string().contains("P2P") && e.to_string().contains("0..=1"), "{e}");
}

#[test]
fn control_flow_type_mismatch_is_rejected() {
    let e = build_err(|_| {
        let init = zeros(&[4], Scalar::F32);
        let _ = for_range_carry(0, 4, 1, &[init], |_, _| vec![zeros(&[4], Scalar::I32)]);
        Ok(())
    });
    assert!(e.to_string().contains("scf.for"), "{e}");
}

/// A kernel touching every op family, so the lowering of each is exercised through MLIR and LLVM.
fn every_op() -> crate::ir::Kernel {
    kernel("every_op", &Constexprs::new(), |a| {
        let x = a.ptr("x", Scalar::F32);
        let h = a.ptr("h", Scalar::BF16);
        let sig = a.ptr("sig", Scalar::I64);
        let ll = a.ptr("ll", Scalar::I64);
        let n = a.i32("n");
        let offs = arange(0, 8);
        let m = offs.lt(n);
        let v = load_masked(x + offs, m, 0.0f32);
        let w = exp(v) * 2.0f32 - sqrt(abs(v)) / 3.0f32;
        let s = sum(w, 0);
        let mx = max(v, 0);
        let two_d = broadcast_to(expand_dims(v, 0), &[4, 8]);
        let rows = sum(two_d, 1);
        let cols = min(two_d, 0);
        store_masked(x + offs, cols + s + mx, m);
        store(x + arange(8, 12), rows);
        store_masked(h + offs, w.to(Scalar::BF16), m);
        let gathered = load(x + offs * 2);
        store(x + offs * 3, select(m, gathered, 1.0f32));
        let me = shmem::my_pe();
        let peer = (me + 1) % shmem::n_pes();
        let rx = shmem::remote_ptr(x, peer);
        shmem::put(rx, x, 8, peer, shmem::ShmemScope::Block);
        shmem::put_nbi(rx, x, 8, peer, shmem::ShmemScope::Warp);
        shmem::get(x, rx, 8, peer, shmem::ShmemScope::Thread);
        shmem::get_nbi(x, rx, 8, peer, shmem::ShmemScope::Block);
        shmem::put_signal(rx, x, 8, sig, 1, peer, shmem::PutSignal::default());
        shmem::signal_op(sig, 1, shmem::Signal::Add, peer);
        let tok = shmem::wait_until(sig, shmem::Cmp::Ge, 1);
        let after = load(shmem::consume_token(x + offs, tok));
        // A pointer chosen at run time: this rank's buffer or the peer's.
        let either = select(me.eq_(0), x, rx);
        store(either + offs, after);
        shmem::fence();
        shmem::quiet();
        shmem::barrier_all();
        let red = shmem::multimem_ld_reduce(x + offs, Some(m));
        shmem::multimem_st(x + offs, red + after, Some(m));
        let words = ll_words(x, offs);
        let packed = shmem::ll_pack(words, 7);
        store(shmem::remote_ptr(ll + offs, peer), packed);
        let got = shmem::ll_recv(ll + offs, 7, Some(m));
        store(ptr_cast(x, Scalar::I32) + offs, got);
        for_range(0, n, 1, |i| if_(i.eq_(0), || store(x, 0.0f32)));
        Ok(())
    })
    .expect("every_op builds")
}

fn ll_words(x: Val, offs: Val) -> Val {
    load(ptr_cast(x, Scalar::I32) + offs)
}

#[test]
fn every_op_lowers_to_native_code() {
    let k = every_op();
    let out = run(&k, Target::Cpu, None, &Options::default()).expect("compiles");
    assert!(out.object.is_some_and(|o| !o.is_empty()));
    assert!(!out.text.contains("__truncsfbf2"), "bf16 rounding must be inline");
    let ops: Vec<&str> = out.sites.iter().map(|s| s.op.as_str()).collect();
    for op in ["shmem.put", "shmem.get", "shmem.put_signal", "shmem.signal_op", "shmem.signal_wait_until", "shmem.barrier_all", "shmem.ll_recv"] {
        assert!(ops.contains(&op), "no runtime site for {op}: {ops:?}");
    }
    let tir = run(&k, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text;
    let back = crate::pipeline::import_tir(&tir, "every_op.mlir").expect("imports");
    assert_eq!(run(&back, Target::Cpu, Some("tir"), &Options::default()).expect("tir").text, tir);
}

#[test]
fn vector_add_runs_on_the_local_runtime() {
    use weft_runtime::{Arg, World};
    let k = crate::compile(&vector_add(64).expect("build"), &Options::default()).expect("compile").launchable();
    let world = World::local(2).expect("world");
    let n = 1000usize;
    let (x, y, out) = (world.alloc::<f32>(n).unwrap(), world.alloc::<f32>(n).unwrap(), world.alloc::<f32>(n).unwrap());
    for r in 0..2 {
        world.write(&x, r, &(0..n).map(|i| i as f32 + r as f32).collect::<Vec<_>>()).unwrap();
        world.write(&y, r, &(0..n).map(|i| 2.0 * i as f32).collect::<Vec<_>>()).unwrap();
    }
    let grid = [n.div_ceil(64) as u32, 1, 1];
    world.launch(&k, grid, &[Arg::from(&x), Arg::from(&y), Arg::from(&out), Arg::I32(n as i32)]).expect("launch");
    for r in 0..2 {
        let got = world.read(&out, r).unwrap();
        assert!(got.iter().enumerate().all(|(i, &v)| v == 3.0 * i as f32 + r as f32), "rank {r}");
    }
}

/// Each rank copies `x` of itself (even ranks) or of the next rank (odd ranks) into `out`,
/// through one pointer selected at run time.
#[test]
fn a_selected_pointer_reads_the_chosen_ranks_buffer() {
    use weft_runtime::{Arg, World};
    let k = kernel("select_ptr", &Constexprs::new(), |a| {
        let (x, out, n) = (a.ptr("x", Scalar::F32), a.ptr("out", Scalar::F32), a.i32("n"));
        let me = shmem::my_pe();
        let next = shmem::remote_ptr(x, (me + 1) % shmem::n_pes());
        let src = select((me % 2).eq_(0), x, next);
        let offs = program_id(0) * 64 + arange(0, 64);
        let m = offs.lt(n);
        store_masked(out + offs, load_masked(src + offs, m, 0.0f32), m);
        Ok(())
    })
    .expect("builds");
    let k = crate::compile(&k, &Options::default()).expect("compile").launchable();
    for ranks in 1..=5usize {
        let world = World::local(ranks).expect("world");
        let n = 100 + 37 * ranks;
        let (x, out) = (world.alloc::<f32>(n).unwrap(), world.alloc::<f32>(n).unwrap());
        let value = |r: usize, i: usize| (r * 1000 + i) as f32;
        for r in 0..ranks {
            world.write(&x, r, &(0..n).map(|i| value(r, i)).collect::<Vec<_>>()).unwrap();
        }
        world.launch(&k, [n.div_ceil(64) as u32, 1, 1], &[Arg::from(&x), Arg::from(&out), Arg::I32(n as i32)]).expect("launch");
        for r in 0..ranks {
            let from = if r % 2 == 0 { r } else { (r + 1) % ranks };
            let got = world.read(&out, r).unwrap();
            assert!(got.iter().enumerate().all(|(i, &v)| v == value(from, i)), "{ranks} ranks, rank {r}");
        }
    }
}

#[test]
fn the_tir_stage_is_the_same_from_a_fresh_or_a_reused_context_and_errors_do_not_stick() {
    // Past the reuse limit, so one fresh context is made on the way; a kernel of another
    // size between uses, so the reused context has seen other text.
    let uses = crate::pipeline::CHECK_CONTEXT_USES as i64 + 3;
    let first = crate::pipeline::make_tir(&vector_add(64).unwrap()).unwrap();
    for i in 0..uses {
        let other = crate::pipeline::make_tir(&vector_add(128 << (i % 3)).unwrap()).unwrap();
        assert_ne!(other, first, "use {i}: another block size is another kernel");
        assert_eq!(crate::pipeline::make_tir(&vector_add(64).unwrap()).unwrap(), first, "use {i}");
    }
    // A parse error in the shared context is reported and leaves it usable.
    let bad = crate::pipeline::with_check_context("tir", |ctx| weft_dialects::parse(ctx, "func.func @f( {", "bad.mlir").map(|_| ()).map_err(|source| crate::error::CompileError::Mlir { stage: "tir", source }));
    assert!(bad.is_err());
    assert_eq!(crate::pipeline::make_tir(&vector_add(64).unwrap()).unwrap(), first);
}
