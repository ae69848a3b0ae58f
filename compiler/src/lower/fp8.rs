//! FP8 conversions in integer arithmetic, and the pass that expands every FP8 `Convert` into
//! them before a target without FP8 conversion instructions (the CPU, sm_80, AMD: gfx942's
//! native FP8 is the FNUZ variant, a different format) is lowered. FP8 values are bytes
//! everywhere; only conversions compute. The semantics are [`weft_runtime::fp8`]'s: nearest,
//! ties to even, saturating to the largest finite (infinities too), NaN -> `0x7f` — the codes
//! sm_90a's `cvt.rn.satfinite.e4m3x2.f32` computes, so every target agrees bit for bit.

use crate::dsl::{bitcast, build_in, cast, constant, maximum, minimum, select, shr_u, DslError, Val};
use crate::ir::{CastKind, Kernel, OpKind, Scalar};
use std::borrow::Cow;
use std::collections::HashMap;
use weft_runtime::fp8::Fp8;

/// The FP8 codes (i32, 0..=255) of f32 tile `x`.
pub fn encode(x: Val, fmt: Fp8) -> Val {
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
pub fn decode(c: Val, fmt: Fp8) -> Val {
    let (m, bias) = (fmt.mant_bits() as i64, fmt.bias() as i64);
    let sign = (c & 0x80) << 24;
    let a = c & 0x7f;
    // Normals: the exponent and mantissa move up as one field, and the exponent is rebiased
    // by an add (a carry-free one: the field's exponent is at least 1).
    let normal = (a << (23 - m)) + ((127 - bias) << 23);
    // Subnormals (exponent 0, so `a` is the mantissa): a * 2^(1 - bias - m), exact in f32.
    let tiny = bitcast(a.to(Scalar::F32) * 2f64.powi((1 - bias - m) as i32), Scalar::I32);
    let value = bitcast(select(a.lt(1i64 << m), tiny, normal) | sign, Scalar::F32);
    // e5m2's top binade is IEEE's (inf, NaNs); e4m3's only special is NaN.
    let (special, special_bits) = match fmt {
        Fp8::E4M3 => (a.eq_(0x7f), constant(0x7fc0_0000, Scalar::I32, &[])),
        Fp8::E5M2 => (a.ge(0x7c), sign | 0x7f80_0000 | ((c & 3) << 21)),
    };
    select(special, bitcast(special_bits, Scalar::F32), value)
}

/// `x` converted to `to` through f32, FP8 sides in integer arithmetic (one rounding: every
/// f16 / bf16 / FP8 value is exact in f32).
fn convert_soft(x: Val, from: Scalar, to: Scalar) -> Val {
    let f = match from.fp8() {
        Some(fmt) => decode(bitcast(x, Scalar::I8).to(Scalar::I32) & 0xff, fmt),
        None => cast(x, Scalar::F32),
    };
    match to.fp8() {
        Some(fmt) => bitcast(cast(encode(f, fmt), Scalar::I8), to),
        None => cast(f, to),
    }
}

/// The scalar types of a conversion op, if one side is FP8.
fn fp8_convert(k: &Kernel, op: &crate::ir::OpData) -> Option<(Scalar, Scalar)> {
    if op.kind != OpKind::Cast(CastKind::Convert) {
        return None;
    }
    let num = |v| match k.ty(v).elem() {
        Some(crate::ir::Elem::Num(s)) => Some(s),
        _ => None,
    };
    let (from, to) = (num(op.operands[0])?, num(op.results[0])?);
    (from.is_fp8() || to.is_fp8()).then_some((from, to))
}

/// `k` with every FP8 conversion expanded into integer code (unless `native`: the target
/// converts FP8 itself, as sm_90a and sm_100a do).
pub fn legalize(k: &Kernel, native: bool) -> Result<Cow<'_, Kernel>, DslError> {
    if native || !k.ops.iter().any(|o| fp8_convert(k, o).is_some()) {
        return Ok(Cow::Borrowed(k));
    }
    let mut k = k.clone();
    let mut rename = HashMap::new();
    for b in 0..k.blocks.len() {
        let mut out = vec![];
        for op in std::mem::take(&mut k.blocks[b].ops) {
            let d = k.op(op).clone();
            let Some((from, to)) = fp8_convert(&k, &d) else {
                out.push(op);
                continue;
            };
            let x = *rename.get(&d.operands[0]).unwrap_or(&d.operands[0]);
            let tmp = k.new_block();
            let (k2, r, err) = build_in(k, tmp, || convert_soft(Val(x), from, to));
            k = k2;
            if let Some(e) = err {
                return Err(e);
            }
            out.append(&mut k.blocks[tmp.0 as usize].ops);
            rename.insert(d.results[0], r.0);
        }
        k.blocks[b].ops = out;
    }
    for o in &mut k.ops {
        for v in &mut o.operands {
            if let Some(n) = rename.get(v) {
                *v = *n;
            }
        }
    }
    Ok(Cow::Owned(k))
}
