//! The `layout` stage as text: printing a kernel with its [`LayoutMap`], and reading such a
//! file back with every encoding checked against what the GPU lowering implements.

use super::assign::{all_values, LayoutMap};
use super::encoding::{same_map, Encoding};
use super::{attr, LayoutError};
use crate::ir::import::EncodingTexts;
use crate::ir::print::{print_kernel_annotated, Annotations};
use crate::ir::{Kernel, Op, OpKind, Type, Value};
use crate::lower::gpu::staging_report::DotStaging;
use crate::lower::gpu::target::TargetInfo;
use std::collections::HashMap;

/// Attribute aliases (`#blocked1 = {...}`) in first-use order, parents before children.
#[derive(Default)]
struct Aliases {
    names: Vec<(Encoding, String)>,
}

impl Aliases {
    fn name(&mut self, e: &Encoding) -> String {
        if let Some((_, n)) = self.names.iter().find(|(x, _)| x == e) {
            return n.clone();
        }
        if let Encoding::Slice { parent, .. } | Encoding::DotOperand { parent, .. } = e {
            self.name(parent);
        }
        let base = match e {
            Encoding::Blocked { .. } => "blocked",
            Encoding::Flat { .. } => "flat",
            Encoding::Slice { .. } => "slice",
            Encoding::Mma { .. } => "mma",
            Encoding::Mfma { .. } => "mfma",
            Encoding::DotOperand { op_idx: 0, .. } => "dot_a",
            Encoding::DotOperand { .. } => "dot_b",
            Encoding::Shared { .. } => "shared",
        };
        let n = match self.names.iter().filter(|(_, n)| n.trim_end_matches(|c: char| c.is_ascii_digit()) == format!("#{base}")).count() {
            0 => format!("#{base}"),
            i => format!("#{base}{i}"),
        };
        self.names.push((e.clone(), n.clone()));
        n
    }

    fn header(&self) -> String {
        let find = |p: &Encoding| self.names.iter().find(|(x, _)| x == p).map(|(_, n)| n.clone());
        self.names.iter().map(|(e, n)| format!("{n} = {}\n", attr::print(e, &find))).collect()
    }
}

/// `t` with encoding alias `enc` (`tensor<64x64xf32, #mma>`).
fn encoded(t: &Type, enc: &str) -> String {
    let plain = t.to_string();
    format!("{}, {enc}>", plain.strip_suffix('>').unwrap_or(&plain))
}

/// The layout stage of `k` on `t`: MLIR with every tile's encoding in its type and a
/// `tile.convert_layout` wherever a value is read in another encoding than its own. A dot's
/// operand conversions name the shared encoding (`weft.shared`) the lowering stages it in, and
/// a comment before the dot its instruction and accumulator layout: the kernel is lowered to
/// learn them, so the dump shows what the code does.
pub fn print(k: &Kernel, map: &LayoutMap, t: &dyn TargetInfo) -> String {
    let (staging, note) = match crate::lower::gpu::lower_with(k, t, map) {
        Ok(m) => (m.staging.into_iter().map(|s| (s.dot, s)).collect(), String::new()),
        Err(e) => (HashMap::new(), format!("// operand staging unknown: the gpu lowering fails: {}\n", e.to_string().replace('\n', " "))),
    };
    let accs = map.acc_layouts(k);
    let mut al = Aliases::default();
    let mut ann = Annotations::default();
    for v in all_values(k) {
        if let Some(e) = map.enc.get(&v) {
            let n = al.name(e);
            ann.types.insert(v, encoded(k.ty(v), &n));
        }
    }
    let mut next = k.values.len() as u32;
    let mut convert = |ann: &mut Annotations, al: &mut Aliases, v: Value, to: &Encoding, shared: Option<&Encoding>| {
        let c = Value(next);
        next += 1;
        let (from, to_n) = (ann.types.get(&v).cloned().unwrap_or_else(|| k.ty(v).to_string()), al.name(to));
        let via = shared.map(|s| format!(" {{weft.shared = {}}}", al.name(s))).unwrap_or_default();
        let to_ty = encoded(k.ty(v), &to_n);
        ann.types.insert(c, to_ty.clone());
        ann.origin.insert(c, v);
        (c, format!("%v{} = \"tile.convert_layout\"(%v{}){via} : ({from}) -> {to_ty}", c.0, v.0))
    };
    // An accumulator some op reads blocked is converted once, where it is defined.
    let mut blocked_copy = HashMap::new();
    let def_op: HashMap<Value, Op> = (0..k.ops.len() as u32).flat_map(|i| k.ops[i as usize].results.iter().map(move |&r| (r, Op(i)))).collect();
    let mut carried_by = HashMap::new();
    for (i, d) in k.ops.iter().enumerate() {
        if d.kind == OpKind::For {
            for &a in &k.block(d.regions[0]).args {
                carried_by.insert(a, (Op(i as u32), d.regions[0]));
            }
        }
    }
    let mut needs: Vec<Value> = accs.needs_blocked.iter().copied().collect();
    needs.sort();
    for v in needs {
        let (c, line) = convert(&mut ann, &mut al, v, &map.blocked(k.ty(v)), None);
        match (def_op.get(&v), carried_by.get(&v)) {
            (Some(op), _) => ann.after.entry(*op).or_default().push(line),
            (None, Some((_, body))) => ann.block_start.entry(*body).or_default().push(line),
            (None, None) => continue,
        }
        blocked_copy.insert(v, c);
    }
    for (i, d) in k.ops.iter().enumerate() {
        let op = Op(i as u32);
        for (j, &v) in d.operands.iter().enumerate() {
            let (Some(read), Some(own)) = (map.read_encoding(k, &accs, d, j), map.enc.get(&v)) else { continue };
            if &read == own {
                continue;
            }
            if let Some(&c) = blocked_copy.get(&v).filter(|_| read == map.blocked(k.ty(v))) {
                ann.operands.insert((op, j), c);
                continue;
            }
            let shared = staging.get(&op).filter(|_| j < 2).map(|s: &DotStaging| s.shared[j].clone());
            let (c, line) = convert(&mut ann, &mut al, v, &read, shared.as_ref());
            ann.before.entry(op).or_default().push(line);
            ann.operands.insert((op, j), c);
        }
    }
    for (op, s) in &staging {
        ann.before.entry(*op).or_default().push(format!("// {}", s.instr));
    }
    let body = print_kernel_annotated(k, false, &ann);
    format!("// weft layout stage: {} warps of {} threads per CTA\n{note}{}\n{body}", map.num_warps, map.warp_size, al.header())
}

/// Reads the encodings of a layout-stage kernel `k` (imported with `texts`) for `num_warps`
/// warps of `warp_size` threads, checking each against what the GPU lowering implements.
pub fn read(k: &Kernel, texts: &EncodingTexts, num_warps: usize, warp_size: usize) -> Result<LayoutMap, LayoutError> {
    let mut map = LayoutMap { num_warps, warp_size, enc: HashMap::new() };
    let name = |v: Value| texts.names.get(&v).cloned().unwrap_or_else(|| format!("value %v{}", v.0));
    let parse = |who: String, text: &str| attr::parse(text).map_err(|why| LayoutError::Malformed { value: who, text: text.into(), why });
    for v in all_values(k) {
        match texts.defs.get(&v) {
            Some(t) => {
                map.enc.insert(v, parse(name(v), t)?);
            }
            None if k.ty(v).is_tensor() => {
                return Err(LayoutError::Inconsistent { value: name(v), got: "none".into(), why: "every tile of a layout stage carries an encoding".into() });
            }
            None => {}
        }
    }
    check_defs(k, &map, &name)?;
    let accs = map.acc_layouts(k);
    for (i, d) in k.ops.iter().enumerate() {
        let op = Op(i as u32);
        for (j, &v) in d.operands.iter().enumerate() {
            let Some(want) = map.read_encoding(k, &accs, d, j) else { continue };
            let who = || format!("operand {j} of `{}` ({})", d.kind.name(), name(v));
            let got = match texts.reads.get(&(op, j)) {
                Some(t) => parse(who(), t)?,
                None => map.enc[&v].clone(),
            };
            if !equivalent(&got, &want, k.ty(v).shape(), &map) {
                return Err(LayoutError::Inconsistent { value: who(), got: attr::print(&got, &|_| None), why: format!("the lowering reads it as {}", attr::print(&want, &|_| None)) });
            }
        }
    }
    Ok(map)
}

/// Checks the `weft.shared` encodings of a layout-stage kernel `k` (read as `map` from
/// `texts`) against how the lowering for `t` stages each dot operand. A kernel the lowering
/// rejects passes here (the `gpu` stage reports why).
pub fn check_staging(k: &Kernel, texts: &EncodingTexts, map: &LayoutMap, t: &dyn TargetInfo) -> Result<(), LayoutError> {
    let Ok(m) = crate::lower::gpu::lower_with(k, t, map) else { return Ok(()) };
    for s in &m.staging {
        for (j, staged) in s.shared.iter().enumerate() {
            let Some(text) = texts.shared.get(&(s.dot, j)) else { continue };
            let v = k.op(s.dot).operands[j];
            let who = format!("operand {j} of `tile.dot` ({})", texts.names.get(&v).cloned().unwrap_or_else(|| format!("value %v{}", v.0)));
            let got = attr::parse(text).map_err(|why| LayoutError::Malformed { value: who.clone(), text: text.clone(), why })?;
            if &got != staged {
                return Err(LayoutError::Inconsistent { value: who, got: attr::print(&got, &|_| None), why: format!("tile.dot stages it as {}", attr::print(staged, &|_| None)) });
            }
        }
    }
    Ok(())
}

/// Each value's own encoding: a dot result an accumulator's, every other tile the blocked
/// layout the lowering gives its shape.
fn check_defs(k: &Kernel, map: &LayoutMap, name: &dyn Fn(Value) -> String) -> Result<(), LayoutError> {
    let (threads, warp) = (map.threads(), map.warp_size);
    let dot_results: Vec<Value> = k.ops.iter().filter(|d| d.kind == OpKind::Dot).map(|d| d.results[0]).collect();
    let accs = map.acc_layouts(k);
    let mut flat_ok: HashMap<(Encoding, Vec<usize>), bool> = HashMap::new();
    // Dot results first: an accumulator encoding elsewhere is only wrong because a dot's is.
    let order = dot_results.iter().copied().chain(all_values(k).filter(|v| !dot_results.contains(v)));
    for v in order {
        let Some(e) = map.enc.get(&v) else { continue };
        let shape = k.ty(v).shape().to_vec();
        let bad = |why: String| Err(LayoutError::Inconsistent { value: name(v), got: attr::print(e, &|_| None), why });
        if !e.in_registers() {
            return bad("a tile value lives in registers; shared encodings only describe how tile.dot stages its operands".into());
        }
        if accs.layout.contains_key(&v) {
            continue;
        }
        if dot_results.contains(&v) {
            return bad(format!(
                "a tile.dot result is held in an accumulator layout: mma (warpsPerCTA [wm, wn] with wm*wn = {} warps of 32 threads, {shape:?} a whole number of 16x8 tiles per warp), amd_mfma (the same over 64-lane wavefronts, 32x32 or 16x16 blocks) or a blocked FMA layout of {threads} threads",
                map.num_warps
            ));
        }
        let want = map.blocked(k.ty(v));
        let ok = *flat_ok.entry((e.clone(), shape.clone())).or_insert_with(|| e == &want || same_map(e, &want, &shape, threads, warp));
        if !ok {
            return bad(format!("the GPU lowering holds this {shape:?} tile as {} ({} per thread over {threads} threads)", attr::print(&want, &|_| None), want.slots(&shape, threads, warp)));
        }
    }
    Ok(())
}

/// Whether two encodings place a tile of `shape` identically.
fn equivalent(a: &Encoding, b: &Encoding, shape: &[usize], map: &LayoutMap) -> bool {
    a == b || (a.in_registers() && b.in_registers() && same_map(a, b, shape, map.threads(), map.warp_size))
}

/// How many tiles carry each kind of encoding, for tests and reports.
pub fn kinds(map: &LayoutMap) -> HashMap<&'static str, usize> {
    let mut out = HashMap::new();
    for e in map.enc.values() {
        let kind = match e {
            Encoding::Blocked { .. } => "blocked",
            Encoding::Flat { .. } => "flat",
            Encoding::Slice { .. } => "slice",
            Encoding::Mma { .. } => "mma",
            Encoding::Mfma { .. } => "mfma",
            Encoding::DotOperand { .. } => "dot_op",
            Encoding::Shared { .. } => "shared",
        };
        *out.entry(kind).or_insert(0) += 1;
    }
    out
}
