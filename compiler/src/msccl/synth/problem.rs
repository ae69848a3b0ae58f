//! What a synthesized collective must move: for each chunk, the ranks that hold it at the
//! start (`pre`) and the ranks that must hold it at the end (`post`), as bit masks. Combining
//! collectives are synthesized through their non-combining dual (msccl-tools' reduction):
//! ReduceScatter is an AllGather on the reversed topology, run backwards with sends turned
//! into reductions; AllReduce is that ReduceScatter followed by an AllGather.

use std::fmt;

use super::error::{Result, SynthError};

/// The collectives the synthesizer knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SynthCollective {
    /// Every rank ends with every rank's chunks.
    AllGather,
    /// The root ends with every rank's chunks.
    Gather { root: usize },
    /// Rank r ends with the root's slice r.
    Scatter { root: usize },
    /// Every rank ends with the root's chunks.
    Broadcast { root: usize },
    /// Rank d ends with slice d of every rank.
    AllToAll,
    /// Rank r ends with the sum of slice r (dual: AllGather).
    ReduceScatter,
    /// Every rank ends with the sum (ReduceScatter then AllGather).
    AllReduce,
}

/// One chunk of the non-combining problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkDemand {
    /// Ranks holding it at the start.
    pub pre: u64,
    /// Ranks that must hold it at the end.
    pub post: u64,
}

impl SynthCollective {
    /// Parses `allgather`, `gather`, `scatter`, `broadcast`, `alltoall`, `reducescatter`,
    /// `allreduce` (case-insensitive); `root` applies to the rooted ones.
    pub fn parse(name: &str, root: usize) -> Result<SynthCollective> {
        Ok(match name.to_ascii_lowercase().replace(['_', '-'], "").as_str() {
            "allgather" => SynthCollective::AllGather,
            "gather" => SynthCollective::Gather { root },
            "scatter" => SynthCollective::Scatter { root },
            "broadcast" => SynthCollective::Broadcast { root },
            "alltoall" => SynthCollective::AllToAll,
            "reducescatter" => SynthCollective::ReduceScatter,
            "allreduce" => SynthCollective::AllReduce,
            _ => {
                return Err(SynthError::Collective(format!(
                    "unknown collective `{name}` (allgather, gather, scatter, broadcast, alltoall, reducescatter, allreduce)"
                )))
            }
        })
    }

    /// Whether it combines (is synthesized through its dual).
    pub fn is_combining(self) -> bool {
        matches!(self, SynthCollective::ReduceScatter | SynthCollective::AllReduce)
    }

    /// The root, for rooted collectives.
    pub fn root(self) -> Option<usize> {
        match self {
            SynthCollective::Gather { root } | SynthCollective::Scatter { root } | SynthCollective::Broadcast { root } => Some(root),
            _ => None,
        }
    }

    /// The non-combining problem on `n` ranks with `k` chunks per slice. Chunk ids: AllGather,
    /// Gather: `origin*k+j`; Scatter: `dest*k+j`; Broadcast: `j`; AllToAll: `(src*n+dst)*k+j`;
    /// the combining ones: their dual AllGather's.
    pub fn demand(self, n: usize, k: usize) -> Result<Vec<ChunkDemand>> {
        if k == 0 {
            return Err(SynthError::Instance("chunks must be at least 1".into()));
        }
        if let Some(root) = self.root().filter(|&r| r >= n) {
            return Err(SynthError::Collective(format!("root {root} is out of range for {n} ranks")));
        }
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let bit = |r: usize| 1u64 << r;
        let per = |count: usize, f: &dyn Fn(usize) -> ChunkDemand| (0..count * k).map(|c| f(c / k)).collect();
        Ok(match self {
            SynthCollective::AllGather | SynthCollective::ReduceScatter | SynthCollective::AllReduce => {
                per(n, &|u| ChunkDemand { pre: bit(u), post: all })
            }
            SynthCollective::Gather { root } => per(n, &|u| ChunkDemand { pre: bit(u), post: bit(root) | bit(u) }),
            SynthCollective::Scatter { root } => per(n, &|d| ChunkDemand { pre: bit(root), post: bit(d) | bit(root) }),
            SynthCollective::Broadcast { root } => per(1, &|_| ChunkDemand { pre: bit(root), post: all }),
            SynthCollective::AllToAll => per(n * n, &|sd| ChunkDemand { pre: bit(sd / n), post: bit(sd % n) | bit(sd / n) }),
        })
    }
}

impl fmt::Display for SynthCollective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SynthCollective::AllGather => write!(f, "allgather"),
            SynthCollective::Gather { root } => write!(f, "gather(root={root})"),
            SynthCollective::Scatter { root } => write!(f, "scatter(root={root})"),
            SynthCollective::Broadcast { root } => write!(f, "broadcast(root={root})"),
            SynthCollective::AllToAll => write!(f, "alltoall"),
            SynthCollective::ReduceScatter => write!(f, "reducescatter"),
            SynthCollective::AllReduce => write!(f, "allreduce"),
        }
    }
}
