//! The compiler's FP8 conversions (`cast` to and from `f8E4M3FN` / `f8E5M2`) against the plain
//! Rust reference, bit for bit: integer code on the CPU, sm_80 and gfx942, sm_90a / sm_100a's
//! `cvt` on the SIMT emulator.

use crate::common::for_tiles;
use crate::host::HostVec;
use crate::tiles::i64c;
use rand::{Rng, SeedableRng};
use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;
use weft_runtime::fp8::Fp8;
use weft_runtime::{Arg, DType, LocalOptions, Topology, World};

/// Encodes `xs` (f32) and decodes all 256 codes through `dtype` on `w`; also widens the codes
/// to `wide` (f16 / bf16) and narrows them back. Returns (codes, values, codes round-tripped).
fn on_device(w: &World, dtype: DType, wide: Scalar, xs: &[f32]) -> (HostVec, HostVec, HostVec) {
    let f8 = Scalar::parse(dtype.name()).unwrap();
    let k = kernel("fp8_cvt", &Constexprs::new(), |a| {
        let (x, enc, codes, dec, back) = (a.ptr("x", Scalar::F32), a.ptr("enc", f8), a.ptr("codes", f8), a.ptr("dec", Scalar::F32), a.ptr("back", f8));
        let n = a.i64("n");
        for_tiles(i64c(0), n, 256, |offs, m| store_masked(enc + offs, cast(load_masked(x + offs, m, 0.0f64), f8), m));
        for_tiles(i64c(0), i64c(256), 128, |offs, m| {
            let c = load_masked(codes + offs, m, 0.0f64);
            store_masked(dec + offs, cast(c, Scalar::F32), m);
            store_masked(back + offs, cast(cast(c, wide), f8), m);
        });
        Ok(())
    })
    .unwrap();
    let l = crate::gpu::launchable_for(w, &k).unwrap();
    let bufs = crate::run::alloc_all(w, &[xs.len() * 4, xs.len(), 256, 256 * 4, 256]).unwrap();
    HostVec::F32(xs.to_vec()).write(w, bufs[0], 0, 0, DType::F32).unwrap();
    HostVec::F8(dtype.fp8().unwrap(), (0..=255).collect()).write(w, bufs[2], 0, 0, dtype).unwrap();
    let mut args: Vec<Arg> = bufs.iter().map(|&b| Arg::Buf(b)).collect();
    args.push(Arg::I64(xs.len() as i64));
    w.launch(&l, [1, 1, 1], &args).unwrap();
    let read = |b, n, d| HostVec::read(w, bufs[b], 0, 0, n, d).unwrap();
    (read(1, xs.len(), dtype), read(3, 256, DType::F32), read(4, 256, dtype))
}

/// Every code's value, every midpoint between neighbours (ties), random f32 from the
/// subnormals to past the range, infinities, NaNs and signed zeros.
fn inputs(fmt: Fp8, seed: u64) -> Vec<f32> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut xs: Vec<f32> = (0..=255u8).map(|c| fmt.decode(c)).filter(|v| !v.is_nan()).collect();
    xs.extend((0..fmt.max_code()).flat_map(|c| {
        let mid = ((fmt.decode(c) as f64 + fmt.decode(c + 1) as f64) / 2.0) as f32;
        [mid, -mid]
    }));
    for _ in 0..3000 {
        let e = if rng.random_ratio(1, 20) { 0 } else { rng.random_range(100u32..=146) };
        xs.push(f32::from_bits(rng.random::<u32>() & 0x8000_0000 | e << 23 | rng.random::<u32>() & 0x7f_ffff));
    }
    xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, 0.0, -0.0, f32::MAX, -f32::MAX, fmt.max() * 1.0625]);
    xs
}

fn check(w: &World, what: &str) {
    for (i, dtype) in [DType::F8E4M3, DType::F8E5M2].into_iter().enumerate() {
        let fmt = dtype.fp8().unwrap();
        let xs = inputs(fmt, 0x7e + i as u64);
        for wide in [Scalar::F16, Scalar::BF16] {
            let (HostVec::F8(_, enc), HostVec::F32(dec), HostVec::F8(_, back)) = on_device(w, dtype, wide, &xs) else { unreachable!("read as asked") };
            for (x, &got) in xs.iter().zip(&enc) {
                assert_eq!(got, fmt.encode(*x), "{what} {dtype} encode {x:e}");
            }
            for c in 0..=255u8 {
                let (got, want) = (dec[c as usize], fmt.decode(c));
                assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "{what} {dtype} decode {c:#04x}: {got} vs {want}");
                // Every code is exact in f16 and bf16 (e4m3's 2^-9, e5m2's 2^-16 included).
                assert_eq!(back[c as usize], fmt.encode(want), "{what} {dtype} via {wide:?} {c:#04x}");
            }
        }
    }
}

#[test]
fn fp8_conversions_are_bit_exact_on_the_cpu() {
    check(&crate::matmul_tests::world(1, 1), "cpu");
}

#[test]
fn fp8_conversions_are_bit_exact_on_every_emulated_gpu() {
    for arch in ["sm_80", "sm_90a", "sm_100a", "gfx942"] {
        let w = World::local_with(LocalOptions { topology: Topology { nodes: 1, local_size: 1 }, emulate: Some(arch), ..LocalOptions::default() }).unwrap();
        check(&w, arch);
    }
}
