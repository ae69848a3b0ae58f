//! Argument specialization (as `triton.jit` does it): a compiled variant may assume that some
//! pointer arguments are 16-byte aligned and some integer arguments are multiples of 16. The
//! facts travel with the kernel as the `divisible_by_16` constexpr (a comma-separated list of
//! parameter names), so they are printed in its IR, part of its compile-cache key, and read
//! back by a file that starts the pipeline; a launch whose arguments break one must run the
//! general variant instead ([`Specialization::holds`]).

use crate::ir::{Elem, Kernel, Type};

/// The constexpr that carries the facts.
pub const CONSTEXPR: &str = "divisible_by_16";

/// The byte (pointers) or value (integers) divisor a fact promises.
pub const DIVISOR: u64 = 16;

/// Which parameters (by index) a variant assumes divisible by 16.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Specialization {
    /// Per parameter, in ABI order.
    pub div16: Vec<bool>,
}

/// An argument value as a launch passes it, for checking facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgFact {
    /// A pointer's address.
    Ptr(u64),
    /// An integer's value.
    Int(i64),
    /// Anything else (no fact is ever assumed of it).
    Other,
}

impl Specialization {
    /// The facts `kernel` was compiled with (none unless specialized).
    pub fn of(kernel: &Kernel) -> Specialization {
        let names: Vec<&str> = kernel.constexpr(CONSTEXPR).map(|s| s.split(',').map(str::trim).collect()).unwrap_or_default();
        Specialization { div16: kernel.params.iter().map(|p| names.contains(&p.name.as_str())).collect() }
    }

    /// The facts that `args` satisfy, for every parameter that can carry one (scalar
    /// pointers and integers).
    pub fn from_args(kernel: &Kernel, args: &[ArgFact]) -> Specialization {
        let div16 = kernel
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| specializable(kernel.ty(p.value)) && args.get(i).is_some_and(|a| a.divisible()))
            .collect();
        Specialization { div16 }
    }

    /// Whether no fact is assumed.
    pub fn is_general(&self) -> bool {
        !self.div16.iter().any(|&b| b)
    }

    /// `kernel` specialized with these facts (the general variant when there are none).
    pub fn apply(&self, kernel: &Kernel) -> Kernel {
        let mut k = kernel.clone();
        k.constexprs.retain(|(n, _)| n != CONSTEXPR);
        let names: Vec<&str> =
            k.params.iter().zip(&self.div16).filter(|(p, b)| **b && specializable(kernel.ty(p.value))).map(|(p, _)| p.name.as_str()).collect();
        if !names.is_empty() {
            let v = names.join(",");
            k.constexprs.push((CONSTEXPR.into(), v));
        }
        k
    }

    /// Whether `args` satisfy every fact (a launch that does not must use the general variant).
    pub fn holds(&self, args: &[ArgFact]) -> bool {
        self.div16.iter().enumerate().all(|(i, &need)| !need || args.get(i).is_some_and(|a| a.divisible()))
    }

    /// Whether parameter `i` is assumed divisible by 16.
    pub fn assumes(&self, i: usize) -> bool {
        self.div16.get(i).copied().unwrap_or(false)
    }
}

impl ArgFact {
    fn divisible(self) -> bool {
        match self {
            ArgFact::Ptr(a) => a % DIVISOR == 0,
            ArgFact::Int(v) => v.rem_euclid(DIVISOR as i64) == 0,
            ArgFact::Other => false,
        }
    }
}

/// Scalar pointers and integers (not `i1`) can carry a fact.
fn specializable(t: &Type) -> bool {
    match t {
        Type::Val { elem: Elem::Ptr(_), shape } => shape.is_empty(),
        Type::Val { elem: Elem::Num(s), shape } => shape.is_empty() && s.is_int() && s.bits() > 1,
        Type::Token => false,
    }
}
