//! The text emitter shared by the CPU lowering: SSA naming, types, constants, context
//! fields and runtime calls, plus the side tables of the contiguity analysis.

use super::half::cpu_ty;
use crate::ir::{Elem, Kernel, Op, Scalar, Type, Value};
use crate::lower::SiteInfo;
use std::collections::HashMap;
use std::fmt::Write;
use weft_runtime::abi::ctx_offset;

/// `off[i] = scalar + start + i` over the flattened tile (an `i64` scalar SSA, if any).
#[derive(Clone, Debug)]
pub(crate) struct Affine {
    pub scalar: Option<String>,
    pub start: i64,
}

pub(crate) struct Cx<'k> {
    pub k: &'k Kernel,
    pub out: String,
    pub depth: usize,
    names: HashMap<Value, String>,
    next: u32,
    pub sites: Vec<SiteInfo>,
    /// Lowered scalar of values that are splats.
    pub splat: HashMap<Value, String>,
    /// Integer tiles that are an affine range.
    pub affine: HashMap<Value, Affine>,
    /// Pointer tiles that address consecutive elements from this base (`!llvm.ptr`).
    pub contig: HashMap<Value, String>,
    /// Facts about 2-D tiles built from row and column vectors (see `grid`).
    pub grid: HashMap<Value, super::grid::Grid>,
    /// Tiles whose lanes also sit, row-major, in a stack buffer (`!llvm.ptr`), so `dot` and
    /// row-wise stores read them in place instead of spilling them again.
    pub mem: HashMap<Value, String>,
    /// `llvm.alloca` lines, hoisted into the entry block so loops do not grow the stack.
    allocas: Vec<String>,
    /// Per enclosing region whose `scf.yield` is a loop's (`None` for an `scf.if`): the
    /// buffer each loop-carried value lives in, for the ones carried in memory.
    pub carried: Vec<Option<Vec<Option<String>>>>,
    /// Loop-carried block arguments kept in memory: the loop body and the arg's position.
    pub carried_args: HashMap<Value, (crate::ir::Block, usize)>,
    /// Contiguity, divisibility and constancy of every value (shared with the GPU lowering).
    pub axis: crate::analysis::AxisInfos,
    /// Whether tile accesses are reported to the race detector (see `racecheck`).
    pub racecheck: bool,
    /// f32 lanes of the target's vectors (`TargetMachine::f32_lanes`): the dot microkernel's width.
    pub lanes: usize,
    /// Bytes of the lane buffer those reports need (0: none yet).
    pub race_buf: usize,
}

impl<'k> Cx<'k> {
    pub fn new(k: &'k Kernel) -> Cx<'k> {
        Cx {
            k,
            out: String::new(),
            depth: 2,
            names: HashMap::new(),
            next: 0,
            sites: vec![],
            splat: HashMap::new(),
            affine: HashMap::new(),
            contig: HashMap::new(),
            grid: HashMap::new(),
            mem: HashMap::new(),
            allocas: vec![],
            carried: vec![],
            carried_args: HashMap::new(),
            axis: crate::analysis::AxisInfos::analyze(k),
            racecheck: false,
            lanes: 8,
            race_buf: 0,
        }
    }

    /// A stack buffer of `n` elements of `elem`, allocated once in the entry block.
    pub fn alloca(&mut self, elem: Scalar, n: usize) -> String {
        let (one, r) = (self.fresh(), self.fresh());
        self.push_alloca(&one, &r, elem, n);
        r
    }

    /// [`Cx::alloca`] under the SSA name `r`.
    pub fn alloca_named(&mut self, r: &str, elem: Scalar, n: usize) {
        let one = self.fresh();
        self.push_alloca(&one, r, elem, n);
    }

    fn push_alloca(&mut self, one: &str, r: &str, elem: Scalar, n: usize) {
        let e = if elem == Scalar::I1 { "i8" } else { cpu_ty(elem) };
        self.allocas.push(format!("    {one} = llvm.mlir.constant(1 : i64) : i64\n"));
        self.allocas.push(format!("    {r} = llvm.alloca {one} x !llvm.array<{n} x {e}> {{alignment = 64 : i64}} : (i64) -> !llvm.ptr\n"));
    }

    /// Splices the hoisted allocas into the output at byte offset `at` (the entry block).
    pub fn place_allocas(&mut self, at: usize) {
        let lines = std::mem::take(&mut self.allocas).concat();
        self.out.insert_str(at, &lines);
    }

    /// Writes the module header, the entry function and the argument loads.
    pub fn prologue(&mut self, symbol: &str) {
        let _ = writeln!(self.out, "module {{");
        let _ = writeln!(self.out, "  func.func @{symbol}(%ctx: !llvm.ptr, %args: !llvm.ptr) {{");
        self.line("%fns = llvm.load %ctx : !llvm.ptr -> !llvm.ptr");
        for (i, p) in self.k.params.iter().enumerate() {
            let slot = self.fresh();
            self.line(&format!("{slot} = llvm.getelementptr %args[{i}] : (!llvm.ptr) -> !llvm.ptr, i64"));
            let ty = self.lty(self.k.ty(p.value));
            let name = format!("%v{}", p.value.0);
            self.line(&format!("{name} = llvm.load {slot} : !llvm.ptr -> {ty}"));
            self.names.insert(p.value, name);
        }
    }

    pub fn line(&mut self, s: &str) {
        let pad = "  ".repeat(self.depth);
        let _ = writeln!(self.out, "{pad}{s}");
    }

    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    /// The lowered SSA name of `v`.
    pub fn name(&self, v: Value) -> String {
        self.names.get(&v).cloned().unwrap_or_else(|| format!("%v{}", v.0))
    }

    /// Makes `v` an alias of an existing SSA name.
    pub fn bind(&mut self, v: Value, name: String) {
        self.names.insert(v, name);
    }

    /// The canonical SSA name for `v` (used when the op defines it directly).
    pub fn def(&mut self, v: Value) -> String {
        let n = format!("%v{}", v.0);
        self.names.insert(v, n.clone());
        n
    }

    pub fn ty(&self, v: Value) -> &'k Type {
        self.k.ty(v)
    }

    /// Lowered type of an IR type.
    pub fn lty(&self, t: &Type) -> String {
        match t {
            Type::Token => "i64".into(),
            Type::Val { elem, shape } if shape.is_empty() => match elem {
                Elem::Num(s) => cpu_ty(*s).into(),
                Elem::Ptr(_) => "!llvm.ptr".into(),
            },
            Type::Val { elem, .. } => {
                let e = match elem {
                    Elem::Num(s) => cpu_ty(*s),
                    Elem::Ptr(_) => "i64",
                };
                format!("vector<{}x{e}>", t.numel())
            }
        }
    }

    pub fn vty(&self, v: Value) -> String {
        self.lty(self.ty(v))
    }

    pub fn const_int(&mut self, x: i64, s: &str) -> String {
        let n = self.fresh();
        self.line(&format!("{n} = arith.constant {x} : {s}"));
        n
    }

    /// Splats scalar SSA `s` of type `elem` to `vector<N x elem>`.
    pub fn broadcast(&mut self, s: &str, elem: &str, n: usize) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = vector.broadcast {s} : {elem} to vector<{n}x{elem}>"));
        r
    }

    /// Loads an i32 field of the kernel context.
    pub fn ctx_i32(&mut self, offset: usize) -> String {
        let p = self.fresh();
        self.line(&format!("{p} = llvm.getelementptr %ctx[{offset}] : (!llvm.ptr) -> !llvm.ptr, i8"));
        let r = self.fresh();
        self.line(&format!("{r} = llvm.load {p} : !llvm.ptr -> i32"));
        r
    }

    /// The first rank of this rank's node.
    pub fn node_first_rank(&mut self) -> String {
        let rank = self.ctx_i32(ctx_offset::RANK);
        let local = self.ctx_i32(ctx_offset::LOCAL_RANK);
        let r = self.fresh();
        self.line(&format!("{r} = arith.subi {rank}, {local} : i32"));
        r
    }

    /// Registers a runtime call site for `op` and returns its index as an `i32` constant.
    pub fn site(&mut self, op: Op) -> String {
        let d = self.k.op(op);
        self.sites.push(SiteInfo { op: d.kind.name().into(), loc: d.loc.clone() });
        let idx = self.sites.len() as i64 - 1;
        self.const_int(idx, "i32")
    }

    /// Calls runtime table slot `slot` with `(ctx, args...)`; `args` are `(ssa, type)`.
    pub fn rt_call(&mut self, slot: usize, args: &[(&str, &str)], ret: Option<&str>) -> Option<String> {
        let fpp = self.fresh();
        self.line(&format!("{fpp} = llvm.getelementptr %fns[{slot}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"));
        let fp = self.fresh();
        self.line(&format!("{fp} = llvm.load {fpp} : !llvm.ptr -> !llvm.ptr"));
        let mut names = vec!["%ctx".to_string()];
        let mut tys = vec!["!llvm.ptr".to_string()];
        for (n, t) in args {
            names.push(n.to_string());
            tys.push(t.to_string());
        }
        let sig = format!("!llvm.ptr, ({}) -> {}", tys.join(", "), ret.unwrap_or("()"));
        match ret {
            Some(_) => {
                let r = self.fresh();
                self.line(&format!("{r} = llvm.call {fp}({}) : {sig}", names.join(", ")));
                Some(r)
            }
            None => {
                self.line(&format!("llvm.call {fp}({}) : {sig}", names.join(", ")));
                None
            }
        }
    }

    /// Scalar pointer `base + off` elements of `elem` (`off` an i64 SSA).
    pub fn gep(&mut self, base: &str, off: &str, elem: Scalar) -> String {
        let r = self.fresh();
        let e = if elem == Scalar::I1 { "i8" } else { cpu_ty(elem) };
        self.line(&format!("{r} = llvm.getelementptr {base}[{off}] : (!llvm.ptr, i64) -> !llvm.ptr, {e}"));
        r
    }

    /// Sign-extends an integer SSA of scalar type `s` to i64 (no-op for i64).
    pub fn to_i64(&mut self, v: &str, s: Scalar, vector: Option<usize>) -> String {
        if s == Scalar::I64 {
            return v.to_string();
        }
        let (from, to) = match vector {
            Some(n) => (format!("vector<{n}x{}>", cpu_ty(s)), format!("vector<{n}xi64>")),
            None => (cpu_ty(s).to_string(), "i64".to_string()),
        };
        let r = self.fresh();
        self.line(&format!("{r} = arith.extsi {v} : {from} to {to}"));
        r
    }

    pub fn unsupported(&self, op: Op, why: &str) -> crate::lower::LowerError {
        let d = self.k.op(op);
        crate::lower::LowerError::Unsupported { op: d.kind.name().into(), loc: d.loc.clone(), target: "cpu".into(), why: why.into() }
    }

    pub fn malformed(&self, op: Op, why: &str) -> crate::lower::LowerError {
        let d = self.k.op(op);
        crate::lower::LowerError::Malformed { op: d.kind.name().into(), loc: d.loc.clone(), why: why.into() }
    }
}

/// The scalar element type of a numeric value type.
pub(crate) fn num_elem(t: &Type) -> Scalar {
    match t.elem() {
        Some(Elem::Num(s)) | Some(Elem::Ptr(s)) => s,
        None => Scalar::I64,
    }
}
