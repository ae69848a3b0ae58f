//! Element types of symmetric buffers.

use crate::fp8::Fp8;
use std::fmt;

/// A buffer element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE single.
    F32,
    /// IEEE half.
    F16,
    /// bfloat16.
    BF16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// FP8 E4M3FN (OCP; finite max 448, no infinities).
    F8E4M3,
    /// FP8 E5M2 (IEEE-like; finite max 57344).
    F8E5M2,
}

impl DType {
    /// All dtypes.
    pub const ALL: [DType; 7] = [DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64, DType::F8E4M3, DType::F8E5M2];

    /// Name (`f32`, `bf16`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::F8E4M3 => "f8e4m3",
            DType::F8E5M2 => "f8e5m2",
        }
    }

    /// Size of one element in bytes.
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F8E4M3 | DType::F8E5M2 => 1,
            DType::F16 | DType::BF16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::I64 => 8,
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == s)
    }

    /// Whether this is a floating-point type (FP8 included).
    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16 | DType::F8E4M3 | DType::F8E5M2)
    }

    /// The FP8 format of an FP8 dtype.
    pub fn fp8(self) -> Option<Fp8> {
        match self {
            DType::F8E4M3 => Some(Fp8::E4M3),
            DType::F8E5M2 => Some(Fp8::E5M2),
            _ => None,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A plain-data element type that symmetric buffers can hold.
pub trait Element: sealed::Sealed + Copy + Default + Send + Sync + 'static {
    /// The dtype this element is (u64 signals count as `I64`).
    const DTYPE: DType;
}

macro_rules! element {
    ($t:ty, $d:expr) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = $d;
        }
    };
}

element!(f32, DType::F32);
element!(half::f16, DType::F16);
element!(half::bf16, DType::BF16);
element!(i32, DType::I32);
element!(i64, DType::I64);
element!(u64, DType::I64);
