//! Size-range selection, as the msccl runtime does it.

use super::*;

#[test]
fn first_matching_range_wins_and_gaps_fall_back() {
    let mut table = SelectionTable::new();
    table.register(CollectiveKind::AllReduce, 0, Some(64 << 10), "allreduce_ll").unwrap();
    table.register(CollectiveKind::AllReduce, 32 << 10, None, "ring_allreduce").unwrap();
    table.register(CollectiveKind::AllGather, 1 << 20, Some(16 << 20), "allgather_ring").unwrap();
    let pick = |coll, bytes| table.select(coll, bytes).map(|r| r.algorithm.as_str());
    assert_eq!(pick(CollectiveKind::AllReduce, 0), Some("allreduce_ll"));
    assert_eq!(pick(CollectiveKind::AllReduce, 64 << 10), Some("allreduce_ll"), "bounds are inclusive");
    assert_eq!(pick(CollectiveKind::AllReduce, 40 << 10), Some("allreduce_ll"), "registration order decides overlaps");
    assert_eq!(pick(CollectiveKind::AllReduce, (64 << 10) + 1), Some("ring_allreduce"));
    assert_eq!(pick(CollectiveKind::AllReduce, u64::MAX), Some("ring_allreduce"));
    assert_eq!(pick(CollectiveKind::AllGather, (1 << 20) - 1), None, "below the range: built-in kernel");
    assert_eq!(pick(CollectiveKind::AllGather, 16 << 20), Some("allgather_ring"));
    assert_eq!(pick(CollectiveKind::AllGather, (16 << 20) + 1), None);
    assert_eq!(pick(CollectiveKind::AllToAll, 1024), None);
    assert!(table.register(CollectiveKind::AllToAll, 10, Some(9), "x").is_err());
    assert_eq!(table.entries().len(), 3);
}

#[test]
fn imported_algorithms_register_with_their_byte_range_and_rank_count() {
    let ir = xml::from_xml(include_str!("fixtures/allreduce_pairs_2.xml")).unwrap();
    let mut table = SelectionTable::new();
    table.register_ir(&ir, "pairs.xml").unwrap();
    let mut unbounded = ir.clone();
    unbounded.max_bytes = Some(0); // msccl: 0 means no upper bound
    unbounded.min_bytes = Some(1 << 20);
    table.register_ir(&unbounded, "big.xml").unwrap();
    let pick =
        |ranks, bytes| table.select_for_ranks(CollectiveKind::AllReduce, ranks, bytes).map(|r| r.algorithm.clone());
    assert_eq!(pick(2, 65536), Some("pairs.xml".to_string()));
    assert_eq!(pick(2, 65537), None);
    assert_eq!(pick(2, 1 << 40), Some("big.xml".to_string()));
    assert_eq!(pick(8, 1024), None, "registered for 2 ranks only");
}
