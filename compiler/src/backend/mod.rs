//! Back-end plumbing below MLIR: LLVM modules and target machines, linking and loading, and
//! the external GPU tools (llvm-link / opt / llc, ptxas, ld.lld).

pub mod amdgpu;
pub mod gpu_dialect;
pub mod link;
pub mod llvm;
pub mod nvptx;
pub mod symbols;
pub mod toolchain;
pub mod tools;
