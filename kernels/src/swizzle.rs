//! Tile orders of the overlap kernels, over a `nodes x local` topology (rank = node * local +
//! local rank). The same generic functions run inside kernels (on DSL values) and on the host
//! (on `i64`), so the order the tests check is the order the kernels use.
//!
//! * AG-GEMM consumes shards in [`ag_source`] order: its own shard first (no wait), then the
//!   next ranks of its own node, then the other nodes in ring order. Its pushes go out in the
//!   same order, so the nearest peers get data first.
//! * GEMM-RS produces segments in [`rs_dest`] order: node + 1 and local rank + 1 first, its own
//!   segment last, so the partials it must wait for from everybody else arrive while it works.

use std::ops::{Add, Div, Mul, Rem};

/// Integer-like values the orders are computed on: `i64` on the host, `Val` in kernels.
pub trait Idx: Copy + Add<Output = Self> + Add<i64, Output = Self> + Mul<Output = Self> + Div<Output = Self> + Rem<Output = Self> {}
impl<T> Idx for T where T: Copy + Add<Output = T> + Add<i64, Output = T> + Mul<Output = T> + Div<Output = T> + Rem<Output = T> {}

/// Rank at `(node_offset, local_offset)` from `me`, both offsets wrapping.
fn rotate<T: Idx>(me: T, node_off: T, local_off: T, local: T, world: T) -> T {
    let nodes = world / local;
    let node = (me / local + node_off) % nodes;
    let lr = (me % local + local_off) % local;
    node * local + lr
}

/// The shard AG-GEMM handles at `step` (0..world): `me` first, own node before others.
pub fn ag_source<T: Idx>(step: T, me: T, local: T, world: T) -> T {
    rotate(me, step / local, step % local, local, world)
}

/// The segment GEMM-RS computes at `step` (0..world): node + 1 and local + 1 first, `me` last.
pub fn rs_dest<T: Idx>(step: T, me: T, local: T, world: T) -> T {
    rotate(me, step / local + 1, step % local + 1, local, world)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(f: fn(i64, i64, i64, i64) -> i64, me: i64, local: i64, world: i64) -> Vec<i64> {
        (0..world).map(|s| f(s, me, local, world)).collect()
    }

    #[test]
    fn every_order_is_a_permutation_with_the_right_ends() {
        for (nodes, local) in [(1, 1), (1, 2), (1, 3), (1, 8), (2, 2), (2, 4), (4, 2)] {
            let world = nodes * local;
            for me in 0..world {
                for f in [ag_source::<i64> as fn(i64, i64, i64, i64) -> i64, rs_dest::<i64>] {
                    let mut o = order(f, me, local, world);
                    o.sort();
                    assert_eq!(o, (0..world).collect::<Vec<_>>(), "{nodes}x{local} me={me}");
                }
                let ag = order(ag_source::<i64>, me, local, world);
                assert_eq!(ag[0], me);
                // Own node first: the first `local` shards are this node's.
                assert!(ag[..local as usize].iter().all(|&r| r / local == me / local));
                let rs = order(rs_dest::<i64>, me, local, world);
                assert_eq!(*rs.last().unwrap(), me);
                if nodes > 1 {
                    assert!(rs[..local as usize].iter().all(|&r| r / local == (me / local + 1) % nodes));
                }
            }
        }
    }
}
