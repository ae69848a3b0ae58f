//! The bytes one tiled `cp.async.bulk.tensor` moves, in plain Rust: the box of a tensor map
//! ([`EmuTensorMap`]) at signed element coordinates, traversed at its element strides, packed
//! densely in shared memory (innermost dimension fastest) and then swizzled by shared-memory
//! address as the hardware does (CUTLASS `Swizzle<log2(span / 16), 4, 3>`: the 16-byte chunk
//! bits 4.. of the address XORed with bits 7.., the compiler's [`swizzle`]). Elements outside
//! the tensor read as zeros (or NaN, as the map asks) and are never written back by a store;
//! they still count in the box's bytes.

use weft_compiler::lower::gpu::wgmma_desc::swizzle;
use weft_runtime::cuda::tensor_map_emu::EmuTensorMap;

/// The shared-memory byte offset element byte `linear` of a box copied to `dst` lands at.
pub fn smem_byte(m: &EmuTensorMap, dst: usize, linear: usize) -> usize {
    match m.swizzle_span() {
        0 => dst + linear,
        span => swizzle(dst + linear, span as usize),
    }
}

/// Each element of the box at `coords` (one per map dimension): its byte offset in the
/// dense box and its global address, `None` when outside the tensor.
pub fn elements(m: &EmuTensorMap, coords: &[i32], mut f: impl FnMut(usize, Option<u64>)) {
    let n: Vec<u64> = (0..m.rank).map(|i| m.box_elems(i)).collect();
    let total: u64 = n.iter().product();
    let esize = m.elem_bytes();
    for e in 0..total {
        let (mut rest, mut addr, mut inside) = (e, m.base, true);
        for i in 0..m.rank {
            let j = rest % n[i];
            rest /= n[i];
            let g = coords[i] as i64 + (j * m.elem_strides[i] as u64) as i64;
            inside &= g >= 0 && (g as u64) < m.dims[i];
            addr = addr.wrapping_add((g as u64).wrapping_mul(m.strides[i]));
        }
        f((e * esize) as usize, inside.then_some(addr));
    }
}

/// The bits an out-of-bounds element reads as (`esize` bytes, little-endian).
fn fill(m: &EmuTensorMap) -> u64 {
    if !m.oob_nan {
        return 0;
    }
    match m.dtype {
        6 => 0x7e00,
        9 => 0x7fc0,
        8 => 0x7ff8_0000_0000_0000,
        _ => 0x7fc0_0000,
    }
}

/// Checks the box's swizzled footprint at `dst` lies in `len` bytes of shared memory.
pub fn check_footprint(m: &EmuTensorMap, dst: usize, len: usize) -> Result<(), String> {
    if !dst.is_multiple_of(128) {
        return Err(format!("a bulk tensor copy's shared-memory address must be 128-byte aligned, not shared byte {dst}"));
    }
    let bytes = m.box_bytes() as usize;
    // A swizzle only permutes 16-byte chunks within each 128-byte line.
    let end = if m.swizzle_span() > 0 { (dst + bytes).div_ceil(128) * 128 } else { dst + bytes };
    if end > len {
        return Err(format!("the box of {bytes} bytes at shared byte {dst} ends past the CTA's {len} bytes of shared memory"));
    }
    Ok(())
}

/// Global to shared: the box at `coords` into `smem` at `dst` (footprint checked).
///
/// # Safety
/// Every in-bounds element's global address must be readable.
pub unsafe fn load(m: &EmuTensorMap, coords: &[i32], smem: &mut [u8], dst: usize) {
    let esize = m.elem_bytes() as usize;
    let oob = fill(m).to_le_bytes();
    elements(m, coords, |lin, g| {
        for (b, &fill) in oob.iter().enumerate().take(esize) {
            let at = smem_byte(m, dst, lin + b);
            // SAFETY: the caller's.
            smem[at] = match g {
                Some(a) => unsafe { ((a as usize + b) as *const u8).read() },
                None => fill,
            };
        }
    });
}

/// Shared to global: the in-bounds elements of the box at `coords` from `smem` at `src`.
///
/// # Safety
/// Every in-bounds element's global address must be writable.
pub unsafe fn store(m: &EmuTensorMap, coords: &[i32], smem: &[u8], src: usize) {
    let esize = m.elem_bytes() as usize;
    elements(m, coords, |lin, g| {
        if let Some(a) = g {
            for b in 0..esize {
                // SAFETY: the caller's.
                unsafe { ((a as usize + b) as *mut u8).write(smem[smem_byte(m, src, lin + b)]) };
            }
        }
    });
}
