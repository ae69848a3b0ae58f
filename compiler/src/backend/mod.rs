//! Back-end plumbing below MLIR: LLVM modules and target machines, linking and loading.

pub mod link;
pub mod llvm;
