//! Per-thread queues of asynchronous work in commit groups (`cp.async` copies, `wgmma`
//! reads): items wait uncommitted, `commit_group` closes them into the newest group, and
//! `wait_group n` retires every group but the newest `n`, oldest first.

use std::collections::VecDeque;

/// Uncommitted items and committed groups, oldest first.
pub struct Groups<T> {
    open: Vec<T>,
    groups: VecDeque<Vec<T>>,
}

impl<T> Default for Groups<T> {
    fn default() -> Self {
        Groups { open: vec![], groups: VecDeque::new() }
    }
}

impl<T> Groups<T> {
    /// Queues an uncommitted item.
    pub fn push(&mut self, x: T) {
        self.open.push(x);
    }

    /// `commit_group`: the uncommitted items become the newest group (maybe empty).
    pub fn commit(&mut self) {
        let g = std::mem::take(&mut self.open);
        self.groups.push_back(g);
    }

    /// Every item, uncommitted and committed.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.open.iter().chain(self.groups.iter().flatten())
    }

    /// The oldest group when more than `keep` are committed (`wait_group keep` retires it).
    pub fn retire(&mut self, keep: i32) -> Option<Vec<T>> {
        (self.groups.len() > keep.max(0) as usize).then(|| self.groups.pop_front().unwrap_or_default())
    }
}
