//! weft runtime.
pub mod abi;
