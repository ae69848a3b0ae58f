//! FP8 conversions with sm_89+'s `cvt` (sm_90a, sm_100a), two slots per instruction:
//! `cvt.rn.satfinite.{e4m3,e5m2}x2.f32` packs two f32 into two codes (nearest even, saturating
//! to the largest finite, NaN -> `0x7f`: `weft_runtime::fp8`'s codes bit for bit) and
//! `cvt.rn.f16x2.{e4m3,e5m2}x2` widens two codes to f16 exactly. Other targets never get here:
//! `lower::fp8` expands their conversions into integer code first.

use super::emit::{shaped, Gx, LlvmScalar};
use crate::ir::Scalar;

/// The inline PTX of a narrowing pair conversion to `fmt` (`$1` lands in the high byte).
pub fn encode_asm(fmt: weft_runtime::fp8::Fp8) -> String {
    format!("cvt.rn.satfinite.{}x2.f32 $0, $1, $2;", fmt.name())
}

/// The inline PTX of a widening pair conversion from `fmt` to f16x2.
pub fn decode_asm(fmt: weft_runtime::fp8::Fp8) -> String {
    format!("cvt.rn.f16x2.{}x2 $0, $1;", fmt.name())
}

impl Gx<'_> {
    /// `v` (scalar or `p` slots) converted from `from` to `to`, one side FP8 (its bytes).
    pub(crate) fn convert_fp8(&mut self, v: &str, from: Scalar, to: Scalar, p: Option<usize>) -> String {
        let n = p.unwrap_or(1);
        let (fty, tty) = (shaped(from.llvm(), p), shaped(to.llvm(), p));
        let lane = |g: &mut Self, i: usize| if p.is_some() && i < n { g.extract(v, &fty, i) } else if i < n { v.to_string() } else { String::new() };
        let mut out = "poison".to_string();
        let mut scalars = vec![];
        for i in (0..n).step_by(2) {
            let (lo, hi) = (lane(self, i), lane(self, i + 1));
            let pair = self.fp8_pair(&lo, &hi, from, to);
            scalars.extend(pair.into_iter().take(n - i));
        }
        if p.is_none() {
            return scalars.swap_remove(0);
        }
        for (i, x) in scalars.iter().enumerate() {
            out = self.assign(&format!("insertelement {tty} {out}, {} {x}, i64 {i}", to.llvm()));
        }
        out
    }

    /// Two slots (`hi` empty: none) converted by one `cvt`; returns [lo, hi].
    fn fp8_pair(&mut self, lo: &str, hi: &str, from: Scalar, to: Scalar) -> Vec<String> {
        if let Some(fmt) = from.fp8() {
            let byte = |g: &mut Self, b: &str| if b.is_empty() { "0".to_string() } else { g.assign(&format!("zext i8 {b} to i16")) };
            let (l, h) = (byte(self, lo), byte(self, hi));
            let h = self.assign(&format!("shl i16 {h}, 8"));
            let packed = self.assign(&format!("or i16 {h}, {l}"));
            let r = self.assign(&format!("call <2 x half> asm \"{}\", \"=r,h\"(i16 {packed})", decode_asm(fmt)));
            return (0..2).map(|i| {
                let x = self.extract(&r, "<2 x half>", i);
                self.convert(&x, Scalar::F16, to, None)
            }).collect();
        }
        let fmt = to.fp8().expect("one side is FP8");
        let wide = |g: &mut Self, x: &str| if x.is_empty() { "0.0".to_string() } else { g.convert(x, from, Scalar::F32, None) };
        let (l, h) = (wide(self, lo), wide(self, hi));
        let r = self.assign(&format!("call i16 asm \"{}\", \"=h,f,f\"(float {h}, float {l})", encode_asm(fmt)));
        let l8 = self.assign(&format!("trunc i16 {r} to i8"));
        let h16 = self.assign(&format!("lshr i16 {r}, 8"));
        let h8 = self.assign(&format!("trunc i16 {h16} to i8"));
        vec![l8, h8]
    }
}
