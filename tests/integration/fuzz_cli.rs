//! Fuzz target for the CLI's argument parser, over the committed command lines in
//! `tests/fuzz/corpus/cli` (one argument per line): no argument vector may panic, and every
//! rejection is one `weft: error:` line. `WEFT_FUZZ_SECS` lengthens the run.

#[allow(dead_code, unused_imports)]
#[path = "../../src/cli/mod.rs"]
mod cli;

use std::path::Path;
use std::time::Duration;
use weft::compiler::fuzz::{budget, corpus, run};

#[test]
fn fuzz_cli_argument_parser() {
    let corpus = corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/corpus/cli"));
    assert!(corpus.len() >= 5);
    let s = run(&corpus, 0x636c69, budget(3.0), Duration::from_secs(1), |bytes| {
        let text = String::from_utf8_lossy(bytes);
        let args = std::iter::once("weft").chain(text.split('\n'));
        match cli::parse(args) {
            Ok(_) => Ok(true),
            Err(e) => match cli::error_line(&e) {
                None => Ok(false),
                Some(line) if line.starts_with("weft: error: ") && !line.contains('\n') && line.len() > 30 => Ok(false),
                Some(line) => Err(format!("not one error line: {line:?}")),
            },
        }
    });
    eprintln!("fuzz cli: {} inputs in {:?}, {} accepted, {} findings", s.runs, s.elapsed, s.accepted, s.findings.len());
    assert!(s.findings.is_empty(), "{:#?}", s.findings);
}
