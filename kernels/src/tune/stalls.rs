//! A timed loop's mean without the launches a scheduler stall lengthened. With more runnable
//! threads than cores (the 2-core bench machine at any load above 2), a launch now and then
//! loses its core for a whole scheduler slice: the alternate bench put a 256 KiB ring
//! AllReduce at p50 73 µs, p99 4.2 ms, max 8.3 ms, at multiples of the 4 ms tick, even alone
//! on one worker. One such launch in a 3 ms loop doubles the loop's mean, so a config's loops
//! were bimodal, and the tuner's round-by-round rule kept the two-shot default against a ring
//! twice as fast. A launch slower than its loop's median only by a factor a kernel's own modes
//! reach (a bidirectional ring's slow mode is ~3x) is kept.

/// A launch at least this many times its loop's median ...
const FACTOR: f64 = 4.0;
/// ... and at least this much longer (seconds; a scheduler tick is 1-4 ms) lost its core.
const STALL_S: f64 = 1e-3;

/// The mean of `launches` (seconds, reordered) over those no stall lengthened; NaN when empty.
pub fn unstalled_mean(launches: &mut [f64]) -> f64 {
    if launches.is_empty() {
        return f64::NAN;
    }
    launches.sort_by(f64::total_cmp);
    let median = launches[launches.len() / 2];
    // Sorted, so the stalled launches are a tail; the median itself is always kept.
    let kept = launches.partition_point(|&t| !(t > FACTOR * median && t - median > STALL_S));
    launches[..kept].iter().sum::<f64>() / kept as f64
}

#[cfg(test)]
mod tests {
    use super::unstalled_mean;

    /// A small deterministic generator (xorshift), so the shapes vary without a dependency.
    fn rng(seed: u64) -> impl FnMut() -> f64 {
        let mut x = seed | 1;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn stalls_of_a_tick_drop_out_and_the_rest_average_plainly() {
        for seed in 1..40u64 {
            let mut r = rng(seed);
            let n = 1 + (r() * 90.0) as usize;
            // Launches of 20-200 µs, each within 1.5x of the loop's base.
            let base = 20e-6 + r() * 180e-6;
            let clean: Vec<f64> = (0..n).map(|_| base * (1.0 + 0.5 * r())).collect();
            let stalls = (n - 1) / 3;
            let mut loop_ = clean.clone();
            loop_.extend((0..stalls).map(|_| base + 4e-3 * (1.0 + (r() * 2.0).floor())));
            let want = clean.iter().sum::<f64>() / n as f64;
            let got = unstalled_mean(&mut loop_);
            assert!((got - want).abs() <= 1e-12 * want.max(1.0), "seed {seed}: {got} vs {want}");
        }
    }

    #[test]
    fn a_kernels_own_slow_mode_and_long_launches_count() {
        // Half the launches 3x slower (a slow mode of the kernel, not of the machine).
        let mut bimodal: Vec<f64> = (0..40).map(|i| if i % 2 == 0 { 80e-6 } else { 240e-6 }).collect();
        assert!((unstalled_mean(&mut bimodal) - 160e-6).abs() < 1e-12);
        // 25 ms launches: a 4 ms stall is no outlier at this length, and stays.
        let mut long = vec![25e-3, 25e-3, 29e-3];
        assert!((unstalled_mean(&mut long) - 79e-3 / 3.0).abs() < 1e-12);
        assert!(unstalled_mean(&mut []).is_nan());
        let mut one = [7e-3];
        assert_eq!(unstalled_mean(&mut one), 7e-3);
    }
}
