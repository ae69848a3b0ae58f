//! Operation kinds. Operands live in the op's operand list; a kind carries only attributes.

/// Binary elementwise arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (signed for integers)
    Div,
    /// `%` (signed for integers)
    Rem,
    /// elementwise maximum
    Max,
    /// elementwise minimum
    Min,
    /// bitwise and
    And,
    /// bitwise or
    Or,
    /// bitwise xor
    Xor,
    /// shift left
    Shl,
    /// arithmetic shift right
    Shr,
    /// logical shift right
    ShrU,
}

/// Comparison predicates (signed for integers, ordered for floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpPred {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpPred {
    /// Name used by `arith.cmpi` / `shmem.signal_wait_until`.
    pub fn int_name(self) -> &'static str {
        match self {
            CmpPred::Eq => "eq",
            CmpPred::Ne => "ne",
            CmpPred::Lt => "slt",
            CmpPred::Le => "sle",
            CmpPred::Gt => "sgt",
            CmpPred::Ge => "sge",
        }
    }

    /// Name used by `arith.cmpf` (ordered).
    pub fn float_name(self) -> &'static str {
        match self {
            CmpPred::Eq => "oeq",
            CmpPred::Ne => "one",
            CmpPred::Lt => "olt",
            CmpPred::Le => "ole",
            CmpPred::Gt => "ogt",
            CmpPred::Ge => "oge",
        }
    }

    /// Name used by `shmem.signal_wait_until`.
    pub fn shmem_name(self) -> &'static str {
        match self {
            CmpPred::Eq => "eq",
            CmpPred::Ne => "ne",
            CmpPred::Lt => "lt",
            CmpPred::Le => "le",
            CmpPred::Gt => "gt",
            CmpPred::Ge => "ge",
        }
    }

    /// Parses a `shmem.signal_wait_until` name.
    pub fn parse_shmem(s: &str) -> Option<CmpPred> {
        [CmpPred::Eq, CmpPred::Ne, CmpPred::Lt, CmpPred::Le, CmpPred::Gt, CmpPred::Ge]
            .into_iter()
            .find(|p| p.shmem_name() == s)
    }
}

/// Elementwise unary math.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// `e^x`
    Exp,
    /// `ln x`
    Log,
    /// `sqrt x`
    Sqrt,
}

/// Reduction kinds of `tile.reduce` and `shmem.multimem_ld_reduce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKind {
    /// sum
    Sum,
    /// maximum
    Max,
    /// minimum
    Min,
}

impl ReduceKind {
    /// Attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "sum",
            ReduceKind::Max => "max",
            ReduceKind::Min => "min",
        }
    }

    /// The binary op that combines two partial results.
    pub fn combine(self) -> BinOp {
        match self {
            ReduceKind::Sum => BinOp::Add,
            ReduceKind::Max => BinOp::Max,
            ReduceKind::Min => BinOp::Min,
        }
    }
}

/// Execution scope of a data-movement op (thread, warp or block on GPUs; a hint on the CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// One thread issues the transfer.
    Thread,
    /// A warp cooperates.
    Warp,
    /// The whole program instance (thread block) cooperates.
    Block,
}

impl Scope {
    /// Attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Thread => "thread",
            Scope::Warp => "warp",
            Scope::Block => "block",
        }
    }

    /// Encoding in the runtime ABI flags.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// Signal update applied by `signal_op` / `put_signal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SigOp {
    /// Overwrite.
    Set,
    /// Atomic add.
    Add,
}

impl SigOp {
    /// Attribute spelling.
    pub fn name(self) -> &'static str {
        match self {
            SigOp::Set => "set",
            SigOp::Add => "add",
        }
    }
}

/// Value conversions (all elementwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastKind {
    /// Numeric conversion to the result type (int/float widening, narrowing, int<->float).
    Convert,
    /// Same-width reinterpretation of bits.
    Bitcast,
}

/// A constant payload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstVal {
    /// Integer (also `i1`).
    Int(i64),
    /// Floating point.
    Float(f64),
}

/// What an operation does. Operand meaning is listed per kind.
#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// `arith.constant` (scalar or splat tile). No operands.
    Const(ConstVal),
    /// Elementwise binary: `[a, b]`.
    Binary(BinOp),
    /// Elementwise compare to `i1`: `[a, b]`.
    Cmp(CmpPred),
    /// Elementwise select: `[cond, a, b]`.
    Select,
    /// Elementwise unary: `[a]`.
    Unary(UnOp),
    /// Conversion to the result type: `[a]`.
    Cast(CastKind),
    /// `tile.program_id`.
    ProgramId(u32),
    /// `tile.num_programs`.
    NumPrograms(u32),
    /// `tile.make_range` `[start, end)`.
    MakeRange(i32, i32),
    /// `tile.splat`: `[scalar]`.
    Splat,
    /// `tile.broadcast`: `[tile]`.
    Broadcast,
    /// `tile.expand_dims`: `[tile]`.
    ExpandDims(u32),
    /// `tile.addptr`: `[ptrs, offsets]`.
    AddPtr,
    /// `tile.ptr_cast`: `[ptrs]`.
    PtrCast,
    /// `tile.load`: `[ptrs, mask?, other?]`.
    Load {
        /// Mask operand present.
        mask: bool,
        /// Other operand present (requires mask).
        other: bool,
    },
    /// `tile.store`: `[ptrs, value, mask?]`.
    Store {
        /// Mask operand present.
        mask: bool,
    },
    /// `tile.reduce`: `[tile]`.
    Reduce(ReduceKind, u32),
    /// `tile.dot`: `[a, b, acc]`.
    Dot,
    /// `tile.barrier`: the program instance's memory accesses before it complete before any
    /// after it (a CTA barrier on GPUs, where a program's threads split its tiles).
    Barrier,
    /// `shmem.my_pe`.
    MyPe,
    /// `shmem.n_pes`.
    NPes,
    /// `shmem.remote_ptr`: `[ptrs, pe]`.
    RemotePtr,
    /// `shmem.put`: `[dst, src, nelems, pe]`.
    Put {
        /// Scope.
        scope: Scope,
        /// Non-blocking.
        nbi: bool,
    },
    /// `shmem.get`: `[dst, src, nelems, pe]`.
    Get {
        /// Scope.
        scope: Scope,
        /// Non-blocking.
        nbi: bool,
    },
    /// `shmem.put_signal`: `[dst, src, nelems, sig, sigval, pe]`.
    PutSignal {
        /// Scope.
        scope: Scope,
        /// Non-blocking.
        nbi: bool,
        /// Signal update.
        sig_op: SigOp,
    },
    /// `shmem.signal_op`: `[sig, value, pe]`.
    SignalOp(SigOp),
    /// `shmem.signal_wait_until`: `[sig, value]` -> token.
    WaitUntil(CmpPred),
    /// `shmem.consume_token`: `[value, token]` -> value.
    ConsumeToken,
    /// `shmem.fence`.
    Fence,
    /// `shmem.quiet`.
    Quiet,
    /// `shmem.barrier_all`.
    BarrierAll,
    /// `shmem.multimem_st`: `[ptrs, value, mask?]`.
    MultimemSt {
        /// Mask operand present.
        mask: bool,
    },
    /// `shmem.multimem_ld_reduce`: `[ptrs, mask?]`.
    MultimemLdReduce {
        /// Mask operand present.
        mask: bool,
    },
    /// `shmem.ll_pack`: `[data, flag]`.
    LlPack,
    /// `shmem.ll_recv`: `[ptrs, flag, mask?]`.
    LlRecv {
        /// Mask operand present.
        mask: bool,
    },
    /// `scf.for`: `[lb, ub, step, inits...]`, one region `(iv, iters...)`.
    For,
    /// `scf.if`: `[cond]`, regions then and else.
    If,
    /// `scf.yield`: the values a region produces.
    Yield,
    /// `func.return` (kernel end).
    Return,
}

impl OpKind {
    /// The op's dialect name, used in diagnostics and site tables.
    pub fn name(&self) -> &'static str {
        match self {
            OpKind::Const(_) => "arith.constant",
            OpKind::Binary(_) => "arith.binary",
            OpKind::Cmp(_) => "arith.cmp",
            OpKind::Select => "arith.select",
            OpKind::Unary(_) => "math.unary",
            OpKind::Cast(_) => "arith.cast",
            OpKind::ProgramId(_) => "tile.program_id",
            OpKind::NumPrograms(_) => "tile.num_programs",
            OpKind::MakeRange(..) => "tile.make_range",
            OpKind::Splat => "tile.splat",
            OpKind::Broadcast => "tile.broadcast",
            OpKind::ExpandDims(_) => "tile.expand_dims",
            OpKind::AddPtr => "tile.addptr",
            OpKind::PtrCast => "tile.ptr_cast",
            OpKind::Load { .. } => "tile.load",
            OpKind::Store { .. } => "tile.store",
            OpKind::Reduce(..) => "tile.reduce",
            OpKind::Dot => "tile.dot",
            OpKind::Barrier => "tile.barrier",
            OpKind::MyPe => "shmem.my_pe",
            OpKind::NPes => "shmem.n_pes",
            OpKind::RemotePtr => "shmem.remote_ptr",
            OpKind::Put { .. } => "shmem.put",
            OpKind::Get { .. } => "shmem.get",
            OpKind::PutSignal { .. } => "shmem.put_signal",
            OpKind::SignalOp(_) => "shmem.signal_op",
            OpKind::WaitUntil(_) => "shmem.signal_wait_until",
            OpKind::ConsumeToken => "shmem.consume_token",
            OpKind::Fence => "shmem.fence",
            OpKind::Quiet => "shmem.quiet",
            OpKind::BarrierAll => "shmem.barrier_all",
            OpKind::MultimemSt { .. } => "shmem.multimem_st",
            OpKind::MultimemLdReduce { .. } => "shmem.multimem_ld_reduce",
            OpKind::LlPack => "shmem.ll_pack",
            OpKind::LlRecv { .. } => "shmem.ll_recv",
            OpKind::For => "scf.for",
            OpKind::If => "scf.if",
            OpKind::Yield => "scf.yield",
            OpKind::Return => "func.return",
        }
    }
}
