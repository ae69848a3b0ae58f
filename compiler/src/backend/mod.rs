//! Back-end plumbing below MLIR: LLVM modules and target machines, linking and loading, GPU
//! device code in process, and the external GPU tools (ptxas, ld.lld).

pub mod amdgpu;
pub mod cpu_model;
pub mod device;
pub mod link;
pub mod llvm;
pub mod nvptx;
pub mod nvshmem_lib;
pub mod nvshmem_transport;
pub mod symbols;
pub mod toolchain;
pub mod tools;
