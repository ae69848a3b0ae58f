//! The transportation problem a destination solves each step: classes of chunks (each with a
//! supply and the set of in-links whose source holds them) onto in-links with capacities.
//! Receiving is a transversal matroid, so its rank is a max flow; graphs here are tiny
//! (tens of classes, at most 63 links), so an adjacency-matrix Edmonds-Karp is plenty.

/// A destination's step: `caps[j]` is in-link j's capacity, `src[j]` its source rank.
pub struct Transport<'a> {
    /// Capacity of each in-link this step.
    pub caps: &'a [u32],
    /// Source rank of each in-link.
    pub src: &'a [usize],
}

impl Transport<'_> {
    /// Max flow of classes with `supply[i]` chunks held by the ranks in `holders[i]`; returns
    /// the total and `flow[i][j]` (chunks of class i over link j).
    pub fn solve(&self, supply: &[u32], holders: &[u64]) -> (u32, Vec<Vec<u32>>) {
        let (m, l) = (supply.len(), self.caps.len());
        let (s, t) = (m + l, m + l + 1);
        let nodes = m + l + 2;
        let mut cap = vec![vec![0i64; nodes]; nodes];
        for i in 0..m {
            cap[s][i] = i64::from(supply[i]);
            for j in 0..l {
                if holders[i] >> self.src[j] & 1 == 1 {
                    cap[i][m + j] = i64::MAX / 4;
                }
            }
        }
        for j in 0..l {
            cap[m + j][t] = i64::from(self.caps[j]);
        }
        let orig = cap.clone();
        let mut total = 0i64;
        loop {
            // BFS for an augmenting path in the residual graph.
            let mut prev = vec![usize::MAX; nodes];
            prev[s] = s;
            let mut queue = std::collections::VecDeque::from([s]);
            while let Some(u) = queue.pop_front() {
                for v in 0..nodes {
                    if prev[v] == usize::MAX && cap[u][v] > 0 {
                        prev[v] = u;
                        queue.push_back(v);
                    }
                }
            }
            if prev[t] == usize::MAX {
                break;
            }
            let mut push = i64::MAX;
            let mut v = t;
            while v != s {
                push = push.min(cap[prev[v]][v]);
                v = prev[v];
            }
            let mut v = t;
            while v != s {
                cap[prev[v]][v] -= push;
                cap[v][prev[v]] += push;
                v = prev[v];
            }
            total += push;
        }
        let flow = (0..m).map(|i| (0..l).map(|j| (orig[i][m + j] - cap[i][m + j]).max(0) as u32).collect()).collect();
        (total as u32, flow)
    }

    /// Max flow only.
    pub fn rank(&self, supply: &[u32], holders: &[u64]) -> u32 {
        self.solve(supply, holders).0
    }
}
