//! Host-side data in any library dtype: random inputs, transfer to and from symmetric
//! buffers, and conversion to f64 for checking against references.

use half::{bf16, f16};
use rand::{Rng, SeedableRng};
use weft_runtime::fp8::Fp8;
use weft_runtime::{DType, RawBuf, RuntimeError, World};

/// A host vector of one dtype.
#[derive(Clone, Debug, PartialEq)]
pub enum HostVec {
    /// f32 data.
    F32(Vec<f32>),
    /// f16 data.
    F16(Vec<f16>),
    /// bf16 data.
    BF16(Vec<bf16>),
    /// i32 data.
    I32(Vec<i32>),
    /// FP8 codes of a format.
    F8(Fp8, Vec<u8>),
}

impl HostVec {
    /// `n` random values: floats uniform in [-1, 1), integers in [-1000, 1000).
    pub fn random(dtype: DType, n: usize, seed: u64) -> Result<HostVec, String> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        if let Some(fmt) = dtype.fp8() {
            // Every finite code (subnormals, the largest, both zeros): data moved bit for bit.
            let mut code = || loop {
                let c = rng.random::<u8>();
                if fmt.decode(c).is_finite() {
                    break c;
                }
            };
            return Ok(HostVec::F8(fmt, (0..n).map(|_| code()).collect()));
        }
        let mut f = || rng.random_range(-1.0f32..1.0);
        Ok(match dtype {
            DType::F32 => HostVec::F32((0..n).map(|_| f()).collect()),
            DType::F16 => HostVec::F16((0..n).map(|_| f16::from_f32(f())).collect()),
            DType::BF16 => HostVec::BF16((0..n).map(|_| bf16::from_f32(f())).collect()),
            DType::I32 => HostVec::I32((0..n).map(|_| (f() * 1000.0) as i32).collect()),
            DType::I64 | DType::F8E4M3 | DType::F8E5M2 => return Err(dtype.name().into()),
        })
    }

    /// Converts f64 values to `dtype`.
    pub fn from_f64(dtype: DType, v: &[f64]) -> HostVec {
        match dtype {
            DType::F32 => HostVec::F32(v.iter().map(|&x| x as f32).collect()),
            DType::F16 => HostVec::F16(v.iter().map(|&x| f16::from_f64(x)).collect()),
            DType::BF16 => HostVec::BF16(v.iter().map(|&x| bf16::from_f64(x)).collect()),
            DType::I32 | DType::I64 => HostVec::I32(v.iter().map(|&x| x as i32).collect()),
            DType::F8E4M3 | DType::F8E5M2 => fp8(dtype, v.iter().map(|&x| x as f32)),
        }
    }

    /// Values as f64.
    pub fn to_f64(&self) -> Vec<f64> {
        match self {
            HostVec::F32(v) => v.iter().map(|&x| x as f64).collect(),
            HostVec::F16(v) => v.iter().map(|x| x.to_f64()).collect(),
            HostVec::BF16(v) => v.iter().map(|x| x.to_f64()).collect(),
            HostVec::I32(v) => v.iter().map(|&x| x as f64).collect(),
            HostVec::F8(f, v) => v.iter().map(|&c| f.decode(c) as f64).collect(),
        }
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &[u8] {
        fn b<T>(v: &[T]) -> &[u8] {
            // SAFETY: plain-data element types.
            unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
        }
        match self {
            HostVec::F32(v) => b(v),
            HostVec::F16(v) => b(v),
            HostVec::BF16(v) => b(v),
            HostVec::I32(v) => b(v),
            HostVec::F8(_, v) => v,
        }
    }

    /// Writes into `rank`'s part of `buf` at element `at`.
    pub fn write(&self, world: &World, buf: RawBuf, rank: usize, at: usize, dtype: DType) -> Result<(), RuntimeError> {
        world.write_bytes(buf, rank, at * dtype.size_bytes(), self.bytes())
    }

    /// Reads `n` elements of `dtype` from `rank`'s part of `buf` at element `at`.
    pub fn read(world: &World, buf: RawBuf, rank: usize, at: usize, n: usize, dtype: DType) -> Result<HostVec, RuntimeError> {
        let mut bytes = vec![0u8; n * dtype.size_bytes()];
        world.read_bytes(buf, rank, at * dtype.size_bytes(), &mut bytes)?;
        fn cast<T: Copy + Default>(bytes: &[u8]) -> Vec<T> {
            let mut out = vec![T::default(); bytes.len() / std::mem::size_of::<T>()];
            // SAFETY: same length in bytes, plain-data element types.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr() as *mut u8, bytes.len()) };
            out
        }
        Ok(match dtype {
            DType::F32 => HostVec::F32(cast(&bytes)),
            DType::F16 => HostVec::F16(cast(&bytes)),
            DType::BF16 => HostVec::BF16(cast(&bytes)),
            DType::I32 | DType::I64 => HostVec::I32(cast(&bytes)),
            DType::F8E4M3 | DType::F8E5M2 => HostVec::F8(dtype.fp8().unwrap_or(Fp8::E4M3), bytes),
        })
    }
}

/// `xs` encoded in FP8 dtype `dtype` (nearest, ties to even, saturating).
fn fp8(dtype: DType, xs: impl Iterator<Item = f32>) -> HostVec {
    let f = dtype.fp8().unwrap_or(Fp8::E4M3);
    HostVec::F8(f, xs.map(|x| f.encode(x)).collect())
}

/// The relative error of one rounding to float type `dtype` (f32's for anything else).
pub fn rounding(dtype: DType) -> f64 {
    match dtype {
        DType::F8E4M3 => 0.0625,
        DType::F8E5M2 => 0.125,
        DType::F16 => 9.77e-4,
        DType::BF16 => 7.82e-3,
        _ => f32::EPSILON as f64,
    }
}

/// Largest error of `got` against `want`, and whether every element is within the tolerance
/// for `dtype`: exact for data movement and integers (FP8: to the sign of zero); for float reductions of `terms` values,
/// one rounding of the result plus f32 accumulation error.
pub fn check(got: &[f64], want: &[f64], dtype: DType, terms: usize) -> (bool, f64) {
    let eps = if matches!(dtype, DType::I32 | DType::I64) { 0.0 } else { rounding(dtype) };
    let mut ok = got.len() == want.len();
    let mut max_err: f64 = 0.0;
    for (g, w) in got.iter().zip(want) {
        let err = (g - w).abs();
        let tol = if terms <= 1 || eps == 0.0 { 0.0 } else { w.abs() * eps + terms as f64 * 4.0 * f32::EPSILON as f64 };
        max_err = max_err.max(err);
        // FP8 moves bit for bit: -0 is not +0 (the only codes equal as numbers).
        let sign_lost = dtype.fp8().is_some() && g.is_sign_negative() != w.is_sign_negative();
        if err > tol || err.is_nan() || sign_lost {
            ok = false;
        }
    }
    (ok, max_err)
}
