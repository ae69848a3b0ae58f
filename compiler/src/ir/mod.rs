//! weft's in-memory kernel IR: typed arenas of values, ops and blocks (Cranelift style).
//!
//! It mirrors the `tile` / `shmem` MLIR module one to one: [`print`] writes it as MLIR text
//! and [`import`] reads MLIR text back, so the MLIR module stays the contract between front
//! ends and back ends while lowering works on plain Rust data.

mod op;
pub mod import;
pub mod print;
mod types;

pub use op::*;
pub use types::*;

/// An SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Op(pub u32);

/// A block (the body of a kernel or of an `scf` region).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block(pub u32);

/// A source location: where the op was written (Rust DSL call site or IR text).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    /// File name.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One operation's data.
#[derive(Clone, Debug)]
pub struct OpData {
    /// What it does.
    pub kind: OpKind,
    /// Inputs.
    pub operands: Vec<Value>,
    /// Outputs.
    pub results: Vec<Value>,
    /// Nested regions (one block each).
    pub regions: Vec<Block>,
    /// Where it was written.
    pub loc: Loc,
}

/// One block's data.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Block arguments.
    pub args: Vec<Value>,
    /// Ops in order; the last is a terminator (`scf.yield` / `func.return`).
    pub ops: Vec<Op>,
}

/// A kernel argument.
#[derive(Clone, Debug)]
pub struct Param {
    /// Name, for diagnostics and the CLI.
    pub name: String,
    /// The block argument.
    pub value: Value,
}

/// A kernel: one `func.func` in the `tile` / `shmem` dialects.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Symbol name.
    pub name: String,
    /// Compile-time parameters it was specialised with, as `(name, value)` text.
    pub constexprs: Vec<(String, String)>,
    /// Arguments in ABI order.
    pub params: Vec<Param>,
    /// Entry block.
    pub body: Block,
    /// Value types.
    pub values: Vec<Type>,
    /// Op arena.
    pub ops: Vec<OpData>,
    /// Block arena.
    pub blocks: Vec<BlockData>,
}

impl Kernel {
    /// An empty kernel with an entry block.
    pub fn new(name: &str) -> Kernel {
        Kernel {
            name: name.to_string(),
            constexprs: vec![],
            params: vec![],
            body: Block(0),
            values: vec![],
            ops: vec![],
            blocks: vec![BlockData::default()],
        }
    }

    /// Type of a value.
    pub fn ty(&self, v: Value) -> &Type {
        &self.values[v.0 as usize]
    }

    /// An op's data.
    pub fn op(&self, op: Op) -> &OpData {
        &self.ops[op.0 as usize]
    }

    /// A block's data.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.0 as usize]
    }

    /// Creates a value of type `ty`.
    pub fn new_value(&mut self, ty: Type) -> Value {
        self.values.push(ty);
        Value(self.values.len() as u32 - 1)
    }

    /// Creates an empty block.
    pub fn new_block(&mut self) -> Block {
        self.blocks.push(BlockData::default());
        Block(self.blocks.len() as u32 - 1)
    }

    /// Adds a block argument.
    pub fn add_block_arg(&mut self, b: Block, ty: Type) -> Value {
        let v = self.new_value(ty);
        self.blocks[b.0 as usize].args.push(v);
        v
    }

    /// Appends an op to `block`, creating its results.
    pub fn push_op(
        &mut self,
        block: Block,
        kind: OpKind,
        operands: Vec<Value>,
        result_types: Vec<Type>,
        regions: Vec<Block>,
        loc: Loc,
    ) -> Op {
        let results = result_types.into_iter().map(|t| self.new_value(t)).collect();
        self.ops.push(OpData { kind, operands, results, regions, loc });
        let op = Op(self.ops.len() as u32 - 1);
        self.blocks[block.0 as usize].ops.push(op);
        op
    }

    /// Constexpr value by name.
    pub fn constexpr(&self, name: &str) -> Option<&str> {
        self.constexprs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}
