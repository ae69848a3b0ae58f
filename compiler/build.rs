//! Hashes the sources that decide generated code (the compiler, the dialects, the runtime
//! ABI the code calls) into `WEFT_SOURCE_HASH`, the compile cache's build identity: every
//! binary built from the same sources (the CLI, tests, benches) shares cache entries, and any
//! source change invalidates them.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let dirs = [root.join("src"), root.join("../dialects/src"), root.join("../runtime/src")];
    let mut all = vec![];
    for d in &dirs {
        println!("cargo::rerun-if-changed={}", d.display());
        files(d, &mut all);
    }
    all.sort();
    // FNV-1a over (path, contents): stable across toolchains, unlike std's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &all {
        let rel = p.strip_prefix(&root).unwrap_or(p).to_string_lossy().into_owned();
        for b in rel.bytes().chain(std::fs::read(p).unwrap_or_default()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo::rustc-env=WEFT_SOURCE_HASH={h:016x}");
}
