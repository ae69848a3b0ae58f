//! Imports MLIR text in the `tile` / `shmem` dialects into the IR, so that any `tir` file
//! (hand-written, dumped, or from another front end) can start the pipeline.

use super::*;
use melior::ir::block::BlockLike;
use melior::ir::operation::{OperationLike, OperationRef};
use melior::ir::ValueLike;
use melior::ir::RegionLike;
use std::collections::HashMap;

/// Why a module could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{loc}: {message}")]
pub struct ImportError {
    /// Where.
    pub loc: String,
    /// What.
    pub message: String,
}

/// Parses a type spelling (`tensor<16x!tile.ptr<f32>>`, `i32`, `!shmem.token`).
pub fn parse_type(s: &str) -> Option<Type> {
    match parse_encoded_type(s)? {
        (t, None) => Some(t),
        (_, Some(_)) => None,
    }
}

/// Parses a type spelling that may carry a tensor encoding (`tensor<16xf32, {kind = ...}>`):
/// the type and the encoding attribute's text.
pub fn parse_encoded_type(s: &str) -> Option<(Type, Option<String>)> {
    let s = s.trim();
    if let Some((plain, enc)) = s.strip_prefix("tensor<").and_then(|r| r.strip_suffix('>')).and_then(|r| r.split_once(',')) {
        return Some((parse_type(&format!("tensor<{plain}>"))?, Some(enc.trim().to_string())));
    }
    if s == "!shmem.token" {
        return Some((Type::Token, None));
    }
    if let Some(inner) = s.strip_prefix("tensor<").and_then(|r| r.strip_suffix('>')) {
        let mut shape = vec![];
        let mut rest = inner;
        while let Some((dim, tail)) = rest.split_once('x') {
            match dim.parse::<usize>() {
                Ok(d) => {
                    shape.push(d);
                    rest = tail;
                }
                Err(_) => break,
            }
        }
        return Some((Type::tensor(parse_elem(rest)?, shape), None));
    }
    Some((Type::Val { elem: parse_elem(s)?, shape: vec![] }, None))
}

/// The encodings a layout-stage file spells (attribute texts, parsed by `crate::layout`).
#[derive(Debug, Default)]
pub struct EncodingTexts {
    /// The encoding in each value's own type.
    pub defs: HashMap<Value, String>,
    /// Operand `i` of an op read through a `tile.convert_layout`: the encoding it converts to.
    pub reads: HashMap<(Op, usize), String>,
    /// The `weft.shared` attribute of such a conversion (how it is staged), if any.
    pub shared: HashMap<(Op, usize), String>,
    /// Where each value is defined, for errors: "result 0 of `tile.dot` at loc(...)".
    pub names: HashMap<Value, String>,
}

fn parse_elem(s: &str) -> Option<Elem> {
    if let Some(inner) = s.strip_prefix("!tile.ptr<").and_then(|r| r.strip_suffix('>')) {
        return Scalar::parse(inner).map(Elem::Ptr);
    }
    Scalar::parse(s).map(Elem::Num)
}

fn parse_loc(s: &str) -> Loc {
    // `loc("file":line:col)`
    let inner = s.trim().trim_start_matches("loc(").trim_end_matches(')');
    let mut parts = inner.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(file), Some(line), Some(col)) => Loc { file: file.trim_matches('"').to_string(), line, col },
        _ => Loc { file: inner.to_string(), line: 0, col: 0 },
    }
}

struct Importer {
    k: Kernel,
    values: HashMap<usize, Value>,
    /// Collected when importing a layout-stage file; `None` rejects encodings.
    enc: Option<EncodingTexts>,
    /// `tile.convert_layout` results: the encoding and staging they convert to.
    converted: HashMap<usize, (String, Option<String>)>,
}

/// Imports the first `func.func` of `module` as a kernel.
pub fn import(module: &melior::ir::Module) -> Result<Kernel, ImportError> {
    Ok(import_with(module, None)?.0)
}

/// Imports a layout-stage module: the kernel (each `tile.convert_layout` folded into the value
/// it converts) and the encodings it spells.
pub fn import_encoded(module: &melior::ir::Module) -> Result<(Kernel, EncodingTexts), ImportError> {
    let (k, enc) = import_with(module, Some(EncodingTexts::default()))?;
    Ok((k, enc.unwrap_or_default()))
}

fn import_with(module: &melior::ir::Module, enc: Option<EncodingTexts>) -> Result<(Kernel, Option<EncodingTexts>), ImportError> {
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        if o.name().as_string_ref().as_str().unwrap_or("") == "func.func" {
            return import_func(o, enc);
        }
        op = o.next_in_block();
    }
    Err(ImportError { loc: "module".into(), message: "no func.func in the module".into() })
}

fn attr(op: &OperationRef, name: &str) -> Option<String> {
    op.attribute(name).ok().map(|a| a.to_string())
}

fn unquote(s: &str) -> String {
    s.trim().trim_matches('"').to_string()
}

fn import_func(f: OperationRef, enc: Option<EncodingTexts>) -> Result<(Kernel, Option<EncodingTexts>), ImportError> {
    let loc = f.location().to_string();
    let fail = |m: &str| ImportError { loc: loc.clone(), message: m.into() };
    let name = attr(&f, "sym_name").map(|s| unquote(&s)).ok_or_else(|| fail("func.func without a name"))?;
    let mut imp = Importer { k: Kernel::new(&name), values: HashMap::new(), enc, converted: HashMap::new() };
    if let Some(cx) = attr(&f, "weft.constexprs") {
        let inner = cx.trim().trim_start_matches('{').trim_end_matches('}');
        for item in split_outside_quotes(inner).into_iter().filter(|s| !s.trim().is_empty()) {
            if let Some((k, v)) = item.split_once('=') {
                imp.k.constexprs.push((k.trim().to_string(), unquote(v)));
            }
        }
    }
    let names: Vec<String> = attr(&f, "weft.params")
        .map(|p| p.trim_matches(|c| c == '[' || c == ']').split(',').map(unquote).collect())
        .unwrap_or_default();
    let region = f.region(0).map_err(|_| fail("func.func without a body"))?;
    let entry = region.first_block().ok_or_else(|| fail("func.func without an entry block"))?;
    for i in 0..entry.argument_count() {
        let a = entry.argument(i).map_err(|e| fail(&e.to_string()))?;
        let ty = a.r#type().to_string();
        let v = imp.typed(&ty, &format!("argument {i} of `{name}` at {loc}"), |k, t| k.add_block_arg(k.body, t)).map_err(|m| fail(&m))?;
        imp.values.insert(a.to_raw().ptr as usize, v);
        let pname = names.get(i).cloned().filter(|n| !n.is_empty()).unwrap_or_else(|| format!("arg{i}"));
        imp.k.params.push(Param { name: pname, value: v });
    }
    let body = imp.k.body;
    imp.block_ops(entry.first_operation(), body)?;
    Ok((imp.k, imp.enc))
}

fn kind_of(name: &str, op: &OperationRef, operand_tys: &[Type], result_tys: &[Type]) -> Result<OpKind, String> {
    let sattr = |n: &str| attr(op, n).map(|s| unquote(&s)).unwrap_or_default();
    let iattr = |n: &str| -> i64 { attr(op, n).and_then(|s| s.split(':').next().and_then(|x| x.trim().parse().ok())).unwrap_or(0) };
    let scope = || match sattr("scope").as_str() {
        "thread" => Scope::Thread,
        "warp" => Scope::Warp,
        _ => Scope::Block,
    };
    let nbi = || sattr("nbi") == "true";
    let sig_op = || if sattr("sig_op") == "add" { SigOp::Add } else { SigOp::Set };
    let segs = || -> Vec<u32> {
        attr(op, "operandSegmentSizes")
            .map(|s| s.trim_start_matches("array<i32:").trim_end_matches('>').split(',').filter_map(|x| x.trim().parse().ok()).collect())
            .unwrap_or_default()
    };
    let has = |i: usize| segs().get(i).copied().unwrap_or(0) > 0;
    let binary = |b: BinOp| Ok::<OpKind, String>(OpKind::Binary(b));
    let elem_of = |t: &Type| match t.elem() {
        Some(Elem::Num(s)) => s,
        _ => Scalar::I64,
    };
    Ok(match name {
        "arith.constant" => {
            let v = attr(op, "value").ok_or("arith.constant without value")?;
            let lit = v.trim_start_matches("dense<").split(['>', ':']).next().unwrap_or("").trim().to_string();
            let s = elem_of(&result_tys[0]);
            let c = match lit.as_str() {
                "true" => ConstVal::Int(1),
                "false" => ConstVal::Int(0),
                l if s.is_float() => {
                    if let Some(hex) = l.strip_prefix("0x") {
                        let bits = u64::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                        ConstVal::Float(match s {
                            Scalar::F16 => half::f16::from_bits(bits as u16).to_f64(),
                            Scalar::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
                            _ => f32::from_bits(bits as u32) as f64,
                        })
                    } else {
                        ConstVal::Float(l.parse().map_err(|_| format!("unsupported constant {v}"))?)
                    }
                }
                l => ConstVal::Int(l.parse().map_err(|_| format!("unsupported constant {v}"))?),
            };
            OpKind::Const(c)
        }
        "arith.addf" | "arith.addi" => binary(BinOp::Add)?,
        "arith.subf" | "arith.subi" => binary(BinOp::Sub)?,
        "arith.mulf" | "arith.muli" => binary(BinOp::Mul)?,
        "arith.divf" | "arith.divsi" => binary(BinOp::Div)?,
        "arith.remf" | "arith.remsi" => binary(BinOp::Rem)?,
        "arith.maximumf" | "arith.maxsi" => binary(BinOp::Max)?,
        "arith.minimumf" | "arith.minsi" => binary(BinOp::Min)?,
        "arith.andi" => binary(BinOp::And)?,
        "arith.ori" => binary(BinOp::Or)?,
        "arith.xori" => binary(BinOp::Xor)?,
        "arith.shli" => binary(BinOp::Shl)?,
        "arith.shrsi" => binary(BinOp::Shr)?,
        "arith.shrui" => binary(BinOp::ShrU)?,
        "arith.cmpi" | "arith.cmpf" => {
            let p = iattr("predicate");
            let pred = if name == "arith.cmpi" {
                // arith::CmpIPredicate: eq ne slt sle sgt sge ult ule ugt uge
                [CmpPred::Eq, CmpPred::Ne, CmpPred::Lt, CmpPred::Le, CmpPred::Gt, CmpPred::Ge].get(p as usize).copied()
            } else {
                // arith::CmpFPredicate: false oeq ogt oge olt ole one ...
                [None, Some(CmpPred::Eq), Some(CmpPred::Gt), Some(CmpPred::Ge), Some(CmpPred::Lt), Some(CmpPred::Le), Some(CmpPred::Ne)]
                    .get(p as usize)
                    .copied()
                    .flatten()
            };
            OpKind::Cmp(pred.ok_or_else(|| format!("unsupported predicate {p} of {name}"))?)
        }
        "arith.select" => OpKind::Select,
        "arith.negf" => OpKind::Unary(UnOp::Neg),
        "math.absf" | "math.absi" => OpKind::Unary(UnOp::Abs),
        "math.exp" => OpKind::Unary(UnOp::Exp),
        "math.log" => OpKind::Unary(UnOp::Log),
        "math.sqrt" => OpKind::Unary(UnOp::Sqrt),
        "arith.bitcast" => OpKind::Cast(CastKind::Bitcast),
        "arith.extf" | "arith.truncf" | "arith.extsi" | "arith.extui" | "arith.trunci" | "arith.sitofp" | "arith.uitofp" | "arith.fptosi" => {
            OpKind::Cast(CastKind::Convert)
        }
        "tile.program_id" => OpKind::ProgramId(iattr("axis") as u32),
        "tile.num_programs" => OpKind::NumPrograms(iattr("axis") as u32),
        "tile.make_range" => OpKind::MakeRange(iattr("start") as i32, iattr("end") as i32),
        "tile.splat" => OpKind::Splat,
        "tile.broadcast" => OpKind::Broadcast,
        "tile.expand_dims" => OpKind::ExpandDims(iattr("axis") as u32),
        "tile.addptr" => OpKind::AddPtr,
        "tile.ptr_cast" => OpKind::PtrCast,
        "tile.load" => OpKind::Load { mask: has(1), other: has(2) },
        "tile.store" => OpKind::Store { mask: operand_tys.len() == 3 },
        "tile.reduce" => {
            let kind = match sattr("kind").as_str() {
                "max" => ReduceKind::Max,
                "min" => ReduceKind::Min,
                _ => ReduceKind::Sum,
            };
            OpKind::Reduce(kind, iattr("axis") as u32)
        }
        "tile.dot" => OpKind::Dot,
        "tile.barrier" => OpKind::Barrier,
        "shmem.my_pe" => OpKind::MyPe,
        "shmem.n_pes" => OpKind::NPes,
        "shmem.remote_ptr" => OpKind::RemotePtr,
        "shmem.put" => OpKind::Put { scope: scope(), nbi: nbi() },
        "shmem.get" => OpKind::Get { scope: scope(), nbi: nbi() },
        "shmem.put_signal" => OpKind::PutSignal { scope: scope(), nbi: nbi(), sig_op: sig_op() },
        "shmem.signal_op" => OpKind::SignalOp(sig_op()),
        "shmem.signal_wait_until" => {
            OpKind::WaitUntil(CmpPred::parse_shmem(&sattr("cmp")).ok_or_else(|| format!("bad cmp {}", sattr("cmp")))?)
        }
        "shmem.consume_token" => OpKind::ConsumeToken,
        "shmem.fence" => OpKind::Fence,
        "shmem.quiet" => OpKind::Quiet,
        "shmem.barrier_all" => OpKind::BarrierAll,
        "shmem.multimem_st" => OpKind::MultimemSt { mask: operand_tys.len() == 3 },
        "shmem.multimem_ld_reduce" => OpKind::MultimemLdReduce { mask: operand_tys.len() == 2 },
        "shmem.ll_pack" => OpKind::LlPack,
        "shmem.ll_recv" => OpKind::LlRecv { mask: operand_tys.len() == 3 },
        "scf.for" => OpKind::For,
        "scf.if" => OpKind::If,
        "scf.yield" => OpKind::Yield,
        "func.return" => OpKind::Return,
        other => return Err(format!("`{other}` is not part of the tile/shmem contract")),
    })
}

impl Importer {
    fn block_ops(&mut self, mut op: Option<OperationRef>, block: Block) -> Result<(), ImportError> {
        while let Some(o) = op {
            self.op(&o, block)?;
            op = o.next_in_block();
        }
        Ok(())
    }

    fn value(&self, v: melior::ir::Value, loc: &str) -> Result<Value, ImportError> {
        self.values
            .get(&(v.to_raw().ptr as usize))
            .copied()
            .ok_or_else(|| ImportError { loc: loc.into(), message: "operand defined outside the kernel".into() })
    }

    fn op(&mut self, o: &OperationRef, block: Block) -> Result<(), ImportError> {
        let loc_s = o.location().to_string();
        let fail = |m: String| ImportError { loc: loc_s.clone(), message: m };
        let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
        if name == "tile.convert_layout" && self.enc.is_some() {
            return self.convert(o, &loc_s);
        }
        let operands: Vec<Value> = o.operands().map(|v| self.value(v, &loc_s)).collect::<Result<_, _>>()?;
        let reads: Vec<Option<(String, Option<String>)>> = o.operands().map(|v| self.converted.get(&(v.to_raw().ptr as usize)).cloned()).collect();
        let operand_tys: Vec<Type> = operands.iter().map(|&v| self.k.ty(v).clone()).collect();
        let mut result_tys = vec![];
        let mut result_encs = vec![];
        for r in o.results() {
            let t = r.r#type().to_string();
            let (ty, e) = self.split_type(&t).ok_or_else(|| fail(format!("unsupported result type {t} of `{name}`")))?;
            result_tys.push(ty);
            result_encs.push(e);
        }
        let kind = kind_of(&name, o, &operand_tys, &result_tys).map_err(&fail)?;
        let mut regions = vec![];
        for r in 0..o.region_count() {
            let region = o.region(r).map_err(|e| fail(e.to_string()))?;
            let b = self.k.new_block();
            if let Some(first) = region.first_block() {
                for i in 0..first.argument_count() {
                    let a = first.argument(i).map_err(|e| fail(e.to_string()))?;
                    let t = a.r#type().to_string();
                    let v = self.typed(&t, &format!("block argument {i} of `{name}` at {loc_s}"), |k, ty| k.add_block_arg(b, ty)).map_err(&fail)?;
                    self.values.insert(a.to_raw().ptr as usize, v);
                }
                self.block_ops(first.first_operation(), b)?;
            }
            if self.k.block(b).ops.is_empty() {
                // An elided empty `else` region still ends in a yield.
                self.k.push_op(b, OpKind::Yield, vec![], vec![], vec![], Loc::default());
            }
            regions.push(b);
        }
        let op = self.k.push_op(block, kind, operands, result_tys, regions, parse_loc(&loc_s));
        let results = self.k.op(op).results.clone();
        for (i, (r, v)) in o.results().zip(results).enumerate() {
            self.values.insert(r.to_raw().ptr as usize, v);
            if let (Some(enc), Some(e)) = (self.enc.as_mut(), result_encs[i].take()) {
                enc.defs.insert(v, e);
                enc.names.insert(v, format!("result {i} of `{name}` at {loc_s}"));
            }
        }
        if let Some(enc) = self.enc.as_mut() {
            for (i, r) in reads.into_iter().enumerate() {
                if let Some((e, shared)) = r {
                    enc.reads.insert((op, i), e);
                    if let Some(s) = shared {
                        enc.shared.insert((op, i), s);
                    }
                }
            }
        }
        Ok(())
    }

    /// A type and its encoding; an encoding outside a layout-stage import is refused.
    fn split_type(&self, t: &str) -> Option<(Type, Option<String>)> {
        let (ty, e) = parse_encoded_type(t)?;
        (e.is_none() || self.enc.is_some()).then_some((ty, e))
    }

    /// Adds a value of type spelling `t` with `make`, recording its encoding under `what`.
    fn typed(&mut self, t: &str, what: &str, make: impl FnOnce(&mut Kernel, Type) -> Value) -> Result<Value, String> {
        let (ty, e) = self.split_type(t).ok_or_else(|| format!("unsupported type {t} of {what}"))?;
        let v = make(&mut self.k, ty);
        if let (Some(enc), Some(e)) = (self.enc.as_mut(), e) {
            enc.defs.insert(v, e);
            enc.names.insert(v, what.to_string());
        }
        Ok(v)
    }

    /// `tile.convert_layout`: its result is the operand's value, read in another encoding.
    fn convert(&mut self, o: &OperationRef, loc: &str) -> Result<(), ImportError> {
        let fail = |m: String| ImportError { loc: loc.into(), message: m };
        let (Ok(src), Ok(res)) = (o.operand(0), o.result(0)) else { return Err(fail("tile.convert_layout takes one operand and one result".into())) };
        let v = self.value(src, loc)?;
        let t = res.r#type().to_string();
        let e = parse_encoded_type(&t).and_then(|(_, e)| e).ok_or_else(|| fail(format!("tile.convert_layout to {t}, a type without an encoding")))?;
        let shared = attr(o, "weft.shared");
        let key = res.to_raw().ptr as usize;
        self.values.insert(key, v);
        self.converted.insert(key, (e, shared));
        Ok(())
    }
}

/// `s` split at the commas that are not inside a quoted string (constexpr values may hold
/// commas, e.g. `divisible_by_16 = "a,b,k"`).
fn split_outside_quotes(s: &str) -> Vec<&str> {
    let (mut out, mut start, mut quoted) = (vec![], 0, false);
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}
