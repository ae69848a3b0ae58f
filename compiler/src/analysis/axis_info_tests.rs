//! The axis-info lattice against brute force: random index expressions over random shapes are
//! evaluated element by element, and every contiguity, divisibility and constancy claim the
//! transfer functions make is checked on the values; a few exact cases check precision.

use super::axis_info::{pow2_divisor, AxisInfo};

/// xorshift64*: deterministic, dependency free.
struct StdRng(u64);

impl StdRng {
    fn seed_from_u64(s: u64) -> StdRng {
        StdRng(s | 1)
    }

    fn random_range(&mut self, r: std::ops::Range<usize>) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        r.start + (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % (r.end - r.start)
    }

    fn random_bool(&mut self, p: f64) -> bool {
        (self.random_range(0..1000) as f64) < p * 1000.0
    }
}

/// A concrete tile (row-major) with the facts claimed about it.
#[derive(Clone, Debug)]
struct Sym {
    shape: Vec<usize>,
    vals: Vec<i64>,
    info: AxisInfo,
    /// What one step of a contiguous run adds (element bytes for pointers).
    unit: i64,
}

fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

fn coords(shape: &[usize], mut e: usize) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = e % shape[d];
        e /= shape[d];
    }
    c
}

impl Sym {
    fn at(&self, c: &[usize]) -> i64 {
        let st = strides(&self.shape);
        self.vals[c.iter().zip(&st).map(|(a, b)| a * b).sum::<usize>()]
    }

    fn range(start: i64, n: usize) -> Sym {
        Sym { shape: vec![n], vals: (0..n as i64).map(|i| start + i).collect(), info: AxisInfo::range(start, start + n as i64), unit: 1 }
    }

    /// A scalar argument, with the divisibility a specialization would promise.
    fn arg(v: i64, specialized: bool) -> Sym {
        let div = if specialized && v % 16 == 0 { 16 } else { 1 };
        Sym { shape: vec![], vals: vec![v], info: AxisInfo::uniform(&[], div), unit: 1 }
    }

    fn constant(v: i64) -> Sym {
        Sym { shape: vec![], vals: vec![v], info: AxisInfo::constant(&[], v), unit: 1 }
    }

    fn splat(&self, shape: &[usize]) -> Sym {
        let n = shape.iter().product();
        Sym { shape: shape.to_vec(), vals: vec![self.vals[0]; n], info: self.info.splat(shape), unit: self.unit }
    }

    fn expand_dims(&self, axis: usize) -> Sym {
        let mut shape = self.shape.clone();
        shape.insert(axis, 1);
        Sym { shape, vals: self.vals.clone(), info: self.info.expand_dims(axis), unit: self.unit }
    }

    fn broadcast(&self, to: &[usize]) -> Sym {
        let n: usize = to.iter().product();
        let vals = (0..n)
            .map(|e| {
                let c: Vec<usize> = coords(to, e).iter().zip(&self.shape).map(|(&x, &s)| if s == 1 { 0 } else { x }).collect();
                self.at(&c)
            })
            .collect();
        Sym { shape: to.to_vec(), vals, info: self.info.broadcast(&self.shape, to), unit: self.unit }
    }

    fn zip(&self, o: &Sym, f: impl Fn(i64, i64) -> i64, info: AxisInfo) -> Sym {
        Sym { shape: self.shape.clone(), vals: self.vals.iter().zip(&o.vals).map(|(&a, &b)| f(a, b)).collect(), info, unit: self.unit }
    }

    fn add(&self, o: &Sym) -> Sym {
        self.zip(o, |a, b| a + b, AxisInfo::add(&self.info, &o.info, false, 1))
    }

    fn sub(&self, o: &Sym) -> Sym {
        self.zip(o, |a, b| a - b, AxisInfo::add(&self.info, &o.info, true, 1))
    }

    fn mul(&self, o: &Sym) -> Sym {
        self.zip(o, |a, b| a * b, AxisInfo::mul(&self.info, &o.info))
    }

    /// Byte addresses `base + self * bytes` (`addptr` of an element pointer).
    fn addptr(base: &Sym, off: &Sym, bytes: i64) -> Sym {
        Sym { unit: bytes, ..base.zip(off, |a, b| a + b * bytes, AxisInfo::add(&base.info, &off.info, false, bytes as u64)) }
    }

    fn lt(&self, o: &Sym) -> Sym {
        self.zip(o, |a, b| (a < b) as i64, AxisInfo::less_than(&self.info, &o.info))
    }

    /// Truncation to `i32` (what a narrowed compare reads).
    fn trunc32(&self) -> Sym {
        Sym { vals: self.vals.iter().map(|&v| v as i32 as i64).collect(), info: self.info.truncated(), ..self.clone() }
    }

    /// Checks every claim against the values.
    fn check(&self, what: &str) {
        let shape: Vec<usize> = if self.shape.is_empty() { vec![1] } else { self.shape.clone() };
        let i = &self.info;
        assert_eq!(i.rank(), shape.len(), "{what}: rank");
        let n: usize = shape.iter().product();
        let st = strides(&shape);
        for d in 0..shape.len() {
            let (c, k, div) = (i.contiguity[d] as usize, i.constancy[d] as usize, i.divisibility[d] as i64);
            assert!(shape[d] % c == 0 && shape[d] % k == 0, "{what}: dim {d} of {shape:?} runs c={c} k={k}");
            for e in 0..n {
                let x = coords(&shape, e)[d];
                let v = self.vals[e];
                if x % c == 0 {
                    assert_eq!(v % div, 0, "{what}: dim {d}: run start {v} at {e} not a multiple of {div}\n{self:?}");
                } else {
                    assert_eq!(v, self.vals[e - st[d]] + self.unit, "{what}: dim {d}: not contiguous at {e} (c={c})\n{self:?}");
                }
                // div_at: what vectors of `step` elements inside a run may assume.
                let mut step = 1;
                while step <= c {
                    if x % step == 0 {
                        let dv = i.div_at(d, step as u64) as i64;
                        assert_eq!(v % dv, 0, "{what}: dim {d}: {v} at {e} (step {step}) not a multiple of {dv}\n{self:?}");
                    }
                    step *= 2;
                }
                if x % k != 0 {
                    assert_eq!(v, self.vals[e - st[d]], "{what}: dim {d}: not constant at {e} (k={k})\n{self:?}");
                }
            }
        }
    }
}

fn pick<T: Copy>(rng: &mut StdRng, xs: &[T]) -> T {
    xs[rng.random_range(0..xs.len())]
}

/// A random 1-D index tile of length `n`: ranges, splats of constants and arguments, and
/// their sums, differences and products.
fn index_1d(rng: &mut StdRng, n: usize, depth: u32) -> Sym {
    let leaf = |rng: &mut StdRng| match rng.random_range(0..4) {
        0 => Sym::range(pick(rng, &[0, 0, 16, 32, 3, 64, 7]), n),
        1 => Sym::constant(pick(rng, &[0, 1, 8, 16, 5, 64, 48])).splat(&[n]),
        _ => Sym::arg(pick(rng, &[0, 16, 32, 7, 96, 1024, 33]) * pick(rng, &[1, 2, 4]), rng.random_bool(0.7)).splat(&[n]),
    };
    if depth == 0 || rng.random_bool(0.3) {
        return leaf(rng);
    }
    let (a, b) = (index_1d(rng, n, depth - 1), index_1d(rng, n, depth - 1));
    let r = match rng.random_range(0..3) {
        0 => a.add(&b),
        1 => a.sub(&b),
        _ => a.mul(&b),
    };
    r.check("1-d");
    r
}

#[test]
fn random_index_expressions_keep_every_claim() {
    let mut rng = StdRng::seed_from_u64(0xa515);
    for case in 0..400 {
        let (rows, cols) = (pick(&mut rng, &[1, 2, 4, 8, 6]), pick(&mut rng, &[1, 4, 8, 16, 32, 12]));
        let r = index_1d(&mut rng, rows, 2).expand_dims(1);
        r.check("rows");
        let c = index_1d(&mut rng, cols, 2).expand_dims(0);
        c.check("cols");
        let ld = Sym::arg(pick(&mut rng, &[16, 32, 7, 64, 48]), rng.random_bool(0.7));
        // The GEMM operand shape: base + rows * ld + cols, masked by rows < M & cols < K.
        let off = r.mul(&ld.splat(&[rows, 1])).broadcast(&[rows, cols]).add(&c.broadcast(&[rows, cols]));
        off.check(&format!("case {case}: offsets"));
        let bytes = pick(&mut rng, &[1, 2, 4, 8]);
        let base = Sym::arg(pick(&mut rng, &[4096, 4096 + 8, 1 << 20]), rng.random_bool(0.7)).splat(&[rows, cols]);
        Sym::addptr(&base, &off, bytes).check(&format!("case {case}: pointers"));
        let bound = Sym::arg(pick(&mut rng, &[16, 32, 5, 64, 40]), rng.random_bool(0.7));
        c.lt(&bound.splat(&[1, cols])).broadcast(&[rows, cols]).check(&format!("case {case}: column mask"));
        c.broadcast(&[rows, cols]).lt(&bound.splat(&[rows, cols])).check(&format!("case {case}: mask"));
        off.sub(&c.broadcast(&[rows, cols])).check(&format!("case {case}: difference"));
        off.trunc32().check(&format!("case {case}: truncated offsets"));
        let joined = Sym { info: AxisInfo::join(&off.info, &off.add(&Sym::constant(32).splat(&[rows, cols])).info), ..off.clone() };
        joined.check(&format!("case {case}: join"));
    }
}

#[test]
fn gemm_tiles_are_proven_contiguous_aligned_and_uniformly_masked() {
    // A[rows, k0 + 0..32] of bf16 with k0 a multiple of 32 (the loop's step), K a multiple of
    // 16 and the base 16-byte aligned: the facts of the specialized variant.
    let k0 = Sym { shape: vec![], vals: vec![64], info: AxisInfo::uniform(&[], 32), unit: 1 };
    let ks = k0.splat(&[32]).add(&Sym::range(0, 32));
    let rows = Sym::arg(128, true).splat(&[64]).add(&Sym::range(0, 64));
    let ld = Sym::arg(96, true);
    let off = rows.expand_dims(1).mul(&ld.splat(&[64, 1])).broadcast(&[64, 32]).add(&ks.expand_dims(0).broadcast(&[64, 32]));
    let ptrs = Sym::addptr(&Sym::arg(1 << 20, true).splat(&[64, 32]), &off, 2);
    ptrs.check("A pointers");
    assert_eq!(ptrs.info.contiguity, vec![1, 32]);
    assert_eq!(ptrs.info.vector_len(16, 32, 2, 16), 8, "16 slots of a 32-wide row: 8 bf16 per vector");
    assert!(ptrs.info.vector_align(8) >= 16, "{:?}", ptrs.info);
    let mask = ks.expand_dims(0).lt(&Sym::arg(96, true).splat(&[1, 32])).broadcast(&[64, 32]);
    mask.check("K mask");
    assert!(mask.info.uniform_chunks(8), "{:?}", mask.info);
    // The general variant: an odd K keeps the runs but proves neither alignment nor the mask.
    let odd = Sym::arg(97, true);
    let off = rows.expand_dims(1).mul(&odd.splat(&[64, 1])).broadcast(&[64, 32]).add(&ks.expand_dims(0).broadcast(&[64, 32]));
    let ptrs = Sym::addptr(&Sym::arg(1 << 20, false).splat(&[64, 32]), &off, 2);
    assert_eq!(ptrs.info.contiguity, vec![1, 32]);
    assert!(ptrs.info.vector_align(8) < 16);
    assert!(!ks.expand_dims(0).lt(&odd.splat(&[1, 32])).info.uniform_chunks(8));
}

#[test]
fn truncation_to_i32_keeps_only_runs_that_cannot_straddle_the_wrap() {
    // Index runs just below 2^31 and 2^32: the truncated values wrap inside the tile.
    for start in [(1i64 << 31) - 64, (1 << 31) - 16, (1 << 31) - 7, (1 << 32) - 8, -(1 << 31) - 24] {
        for (div, n) in [(true, 32), (false, 32), (true, 8)] {
            let ks = Sym::arg(start, div).splat(&[n]).add(&Sym::range(0, n));
            ks.trunc32().check(&format!("start {start} n {n}"));
            let k0 = Sym { shape: vec![], vals: vec![start], info: AxisInfo::uniform(&[], pow2_divisor(start)), unit: 1 };
            let run = k0.splat(&[n]).add(&Sym::range(0, n)).trunc32();
            run.check(&format!("aligned start {start} n {n}"));
            run.lt(&Sym::constant(7).splat(&[n])).check(&format!("mask of start {start} n {n}"));
        }
    }
}

#[test]
fn pow2_divisors() {
    assert_eq!(pow2_divisor(48), 16);
    assert_eq!(pow2_divisor(-8), 8);
    assert_eq!(pow2_divisor(7), 1);
    assert_eq!(pow2_divisor(0), super::axis_info::MAX_DIV);
}
