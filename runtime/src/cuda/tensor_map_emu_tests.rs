use super::*;
use crate::cuda::tensor_map::{TmaElem, TmaSwizzle};
use rand::{Rng, SeedableRng};

/// A random valid map of any rank: every field survives encoding and decoding.
fn random_map(rng: &mut rand::rngs::StdRng) -> EmuTensorMap {
    let dtype = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12][rng.random_range(0..13)];
    let esize = dtype_bytes(dtype).unwrap();
    let swizzle = rng.random_range(0..4u8);
    let rank = rng.random_range(1..=MAX_RANK);
    let span = [256 * esize, 32, 64, 128][swizzle as usize].min(256 * esize);
    // Box rows in 16-byte multiples that fit the span.
    let inner = 16 * rng.random_range(1..=span / 16) / esize;
    let mut m = EmuTensorMap { dtype, rank, base: 16 * rng.random_range(1..1 << 30), dims: [0; 5], strides: [0; 5], boxes: [0; 5], elem_strides: [0; 5], swizzle, interleave: 0, oob_nan: dtype_is_float(dtype) && rng.random_bool(0.5) };
    m.strides[0] = esize;
    for i in 0..rank {
        m.dims[i] = rng.random_range(1..100_000);
        m.boxes[i] = if i == 0 { inner as u32 } else { rng.random_range(1..=256) };
        m.elem_strides[i] = if i == 0 { 1 } else { rng.random_range(1..=8) };
        if i > 0 {
            m.strides[i] = 16 * rng.random_range(1..1 << 30);
        }
    }
    m
}

#[test]
fn random_maps_of_every_rank_survive_encoding() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7a);
    for _ in 0..500 {
        let m = random_map(&mut rng);
        m.check().unwrap_or_else(|e| panic!("{m:?}: {e}"));
        assert_eq!(EmuTensorMap::decode(&m.encode().0).unwrap(), m);
    }
}

#[test]
fn a_tile_map_encodes_what_it_resolved() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7b);
    for _ in 0..100 {
        let (rows, cols) = (rng.random_range(1..3000u64), 8 * rng.random_range(1..300u64));
        let tm = TileMap { elem: TmaElem::Bf16, base: 0x10_0000 + 16 * rng.random_range(0..100u64), rows, cols, row_stride: 2 * cols, box_rows: 64, box_cols: 64, swizzle: TmaSwizzle::B128 };
        let m = EmuTensorMap::decode(&tm.encode_emulated().unwrap().0).unwrap();
        assert_eq!((m.rank, m.base, m.dims[0], m.dims[1], m.strides[1]), (2, tm.base, cols, rows, 2 * cols));
        assert_eq!((m.boxes[0], m.boxes[1], m.swizzle_span(), m.elem_bytes(), m.dtype), (64, 64, 128, 2, 9));
        assert_eq!(m.box_bytes(), 64 * 64 * 2);
    }
    let odd = TileMap { elem: TmaElem::F32, base: 0x1008, rows: 4, cols: 4, row_stride: 16, box_rows: 4, box_cols: 4, swizzle: TmaSwizzle::None };
    assert!(matches!(odd.encode_emulated(), Err(TensorMapError::Invalid { what: "the global address", .. })));
}

/// Each corrupted byte is named by the field it belongs to.
#[test]
fn a_malformed_map_names_its_field() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x7c);
    let mut m = random_map(&mut rng);
    m.rank = 2;
    m.dims[1] = 40;
    m.boxes[1] = 8;
    m.elem_strides[1] = 1;
    m.strides[1] = 1 << 20;
    let good = m.encode().0;
    let field = |edit: &dyn Fn(&mut [u8; 128])| {
        let mut b = good;
        edit(&mut b);
        match EmuTensorMap::decode(&b) {
            Err(TensorMapError::Invalid { what, .. }) => what,
            other => panic!("expected a named field, got {other:?}"),
        }
    };
    assert_eq!(field(&|b| b[0] = b'x'), "the magic");
    assert_eq!(field(&|b| b[4] = 2), "the version");
    assert_eq!(field(&|b| b[5] = 6), "the rank");
    assert_eq!(field(&|b| b[6] = 13), "the element type");
    assert_eq!(field(&|b| b[7] = 4), "the swizzle");
    assert_eq!(field(&|b| b[8] |= 4), "the global address");
    assert_eq!(field(&|b| b[24..32].copy_from_slice(&0u64.to_le_bytes())), "dimension 1");
    assert_eq!(field(&|b| b[56] |= 8), "stride 1");
    assert_eq!(field(&|b| b[90..92].copy_from_slice(&257u16.to_le_bytes())), "box dimension 1");
    assert_eq!(field(&|b| b[99] = 9), "element stride 1");
    assert_eq!(field(&|b| b[103] = 3), "the interleave");
    assert_eq!(field(&|b| b[104] = 2), "the out-of-bounds fill");
    assert_eq!(field(&|b| b[120] = 1), "a reserved byte");
    // A box row of 8 bytes: not a multiple of 16.
    let eight_bytes = (8 / m.elem_bytes()) as u16;
    assert_eq!(field(&|b| b[88..90].copy_from_slice(&eight_bytes.to_le_bytes())), "the box row in bytes");
}
