//! `weft tune` as a user runs it: progress and a ranked table, a cache hit the second time,
//! `weft run` naming the tuned config, `--show`, `--clear`, and a GPU target without a GPU.

use std::process::Command;

fn weft(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_weft")).env("WEFT_CACHE_DIR", dir).args(args).output().expect("weft runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

// The done-criterion path end to end on the smallest space (broadcast: BLOCK only), in its own
// cache directory so it never reads or writes the user's results.
#[test]
fn tune_then_run_uses_the_tuned_config_and_a_second_tune_is_a_cache_hit() {
    let dir = std::env::temp_dir().join(format!("weft-tune-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["tune", "broadcast", "--ranks", "2", "--elems", "3000"];
    let (code, out, err) = weft(&dir, &args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("space 3, pruned 0") && err.contains(" us  broadcast BLOCK="), "progress: {err}");
    let winner = out.lines().find(|l| l.ends_with("<- winner")).unwrap_or_else(|| panic!("no ranked table: {out}"));
    let id = winner.split("  ").map(str::trim).find(|w| w.starts_with("broadcast ")).unwrap().trim_end_matches(" <- winner").trim();
    let (code, out2, err) = weft(&dir, &args);
    assert!(code == 0 && out2.contains("cache hit") && out2.contains(id), "{out2}{err}");
    let (code, run, err) = weft(&dir, &["run", "broadcast", "--ranks", "2", "--elems", "3000", "--iters", "1"]);
    assert!(code == 0 && run.contains(&format!("config: tuned `{id}`")) && run.contains("PASS"), "{run}{err}");
    let (_, show, _) = weft(&dir, &["tune", "--show"]);
    assert!(show.contains(&format!("broadcast 16384B f32 1x2 cpu: {id}")), "{show}");
    let (code, cleared, _) = weft(&dir, &["tune", "--clear"]);
    assert!(code == 0 && cleared.starts_with("removed "), "{cleared}");
    let (_, run, _) = weft(&dir, &["run", "broadcast", "--ranks", "2", "--elems", "3000", "--iters", "1"]);
    assert!(run.contains("config: defaults"), "{run}");
    let (code, _, err) = weft(&dir, &["tune", "gemm", "--target", "sm_90a"]);
    if !std::path::Path::new("/dev/nvidiactl").exists() {
        assert_eq!(code, 2);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("tuning for sm_90a times on a GPU and this machine has none"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
