use super::*;
use rand::{Rng, SeedableRng};

/// A GEMM operand's parameter: args `a, m, k` at 0, 1, 2 (the row stride is `k`).
fn param(box_rows: u32, box_cols: u32) -> TmaParam {
    TmaParam { ptr: 0, rows: 1, cols: 2, ld: 2, box_rows, box_cols, elem: TmaElem::Bf16, swizzle: TmaSwizzle::B128 }
}

#[test]
fn resolves_a_gemm_operand_from_its_arguments_at_random_shapes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(13);
    for _ in 0..200 {
        let (m, k) = (rng.random_range(1..5000u64), 8 * rng.random_range(1..600u64));
        let base = 0x7f00_0000_0000 + 16 * rng.random_range(0..1000u64);
        let map = param(128, 64).resolve(&[base, m, k]).unwrap();
        assert_eq!((map.base, map.rows, map.cols, map.row_stride), (base, m, k, 2 * k));
        assert_eq!((map.box_rows, map.box_cols), (128, 64));
    }
}

#[test]
fn names_what_the_driver_would_reject() {
    let ok = [0x1000u64, 300, 64];
    let field = |args: &[u64], p: TmaParam| match p.resolve(args) {
        Err(TensorMapError::Invalid { what, .. }) => what,
        other => panic!("expected a rejected field, got {other:?}"),
    };
    assert_eq!(field(&[0x1008, 300, 64], param(128, 64)), "the global address");
    // K = 100 bf16: rows 200 bytes apart, not a multiple of 16.
    assert_eq!(field(&[0x1000, 300, 100], param(128, 64)), "the row stride in bytes");
    assert_eq!(field(&[0x1000, 0, 64], param(128, 64)), "rows");
    assert_eq!(field(&ok, param(512, 64)), "box rows");
    // 128 bf16 columns are 256 bytes: wider than the 128-byte swizzle.
    assert_eq!(field(&ok, param(128, 128)), "the box row in bytes");
    assert_eq!(field(&ok, param(128, 4)), "the box row in bytes");
    assert!(matches!(param(128, 64).resolve(&[0x1000, 300]), Err(TensorMapError::MissingArg { index: 2, count: 2 })));
    let narrow = TmaParam { swizzle: TmaSwizzle::B64, ..param(64, 32) };
    assert!(narrow.resolve(&ok).is_ok());
    assert_eq!(field(&ok, TmaParam { swizzle: TmaSwizzle::B32, ..narrow }), "the box row in bytes");
}

#[test]
fn encoding_needs_the_driver_and_says_so_without_one() {
    let map = param(128, 64).resolve(&[0x1000, 300, 64]).unwrap();
    match probe_driver() {
        // No driver here: a typed error, never a made-up descriptor.
        Err(_) => assert!(matches!(map.encode(), Err(TensorMapError::Cuda(CudaError::DriverNotFound { .. })))),
        // With one, the driver fills the descriptor (it does not read the address).
        Ok(()) => assert_ne!(map.encode().unwrap().0, [0; 128]),
    }
}
