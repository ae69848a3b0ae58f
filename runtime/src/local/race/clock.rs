//! Vector clocks: one counter per program instance of the launch.

/// A vector clock over the launch's instances.
#[derive(Clone, Debug, Default)]
pub(crate) struct VClock(Vec<u32>);

impl VClock {
    /// All zero, for `n` instances.
    pub fn new(n: usize) -> VClock {
        VClock(vec![0; n])
    }

    /// The component of instance `i`.
    pub fn get(&self, i: usize) -> u32 {
        self.0[i]
    }

    /// Advances instance `i`'s own component (a new epoch after a release).
    pub fn tick(&mut self, i: usize) {
        self.0[i] += 1;
    }

    /// Raises instance `i`'s component to at least `e`.
    pub fn raise(&mut self, i: usize, e: u32) {
        self.0[i] = self.0[i].max(e);
    }

    /// Raises every component to at least `other`'s.
    pub fn join(&mut self, other: &VClock) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = (*a).max(*b);
        }
    }
}
