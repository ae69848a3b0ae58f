//! The tuner's disk cache: one human-readable JSON file per key under
//! `$WEFT_CACHE_DIR/tune/` (else `$XDG_CACHE_HOME/weft/tune/`, else `~/.cache/weft/tune/`).
//! The key names the kernel by its IR's hash, not by the config list, so editing the space
//! keeps every measurement of the configs that are still in it.

use super::TuneError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a tuning result is valid for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    /// The operation (`ag_gemm`, `allreduce`, ...).
    pub op: String,
    /// blake3 of the default config's kernel IR (changes when the kernel's code does).
    pub ir: String,
    /// `cpu` or the GPU architecture.
    pub target: String,
    /// Transport name.
    pub transport: String,
    /// `nodes x local` ranks.
    pub topology: String,
    /// Element type.
    pub dtype: String,
    /// The shape's bucket (each dimension or byte count rounded up to a power of two).
    pub shape: String,
    /// weft's version.
    pub version: String,
}

impl Key {
    /// The file the entry lives in: the op, then a hash of the whole key.
    pub fn file_name(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        format!("{}-{}.json", self.op, &blake3::hash(json.as_bytes()).to_hex()[..16])
    }
}

/// One config's measured time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Microseconds: the best round's median, MAX over ranks.
    pub us: f64,
    /// Timed launches (fewer when it was stopped early).
    pub runs: usize,
}

/// A cache file's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// What it is valid for.
    pub key: Key,
    /// The winning config's id.
    pub winner: String,
    /// Every measured config by id.
    pub measured: BTreeMap<String, Measured>,
    /// Size of the space when it was tuned.
    pub space: usize,
    /// Hash of the space's config ids when it was tuned (an edited space re-tunes, reusing
    /// the timings of every config still in it).
    pub space_hash: String,
    /// Configs pruned before compiling.
    pub pruned: usize,
}

/// The outcome of a lookup.
#[derive(Clone, Debug)]
pub enum Lookup {
    /// A valid entry.
    Hit(Entry),
    /// No file.
    Miss,
    /// A file that does not parse or belongs to another key (the message says which).
    Corrupt(String),
}

/// The tuner's directory.
pub fn tune_dir() -> PathBuf {
    weft_compiler::cache::cache_dir().join("tune")
}

/// Reads `key`'s entry from `dir`.
pub fn load(dir: &Path, key: &Key) -> Lookup {
    let path = dir.join(key.file_name());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Lookup::Miss,
        Err(e) => return Lookup::Corrupt(format!("{}: {e}", path.display())),
    };
    match serde_json::from_str::<Entry>(&text) {
        Ok(e) if e.key == *key && e.measured.contains_key(&e.winner) => Lookup::Hit(e),
        Ok(_) => Lookup::Corrupt(format!("{}: its key or winner does not match its name", path.display())),
        Err(e) => Lookup::Corrupt(format!("{}: {e}", path.display())),
    }
}

/// Writes `entry` (through a temporary file and a rename, so a reader never sees half).
pub fn store(dir: &Path, entry: &Entry) -> Result<PathBuf, TuneError> {
    let io = |e: std::io::Error| TuneError::Cache { path: dir.display().to_string(), why: e.to_string() };
    std::fs::create_dir_all(dir).map_err(io)?;
    let path = dir.join(entry.key.file_name());
    let tmp = dir.join(format!(".{}.{}", entry.key.file_name(), weft_compiler::cache::unique_tag()));
    let text = serde_json::to_string_pretty(entry).map_err(|e| TuneError::Cache { path: path.display().to_string(), why: e.to_string() })?;
    std::fs::write(&tmp, text + "\n").map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

/// Every entry file in `dir`, parsed or with why not.
pub fn list(dir: &Path) -> Vec<(PathBuf, Result<Entry, String>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json") && !is_aux(p)).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let e = std::fs::read_to_string(&p).map_err(|e| e.to_string()).and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()));
            (p, e)
        })
        .collect()
}

/// Files that are not entries: the machine constants (every version's) and the selection tables.
fn is_aux(p: &Path) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("machine") || n.starts_with("selection-"))
}

/// Removes every file of `dir`; returns how many.
pub fn clear(dir: &Path) -> Result<usize, TuneError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(0) };
    let mut n = 0;
    for e in entries.flatten() {
        std::fs::remove_file(e.path()).map_err(|err| TuneError::Cache { path: e.path().display().to_string(), why: err.to_string() })?;
        n += 1;
    }
    Ok(n)
}
