//! FP8 group quantization (as an FP8 dispatch sends a token), on top of the formats'
//! plain-Rust encode / decode in [`weft_runtime::fp8`].

pub use weft_runtime::fp8::Fp8;

/// Elements per FP8 quantization group (DeepEP's and Triton-distributed's 128).
pub const GROUP: usize = 128;

/// Per-group quantization of `row` (as an FP8 dispatch sends a token): each group of
/// [`GROUP`] elements gets scale `amax / max` (1 for an all-zero group) and codes of `x /
/// scale`. Returns (codes, scales).
pub fn quantize_row(fmt: Fp8, row: &[f32]) -> (Vec<u8>, Vec<f32>) {
    let (mut codes, mut scales) = (Vec::with_capacity(row.len()), vec![]);
    for g in row.chunks(GROUP) {
        let amax = g.iter().fold(0.0f32, |m, x| m.max(x.abs()));
        let scale = if amax > 0.0 { amax / fmt.max() } else { 1.0 };
        scales.push(scale);
        codes.extend(g.iter().map(|&x| fmt.encode(x / scale)));
    }
    (codes, scales)
}

/// [`quantize_row`]'s inverse: `decode(code) * scale` per group.
pub fn dequantize_row(fmt: Fp8, codes: &[u8], scales: &[f32]) -> Vec<f32> {
    codes.chunks(GROUP).zip(scales).flat_map(|(g, &s)| g.iter().map(move |&c| fmt.decode(c) * s)).collect()
}

/// Checks a dequantized e4m3 row `got` against `row` (the original token, as f64) through
/// [`quantize_row`] and [`dequantize_row`] in plain Rust: each element within 2^-4 of the
/// reference relative, plus its group's smallest subnormal and one rounding to `dtype` (a
/// device may land one code away on a division's rounding). Returns (max error, all within).
pub fn check_dequantized(got: &[f64], row: &[f64], dtype: weft_runtime::DType) -> (f64, bool) {
    let row32: Vec<f32> = row.iter().map(|&x| x as f32).collect();
    let (codes, scales) = quantize_row(Fp8::E4M3, &row32);
    let want = dequantize_row(Fp8::E4M3, &codes, &scales);
    let (mut max_err, mut ok) = (0.0f64, got.len() == row.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let (w, step) = (*w as f64, scales[i / GROUP] as f64 * 2f64.powi(-9));
        let err = (g - w).abs();
        max_err = max_err.max(err);
        ok &= err <= (2f64.powi(-4) + crate::host::rounding(dtype)) * w.abs() + step;
    }
    (max_err, ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn group_quantization_is_within_half_an_ulp_of_the_scale() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0x9e);
        for fmt in Fp8::ALL {
            for len in [1usize, 127, 128, 300] {
                let row: Vec<f32> = (0..len).map(|i| if i % 50 == 7 { 0.0 } else { rng.random_range(-3.0f32..3.0) }).collect();
                let (codes, scales) = quantize_row(fmt, &row);
                assert_eq!(scales.len(), len.div_ceil(GROUP));
                let back = dequantize_row(fmt, &codes, &scales);
                let rel = 2f32.powi(-(fmt.mant_bits() as i32) - 1);
                for (i, (x, y)) in row.iter().zip(&back).enumerate() {
                    // Half an ulp of x, or of the group's smallest normal for tiny x.
                    let floor = scales[i / GROUP] * 2f32.powi(1 - fmt.bias() - fmt.mant_bits() as i32);
                    assert!((x - y).abs() <= rel * x.abs() * 1.0001 + floor, "{} {x} -> {y}", fmt.name());
                }
            }
        }
        assert_eq!(quantize_row(Fp8::E4M3, &[0.0; 4]), (vec![0; 4], vec![1.0]));
    }
}
