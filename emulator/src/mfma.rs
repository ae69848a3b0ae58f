//! `v_mfma_f32_{32x32x8,16x16x16}_{bf16,f16}` (gfx90a, gfx942) over a 64-lane wavefront, with
//! the register maps of AMD's CDNA3 ISA ("Matrix fused multiply-add"), written here from the
//! ISA and not taken from the compiler: for `S x S` output blocks and depth `K = 256 / S`,
//! lane `l` brings A row `l % S` and B column `l % S`, k `4 (l / S)` to `+3` (four 16-bit
//! elements in two words each), and its accumulator register `v` is row
//! `8 (v / 4) + 4 (l / S) + v % 4`, column `l % S`.

use crate::cta::WarpColl;

/// `kind`: `S` (32 or 16) in the low byte, bit 8 set for f16 operands (else bf16).
pub fn kind(name: &str) -> Option<i32> {
    match name {
        "mfma.f32.32x32x8bf16.1k" => Some(32),
        "mfma.f32.16x16x16bf16.1k" => Some(16),
        "mfma.f32.32x32x8f16" => Some(32 | 0x100),
        "mfma.f32.16x16x16f16" => Some(16 | 0x100),
        _ => None,
    }
}

/// Lane inputs: `[io]`, a pointer to the lane's words: A (2), B (2), then its `S * S / 64`
/// accumulators, overwritten with the results.
pub fn mfma(wc: &mut WarpColl, kind: i32) -> Result<(), String> {
    if wc.input.len() != 64 {
        return Err("MFMA needs 64-lane wavefronts".into());
    }
    let (s, f16) = ((kind & 0xff) as usize, kind & 0x100 != 0);
    let io: Vec<*mut u32> = wc.input.iter().map(|i| i[0] as usize as *mut u32).collect();
    // Element `j` (0-3) of the operand at word `w` (0: A, 2: B) of `lane`.
    let el = |lane: usize, w: usize, j: usize| {
        // SAFETY: every lane's buffer lives in its parked frame for the collective.
        let word = unsafe { *io[lane].add(w + j / 2) };
        let bits = (word >> (16 * (j % 2))) as u16;
        if f16 { half::f16::from_bits(bits).to_f32() } else { half::bf16::from_bits(bits).to_f32() }
    };
    for (lane, &p) in io.iter().enumerate() {
        for v in 0..s * s / 64 {
            let (row, col) = (8 * (v / 4) + 4 * (lane / s) + v % 4, lane % s);
            // SAFETY: as above; this lane's accumulator `v`.
            let c = unsafe { p.add(4 + v) };
            let mut acc = f32::from_bits(unsafe { *c });
            for k in 0..256 / s {
                let src = (k / 4) * s;
                acc = el(src + row, 0, k % 4).mul_add(el(src + col, 2, k % 4), acc);
            }
            unsafe { *c = acc.to_bits() };
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random-ish integer blocks through the wavefront, checked against a naive product.
    #[test]
    fn wavefront_products_match_a_naive_block_product() {
        for (name, s) in [("mfma.f32.32x32x8bf16.1k", 32), ("mfma.f32.16x16x16f16", 16)] {
            let k = kind(name).unwrap();
            let f16 = k & 0x100 != 0;
            let kd = 256 / s;
            let val = |i: usize, j: usize, t: usize| ((i * 7 + j * 3 + t) % 9) as f32 - 4.0;
            let bits = |x: f32| if f16 { half::f16::from_f32(x).to_bits() } else { half::bf16::from_f32(x).to_bits() };
            let per = s * s / 64;
            let mut bufs: Vec<Vec<u32>> = (0..64)
                .map(|lane| {
                    let (i, k0) = (lane % s, 4 * (lane / s));
                    let pack = |t: usize| (0..2).map(move |w| u32::from(bits(val(i, k0 + 2 * w, t))) | u32::from(bits(val(i, k0 + 2 * w + 1, t))) << 16);
                    pack(0).chain(pack(1)).chain((0..per).map(|v| (v as f32).to_bits())).collect()
                })
                .collect();
            let mut wc = WarpColl { arrived: 0, site: 0, mask: u64::MAX, input: bufs.iter_mut().map(|b| [b.as_mut_ptr() as u64, 0, 0, 0, 0, 0, 0, 0, 0, 0]).collect(), out: vec![[0; 4]; 64] };
            mfma(&mut wc, k).unwrap();
            // A[r][kk] = val(r, kk, 0), B[kk][c] = val(c, kk, 1).
            for (lane, b) in bufs.iter().enumerate() {
                for v in 0..per {
                    let (r, c) = (8 * (v / 4) + 4 * (lane / s) + v % 4, lane % s);
                    let want = v as f32 + (0..kd).map(|kk| val(r, kk, 0) * val(c, kk, 1)).sum::<f32>();
                    assert_eq!(f32::from_bits(b[4 + v]), want, "{name} lane {lane} v{v}");
                }
            }
        }
        let mut narrow = WarpColl { arrived: 0, site: 0, mask: u64::from(u32::MAX), input: vec![[0; 10]; 32], out: vec![[0; 4]; 32] };
        assert!(mfma(&mut narrow, 32).unwrap_err().contains("64-lane"));
    }
}
