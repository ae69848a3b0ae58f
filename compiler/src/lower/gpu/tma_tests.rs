//! The TMA staging against the `wgmma` staging, element by element: a copy writes box row `r`
//! densely (`span` bytes) with its 16-byte chunk index XORed by the row's phase, as the CUDA
//! programming guide's swizzle tables give it (128 B: `r % 8`; 64 B: `(r / 2) % 4`; 32 B:
//! `(r / 4) % 2`), written here from those tables and not from `wgmma_desc::swizzle`.
//! Every element of every operand tile `plan` takes must have one box, one byte no other
//! element has, and that byte must be where the staging (the descriptors' reads) puts it.

use super::*;
use crate::lower::gpu::wgmma_desc::plan;

/// The byte the copy writes element `(r, c)` of a box of `span`-byte rows at (box-relative).
fn tma_byte(span: usize, r: usize, c: usize) -> usize {
    let (chunk, within) = ((c * 2) / 16, (c * 2) % 16);
    let phase = match span {
        128 => r % 8,
        64 => (r / 2) % 4,
        _ => (r / 4) % 2,
    };
    r * span + (chunk ^ phase) * 16 + within
}

#[test]
fn tma_boxes_land_every_element_where_the_wgmma_staging_puts_it() {
    let mut checked = 0;
    for warps in [4, 8] {
        for m in [64, 128] {
            for n in [8, 16, 32, 64, 128, 256] {
                for k in [16, 32, 64, 128] {
                    for (tile, _) in plan(m, n, k, warps).into_iter().flat_map(|(a, b)| [(a, 'A'), (b, 'B')]) {
                        let p = TmaPlan::new(tile).expect("library tiles fit a box");
                        let span = tile.swizzle;
                        let mut owner = vec![false; tile.bytes() / 2];
                        for r in 0..tile.rows {
                            for c in 0..tile.cols {
                                let j = c / tile.atom_cols();
                                let (col0, at) = p.place(j);
                                let byte = at + tma_byte(span, r, c - col0);
                                assert_eq!(byte, tile.byte_of(r, c), "{tile:?}: element ({r}, {c})");
                                assert!(!owner[byte / 2], "{tile:?}: byte {byte} written twice");
                                owner[byte / 2] = true;
                            }
                        }
                        assert!(owner.iter().all(|&o| o), "{tile:?}: a byte no box writes");
                        assert_eq!(p.boxes() * tile.rows * span, p.tx_bytes());
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 40, "only {checked} tiles");
}

#[test]
fn the_tensor_map_parameter_is_what_the_driver_takes() {
    let (ta, tb) = plan(128, 128, 64, 8).unwrap();
    let a = TmaPlan::new(ta).unwrap().param([0, 3, 5, 5], TmaElem::Bf16).unwrap();
    let b = TmaPlan::new(tb).unwrap().param([1, 5, 4, 4], TmaElem::Bf16).unwrap();
    // A: 128 rows of 64 bf16 (one 128-byte span); B: 64 rows of 64 columns, two boxes.
    assert_eq!((a.box_rows, a.box_cols, a.swizzle), (128, 64, TmaSwizzle::B128));
    assert_eq!((b.box_rows, b.box_cols, TmaPlan::new(tb).unwrap().boxes()), (64, 64, 2));
    // M = 300, K = 64, N = 200 at 16-byte-aligned addresses: the driver's rules hold.
    let args = [0x10000u64, 0x20000, 0, 300, 200, 64];
    a.resolve(&args).unwrap();
    b.resolve(&args).unwrap();
    let (sa, _) = plan(64, 64, 32, 4).unwrap();
    assert_eq!(TmaPlan::new(sa).unwrap().param([0, 3, 5, 5], TmaElem::Bf16).unwrap().swizzle, TmaSwizzle::B64);
}
