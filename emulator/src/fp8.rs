//! sm_89+'s FP8 `cvt` pair conversions (the inline PTX of `lower::gpu::fp8_cvt`), executed
//! with `weft_runtime::fp8`'s conversions: nearest, ties to even, saturating to the largest
//! finite, NaN -> `0x7f`; widening to f16 is exact.

use weft_compiler::lower::gpu::fp8_cvt::{decode_asm, encode_asm};
use weft_runtime::fp8::Fp8;

/// Kind bit: widening (codes to f16x2) rather than narrowing.
const DECODE: i32 = 2;

/// The [`cvt`] kind of an inline PTX string, if it is an FP8 conversion.
pub fn kind(asm: &str) -> Option<i32> {
    Fp8::ALL.iter().enumerate().find_map(|(i, &f)| {
        if asm == encode_asm(f) {
            Some(i as i32)
        } else if asm == decode_asm(f) {
            Some(i as i32 | DECODE)
        } else {
            None
        }
    })
}

/// Narrowing: f32 bits `a` to the high code, `b` to the low one. Widening: the two codes of
/// `a` to two f16 (high code to the high half).
pub extern "C" fn cvt(_site: i32, kind: i32, a: i64, b: i64) -> i64 {
    let fmt = Fp8::ALL[(kind & 1) as usize];
    if kind & DECODE == 0 {
        let e = |x: i64| fmt.encode(f32::from_bits(x as u32)) as i64;
        e(a) << 8 | e(b)
    } else {
        let d = |c: i64| half::f16::from_f32(fmt.decode(c as u8)).to_bits() as i64;
        d(a >> 8 & 0xff) << 16 | d(a & 0xff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_conversions_match_the_reference() {
        for (i, fmt) in Fp8::ALL.into_iter().enumerate() {
            let k = kind(&encode_asm(fmt)).unwrap();
            assert_eq!(k, i as i32);
            for c in 0..=255u8 {
                let x = fmt.decode(c);
                let packed = cvt(0, k, x.to_bits() as i64, (-x).to_bits() as i64);
                assert_eq!(packed, (fmt.encode(x) as i64) << 8 | fmt.encode(-x) as i64, "{} {c:#04x}", fmt.name());
                let wide = cvt(0, kind(&decode_asm(fmt)).unwrap(), (c as i64) << 8 | 1, 0);
                let hi = half::f16::from_bits((wide >> 16) as u16).to_f32();
                assert!(hi.to_bits() == x.to_bits() || hi.is_nan() && x.is_nan(), "{} {c:#04x}", fmt.name());
                assert_eq!(half::f16::from_bits(wide as u16).to_f32(), fmt.decode(1));
            }
        }
        assert_eq!(kind("cvt.rn.f16x2.f32 $0, $1, $2;"), None);
    }
}
