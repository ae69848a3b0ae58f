//! Specialized variants picked at launch (as `triton.jit` does): a kernel compiled for the
//! general case can carry a specializer that compiles it again assuming that some arguments
//! are divisible by 16 (pointers 16-byte aligned, integers multiples of 16) and that some
//! integers are small (`|v| < 2^30`, so index math on them fits in 32 bits). Each launch
//! computes those facts from its actual arguments and runs the variant compiled for exactly
//! them (compiled once, on first use), so a launch that breaks a fact never runs code that
//! assumed it.

use crate::launch::{Arg, Launchable};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Compiles the variant for per-argument facts; `None` where it would be the general one
/// (or could not be built: the general variant is always correct).
pub type Specializer = dyn Fn(&ArgFacts) -> Option<Launchable> + Send + Sync;

/// The variants of one kernel, by the facts they assume.
pub struct Variants {
    make: Box<Specializer>,
    compiled: Mutex<HashMap<ArgFacts, Option<Launchable>>>,
}

/// What a launch's arguments allow a variant to assume, per argument.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArgFacts {
    /// Divisible by 16 (see [`divisible_by_16`]).
    pub div16: Vec<bool>,
    /// A 64-bit integer in `[-2^30, 2^30)`.
    pub small: Vec<bool>,
}

/// The bound of a small integer (the compiler's `analysis::specialize::SMALL_BOUND`).
pub const SMALL_BOUND: i64 = 1 << 30;

/// Every fact `args` allow.
pub fn arg_facts(args: &[Arg]) -> ArgFacts {
    // 32-bit integers gain nothing from the fact: they are never assumed small.
    let small = args
        .iter()
        .map(|a| match *a {
            Arg::I64(v) => (-SMALL_BOUND..SMALL_BOUND).contains(&v),
            Arg::U64(v) => v < SMALL_BOUND as u64,
            Arg::Buf(_) | Arg::F32(_) | Arg::I32(_) => false,
        })
        .collect();
    ArgFacts { div16: divisible_by_16(args), small }
}

/// Per argument: whether it is divisible by 16. A buffer's address is its heap's base (page
/// aligned on every transport) plus its offset.
pub fn divisible_by_16(args: &[Arg]) -> Vec<bool> {
    args.iter()
        .map(|a| match *a {
            Arg::Buf(b) => b.offset % 16 == 0,
            Arg::I32(v) => v % 16 == 0,
            Arg::I64(v) => v % 16 == 0,
            Arg::U64(v) => v % 16 == 0,
            Arg::F32(_) => false,
        })
        .collect()
}

impl Launchable {
    /// This (general) kernel with a specializer for launches whose arguments allow one.
    pub fn with_variants(mut self, make: impl Fn(&ArgFacts) -> Option<Launchable> + Send + Sync + 'static) -> Launchable {
        self.variants = Some(Arc::new(Variants { make: Box::new(make), compiled: Mutex::new(HashMap::new()) }));
        self
    }

    /// The variant to run for `args`: the one specialized for their facts, else this one.
    pub fn for_args(&self, args: &[Arg]) -> Cow<'_, Launchable> {
        let Some(v) = &self.variants else { return Cow::Borrowed(self) };
        let facts = arg_facts(args);
        if !facts.div16.iter().chain(&facts.small).any(|&f| f) {
            return Cow::Borrowed(self);
        }
        let mut compiled = v.compiled.lock().unwrap_or_else(|e| e.into_inner());
        let variant = compiled.entry(facts).or_insert_with_key(|f| (v.make)(f));
        match variant {
            Some(l) => Cow::Owned(l.clone()),
            None => Cow::Borrowed(self),
        }
    }

    /// How many specialized variants launches have compiled so far.
    pub fn variants_compiled(&self) -> usize {
        self.variants.as_ref().map_or(0, |v| v.compiled.lock().unwrap_or_else(|e| e.into_inner()).values().filter(|l| l.is_some()).count())
    }
}
