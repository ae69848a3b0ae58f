//! Typed access to a JSON tree, every error carrying the path of the value at fault.

use serde_json::{Map, Value};

use super::error::PlanError;

/// Result alias.
pub type Result<T> = std::result::Result<T, PlanError>;

/// A JSON value and its path.
#[derive(Clone, Copy)]
pub struct At<'a> {
    /// The value.
    pub v: &'a Value,
    /// Its path (`gpus[0].threadblocks[1]`; empty at the top).
    pub path: &'a str,
}

/// An error at `path`.
pub fn field_error(path: &str, message: impl Into<String>) -> PlanError {
    let at = if path.is_empty() { "(top level)".to_string() } else { path.to_string() };
    PlanError::Field { at, message: message.into() }
}

impl<'a> At<'a> {
    fn object(&self) -> Result<&'a Map<String, Value>> {
        self.v.as_object().ok_or_else(|| field_error(self.path, "expected an object"))
    }

    /// `key`, which must exist.
    pub fn get(&self, key: &str) -> Result<&'a Value> {
        self.object()?.get(key).ok_or_else(|| field_error(self.path, format!("missing field `{key}`")))
    }

    /// `key`, if present.
    pub fn opt(&self, key: &str) -> Result<Option<&'a Value>> {
        Ok(self.object()?.get(key))
    }

    /// The path of `key`.
    pub fn sub(&self, key: &str) -> String {
        if self.path.is_empty() { key.to_string() } else { format!("{}.{key}", self.path) }
    }

    /// A non-negative integer field.
    pub fn uint(&self, key: &str) -> Result<usize> {
        uint(self.get(key)?, &self.sub(key))
    }

    /// A string field.
    pub fn str(&self, key: &str) -> Result<&'a str> {
        self.get(key)?.as_str().ok_or_else(|| field_error(&self.sub(key), "expected a string"))
    }

    /// A boolean field.
    pub fn bool(&self, key: &str) -> Result<bool> {
        self.get(key)?.as_bool().ok_or_else(|| field_error(&self.sub(key), "expected true or false"))
    }

    /// An array field (absent: empty) and the paths of its elements.
    pub fn list(&self, key: &str) -> Result<Vec<(&'a Value, String)>> {
        let Some(v) = self.opt(key)? else { return Ok(vec![]) };
        let items = v.as_array().ok_or_else(|| field_error(&self.sub(key), "expected an array"))?;
        let path = self.sub(key);
        Ok(items.iter().enumerate().map(|(i, x)| (x, format!("{path}[{i}]"))).collect())
    }

    /// An array of non-negative integers (absent: empty).
    pub fn uints(&self, key: &str) -> Result<Vec<usize>> {
        self.list(key)?.into_iter().map(|(v, p)| uint(v, &p)).collect()
    }
}

/// A non-negative integer.
pub fn uint(v: &Value, path: &str) -> Result<usize> {
    v.as_u64()
        .and_then(|x| usize::try_from(x).ok())
        .ok_or_else(|| field_error(path, format!("expected a non-negative integer, found {v}")))
}
