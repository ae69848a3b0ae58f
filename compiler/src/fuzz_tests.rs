//! Fuzz targets for the two text importers, over the committed corpus in `tests/fuzz/corpus`:
//! the MSCCL-IR XML importer (and the lowering of what it accepts) and the `tir` importer.
//! No input may panic or take more than a second, and every rejection is a typed error with a
//! message. `WEFT_FUZZ_SECS=3600 cargo test -p weft-compiler fuzz_` for a long local run.

use crate::fuzz::{budget, corpus, run, Summary};
use std::path::Path;
use std::time::Duration;

fn corpus_of(kind: &str) -> Vec<Vec<u8>> {
    let c = corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fuzz/corpus").join(kind));
    assert!(!c.is_empty(), "no {kind} corpus");
    c
}

fn report(what: &str, s: &Summary) {
    eprintln!("fuzz {what}: {} inputs in {:?}, {} accepted, {} findings", s.runs, s.elapsed, s.accepted, s.findings.len());
    assert!(s.findings.is_empty(), "{what}: {:#?}", s.findings);
}

/// A rejection must say what is wrong.
fn typed<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<Option<T>, String> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.to_string().trim().is_empty() => Err("rejected with an empty message".into()),
        Err(_) => Ok(None),
    }
}

#[test]
fn fuzz_msccl_xml_importer() {
    let s = run(&corpus_of("xml"), 0x6d73636c, budget(3.0), Duration::from_secs(1), |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else { return Ok(false) };
        let Some(ir) = typed(crate::msccl::xml::from_xml(text))? else { return Ok(false) };
        // What the CLI does next with an imported algorithm.
        Ok(typed(crate::msccl::lower::lower(&ir, &crate::msccl::lower::LowerOptions::default()))?.is_some())
    });
    report("msccl xml", &s);
}

#[test]
fn fuzz_tir_importer() {
    // `pipeline::import_tir` without making an MLIR context per input (most of its time).
    let ctx = weft_dialects::context().unwrap();
    let s = run(&corpus_of("tir"), 0x746972, budget(3.0), Duration::from_secs(1), |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else { return Ok(false) };
        let Some(module) = typed(weft_dialects::parse(&ctx, text, "fuzz.mlir"))? else { return Ok(false) };
        Ok(typed(crate::ir::import::import(&module))?.is_some())
    });
    report("tir", &s);
}
