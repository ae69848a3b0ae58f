//! Argument specialization (as `triton.jit` does it): a compiled variant may assume that some
//! pointer arguments are 16-byte aligned and some integer arguments are multiples of 16, and
//! that some integer arguments are small (`|v| < 2^30`, so that index math on them fits in 32
//! bits: Triton types such integers `i32`). The facts travel with the kernel as the
//! `divisible_by_16` and `small_ints` constexprs (comma-separated lists of parameter names),
//! so they are printed in its IR, part of its compile-cache key, and read back by a file that
//! starts the pipeline; a launch whose arguments break one must run the general variant
//! instead ([`Specialization::holds`]).

use crate::ir::{Elem, Kernel, Type};

/// The constexpr that carries the facts.
pub const CONSTEXPR: &str = "divisible_by_16";

/// The byte (pointers) or value (integers) divisor a fact promises.
pub const DIVISOR: u64 = 16;

/// The constexpr that lists the integer parameters assumed small.
pub const SMALL_CONSTEXPR: &str = "small_ints";

/// A small integer lies in `[-SMALL_BOUND, SMALL_BOUND)`: a sum of two such values, or one
/// plus a tile offset, still fits in `i32`.
pub const SMALL_BOUND: i64 = 1 << 30;

/// Which parameters (by index) a variant assumes divisible by 16, and which small.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Specialization {
    /// Per parameter, in ABI order: divisible by 16.
    pub div16: Vec<bool>,
    /// Per parameter, in ABI order: a small integer (empty: none).
    pub small: Vec<bool>,
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
        let listed = |constexpr: &str| -> Vec<bool> {
            let names: Vec<&str> = kernel.constexpr(constexpr).map(|s| s.split(',').map(str::trim).collect()).unwrap_or_default();
            kernel.params.iter().map(|p| names.contains(&p.name.as_str())).collect()
        };
        Specialization { div16: listed(CONSTEXPR), small: listed(SMALL_CONSTEXPR) }
    }

    /// The facts that `args` satisfy, for every parameter that can carry one (scalar
    /// pointers and integers).
    pub fn from_args(kernel: &Kernel, args: &[ArgFact]) -> Specialization {
        let facts = |f: fn(&Type, ArgFact) -> bool| -> Vec<bool> {
            kernel.params.iter().enumerate().map(|(i, p)| args.get(i).is_some_and(|&a| f(kernel.ty(p.value), a))).collect()
        };
        Specialization { div16: facts(|t, a| specializable(t) && a.divisible()), small: facts(|t, a| is_int(t) && a.small()) }
    }

    /// Whether no fact is assumed.
    pub fn is_general(&self) -> bool {
        !self.div16.iter().chain(&self.small).any(|&b| b)
    }

    /// `kernel` specialized with these facts (the general variant when there are none).
    pub fn apply(&self, kernel: &Kernel) -> Kernel {
        let mut k = kernel.clone();
        k.constexprs.retain(|(n, _)| n != CONSTEXPR && n != SMALL_CONSTEXPR);
        for (name, facts, can) in [(CONSTEXPR, &self.div16, specializable as fn(&Type) -> bool), (SMALL_CONSTEXPR, &self.small, is_int)] {
            let names: Vec<&str> = kernel.params.iter().zip(facts).filter(|(p, b)| **b && can(kernel.ty(p.value))).map(|(p, _)| p.name.as_str()).collect();
            if !names.is_empty() {
                k.constexprs.push((name.into(), names.join(",")));
            }
        }
        k
    }

    /// Whether `args` satisfy every fact (a launch that does not must use the general variant).
    pub fn holds(&self, args: &[ArgFact]) -> bool {
        let all = |facts: &[bool], f: fn(ArgFact) -> bool| facts.iter().enumerate().all(|(i, &need)| !need || args.get(i).is_some_and(|&a| f(a)));
        all(&self.div16, ArgFact::divisible) && all(&self.small, ArgFact::small)
    }

    /// Whether parameter `i` is assumed small.
    pub fn small_at(&self, i: usize) -> bool {
        self.small.get(i).copied().unwrap_or(false)
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

    fn small(self) -> bool {
        matches!(self, ArgFact::Int(v) if (-SMALL_BOUND..SMALL_BOUND).contains(&v))
    }
}

/// Scalar integers wider than 32 bits can be small (narrower ones gain nothing from it).
fn is_int(t: &Type) -> bool {
    matches!(t, Type::Val { elem: Elem::Num(s), shape } if shape.is_empty() && s.is_int() && s.bits() > 32)
}

/// Scalar pointers and integers (not `i1`) can carry a fact.
fn specializable(t: &Type) -> bool {
    match t {
        Type::Val { elem: Elem::Ptr(_), shape } => shape.is_empty(),
        Type::Val { elem: Elem::Num(s), shape } => shape.is_empty() && s.is_int() && s.bits() > 1,
        Type::Token => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small integer is one in `[-2^30, 2^30)`, whatever else it is; i32 parameters are
    /// never assumed small (they gain nothing).
    #[test]
    fn small_facts_hold_exactly_below_the_bound() {
        let k = crate::dsl::kernel("k", &crate::dsl::Constexprs::new(), |a| {
            let _ = (a.i64("x"), a.i32("y"));
            Ok(())
        })
        .unwrap();
        for (x, small) in [(0, true), (SMALL_BOUND - 1, true), (-SMALL_BOUND, true), (SMALL_BOUND, false), (-SMALL_BOUND - 1, false), (i64::MAX, false)] {
            let s = Specialization::from_args(&k, &[ArgFact::Int(x), ArgFact::Int(1)]);
            assert_eq!(s.small, vec![small, false], "{x}");
            let v = Specialization::of(&s.apply(&k));
            assert_eq!(v.small_at(0), small);
            assert!(v.holds(&[ArgFact::Int(x), ArgFact::Int(1)]));
            assert_eq!(v.holds(&[ArgFact::Int(SMALL_BOUND), ArgFact::Int(1)]), !small);
        }
    }
}
