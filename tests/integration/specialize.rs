//! Argument specialization at launch, on the SIMT emulator: aligned pointers and sizes that
//! are multiples of 16 run a variant compiled for those facts (16-byte vectors, no run-time
//! checks); a launch with a misaligned pointer or an odd size runs a variant that does not
//! assume them, and every result matches the plain copy it should be.

use weft::compiler::dsl::*;
use weft::compiler::ir::Scalar;
use weft::runtime::{Arg, LocalOptions, RawBuf, Topology, World};

/// `dst[i] = src[i] * 2 + 1` for `i < n`, 1024 elements per program (4 warps).
fn scale_copy() -> weft::compiler::ir::Kernel {
    kernel("scale_copy", &Constexprs::new(), |a| {
        let (src, dst) = (a.ptr("src", Scalar::F32), a.ptr("dst", Scalar::F32));
        let n = a.i32("n");
        let offs = program_id(0) * 1024 + arange(0, 1024);
        let m = offs.lt(n);
        let v = load_masked(src + offs, m, 0.0f32);
        store_masked(dst + offs, v * 2.0f32 + 1.0f32, m);
        Ok(())
    })
    .unwrap()
}

/// Launches on `src`/`dst` shifted by `src_skip`/`dst_skip` elements for `n` elements and
/// checks the result against the plain loop.
fn run(world: &World, k: &weft::runtime::Launchable, bufs: (RawBuf, RawBuf), src_skip: usize, dst_skip: usize, n: usize) {
    let (src, dst) = bufs;
    let data: Vec<f32> = (0..4096).map(|i| ((i * 7919) % 1009) as f32 - 500.0).collect();
    let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    world.write_bytes(src, 0, 0, &bytes).unwrap();
    world.write_bytes(dst, 0, 0, &vec![0u8; bytes.len()]).unwrap();
    let shift = |b: RawBuf, skip: usize| RawBuf { offset: b.offset + 4 * skip, bytes: b.bytes - 4 * skip, ..b };
    let grid = [n.div_ceil(1024) as u32, 1, 1];
    world.launch(k, grid, &[Arg::Buf(shift(src, src_skip)), Arg::Buf(shift(dst, dst_skip)), Arg::I32(n as i32)]).unwrap();
    let mut out = vec![0u8; bytes.len()];
    world.read_bytes(dst, 0, 0, &mut out).unwrap();
    let got: Vec<f32> = out.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    for (i, &g) in got.iter().enumerate() {
        let want = if i >= dst_skip && i < dst_skip + n { data[i - dst_skip + src_skip] * 2.0 + 1.0 } else { 0.0 };
        assert_eq!(g, want, "element {i} (src skip {src_skip}, dst skip {dst_skip}, n {n})");
    }
}

#[test]
fn launches_that_break_a_fact_run_a_variant_without_it() {
    let world = World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap();
    let k = weft::kernels::launchable_for(&world, &scale_copy()).unwrap();
    let bufs = (world.alloc_bytes(4096 * 4).unwrap(), world.alloc_bytes(4096 * 4).unwrap());
    // Aligned buffers, n = 2048: every fact holds.
    run(&world, &k, bufs, 0, 0, 2048);
    assert_eq!(k.variants_compiled(), 1);
    // Misaligned pointers and an odd n: the general variant, which assumes nothing.
    run(&world, &k, bufs, 1, 3, 2001);
    run(&world, &k, bufs, 2, 0, 1536);
    assert_eq!(k.variants_compiled(), 2, "the aligned-destination, n % 16 == 0 launch has its own variant");
    // Aligned pointers but an odd n: the pointers' facts only.
    run(&world, &k, bufs, 0, 0, 1999);
    run(&world, &k, bufs, 4, 8, 3000);
    assert_eq!(k.variants_compiled(), 3);
}
