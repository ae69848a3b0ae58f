//! A TMA kernel's tensor-map parameters on the emulator. The lowering appends one `ptr
//! byval([128 x i8]) align 64 "nvvm.grid_constant"` parameter per map after the kernel's
//! own (listed as [`TmaParam`]s, which name the arguments holding the matrix's pointer and
//! shape); a GPU launch fills them through the driver. Here the entry point computes each
//! from the launch's argument words instead: [`param`] bakes the `TmaParam` into the call,
//! and [`map`] resolves it once per CTA into the emulator's encoding
//! ([`TileMap::encode_emulated`](weft_runtime::cuda::tensor_map::TileMap::encode_emulated)),
//! kept with the CTA, so the kernel reads the map in place as it would the `.param`.

use crate::cta::lane;
use crate::ir::{Ir, Val};
use crate::slots::Slot;
use llvm_sys::core::*;
use weft_runtime::cuda::tensor_map::{TensorMap, TmaElem, TmaParam, TmaSwizzle};

const ELEMS: [TmaElem; 3] = [TmaElem::F16, TmaElem::Bf16, TmaElem::F32];
const SWIZZLES: [TmaSwizzle; 4] = [TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128];

/// `p` as two words: the argument indices (16 bits each), then the box, element and swizzle.
fn pack(p: &TmaParam) -> (i64, i64) {
    let which = p.ptr as i64 | (p.rows as i64) << 16 | (p.cols as i64) << 32 | (p.ld as i64) << 48;
    let e = ELEMS.iter().position(|&x| x == p.elem).unwrap_or(0) as i64;
    let s = SWIZZLES.iter().position(|&x| x == p.swizzle).unwrap_or(0) as i64;
    (which, p.box_rows as i64 | (p.box_cols as i64) << 16 | e << 32 | s << 40)
}

fn unpack(which: i64, boxes: i64) -> TmaParam {
    let f = |w: i64, at: u32| ((w >> at) & 0xffff) as usize;
    TmaParam {
        ptr: f(which, 0),
        rows: f(which, 16),
        cols: f(which, 32),
        ld: f(which, 48),
        box_rows: f(boxes, 0) as u32,
        box_cols: f(boxes, 16) as u32,
        elem: ELEMS[((boxes >> 32) & 0xff) as usize % 3],
        swizzle: SWIZZLES[((boxes >> 40) & 0xff) as usize % 4],
    }
}

/// Drops `byval` from the kernel's parameters: the thread entry passes each map's address,
/// which the kernel reads in place (as a `grid_constant` parameter is read on the GPU).
pub fn strip_byval(kernel: Val) {
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5);
        for i in 0..LLVMCountParams(kernel) {
            LLVMRemoveEnumAttributeAtIndex(kernel, i + 1, kind);
        }
    }
}

/// The address of tensor map `j` (parameter `p`), from the argument words at `slots`.
pub fn param(ir: &Ir, slots: Val, j: usize, p: &TmaParam) -> Val {
    let (which, boxes) = pack(p);
    let (j, which, boxes) = (ir.i32(j as i64), ir.i64(which), ir.i64(boxes));
    ir.rt(Slot::TmaMap, ir.i32(-1), &[j, slots, which, boxes])
}

/// The runtime side of [`param`]: map `j` of this CTA, resolved on first use.
pub extern "C" fn map(site: i32, j: i32, args: *const u64, which: i64, boxes: i64) -> *const u8 {
    let l = lane();
    let cta = l.cta();
    if let Some((_, m)) = cta.tma.maps.iter().find(|(k, _)| *k == j) {
        return m.0.as_ptr();
    }
    let p = unpack(which, boxes);
    let n = [p.ptr, p.rows, p.cols, p.ld].into_iter().max().unwrap_or(0) + 1;
    // SAFETY: the parameter names arguments of the kernel, which the launch passed.
    let words = unsafe { std::slice::from_raw_parts(args, n) };
    let m = p.resolve(words).and_then(|t| t.encode_emulated()).unwrap_or_else(|e| l.fault(site, &format!("tensor-map parameter {j}: {e}")));
    let m: Box<TensorMap> = Box::new(m);
    let at = m.0.as_ptr();
    cta.tma.maps.push((j, m));
    at
}

#[cfg(test)]
mod tests {
    #[test]
    fn parameters_survive_packing() {
        for (i, (&elem, &swizzle)) in super::ELEMS.iter().cycle().zip(super::SWIZZLES.iter()).enumerate() {
            let p = super::TmaParam { ptr: i, rows: 7 + i, cols: 300, ld: 65535, box_rows: 256, box_cols: 1 + i as u32, elem, swizzle };
            let (w, b) = super::pack(&p);
            assert_eq!(super::unpack(w, b), p);
        }
    }
}
