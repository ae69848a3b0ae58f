//! Links object code into a shared library and loads it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Linking or loading failed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The system linker could not be run or failed.
    #[error("linking {path}: {message}")]
    Link {
        /// Output path.
        path: PathBuf,
        /// Linker output.
        message: String,
    },
    /// The kernel needs symbols that nothing linked into its library provides.
    #[error("kernel `{kernel}` needs symbols the kernel library does not provide: {symbols}")]
    Unresolved {
        /// The kernel.
        kernel: String,
        /// The unresolved symbols, or what made the object unreadable.
        symbols: String,
    },
    /// `dlopen` / `dlsym` failed.
    #[error("loading {path}: {message}")]
    Load {
        /// Library path.
        path: PathBuf,
        /// Loader message.
        message: String,
    },
}

/// Links `obj` into the shared library `so` with the system C compiler driver (`cc`, or
/// `$WEFT_CC`), which also brings in libm for any math calls LLVM emitted.
pub fn link_shared(obj: &Path, so: &Path) -> Result<(), LinkError> {
    let cc = std::env::var("WEFT_CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-shared", "-nostartfiles", "-o"])
        .arg(so)
        .arg(obj)
        .arg("-lm")
        .output()
        .map_err(|e| LinkError::Link { path: so.into(), message: format!("cannot run `{cc}`: {e} (install a C toolchain: apt-get install gcc)") })?;
    if !out.status.success() {
        return Err(LinkError::Link { path: so.into(), message: String::from_utf8_lossy(&out.stderr).trim().to_string() });
    }
    Ok(())
}

/// A loaded kernel library and its entry point.
pub struct Loaded {
    _lib: libloading::Library,
    /// The kernel entry point.
    pub entry: weft_runtime::abi::KernelFn,
}

impl Loaded {
    /// The library, for looking up more symbols (the entry point stays valid while it is loaded).
    pub fn into_library(self) -> libloading::Library {
        self._lib
    }
}

/// Loads `so` with immediate binding and resolves `symbol` as a kernel entry point, so an
/// unresolved symbol is an error here (naming it) rather than a crash at the first call.
pub fn load(so: &Path, symbol: &str) -> Result<Loaded, LinkError> {
    let load_err = |e: libloading::Error| {
        let message = e.to_string();
        match message.split_once("undefined symbol: ") {
            Some((_, sym)) => LinkError::Unresolved { kernel: symbol.into(), symbols: format!("{} (in {})", sym.trim(), so.display()) },
            None => LinkError::Load { path: so.into(), message },
        }
    };
    // SAFETY: the library is one we just produced; it has no constructors.
    let lib = unsafe { libloading::os::unix::Library::open(Some(so), libc::RTLD_NOW | libc::RTLD_LOCAL) }.map_err(load_err)?;
    let lib = libloading::Library::from(lib);
    let entry = unsafe { *lib.get::<weft_runtime::abi::KernelFn>(symbol.as_bytes()).map_err(load_err)? };
    Ok(Loaded { _lib: lib, entry })
}
