//! `weft cache`: what the compile cache holds (entries, bytes, the limit), or clear it.

use weft::compiler::cache::{cache_dir, evict};

/// Arguments of `weft cache`.
#[derive(clap::Args, Debug)]
pub struct CacheArgs {
    /// Remove every compiled kernel (the toolchain and tuning caches stay).
    #[arg(long)]
    clear: bool,
}

/// Shows or clears the compile cache.
pub fn cache(a: CacheArgs) -> Result<(), String> {
    let root = cache_dir();
    let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
    let missing = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    if a.clear {
        let freed = evict::clear(&root).or_else(|e| if missing(&e) { Ok(evict::Evicted::default()) } else { Err(format!("{}: {e}", root.display())) })?;
        println!("cleared {} entries ({:.1} MiB) from {}", freed.entries, mib(freed.bytes), root.display());
        return Ok(());
    }
    let usage = evict::usage(&root).or_else(|e| if missing(&e) { Ok(evict::Usage::default()) } else { Err(format!("{}: {e}", root.display())) })?;
    let limit = evict::limit_bytes().map_or("none".to_string(), |b| format!("{:.0} MiB", mib(b)));
    println!("{}: {} entries, {:.1} MiB (limit {limit}, WEFT_CACHE_MAX_MB)", root.display(), usage.entries.len(), mib(usage.bytes));
    Ok(())
}
