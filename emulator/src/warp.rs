//! The warp-collective instructions, computed over all lanes' operands at once with PTX's
//! semantics: `shfl.sync.bfly` and `.idx` (source lane, clamp and segment mask) and
//! `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}.f32` (the ISA's fragment layouts).

use crate::cta::WarpColl;

/// `shfl.sync.bfly.b32` (`mode` 0) and `shfl.sync.idx.b32` (1): lane inputs are `[a, b, c,
/// mode]`; each lane in the mask gets `a` of lane `lane ^ b` (bfly) or lane `b` within its
/// segment (idx), or its own when that passes the clamp. Reading a lane outside the member
/// mask is undefined in PTX, so it is an error here.
pub fn shfl(wc: &mut WarpColl) -> Result<(), String> {
    let mask = wc.mask;
    for lane in 0..wc.input.len() {
        if mask & (1 << lane) == 0 {
            continue;
        }
        let [_, b, c, mode, ..] = wc.input[lane];
        let (b, clamp, seg) = (b as usize & 0x1f, c as usize & 0x1f, (c as usize >> 8) & 0x1f);
        let max_lane = (lane & seg) | (clamp & !seg);
        let mut j = if mode == 1 { (lane & seg) | (b & !seg) } else { lane ^ b };
        if j > max_lane {
            j = lane;
        }
        if mask & (1 << j) == 0 {
            return Err(format!("lane {lane} reads lane {j}, which is outside the member mask {mask:#x}"));
        }
        wc.out[lane][0] = wc.input[j][0];
    }
    Ok(())
}

/// Element `h` (0 low, 1 high) of a 32-bit register of two 16-bit values, as f32.
fn half_of(reg: u64, h: usize, bf16: bool) -> f32 {
    let bits = ((reg >> (16 * h)) & 0xffff) as u16;
    if bf16 { half::bf16::from_bits(bits).to_f32() } else { half::f16::from_bits(bits).to_f32() }
}

/// `mma.sync.aligned.m16n8k16.row.col` with f32 accumulators: lane inputs are a0-a3, b0-b1,
/// c0-c3 (f32 bits); outputs d0-d3. Fragments as in the PTX ISA ("Matrix Fragments for
/// mma.m16n8k16 with floating point type"): with g = lane / 4 and t = lane % 4, A element
/// `a_i` is row g (+8 for i in 2,3,6,7), column 2t + i % 2 (+8 for i >= 4); B element `b_i`
/// is row 2t + i % 2 (+8 for i >= 2), column g; C/D element `c_i` row g (+8 for i >= 2),
/// column 2t + i % 2. Register r holds elements 2r (low half) and 2r + 1.
pub fn mma_m16n8k16(wc: &mut WarpColl, bf16: bool) -> Result<(), String> {
    if wc.input.len() != 32 {
        return Err("mma.sync needs 32-lane warps".into());
    }
    let (mut a, mut b, mut c) = ([[0f32; 16]; 16], [[0f32; 8]; 16], [[0f32; 8]; 16]);
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        let inp = &wc.input[lane];
        for i in 0..8 {
            let row = g + if matches!(i, 2 | 3 | 6 | 7) { 8 } else { 0 };
            let col = 2 * t + i % 2 + if i >= 4 { 8 } else { 0 };
            a[row][col] = half_of(inp[i / 2], i % 2, bf16);
        }
        for i in 0..4 {
            let k = 2 * t + i % 2 + if i >= 2 { 8 } else { 0 };
            b[k][g] = half_of(inp[4 + i / 2], i % 2, bf16);
        }
        for i in 0..4 {
            c[g + if i >= 2 { 8 } else { 0 }][2 * t + i % 2] = f32::from_bits(inp[6 + i] as u32);
        }
    }
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, 2 * t + i % 2);
            let mut acc = c[row][col];
            for (k, bk) in b.iter().enumerate() {
                acc = a[row][k].mul_add(bk[col], acc);
            }
            wc.out[lane][i] = acc.to_bits() as u64;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(inputs: impl Fn(usize) -> [u64; 10], mask: u64) -> WarpColl {
        WarpColl { arrived: 0, site: 0, mask, input: (0..32).map(inputs).collect(), out: vec![[0; 4]; 32] }
    }

    #[test]
    fn butterfly_swaps_partners_and_rejects_lanes_outside_the_mask() {
        let mut wc = warp(|l| [100 + l as u64, 4, 31, 0, 0, 0, 0, 0, 0, 0], u64::from(u32::MAX));
        shfl(&mut wc).unwrap();
        assert!((0..32).all(|l| wc.out[l][0] == 100 + (l ^ 4) as u64));
        let mut half = warp(|l| [l as u64, 16, 31, 0, 0, 0, 0, 0, 0, 0], 0xffff);
        assert!(shfl(&mut half).unwrap_err().contains("outside the member mask"));
    }

    #[test]
    fn index_shuffle_reads_one_lane_per_segment() {
        // Whole warp: every lane reads lane 5; segments of 8 (c = 0x1807): lane 5 of each.
        let mut wc = warp(|l| [100 + l as u64, 5, 31, 1, 0, 0, 0, 0, 0, 0], u64::from(u32::MAX));
        shfl(&mut wc).unwrap();
        assert!((0..32).all(|l| wc.out[l][0] == 105));
        let mut seg = warp(|l| [100 + l as u64, 5, 0x1807, 1, 0, 0, 0, 0, 0, 0], u64::from(u32::MAX));
        shfl(&mut seg).unwrap();
        assert!((0..32).all(|l| wc.out[l][0] == 105 && seg.out[l][0] == 100 + ((l & !7) | 5) as u64));
    }

    /// A random 16x16 A and 16x8 B, fragments built from the PTX tables independently
    /// (by enumerating owners), checked against a plain triple loop.
    #[test]
    fn mma_matches_a_naive_product() {
        let a = |r: usize, k: usize| ((r * 7 + k * 3) % 11) as f32 - 5.0;
        let b = |k: usize, n: usize| ((k * 5 + n * 13) % 9) as f32 * 0.5 - 2.0;
        let bits = |x: f32| u64::from(half::bf16::from_f32(x).to_bits());
        let pack = |lo: f32, hi: f32| bits(lo) | bits(hi) << 16;
        let mut wc = warp(
            |l| {
                let (g, t) = (l / 4, 2 * (l % 4));
                [
                    pack(a(g, t), a(g, t + 1)),
                    pack(a(g + 8, t), a(g + 8, t + 1)),
                    pack(a(g, t + 8), a(g, t + 9)),
                    pack(a(g + 8, t + 8), a(g + 8, t + 9)),
                    pack(b(t, g), b(t + 1, g)),
                    pack(b(t + 8, g), b(t + 9, g)),
                    1f32.to_bits() as u64,
                    1f32.to_bits() as u64,
                    1f32.to_bits() as u64,
                    1f32.to_bits() as u64,
                ]
            },
            u64::from(u32::MAX),
        );
        mma_m16n8k16(&mut wc, true).unwrap();
        for l in 0..32 {
            let (g, t) = (l / 4, 2 * (l % 4));
            for (i, (r, c)) in [(g, t), (g, t + 1), (g + 8, t), (g + 8, t + 1)].into_iter().enumerate() {
                let want: f32 = 1.0 + (0..16).map(|k| a(r, k) * b(k, c)).sum::<f32>();
                assert_eq!(f32::from_bits(wc.out[l][i] as u32), want, "lane {l} d{i}");
            }
        }
    }
}
