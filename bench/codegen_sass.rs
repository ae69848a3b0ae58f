//! Counting a cubin's SASS for `cargo bench --bench codegen`: the instructions of one kernel
//! from `cuobjdump -sass`, its main loop (the K loop of a GEMM), and its global memory
//! instructions by access width.

use std::collections::BTreeMap;

/// One SASS instruction: its address and its text without the predicate.
#[derive(Clone, Debug)]
pub struct Inst {
    pub addr: u64,
    pub text: String,
}

impl Inst {
    /// The opcode with its modifiers (`LDG.E.128`).
    pub fn opcode(&self) -> &str {
        self.text.split_whitespace().next().unwrap_or("")
    }

    /// The target of a branch (`BRA 0x13a0`, `BRA.U !UP0, 0x13a0`), if this is one: the last
    /// operand, since a uniform branch names its predicate first.
    fn branch_target(&self) -> Option<u64> {
        if !self.opcode().starts_with("BRA") {
            return None;
        }
        let t = self.text.split_whitespace().last()?.trim_end_matches(';');
        u64::from_str_radix(t.strip_prefix("0x")?, 16).ok()
    }
}

/// The instructions of function `symbol` in `cuobjdump -sass` output.
pub fn function(sass: &str, symbol: &str) -> Vec<Inst> {
    let mut out = vec![];
    let mut inside = false;
    for line in sass.lines() {
        if let Some(name) = line.trim().strip_prefix("Function : ") {
            inside = name.trim() == symbol;
            continue;
        }
        if !inside {
            continue;
        }
        // `/*0ec0*/   @P0 LDGSTS.E.BYPASS.128 [R33], desc[UR16][R30.64], P0 ;   /* 0x... */`
        let Some(rest) = line.trim().strip_prefix("/*") else { continue };
        let Some((addr, text)) = rest.split_once("*/") else { continue };
        let Ok(addr) = u64::from_str_radix(addr, 16) else { continue };
        let text = text.split("/*").next().unwrap_or("").trim().trim_end_matches(';').trim();
        let text = if text.starts_with('@') { text.split_once(' ').map_or("", |x| x.1) } else { text };
        if !text.is_empty() {
            out.push(Inst { addr, text: text.to_string() });
        }
    }
    out
}

/// The matrix and shared-memory fragment instructions among `insts`, as ` (2 HGMMA)` (empty
/// when there are none): which tensor-core path the code takes (UTCHMMA: sm_100a's
/// `tcgen05.mma`).
pub fn matrix_ops(insts: &[Inst]) -> String {
    let mut n: BTreeMap<&str, usize> = BTreeMap::new();
    for i in insts {
        let op = i.opcode().split('.').next().unwrap_or("");
        if matches!(op, "HGMMA" | "HMMA" | "LDSM" | "WARPGROUP") || is_mma(op) {
            *n.entry(op).or_default() += 1;
        }
    }
    if n.is_empty() {
        return String::new();
    }
    format!(" ({})", n.iter().map(|(k, v)| format!("{v} {k}")).collect::<Vec<_>>().join(", "))
}

/// Whether `op` is a matrix instruction (mma.sync, wgmma or tcgen05.mma: `UTCHMMA`,
/// `UTCQMMA`, ...).
fn is_mma(op: &str) -> bool {
    op.starts_with("HMMA") || op.starts_with("HGMMA") || (op.starts_with("UTC") && op.contains("MMA"))
}

/// The main loop: of the spans from a backward branch's target to the branch, the smallest
/// that holds a matrix instruction (the K loop, not a loop over output tiles around it), else
/// the largest. `None` when there is no loop.
pub fn main_loop(insts: &[Inst]) -> Option<&[Inst]> {
    let at = |addr: u64| insts.iter().position(|i| i.addr == addr);
    let spans = insts.iter().enumerate().filter_map(|(end, i)| {
        let t = i.branch_target()?;
        (t < i.addr).then(|| at(t)).flatten().map(|start| &insts[start..=end])
    });
    let spans: Vec<&[Inst]> = spans.collect();
    let mma = spans.iter().filter(|s| s.iter().any(|i| is_mma(i.opcode()))).min_by_key(|s| s.len());
    mma.or_else(|| spans.iter().max_by_key(|s| s.len())).copied()
}

/// Global memory instructions by kind and bytes per thread: `ld`, `st`, `cp.async`, `tma`.
pub fn global_memory(insts: &[Inst]) -> BTreeMap<(&'static str, u32), usize> {
    let mut m = BTreeMap::new();
    for i in insts {
        let op = i.opcode();
        let mut parts = op.split('.');
        let kind = match parts.next() {
            Some("LDG") => "ld",
            Some("STG") => "st",
            Some("LDGSTS") => "cp.async",
            Some("UTMALDG" | "UTMASTG" | "UBLKCP") => "tma",
            _ => continue,
        };
        let bytes = parts.fold(4, |b, p| match p {
            "128" => 16,
            "64" => 8,
            "U16" | "S16" => 2,
            "U8" | "S8" => 1,
            _ => b,
        });
        *m.entry((kind, bytes)).or_insert(0) += 1;
    }
    m
}

/// `ld 4x16B, st 32x2B`, or `none`.
pub fn describe(m: &BTreeMap<(&'static str, u32), usize>) -> String {
    if m.is_empty() {
        return "none".into();
    }
    m.iter().map(|((k, b), n)| format!("{k} {n}x{b}B")).collect::<Vec<_>>().join(", ")
}

/// CTA barriers (`BAR.SYNC`, `BAR.RED`, ...) among `insts`.
pub fn barriers(insts: &[Inst]) -> usize {
    insts.iter().filter(|i| i.opcode().starts_with("BAR")).count()
}
