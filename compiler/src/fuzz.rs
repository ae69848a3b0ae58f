//! A deterministic mutation fuzzer for text inputs (the importers' and the CLI's tests). It
//! runs on stable Rust: inputs are mutated from a committed corpus with a seeded generator,
//! each is fed to the target under `catch_unwind`, and a panic, an input slower than the
//! per-input limit, or a rejection the target calls untyped is a finding with its input.
//! `WEFT_FUZZ_SECS` lengthens a run (CI uses a few seconds per target).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Byte strings that tend to reach parser edge cases.
const TOKENS: &[&str] = &[
    "0", "-1", "4294967296", "18446744073709551616", "-9223372036854775809", "1e309", "NaN", "\"", "'", "<", ">", "/>", "</",
    "=", "&amp;", "&#0;", "<!--", "]]>", "{", "}", "(", ")", "[", "]", ":", ",", "%", "^", "!", "#", "@", "\n", "\t", "é", "\u{202e}",
    "--", "-D", "=x", "99999999999999999999", "i64", "f16", "tensor<", "x", "ptr", "\\", "",
];

/// A small seeded generator (xorshift64*), so a failing run repeats exactly.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `input`, sometimes spliced with another corpus entry.
pub fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(8) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => v.splice(at..at, TOKENS[rng.below(TOKENS.len())].bytes()).for_each(drop),
            2 if at < v.len() => {
                let end = (at + 1 + rng.below(32)).min(v.len());
                v.drain(at..end);
            }
            3 if at < v.len() => {
                let end = (at + 1 + rng.below(64)).min(v.len());
                let dup = v[at..end].to_vec();
                v.splice(at..at, dup).for_each(drop);
            }
            4 => v.truncate(at),
            5 if !corpus.is_empty() => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied()).for_each(drop);
            }
            6 => {
                // Replace a run of digits with an extreme number.
                if let Some(s) = (at..v.len()).find(|&i| v[i].is_ascii_digit()) {
                    let e = (s..v.len()).find(|&i| !v[i].is_ascii_digit()).unwrap_or(v.len());
                    let n = ["0", "4294967295", "4294967296", "18446744073709551615", "99999999999999999999999"][rng.below(5)];
                    v.splice(s..e, n.bytes()).for_each(drop);
                }
            }
            _ if at < v.len() => v[at] = rng.next() as u8,
            _ => v.push(rng.next() as u8),
        }
    }
    v
}

/// A finding: the input and what went wrong.
#[derive(Debug)]
pub struct Finding {
    /// The input (lossy UTF-8).
    pub input: String,
    /// The panic message, or why the result was wrong or slow.
    pub problem: String,
}

/// What a fuzzing run did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Inputs tried.
    pub runs: usize,
    /// Inputs the target accepted.
    pub accepted: usize,
    /// Problems found (the run stops at the first few).
    pub findings: Vec<Finding>,
    /// Wall time.
    pub elapsed: Duration,
}

/// Seconds a run lasts: `WEFT_FUZZ_SECS`, else `default`.
pub fn budget(default: f64) -> Duration {
    let secs = std::env::var("WEFT_FUZZ_SECS").ok().and_then(|s| s.trim().parse::<f64>().ok()).unwrap_or(default);
    Duration::from_secs_f64(secs.max(0.0))
}

/// Feeds the corpus, then mutations of it, to `target` for `budget` (at least every corpus
/// entry once). `target` returns `Ok(true)` when it accepts the input, `Ok(false)` for a
/// proper typed rejection, `Err` for a wrong one; a panic or an input taking more than `slow` of
/// CPU time is a finding too.
pub fn run(corpus: &[Vec<u8>], seed: u64, budget: Duration, slow: Duration, target: impl Fn(&[u8]) -> Result<bool, String>) -> Summary {
    let start = Instant::now();
    let mut rng = Rng::new(seed);
    let mut s = Summary::default();
    let mut i = 0;
    while s.findings.len() < 5 && (i < corpus.len() || (start.elapsed() < budget && !corpus.is_empty())) {
        let input = if i < corpus.len() {
            corpus[i].clone()
        } else {
            let from = rng.below(corpus.len());
            mutate(&mut rng, &corpus[from], corpus)
        };
        i += 1;
        let t = thread_cpu_time();
        let outcome = catch_unwind(AssertUnwindSafe(|| target(&input)));
        let took = thread_cpu_time().saturating_sub(t);
        s.runs += 1;
        let problem = match outcome {
            Ok(Ok(accepted)) => {
                s.accepted += accepted as usize;
                (took > slow).then(|| format!("took {took:?}"))
            }
            Ok(Err(e)) => Some(e),
            Err(p) => Some(format!("panic: {}", p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default())),
        };
        if let Some(problem) = problem {
            s.findings.push(Finding { input: String::from_utf8_lossy(&input).into_owned(), problem });
        }
    }
    s.elapsed = start.elapsed();
    s
}

/// CPU time of this thread: a slow input is one that computes long, not one descheduled on a
/// loaded machine.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid out-pointer; CLOCK_THREAD_CPUTIME_ID always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The files of a corpus directory, sorted by name.
pub fn corpus(dir: &std::path::Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_deterministic_and_findings_name_the_input() {
        let corpus = vec![b"<algo name=\"x\"/>".to_vec()];
        let (mut a, mut b) = (Rng::new(9), Rng::new(9));
        assert_eq!(mutate(&mut a, &corpus[0], &corpus), mutate(&mut b, &corpus[0], &corpus));
        let s = run(&corpus, 1, Duration::from_millis(50), Duration::from_secs(1), |x| Ok(x == corpus[0].as_slice()));
        assert!(s.runs > 1 && s.accepted >= 1, "{s:?}");
        let s = run(&corpus, 1, Duration::ZERO, Duration::from_secs(1), |_| panic!("boom"));
        assert_eq!((s.findings.len(), s.findings[0].problem.as_str()), (1, "panic: boom"));
    }
}
