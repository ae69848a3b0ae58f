//! Test operands shared by the plain-Rust simulations of the tensor-core paths (ldmatrix,
//! wgmma): small integers, exact in f16 and bf16, so a simulated dot must equal the naive one.

/// The 16-bit pattern of `x` as bf16 (or f16).
pub(crate) fn from_i(x: i64, bf16: bool) -> u16 {
    if bf16 { half::bf16::from_f32(x as f32).to_bits() } else { half::f16::from_f32(x as f32).to_bits() }
}

/// The value of a bf16 (or f16) bit pattern.
pub(crate) fn to_f32(bits: u16, bf16: bool) -> f32 {
    if bf16 { half::bf16::from_bits(bits).to_f32() } else { half::f16::from_bits(bits).to_f32() }
}

/// Row-major A (`m x k`) and B (`k x n`) of integers in -7..=7 from `seed`.
pub(crate) fn operands(m: usize, n: usize, k: usize, seed: u64) -> (Vec<i64>, Vec<i64>) {
    let mut x = seed;
    let mut rnd = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 15) as i64 - 7
    };
    let a = (0..m * k).map(|_| rnd()).collect();
    let b = (0..k * n).map(|_| rnd()).collect();
    (a, b)
}
