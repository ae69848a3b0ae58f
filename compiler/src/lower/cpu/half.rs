//! Half precision (f16, bf16) on any x86-64. LLVM never sees half-precision arithmetic or
//! conversions: values are widened to f32 with integer ops, computed in f32, and narrowed with
//! round-to-nearest-even inline. Otherwise LLVM calls compiler-rt helpers (`__truncsfbf2` is
//! not in Debian 12's libgcc, so the kernel library failed to load) or, on hosts without
//! AVX-512 BF16 / FP16, scalarizes half vectors lane by lane (minutes of MachineCSE per tile).
//! The integer sequences vectorize on any SSE2 host, so the code does not depend on the CPU.

use super::arith::shaped;
use super::emit::Cx;
use crate::ir::Scalar;

/// Whether `s` is a 16-bit float.
pub(crate) fn is_half(s: Scalar) -> bool {
    matches!(s, Scalar::F16 | Scalar::BF16)
}

/// The type the CPU lowering carries a scalar of `s` in: 16-bit floats travel as their `i16`
/// bits, so LLVM never sees a half type (x86 without AVX-512 BF16 legalizes a `select` or
/// `shufflevector` of half lanes one lane at a time, which took minutes per GEMM tile).
pub(crate) fn cpu_ty(s: Scalar) -> &'static str {
    cpu_scalar(s).mlir()
}

/// [`cpu_ty`] as a scalar: `i16` for 16-bit floats, `i8` for FP8 (LLVM has no FP8 type; its
/// conversions were expanded by `lower::fp8`), `s` otherwise.
pub(crate) fn cpu_scalar(s: Scalar) -> Scalar {
    if is_half(s) {
        Scalar::I16
    } else if s.is_fp8() {
        Scalar::I8
    } else {
        s
    }
}

impl Cx<'_> {
    /// An `i32` constant, splat over `lanes` if given.
    fn i32c(&mut self, x: i64, lanes: Option<usize>) -> String {
        let n = self.fresh();
        match lanes {
            Some(l) => self.line(&format!("{n} = arith.constant dense<{x}> : vector<{l}xi32>")),
            None => self.line(&format!("{n} = arith.constant {x} : i32")),
        }
        n
    }

    /// `op a, b` on `i32` lanes (`arith.addi`, `arith.andi`, ...).
    fn i32op(&mut self, op: &str, a: &str, b: &str, lanes: Option<usize>) -> String {
        let n = self.fresh();
        self.line(&format!("{n} = {op} {a}, {b} : {}", shaped(Scalar::I32, lanes)));
        n
    }

    /// `op a, imm` on `i32` lanes.
    fn i32imm(&mut self, op: &str, a: &str, imm: i64, lanes: Option<usize>) -> String {
        let c = self.i32c(imm, lanes);
        self.i32op(op, a, &c, lanes)
    }

    /// `i1` lanes where `a pred imm` (unsigned or signed integer predicate).
    fn i32cmp(&mut self, pred: &str, a: &str, imm: i64, lanes: Option<usize>) -> String {
        let c = self.i32c(imm, lanes);
        let n = self.fresh();
        self.line(&format!("{n} = arith.cmpi {pred}, {a}, {c} : {}", shaped(Scalar::I32, lanes)));
        n
    }

    /// The bits (`i32` lanes) of `op x, imm` on f32 lanes.
    fn f32_imm(&mut self, op: &str, x: &str, imm: &str, l: Option<usize>) -> String {
        let c = self.fresh();
        match l {
            Some(n) => self.line(&format!("{c} = arith.constant dense<{imm}> : vector<{n}xf32>")),
            None => self.line(&format!("{c} = arith.constant {imm} : f32")),
        }
        let r = self.fresh();
        self.line(&format!("{r} = {op} {x}, {c} : {}", shaped(Scalar::F32, l)));
        self.bitcast(&r, Scalar::F32, Scalar::I32, l)
    }

    fn select32(&mut self, c: &str, a: &str, b: &str, lanes: Option<usize>) -> String {
        let n = self.fresh();
        let cty = match lanes {
            Some(l) => format!("vector<{l}xi1>, vector<{l}xi32>"),
            None => "i32".into(),
        };
        self.line(&format!("{n} = arith.select {c}, {a}, {b} : {cty}"));
        n
    }

    fn bitcast(&mut self, v: &str, from: Scalar, to: Scalar, lanes: Option<usize>) -> String {
        if cpu_ty(from) == cpu_ty(to) {
            return v.to_string();
        }
        let n = self.fresh();
        self.line(&format!("{n} = arith.bitcast {v} : {} to {}", shaped(from, lanes), shaped(to, lanes)));
        n
    }

    /// Widens f16 / bf16 `v` (its `i16` bits) to f32 exactly.
    pub(crate) fn half_to_f32(&mut self, v: &str, s: Scalar, lanes: Option<usize>) -> String {
        let h = self.fresh();
        self.line(&format!("{h} = arith.extui {v} : {} to {}", shaped(Scalar::I16, lanes), shaped(Scalar::I32, lanes)));
        let out = if s == Scalar::BF16 { self.i32imm("arith.shli", &h, 16, lanes) } else { self.f16_bits_to_f32_bits(&h, lanes) };
        self.bitcast(&out, Scalar::I32, Scalar::F32, lanes)
    }

    /// IEEE binary16 bits (zero-extended to i32) to binary32 bits: rebias normal numbers,
    /// map inf/NaN to inf/NaN, and scale subnormals with one exact f32 subtraction.
    fn f16_bits_to_f32_bits(&mut self, h: &str, l: Option<usize>) -> String {
        let sign = self.i32imm("arith.andi", h, 0x8000, l);
        let sign = self.i32imm("arith.shli", &sign, 16, l);
        let em = self.i32imm("arith.andi", h, 0x7fff, l);
        let exp = self.i32imm("arith.andi", &em, 0x7c00, l);
        let o = self.i32imm("arith.shli", &em, 13, l);
        let normal = self.i32imm("arith.addi", &o, (127 - 15) << 23, l);
        let inf = self.i32imm("arith.addi", &normal, (128 - 16) << 23, l);
        // Subnormal m * 2^-24: (2^-14 * (1 + m * 2^-10)) - 2^-14, exact in f32.
        let magic = self.i32imm("arith.addi", &o, 113 << 23, l);
        let magic_f = self.bitcast(&magic, Scalar::I32, Scalar::F32, l);
        let sub = self.f32_imm("arith.subf", &magic_f, "6.103515625e-05", l);
        let is_inf = self.i32cmp("eq", &exp, 0x7c00, l);
        let is_sub = self.i32cmp("eq", &exp, 0, l);
        let r = self.select32(&is_sub, &sub, &normal, l);
        let r = self.select32(&is_inf, &inf, &r, l);
        self.i32op("arith.ori", &r, &sign, l)
    }

    /// Narrows f32 `f` to f16 / bf16 bits (`i16`), rounding to nearest even (NaN stays NaN).
    pub(crate) fn f32_to_half(&mut self, f: &str, s: Scalar, lanes: Option<usize>) -> String {
        let u = self.bitcast(f, Scalar::F32, Scalar::I32, lanes);
        let bits = if s == Scalar::BF16 { self.f32_bits_to_bf16_bits(f, &u, lanes) } else { self.f32_bits_to_f16_bits(&u, lanes) };
        let t = self.fresh();
        self.line(&format!("{t} = arith.trunci {bits} : {} to {}", shaped(Scalar::I32, lanes), shaped(Scalar::I16, lanes)));
        t
    }

    /// bf16 bits in the low half: add 0x7fff plus the kept LSB, then drop 16 bits.
    fn f32_bits_to_bf16_bits(&mut self, f: &str, u: &str, l: Option<usize>) -> String {
        let sh = self.i32imm("arith.shrui", u, 16, l);
        let lsb = self.i32imm("arith.andi", &sh, 1, l);
        let bias = self.i32imm("arith.addi", &lsb, 0x7fff, l);
        let rounded = self.i32op("arith.addi", u, &bias, l);
        let nan = self.i32c(0x7fc0_0000, l);
        let is_nan = self.fresh();
        self.line(&format!("{is_nan} = arith.cmpf uno, {f}, {f} : {}", shaped(Scalar::F32, l)));
        let fixed = self.select32(&is_nan, &nan, &rounded, l);
        self.i32imm("arith.shrui", &fixed, 16, l)
    }

    /// binary16 bits in the low half. Overflow saturates to inf, NaN becomes a quiet NaN,
    /// results below the normal range are rounded by one f32 addition of 0.5 (the FPU's own
    /// round-to-nearest-even), and normal results add the rounding bias below bit 13.
    fn f32_bits_to_f16_bits(&mut self, u: &str, l: Option<usize>) -> String {
        let sign = self.i32imm("arith.andi", u, i32::MIN as i64, l);
        let abs = self.i32imm("arith.andi", u, 0x7fff_ffff, l);
        let is_big = self.i32cmp("uge", &abs, (127 + 16) << 23, l);
        let is_nan = self.i32cmp("ugt", &abs, 0x7f80_0000, l);
        let (qnan, inf) = (self.i32c(0x7e00, l), self.i32c(0x7c00, l));
        let big = self.select32(&is_nan, &qnan, &inf, l);
        let is_small = self.i32cmp("ult", &abs, 113 << 23, l);
        let abs_f = self.bitcast(&abs, Scalar::I32, Scalar::F32, l);
        let small_bits = self.f32_imm("arith.addf", &abs_f, "5.000000e-01", l);
        let small = self.i32imm("arith.subi", &small_bits, 126 << 23, l);
        let odd = self.i32imm("arith.shrui", &abs, 13, l);
        let odd = self.i32imm("arith.andi", &odd, 1, l);
        let rebias = self.i32imm("arith.addi", &abs, (((15 - 127) << 23) + 0xfff) as i32 as i64, l);
        let rounded = self.i32op("arith.addi", &rebias, &odd, l);
        let normal = self.i32imm("arith.shrui", &rounded, 13, l);
        let r = self.select32(&is_small, &small, &normal, l);
        let r = self.select32(&is_big, &big, &r, l);
        let sign16 = self.i32imm("arith.shrui", &sign, 16, l);
        self.i32op("arith.ori", &r, &sign16, l)
    }

    /// `name a, b` on floats of `s`; half precision is computed in f32 and rounded back.
    pub(crate) fn float_binop(&mut self, name: &str, a: &str, b: &str, s: Scalar, lanes: Option<usize>) -> String {
        if !is_half(s) {
            let r = self.fresh();
            self.line(&format!("{r} = {name} {a}, {b} : {}", shaped(s, lanes)));
            return r;
        }
        let (x, y) = (self.half_to_f32(a, s, lanes), self.half_to_f32(b, s, lanes));
        let r = self.fresh();
        self.line(&format!("{r} = {name} {x}, {y} : {}", shaped(Scalar::F32, lanes)));
        self.f32_to_half(&r, s, lanes)
    }
}
