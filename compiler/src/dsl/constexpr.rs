//! Compile-time parameters (block sizes, dtypes) a kernel is specialised with.

use super::error::{DslError, DslErrorKind};
use crate::ir::{Loc, Scalar};
use std::collections::BTreeMap;

/// Named compile-time values, e.g. `BLOCK=1024`, `T=bf16`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Constexprs {
    values: BTreeMap<String, String>,
}

impl Constexprs {
    /// No parameters.
    pub fn new() -> Constexprs {
        Constexprs::default()
    }

    /// Adds or replaces a parameter (builder style).
    pub fn with(mut self, name: &str, value: impl ToString) -> Constexprs {
        self.values.insert(name.to_string(), value.to_string());
        self
    }

    /// Without parameter `name` (builder style): its kernel's default, or whoever fills it later.
    pub fn without(mut self, name: &str) -> Constexprs {
        self.values.remove(name);
        self
    }

    /// Adds or replaces a parameter.
    pub fn set(&mut self, name: &str, value: impl ToString) {
        self.values.insert(name.to_string(), value.to_string());
    }

    /// All parameters in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Raw text of a parameter.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    #[track_caller]
    fn raw(&self, name: &str) -> Result<&str, DslError> {
        self.get(name).ok_or_else(|| err(DslErrorKind::MissingConstexpr { name: name.into() }))
    }

    /// An integer parameter within `lo..=hi`.
    #[track_caller]
    pub fn int(&self, name: &str, lo: i64, hi: i64) -> Result<i64, DslError> {
        let raw = self.raw(name)?;
        let allowed = format!("an integer in {lo}..={hi}");
        match raw.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(err(DslErrorKind::ConstexprOutOfRange { name: name.into(), value: raw.into(), allowed })),
        }
    }

    /// A 0/1 switch: `false` when absent, else `name` must be 0 or 1.
    #[track_caller]
    pub fn flag(&self, name: &str) -> Result<bool, DslError> {
        Ok(self.get(name).is_some() && self.int(name, 0, 1)? == 1)
    }

    /// A power-of-two parameter within `lo..=hi`.
    #[track_caller]
    pub fn pow2(&self, name: &str, lo: i64, hi: i64) -> Result<i64, DslError> {
        let v = self.int(name, lo, hi)?;
        if v > 0 && (v & (v - 1)) == 0 {
            Ok(v)
        } else {
            let allowed = format!("a power of two in {lo}..={hi}");
            Err(err(DslErrorKind::ConstexprOutOfRange { name: name.into(), value: v.to_string(), allowed }))
        }
    }

    /// A dtype parameter, one of `allowed`.
    #[track_caller]
    pub fn dtype(&self, name: &str, allowed: &[Scalar]) -> Result<Scalar, DslError> {
        let raw = self.raw(name)?;
        match Scalar::parse(raw) {
            Some(s) if allowed.contains(&s) => Ok(s),
            _ => {
                let names: Vec<&str> = allowed.iter().map(|s| s.mlir()).collect();
                let allowed = format!("one of {}", names.join(", "));
                Err(err(DslErrorKind::ConstexprOutOfRange { name: name.into(), value: raw.into(), allowed }))
            }
        }
    }
}

#[track_caller]
fn err(kind: DslErrorKind) -> DslError {
    DslError { kind, loc: Loc::caller() }
}

impl Loc {
    /// The Rust source location of the caller (DSL functions are `#[track_caller]`).
    #[track_caller]
    pub fn caller() -> Loc {
        let l = std::panic::Location::caller();
        Loc { file: l.file().to_string(), line: l.line(), col: l.column() }
    }
}
