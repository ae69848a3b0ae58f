//! The Rust kernel DSL: a kernel is a Rust function that builds a `tile` / `shmem` module.
//!
//! Like Triton, ops are free functions and operators on tile values ([`Val`]) that append to an
//! implicit builder. Misuse (shape or dtype mismatch, bad constexpr) is recorded as a typed
//! [`DslError`] at the Rust call site and returned by [`kernel`]; building never panics.

mod arith;
mod constexpr;
mod control;
mod error;
pub mod shmem;
mod tile;

pub use arith::*;
pub use constexpr::Constexprs;
pub use control::*;
pub use error::{DslError, DslErrorKind};
pub use tile::*;

use crate::ir::{Block, Elem, Kernel, Loc, Op, OpKind, Param, Scalar, Type, Value};
use std::cell::RefCell;

/// A tile or scalar value in the kernel being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val(pub(crate) Value);

impl Val {
    /// The value's IR type.
    pub fn ty(self) -> Type {
        with(|b| b.kernel.ty(self.0).clone())
    }

    /// The value's shape (empty for scalars).
    pub fn shape(self) -> Vec<usize> {
        self.ty().shape().to_vec()
    }

    /// The element type.
    pub fn elem(self) -> Elem {
        self.ty().elem().unwrap_or(Elem::Num(Scalar::I1))
    }

    /// The IR value.
    pub fn id(self) -> Value {
        self.0
    }
}

pub(crate) struct Builder {
    pub kernel: Kernel,
    pub insert: Vec<Block>,
    pub error: Option<DslError>,
}

thread_local! {
    static BUILDER: RefCell<Option<Builder>> = const { RefCell::new(None) };
}

/// Runs `f` on the active builder. Panics only if DSL ops are used outside [`kernel`],
/// which is a programming error in the kernel library rather than bad user input.
pub(crate) fn with<R>(f: impl FnOnce(&mut Builder) -> R) -> R {
    BUILDER.with(|cell| {
        let mut guard = cell.borrow_mut();
        let b = guard.as_mut().expect("weft DSL op used outside `weft_compiler::dsl::kernel`");
        f(b)
    })
}

impl Builder {
    pub(crate) fn push(&mut self, kind: OpKind, operands: Vec<Value>, results: Vec<Type>, regions: Vec<Block>, loc: Loc) -> Op {
        let block = *self.insert.last().expect("insertion block");
        self.kernel.push_op(block, kind, operands, results, regions, loc)
    }

    pub(crate) fn fail(&mut self, kind: DslErrorKind, loc: Loc) {
        if self.error.is_none() {
            self.error = Some(DslError { kind, loc });
        }
    }
}

/// Appends an op and returns its single result.
pub(crate) fn emit(kind: OpKind, operands: &[Val], result: Type, loc: Loc) -> Val {
    with(|b| {
        let op = b.push(kind, operands.iter().map(|v| v.0).collect(), vec![result], vec![], loc);
        Val(b.kernel.op(op).results[0])
    })
}

/// Appends an op with no results.
pub(crate) fn emit0(kind: OpKind, operands: &[Val], loc: Loc) {
    with(|b| {
        b.push(kind, operands.iter().map(|v| v.0).collect(), vec![], vec![], loc);
    });
}

/// Records an error (the first one wins) and returns a placeholder of type `ty`.
pub(crate) fn fail(kind: DslErrorKind, loc: Loc, ty: Type) -> Val {
    with(|b| {
        b.fail(kind, loc);
        Val(b.kernel.new_value(ty))
    })
}

/// Declares the kernel's arguments, in ABI order.
pub struct Args {
    _private: (),
}

impl Args {
    fn param(&mut self, name: &str, ty: Type) -> Val {
        with(|b| {
            let v = b.kernel.add_block_arg(b.kernel.body, ty);
            b.kernel.params.push(Param { name: name.into(), value: v });
            Val(v)
        })
    }

    /// A pointer argument (a symmetric or local buffer of `elem`).
    pub fn ptr(&mut self, name: &str, elem: Scalar) -> Val {
        self.param(name, Type::ptr(elem))
    }

    /// An `i32` scalar argument.
    pub fn i32(&mut self, name: &str) -> Val {
        self.param(name, Type::scalar(Scalar::I32))
    }

    /// An `i64` scalar argument.
    pub fn i64(&mut self, name: &str) -> Val {
        self.param(name, Type::scalar(Scalar::I64))
    }

    /// An `f32` scalar argument.
    pub fn f32(&mut self, name: &str) -> Val {
        self.param(name, Type::scalar(Scalar::F32))
    }
}

/// Runs `f` with the DSL appending to `block` of `kernel` (compiler passes that expand an op
/// into DSL-written code); returns the kernel, `f`'s result and the first error.
pub(crate) fn build_in<R>(kernel: Kernel, block: Block, f: impl FnOnce() -> R) -> (Kernel, R, Option<DslError>) {
    let previous = BUILDER.with(|c| c.borrow_mut().replace(Builder { kernel, insert: vec![block], error: None }));
    let r = f();
    let built = BUILDER.with(|c| std::mem::replace(&mut *c.borrow_mut(), previous)).expect("builder");
    (built.kernel, r, built.error)
}

/// Builds a kernel named `name`, specialised with `constexprs`, whose body `body` writes.
#[track_caller]
pub fn kernel(
    name: &str,
    constexprs: &Constexprs,
    body: impl FnOnce(&mut Args) -> Result<(), DslError>,
) -> Result<Kernel, DslError> {
    let loc = Loc::caller();
    let mut k = Kernel::new(name);
    k.constexprs = constexprs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let body_block = k.body;
    let previous = BUILDER.with(|c| c.borrow_mut().replace(Builder { kernel: k, insert: vec![body_block], error: None }));
    let result = body(&mut Args { _private: () });
    if result.is_ok() {
        with(|b| {
            b.push(OpKind::Return, vec![], vec![], vec![], loc);
        });
    }
    let built = BUILDER.with(|c| std::mem::replace(&mut *c.borrow_mut(), previous)).expect("builder");
    result?;
    match built.error {
        Some(e) => Err(e),
        None => Ok(built.kernel),
    }
}
