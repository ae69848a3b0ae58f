//! Golden IR tests: each `tests/golden/*.mlir` file holds an input `tir` kernel and, after a
//! marker, the expected text of one stage, commented out so the file stays valid MLIR.
//! The marker names the stage, and `stage@target` one of another target than the CPU
//! (`gpu@sm_90a`). `WEFT_BLESS=1 cargo test golden` rewrites the expectations (review the diff).

use std::path::{Path, PathBuf};
use weft::compiler::msccl::lower::{lower, LowerOptions};
use weft::compiler::msccl::xml;
use weft::compiler::pipeline::{import_tir, run, Options, Target};

const MARKER: &str = "// ----- expected ";

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The files in `dir` ending in `.ext`, sorted; at least one.
fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .{ext} golden files in {}", dir.display());
    files
}

/// Splits a golden file into (input, stage, expected).
fn split(text: &str) -> (String, String, Option<String>) {
    match text.find(MARKER) {
        Some(at) => {
            let input = text[..at].to_string();
            let rest = &text[at + MARKER.len()..];
            let (stage, body) = rest.split_once('\n').unwrap_or((rest, ""));
            let expected = body.lines().map(|l| l.strip_prefix("// ").unwrap_or(l.trim_start_matches("//"))).collect::<Vec<_>>().join("\n");
            (input, stage.trim().trim_end_matches(" -----").to_string(), Some(expected))
        }
        None => (text.to_string(), "lowered".into(), None),
    }
}

fn render(input: &str, stage: &str, actual: &str) -> String {
    let commented: Vec<String> = actual.trim_end().lines().map(|l| if l.is_empty() { "//".into() } else { format!("// {l}") }).collect();
    format!("{}\n{MARKER}{stage} -----\n{}\n", input.trim_end(), commented.join("\n"))
}

#[test]
fn golden_files() {
    let bless = std::env::var_os("WEFT_BLESS").is_some();
    let files = files_with_ext(&golden_dir(), "mlir");
    let mut failures = vec![];
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable golden file");
        let (input, stage, expected) = split(&text);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let kernel = import_tir(&input, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
        // `gpu@sm_90a` names a stage of another target than the CPU.
        let (stage_name, target) = match stage.split_once('@') {
            Some((s, t)) => (s, Target::parse(t).unwrap_or_else(|| panic!("{name}: unknown target `{t}`"))),
            None => (stage.as_str(), Target::Cpu),
        };
        let actual = run(&kernel, target, Some(stage_name), &Options::default()).unwrap_or_else(|e| panic!("{name}: {e}")).text;
        if expected.as_deref().map(str::trim_end) == Some(actual.trim_end()) {
            continue;
        }
        if bless {
            std::fs::write(path, render(&input, &stage, &actual)).expect("writable golden file");
        } else {
            failures.push(format!("{name}: stage `{stage}` differs (run with WEFT_BLESS=1 to accept):\n{}", first_difference(expected.as_deref().unwrap_or(""), &actual)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// MSCCL lowering goldens: `tests/golden/msccl/<name>.xml` (MSCCL-IR in msccl-tools' format)
/// lowers, for f32, to the `tir` kernel in `<name>.tir.mlir`. `WEFT_BLESS=1` rewrites those.
#[test]
fn msccl_golden_files() {
    let bless = std::env::var_os("WEFT_BLESS").is_some();
    let inputs = files_with_ext(&golden_dir().join("msccl"), "xml");
    let mut failures = vec![];
    for path in &inputs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let ir = xml::from_xml(&std::fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lowered = lower(&ir, &LowerOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let actual = run(&lowered.kernel, Target::Cpu, Some("tir"), &Options::default()).unwrap_or_else(|e| panic!("{name}: {e}")).text;
        let expected_path = path.with_extension("tir.mlir");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected.trim_end() == actual.trim_end() {
            continue;
        }
        if bless {
            std::fs::write(&expected_path, &actual).expect("writable golden file");
        } else {
            failures.push(format!("{name}: lowered tir differs (run with WEFT_BLESS=1 to accept):\n{}", first_difference(&expected, &actual)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!("length differs: expected {} lines, got {}", expected.lines().count(), actual.lines().count())
}

#[test]
fn golden_split_and_render_round_trip() {
    let rendered = render("module {}\n", "lowered", "a\n\nb");
    let (input, stage, expected) = split(&rendered);
    assert_eq!(input.trim_end(), "module {}");
    assert_eq!(stage, "lowered");
    assert_eq!(expected.as_deref(), Some("a\n\nb"));
}

/// The LL golden kernels' flag-word stores in machine code: strong at system scope (PTX
/// `st.relaxed.sys`, AMD `sc0 sc1`), so a peer GPU's volatile polls of the word do not race
/// with them, and 8 bytes wide, so a flag never arrives without its data.
#[test]
fn ll_flag_stores_are_strong_at_system_scope_in_machine_code() {
    let cases = [("gpu_ll_protocol.mlir", "sm_90a", "ptx", ["st.relaxed.sys", ".b64"]), ("gpu_amd_ll_protocol.mlir", "gfx942", "amdgcn", ["store_dwordx2", "sc0 sc1"])];
    for (file, target, stage, needles) in cases {
        let text = std::fs::read_to_string(golden_dir().join(file)).expect("readable golden file");
        let kernel = import_tir(&split(&text).0, file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let asm = match run(&kernel, Target::parse(target).unwrap(), Some(stage), &Options::default()) {
            Ok(out) => out.text,
            Err(e) if e.to_string().contains("./setup.sh") || e.to_string().contains("not found") => {
                eprintln!("SKIPPED {file} on {target}: {e}");
                continue;
            }
            Err(e) => panic!("{file} on {target}: {e}"),
        };
        assert!(asm.lines().any(|l| needles.iter().all(|n| l.contains(n))), "{file} on {target}: no store with {needles:?}:\n{asm}");
    }
}
