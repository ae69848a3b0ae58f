//! weft's kernel library: collectives written in the kernel DSL, each with a plain-math
//! reference, behind one registry (`list`, `build`, `prepare`, `run_collective`).
//!
//! `elems` counts elements per rank the NCCL way: the shard each rank contributes to an
//! AllGather (output `world * elems`), each rank's input to a ReduceScatter (rank `r` gets
//! segment `[r*elems/world, (r+1)*elems/world)` of the sum), the whole vector of an AllReduce
//! or a Broadcast. Element types: f32, f16, bf16 (sums accumulate in f32 and round once) and
//! i32. Kernels that signal take a per-launch epoch (signals wait for `>= epoch`, the LL
//! protocol tags words with it), so [`Prepared`] relaunches on the same buffers without
//! clearing anything.

mod ag_gemm;
mod allgather;
mod allreduce_hier;
mod ll_mesh;
mod broadcast;
mod ce_plan;
mod common;
mod decode;
mod ep_dispatch_fp8;
mod error;
mod flash_decode;
pub mod fp8;
pub mod gemm;
mod gpu;
mod gemm_ar;
mod gemm_rs;
mod gemm_rs_ps;
pub mod host;
mod matmul;
mod moe;
mod moe_align;
mod moe_align_host;
mod moe_gemm;
mod moe_gemm_host;
mod moe_gemm_v;
mod moe_host;
mod moe_v;
pub mod msccl;
mod reduce;
pub mod reference;
mod registry;
mod ring;
mod ring_allreduce;
mod ring_bidir;
mod run;
pub mod swizzle;
mod tiles;
pub mod tune;
#[cfg(test)]
mod matmul_tests;
#[cfg(test)]
mod decode_tests;
#[cfg(test)]
mod moe_tests;
#[cfg(test)]
mod moe_gemm_tests;
#[cfg(test)]
mod moe_align_tests;
#[cfg(test)]
mod ep_dispatch_fp8_tests;
#[cfg(test)]
mod fp8_convert_tests;
#[cfg(test)]
mod fp8_collective_tests;
#[cfg(test)]
mod ce_tests;
#[cfg(test)]
mod per_process_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod racecheck_tests;
#[cfg(test)]
mod ring_tests;
#[cfg(test)]
mod allreduce_hier_tests;

pub use error::KernelError;
pub use gpu::{gpu_launchable, launchable_for, launchable_for_resident};
pub use registry::{allgather_choice, allreduce_choice, build, build_all, default_constexprs, list, target_constexprs, topology_constexprs, Collective, KernelInfo, CPU_HIER_ANY_NODES_MAX_BYTES, LL_MESH_MAX_BYTES, ONE_SHOT_MAX_BYTES};
pub use decode::{decode_constexprs, prepare_decode, DecodeShape, PreparedDecode};
pub use moe_align_host::{align_constexprs, prepare_align, AlignLayout, AlignSpec, PreparedAlign};
pub use moe_gemm_host::{moe_gemm_constexprs, prepare_moe_gemm, MoeGemmShape, PreparedMoeGemm};
pub use moe_host::{moe_constexprs, prepare_moe, MoeShape, PreparedMoe, Routing, RoutingKind};
pub use matmul::{matmul_constexprs, prepare_matmul, shape_constexprs, time_launches, MatmulShape, PreparedMatmul};
pub use run::{prepare, run_collective, Prepared, RunOptions, RunResult};
