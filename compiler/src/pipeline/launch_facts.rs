//! What a launcher needs that the IR does not carry (dynamic shared memory, the TMA
//! descriptors' parameters), written as comment lines at the head of the `gpu`, `llvm` and
//! `ptx` dumps so a compilation resumed from one of them launches like the original.

use super::Output;
use crate::cache::gpu::{tma_parse, tma_words};

const TAG: &str = "weft.launch";

/// `text` with a comment line (`comment`: `;` in LLVM IR, `//` in PTX) per launch fact of `out`.
pub fn annotate(text: String, comment: &str, out: &Output) -> String {
    let mut head = String::new();
    if out.dynamic_smem > 0 {
        head += &format!("{comment} {TAG} dynamic_shared {}\n", out.dynamic_smem);
    }
    for p in &out.tma {
        head += &format!("{comment} {TAG} tensor_map {}\n", tma_words(p));
    }
    head + &text
}

/// Reads the facts [`annotate`] wrote at the head of `text` into `out`; a malformed line is an
/// error naming it.
pub fn read(text: &str, comment: &str, out: &mut Output) -> Result<(), String> {
    let prefix = format!("{comment} {TAG} ");
    for line in text.lines().take_while(|l| l.starts_with(&prefix)) {
        let fact = &line[prefix.len()..];
        let bad = || format!("malformed launch fact `{line}`");
        match fact.split_once(' ') {
            Some(("dynamic_shared", n)) => out.dynamic_smem = n.parse().map_err(|_| bad())?,
            Some(("tensor_map", words)) => out.tma.push(tma_parse(words).ok_or_else(bad)?),
            _ => return Err(bad()),
        }
    }
    Ok(())
}
