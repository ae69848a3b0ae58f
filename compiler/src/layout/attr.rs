//! Encodings as MLIR attributes: builtin dictionaries (`{kind = "blocked", sizePerThread =
//! array<i64: 1, 8>, ...}`), so the `tile` dialect needs no attribute definitions and MLIR
//! parses and verifies a layout file as it is. Parsing accepts MLIR's re-printed form too
//! (keys sorted, `parent` inlined).

use super::encoding::{Encoding, Slot};
use std::collections::BTreeMap;

/// Prints `e` as an attribute; `alias` names an already printed parent (`#mma`).
pub fn print(e: &Encoding, alias: &dyn Fn(&Encoding) -> Option<String>) -> String {
    let arr = |v: &[usize]| format!("array<i64: {}>", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
    let parent = |p: &Encoding| alias(p).unwrap_or_else(|| print(p, alias));
    match e {
        Encoding::Blocked { size_per_thread, threads_per_warp, warps_per_cta, order } => format!(
            "{{kind = \"blocked\", sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}",
            arr(size_per_thread),
            arr(threads_per_warp),
            arr(warps_per_cta),
            arr(order)
        ),
        Encoding::Flat { per } => format!("{{kind = \"flat\", elemsPerThread = {per} : i64}}"),
        Encoding::Slice { dim, parent: p } => format!("{{kind = \"slice\", dim = {dim} : i64, parent = {}}}", parent(p)),
        Encoding::Mma { warps_per_cta } => {
            format!("{{kind = \"mma\", versionMajor = 2 : i64, warpsPerCTA = {}, instrShape = array<i64: 16, 8>}}", arr(warps_per_cta))
        }
        Encoding::Mfma { warps_per_cta, instr } => {
            format!("{{kind = \"amd_mfma\", warpsPerCTA = {}, instrShape = {}}}", arr(warps_per_cta), arr(&[*instr, *instr]))
        }
        Encoding::DotOperand { op_idx, parent: p, k_width } => {
            format!("{{kind = \"dot_op\", opIdx = {op_idx} : i64, parent = {}, kWidth = {k_width} : i64}}", parent(p))
        }
        Encoding::Shared { vec, per_phase, max_phase, order, pad, swizzle, slot } => {
            let slot = slot.as_ref().map_or(String::new(), |s| {
                format!(
                    ", at = {} : i64, stages = {} : i64, slotBytes = {} : i64, align = {} : i64, fill = \"{}\", read = \"{}\"",
                    s.at, s.stages, s.slot_bytes, s.align, s.fill, s.read
                )
            });
            format!(
                "{{kind = \"shared\", swizzle = {swizzle} : i64, vec = {vec} : i64, perPhase = {per_phase} : i64, maxPhase = {max_phase} : i64, order = {}, pad = {pad} : i64{slot}}}",
                arr(order)
            )
        }
    }
}

/// One parsed attribute value.
#[derive(Debug)]
enum Attr {
    Str(String),
    Int(usize),
    Ints(Vec<usize>),
    Dict(BTreeMap<String, Attr>),
}

/// Parses an encoding attribute (as [`print`] writes it or MLIR re-prints it).
pub fn parse(text: &str) -> Result<Encoding, String> {
    let mut p = Parser { s: text.as_bytes(), at: 0 };
    let a = p.value()?;
    p.ws();
    if p.at != p.s.len() {
        return Err(format!("unexpected `{}` after the encoding", &text[p.at..]));
    }
    encoding(a)
}

fn encoding(a: Attr) -> Result<Encoding, String> {
    let Attr::Dict(mut d) = a else { return Err("an encoding is a dictionary attribute `{kind = ..., ...}`".into()) };
    let kind = match d.remove("kind") {
        Some(Attr::Str(k)) => k,
        _ => return Err("the encoding has no string `kind`".into()),
    };
    let mut int = |k: &str| match d.remove(k) {
        Some(Attr::Int(i)) => Ok(i),
        _ => Err(format!("`{kind}` encoding needs an integer `{k}`")),
    };
    let e = match kind.as_str() {
        "flat" => Encoding::Flat { per: int("elemsPerThread")? },
        "slice" => {
            let dim = int("dim")?;
            Encoding::Slice { dim, parent: Box::new(encoding(take(&mut d, "parent", &kind)?)?) }
        }
        "mma" => {
            let (v, _) = (int("versionMajor")?, ints(&mut d, "instrShape", &kind, Some(&[16, 8]))?);
            if v != 2 {
                return Err(format!("mma versionMajor {v}: only 2 (mma.sync m16n8k16) is lowered"));
            }
            let w = ints(&mut d, "warpsPerCTA", &kind, None)?;
            let &[wm, wn] = &w[..] else { return Err("mma warpsPerCTA has two entries".into()) };
            Encoding::Mma { warps_per_cta: [wm, wn] }
        }
        "amd_mfma" => {
            let w = ints(&mut d, "warpsPerCTA", &kind, None)?;
            let &[wm, wn] = &w[..] else { return Err("amd_mfma warpsPerCTA has two entries".into()) };
            let shape = ints(&mut d, "instrShape", &kind, None)?;
            let instr = match shape[..] {
                [32, 32] => 32,
                [16, 16] => 16,
                _ => return Err(format!("amd_mfma instrShape {shape:?}: only [32, 32] and [16, 16] (16-bit operands) are lowered")),
            };
            Encoding::Mfma { warps_per_cta: [wm, wn], instr }
        }
        "dot_op" => {
            let (op_idx, k_width) = (int("opIdx")?, int("kWidth")?);
            Encoding::DotOperand { op_idx, k_width, parent: Box::new(encoding(take(&mut d, "parent", &kind)?)?) }
        }
        "shared" => {
            let (vec, per_phase, max_phase, pad, swizzle) = (int("vec")?, int("perPhase")?, int("maxPhase")?, int("pad")?, int("swizzle")?);
            if vec == 0 || per_phase == 0 || max_phase == 0 {
                return Err("shared vec, perPhase and maxPhase are at least 1".into());
            }
            let slot = match int("stages") {
                Ok(stages) => {
                    let (at, slot_bytes, align) = (int("at")?, int("slotBytes")?, int("align")?);
                    let (fill, read) = (string(&mut d, "fill", &kind)?, string(&mut d, "read", &kind)?);
                    Some(Box::new(Slot { at, stages, slot_bytes, align, fill, read }))
                }
                Err(_) => None,
            };
            Encoding::Shared { vec, per_phase, max_phase, order: ints(&mut d, "order", &kind, None)?, pad, swizzle, slot }
        }
        "blocked" => {
            let e = Encoding::Blocked {
                size_per_thread: ints(&mut d, "sizePerThread", &kind, None)?,
                threads_per_warp: ints(&mut d, "threadsPerWarp", &kind, None)?,
                warps_per_cta: ints(&mut d, "warpsPerCTA", &kind, None)?,
                order: ints(&mut d, "order", &kind, None)?,
            };
            if let Encoding::Blocked { size_per_thread: s, threads_per_warp: t, warps_per_cta: w, order: o } = &e {
                let r = s.len();
                let mut sorted = o.clone();
                sorted.sort_unstable();
                if t.len() != r || w.len() != r || sorted != (0..r).collect::<Vec<_>>() || s.iter().chain(t).chain(w).any(|&x| x == 0) {
                    return Err("blocked fields need one positive entry per dimension and `order` a permutation of them".into());
                }
            }
            e
        }
        other => return Err(format!("unknown encoding kind `{other}` (blocked, flat, slice, mma, amd_mfma, dot_op, shared)")),
    };
    if let Some(k) = d.keys().next() {
        return Err(format!("unknown field `{k}` of a `{kind}` encoding"));
    }
    Ok(e)
}

fn string(d: &mut BTreeMap<String, Attr>, k: &str, kind: &str) -> Result<String, String> {
    match d.remove(k) {
        Some(Attr::Str(s)) => Ok(s),
        _ => Err(format!("`{kind}` encoding needs a string `{k}`")),
    }
}

fn take(d: &mut BTreeMap<String, Attr>, k: &str, kind: &str) -> Result<Attr, String> {
    d.remove(k).ok_or_else(|| format!("`{kind}` encoding needs `{k}`"))
}

fn ints(d: &mut BTreeMap<String, Attr>, k: &str, kind: &str, must: Option<&[usize]>) -> Result<Vec<usize>, String> {
    match d.remove(k) {
        Some(Attr::Ints(v)) if must.is_none_or(|m| m == v) => Ok(v),
        Some(Attr::Ints(v)) => Err(format!("`{kind}` {k} {v:?}: only {:?} is lowered", must.unwrap_or_default())),
        _ => Err(format!("`{kind}` encoding needs `{k} = array<i64: ...>`")),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        let ok = self.s[self.at..].starts_with(t.as_bytes());
        if ok {
            self.at += t.len();
        }
        ok
    }

    fn word(&mut self) -> String {
        self.ws();
        let start = self.at;
        while self.at < self.s.len() && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'_') {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.at]).into_owned()
    }

    fn int(&mut self) -> Result<usize, String> {
        let w = self.word();
        w.parse().map_err(|_| format!("expected a non-negative integer, found `{w}`"))
    }

    fn value(&mut self) -> Result<Attr, String> {
        if self.eat("{") {
            let mut d = BTreeMap::new();
            if self.eat("}") {
                return Ok(Attr::Dict(d));
            }
            loop {
                let k = self.word();
                if k.is_empty() || !self.eat("=") {
                    return Err("expected `name = value` in the encoding dictionary".into());
                }
                let v = self.value()?;
                if d.insert(k.clone(), v).is_some() {
                    return Err(format!("field `{k}` given twice"));
                }
                if self.eat("}") {
                    return Ok(Attr::Dict(d));
                }
                if !self.eat(",") {
                    return Err("expected `,` or `}` in the encoding dictionary".into());
                }
            }
        }
        if self.eat("\"") {
            let start = self.at;
            while self.at < self.s.len() && self.s[self.at] != b'"' {
                self.at += 1;
            }
            let s = String::from_utf8_lossy(&self.s[start..self.at]).into_owned();
            return if self.eat("\"") { Ok(Attr::Str(s)) } else { Err("unterminated string".into()) };
        }
        if self.eat("array<") {
            let _ty = self.word();
            let mut v = vec![];
            if self.eat(":") {
                loop {
                    v.push(self.int()?);
                    if !self.eat(",") {
                        break;
                    }
                }
            }
            return if self.eat(">") { Ok(Attr::Ints(v)) } else { Err("expected `>` closing an array".into()) };
        }
        let i = self.int()?;
        if self.eat(":") {
            self.word();
        }
        Ok(Attr::Int(i))
    }
}
