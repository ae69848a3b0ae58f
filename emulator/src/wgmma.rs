//! `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}` (sm_90a), computed per thread: a
//! thread's accumulator registers are the D fragment elements of its warp's 16 rows (PTX ISA
//! "wgmma D fragment"), each the dot product of an A row and a B column read from the CTA's
//! shared memory through the two matrix descriptors (start address, LBO, SBO, swizzle mode:
//! the canonical layouts in `weft_compiler::lower::gpu::wgmma_desc`). The product is done at
//! issue, so the proxy fences are no-ops here; what the emulator checks is that the operands
//! are in shared memory, where the descriptors say, when the instruction issues (the copies
//! waited for, the barrier met), and that they stay there until the `wait_group` that retires
//! it (`wgmma_groups`).

use crate::cta::lane;
use weft_compiler::lower::gpu::wgmma_desc::{canonical_address, d_fragment, decode, Major, WG_K};

/// `kind`: bit 0 set for f16 (else bf16), bits 1-9 N, bit 16 `tnspA`, bit 17 `tnspB`.
pub fn kind(n: usize, f16: bool, tnsp_a: bool, tnsp_b: bool) -> i32 {
    (f16 as i32) | ((n as i32) << 1) | ((tnsp_a as i32) << 16) | ((tnsp_b as i32) << 17)
}

/// One `wgmma` for the calling thread: `io` holds its `N / 2` f32 accumulators (as words),
/// updated in place.
pub extern "C" fn mma_async(site: i32, kind: i32, desc_a: i64, desc_b: i64, io: *mut u32) {
    let l = lane();
    let cta = l.cta();
    let (base, len) = (cta.smem.as_ptr() as usize, cta.smem.len() * 8);
    let n = ((kind >> 1) & 0x1ff) as usize;
    let f16 = kind & 1 != 0;
    let major = |t: bool| if t { Major::Mn } else { Major::K };
    let (ma, mb) = (major(kind >> 16 & 1 != 0), major(kind >> 17 & 1 != 0));
    let (warp, ln) = ((l.tid as usize / 32) % 4, l.tid as usize % 32);
    // The descriptor keeps 14 bits of `address >> 4`; the CTA's shared memory is smaller
    // than 256 KiB, so the offset from its base is those bits less the base's.
    // The bytes each operand spans (A, B), checked against TMA copies still in flight.
    let mut spans = [(usize::MAX, 0usize); 2];
    let mut operand = |desc: i64, m: Major, mn: usize, k: usize| -> f32 {
        let (start, lbo, sbo, swizzle) = decode(desc as u64);
        if swizzle == 0 {
            l.fault(site, "wgmma descriptor without a swizzle mode: the emulator implements the 32/64/128-byte swizzled layouts only");
        }
        let start = ((start / 16).wrapping_sub(base >> 4) & 0x3fff) * 16;
        let at = canonical_address(m, start, lbo, sbo, swizzle, mn, k);
        if at + 2 > len {
            l.fault(site, &format!("wgmma reads shared byte {at}: outside the CTA's {len} bytes"));
        }
        // SAFETY: checked to lie in the CTA's shared memory just above.
        let bits = unsafe { ((base + at) as *const u16).read_unaligned() };
        l.wgmma.push((at as u32, bits));
        let s = &mut spans[(desc != desc_a) as usize];
        *s = (s.0.min(at), s.1.max(at + 2));
        if f16 { half::f16::from_bits(bits).to_f32() } else { half::bf16::from_bits(bits).to_f32() }
    };
    // SAFETY: the retargeted code passes an `N / 2`-word buffer of its own frame.
    let words = unsafe { std::slice::from_raw_parts_mut(io, n / 2) };
    for (slot, w) in words.iter_mut().enumerate() {
        let (r, c) = d_fragment(warp, ln, slot);
        let mut acc = f32::from_bits(*w);
        for k in 0..WG_K {
            acc += operand(desc_a, ma, r, k) * operand(desc_b, mb, c, k);
        }
        *w = acc.to_bits();
    }
    for (lo, hi) in spans.into_iter().filter(|s| s.0 < s.1) {
        if let Err(e) = cta.tma.access(cta, l.tid, lo, hi - lo, false) {
            l.fault(site, &e);
        }
        // The operands are reads for the race check too: a copy issued into them before a
        // barrier separates it from this wgmma (a TMA refill of a slot still being read) is
        // a race even when the emulator happens to land it after the read.
        if let Some(Err(e)) = cta.race.as_mut().map(|r| r.access(l.tid, lo, hi - lo, false)) {
            l.fault(site, &format!("wgmma operand: {e}"));
        }
    }
}

/// The `kind` of the `wgmma.mma_async` in inline PTX `asm`, if it is one the lowering emits
/// (`m64nNk16.f32.{bf16,f16}`, scale 1, transposes given).
pub fn parse(asm: &str) -> Option<i32> {
    let rest = &asm[asm.find("wgmma.mma_async.sync.aligned.m64n")? + "wgmma.mma_async.sync.aligned.m64n".len()..];
    let n: usize = rest[..rest.find('k')?].parse().ok()?;
    let f16 = if rest.contains("k16.f32.bf16.bf16") {
        false
    } else if rest.contains("k16.f32.f16.f16") {
        true
    } else {
        return None;
    };
    let tail = rest[rest.find("p, 1, 1, ")? + "p, 1, 1, ".len()..].split(';').next()?;
    let flags: Vec<&str> = tail.split(',').map(str::trim).collect();
    let [a, b] = flags[..] else { return None };
    Some(kind(n, f16, a == "1", b == "1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_lowerings_asm() {
        let asm = "{\n.reg .pred p;\nsetp.ne.b32 p, $34, 0;\nwgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0}, $32, $33, p, 1, 1, 0, 1;\n}";
        assert_eq!(parse(asm), Some(kind(64, false, false, true)));
        assert_eq!(parse(&asm.replace("bf16.bf16", "f16.f16").replace("n64k", "n256k")), Some(kind(256, true, false, true)));
        assert_eq!(parse("wgmma.wait_group.sync.aligned 0;"), None);
    }
}
