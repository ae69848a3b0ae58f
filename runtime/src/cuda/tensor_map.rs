//! TMA tensor maps (sm_90+) on the host: the 128-byte descriptor a `cp.async.bulk.tensor`
//! reads, made by the driver's `cuTensorMapEncodeTiled` (loaded at run time like the rest of
//! the driver) and passed to the kernel as a 64-byte-aligned `.param` (`__grid_constant__`).
//!
//! The ABI: a kernel that loads through TMA names, per tensor map, which of its own arguments
//! are the matrix's pointer, rows, columns and row stride ([`TmaParam`]), and the box a copy
//! moves. The launch resolves those against the argument words ([`TmaParam::resolve`]),
//! checks what the driver would reject ([`TileMap::check`], so the error names the
//! argument), then encodes. Without a driver, [`TileMap::encode`] fails with
//! [`CudaError::DriverNotFound`]: nothing pretends a map was made. The SIMT emulator reads
//! its own documented encoding instead ([`super::tensor_map_emu`]).

use super::driver::{probe_driver, DRIVER_LIB};
use super::error::CudaError;
use std::ffi::c_void;
use std::sync::OnceLock;

/// Element types a tile map copies (the driver's `CUtensorMapDataType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaElem {
    /// `CU_TENSOR_MAP_DATA_TYPE_FLOAT16`
    F16,
    /// `CU_TENSOR_MAP_DATA_TYPE_BFLOAT16`
    Bf16,
    /// `CU_TENSOR_MAP_DATA_TYPE_FLOAT32`
    F32,
}

impl TmaElem {
    /// Bytes per element.
    pub fn bytes(self) -> u64 {
        match self {
            TmaElem::F16 | TmaElem::Bf16 => 2,
            TmaElem::F32 => 4,
        }
    }

    pub(crate) fn code(self) -> u32 {
        match self {
            TmaElem::F16 => 6,
            TmaElem::Bf16 => 9,
            TmaElem::F32 => 7,
        }
    }
}

/// How a copy swizzles the box's rows in shared memory (`CUtensorMapSwizzle`): the 16-byte
/// chunk index within each `span`-byte row is XORed with the row index (mod `span / 16`),
/// the pattern `wgmma`'s swizzled descriptors read (see the compiler's `wgmma_desc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaSwizzle {
    /// No swizzle.
    None,
    /// 32-byte rows.
    B32,
    /// 64-byte rows.
    B64,
    /// 128-byte rows.
    B128,
}

impl TmaSwizzle {
    /// The swizzle for rows of `bytes` (32, 64 or 128), as the compiler's staging picks it.
    pub fn for_span(bytes: usize) -> Option<TmaSwizzle> {
        match bytes {
            32 => Some(TmaSwizzle::B32),
            64 => Some(TmaSwizzle::B64),
            128 => Some(TmaSwizzle::B128),
            _ => None,
        }
    }

    /// The widest box row (bytes) the swizzle takes (`None`: up to 256 elements).
    pub fn span(self) -> Option<u64> {
        match self {
            TmaSwizzle::None => None,
            TmaSwizzle::B32 => Some(32),
            TmaSwizzle::B64 => Some(64),
            TmaSwizzle::B128 => Some(128),
        }
    }

    pub(crate) fn code(self) -> u32 {
        match self {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
        }
    }
}

/// A kernel's tensor-map parameter: which of its arguments (by index) are the row-major
/// matrix's pointer, rows, columns and row stride (elements), and the `box_rows x
/// box_cols` box one copy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TmaParam {
    /// Argument indices.
    pub ptr: usize,
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
    /// The box.
    pub box_rows: u32,
    pub box_cols: u32,
    /// Element type and shared-memory swizzle.
    pub elem: TmaElem,
    pub swizzle: TmaSwizzle,
}

/// A 2-D tiled tensor map's fields, as `cuTensorMapEncodeTiled` takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileMap {
    /// Element type.
    pub elem: TmaElem,
    /// Global address of element `[0, 0]`.
    pub base: u64,
    /// Rows and columns of the matrix (reads outside are zero-filled).
    pub rows: u64,
    pub cols: u64,
    /// Bytes between consecutive rows.
    pub row_stride: u64,
    /// The box.
    pub box_rows: u32,
    pub box_cols: u32,
    /// Shared-memory swizzle.
    pub swizzle: TmaSwizzle,
}

/// Why a tensor map cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum TensorMapError {
    /// The kernel's tensor-map parameter names an argument the launch does not have.
    #[error("tensor map: argument {index} is missing (the launch passed {count})")]
    MissingArg {
        /// Argument index.
        index: usize,
        /// Arguments passed.
        count: usize,
    },
    /// A field the driver would reject.
    #[error("tensor map: {what} is {value}; {rule}")]
    Invalid {
        /// The field.
        what: &'static str,
        /// Its value.
        value: u64,
        /// What the driver requires.
        rule: &'static str,
    },
    /// The driver is missing or refused.
    #[error(transparent)]
    Cuda(#[from] CudaError),
}

/// The 128-byte, 64-byte-aligned descriptor (`CUtensorMap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct TensorMap(pub [u8; 128]);

impl TmaParam {
    /// The map of this parameter for a launch with argument words `args` (pointers and
    /// integers as 64-bit words).
    pub fn resolve(&self, args: &[u64]) -> Result<TileMap, TensorMapError> {
        let arg = |i: usize| args.get(i).copied().ok_or(TensorMapError::MissingArg { index: i, count: args.len() });
        let map = TileMap {
            elem: self.elem,
            base: arg(self.ptr)?,
            rows: arg(self.rows)?,
            cols: arg(self.cols)?,
            row_stride: arg(self.ld)?.wrapping_mul(self.elem.bytes()),
            box_rows: self.box_rows,
            box_cols: self.box_cols,
            swizzle: self.swizzle,
        };
        map.check()?;
        Ok(map)
    }
}

impl TileMap {
    /// Checks what `cuTensorMapEncodeTiled` requires of a 2-D, non-interleaved map.
    pub fn check(&self) -> Result<(), TensorMapError> {
        let bad = |what, value, rule| Err(TensorMapError::Invalid { what, value, rule });
        if self.base % 16 != 0 {
            return bad("the global address", self.base, "it must be 16-byte aligned");
        }
        for (what, d) in [("rows", self.rows), ("columns", self.cols)] {
            if d == 0 || d > 1 << 32 {
                return bad(what, d, "a dimension must be from 1 to 2^32");
            }
        }
        if self.row_stride % 16 != 0 || self.row_stride >= 1 << 40 {
            return bad("the row stride in bytes", self.row_stride, "it must be a multiple of 16 below 2^40");
        }
        if self.rows > 1 && self.row_stride < self.cols * self.elem.bytes() {
            return bad("the row stride in bytes", self.row_stride, "rows must not overlap");
        }
        for (what, b) in [("box rows", self.box_rows), ("box columns", self.box_cols)] {
            if b == 0 || b > 256 {
                return bad(what, b as u64, "a box dimension must be from 1 to 256");
            }
        }
        let inner = self.box_cols as u64 * self.elem.bytes();
        if inner % 16 != 0 {
            return bad("the box row in bytes", inner, "it must be a multiple of 16");
        }
        match self.swizzle.span() {
            Some(span) if inner > span => bad("the box row in bytes", inner, "a swizzled box row must fit the swizzle span"),
            _ => Ok(()),
        }
    }

    /// The driver's descriptor of this map (checked first).
    pub fn encode(&self) -> Result<TensorMap, TensorMapError> {
        self.check()?;
        let encode = driver_encode()?;
        let mut out = TensorMap([0; 128]);
        let dims = [self.cols, self.rows];
        let strides = [self.row_stride];
        let boxes = [self.box_cols, self.box_rows];
        let steps = [1u32, 1];
        // SAFETY: the signature is the driver's (CUDA 12.0+); every array has the rank's
        // length (strides one less) and outlives the call; `out` is 64-byte aligned.
        let rc = unsafe { encode(&mut out, self.elem.code(), 2, self.base as *mut c_void, dims.as_ptr(), strides.as_ptr(), boxes.as_ptr(), steps.as_ptr(), 0, self.swizzle.code(), 2, 0) };
        if rc != 0 {
            return Err(CudaError::Driver { call: "cuTensorMapEncodeTiled", message: format!("CUresult {rc}") }.into());
        }
        Ok(out)
    }
}

/// `cuTensorMapEncodeTiled(map, dtype, rank, addr, dims, strides, box, element_strides,
/// interleave, swizzle, l2_promotion, oob_fill)`.
type EncodeTiled = unsafe extern "C" fn(*mut TensorMap, u32, u32, *mut c_void, *const u64, *const u64, *const u32, *const u32, u32, u32, u32, u32) -> i32;

/// The driver's encoder, loaded once (after `cuInit`).
fn driver_encode() -> Result<EncodeTiled, CudaError> {
    static LIB: OnceLock<Result<(libloading::Library, EncodeTiled), String>> = OnceLock::new();
    probe_driver()?;
    let got = LIB.get_or_init(|| {
        // SAFETY: the NVIDIA driver's initialisers only; the symbols' types are the driver
        // API's, and the library stays loaded in the static for as long as they are used.
        unsafe {
            let lib = libloading::Library::new(DRIVER_LIB).map_err(|e| e.to_string())?;
            let init: libloading::Symbol<unsafe extern "C" fn(u32) -> i32> = lib.get(b"cuInit\0").map_err(|e| e.to_string())?;
            let rc = init(0);
            if rc != 0 {
                return Err(format!("cuInit returned CUresult {rc}"));
            }
            let f: EncodeTiled = *lib.get::<EncodeTiled>(b"cuTensorMapEncodeTiled\0").map_err(|e| e.to_string())?;
            Ok((lib, f))
        }
    });
    match got {
        Ok((_, f)) => Ok(*f),
        Err(message) => Err(CudaError::Driver { call: "cuTensorMapEncodeTiled", message: message.clone() }),
    }
}

#[cfg(test)]
#[path = "tensor_map_tests.rs"]
mod tests;
