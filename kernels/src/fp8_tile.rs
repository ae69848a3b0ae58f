//! FP8 conversions on tiles, in integer arithmetic (every target runs them: sm_80, AMD and the
//! CPU have no FP8 conversion instruction; sm_90a's `cvt.rn.satfinite.e4m3x2.f32` computes
//! the same codes). Codes travel as i32 tiles holding 0..=255; the semantics are
//! [`crate::fp8`]'s: nearest, ties to even, saturating, NaN -> `0x7f`.

use crate::fp8::Fp8;
use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;

/// The FP8 codes (i32, 0..=255) of f32 tile `x`.
pub(crate) fn encode(x: Val, fmt: Fp8) -> Val {
    let (m, bias) = (fmt.mant_bits() as i64, fmt.bias() as i64);
    let u = bitcast(x, Scalar::I32);
    let sign = shr_u(u, 24) & 0x80;
    let raw = u & 0x7fff_ffff;
    let nan = raw.gt(0x7f80_0000);
    // Non-negative f32 bits order as their values: clamping the bits saturates (inf too).
    let a = minimum(raw, fmt.max().to_bits() as i64);
    let biased = shr_u(a, 23);
    let e = maximum(biased - 127, 1 - bias);
    // The implicit 1 of normal f32s (`biased` is 0 for subnormals).
    let mant = (a & 0x7f_ffff) | (minimum(biased, 1) << 23);
    // Shift the 24-bit significand down to `m` bits below the binade `e` (clamped: past 31 the
    // value is under half the smallest subnormal either way), rounding to nearest even.
    let s = minimum((23 - m) + e - (biased - 127), 31);
    let q = shr_u(mant, s);
    let (rem, half) = (mant & ((1 << s) - 1), 1 << (s - 1));
    let up = select(rem.gt(half), 1, select(rem.eq_(half), q & 1, 0));
    let code = minimum(((e + (bias - 1)) << m) + q + up, fmt.max_code() as i64);
    select(nan, 0x7f, sign | code)
}

/// The f32 values of FP8 codes `c` (an i32 tile of 0..=255).
pub(crate) fn decode(c: Val, fmt: Fp8) -> Val {
    let (m, bias) = (fmt.mant_bits() as i64, fmt.bias() as i64);
    let sign = (c & 0x80) << 24;
    let (exp, mant) = (shr_u(c & 0x7f, m), c & ((1 << m) - 1));
    let top = (1i64 << (7 - m)) - 1;
    let normal = sign | ((exp + (127 - bias)) << 23) | (mant << (23 - m));
    // Subnormals: mant * 2^(1 - bias - m), exact in f32.
    let tiny = mant.to(Scalar::F32) * 2f64.powi((1 - bias - m) as i32);
    let sub = bitcast(bitcast(tiny, Scalar::I32) | sign, Scalar::F32);
    let value = select(exp.eq_(0), sub, bitcast(normal, Scalar::F32));
    let special = match fmt {
        Fp8::E4M3 => (c & 0x7f).eq_(0x7f),
        Fp8::E5M2 => exp.eq_(top),
    };
    // e5m2's top binade is IEEE's (inf, NaNs); e4m3's only special is NaN.
    let special_bits = match fmt {
        Fp8::E4M3 => constant(0x7fc0_0000, Scalar::I32, &[]),
        Fp8::E5M2 => sign | 0x7f80_0000 | (mant << 21),
    };
    select(special, bitcast(special_bits, Scalar::F32), value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::for_tiles;
    use crate::host::HostVec;
    use rand::{Rng, SeedableRng};
    use weft_runtime::{Arg, DType};

    /// Runs `encode` over `xs` and `decode` over every code on the CPU; returns both.
    fn on_device(fmt: Fp8, xs: &[f32]) -> (Vec<i32>, Vec<f32>) {
        let k = kernel("fp8_cvt", &Constexprs::new(), |a| {
            let (x, enc, codes, dec) = (a.ptr("x", Scalar::F32), a.ptr("enc", Scalar::I32), a.ptr("codes", Scalar::I32), a.ptr("dec", Scalar::F32));
            let n = a.i64("n");
            for_tiles(crate::tiles::i64c(0), n, 256, |offs, m| store_masked(enc + offs, encode(load_masked(x + offs, m, 0.0f64), fmt), m));
            for_tiles(crate::tiles::i64c(0), crate::tiles::i64c(256), 256, |offs, m| store_masked(dec + offs, decode(load_masked(codes + offs, m, 0), fmt), m));
            Ok(())
        })
        .unwrap();
        let w = crate::matmul_tests::world(1, 1);
        let l = crate::gpu::launchable_for(&w, &k).unwrap();
        let bufs = crate::run::alloc_all(&w, &[xs.len() * 4, xs.len() * 4, 256 * 4, 256 * 4]).unwrap();
        HostVec::F32(xs.to_vec()).write(&w, bufs[0], 0, 0, DType::F32).unwrap();
        HostVec::I32((0..256).collect()).write(&w, bufs[2], 0, 0, DType::I32).unwrap();
        let mut args: Vec<Arg> = bufs.iter().map(|&b| Arg::Buf(b)).collect();
        args.push(Arg::I64(xs.len() as i64));
        w.launch(&l, [1, 1, 1], &args).unwrap();
        let enc = HostVec::read(&w, bufs[1], 0, 0, xs.len(), DType::I32).unwrap().to_f64().iter().map(|&v| v as i32).collect();
        let dec = HostVec::read(&w, bufs[3], 0, 0, 256, DType::F32).unwrap().to_f64().iter().map(|&v| v as f32).collect();
        (enc, dec)
    }

    #[test]
    fn tile_conversions_match_the_reference_bit_for_bit() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x7e);
        for fmt in Fp8::ALL {
            // Every code's value, the midpoints between neighbours (ties), then random f32 from
            // subnormal to past the range, infinities and NaN.
            let mut xs: Vec<f32> = (0..=255u8).map(|c| fmt.decode(c)).filter(|v| !v.is_nan()).collect();
            xs.extend((0..fmt.max_code()).map(|c| ((fmt.decode(c) as f64 + fmt.decode(c + 1) as f64) / 2.0) as f32));
            for _ in 0..4000 {
                let e = if rng.random_ratio(1, 20) { 0 } else { rng.random_range(100u32..=146) };
                xs.push(f32::from_bits(rng.random::<u32>() & 0x8000_0000 | e << 23 | rng.random::<u32>() & 0x7f_ffff));
            }
            xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, 0.0, -0.0, f32::MAX]);
            let (enc, dec) = on_device(fmt, &xs);
            for (x, &got) in xs.iter().zip(&enc) {
                assert_eq!(got, fmt.encode(*x) as i32, "{} encode {x:e}", fmt.name());
            }
            for (c, got) in dec.iter().enumerate() {
                let want = fmt.decode(c as u8);
                assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "{} decode {c:#04x}: {got} vs {want}", fmt.name());
            }
        }
    }
}
