//! The retargeting of `mbarrier` and bulk-copy operations (LLVM 22's NVVM intrinsics, and the
//! same instructions as inline PTX through [`crate::tma_asm`]) into calls of the runtime's
//! [`Slot::Mbar`], [`Slot::BulkTensor`] and [`Slot::BulkGroup`].

use crate::ir::{Ir, Val};
use crate::mbarrier::op;
use crate::slots::Slot;
use crate::tma::{group_op, CHECK_BOUNDS, STORE};
use crate::EmuError;
use llvm_sys::core::*;
use llvm_sys::LLVMTypeKind;

/// The `Mbar` operation of an mbarrier intrinsic's name after `llvm.nvvm.mbarrier.`, with
/// its scope, space and `.shared` qualifiers dropped (they change nothing in one CTA).
pub fn mbar_op(rest: &str) -> Option<i32> {
    let mut base = rest.to_string();
    for q in [".relaxed", ".scope.cta", ".scope.cluster", ".space.cta", ".space.cluster", ".shared"] {
        base = base.replace(q, "");
    }
    Some(match base.as_str() {
        "init" => op::INIT,
        "inval" => op::INVAL,
        "arrive" => op::ARRIVE,
        "arrive.noComplete" => op::ARRIVE | op::NO_COMPLETE,
        "arrive.drop" => op::ARRIVE | op::DROP,
        "arrive.drop.noComplete" => op::ARRIVE | op::DROP | op::NO_COMPLETE,
        "arrive.expect.tx" => op::ARRIVE | op::EXPECT_TX,
        "arrive.drop.expect.tx" => op::ARRIVE | op::DROP | op::EXPECT_TX,
        "expect.tx" => op::EXPECT_TX_ONLY,
        "complete.tx" => op::COMPLETE_TX,
        "test.wait" | "try.wait" | "try.wait.tl" => op::WAIT_TOKEN,
        "test.wait.parity" | "try.wait.parity" | "try.wait.parity.tl" => op::WAIT_PARITY,
        _ => return None,
    })
}

/// The `BulkTensor` kind of a `cp.async.bulk.tensor` intrinsic (after the prefix): rank, and
/// whether it stores; `None` for the kinds the emulator does not run (im2col, gather,
/// reductions). Prefetches are `Some(None)`: nothing to do.
pub fn tensor_kind(rest: &str) -> Option<Option<i32>> {
    let (dir, rank) = rest.rsplit_once('.')?;
    let rank: i32 = rank.strip_suffix('d')?.parse().ok().filter(|r| (1..=5).contains(r))?;
    match dir {
        "g2s.tile" | "g2s.cta.tile" => Some(Some(rank)),
        "s2g.tile" => Some(Some(rank | STORE)),
        "prefetch.tile" => Some(None),
        _ => None,
    }
}

/// An `Mbar` call: `x` (an integer of any width, or absent) widened to i64.
pub fn mbar_call(ir: &Ir, site: Val, o: i32, p: Val, x: Option<Val>) -> Val {
    let x = match x {
        Some(v) if ir.kind(ir.type_of(v)) == LLVMTypeKind::LLVMIntegerTypeKind => unsafe { LLVMBuildZExtOrBitCast(ir.b, v, ir.int_ty(64), crate::ir::EMPTY) },
        _ => ir.i64(if o & 15 == op::ARRIVE { 1 } else { 0 }),
    };
    ir.rt(Slot::Mbar, site, &[ir.i32(o as i64), p, x])
}

/// The operands of a bulk tensor copy: shared memory, the map, the mbarrier (loads), the
/// coordinates.
pub struct BulkCopy<'a> {
    /// Shared-memory destination (load) or source (store).
    pub smem: Val,
    /// The tensor map's address.
    pub map: Val,
    /// The load's mbarrier.
    pub bar: Option<Val>,
    /// One coordinate per dimension.
    pub coords: &'a [Val],
}

/// A `BulkTensor` call: coordinates stored to a five-word buffer in the entry block.
pub fn tensor_call(ir: &Ir, site: Val, kind: i32, BulkCopy { smem, map, bar, coords }: BulkCopy, inst: Val, bounds: bool) {
    let kind = kind | if bounds { CHECK_BOUNDS } else { 0 };
    let buf = ir.entry_alloca(inst, 5);
    for (i, &c) in coords.iter().enumerate() {
        let at = ir.byte_offset(buf, 4 * i as u64);
        unsafe { LLVMBuildStore(ir.b, ir.to_i32(c), at) };
    }
    let bar = bar.unwrap_or_else(|| ir.null_ptr());
    ir.rt(Slot::BulkTensor, site, &[ir.i32(kind as i64), smem, map, bar, buf]);
}

/// Whether `v` is the constant `false` (a flag the emulator cannot honour otherwise).
fn is_false(v: Val) -> bool {
    unsafe { !LLVMIsAConstantInt(v).is_null() && LLVMConstIntGetZExtValue(v) == 0 }
}

/// The runtime call for an mbarrier or bulk-copy intrinsic `name`; `Ok(None)` if it is not
/// one, else the result (`None` for void calls) as [`crate::retarget`]'s `map_call` returns it.
pub fn call(ir: &Ir, name: &str, site: Val, a: &[Val], inst: Val, bounds: bool) -> Result<Option<Option<Val>>, EmuError> {
    let void = ir.kind(ir.type_of(inst)) == LLVMTypeKind::LLVMVoidTypeKind;
    if let Some(rest) = name.strip_prefix("llvm.nvvm.mbarrier.") {
        let Some(o) = mbar_op(rest) else { return Ok(None) };
        let v = mbar_call(ir, site, o, a[0], a.get(1).copied());
        return Ok(Some((!void).then_some(v)));
    }
    if let Some(rest) = name.strip_prefix("llvm.nvvm.cp.async.bulk.tensor.") {
        let Some(kind) = tensor_kind(rest) else { return Ok(None) };
        let Some(kind) = kind else { return Ok(Some(None)) };
        let n = (kind & 7) as usize;
        if kind & STORE != 0 {
            // (src, map, coords.., cache hint, use hint)
            tensor_call(ir, site, kind, BulkCopy { smem: a[0], map: a[1], bar: None, coords: &a[2..2 + n] }, inst, bounds);
        } else {
            // (dst, bar, map, coords.., [multicast mask,] cache hint, [use multicast,] use hint[, cta group])
            if !rest.starts_with("g2s.cta.") && !is_false(a[3 + n + 2]) {
                return Err(EmuError::Unsupported("a multicast cp.async.bulk.tensor (clusters are not emulated)".into()));
            }
            tensor_call(ir, site, kind, BulkCopy { smem: a[0], map: a[2], bar: Some(a[1]), coords: &a[3..3 + n] }, inst, bounds);
        }
        return Ok(Some(None));
    }
    let group = |o: i32, n: Val| {
        ir.rt(Slot::BulkGroup, site, &[ir.i32(o as i64), n]);
        Ok(Some(None))
    };
    match name {
        "llvm.nvvm.cp.async.bulk.commit.group" => group(group_op::COMMIT, ir.i32(0)),
        "llvm.nvvm.cp.async.bulk.wait.group" => group(group_op::WAIT, a[0]),
        "llvm.nvvm.cp.async.bulk.wait.group.read" => group(group_op::WAIT_READ, a[0]),
        // Proxy fences order nothing here: copies land at scheduling points (see `tma`).
        n if n.starts_with("llvm.nvvm.fence.proxy.async") || n.starts_with("llvm.nvvm.fence.mbarrier_init") => Ok(Some(None)),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_operations() {
        assert_eq!(mbar_op("init.shared"), Some(op::INIT));
        assert_eq!(mbar_op("arrive.expect.tx.scope.cta.space.cta"), Some(op::ARRIVE | op::EXPECT_TX));
        assert_eq!(mbar_op("arrive.drop.expect.tx.relaxed.scope.cluster.space.cluster"), Some(op::ARRIVE | op::DROP | op::EXPECT_TX));
        assert_eq!(mbar_op("try.wait.parity.tl.relaxed.scope.cta.space.cta"), Some(op::WAIT_PARITY));
        assert_eq!(mbar_op("test.wait.shared"), Some(op::WAIT_TOKEN));
        assert_eq!(mbar_op("pending.count"), None);
        assert_eq!(tensor_kind("g2s.tile.2d"), Some(Some(2)));
        assert_eq!(tensor_kind("g2s.cta.tile.5d"), Some(Some(5)));
        assert_eq!(tensor_kind("s2g.tile.3d"), Some(Some(3 | STORE)));
        assert_eq!(tensor_kind("prefetch.tile.2d"), Some(None));
        assert_eq!(tensor_kind("g2s.im2col.3d"), None);
        assert_eq!(tensor_kind("g2s.tile.6d"), None);
    }
}
