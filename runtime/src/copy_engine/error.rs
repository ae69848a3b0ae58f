//! What can go wrong with a copy-engine plan or its run.

/// A copy-engine error. `rank` is the queue (issuing rank), `index` the op's place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CopyError {
    /// The plan has queues for ranks the world does not have.
    #[error("copy plan has {queues} queues, but the world has {world} ranks")]
    TooManyQueues {
        /// Queues in the plan.
        queues: usize,
        /// World size.
        world: usize,
    },
    /// An op names a rank outside the world.
    #[error("copy op {index} of rank {rank}'s queue targets rank {pe}, but the world has {world} ranks")]
    BadRank {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
        /// The rank it names.
        pe: usize,
        /// World size.
        world: usize,
    },
    /// A span reaches past the end of its allocation.
    #[error("copy op {index} of rank {rank}'s queue: {what} bytes {offset}..{offset}+{bytes} lie outside its {alloc_bytes}-byte allocation")]
    OutOfBounds {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
        /// `source`, `destination` or `signal`.
        what: &'static str,
        /// Byte offset in the allocation.
        offset: usize,
        /// Length.
        bytes: usize,
        /// The allocation's size.
        alloc_bytes: usize,
    },
    /// A signal is not an 8-byte aligned word.
    #[error("copy op {index} of rank {rank}'s queue: signal at byte {offset} is not 8-byte aligned")]
    Misaligned {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
        /// Byte offset in the allocation.
        offset: usize,
    },
    /// This transport has no copy engine.
    #[error("the {transport} transport has no copy engine (use local or cuda)")]
    Unsupported {
        /// Transport name.
        transport: &'static str,
    },
    /// A `Wait` op's signal never reached its value.
    #[error("copy op {index} of rank {rank}'s queue waited {waited_ms} ms for its signal to reach {expected} (it holds {current})")]
    WaitTimeout {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
        /// The value waited for.
        expected: u64,
        /// The value when it gave up.
        current: u64,
        /// How long it waited.
        waited_ms: u128,
    },
    /// The kernel's launch ended (finished or failed) while the queue still waited.
    #[error("copy op {index} of rank {rank}'s queue still waited for its signal when the launch ended")]
    Stopped {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
    },
    /// The engine cannot reach a peer's memory (cuda: no P2P path, e.g. another node).
    #[error("copy op {index} of rank {rank}'s queue: rank {pe}'s memory is not reachable by the copy engine ({why})")]
    Unreachable {
        /// Issuing rank.
        rank: usize,
        /// Op index in its queue.
        index: usize,
        /// The peer.
        pe: usize,
        /// Why.
        why: String,
    },
}
