//! Vectors a launch borrows from its thread and hands back emptied, so that launches after the
//! first allocate nothing for their tasks and bookkeeping (a few allocations were a good part of
//! a small launch's host work). A launch that finds its thread's vector already out (none
//! does today) gets a fresh one.

use std::cell::Cell;
use std::ops::{Deref, DerefMut};
use std::thread::LocalKey;

/// This thread's vector of `T` for one launch; emptied and handed back when dropped.
pub(crate) struct Reused<T: 'static> {
    vec: Vec<T>,
    home: &'static LocalKey<Cell<Vec<T>>>,
}

impl<T: 'static> Reused<T> {
    /// The (empty) vector kept in `home`, with room for `n` elements.
    pub fn take(home: &'static LocalKey<Cell<Vec<T>>>, n: usize) -> Reused<T> {
        let mut vec = home.take();
        vec.clear();
        vec.reserve(n);
        Reused { vec, home }
    }
}

impl<T> Deref for Reused<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.vec
    }
}

impl<T> DerefMut for Reused<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.vec
    }
}

/// The most elements' room a thread keeps: a huge launch's memory is freed, not held.
const KEEP: usize = 1024;

impl<T> Drop for Reused<T> {
    fn drop(&mut self) {
        if self.vec.capacity() > KEEP {
            return;
        }
        self.vec.clear();
        let vec = std::mem::take(&mut self.vec);
        // A thread being torn down has no cache left to keep it in.
        let _ = self.home.try_with(|h| h.set(vec));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static KEPT: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    }

    #[test]
    fn a_vector_comes_back_empty_with_its_room_and_a_second_taker_gets_its_own() {
        let mut a = Reused::take(&KEPT, 100);
        a.extend(0..100);
        let at = a.as_ptr();
        // Taken while `a` is out: a vector of its own, not `a`'s memory.
        let b = Reused::take(&KEPT, 10);
        assert_ne!(b.as_ptr(), at);
        drop(b);
        drop(a);
        let c = Reused::take(&KEPT, 50);
        assert!(c.is_empty());
        assert_eq!(c.as_ptr(), at, "the kept allocation is reused");
        assert!(c.capacity() >= 100);
        drop(c);
        let mut big = Reused::take(&KEPT, KEEP + 1);
        big.push(1);
        drop(big);
        assert!(Reused::take(&KEPT, 1).capacity() <= KEEP, "a huge vector is not kept");
    }
}
