//! The emulator's disk cache: a retargeted kernel's shared library and the descriptor it is
//! launched with, under `<weft cache dir>/emu/`, keyed by the GPU IR, the launch shape, the
//! checks and planted bug, the host CPU and this build of weft, so a second process (a
//! second `weft run`, the next test binary) loads instead of recompiling.

use crate::rt::KernelDesc;
use crate::{Checks, EmuError, Plant};
use std::path::{Path, PathBuf};
use weft_runtime::Site;

/// Where kernel `key`'s files live (`<dir>/<key>.so`, `<dir>/<key>.desc`).
pub fn stem(key: &str) -> PathBuf {
    weft_compiler::cache::cache_dir().join("emu").join(key)
}

/// The cache key of one retargeting.
pub fn key(llvm: &str, symbol: &str, shape: &str, checks: Checks, plant: Option<Plant>, host: &str) -> String {
    let exe = std::env::current_exe().ok().and_then(|p| std::fs::metadata(&p).ok().map(|m| (p, m)));
    let exe = exe.map(|(p, m)| format!("{} {} {:?}", p.display(), m.len(), m.modified().ok())).unwrap_or_default();
    let mut h = blake3::Hasher::new();
    for part in [env!("CARGO_PKG_VERSION"), &exe, host, symbol, &format!("{shape} {checks:?} {plant:?}"), llvm] {
        h.update(part.as_bytes());
        h.update(&[0]);
    }
    format!("{symbol}-{}", &h.finalize().to_hex()[..32])
}

/// The descriptor stored beside a cached library, if both are there.
pub fn lookup(stem: &Path) -> Option<KernelDesc> {
    if !stem.with_extension("so").is_file() {
        return None;
    }
    parse(&std::fs::read_to_string(stem.with_extension("desc")).ok()?)
}

/// Writes `desc` beside the library (through a rename: readers never see half of it).
pub fn store(stem: &Path, desc: &KernelDesc) -> Result<(), EmuError> {
    let path = stem.with_extension("desc");
    let tmp = stem.with_extension(format!("desc.{}", weft_compiler::cache::unique_tag()));
    let io = |e: std::io::Error| EmuError::Io(format!("{}: {e}", path.display()));
    std::fs::write(&tmp, render(desc)).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
}

/// One line of numbers, then one `op \t loc` line per call site.
fn render(d: &KernelDesc) -> String {
    let amd = d.amd_state.map_or(-1, |o| o as i64);
    let mut s = format!("{} {} {} {} {} {amd}\n", d.threads, d.warp, d.smem_bytes, d.global_bytes, d.race as u8);
    for site in &d.sites {
        s.push_str(&format!("{}\t{}\n", site.op, site.loc));
    }
    s
}

fn parse(text: &str) -> Option<KernelDesc> {
    let mut lines = text.lines();
    let n: Vec<i64> = lines.next()?.split(' ').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    let [threads, warp, smem, globals, race, amd] = n[..] else { return None };
    let sites = lines.map(|l| l.split_once('\t').map(|(op, loc)| Site { op: op.into(), loc: loc.into() })).collect::<Option<_>>()?;
    let amd_state = (amd >= 0).then_some(amd as usize);
    Some(KernelDesc { threads: threads as usize, warp: warp as usize, smem_bytes: smem as usize, global_bytes: globals as usize, sites, race: race != 0, amd_state })
}

#[cfg(test)]
mod tests {
    #[test]
    fn descriptors_round_trip() {
        let d = super::KernelDesc {
            threads: 128,
            warp: 64,
            smem_bytes: 4096,
            global_bytes: 528,
            sites: vec![weft_runtime::Site { op: "s.barrier".into(), loc: "kernel `k`, block %entry".into() }],
            race: true,
            amd_state: Some(8),
        };
        let back = super::parse(&super::render(&d)).unwrap();
        assert_eq!((back.threads, back.warp, back.smem_bytes, back.global_bytes, back.race, back.amd_state), (128, 64, 4096, 528, true, Some(8)));
        assert_eq!((back.sites[0].op.as_str(), back.sites[0].loc.as_str()), ("s.barrier", "kernel `k`, block %entry"));
        assert!(super::parse("1 2 3").is_none());
    }
}
