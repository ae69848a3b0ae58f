//! The LLVM IR text emitter shared by the GPU op lowerings: SSA and block naming, per-thread
//! types of tiles, constants, declarations and the values every thread computes once.

use super::layout::Blocked;
use super::layout_infer::AccLayouts;
use super::sync::{pointer_roots, Root};
use super::target::{Snippet, Sreg, TargetInfo};
use crate::ir::{ConstVal, Elem, Kernel, Op, Scalar, Type, Value};
use crate::lower::LowerError;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;

/// The attribute group of call sites kept out of line.
pub(crate) const NOINLINE: u32 = 1;

/// The emitter for one kernel.
pub(crate) struct Gx<'k> {
    pub k: &'k Kernel,
    pub t: &'k dyn TargetInfo,
    /// Warps per CTA (the `num_warps` constexpr).
    pub num_warps: usize,
    /// Function body text.
    pub out: String,
    /// Lines computed once in the entry block (thread id, layout bases), spliced in at the end
    /// so that they dominate every use wherever the first use was.
    pub entry: String,
    /// Entry-block values already computed, by key.
    entry_vals: HashMap<String, String>,
    /// `declare` lines and module globals, by symbol.
    pub decls: BTreeMap<String, String>,
    names: HashMap<Value, String>,
    next: u32,
    /// The label of the block being written (phis name their predecessors by it).
    pub cur: String,
    /// Contiguity, divisibility and constancy of every value (shared with the CPU lowering).
    pub axis: crate::analysis::AxisInfos,
    /// The interval of every integer value (under the variant's small-integer facts).
    pub ranges: crate::analysis::int_range::IntRanges,
    /// The op defining each op result.
    pub defs: HashMap<Value, Op>,
    /// Tiles holding one value in every slot of every thread, by that scalar's SSA name.
    pub uniform: HashMap<Value, String>,
    /// The buffer each pointer value derives from.
    pub roots: HashMap<Value, Root>,
    /// Buffers stored to since the last CTA barrier.
    pub pending: BTreeSet<Root>,
    /// Values held in a dot accumulator layout (named in it), as the layout stage decided.
    pub accs: AccLayouts,
    /// The blocked-layout copy of accumulator values that some op reads blocked.
    pub blocked_form: HashMap<Value, String>,
    /// Bytes of the CTA's scratch shared memory that conversions and dots use.
    pub smem_bytes: usize,
    /// Tiles of LL words (`ll_pack` results).
    pub ll_words: HashSet<Value>,
    /// The `num_stages` ring of the K loop being lowered, if any.
    pub ring: Option<super::pipeline_ring::Ring>,
    /// The most accumulator registers per thread of a dot that a `num_stages` ring feeds.
    pub ring_acc: Option<usize>,
    /// A `wgmma` ring's copies for this step, emitted after the dot's `wait_group 1`.
    pub deferred: Option<String>,
    /// The register-prefetching K loop being lowered (no `cp.async`), if any.
    pub prefetch: Option<super::prefetch_ring::Prefetch>,
    /// The tensor maps the kernel takes after its own parameters (TMA rings).
    pub tma_params: Vec<weft_runtime::cuda::tensor_map::TmaParam>,
    /// A TMA ring's copies for this step, issued after the dot's `wait_group 1`.
    pub tma_pending: Option<(super::pipeline_ring::Ring, super::tma_ring::TmaSlots)>,
    /// The ring each ringed loop's dot got (for [`super::staging_report`]).
    pub rings: HashMap<Op, super::staging_report::RingNote>,
}

impl<'k> Gx<'k> {
    /// The emitter of `k` with `num_warps` warps, holding the values `accs` names in their
    /// accumulator layouts (from the layout stage).
    pub fn new(k: &'k Kernel, t: &'k dyn TargetInfo, num_warps: usize, accs: AccLayouts) -> Gx<'k> {
        Gx {
            k,
            t,
            num_warps,
            out: String::new(),
            entry: String::new(),
            entry_vals: HashMap::new(),
            decls: BTreeMap::new(),
            names: HashMap::new(),
            next: 0,
            cur: "entry".into(),
            axis: crate::analysis::AxisInfos::analyze(k),
            ranges: crate::analysis::int_range::IntRanges::analyze(k),
            defs: (0..k.ops.len() as u32).flat_map(|i| k.ops[i as usize].results.iter().map(move |&r| (r, Op(i)))).collect(),
            uniform: HashMap::new(),
            roots: pointer_roots(k),
            pending: BTreeSet::new(),
            accs,
            blocked_form: HashMap::new(),
            smem_bytes: 0,
            ll_words: HashSet::new(),
            ring: None,
            ring_acc: None,
            deferred: None,
            prefetch: None,
            tma_params: vec![],
            tma_pending: None,
            rings: HashMap::new(),
        }
    }

    /// Threads per CTA.
    pub fn threads(&self) -> usize {
        self.num_warps * self.t.warp_size()
    }

    pub fn line(&mut self, s: &str) {
        let _ = writeln!(self.out, "  {s}");
    }

    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    /// A new unique block label with a readable prefix.
    pub fn label(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    /// Starts block `l`.
    pub fn start(&mut self, l: &str) {
        let _ = writeln!(self.out, "{l}:");
        self.cur = l.to_string();
    }

    pub fn br(&mut self, l: &str) {
        self.line(&format!("br label %{l}"));
    }

    pub fn cond_br(&mut self, c: &str, t: &str, f: &str) {
        self.line(&format!("br i1 {c}, label %{t}, label %{f}"));
    }

    /// Emits `%r = <rhs>` and returns `%r`.
    pub fn assign(&mut self, rhs: &str) -> String {
        let r = self.fresh();
        self.line(&format!("{r} = {rhs}"));
        r
    }

    /// Records a declaration or global once.
    pub fn declare(&mut self, symbol: &str, text: &str) {
        self.decls.entry(symbol.to_string()).or_insert_with(|| text.to_string());
    }

    /// Calls function `name` (declared here with `ret` and the argument types), returning
    /// the result's SSA name when `ret` is not `void`.
    pub fn call(&mut self, name: &str, ret: &str, args: &[(&str, &str)]) -> Option<String> {
        self.call_with(name, ret, args, "")
    }

    /// [`Gx::call`] of a library function kept out of line (`noinline` at this call site).
    pub fn call_outlined(&mut self, name: &str, ret: &str, args: &[(&str, &str)]) -> Option<String> {
        self.call_with(name, ret, args, &format!(" #{NOINLINE}"))
    }

    fn call_with(&mut self, name: &str, ret: &str, args: &[(&str, &str)], attrs: &str) -> Option<String> {
        let tys: Vec<&str> = args.iter().map(|a| a.1).collect();
        self.declare(name, &format!("declare {ret} @{name}({})", tys.join(", ")));
        let list: Vec<String> = args.iter().map(|(v, t)| format!("{t} {v}")).collect();
        let call = format!("call {ret} @{name}({}){attrs}", list.join(", "));
        if ret == "void" {
            self.line(&call);
            None
        } else {
            Some(self.assign(&call))
        }
    }

    /// A value computed once in the entry block under `key`, from the lines `make` writes
    /// (which take the result name).
    pub fn entry_value(&mut self, key: &str, make: impl FnOnce(&mut Self, &str) -> Vec<String>) -> String {
        if let Some(v) = self.entry_vals.get(key) {
            return v.clone();
        }
        let r = self.fresh();
        for l in make(self, &r) {
            let _ = writeln!(self.entry, "  {l}");
        }
        self.entry_vals.insert(key.to_string(), r.clone());
        r
    }

    /// A hardware index (thread id, CTA id, grid size), read once in the entry block.
    pub fn sreg(&mut self, reg: Sreg) -> String {
        let t = self.t;
        self.entry_value(&format!("sreg.{reg:?}"), |g, r| {
            let s = t.sreg(reg, r);
            g.declare_all(&s.decls);
            s.lines
        })
    }

    /// This thread's index in the CTA.
    pub fn tid(&mut self) -> String {
        self.sreg(Sreg::Tid)
    }

    /// Writes a target's snippet into the current block.
    pub fn emit(&mut self, s: Snippet) {
        self.declare_all(&s.decls);
        for l in &s.lines {
            self.line(l);
        }
    }

    /// A target snippet computing a fresh value; returns its name.
    pub fn emit_value(&mut self, make: impl FnOnce(&dyn TargetInfo, &str) -> Snippet) -> String {
        let r = self.fresh();
        let s = make(self.t, &r);
        self.emit(s);
        r
    }

    fn declare_all(&mut self, decls: &[(String, String)]) {
        for (sym, text) in decls {
            self.declare(sym, text);
        }
    }

    /// The first element this thread holds of tiles laid out as `l`.
    pub fn layout_base(&mut self, l: &Blocked) -> String {
        let tid = self.tid();
        let (per, numel) = (l.per, l.numel);
        let threads = l.threads;
        if l.replicated() {
            self.entry_value(&format!("base.rep.{numel}"), |_, r| {
                let m = format!("{r}.m");
                vec![format!("{m} = mul nuw i32 {tid}, {numel}"), format!("{r} = udiv i32 {m}, {threads}")]
            })
        } else {
            self.entry_value(&format!("base.{per}"), |_, r| vec![format!("{r} = mul nuw i32 {tid}, {per}")])
        }
    }

    /// `i1`: whether this thread owns the elements it holds of tiles laid out as `l`.
    pub fn owner(&mut self, l: &Blocked) -> Option<String> {
        if !l.replicated() {
            return None;
        }
        let tid = self.tid();
        let (numel, threads) = (l.numel, l.threads);
        Some(self.entry_value(&format!("owner.{numel}"), |_, r| {
            let (m, k) = (format!("{r}.m"), format!("{r}.k"));
            vec![format!("{m} = mul nuw i32 {tid}, {numel}"), format!("{k} = urem i32 {m}, {threads}"), format!("{r} = icmp ult i32 {k}, {numel}")]
        }))
    }

    /// The layout of a tile type.
    pub fn layout_of(&self, op: Op, t: &Type) -> Result<Blocked, LowerError> {
        Blocked::new(t.numel(), self.threads()).map_err(|e| self.unsupported(op, &e.to_string()))
    }

    /// Register slots per thread of a value of type `t` (`None` for scalars).
    pub fn slots(&self, t: &Type) -> Option<usize> {
        t.is_tensor().then(|| Blocked::new(t.numel(), self.threads()).map(|l| l.per).unwrap_or(1))
    }

    /// The lowered SSA name (or constant) of `v`.
    pub fn name(&self, v: Value) -> String {
        self.names.get(&v).cloned().unwrap_or_else(|| format!("%v{}", v.0))
    }

    /// Makes `v` an alias of an existing SSA name or constant.
    pub fn bind(&mut self, v: Value, name: String) {
        self.names.insert(v, name);
    }

    /// The canonical SSA name of `v`, for an instruction that defines it directly.
    pub fn def(&mut self, v: Value) -> String {
        let n = format!("%v{}", v.0);
        self.names.insert(v, n.clone());
        n
    }

    pub fn ty(&self, v: Value) -> &'k Type {
        self.k.ty(v)
    }

    /// The per-thread LLVM type of an IR type: scalars as themselves, tiles as a vector of
    /// the slots this thread holds.
    pub fn lty(&self, t: &Type) -> String {
        match t {
            Type::Token => "i64".into(),
            Type::Val { elem, .. } => {
                let e = elem_ty(*elem);
                match self.slots(t) {
                    Some(p) => format!("<{p} x {e}>"),
                    None => e.into(),
                }
            }
        }
    }

    /// The per-thread LLVM type of `v` in the layout it is held in.
    pub fn vty(&self, v: Value) -> String {
        match self.accs.layout.get(&v) {
            Some(l) => format!("<{} x {}>", l.slots(), elem_ty(self.ty(v).elem().unwrap_or(Elem::Num(Scalar::F32)))),
            None => self.lty(self.ty(v)),
        }
    }

    /// Splats scalar SSA `s` of LLVM type `elem` to `<p x elem>`.
    pub fn splat(&mut self, s: &str, elem: &str, p: usize) -> String {
        let one = self.assign(&format!("insertelement <1 x {elem}> poison, {elem} {s}, i64 0"));
        let zeros = vec!["i32 0"; p].join(", ");
        self.assign(&format!("shufflevector <1 x {elem}> {one}, <1 x {elem}> poison, <{p} x i32> <{zeros}>"))
    }

    /// Slot `i` of vector `v` of type `<p x elem>`.
    pub fn extract(&mut self, v: &str, vty: &str, i: usize) -> String {
        self.assign(&format!("extractelement {vty} {v}, i64 {i}"))
    }

    /// Sign-extends integer SSA `v` of IR scalar `s` to i64 (`p` slots, or scalar).
    pub fn to_i64(&mut self, v: &str, s: Scalar, p: Option<usize>) -> String {
        if s == Scalar::I64 {
            return v.to_string();
        }
        let (from, to) = (shaped(s.llvm(), p), shaped("i64", p));
        let op = if s == Scalar::I1 { "zext" } else { "sext" };
        self.assign(&format!("{op} {from} {v} to {to}"))
    }

    pub fn unsupported(&self, op: Op, why: &str) -> LowerError {
        let d = self.k.op(op);
        LowerError::Unsupported { op: d.kind.name().into(), loc: d.loc.clone(), target: self.t.name().into(), why: why.into() }
    }

    pub fn malformed(&self, op: Op, why: &str) -> LowerError {
        let d = self.k.op(op);
        LowerError::Malformed { op: d.kind.name().into(), loc: d.loc.clone(), why: why.into() }
    }
}

/// LLVM spellings of IR scalars.
pub(crate) trait LlvmScalar {
    /// The LLVM type (`float`, `bfloat`, `i32`, ...).
    fn llvm(self) -> &'static str;
    /// The LLVM type in memory (`i1` is stored as a byte).
    fn mem(self) -> &'static str;
    /// The intrinsic type suffix (`f32`, `bf16`, `i64`).
    fn suffix(self) -> &'static str;
}

impl LlvmScalar for Scalar {
    fn llvm(self) -> &'static str {
        match self {
            Scalar::F16 => "half",
            Scalar::BF16 => "bfloat",
            Scalar::F32 => "float",
            // LLVM has no FP8 type: bytes, converted by `cvt` or `lower::fp8`'s integer code.
            Scalar::F8E4M3FN | Scalar::F8E5M2 => "i8",
            other => other.mlir(),
        }
    }

    fn mem(self) -> &'static str {
        if self == Scalar::I1 { "i8" } else { self.llvm() }
    }

    fn suffix(self) -> &'static str {
        self.mlir()
    }
}

/// The LLVM type of one element.
pub(crate) fn elem_ty(e: Elem) -> &'static str {
    match e {
        Elem::Num(s) => s.llvm(),
        Elem::Ptr(_) => "ptr",
    }
}

/// `elem` as a scalar or as `<p x elem>`.
pub(crate) fn shaped(elem: &str, p: Option<usize>) -> String {
    match p {
        Some(p) => format!("<{p} x {elem}>"),
        None => elem.to_string(),
    }
}

/// The intrinsic suffix of scalar `s` as a scalar or `p`-slot vector (`f32`, `v4f32`).
pub(crate) fn suffix(s: Scalar, p: Option<usize>) -> String {
    match p {
        Some(p) => format!("v{p}{}", s.suffix()),
        None => s.suffix().to_string(),
    }
}

/// The scalar element of a numeric or pointer value type (the pointee for pointers).
pub(crate) fn num_elem(t: &Type) -> Scalar {
    match t.elem() {
        Some(Elem::Num(s)) | Some(Elem::Ptr(s)) => s,
        None => Scalar::I64,
    }
}

/// An LLVM constant literal of scalar `s`.
pub(crate) fn literal(c: ConstVal, s: Scalar) -> String {
    let f = match c {
        ConstVal::Int(i) if s.is_int() => {
            return if s == Scalar::I1 { (if i != 0 { "true" } else { "false" }).into() } else { i.to_string() };
        }
        ConstVal::Int(i) => i as f64,
        ConstVal::Float(f) if s.is_int() => return (f as i64).to_string(),
        ConstVal::Float(f) => f,
    };
    match s {
        // LLVM spells float constants as the bits of the equal double.
        Scalar::F16 => format!("0xH{:04X}", crate::ir::print::half_bits(c, s)),
        Scalar::BF16 => format!("0xR{:04X}", crate::ir::print::half_bits(c, s)),
        _ => format!("0x{:016X}", ((f as f32) as f64).to_bits()),
    }
}

/// A constant operand (the type is written separately) of a scalar or `<p x elem>` with every
/// slot `lit`.
pub(crate) fn splat_literal(lit: &str, elem: &str, p: Option<usize>) -> String {
    match p {
        Some(_) => format!("splat ({elem} {lit})"),
        None => lit.to_string(),
    }
}
