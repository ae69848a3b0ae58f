//! Axis info (after Triton's `lib/Analysis/AxisInfo.cpp`): per value and per dimension, what is
//! known about its integer (or pointer) elements, so that loads and stores can be proven
//! contiguous, aligned and uniformly masked in more than one dimension.
//!
//! For dimension `d` of a tile (a scalar is a tile of shape `[1]`), with all powers of two:
//! - `contiguity[d] = c`: along `d`, every aligned run of `c` elements is `x, x+1, .., x+c-1`
//!   (pointers: consecutive elements of the pointee);
//! - `divisibility[d] = D`: the element at the start of every such run (every element when
//!   `c == 1`) is a multiple of `D` (pointers: its byte address is);
//! - `constancy[d] = k`: every aligned run of `k` elements along `d` holds one value.
//!
//! The transfer functions here are pure, so they are tested against brute-force evaluation of
//! random index expressions (`axis_info_tests`); [`super::axis_walk`] applies them to a kernel.

/// The largest divisibility tracked (what `0` and other huge powers of two get).
pub const MAX_DIV: u64 = 1 << 30;

/// Axis facts of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxisInfo {
    /// Per dimension: length of the aligned contiguous runs.
    pub contiguity: Vec<u64>,
    /// Per dimension: power of two dividing every run's first element.
    pub divisibility: Vec<u64>,
    /// Per dimension: length of the aligned constant runs.
    pub constancy: Vec<u64>,
    /// What one step of a run adds: 1 for integers, the pointee's bytes for pointers.
    pub unit: u64,
}

/// The largest power of two dividing `x` (`MAX_DIV` for 0).
pub fn pow2_divisor(x: i64) -> u64 {
    if x == 0 { MAX_DIV } else { (1u64 << x.unsigned_abs().trailing_zeros()).min(MAX_DIV) }
}

fn gcd(a: u64, b: u64) -> u64 {
    // Every fact is a power of two, so the gcd is the smaller.
    a.min(b)
}

/// The largest power of two dividing `n` (run lengths must tile a dimension).
fn pow2_part(n: usize) -> u64 {
    pow2_divisor(n.max(1) as i64)
}

impl AxisInfo {
    /// Nothing known about a tile of `rank` dimensions (a scalar has rank 1).
    pub fn unknown(rank: usize) -> AxisInfo {
        AxisInfo { contiguity: vec![1; rank.max(1)], divisibility: vec![1; rank.max(1)], constancy: vec![1; rank.max(1)], unit: 1 }
    }

    /// A scalar (or a splat of one over `shape`) whose value is a multiple of `div`.
    pub fn uniform(shape: &[usize], div: u64) -> AxisInfo {
        let rank = shape.len().max(1);
        let constancy = (0..rank).map(|d| shape.get(d).map_or(1, |&n| pow2_part(n))).collect();
        AxisInfo { contiguity: vec![1; rank], divisibility: vec![div.min(MAX_DIV); rank], constancy, unit: 1 }
    }

    /// A constant `c` (scalar or splat over `shape`).
    pub fn constant(shape: &[usize], c: i64) -> AxisInfo {
        AxisInfo::uniform(shape, pow2_divisor(c))
    }

    /// `make_range(start, end)`.
    pub fn range(start: i64, end: i64) -> AxisInfo {
        let n = (end - start).max(1);
        let c = pow2_divisor(n);
        // Runs after the first start a multiple of `c` past `start`.
        let div = if c as i64 == n { pow2_divisor(start) } else { gcd(pow2_divisor(start), c) };
        AxisInfo { contiguity: vec![c], divisibility: vec![div], constancy: vec![1], unit: 1 }
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.contiguity.len()
    }

    /// A power of two dividing every element at an index that is a multiple of `step` along
    /// `d` (`step` a power of two): run starts when `step` is a multiple of the contiguity,
    /// else a run start plus a multiple of `step`.
    pub fn div_at(&self, d: usize, step: u64) -> u64 {
        if step % self.contiguity[d] == 0 { self.divisibility[d] } else { gcd(self.divisibility[d], step * self.unit) }
    }

    /// A power of two dividing every element.
    pub fn div_all(&self) -> u64 {
        (0..self.rank()).map(|d| self.div_at(d, 1)).max().unwrap_or(1)
    }

    /// What is known everywhere `a` or `b` may flow (loop-carried values, `scf.if` results).
    pub fn join(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let z = |x: &[u64], y: &[u64]| x.iter().zip(y).map(|(&p, &q)| gcd(p, q)).collect();
        if a.rank() != b.rank() {
            return AxisInfo::unknown(a.rank());
        }
        let unit = a.unit.min(b.unit);
        AxisInfo { contiguity: z(&a.contiguity, &b.contiguity), divisibility: z(&a.divisibility, &b.divisibility), constancy: z(&a.constancy, &b.constancy), unit }
    }

    /// `a + b` (or `a - b` when `sub`); for `addptr`, `b` scaled by `scale` bytes.
    pub fn add(a: &AxisInfo, b: &AxisInfo, sub: bool, scale: u64) -> AxisInfo {
        let rank = a.rank();
        let mut r = AxisInfo::unknown(rank);
        r.unit = if scale > 1 { scale } else { a.unit };
        for d in 0..rank {
            let lhs = gcd(a.contiguity[d], b.constancy[d]);
            let rhs = if sub { 1 } else { gcd(a.constancy[d], b.contiguity[d]) };
            let c = lhs.max(rhs);
            r.contiguity[d] = c;
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
            r.divisibility[d] = gcd(a.div_at(d, c), b.div_at(d, c).saturating_mul(scale).min(MAX_DIV));
        }
        r
    }

    /// `a * b`.
    pub fn mul(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let rank = a.rank();
        let mut r = AxisInfo::unknown(rank);
        for d in 0..rank {
            r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
            r.divisibility[d] = a.div_at(d, 1).saturating_mul(b.div_at(d, 1)).min(MAX_DIV);
        }
        r
    }

    /// An integer truncated to 32 bits or more. Multiples of a power of two up to `MAX_DIV`
    /// stay multiples, and a run that starts at a multiple of its length never crosses the
    /// wrap-around point (a multiple of 2^31), so runs as long as the divisibility survive.
    pub fn truncated(&self) -> AxisInfo {
        let mut r = self.clone();
        for d in 0..r.rank() {
            r.contiguity[d] = r.contiguity[d].min(r.divisibility[d]);
        }
        r
    }

    /// Any other elementwise op of `ins`: equal inputs give equal outputs.
    pub fn elementwise(ins: &[&AxisInfo]) -> AxisInfo {
        let rank = ins.first().map_or(1, |a| a.rank());
        let mut r = AxisInfo::unknown(rank);
        for d in 0..rank {
            r.constancy[d] = ins.iter().map(|a| a.constancy[d]).min().unwrap_or(1);
        }
        r
    }

    /// `a < b` (`a` contiguous, `b` constant in aligned blocks of a common length `c` whose
    /// starts are multiples of `c`: then the whole block compares alike). `swap` for `b > a`.
    pub fn less_than(a: &AxisInfo, b: &AxisInfo) -> AxisInfo {
        let mut r = AxisInfo::elementwise(&[a, b]);
        for d in 0..a.rank() {
            let mut c = gcd(a.contiguity[d], b.constancy[d]);
            while c > 1 && (a.div_at(d, c) % c != 0 || b.div_at(d, c) % c != 0) {
                c /= 2;
            }
            r.constancy[d] = r.constancy[d].max(c);
        }
        r
    }

    /// `broadcast` from `from` to `to` (equal ranks; dims of size 1 repeat).
    pub fn broadcast(&self, from: &[usize], to: &[usize]) -> AxisInfo {
        let mut r = self.clone();
        for d in 0..self.rank().min(from.len()).min(to.len()) {
            if from[d] == 1 && to[d] != 1 {
                r.contiguity[d] = 1;
                r.constancy[d] = pow2_part(to[d]);
            }
        }
        r
    }

    /// `expand_dims` at `axis`: a new dimension of size 1.
    pub fn expand_dims(&self, axis: usize) -> AxisInfo {
        let mut r = self.clone();
        let axis = axis.min(r.rank());
        let div = self.div_all();
        r.contiguity.insert(axis, 1);
        r.divisibility.insert(axis, div);
        r.constancy.insert(axis, 1);
        r
    }

    /// A scalar splat over `shape`.
    pub fn splat(&self, shape: &[usize]) -> AxisInfo {
        AxisInfo::uniform(shape, self.div_all())
    }

    /// The same elements read as a different pointee (`ptr_cast`) or integer width: byte
    /// divisibility stays, run lengths in elements only when the element size does.
    pub fn recast(&self, same_size: bool) -> AxisInfo {
        if same_size {
            return self.clone();
        }
        let mut r = AxisInfo::elementwise(&[self]);
        r.divisibility = vec![self.div_all(); self.rank()];
        r.unit = self.unit;
        r
    }

    /// Elements loaded through pointers of these facts: equal addresses give equal values.
    pub fn loaded(&self) -> AxisInfo {
        AxisInfo::elementwise(&[self])
    }

    /// The widest vector (elements, a power of two) one thread can move at once along the
    /// last dimension when it holds `run` consecutive elements of a row of `row` elements,
    /// starting at a multiple of `run`, each `bytes` wide, at most `max_bytes` at once.
    pub fn vector_len(&self, run: usize, row: usize, bytes: usize, max_bytes: usize) -> usize {
        let last = self.rank() - 1;
        let mut w = pow2_part(run).min(pow2_part(row)).min(self.contiguity[last]) as usize;
        while w > 1 && w * bytes > max_bytes {
            w /= 2;
        }
        w.max(1)
    }

    /// The alignment in bytes (a power of two) proven for each `w`-element vector along the
    /// last dimension of a pointer tile (`w` at most the contiguity).
    pub fn vector_align(&self, w: usize) -> u64 {
        let last = self.rank() - 1;
        self.div_at(last, w as u64)
    }

    /// Whether every aligned `w`-element chunk along the last dimension is one value (a mask
    /// that is on or off for a whole vector).
    pub fn uniform_chunks(&self, w: usize) -> bool {
        self.constancy[self.rank() - 1] % w as u64 == 0
    }
}
