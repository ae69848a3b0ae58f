//! Keeps the on-disk compile cache under a size limit: least recently used entries go first.
//!
//! Every compiled variant of every kernel is an entry (`name-key.so` + `.sites` for the CPU,
//! `name-key.cubin|hsaco` + `.meta` for GPUs, `emu/name-key.so` + `.desc` for the emulator), so
//! tuning sweeps and test runs grow the directory without bound (1 GB in 43,000 files on this
//! project's development machine). The limit is `WEFT_CACHE_MAX_MB` (default 2048; `0` means none). A hit refreshes an entry's time, so
//! what is evicted is what was not used for longest; entries younger than a minute are kept
//! whatever the size, since another process may be about to load them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The default limit, in MiB.
pub const DEFAULT_MAX_MB: u64 = 2048;

/// Entries written less than this long ago are never evicted (a concurrent process may be
/// between finding one and loading it).
const MIN_AGE: Duration = Duration::from_secs(60);

/// A temporary left by a compile that died is removed once it is this old.
const STALE_TEMP: Duration = Duration::from_secs(3600);

/// The extensions of cache entries' files; anything else in the directory is not ours to delete.
const EXTENSIONS: [&str; 6] = ["so", "sites", "cubin", "hsaco", "meta", "desc"];

/// The limit in bytes (`None`: unlimited), from `WEFT_CACHE_MAX_MB`; a malformed value is
/// named once on stderr and the default is used.
pub fn limit_bytes() -> Option<u64> {
    let mb = match std::env::var("WEFT_CACHE_MAX_MB") {
        Err(_) => DEFAULT_MAX_MB,
        Ok(v) => v.trim().parse::<u64>().unwrap_or_else(|_| {
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| eprintln!("weft: warning: WEFT_CACHE_MAX_MB={v:?} is not a number of MiB; using {DEFAULT_MAX_MB}"));
            DEFAULT_MAX_MB
        }),
    };
    (mb > 0).then(|| mb << 20)
}

/// One cache entry: the files sharing a stem in one directory, their bytes and their newest
/// modification time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file stem (`kernel-key`).
    pub stem: String,
    /// The entry's files.
    pub files: Vec<PathBuf>,
    /// Their total size.
    pub bytes: u64,
    /// The newest modification time of its files (a hit refreshes it).
    pub used: SystemTime,
}

/// What the directory holds.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Usage {
    /// Entries, oldest use first.
    pub entries: Vec<Entry>,
    /// Their total size.
    pub bytes: u64,
}

/// What one [`evict`] did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Evicted {
    /// Entries removed.
    pub entries: usize,
    /// Bytes freed (entries and stale temporaries).
    pub bytes: u64,
    /// Bytes in the cache afterwards.
    pub left: u64,
}

/// The directories under the cache root whose files are entries: the compiler's (the root's
/// own files; `toolchain/` and `tune/` are not entries) and the emulator's retargeted kernels.
const ENTRY_DIRS: [&str; 2] = ["", "emu"];

/// Whether `stem` is `name-<32 hex digits>`, as every entry's and temporary's is.
fn keyed(stem: &str) -> bool {
    stem.rsplit_once('-').is_some_and(|(_, key)| key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Lists the entries under the cache root `root`. Temporaries of dead compiles (keyed files with
/// another extension) older than an hour are removed on the way.
pub fn usage(root: &Path) -> std::io::Result<Usage> {
    let now = SystemTime::now();
    let mut by_stem: HashMap<PathBuf, Entry> = HashMap::new();
    for sub in ENTRY_DIRS {
        let dir = root.join(sub);
        let items = match std::fs::read_dir(&dir) {
            Ok(items) => items,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for item in items {
            let item = item?;
            let Ok(meta) = item.metadata() else { continue };
            let name = item.file_name().to_string_lossy().into_owned();
            let Some((stem, ext)) = name.split_once('.') else { continue };
            if !meta.is_file() || !keyed(stem) {
                continue;
            }
            let modified = meta.modified().unwrap_or(now);
            if !EXTENSIONS.contains(&ext) {
                // `stem.<pid>-<n>.o`, `stem.<pid>-<n>.tmp`, `stem.desc.<pid>-<n>`: a write in flight, or
                // one whose process died.
                if now.duration_since(modified).unwrap_or_default() > STALE_TEMP {
                    let _ = std::fs::remove_file(item.path());
                }
                continue;
            }
            let key = dir.join(stem);
            let e = by_stem.entry(key).or_insert_with(|| Entry { stem: stem.to_string(), files: vec![], bytes: 0, used: SystemTime::UNIX_EPOCH });
            e.files.push(item.path());
            e.bytes += meta.len();
            e.used = e.used.max(modified);
        }
    }
    let mut entries: Vec<Entry> = by_stem.into_values().collect();
    entries.sort_by(|a, b| a.used.cmp(&b.used).then_with(|| a.files.cmp(&b.files)));
    let bytes = entries.iter().map(|e| e.bytes).sum();
    Ok(Usage { entries, bytes })
}

/// Removes the least recently used entries under the cache root `root` until it holds at most three quarters of
/// `limit` (so the next few writes do not evict again), keeping entries used in the last minute.
/// Nothing is removed while the cache is within `limit`.
pub fn evict(root: &Path, limit: u64) -> std::io::Result<Evicted> {
    let usage = usage(root)?;
    let mut out = Evicted { left: usage.bytes, ..Evicted::default() };
    if usage.bytes <= limit {
        return Ok(out);
    }
    let target = limit / 4 * 3;
    let now = SystemTime::now();
    for e in &usage.entries {
        if out.left <= target || now.duration_since(e.used).unwrap_or_default() < MIN_AGE {
            break;
        }
        // A process that mapped the library keeps its mapping; one that finds half an entry
        // treats it as missing and compiles again.
        for f in &e.files {
            let _ = std::fs::remove_file(f);
        }
        out.entries += 1;
        out.bytes += e.bytes;
        out.left -= e.bytes;
    }
    Ok(out)
}

/// Bytes written to the cache by this process since it last looked at the directory's size.
static WRITTEN: AtomicU64 = AtomicU64::new(u64::MAX);

/// Called after an entry of `bytes` is written under the cache root `root`: evicts when the limit
/// is exceeded. The directories are scanned on the process's first write and then after every
/// sixteenth of the limit written, not on every write (a scan stats every file).
pub fn after_write(root: &Path, bytes: u64) {
    let Some(limit) = limit_bytes() else { return };
    let before = WRITTEN.fetch_add(bytes, Ordering::Relaxed);
    if before != u64::MAX && before.saturating_add(bytes) < limit / 16 {
        return;
    }
    WRITTEN.store(0, Ordering::Relaxed);
    let _ = evict(root, limit);
}

/// Marks the entry whose file is `path` as just used (its modification time), so eviction takes
/// the least recently used entries rather than the oldest written. Only refreshed when older than
/// an hour: a hit costs no write in the common case.
pub fn touch(path: &Path) {
    let now = SystemTime::now();
    let Ok(file) = std::fs::File::open(path) else { return };
    let stale = file.metadata().and_then(|m| m.modified()).map(|t| now.duration_since(t).unwrap_or_default() > STALE_TEMP).unwrap_or(false);
    if stale {
        let _ = file.set_modified(now);
    }
}

/// Removes every entry under the cache root `root` (and stale temporaries); returns what was
/// freed. The toolchain and tuning caches below it stay.
pub fn clear(root: &Path) -> std::io::Result<Evicted> {
    let usage = usage(root)?;
    for f in usage.entries.iter().flat_map(|e| &e.files) {
        let _ = std::fs::remove_file(f);
    }
    Ok(Evicted { entries: usage.entries.len(), bytes: usage.bytes, left: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary one.
    fn scratch(tag: &str) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!("weft-evict-{tag}-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
        std::fs::create_dir_all(d.join("emu")).unwrap();
        std::fs::create_dir_all(d.join("toolchain")).unwrap();
        d
    }

    /// Writes `bytes` bytes to `path`, last modified `age` ago.
    fn file(path: &Path, bytes: usize, age: Duration) {
        std::fs::write(path, vec![7u8; bytes]).unwrap();
        std::fs::File::options().write(true).open(path).unwrap().set_modified(SystemTime::now() - age).unwrap();
    }

    fn key(i: usize) -> String {
        format!("{i:032x}")
    }

    #[test]
    fn least_recently_used_entries_go_until_three_quarters_of_the_limit() {
        let root = scratch("lru");
        let hour = Duration::from_secs(3600);
        // Ten CPU entries (so + sites), ages 10..1 hours, 1000 + 10 bytes each; two emulator
        // entries; one GPU entry.
        for i in 0..10 {
            let age = hour * (10 - i as u32);
            file(&root.join(format!("k{i}-{}.so", key(i))), 1000, age);
            file(&root.join(format!("k{i}-{}.sites", key(i))), 10, age);
        }
        file(&root.join(format!("e-{}.so", key(20))), 1000, hour * 20);
        file(&root.join(format!("e-{}.desc", key(20))), 10, hour * 20);
        file(&root.join(format!("g-{}.cubin", key(30))), 500, Duration::ZERO);
        file(&root.join(format!("g-{}.meta", key(30))), 500, Duration::ZERO);
        let tool = root.join("toolchain").join(format!("nvshmem-{}.bc", key(40)));
        file(&tool, 5000, hour * 100);
        let foreign = root.join("notes.txt");
        file(&foreign, 5000, hour * 100);
        std::fs::rename(root.join(format!("e-{}.so", key(20))), root.join("emu").join(format!("e-{}.so", key(20)))).unwrap();
        std::fs::rename(root.join(format!("e-{}.desc", key(20))), root.join("emu").join(format!("e-{}.desc", key(20)))).unwrap();

        let u = usage(&root).unwrap();
        assert_eq!((u.entries.len(), u.bytes), (12, 11 * 1010 + 1000));
        assert_eq!(u.entries[0].stem, format!("e-{}", key(20)), "the oldest use first");
        // Within the limit: nothing goes.
        assert_eq!(evict(&root, u.bytes).unwrap(), Evicted { entries: 0, bytes: 0, left: u.bytes });
        // Limit 8000: down to 6000 or less, oldest first (the emulator's, then k0, k1, ...).
        let e = evict(&root, 8000).unwrap();
        let left = usage(&root).unwrap();
        assert_eq!(e.left, left.bytes);
        assert!(left.bytes <= 6000 && left.bytes + 1010 > 6000, "{e:?}");
        assert_eq!(e.entries, 12 - left.entries.len());
        assert!(!root.join("emu").join(format!("e-{}.so", key(20))).exists());
        assert!(!root.join(format!("k0-{}.so", key(0))).exists() && !root.join(format!("k0-{}.sites", key(0))).exists());
        assert!(root.join(format!("k9-{}.so", key(9))).exists() && root.join(format!("g-{}.cubin", key(30))).exists());
        assert!(tool.exists() && foreign.exists(), "only entries are evicted");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn entries_used_in_the_last_minute_stay_whatever_the_size() {
        let root = scratch("young");
        for i in 0..3 {
            file(&root.join(format!("k-{}.so", key(i))), 1000, Duration::from_secs(5));
        }
        let e = evict(&root, 100).unwrap();
        assert_eq!((e.entries, e.left), (0, 3000));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_hit_makes_an_entry_recent_and_stale_temporaries_are_removed() {
        let root = scratch("touch");
        let day = Duration::from_secs(86400);
        let (a, b) = (root.join(format!("a-{}.so", key(1))), root.join(format!("b-{}.so", key(2))));
        file(&a, 1000, day * 2);
        file(&b, 1000, day);
        touch(&a);
        let e = evict(&root, 1500).unwrap();
        assert_eq!(e.entries, 1);
        assert!(a.exists() && !b.exists(), "the touched entry is the recently used one");
        let (old_tmp, new_tmp) = (root.join(format!("c-{}.123.4.o", key(3))), root.join(format!("c-{}.123.5.so", key(3))));
        file(&old_tmp, 10, day);
        file(&new_tmp, 10, Duration::ZERO);
        let u = usage(&root).unwrap();
        assert_eq!(u.entries.len(), 1, "temporaries are not entries");
        assert!(!old_tmp.exists() && new_tmp.exists(), "a dead compile's temporary goes, one in flight stays");
        let c = clear(&root).unwrap();
        assert_eq!((c.entries, c.bytes), (1, 1000));
        assert_eq!(usage(&root).unwrap().entries.len(), 0);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
