//! The tensor map as the SIMT emulator reads it: without a driver there is no
//! `cuTensorMapEncodeTiled`, and the driver's 128 bytes are opaque anyway, so a launch on
//! the emulator fills each tensor-map parameter with this documented encoding instead
//! ([`TileMap::encode_emulated`]), and the emulator's `cp.async.bulk.tensor` decodes it
//! ([`EmuTensorMap::decode`]). One place defines both directions.
//!
//! Layout (little-endian, 128 bytes, 64-byte aligned like `CUtensorMap`):
//!
//! | bytes   | field                                                                  |
//! |---------|------------------------------------------------------------------------|
//! | 0..4    | magic `b"wTMA"`                                                        |
//! | 4       | version (1)                                                            |
//! | 5       | rank, 1 to 5                                                           |
//! | 6       | element type (`CUtensorMapDataType` code, 0 to 12)                     |
//! | 7       | swizzle (`CUtensorMapSwizzle`: 0 none, 1 32 B, 2 64 B, 3 128 B)        |
//! | 8..16   | global address of element 0                                            |
//! | 16..56  | global dimensions, 5 x u64, innermost first (unused: 0)                |
//! | 56..88  | global strides in bytes of dimensions 1..5, 4 x u64 (unused: 0)        |
//! | 88..98  | box dimensions, 5 x u16 (unused: 0)                                    |
//! | 98..103 | element (traversal) strides, 5 x u8 (unused: 0)                        |
//! | 103     | interleave (`CUtensorMapInterleave`: 0 none, 1 16 B, 2 32 B)           |
//! | 104     | out-of-bounds fill (`CUtensorMapFloatOOBfill`: 0 zeros, 1 NaN)         |
//! | 105     | L2 promotion (ignored)                                                 |
//! | 106..128| reserved, zero                                                         |
//!
//! Decoding checks every field against what the driver would accept and names the first
//! that is wrong ([`TensorMapError::Invalid`]), so a map the emulator runs is one the driver
//! would have made.

use super::tensor_map::{TensorMap, TensorMapError, TileMap};

/// The first four bytes of an emulator tensor map.
pub const MAGIC: [u8; 4] = *b"wTMA";
/// The encoding's version.
pub const VERSION: u8 = 1;
/// The most dimensions a map has.
pub const MAX_RANK: usize = 5;

/// A decoded (or to-be-encoded) tiled tensor map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmuTensorMap {
    /// Element type, as `CUtensorMapDataType`.
    pub dtype: u8,
    /// Dimensions used (1 to 5).
    pub rank: usize,
    /// Global address of element 0.
    pub base: u64,
    /// Global dimensions, innermost first.
    pub dims: [u64; MAX_RANK],
    /// Byte stride of each dimension; `strides[0]` is the element size (implicit in the encoding).
    pub strides: [u64; MAX_RANK],
    /// The box one copy moves, innermost first.
    pub boxes: [u32; MAX_RANK],
    /// Traversal strides (elements) within the box.
    pub elem_strides: [u32; MAX_RANK],
    /// `CUtensorMapSwizzle` code.
    pub swizzle: u8,
    /// `CUtensorMapInterleave` code.
    pub interleave: u8,
    /// Out-of-bounds elements read as NaN rather than zero.
    pub oob_nan: bool,
}

/// Bytes per element of `CUtensorMapDataType` code `t`, if it is one.
pub fn dtype_bytes(t: u8) -> Option<u64> {
    match t {
        0 => Some(1),
        1 | 6 | 9 => Some(2),
        2 | 3 | 7 | 10 | 11 | 12 => Some(4),
        4 | 5 | 8 => Some(8),
        _ => None,
    }
}

/// Whether `CUtensorMapDataType` code `t` is a floating-point type (NaN fill allowed).
pub fn dtype_is_float(t: u8) -> bool {
    matches!(t, 6..=12)
}

fn bad<T>(what: &'static str, value: u64, rule: &'static str) -> Result<T, TensorMapError> {
    Err(TensorMapError::Invalid { what, value, rule })
}

impl EmuTensorMap {
    /// Bytes per element.
    pub fn elem_bytes(&self) -> u64 {
        dtype_bytes(self.dtype).unwrap_or(1)
    }

    /// Elements a copy moves along dimension `i`: the box traversed at its element stride.
    pub fn box_elems(&self, i: usize) -> u64 {
        (self.boxes[i] as u64).div_ceil(self.elem_strides[i].max(1) as u64)
    }

    /// Bytes one copy moves into (or out of) shared memory, out-of-bounds elements included.
    pub fn box_bytes(&self) -> u64 {
        (0..self.rank).map(|i| self.box_elems(i)).product::<u64>() * self.elem_bytes()
    }

    /// The swizzle span in bytes (0 for none).
    pub fn swizzle_span(&self) -> u64 {
        match self.swizzle {
            1 => 32,
            2 => 64,
            3 => 128,
            _ => 0,
        }
    }

    /// The 128 bytes of this map.
    pub fn encode(&self) -> TensorMap {
        let mut b = [0u8; 128];
        b[0..4].copy_from_slice(&MAGIC);
        b[4] = VERSION;
        b[5] = self.rank as u8;
        b[6] = self.dtype;
        b[7] = self.swizzle;
        b[8..16].copy_from_slice(&self.base.to_le_bytes());
        for i in 0..self.rank {
            b[16 + 8 * i..24 + 8 * i].copy_from_slice(&self.dims[i].to_le_bytes());
            if i > 0 {
                b[56 + 8 * (i - 1)..64 + 8 * (i - 1)].copy_from_slice(&self.strides[i].to_le_bytes());
            }
            b[88 + 2 * i..90 + 2 * i].copy_from_slice(&(self.boxes[i] as u16).to_le_bytes());
            b[98 + i] = self.elem_strides[i] as u8;
        }
        b[103] = self.interleave;
        b[104] = self.oob_nan as u8;
        TensorMap(b)
    }

    /// The map encoded in `bytes`, checked field by field.
    pub fn decode(bytes: &[u8; 128]) -> Result<EmuTensorMap, TensorMapError> {
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        if bytes[0..4] != MAGIC {
            return bad("the magic", u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")) as u64, "an emulator tensor map starts with b\"wTMA\" (was it made by the driver?)");
        }
        if bytes[4] != VERSION {
            return bad("the version", bytes[4] as u64, "the emulator reads version 1");
        }
        let rank = bytes[5] as usize;
        if !(1..=MAX_RANK).contains(&rank) {
            return bad("the rank", rank as u64, "it must be from 1 to 5");
        }
        let Some(esize) = dtype_bytes(bytes[6]) else { return bad("the element type", bytes[6] as u64, "it must be a CUtensorMapDataType code, 0 to 12") };
        let mut m = EmuTensorMap {
            dtype: bytes[6],
            rank,
            base: u64_at(8),
            dims: [0; MAX_RANK],
            strides: [0; MAX_RANK],
            boxes: [0; MAX_RANK],
            elem_strides: [0; MAX_RANK],
            swizzle: bytes[7],
            interleave: bytes[103],
            oob_nan: bytes[104] != 0,
        };
        m.strides[0] = esize;
        for i in 0..rank {
            m.dims[i] = u64_at(16 + 8 * i);
            if i > 0 {
                m.strides[i] = u64_at(56 + 8 * (i - 1));
            }
            m.boxes[i] = u16::from_le_bytes([bytes[88 + 2 * i], bytes[89 + 2 * i]]) as u32;
            m.elem_strides[i] = bytes[98 + i] as u32;
        }
        if bytes[104] > 1 {
            return bad("the out-of-bounds fill", bytes[104] as u64, "it must be 0 (zeros) or 1 (NaN)");
        }
        if let Some(i) = (106..128).find(|&i| bytes[i] != 0) {
            return bad("a reserved byte", i as u64, "bytes 106 to 127 must be zero");
        }
        m.check()?;
        Ok(m)
    }

    /// Checks what `cuTensorMapEncodeTiled` requires (and the encoding can hold).
    pub fn check(&self) -> Result<(), TensorMapError> {
        let align = if self.interleave == 2 { 32 } else { 16 };
        if !self.base.is_multiple_of(align) {
            return bad("the global address", self.base, "it must be 16-byte aligned (32 with 32-byte interleave)");
        }
        for i in 0..self.rank {
            if self.dims[i] == 0 || self.dims[i] > 1 << 32 {
                return bad(["dimension 0", "dimension 1", "dimension 2", "dimension 3", "dimension 4"][i], self.dims[i], "a dimension must be from 1 to 2^32");
            }
            if i > 0 && (!self.strides[i].is_multiple_of(16) || self.strides[i] >= 1 << 40) {
                return bad(["", "stride 1", "stride 2", "stride 3", "stride 4"][i], self.strides[i], "a stride must be a multiple of 16 bytes below 2^40");
            }
            if self.boxes[i] == 0 || self.boxes[i] > 256 {
                return bad(["box dimension 0", "box dimension 1", "box dimension 2", "box dimension 3", "box dimension 4"][i], self.boxes[i] as u64, "a box dimension must be from 1 to 256");
            }
            if !(1..=8).contains(&self.elem_strides[i]) {
                return bad(["element stride 0", "element stride 1", "element stride 2", "element stride 3", "element stride 4"][i], self.elem_strides[i] as u64, "an element stride must be from 1 to 8");
            }
        }
        if self.swizzle > 3 {
            return bad("the swizzle", self.swizzle as u64, "it must be 0 (none), 1 (32 B), 2 (64 B) or 3 (128 B)");
        }
        if self.interleave > 2 {
            return bad("the interleave", self.interleave as u64, "it must be 0 (none), 1 (16 B) or 2 (32 B)");
        }
        if self.oob_nan && !dtype_is_float(self.dtype) {
            return bad("the out-of-bounds fill", 1, "NaN fill needs a floating-point element type");
        }
        let inner = self.boxes[0] as u64 * self.elem_bytes();
        if self.interleave == 0 && !inner.is_multiple_of(16) {
            return bad("the box row in bytes", inner, "it must be a multiple of 16");
        }
        match self.swizzle_span() {
            span if span > 0 && self.interleave == 0 && inner > span => bad("the box row in bytes", inner, "a swizzled box row must fit the swizzle span"),
            _ => Ok(()),
        }
    }
}

impl TileMap {
    /// This map as the emulator's 128 bytes (checked first): a 2-D, non-interleaved map of
    /// `cols` x `rows`, boxes of `box_cols` x `box_rows`, zero fill.
    pub fn encode_emulated(&self) -> Result<TensorMap, TensorMapError> {
        self.check()?;
        Ok(self.emulated().encode())
    }

    /// The emulator's view of this map.
    pub fn emulated(&self) -> EmuTensorMap {
        EmuTensorMap {
            dtype: self.elem.code() as u8,
            rank: 2,
            base: self.base,
            dims: [self.cols, self.rows, 0, 0, 0],
            strides: [self.elem.bytes(), self.row_stride, 0, 0, 0],
            boxes: [self.box_cols, self.box_rows, 0, 0, 0],
            elem_strides: [1, 1, 0, 0, 0],
            swizzle: self.swizzle.code() as u8,
            interleave: 0,
            oob_nan: false,
        }
    }
}

#[cfg(test)]
#[path = "tensor_map_emu_tests.rs"]
mod tests;
