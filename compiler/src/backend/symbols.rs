//! What a compiled CPU kernel may leave for the loader to resolve. Kernels reach the runtime
//! through the function table in their context, so the only undefined symbols allowed are the
//! C library's memory functions and libm's math (which `link_shared` links). Anything else —
//! a compiler-rt helper such as `__truncsfbf2`, which LLVM emits for half precision on some
//! CPUs and Debian 12's libgcc lacks — would crash the first launch, so it is an error at
//! compile time instead.

use super::link::LinkError;
use object::{Object, ObjectSymbol};

/// libm functions `convert-math-to-libm` and LLVM's own lowering may call (each also with an
/// `f` suffix for f32).
const LIBM: &[&str] = &[
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp",
    "exp10", "exp2", "expm1", "fabs", "floor", "fma", "fmax", "fmin", "fmod", "ldexp", "log", "log10", "log1p", "log2", "nearbyint",
    "pow", "rint", "round", "roundeven", "sin", "sincos", "sinh", "sqrt", "tan", "tanh", "trunc",
];

/// C library functions LLVM calls for large copies and fills.
const LIBC: &[&str] = &["memcpy", "memmove", "memset", "__memcpy_chk", "__memset_chk", "_GLOBAL_OFFSET_TABLE_"];

/// Whether the kernel library may leave `name` to the loader.
pub fn allowed(name: &str) -> bool {
    LIBC.contains(&name) || LIBM.contains(&name) || name.strip_suffix('f').is_some_and(|b| LIBM.contains(&b))
}

/// The undefined symbols of object file `obj`.
pub fn undefined(obj: &[u8]) -> Result<Vec<String>, String> {
    let file = object::File::parse(obj).map_err(|e| format!("not an object file: {e}"))?;
    let mut names: Vec<String> =
        file.symbols().filter(|s| s.is_undefined() && !s.name().unwrap_or("").is_empty()).map(|s| s.name().unwrap_or("?").to_string()).collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// Checks that kernel `kernel`'s object needs nothing the kernel library does not link.
pub fn check_object(obj: &[u8], kernel: &str) -> Result<(), LinkError> {
    let bad = |message: String| LinkError::Unresolved { kernel: kernel.into(), symbols: message };
    let missing: Vec<String> = undefined(obj).map_err(bad)?.into_iter().filter(|s| !allowed(s)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(bad(missing.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn libm_and_memory_functions_only() {
        for ok in ["memcpy", "expf", "exp", "log2f", "sqrtf"] {
            assert!(allowed(ok), "{ok}");
        }
        for bad in ["__truncsfbf2", "__extendhfsf2", "__gnu_h2f_ieee", "rt_wait_until", "f", ""] {
            assert!(!allowed(bad), "{bad}");
        }
    }
}
