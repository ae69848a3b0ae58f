//! The mbarrier and bulk-copy instructions as inline PTX (CUTLASS's and CUDA C++'s forms):
//! one instruction, alone or in a `{ .reg ...; ... }` block, maybe in a `try_wait` spin loop
//! (`@P bra`) and with its predicate returned through `selp`. Operands are `$N` (output
//! `N` or input `N - outputs`) or immediates; shared addresses must be pointers (a 32-bit
//! shared-window address has no meaning on the host). [`parse`] is plain text;
//! [`emit`] makes the runtime calls.

use crate::ir::{Ir, Val};
use crate::mbarrier::op;
use crate::tma::{group_op, STORE};
use crate::EmuError;
use llvm_sys::LLVMTypeKind;

/// An operand of the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    /// `$N`: asm operand N (outputs first).
    Arg(usize),
    /// An integer literal.
    Imm(i64),
}

/// What an inline PTX string does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsmOp {
    /// An `Mbar` operation on the object at `p`, with `x`; `out`: its result goes to the
    /// asm's output (the token, or the wait's predicate).
    Mbar { op: i32, p: Opnd, x: Option<Opnd>, out: bool },
    /// A `BulkTensor` copy.
    Tensor { kind: i32, smem: Opnd, map: Opnd, bar: Option<Opnd>, coords: Vec<Opnd> },
    /// A `BulkGroup` operation.
    Group { op: i32, n: i64 },
    /// A fence, which orders nothing here.
    Nop,
}

/// Splits at commas outside brackets and braces.
fn split(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (vec![], String::new(), 0);
    for ch in s.chars() {
        match ch {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn opnd(s: &str) -> Option<Opnd> {
    let s = s.trim().trim_start_matches('[').trim_end_matches(']').trim();
    if let Some(n) = s.strip_prefix('$') {
        return n.parse().ok().map(Opnd::Arg);
    }
    if let Some(h) = s.strip_prefix("0x") {
        return i64::from_str_radix(h, 16).ok().map(Opnd::Imm);
    }
    s.parse().ok().map(Opnd::Imm)
}

/// `st` without a leading `LABEL:`.
fn drop_label(st: &str) -> &str {
    match st.split_once(':') {
        Some((l, r)) if !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') && !r.starts_with(':') => r.trim(),
        _ => st,
    }
}

/// The opcode of the instruction in `asm` (for the call site's name).
pub fn opcode(asm: &str) -> String {
    statements(asm).0.first().and_then(|s| s.split_whitespace().next()).unwrap_or("asm").to_string()
}

/// The instruction statements of `asm` (declarations, labels, branches and `selp` dropped),
/// and whether a `selp` hands a predicate to an output.
fn statements(asm: &str) -> (Vec<String>, bool) {
    let mut selp = false;
    let mut out = vec![];
    for st in asm.split([';', '\n']) {
        let st = st.trim().trim_start_matches('{').trim_end_matches('}').trim();
        let st = drop_label(st);
        let word = st.split_whitespace().next().unwrap_or("");
        if word.starts_with("selp") {
            selp = true;
        }
        if st.is_empty() || word.starts_with(".reg") || word.starts_with('@') || word == "bra" || word.starts_with("bra.") || word.starts_with("selp") {
            continue;
        }
        out.push(st.to_string());
    }
    (out, selp)
}

/// The operation of inline PTX `asm`, `None` if it is not an mbarrier or bulk-copy one.
pub fn parse(asm: &str) -> Option<AsmOp> {
    let (sts, selp) = statements(asm);
    let [st] = &sts[..] else { return None };
    let (word, rest) = st.split_once(char::is_whitespace).unwrap_or((st, ""));
    let ops = split(rest);
    if word.starts_with("fence.proxy.async") || word.starts_with("fence.mbarrier_init") {
        return Some(AsmOp::Nop);
    }
    if let Some(q) = word.strip_prefix("cp.async.bulk.") {
        let group = |o: i32| Some(AsmOp::Group { op: o, n: ops.first().and_then(|n| n.parse().ok()).unwrap_or(0) });
        match q {
            "commit_group" => return Some(AsmOp::Group { op: group_op::COMMIT, n: 0 }),
            "wait_group" => return group(group_op::WAIT),
            "wait_group.read" => return group(group_op::WAIT_READ),
            _ => {}
        }
        let q = q.strip_prefix("tensor.")?;
        let rank: i32 = q.get(..1)?.parse().ok()?;
        let tensor = |g: &str| -> Option<(Opnd, Vec<Opnd>)> {
            let inner = split(g.trim().strip_prefix('[')?.strip_suffix(']')?);
            let coords = inner.get(1)?.trim().strip_prefix('{')?.strip_suffix('}')?;
            Some((opnd(&inner[0])?, split(coords).iter().map(|c| opnd(c)).collect::<Option<_>>()?))
        };
        if q.contains(".global.shared::cta") && q.contains("bulk_group") {
            let (map, coords) = tensor(ops.first()?)?;
            return Some(AsmOp::Tensor { kind: rank | STORE, smem: opnd(ops.get(1)?)?, map, bar: None, coords });
        }
        if q.contains(".global.") && q.contains("mbarrier::complete_tx::bytes") && !q.contains("multicast") && !q.contains("im2col") {
            let (map, coords) = tensor(ops.get(1)?)?;
            return Some(AsmOp::Tensor { kind: rank, smem: opnd(&ops[0])?, map, bar: Some(opnd(ops.get(2)?)?), coords });
        }
        return None;
    }
    let q = word.strip_prefix("mbarrier.")?;
    let name = q.split('.').take_while(|p| !matches!(*p, "shared" | "shared::cta" | "shared::cluster" | "b64" | "release" | "acquire" | "relaxed" | "cta" | "cluster")).collect::<Vec<_>>().join(".");
    // PTX spells the intrinsics' words with underscores (`arrive_drop.expect_tx`).
    let o = crate::tma_ir::mbar_op(&name.replace('_', "."))?;
    // Arrivals and waits name their result first (`_`, a `$N`, or a local register).
    let has_result = o & 15 == op::ARRIVE || o == op::WAIT_TOKEN || o == op::WAIT_PARITY;
    let (out, ops) = if has_result { (selp || ops.first().is_some_and(|r| r.starts_with('$')), &ops[1..]) } else { (false, &ops[..]) };
    Some(AsmOp::Mbar { op: o, p: opnd(ops.first()?)?, x: ops.get(1).and_then(|x| opnd(x)), out })
}

/// Makes the runtime calls of `a` for the inline-asm call `inst` (operands `args`, `outs`
/// outputs); the value to replace its result with, if it has one.
pub fn emit(ir: &Ir, a: &AsmOp, site: Val, args: &[Val], outs: usize, inst: Val, bounds: bool) -> Result<Option<Val>, EmuError> {
    let val = |o: Opnd| -> Result<Val, EmuError> {
        match o {
            Opnd::Imm(v) => Ok(ir.i64(v)),
            Opnd::Arg(n) => n.checked_sub(outs).and_then(|i| args.get(i).copied()).ok_or_else(|| EmuError::Unsupported(format!("inline PTX operand ${n} (an output, or missing)"))),
        }
    };
    let ptr = |o: Opnd| -> Result<Val, EmuError> {
        let v = val(o)?;
        match ir.kind(ir.type_of(v)) {
            LLVMTypeKind::LLVMPointerTypeKind => Ok(v),
            _ if ir.store_size(ir.type_of(v)) == 8 => Ok(ir.int_cast(v, ir.ptr_ty())),
            _ => Err(EmuError::Unsupported("a 32-bit shared-window address in inline PTX: pass shared memory as a pointer".into())),
        }
    };
    match a {
        AsmOp::Nop => Ok(None),
        AsmOp::Group { op, n } => {
            ir.rt(crate::slots::Slot::BulkGroup, site, &[ir.i32(*op as i64), ir.i32(*n)]);
            Ok(None)
        }
        AsmOp::Mbar { op, p, x, out } => {
            let x = x.map(val).transpose()?;
            let v = crate::tma_ir::mbar_call(ir, site, *op, ptr(*p)?, x);
            Ok(out.then_some(v))
        }
        AsmOp::Tensor { kind, smem, map, bar, coords } => {
            let coords = coords.iter().map(|&c| val(c)).collect::<Result<Vec<_>, _>>()?;
            let bar = bar.map(ptr).transpose()?;
            crate::tma_ir::tensor_call(ir, site, *kind, crate::tma_ir::BulkCopy { smem: ptr(*smem)?, map: ptr(*map)?, bar, coords: &coords }, inst, bounds);
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Opnd::*;

    #[test]
    fn parses_cutlass_forms() {
        assert_eq!(parse("mbarrier.init.shared::cta.b64 [$0], $1;"), Some(AsmOp::Mbar { op: op::INIT, p: Arg(0), x: Some(Arg(1)), out: false }));
        assert_eq!(parse("mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;"), Some(AsmOp::Mbar { op: op::ARRIVE | op::EXPECT_TX, p: Arg(0), x: Some(Arg(1)), out: false }));
        assert_eq!(parse("mbarrier.arrive.release.cta.shared::cta.b64 $0, [$1];"), Some(AsmOp::Mbar { op: op::ARRIVE, p: Arg(1), x: None, out: true }));
        let spin = "{\n.reg .pred P1;\nLAB_WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [$0], $1;\n@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}";
        assert_eq!(parse(spin), Some(AsmOp::Mbar { op: op::WAIT_PARITY, p: Arg(0), x: Some(Arg(1)), out: false }));
        let selp = "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [$1], $2, 0x989680;\nselp.u32 $0, 1, 0, p;\n}";
        assert_eq!(parse(selp), Some(AsmOp::Mbar { op: op::WAIT_PARITY, p: Arg(1), x: Some(Arg(2)), out: true }));
        let load = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];";
        assert_eq!(parse(load), Some(AsmOp::Tensor { kind: 2, smem: Arg(0), map: Arg(1), bar: Some(Arg(4)), coords: vec![Arg(2), Arg(3)] }));
        let store = "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [$0, {$1, $2, 0}], [$3];";
        assert_eq!(parse(store), Some(AsmOp::Tensor { kind: 3 | STORE, smem: Arg(3), map: Arg(0), bar: None, coords: vec![Arg(1), Arg(2), Imm(0)] }));
        assert_eq!(parse("cp.async.bulk.wait_group.read 0;"), Some(AsmOp::Group { op: group_op::WAIT_READ, n: 0 }));
        assert_eq!(parse("cp.async.bulk.commit_group;"), Some(AsmOp::Group { op: group_op::COMMIT, n: 0 }));
        assert_eq!(parse("fence.proxy.async.shared::cta;"), Some(AsmOp::Nop));
        assert_eq!(parse("mbarrier.inval.shared::cta.b64 [$0];"), Some(AsmOp::Mbar { op: op::INVAL, p: Arg(0), x: None, out: false }));
        assert_eq!(parse("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [$0], [$1, {$2, $3}], [$4], $5;"), None);
        assert_eq!(parse("and.b64 $0, $1, 0;"), None);
    }
}
