//! IR types: scalars, element pointers, tiles (static-shape tensors) and tokens.

use std::fmt;

/// A scalar element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// Boolean (masks, comparisons).
    I1,
    /// Byte.
    I8,
    /// 16-bit integer (also how bf16 moves through memory on the CPU).
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE half.
    F16,
    /// bfloat16.
    BF16,
    /// IEEE single.
    F32,
    /// FP8 E4M3FN (OCP): stored as a byte; only moved and converted, never computed on.
    F8E4M3FN,
    /// FP8 E5M2: stored as a byte; only moved and converted, never computed on.
    F8E5M2,
}

impl Scalar {
    /// MLIR spelling (`f32`, `i64`, ...).
    pub fn mlir(self) -> &'static str {
        match self {
            Scalar::I1 => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F16 => "f16",
            Scalar::BF16 => "bf16",
            Scalar::F32 => "f32",
            Scalar::F8E4M3FN => "f8E4M3FN",
            Scalar::F8E5M2 => "f8E5M2",
        }
    }

    /// Parses an MLIR spelling.
    pub fn parse(s: &str) -> Option<Scalar> {
        Some(match s {
            "i1" => Scalar::I1,
            "i8" => Scalar::I8,
            "i16" => Scalar::I16,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "f16" => Scalar::F16,
            "bf16" => Scalar::BF16,
            "f32" => Scalar::F32,
            // The MLIR spelling, or the runtime dtype's name (kernels' `T=f8e4m3`).
            "f8E4M3FN" | "f8e4m3" => Scalar::F8E4M3FN,
            "f8E5M2" | "f8e5m2" => Scalar::F8E5M2,
            _ => return None,
        })
    }

    /// Whether this is a floating-point type (FP8 included).
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::BF16 | Scalar::F32) || self.is_fp8()
    }

    /// Whether this is an FP8 type (storage and conversions only).
    pub fn is_fp8(self) -> bool {
        matches!(self, Scalar::F8E4M3FN | Scalar::F8E5M2)
    }

    /// The FP8 format of an FP8 type.
    pub fn fp8(self) -> Option<weft_runtime::fp8::Fp8> {
        match self {
            Scalar::F8E4M3FN => Some(weft_runtime::fp8::Fp8::E4M3),
            Scalar::F8E5M2 => Some(weft_runtime::fp8::Fp8::E5M2),
            _ => None,
        }
    }

    /// Whether this is an integer type (including `i1`).
    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Size in bytes as stored in memory (`i1` is stored as a byte).
    pub fn bytes(self) -> usize {
        match self {
            Scalar::I1 | Scalar::I8 | Scalar::F8E4M3FN | Scalar::F8E5M2 => 1,
            Scalar::I16 | Scalar::F16 | Scalar::BF16 => 2,
            Scalar::I32 | Scalar::F32 => 4,
            Scalar::I64 => 8,
        }
    }

    /// Bit width.
    pub fn bits(self) -> usize {
        match self {
            Scalar::I1 => 1,
            other => other.bytes() * 8,
        }
    }
}

/// The element of a value: a number or a pointer to one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A number.
    Num(Scalar),
    /// A pointer to a number in (symmetric or local) memory.
    Ptr(Scalar),
}

impl Elem {
    /// MLIR spelling of the element.
    pub fn mlir(self) -> String {
        match self {
            Elem::Num(s) => s.mlir().to_string(),
            Elem::Ptr(s) => format!("!tile.ptr<{}>", s.mlir()),
        }
    }
}

/// The type of an SSA value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A scalar (`shape` empty) or a tile of `shape`.
    Val {
        /// Element type.
        elem: Elem,
        /// Static tile shape; empty for scalars.
        shape: Vec<usize>,
    },
    /// `!shmem.token`, the result of a signal wait.
    Token,
}

impl Type {
    /// A scalar number type.
    pub fn scalar(s: Scalar) -> Type {
        Type::Val { elem: Elem::Num(s), shape: vec![] }
    }

    /// A scalar pointer type.
    pub fn ptr(s: Scalar) -> Type {
        Type::Val { elem: Elem::Ptr(s), shape: vec![] }
    }

    /// A tile type.
    pub fn tensor(elem: Elem, shape: Vec<usize>) -> Type {
        Type::Val { elem, shape }
    }

    /// Element, if not a token.
    pub fn elem(&self) -> Option<Elem> {
        match self {
            Type::Val { elem, .. } => Some(*elem),
            Type::Token => None,
        }
    }

    /// Shape (empty for scalars and tokens).
    pub fn shape(&self) -> &[usize] {
        match self {
            Type::Val { shape, .. } => shape,
            Type::Token => &[],
        }
    }

    /// Number of elements (1 for scalars).
    pub fn numel(&self) -> usize {
        self.shape().iter().product()
    }

    /// Whether this is a tile (non-scalar).
    pub fn is_tensor(&self) -> bool {
        !self.shape().is_empty()
    }

    /// The same type with another element.
    pub fn with_elem(&self, elem: Elem) -> Type {
        Type::Val { elem, shape: self.shape().to_vec() }
    }

    /// The same element with another shape.
    pub fn with_shape(&self, shape: Vec<usize>) -> Type {
        Type::Val { elem: self.elem().unwrap_or(Elem::Num(Scalar::I1)), shape }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Token => write!(f, "!shmem.token"),
            Type::Val { elem, shape } if shape.is_empty() => write!(f, "{}", elem.mlir()),
            Type::Val { elem, shape } => {
                write!(f, "tensor<")?;
                for d in shape {
                    write!(f, "{d}x")?;
                }
                write!(f, "{}>", elem.mlir())
            }
        }
    }
}
