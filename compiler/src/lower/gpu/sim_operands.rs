//! Test operands shared by the plain-Rust simulations of the tensor-core paths (ldmatrix,
//! wgmma, MFMA): small integers, exact in f16 and bf16, so a simulated dot must equal the naive one;
//! and the padded stash of a blocked tile.

use super::layout::Blocked;

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

/// Element `e` (row-major in a `cols`-wide tile) where `stash_padded` puts it, checked
/// against what each thread's stores write.
pub(crate) fn stash(vals: &[u16], cols: usize, pad: usize, l: &Blocked, out: &mut [u16], at: usize) {
    let w = l.per.min(cols);
    for t in 0..l.threads {
        if l.replicated() {
            let b = t * l.numel / l.threads;
            if (t * l.numel) % l.threads < l.numel {
                out[at + b + (b / cols) * pad] = vals[b];
            }
            continue;
        }
        let b = t * l.per;
        let idx = b + (b / cols) * pad;
        for piece in 0..l.per / w {
            for i in 0..w {
                let e = b + piece * w + i;
                assert_eq!(idx + piece * (cols + pad) + i, e + (e / cols) * pad, "a store piece straddles a row");
                out[at + idx + piece * (cols + pad) + i] = vals[e];
            }
        }
    }
}
