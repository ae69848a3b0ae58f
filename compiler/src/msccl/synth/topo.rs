//! Topologies as data: a matrix of link multiplicities (bandwidth in chunks per round), as
//! msccl-tools describes a machine, plus the named families and a JSON file format.
//!
//! JSON format: `{"name": "mine", "links": [[0, 2], [2, 0]]}`: `links[src][dst]` is how many
//! chunks a round can move from `src` to `dst` (0: no link). The matrix must be square.

use std::fmt;

use super::error::{Result, SynthError};

/// Most ranks a topology may have (possession sets are `u64` bit masks).
pub const MAX_RANKS: usize = 64;

/// A directed multigraph of ranks; `links[src][dst]` is the link's bandwidth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// Name, used in algorithm names and messages.
    pub name: String,
    /// `links[src][dst]`: chunks per round from `src` to `dst`.
    pub links: Vec<Vec<u32>>,
}

impl Topology {
    /// Checks the matrix: square, 1..=64 ranks, no self links.
    pub fn new(name: impl Into<String>, links: Vec<Vec<u32>>) -> Result<Topology> {
        let name = name.into();
        let n = links.len();
        if n == 0 || n > MAX_RANKS {
            return Err(SynthError::Topology(format!("{name}: {n} ranks (1..={MAX_RANKS} supported)")));
        }
        for (src, row) in links.iter().enumerate() {
            if row.len() != n {
                return Err(SynthError::Topology(format!("{name}: row {src} has {} entries, expected {n}", row.len())));
            }
            if row[src] != 0 {
                return Err(SynthError::Topology(format!("{name}: rank {src} links to itself")));
            }
        }
        Ok(Topology { name, links })
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.links.len()
    }

    /// Bandwidth from `src` to `dst`.
    pub fn bw(&self, src: usize, dst: usize) -> u32 {
        self.links[src][dst]
    }

    /// Every link `(src, dst, bandwidth)` with nonzero bandwidth.
    pub fn edges(&self) -> Vec<(usize, usize, u32)> {
        let n = self.ranks();
        (0..n).flat_map(|s| (0..n).map(move |d| (s, d))).filter_map(|(s, d)| (self.bw(s, d) > 0).then(|| (s, d, self.bw(s, d)))).collect()
    }

    /// The same machine with every link reversed (combining collectives run the dual on it).
    pub fn reversed(&self) -> Topology {
        let n = self.ranks();
        let links = (0..n).map(|s| (0..n).map(|d| self.links[d][s]).collect()).collect();
        Topology { name: self.name.clone(), links }
    }

    /// `dist[a][b]`: hops from `a` to `b` (`usize::MAX`: unreachable).
    pub fn distances(&self) -> Vec<Vec<usize>> {
        let n = self.ranks();
        (0..n)
            .map(|a| {
                let mut d = vec![usize::MAX; n];
                d[a] = 0;
                let mut frontier = vec![a];
                while let Some(u) = frontier.first().copied() {
                    frontier.remove(0);
                    for v in 0..n {
                        if self.bw(u, v) > 0 && d[v] == usize::MAX {
                            d[v] = d[u] + 1;
                            frontier.push(v);
                        }
                    }
                }
                d
            })
            .collect()
    }

    /// A unidirectional ring `i -> i+1` of `n` ranks, bandwidth 1.
    pub fn ring(n: usize) -> Result<Topology> {
        let links = (0..n).map(|s| (0..n).map(|d| u32::from(n > 1 && d == (s + 1) % n)).collect()).collect();
        Topology::new(format!("ring{n}"), links)
    }

    /// Every pair of `n` ranks linked both ways, bandwidth 1.
    pub fn fully_connected(n: usize) -> Result<Topology> {
        let links = (0..n).map(|s| (0..n).map(|d| u32::from(s != d)).collect()).collect();
        Topology::new(format!("fc{n}"), links)
    }

    /// NVIDIA DGX-1: the hybrid cube-mesh of 8 V100s. Ranks 0-3 and 4-7 are the two sockets;
    /// 0-1-3-2-6-7-5-4-0 is a ring of doubled NVLinks, the other NVLinks are single.
    pub fn dgx1() -> Topology {
        let double = [(0, 1), (1, 3), (3, 2), (2, 6), (6, 7), (7, 5), (5, 4), (4, 0)];
        let single = [(0, 2), (0, 3), (1, 2), (1, 5), (3, 7), (4, 6), (4, 7), (5, 6)];
        let mut links = vec![vec![0; 8]; 8];
        for (list, bw) in [(&double, 2), (&single, 1)] {
            for &(a, b) in list.iter() {
                links[a][b] = bw;
                links[b][a] = bw;
            }
        }
        Topology { name: "dgx1".into(), links }
    }

    /// `nodes` x `local` ranks (rank = node * local + g): fully connected inside a node with
    /// bandwidth `intra`, and local rank g of every node linked to local rank g of every other
    /// node with bandwidth `inter` (one NIC per GPU, rail-aligned).
    pub fn hierarchical(nodes: usize, local: usize, intra: u32, inter: u32) -> Result<Topology> {
        let n = nodes * local;
        let links = (0..n)
            .map(|s| {
                (0..n)
                    .map(|d| match (s / local == d / local, s % local == d % local) {
                        _ if s == d => 0,
                        (true, _) => intra,
                        (false, true) => inter,
                        (false, false) => 0,
                    })
                    .collect()
            })
            .collect();
        Topology::new(format!("hier{nodes}x{local}"), links)
    }

    /// Parses the JSON file format (see the module docs).
    pub fn from_json(text: &str) -> Result<Topology> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| SynthError::Topology(format!("bad JSON: {e}")))?;
        let name = v.get("name").and_then(|n| n.as_str()).unwrap_or("custom");
        let rows = v.get("links").and_then(|l| l.as_array()).ok_or_else(|| SynthError::Topology("missing array `links`".into()))?;
        let links = rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let row = row.as_array().ok_or_else(|| SynthError::Topology(format!("links[{i}] is not an array")))?;
                row.iter()
                    .enumerate()
                    .map(|(j, x)| {
                        x.as_u64().and_then(|x| u32::try_from(x).ok()).ok_or_else(|| SynthError::Topology(format!("links[{i}][{j}] is not a small non-negative integer")))
                    })
                    .collect()
            })
            .collect::<Result<Vec<Vec<u32>>>>()?;
        Topology::new(name, links)
    }

    /// A topology by name: `ring:N`, `fc:N` (fully connected), `dgx1`,
    /// `hier:NODESxLOCAL[:INTRA:INTER]` (default bandwidths 4 and 1), or a path to a JSON file.
    pub fn parse(spec: &str) -> Result<Topology> {
        let num = |s: &str| s.parse::<usize>().map_err(|_| SynthError::Topology(format!("`{s}` in `{spec}` is not a number")));
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        match kind {
            "dgx1" | "DGX1" => Ok(Topology::dgx1()),
            "ring" => Topology::ring(num(rest)?),
            "fc" | "fully-connected" => Topology::fully_connected(num(rest)?),
            "hier" => {
                let parts: Vec<&str> = rest.split(':').collect();
                let (nodes, local) = parts[0].split_once('x').ok_or_else(|| SynthError::Topology(format!("`{spec}`: expected hier:NODESxLOCAL")))?;
                let bw = |i: usize, d: u32| parts.get(i).map_or(Ok(d), |s| num(s).map(|x| x as u32));
                if parts.len() != 1 && parts.len() != 3 {
                    return Err(SynthError::Topology(format!("`{spec}`: expected hier:NODESxLOCAL[:INTRA:INTER]")));
                }
                Topology::hierarchical(num(nodes)?, num(local)?, bw(1, 4)?, bw(2, 1)?)
            }
            _ if std::path::Path::new(spec).is_file() => {
                let text = std::fs::read_to_string(spec).map_err(|e| SynthError::Topology(format!("{spec}: {e}")))?;
                Topology::from_json(&text).map_err(|e| SynthError::Topology(format!("{spec}: {e}")))
            }
            _ => Err(SynthError::Topology(format!("unknown topology `{spec}` (ring:N, fc:N, dgx1, hier:NxL[:INTRA:INTER], or a JSON file)"))),
        }
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.ranks();
        writeln!(f, "{}: {n} ranks, {} links (bandwidth in chunks per round)", self.name, self.edges().len())?;
        write!(f, "    ")?;
        for d in 0..n {
            write!(f, "{d:>3}")?;
        }
        for s in 0..n {
            write!(f, "\n{s:>3}:")?;
            for d in 0..n {
                match self.bw(s, d) {
                    0 => write!(f, "  .")?,
                    b => write!(f, "{b:>3}")?,
                }
            }
        }
        Ok(())
    }
}
