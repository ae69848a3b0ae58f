//! The text of a deadlock report. A few blocked waits are listed one per line; with many (a
//! grid of hundreds of instances stuck on the same wait) they are grouped by op, source line
//! and what they wait for, largest group first, with a count, the ranks involved and the
//! first few waits of each group in full, so the report stays a screenful.

use crate::error::{BlockedWait, WaitKind};
use std::collections::BTreeSet;
use std::fmt;

/// Up to this many waits are listed one by one.
const LIST_ALL: usize = 16;
/// Waits shown in full per group.
const SHOWN: usize = 3;

/// What a group of waits shares: the op, its line and the wait without rank-local details
/// (every rank's signal has its own address; the allocation and offset are the same).
fn group_key(w: &BlockedWait) -> String {
    let what = match &w.kind {
        WaitKind::Signal { alloc: Some((id, off)), cmp, expected, .. } => format!("wait for signal at allocation #{id} + {off} bytes {cmp} {expected}"),
        WaitKind::Signal { addr, cmp, expected, .. } => format!("wait for signal at address {addr:#x} {cmp} {expected}"),
        WaitKind::Barrier { arrived, total } => format!("wait at barrier_all ({arrived} of {total} arrived)"),
        WaitKind::Spin { alloc: Some((id, off)), .. } => format!("poll allocation #{id} + {off} bytes for a flag"),
        WaitKind::Spin { addr, .. } => format!("poll address {addr:#x} for a flag"),
    };
    format!("`{}` at {}: {what}", w.origin.op, w.origin.loc)
}

/// Ranks as compact ranges: `0-3, 6`.
fn ranges(ranks: &BTreeSet<usize>) -> String {
    let mut out: Vec<String> = vec![];
    let mut it = ranks.iter().copied().peekable();
    while let Some(start) = it.next() {
        let mut end = start;
        while it.peek() == Some(&(end + 1)) {
            end = it.next().unwrap_or(end);
        }
        out.push(if start == end { start.to_string() } else { format!("{start}-{end}") });
    }
    out.join(", ")
}

/// Writes the waits after the report's first line.
pub(crate) fn write_waits(f: &mut fmt::Formatter<'_>, waits: &[BlockedWait]) -> fmt::Result {
    if waits.len() <= LIST_ALL {
        for w in waits {
            write!(f, "\n  {w}")?;
        }
        return Ok(());
    }
    // Groups in order of first appearance, then largest first (a stable sort keeps ties in order).
    let mut groups: Vec<(String, Vec<&BlockedWait>)> = vec![];
    for w in waits {
        let k = group_key(w);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(w),
            None => groups.push((k, vec![w])),
        }
    }
    groups.sort_by_key(|(_, m)| std::cmp::Reverse(m.len()));
    write!(f, "\n  {} groups of blocked waits:", groups.len())?;
    for (key, members) in &groups {
        let ranks: BTreeSet<usize> = members.iter().map(|w| w.origin.rank).collect();
        write!(f, "\n  {} instance(s) on rank(s) {} {key}", members.len(), ranges(&ranks))?;
        for w in members.iter().take(SHOWN) {
            write!(f, "\n    {w}")?;
        }
        if members.len() > SHOWN {
            write!(f, "\n    ... and {} more", members.len() - SHOWN)?;
        }
    }
    Ok(())
}
