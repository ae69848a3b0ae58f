//! The plain math of each collective, on host vectors (one per rank), in f64. These are the
//! independent references the kernels are checked against.

/// Segment `r` of `n` elements split over `world` ranks: `[r*n/world, (r+1)*n/world)`.
pub fn segment(n: usize, world: usize, r: usize) -> std::ops::Range<usize> {
    r * n / world..(r + 1) * n / world
}

/// AllGather: every rank gets every rank's shard, in rank order.
pub fn all_gather(inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let all: Vec<f64> = inputs.iter().flatten().copied().collect();
    vec![all; inputs.len()]
}

/// Elementwise sum over ranks.
pub fn sum(inputs: &[Vec<f64>]) -> Vec<f64> {
    let mut s = vec![0.0; inputs[0].len()];
    for v in inputs {
        for (a, b) in s.iter_mut().zip(v) {
            *a += b;
        }
    }
    s
}

/// AllReduce (sum): every rank gets the elementwise sum.
pub fn all_reduce(inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    vec![sum(inputs); inputs.len()]
}

/// ReduceScatter (sum): rank `r` gets segment `r` of the sum.
pub fn reduce_scatter(inputs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let s = sum(inputs);
    (0..inputs.len()).map(|r| s[segment(s.len(), inputs.len(), r)].to_vec()).collect()
}

/// Broadcast: every rank gets `root`'s buffer.
pub fn broadcast(inputs: &[Vec<f64>], root: usize) -> Vec<Vec<f64>> {
    vec![inputs[root].clone(); inputs.len()]
}

/// Naive row-major GEMM `A[m, k] · B[k, n]`, with the sum of `|a * b|` of every element
/// (the scale of its rounding error). Rows are split over the host's cores: a 4096³ check of a
/// GPU launch took ~40 s on one core. Each row is summed in the same order on any core count.
pub fn matmul(a: &[f64], b: &[f64], m: usize, n: usize, k: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut c, mut abs) = (vec![0.0; m * n], vec![0.0; m * n]);
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    // Below ~16 MFLOP a thread's start costs more than it saves.
    let threads = if m * n * k < 1 << 24 { 1 } else { cores.min(m).max(1) };
    let rows = m.div_ceil(threads).max(1);
    let chunk = (rows * n).max(1);
    std::thread::scope(|s| {
        for (t, (c, abs)) in c.chunks_mut(chunk).zip(abs.chunks_mut(chunk)).enumerate() {
            let mut work = move || {
                for (r, (c, abs)) in c.chunks_mut(n.max(1)).zip(abs.chunks_mut(n.max(1))).enumerate() {
                    let i = t * rows + r;
                    for p in 0..k {
                        let x = a[i * k + p];
                        for ((c, abs), y) in c.iter_mut().zip(abs.iter_mut()).zip(&b[p * n..(p + 1) * n]) {
                            *c += x * y;
                            *abs += (x * y).abs();
                        }
                    }
                }
            };
            if threads == 1 { work() } else { s.spawn(work); }
        }
    });
    (c, abs)
}

/// One token choice received by an expert: (source rank, token, choice `k`).
pub type Choice = (usize, usize, usize);

/// Expert-parallel dispatch with `experts` split evenly over the ranks (`idx[r]` is rank `r`'s
/// `[tokens, topk]` expert ids): for every rank and each of its local experts, the choices it
/// receives, by source rank then token.
pub fn ep_dispatch(idx: &[Vec<i32>], topk: usize, experts: usize) -> Vec<Vec<Vec<Choice>>> {
    let world = idx.len();
    let epr = experts / world;
    let mut got = vec![vec![vec![]; epr]; world];
    for (src, ids) in idx.iter().enumerate() {
        for (i, &e) in ids.iter().enumerate() {
            let e = e as usize;
            got[e / epr][e % epr].push((src, i / topk, i % topk));
        }
    }
    // Pushed in source then token order already; sorting states the contract.
    got.iter_mut().flatten().for_each(|v| v.sort());
    got
}

/// Expert-parallel combine: rank `r`'s token `t` is `sum_k weights[r][t * topk + k] *
/// row(r, t, k)`, where `row` is the expert output for that choice (`hidden` values).
pub fn ep_combine<'a>(weights: &[Vec<f64>], topk: usize, hidden: usize, row: impl Fn(usize, usize, usize) -> &'a [f64]) -> Vec<Vec<f64>> {
    weights
        .iter()
        .enumerate()
        .map(|(r, w)| {
            let tokens = w.len() / topk;
            let mut out = vec![0.0; tokens * hidden];
            for t in 0..tokens {
                for k in 0..topk {
                    for (o, y) in out[t * hidden..(t + 1) * hidden].iter_mut().zip(row(r, t, k)) {
                        *o += w[t * topk + k] * y;
                    }
                }
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_tile_the_buffer() {
        for (n, w) in [(7, 3), (1, 8), (1000003, 8), (0, 2)] {
            let total: usize = (0..w).map(|r| segment(n, w, r).len()).sum();
            assert_eq!(total, n);
            assert!((0..w - 1).all(|r| segment(n, w, r).end == segment(n, w, r + 1).start));
        }
    }

    #[test]
    fn reduce_scatter_is_the_sum_split() {
        let inputs = vec![vec![1.0, 2.0, 3.0], vec![10.0, 20.0, 30.0]];
        assert_eq!(reduce_scatter(&inputs), vec![vec![11.0], vec![22.0, 33.0]]);
        assert_eq!(all_gather(&inputs)[1], vec![1.0, 2.0, 3.0, 10.0, 20.0, 30.0]);
    }

    #[test]
    fn matmul_is_the_sum_of_products() {
        let (c, abs) = matmul(&[1.0, -2.0, 3.0, 4.0], &[5.0, 6.0, 7.0, 8.0], 2, 2, 2);
        assert_eq!(c, vec![5.0 - 14.0, 6.0 - 16.0, 15.0 + 28.0, 18.0 + 32.0]);
        assert_eq!(abs, vec![19.0, 22.0, 43.0, 50.0]);
    }

    #[test]
    fn a_matmul_split_over_threads_equals_the_dot_products_bit_for_bit() {
        // Over the threading threshold, with a row count no core count divides evenly.
        let (m, n, k) = (301, 263, 257);
        let a: Vec<f64> = (0..m * k).map(|i| ((i * 7919) % 1013) as f64 / 97.0 - 5.0).collect();
        let b: Vec<f64> = (0..k * n).map(|i| ((i * 104729) % 2003) as f64 / 211.0 - 4.5).collect();
        let (c, abs) = matmul(&a, &b, m, n, k);
        for (i, j) in [(0, 0), (m - 1, n - 1), (150, 7), (m / 2 + 1, n - 2), (m - 2, 0)] {
            let dot = (0..k).fold(0.0, |s, p| s + a[i * k + p] * b[p * n + j]);
            let dot_abs = (0..k).fold(0.0, |s, p| s + (a[i * k + p] * b[p * n + j]).abs());
            assert_eq!((c[i * n + j].to_bits(), abs[i * n + j].to_bits()), (dot.to_bits(), dot_abs.to_bits()), "({i}, {j})");
        }
    }
}
