//! Prints a [`Kernel`] as MLIR text: custom syntax for upstream ops, generic syntax for
//! `tile` / `shmem` (as IRDL ops print), with `loc(...)` on every op when asked.

use super::*;
use std::fmt::Write;

/// Prints `kernel` as a module. With `locs`, every op carries its source location.
pub fn print_kernel(k: &Kernel, locs: bool) -> String {
    let mut p = Printer { k, out: String::new(), locs, ann: None };
    p.kernel();
    p.out
}

/// What a later stage adds to the printed kernel (the layout stage's encodings and
/// conversions): type spellings, operands read through an extra value, and lines around ops.
#[derive(Default)]
pub struct Annotations {
    /// The type spelling of a value (kernel values and the extra ones), where not the plain one.
    pub types: std::collections::HashMap<Value, String>,
    /// Operand `i` of an op printed as another value.
    pub operands: std::collections::HashMap<(Op, usize), Value>,
    /// Lines printed before an op, after it, and at the start of a block.
    pub before: std::collections::HashMap<Op, Vec<String>>,
    pub after: std::collections::HashMap<Op, Vec<String>>,
    pub block_start: std::collections::HashMap<Block, Vec<String>>,
    /// The kernel value each extra value is a copy of (its element type and shape).
    pub origin: std::collections::HashMap<Value, Value>,
}

/// [`print_kernel`] with `ann` applied.
pub fn print_kernel_annotated(k: &Kernel, locs: bool, ann: &Annotations) -> String {
    let mut p = Printer { k, out: String::new(), locs, ann: Some(ann) };
    p.kernel();
    p.out
}

struct Printer<'a> {
    k: &'a Kernel,
    out: String,
    locs: bool,
    ann: Option<&'a Annotations>,
}

fn v(x: Value) -> String {
    format!("%v{}", x.0)
}

/// The bits of constant `c` rounded to 16-bit float `s` (f16 unless `s` is bf16).
pub fn half_bits(c: ConstVal, s: Scalar) -> u16 {
    let f = match c {
        ConstVal::Int(i) => i as f64,
        ConstVal::Float(f) => f,
    };
    if s == Scalar::BF16 { half::bf16::from_f64(f).to_bits() } else { half::f16::from_f64(f).to_bits() }
}

/// MLIR literal for a constant of scalar type `s` (floats as exact hex bit patterns).
pub fn const_literal(c: ConstVal, s: Scalar) -> String {
    match (c, s) {
        (ConstVal::Int(i), Scalar::I1) => (if i != 0 { "true" } else { "false" }).into(),
        (ConstVal::Int(i), s) if s.is_int() => i.to_string(),
        (c, s) => {
            let f = match c {
                ConstVal::Int(i) => i as f64,
                ConstVal::Float(f) => f,
            };
            match s {
                Scalar::F32 => format!("0x{:08X}", (f as f32).to_bits()),
                Scalar::F16 | Scalar::BF16 => format!("0x{:04X}", half_bits(c, s)),
                _ => (f as i64).to_string(),
            }
        }
    }
}

impl Printer<'_> {
    fn ty(&self, x: Value) -> String {
        match self.ann.and_then(|a| a.types.get(&x)) {
            Some(t) => t.clone(),
            None => self.k.ty(x).to_string(),
        }
    }

    /// The kernel type of `x` (an extra value's is its origin's).
    fn kty(&self, x: Value) -> &Type {
        self.k.ty(self.ann.and_then(|a| a.origin.get(&x)).copied().unwrap_or(x))
    }

    fn lines(&mut self, lines: Option<&Vec<String>>, pad: &str) {
        for l in lines.into_iter().flatten() {
            let _ = writeln!(self.out, "{pad}{l}");
        }
    }

    fn kernel(&mut self) {
        let k = self.k;
        let params: Vec<String> = k.params.iter().map(|p| format!("{}: {}", v(p.value), self.ty(p.value))).collect();
        let names: Vec<String> = k.params.iter().map(|p| format!("\"{}\"", p.name)).collect();
        let cx: Vec<String> = k.constexprs.iter().map(|(n, val)| format!("{n} = \"{val}\"")).collect();
        let _ = writeln!(self.out, "module {{");
        let _ = writeln!(
            self.out,
            "  func.func @{}({}) attributes {{weft.constexprs = {{{}}}, weft.params = [{}]}} {{",
            k.name,
            params.join(", "),
            cx.join(", "),
            names.join(", ")
        );
        self.block_ops(k.body, 2);
        let _ = writeln!(self.out, "  }}\n}}");
    }

    fn block_ops(&mut self, b: Block, depth: usize) {
        self.lines(self.ann.and_then(|a| a.block_start.get(&b)), &"  ".repeat(depth + 1));
        for &op in &self.k.block(b).ops {
            self.op(op, depth + 1);
        }
    }

    fn loc(&self, l: &Loc) -> String {
        if self.locs && !l.file.is_empty() {
            format!(" loc({:?}:{}:{})", l.file, l.line, l.col)
        } else {
            String::new()
        }
    }

    fn types(&self, vals: &[Value]) -> String {
        vals.iter().map(|&x| self.ty(x)).collect::<Vec<_>>().join(", ")
    }

    fn names(vals: &[Value]) -> String {
        vals.iter().map(|&x| v(x)).collect::<Vec<_>>().join(", ")
    }

    fn op(&mut self, op: Op, depth: usize) {
        let mut d = self.k.op(op).clone();
        let pad = "  ".repeat(depth);
        if let Some(a) = self.ann {
            for (i, x) in d.operands.iter_mut().enumerate() {
                *x = a.operands.get(&(op, i)).copied().unwrap_or(*x);
            }
        }
        self.lines(self.ann.and_then(|a| a.before.get(&op)), &pad);
        let lhs = if d.results.is_empty() { String::new() } else { format!("{} = ", Self::names(&d.results)) };
        let loc = self.loc(&d.loc);
        match &d.kind {
            OpKind::For => self.for_op(&d, &pad, &lhs, &loc, depth),
            OpKind::If => self.if_op(&d, &pad, &lhs, &loc, depth),
            kind => {
                let body = self.simple(kind, &d);
                let _ = writeln!(self.out, "{pad}{lhs}{body}{loc}");
            }
        }
        self.lines(self.ann.and_then(|a| a.after.get(&op)), &pad);
    }

    fn simple(&self, kind: &OpKind, d: &OpData) -> String {
        let ops = &d.operands;
        let res_ty = d.results.first().map(|&r| self.ty(r)).unwrap_or_default();
        let first_ty = ops.first().map(|&o| self.ty(o)).unwrap_or_default();
        let elem = |x: Value| match self.kty(x).elem() {
            Some(Elem::Num(s)) => s,
            _ => Scalar::I64,
        };
        match kind {
            OpKind::Const(c) => {
                let r = d.results[0];
                let lit = const_literal(*c, elem(r));
                if self.kty(r).is_tensor() {
                    format!("arith.constant dense<{lit}> : {res_ty}")
                } else if elem(r) == Scalar::I1 {
                    format!("arith.constant {lit}")
                } else {
                    format!("arith.constant {lit} : {res_ty}")
                }
            }
            OpKind::Binary(b) => {
                let name = binary_name(*b, elem(ops[0]).is_float());
                format!("{name} {}, {} : {first_ty}", v(ops[0]), v(ops[1]))
            }
            OpKind::Cmp(p) => {
                let (op, pred) = if elem(ops[0]).is_float() { ("cmpf", p.float_name()) } else { ("cmpi", p.int_name()) };
                format!("arith.{op} {pred}, {}, {} : {first_ty}", v(ops[0]), v(ops[1]))
            }
            OpKind::Select => {
                if self.kty(ops[0]).is_tensor() {
                    format!("arith.select {}, {}, {} : {first_ty}, {res_ty}", v(ops[0]), v(ops[1]), v(ops[2]))
                } else {
                    format!("arith.select {}, {}, {} : {res_ty}", v(ops[0]), v(ops[1]), v(ops[2]))
                }
            }
            OpKind::Unary(u) => {
                let name = unary_name(*u, elem(ops[0]).is_float());
                format!("{name} {} : {first_ty}", v(ops[0]))
            }
            OpKind::Cast(c) => {
                let name = cast_name(*c, elem(ops[0]), elem(d.results[0]));
                format!("{name} {} : {first_ty} to {res_ty}", v(ops[0]))
            }
            OpKind::Yield if ops.is_empty() => "scf.yield".into(),
            OpKind::Yield => format!("scf.yield {} : {}", Self::names(ops), self.types(ops)),
            OpKind::Return => "return".into(),
            _ => self.generic(kind, d),
        }
    }

    fn generic(&self, kind: &OpKind, d: &OpData) -> String {
        let attrs = generic_attrs(kind);
        let attrs = if attrs.is_empty() { String::new() } else { format!(" {{{}}}", attrs.join(", ")) };
        format!(
            "\"{}\"({}){attrs} : ({}) -> ({})",
            kind.name(),
            Self::names(&d.operands),
            self.types(&d.operands),
            self.types(&d.results)
        )
    }

    fn for_op(&mut self, d: &OpData, pad: &str, lhs: &str, loc: &str, depth: usize) {
        let body = d.regions[0];
        let args = self.k.block(body).args.clone();
        let iters: Vec<String> =
            args[1..].iter().zip(&d.operands[3..]).map(|(&a, &i)| format!("{} = {}", v(a), v(i))).collect();
        let iter_part = if iters.is_empty() {
            String::new()
        } else {
            format!(" iter_args({}) -> ({})", iters.join(", "), self.types(&d.results))
        };
        let _ = writeln!(
            self.out,
            "{pad}{lhs}scf.for {} = {} to {} step {}{iter_part} : {} {{",
            v(args[0]),
            v(d.operands[0]),
            v(d.operands[1]),
            v(d.operands[2]),
            self.ty(d.operands[0])
        );
        self.block_ops(body, depth);
        let _ = writeln!(self.out, "{pad}}}{loc}");
    }

    fn if_op(&mut self, d: &OpData, pad: &str, lhs: &str, loc: &str, depth: usize) {
        let res = if d.results.is_empty() { String::new() } else { format!(" -> ({})", self.types(&d.results)) };
        let _ = writeln!(self.out, "{pad}{lhs}scf.if {}{res} {{", v(d.operands[0]));
        self.block_ops(d.regions[0], depth);
        let _ = writeln!(self.out, "{pad}}} else {{");
        self.block_ops(d.regions[1], depth);
        let _ = writeln!(self.out, "{pad}}}{loc}");
    }
}

/// The `arith` op of a binary operation on integers or floats.
pub fn binary_name(b: BinOp, float: bool) -> &'static str {
    match (b, float) {
        (BinOp::Add, true) => "arith.addf",
        (BinOp::Add, false) => "arith.addi",
        (BinOp::Sub, true) => "arith.subf",
        (BinOp::Sub, false) => "arith.subi",
        (BinOp::Mul, true) => "arith.mulf",
        (BinOp::Mul, false) => "arith.muli",
        (BinOp::Div, true) => "arith.divf",
        (BinOp::Div, false) => "arith.divsi",
        (BinOp::Rem, true) => "arith.remf",
        (BinOp::Rem, false) => "arith.remsi",
        (BinOp::Max, true) => "arith.maximumf",
        (BinOp::Max, false) => "arith.maxsi",
        (BinOp::Min, true) => "arith.minimumf",
        (BinOp::Min, false) => "arith.minsi",
        (BinOp::And, _) => "arith.andi",
        (BinOp::Or, _) => "arith.ori",
        (BinOp::Xor, _) => "arith.xori",
        (BinOp::Shl, _) => "arith.shli",
        (BinOp::Shr, _) => "arith.shrsi",
        (BinOp::ShrU, _) => "arith.shrui",
    }
}

/// The `arith` / `math` op of a unary operation.
pub fn unary_name(u: UnOp, float: bool) -> &'static str {
    match (u, float) {
        (UnOp::Neg, _) => "arith.negf",
        (UnOp::Abs, true) => "math.absf",
        (UnOp::Abs, false) => "math.absi",
        (UnOp::Exp, _) => "math.exp",
        (UnOp::Log, _) => "math.log",
        (UnOp::Sqrt, _) => "math.sqrt",
    }
}

/// The `arith` op converting elementwise from `from` to `to`.
pub fn cast_name(c: CastKind, from: Scalar, to: Scalar) -> &'static str {
    if c == CastKind::Bitcast {
        return "arith.bitcast";
    }
    match (from.is_float(), to.is_float()) {
        (true, true) if to.bits() > from.bits() => "arith.extf",
        (true, true) => "arith.truncf",
        (false, false) if to.bits() > from.bits() && from == Scalar::I1 => "arith.extui",
        (false, false) if to.bits() > from.bits() => "arith.extsi",
        (false, false) => "arith.trunci",
        (false, true) if from == Scalar::I1 => "arith.uitofp",
        (false, true) => "arith.sitofp",
        (true, false) => "arith.fptosi",
    }
}

/// Attribute dictionary entries of a `tile` / `shmem` op, in generic form.
pub fn generic_attrs(kind: &OpKind) -> Vec<String> {
    let seg = |n: &[u32]| format!("operandSegmentSizes = array<i32: {}>", n.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
    let s = |k: &str, val: &str| format!("{k} = \"{val}\"");
    let b = |x: bool| if x { "true" } else { "false" };
    match kind {
        OpKind::ProgramId(a) | OpKind::NumPrograms(a) | OpKind::ExpandDims(a) => vec![format!("axis = {a} : i32")],
        OpKind::MakeRange(st, en) => vec![format!("end = {en} : i32"), format!("start = {st} : i32")],
        OpKind::Load { mask, other } => vec![seg(&[1, *mask as u32, *other as u32])],
        OpKind::Reduce(kind, axis) => vec![format!("axis = {axis} : i32"), s("kind", kind.name())],
        OpKind::Put { scope, nbi } | OpKind::Get { scope, nbi } => vec![s("nbi", b(*nbi)), s("scope", scope.name())],
        OpKind::PutSignal { scope, nbi, sig_op } => {
            vec![s("nbi", b(*nbi)), s("scope", scope.name()), s("sig_op", sig_op.name())]
        }
        OpKind::SignalOp(op) => vec![s("sig_op", op.name())],
        OpKind::WaitUntil(c) => vec![s("cmp", c.shmem_name())],
        OpKind::MultimemLdReduce { .. } => vec![s("kind", "sum")],
        _ => vec![],
    }
}
