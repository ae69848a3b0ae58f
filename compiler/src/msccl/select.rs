//! Algorithm selection by buffer size, as the msccl runtime does: registrations are tried in
//! order, and the first whose collective, rank count and size range match wins; no match
//! means "use the library's built-in kernel".

use super::collective::CollectiveKind;
use super::error::{MscclError, Result};
use super::ir::MscclIr;

/// One registered algorithm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// Collective it implements.
    pub collective: CollectiveKind,
    /// Smallest buffer size, in bytes, it is used for (inclusive).
    pub min_bytes: u64,
    /// Largest size (inclusive); `None`: no upper bound.
    pub max_bytes: Option<u64>,
    /// Rank count it was written for; `None`: any.
    pub ranks: Option<usize>,
    /// Algorithm: a built-in name or an XML path.
    pub algorithm: String,
}

impl Registration {
    fn matches(&self, collective: CollectiveKind, ranks: Option<usize>, bytes: u64) -> bool {
        self.collective == collective
            && bytes >= self.min_bytes
            && self.max_bytes.is_none_or(|max| bytes <= max)
            && (self.ranks.is_none() || ranks.is_none() || self.ranks == ranks)
    }
}

/// An ordered table of registrations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionTable {
    entries: Vec<Registration>,
}

impl SelectionTable {
    /// An empty table: everything falls back.
    pub fn new() -> Self {
        SelectionTable::default()
    }

    /// Registers `algorithm` for `collective` on sizes `min_bytes..=max_bytes`.
    pub fn register(
        &mut self,
        collective: CollectiveKind,
        min_bytes: u64,
        max_bytes: Option<u64>,
        algorithm: impl Into<String>,
    ) -> Result<()> {
        self.push(Registration { collective, min_bytes, max_bytes, ranks: None, algorithm: algorithm.into() })
    }

    /// Registers an imported algorithm under `algorithm`, using its `minBytes` / `maxBytes`
    /// (msccl reads `maxBytes` 0 as unbounded) and its gpu count.
    pub fn register_ir(&mut self, ir: &MscclIr, algorithm: impl Into<String>) -> Result<()> {
        let collective = CollectiveKind::from_xml_name(&ir.collective)
            .ok_or_else(|| MscclError::InvalidConfig(format!("cannot select for collective `{}`", ir.collective)))?;
        self.push(Registration {
            collective,
            min_bytes: ir.min_bytes.unwrap_or(0),
            max_bytes: ir.max_bytes.filter(|&m| m != 0),
            ranks: Some(ir.ngpus()),
            algorithm: algorithm.into(),
        })
    }

    /// Adds a registration after checking its range.
    pub fn push(&mut self, registration: Registration) -> Result<()> {
        if registration.max_bytes.is_some_and(|max| max < registration.min_bytes) {
            return Err(MscclError::InvalidConfig(format!(
                "{}: empty size range {}..={:?}",
                registration.algorithm, registration.min_bytes, registration.max_bytes
            )));
        }
        self.entries.push(registration);
        Ok(())
    }

    /// The algorithm for `bytes` of `collective`, or `None`: use the built-in kernel.
    pub fn select(&self, collective: CollectiveKind, bytes: u64) -> Option<&Registration> {
        self.entries.iter().find(|r| r.matches(collective, None, bytes))
    }

    /// [`SelectionTable::select`] that also requires the registration's rank count to match.
    pub fn select_for_ranks(&self, collective: CollectiveKind, ranks: usize, bytes: u64) -> Option<&Registration> {
        self.entries.iter().find(|r| r.matches(collective, Some(ranks), bytes))
    }

    /// The registrations, in order.
    pub fn entries(&self) -> &[Registration] {
        &self.entries
    }
}
