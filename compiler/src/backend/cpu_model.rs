//! Whether code compiled for a named CPU model (`WEFT_CPU`) can run on this host.
//!
//! A kernel built for a model with features the host lacks dies on its first launch with
//! SIGILL. LLVM's C API exposes the host's features but not a model's, so the model's are
//! read through LLVM's own rule for inlining across target features: a function that needs
//! feature `f` inlines into a function compiled for the model only if the model has `f`.

use super::llvm::{LlvmError, LlvmModule, TargetMachine};
use std::sync::{Mutex, OnceLock};

/// An error unless LLVM knows CPU model `cpu` for this host's architecture. LLVM itself only
/// warns on an unknown name and then aborts the process in code generation ("64-bit code
/// requested on a subtarget that doesn't support it"). The names come from LLVM 22's `llc
/// -mcpu=help` (the C API has no list), read once; without `llc` the name is not checked.
pub fn check_known(cpu: &str) -> Result<(), LlvmError> {
    static NAMES: OnceLock<Option<Vec<String>>> = OnceLock::new();
    let Some(names) = NAMES.get_or_init(llc_cpu_names) else { return Ok(()) };
    if names.iter().any(|n| n == cpu) {
        return Ok(());
    }
    let stem: String = cpu.chars().take(3).collect();
    let near: Vec<&str> = names.iter().map(String::as_str).filter(|n| !stem.is_empty() && n.starts_with(&stem)).take(8).collect();
    let hint = if near.is_empty() { String::new() } else { format!("names like it: {}; ", near.join(", ")) };
    Err(LlvmError { what: "CPU model".into(), message: format!("`{cpu}` is not a CPU LLVM knows for this architecture ({hint}`llc -mcpu=help` lists them all)") })
}

/// The CPU names `llc -mcpu=help` prints for the default target, or `None` without `llc`.
fn llc_cpu_names() -> Option<Vec<String>> {
    let llc = super::toolchain::llvm_bin_dir().join("llc");
    let out = std::process::Command::new(llc).arg(format!("-mtriple={}", super::llvm::default_triple())).arg("-mcpu=help").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let cpus = text.split("Available CPUs for this target:").nth(1)?.split("Available features").next()?;
    let names: Vec<String> = cpus.lines().filter_map(|l| l.split(" - ").next()).map(str::trim).filter(|n| !n.is_empty()).map(String::from).collect();
    (!names.is_empty()).then_some(names)
}

/// The features code for CPU model `model` may use that this host's CPU lacks (empty when the
/// model's code runs here), by LLVM's names (`avx512f`, `avx512bf16`, ...). Cached per model.
pub fn missing_on_host(model: &str) -> Result<Vec<String>, LlvmError> {
    static KNOWN: Mutex<Vec<(String, Vec<String>)>> = Mutex::new(Vec::new());
    if let Some((_, m)) = KNOWN.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| k == model) {
        return Ok(m.clone());
    }
    check_known(model)?;
    let host = TargetMachine::host()?;
    let lacking: Vec<&str> = host.features.split(',').filter_map(|f| f.strip_prefix('-')).collect();
    let missing = model_has(model, &lacking)?;
    KNOWN.lock().unwrap_or_else(|e| e.into_inner()).push((model.to_string(), missing.clone()));
    Ok(missing)
}

/// Which of `features` CPU model `model` has: one probe per feature, all in one module. The
/// callee's volatile store keeps the call alive until the inliner decides; a call left in a
/// probe is a feature the model lacks.
fn model_has(model: &str, features: &[&str]) -> Result<Vec<String>, LlvmError> {
    let mut ir = String::from("@sink = global i32 0\n");
    for (i, f) in features.iter().enumerate() {
        ir += &format!(
            "define internal void @needs{i}() #{a} {{\n  store volatile i32 {i}, ptr @sink\n  ret void\n}}\n\
             define void @probe{i}() #0 {{\n  call void @needs{i}()\n  ret void\n}}\n\
             attributes #{a} = {{ \"target-features\"=\"+{f}\" }}\n",
            a = i + 1
        );
    }
    ir += &format!("attributes #0 = {{ \"target-cpu\"=\"{model}\" }}\n");
    let mut m = LlvmModule::parse_ir(&ir)?;
    // The generic model's own features are the callees' base: only the probed one is added.
    m.optimize(&TargetMachine::model("generic")?)?;
    let text = m.print();
    let kept_call = |i: usize| {
        let body = text.split(&format!("@probe{i}(")).nth(1).and_then(|rest| rest.split("\n}").next()).unwrap_or("");
        body.contains(&format!("@needs{i}("))
    };
    Ok(features.iter().enumerate().filter(|(i, _)| !kept_call(*i)).map(|(_, f)| f.to_string()).collect())
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::{missing_on_host, model_has};

    /// The probe reads each model's features as LLVM defines the model, whatever the host.
    #[test]
    fn models_have_their_documented_features() {
        let probe = ["avx2", "fma", "avx512f", "avx512bf16", "amx-tile", "avx512fp16"];
        let has = |m: &str| model_has(m, &probe).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(has("x86-64"), Vec::<String>::new());
        assert_eq!(has("x86-64-v3"), ["avx2", "fma"]);
        assert_eq!(has("x86-64-v4"), ["avx2", "fma", "avx512f"]);
        assert_eq!(has("haswell"), ["avx2", "fma"]);
        assert_eq!(has("cooperlake"), ["avx2", "fma", "avx512f", "avx512bf16"]);
        assert_eq!(has("sapphirerapids"), probe);
    }

    /// A misspelt model is an error naming it, with the names it resembles.
    #[test]
    fn an_unknown_model_is_an_error_naming_it() {
        assert!(super::check_known("sapphirerapids").is_ok() && super::check_known("x86-64-v3").is_ok());
        let e = missing_on_host("sapphirerapid5").unwrap_err().to_string();
        assert!(e.contains("`sapphirerapid5`") && e.contains("sapphirerapids"), "{e}");
        assert!(crate::backend::llvm::TargetMachine::model("foo").is_err());
    }

    /// The baseline model runs on every x86-64 host; nothing the host has is reported missing.
    #[test]
    fn the_baseline_runs_here_and_missing_features_are_ones_the_host_lacks() {
        assert_eq!(missing_on_host("x86-64").unwrap(), Vec::<String>::new());
        let host = crate::backend::llvm::TargetMachine::host().unwrap();
        let missing = missing_on_host("sapphirerapids").unwrap();
        for f in &missing {
            assert!(host.features.split(',').any(|x| x == format!("-{f}")), "{f} reported missing, host has it: {}", host.features);
        }
        if host.features.split(',').any(|x| x == "-avx512f") {
            assert!(missing.iter().any(|f| f == "avx512f"), "{missing:?}");
        }
    }
}
