//! weft's integration tests: one binary, because every binary links MLIR and LLVM.

mod axis_cpu;
mod cache;
mod checks;
mod checks_compiled;
mod cli;
mod collectives;
mod cpu_models;
mod fuzz_cli;
mod emulator;
mod emulator_checks;
mod emulator_gemm_shapes;
mod emulator_wgmma;
mod golden;
mod gpu;
mod gpu_amd;
mod gpu_transport;
mod half_precision;
mod layout;
mod mpi;
mod mpi_failure;
mod naive_gemm;
mod narrow_index;
mod runtime_e2e;
mod specialize;
mod transports;
mod tune_cli;
