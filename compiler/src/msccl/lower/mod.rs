//! Lowering MSCCL-IR onto one `tile` / `shmem` kernel, so an algorithm runs wherever the
//! library's kernels run.
//!
//! * Each thread block is a program instance (`program_id(0)`), on every rank.
//! * A send is a `put` into the peer's receive slot plus a signal (Simple), or flag-tagged
//!   stores in the LL / LL128 line formats; a receive is a `signal_wait_until` (or a flag
//!   poll). Slot credits flow back as signals (the `proto` module has the protocol).
//! * Copies and reductions are elementwise tile loops; the fused kinds (`rcs`, `rrs`, `rrc`,
//!   `rrcs`) receive, combine and forward in one step.
//! * A cross-thread-block dependency is a local signal: the producer sets it after the step,
//!   the consumer waits for it before.
//! * Pipelining: buffers are cut into chunks, chunks into slot-sized tiles, and the whole step
//!   program runs once per tile index.
//!
//! Thread blocks with the same sequence of step shapes share code; peers, connection indices
//! and chunk indices are read from an operand table ([`Layout::table`]). Past
//! [`layout::SPECIALIZE_MAX_STEPS`] step bodies (a 16-rank ring has a shape per rank), every
//! thread block runs one step loop that reads its step kinds from the table too, so code size
//! and compile time stop growing with ranks times steps. The kernel takes the
//! chunk and tile lengths at run time ([`Geometry`]), so one compile serves every size.
//!
//! Buffers use a padded chunk layout: chunk `c` of a buffer starts at element `c * ce`, where
//! `ce` is the chunk length of the largest chunk ([`Geometry::chunk_elems`]).

mod emit;
mod geometry;
pub mod layout;
mod proto;

pub use emit::ARGS;
pub use geometry::{BufferLens, Geometry};
pub use layout::{Layout, RowField, StepField, StepShape, TbShape};
pub use proto::{LL128_DATA_WORDS, LL128_LINE_WORDS};
pub(crate) use proto::for_words;

use super::error::{MscclError, Result};
use super::ir::MscclIr;
use crate::dsl::Constexprs;
use crate::ir::{Kernel, Scalar};

/// Element types a lowered algorithm can move and reduce.
pub const DTYPES: [Scalar; 4] = [Scalar::F32, Scalar::F16, Scalar::BF16, Scalar::I32];

/// Options of [`lower`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LowerOptions {
    /// Element type.
    pub dtype: Scalar,
    /// Width of the elementwise tile loops (a power of two, 16 to 16384).
    pub block: i64,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions { dtype: Scalar::F32, block: 128 }
    }
}

/// A lowered algorithm: the kernel and the layout its host must follow.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The `tile` / `shmem` kernel (arguments: [`ARGS`]).
    pub kernel: Kernel,
    /// Numbering, shapes and the operand table.
    pub layout: Layout,
}

/// Lowers `ir` to one kernel. The IR is validated first; the kernel runs with
/// [`Layout::grid`] program instances per rank.
pub fn lower(ir: &MscclIr, opts: &LowerOptions) -> Result<Lowered> {
    if !DTYPES.contains(&opts.dtype) {
        return Err(MscclError::InvalidConfig(format!("cannot lower for {}: use f32, f16, bf16 or i32", opts.dtype.mlir())));
    }
    if opts.block < 16 || opts.block > 1 << 14 || opts.block.count_ones() != 1 {
        return Err(MscclError::InvalidConfig(format!("block {} is not a power of two in 16..=16384", opts.block)));
    }
    let layout = Layout::of(ir)?;
    let name = kernel_name(&ir.name);
    let constexprs = Constexprs::new()
        .with("T", opts.dtype.mlir())
        .with("BLOCK", opts.block)
        .with("PROTO", ir.protocol.name())
        .with("SHAPES", layout.shapes.len())
        .with("CODE", if layout.generic { "step_loop" } else { "per_shape" });
    let kernel = emit::build(&name, &layout, opts.dtype, opts.block, &constexprs)
        .map_err(|e| MscclError::Lowering(format!("{name}: {e}")))?;
    Ok(Lowered { kernel, layout })
}

/// `msccl_` + the algorithm name with every character outside `[A-Za-z0-9_]` replaced.
pub(crate) fn kernel_name(algo: &str) -> String {
    let clean: String = algo.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    format!("msccl_{clean}")
}
