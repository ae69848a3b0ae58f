//! FP8 formats (OCP 8-bit floating point, NVIDIA's `e4m3` / `e5m2`) in plain Rust: the host
//! encoding of `f8e4m3` / `f8e5m2` buffers and the reference for the device conversions.
//!
//! - `e4m3` (OCP E4M3FN): bias 7, 3 mantissa bits, no infinities, NaN = `S.1111.111`, largest
//!   finite 448, smallest subnormal 2^-9.
//! - `e5m2`: bias 15, 2 mantissa bits, IEEE-like (infinities `S.11111.00`, NaNs `S.11111.xx`),
//!   largest finite 57344, smallest subnormal 2^-16.
//!
//! f32 to FP8 rounds to nearest, ties to even, and saturates as `cvt.rn.satfinite` does:
//! anything beyond the largest finite (infinities included) becomes it, NaN becomes `0x7f`.

/// An FP8 format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fp8 {
    /// 4 exponent bits, 3 mantissa bits, finite max 448.
    E4M3,
    /// 5 exponent bits, 2 mantissa bits, finite max 57344.
    E5M2,
}

impl Fp8 {
    /// Both formats.
    pub const ALL: [Fp8; 2] = [Fp8::E4M3, Fp8::E5M2];

    /// Mantissa bits.
    pub fn mant_bits(self) -> u32 {
        match self {
            Fp8::E4M3 => 3,
            Fp8::E5M2 => 2,
        }
    }

    /// Exponent bias.
    pub fn bias(self) -> i32 {
        match self {
            Fp8::E4M3 => 7,
            Fp8::E5M2 => 15,
        }
    }

    /// The largest finite magnitude's code (`0x7e` = 448, `0x7b` = 57344).
    pub fn max_code(self) -> u8 {
        match self {
            Fp8::E4M3 => 0x7e,
            Fp8::E5M2 => 0x7b,
        }
    }

    /// The largest finite value.
    pub fn max(self) -> f32 {
        self.decode(self.max_code())
    }

    /// Lower-case name (`e4m3`, `e5m2`).
    pub fn name(self) -> &'static str {
        match self {
            Fp8::E4M3 => "e4m3",
            Fp8::E5M2 => "e5m2",
        }
    }

    /// The value of `code` (exact in f32).
    pub fn decode(self, code: u8) -> f32 {
        let (m, bias) = (self.mant_bits(), self.bias());
        let sign = if code & 0x80 != 0 { -1.0f32 } else { 1.0 };
        let (exp, mant) = (((code & 0x7f) >> m) as i32, (code & ((1 << m) - 1)) as i32);
        let top = (1 << (7 - m)) - 1;
        match self {
            Fp8::E4M3 if exp == top && mant == (1 << m) - 1 => return f32::NAN,
            Fp8::E5M2 if exp == top => return if mant == 0 { sign * f32::INFINITY } else { f32::NAN },
            _ => {}
        }
        // Subnormals: exponent field 0 means 2^(1 - bias) with no implicit 1.
        let (e, frac) = if exp == 0 { (1 - bias, mant) } else { (exp - bias, mant + (1 << m)) };
        sign * frac as f32 * (2.0f32).powi(e - m as i32)
    }

    /// `x` rounded to nearest (ties to even) with saturation to the finite range; NaN -> `0x7f`.
    pub fn encode(self, x: f32) -> u8 {
        if x.is_nan() {
            return 0x7f;
        }
        let sign = if x.is_sign_negative() { 0x80u8 } else { 0 };
        let a = (x.abs() as f64).min(self.max() as f64);
        if a == 0.0 {
            return sign;
        }
        let m = self.mant_bits() as i32;
        // The binade of `a`, no lower than the subnormals'; `a / 2^(e - m)` is exact in f64.
        let e = (((a as f32).to_bits() >> 23) as i32 - 127).max(1 - self.bias());
        let q = (a / 2f64.powi(e - m)).round_ties_even() as i32;
        // One formula covers subnormals and a rounding carry into the next binade.
        let code = ((e + self.bias() - 1) << m) + q;
        sign | code.min(self.max_code() as i32) as u8
    }

    /// `x` through this format and back.
    pub fn round(self, x: f32) -> f32 {
        self.decode(self.encode(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A code's value from its fields by the standard's formula in f64 (`None`: NaN).
    fn by_fields(fmt: Fp8, code: u8) -> Option<f64> {
        let (e_bits, m_bits) = (7 - fmt.mant_bits(), fmt.mant_bits());
        let s = if code >> 7 == 1 { -1.0 } else { 1.0 };
        let e = ((code >> m_bits) & ((1 << e_bits) - 1)) as i32;
        let m = (code & ((1 << m_bits) - 1)) as f64;
        let all_ones = (1 << e_bits) - 1;
        match fmt {
            Fp8::E4M3 if e == all_ones && m == 7.0 => return None,
            Fp8::E5M2 if e == all_ones => return if m == 0.0 { Some(s * f64::INFINITY) } else { None },
            _ => {}
        }
        let scale = 2f64.powi(m_bits as i32);
        Some(if e == 0 { s * (m / scale) * 2f64.powi(1 - fmt.bias()) } else { s * (1.0 + m / scale) * 2f64.powi(e - fmt.bias()) })
    }

    /// The nearest finite code to `x` by search over every code (ties to the even code),
    /// magnitudes past the largest finite saturating.
    fn nearest(fmt: Fp8, x: f32) -> u8 {
        let (sign, a) = (if x.is_sign_negative() { 0x80 } else { 0 }, x.abs() as f64);
        let mut best = 0u8;
        for c in 0..=fmt.max_code() {
            let (d, db) = ((by_fields(fmt, c).unwrap() - a).abs(), (by_fields(fmt, best).unwrap() - a).abs());
            if d < db || (d == db && c % 2 == 0 && best % 2 == 1) {
                best = c;
            }
        }
        sign | best
    }

    #[test]
    fn every_code_decodes_as_its_fields_say() {
        for fmt in Fp8::ALL {
            for code in 0..=255u8 {
                match by_fields(fmt, code) {
                    Some(v) => assert_eq!(fmt.decode(code) as f64, v, "{} {code:#04x}", fmt.name()),
                    None => assert!(fmt.decode(code).is_nan(), "{} {code:#04x}", fmt.name()),
                }
            }
        }
        assert_eq!((Fp8::E4M3.max(), Fp8::E5M2.max()), (448.0, 57344.0));
        assert_eq!((Fp8::E4M3.decode(1), Fp8::E5M2.decode(1)), (2f32.powi(-9), 2f32.powi(-16)));
        assert_eq!(Fp8::E4M3.decode(0x80).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn encoding_is_the_nearest_code_ties_to_even_saturating() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0xf8);
        for fmt in Fp8::ALL {
            // Every code round-trips; every midpoint between neighbours goes to the even one.
            for c in 0..=fmt.max_code() {
                assert_eq!(fmt.encode(fmt.decode(c)), c);
                assert_eq!(fmt.encode(-fmt.decode(c)), c | 0x80);
                if c < fmt.max_code() {
                    let mid = ((fmt.decode(c) as f64 + fmt.decode(c + 1) as f64) / 2.0) as f32;
                    assert_eq!(fmt.encode(mid), if c % 2 == 0 { c } else { c + 1 }, "{} tie above {c:#04x}", fmt.name());
                }
            }
            // Random magnitudes 2^-27..2^19 (below, across and past the range) and f32 subnormals.
            for _ in 0..20000 {
                let e = if rng.random_ratio(1, 20) { 0 } else { rng.random_range(100u32..=146) };
                let x = f32::from_bits(e << 23 | rng.random::<u32>() & 0x7f_ffff) * if rng.random() { -1.0 } else { 1.0 };
                assert_eq!(fmt.encode(x), nearest(fmt, x), "{} {x:e}", fmt.name());
            }
            for x in [f32::MIN_POSITIVE / 4.0, 1e-30, -1e-30] {
                assert_eq!(fmt.encode(x) & 0x7f, 0, "{x:e} underflows to a signed zero");
            }
            for x in [fmt.max() * 1.01, 1e30, f32::INFINITY, f32::MAX] {
                assert_eq!(fmt.encode(x), fmt.max_code(), "{x:e} saturates");
                assert_eq!(fmt.encode(-x), fmt.max_code() | 0x80);
            }
            assert!(fmt.decode(fmt.encode(f32::NAN)).is_nan());
        }
    }
}
