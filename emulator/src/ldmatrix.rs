//! `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`, computed over the warp with the
//! PTX ISA's semantics ("Warp-level matrix load instruction: ldmatrix"): lanes `8j..8j+7`
//! give the row addresses of matrix `j` (8 rows of 8 16-bit elements, each row 16-byte
//! aligned), and lane `l`'s register `j` receives row `l / 4`, elements `2 (l % 4)` (low
//! half) and `+1` (high half); with `.trans` the matrix is read transposed: column `l / 4`,
//! rows `2 (l % 4)` and `+1`.

use crate::cta::WarpColl;

/// Lane inputs: `[row address, ..]` (a host pointer into the CTA's shared memory, checked by
/// the caller); each lane gets `count` registers.
pub fn ldmatrix(wc: &mut WarpColl, count: usize, trans: bool) -> Result<(), String> {
    if wc.input.len() != 32 || !matches!(count, 1 | 2 | 4) {
        return Err(format!("ldmatrix.x{count} needs 32-lane warps and 1, 2 or 4 matrices"));
    }
    for lane in 0..8 * count {
        let a = wc.input[lane][0];
        if a % 16 != 0 {
            return Err(format!("ldmatrix row address {a:#x} of lane {lane} is not 16-byte aligned"));
        }
    }
    for lane in 0..32 {
        for j in 0..count {
            let mut w = 0u64;
            for h in 0..2 {
                let (row, col) = if trans { (2 * (lane % 4) + h, lane / 4) } else { (lane / 4, 2 * (lane % 4) + h) };
                let p = (wc.input[8 * j + row][0] as usize + 2 * col) as *const u16;
                // SAFETY: the caller checked each row address lies in the CTA's shared memory.
                w |= u64::from(unsafe { p.read() }) << (16 * h);
            }
            wc.out[lane][j] = w;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four 8x8 matrices with distinct entries; each lane's registers checked element by
    /// element against the matrix it should have read, plain and transposed.
    #[test]
    fn lanes_receive_rows_and_transposed_columns() {
        #[repr(align(16))]
        struct Rows([u16; 4 * 64]);
        let m = Rows(std::array::from_fn(|i| i as u16 * 3 + 1));
        // Matrix j's row r at element 64 j + 8 r, given by lane 8 j + r.
        let at = |lane: usize| m.0.as_ptr() as u64 + 2 * (64 * (lane / 8) + 8 * (lane % 8)) as u64;
        for trans in [false, true] {
            let mut wc = WarpColl { arrived: 0, site: 0, mask: u64::from(u32::MAX), input: (0..32).map(|l| [at(l), 0, 0, 0, 0, 0, 0, 0, 0, 0]).collect(), out: vec![[0; 4]; 32] };
            ldmatrix(&mut wc, 4, trans).unwrap();
            for lane in 0..32 {
                for j in 0..4 {
                    let el = |r: usize, c: usize| u64::from(m.0[64 * j + 8 * r + c]);
                    let (g, t) = (lane / 4, 2 * (lane % 4));
                    let want = if trans { el(t, g) | el(t + 1, g) << 16 } else { el(g, t) | el(g, t + 1) << 16 };
                    assert_eq!(wc.out[lane][j], want, "lane {lane} matrix {j} trans={trans}");
                }
            }
        }
        let mut bad = WarpColl { arrived: 0, site: 0, mask: u64::from(u32::MAX), input: (0..32).map(|l| [at(l) + 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]).collect(), out: vec![[0; 4]; 32] };
        assert!(ldmatrix(&mut bad, 1, false).unwrap_err().contains("not 16-byte aligned"));
    }
}
