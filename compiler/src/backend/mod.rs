//! Back-end plumbing below MLIR: LLVM modules and target machines, linking and loading, and
//! finding the external GPU tools.

pub mod link;
pub mod llvm;
pub mod toolchain;
