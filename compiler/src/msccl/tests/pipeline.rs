//! Tiling plans: every element in exactly one tile, tiles within a slot's payload.

use super::*;

/// Checks the plan covers 0..elems exactly, chunk by chunk and tile by tile, in order.
fn covers(plan: &Pipeline) {
    let mut next = 0;
    for chunk in 0..plan.chunks {
        let range = plan.chunk_range(chunk);
        assert_eq!(range.start, next.min(plan.elems));
        let mut in_chunk = range.start;
        for tile in 0..plan.tiles {
            let t = plan.tile_range(chunk, tile);
            assert!(t.len() <= plan.tile_elems);
            if !t.is_empty() {
                assert_eq!(t.start, in_chunk, "tiles are contiguous");
                in_chunk = t.end;
            }
        }
        assert_eq!(in_chunk, range.end, "chunk {chunk} fully tiled");
        next = range.end;
    }
    assert_eq!(next, plan.elems);
}

#[test]
#[allow(clippy::manual_div_ceil)] // spelled out on purpose: independent of the code under test
fn a_prime_element_count_is_tiled_exactly() {
    let elems = 1_000_003;
    for protocol in Protocol::ALL {
        for chunks in [1, 3, 8, 16] {
            let plan = Pipeline::plan_default(elems, 4, chunks, protocol).unwrap();
            assert_eq!(plan.chunk_elems, (elems + chunks - 1) / chunks);
            assert_eq!(plan.tile_elems, protocol.payload_bytes(protocol.default_slot_bytes()) / 4);
            assert_eq!(plan.tiles, (plan.chunk_elems + plan.tile_elems - 1) / plan.tile_elems);
            covers(&plan);
        }
    }
}

#[test]
fn protocol_flags_shrink_the_payload() {
    assert_eq!(Protocol::Simple.payload_bytes(4096), 4096);
    assert_eq!(Protocol::LL.payload_bytes(4096), 2048); // 8 of every 16 bytes
    assert_eq!(Protocol::LL128.payload_bytes(4096), 32 * 120); // 120 of every 128 bytes
    let plan = Pipeline::plan(1000, 8, 2, 256, Protocol::LL).unwrap();
    assert_eq!((plan.chunk_elems, plan.tile_elems, plan.tiles), (500, 16, 32));
    covers(&plan);
}

#[test]
fn small_and_degenerate_sizes() {
    let plan = Pipeline::plan(5, 4, 8, 64, Protocol::Simple).unwrap();
    assert_eq!(plan.chunk_elems, 1);
    assert!(plan.chunk_range(7).is_empty());
    covers(&plan);
    covers(&Pipeline::plan(0, 4, 4, 64, Protocol::Simple).unwrap());
    assert!(matches!(Pipeline::plan(10, 8, 2, 8, Protocol::LL), Err(MscclError::InvalidConfig(_))));
    assert!(Pipeline::plan(10, 0, 2, 64, Protocol::Simple).is_err());
    assert!(Pipeline::plan(10, 4, 0, 64, Protocol::Simple).is_err());
}
