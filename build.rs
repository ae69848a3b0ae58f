//! Checks for LLVM/MLIR 22 before the long link, with one actionable line when it is missing.

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let prefix = PathBuf::from(prefix);
    let needed = [prefix.join("bin/llvm-config"), prefix.join("include/mlir-c/IR.h"), prefix.join("include/mlir-c/Dialect/IRDL.h")];
    if let Some(missing) = needed.iter().find(|p| !p.exists()) {
        println!(
            "cargo::error=LLVM/MLIR 22 not found ({} is missing): run ./setup.sh, or apt-get install llvm-22-dev libmlir-22-dev mlir-22-tools lld-22 from bookworm-security, or set MLIR_SYS_220_PREFIX",
            missing.display()
        );
    }
}
