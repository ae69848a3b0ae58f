//! CPU lowering: `tile` / `shmem` → `func` / `scf` / `arith` / `math` / `vector` / `llvm`.
//!
//! One program instance runs on one core, so a tile is one LLVM vector (flattened row-major)
//! and elementwise code is SIMD by construction. Pointer tiles are vectors of `i64` addresses;
//! an analysis of splats and ranges finds contiguous pointer tiles so their loads and stores
//! become (masked) vector loads rather than gathers. `shmem` ops call the runtime through the
//! function table in the kernel context (`weft_runtime::abi`).

mod arith;
mod axis_access;
mod control;
mod dot;
mod emit;
mod grid;
mod half;
mod lanes;
mod racecheck;
mod shmem;
mod tile;

use super::{LowerError, SiteInfo};
use crate::ir::{Kernel, Op, OpKind};
use emit::Cx;

/// The result of lowering one kernel for the CPU.
#[derive(Clone, Debug)]
pub struct CpuModule {
    /// MLIR text in upstream dialects.
    pub mlir: String,
    /// Exported entry symbol (`extern "C" fn(*mut KernelCtx, *const u64)`).
    pub symbol: String,
    /// Runtime call sites, indexed by the `site` argument of runtime calls.
    pub sites: Vec<SiteInfo>,
}

/// The entry symbol for kernel `name`.
pub fn entry_symbol(name: &str) -> String {
    format!("weft_kernel_{name}")
}

/// Lowers `kernel` for the CPU; with `racecheck`, every tile load and store of global memory
/// is reported to the runtime's race detector first.
pub fn lower(kernel: &Kernel, racecheck: bool, lanes: usize) -> Result<CpuModule, LowerError> {
    let mut cx = Cx::new(kernel);
    (cx.racecheck, cx.lanes) = (racecheck, lanes);
    let symbol = entry_symbol(&kernel.name);
    cx.prologue(&symbol);
    let entry = cx.out.len();
    cx.block(kernel.body)?;
    cx.finish_racecheck();
    cx.place_allocas(entry);
    cx.line("}");
    cx.out.push_str("}\n");
    Ok(CpuModule { mlir: cx.out, symbol, sites: cx.sites })
}

impl Cx<'_> {
    /// Lowers every op of `block` (block arguments are already named).
    pub(crate) fn block(&mut self, block: crate::ir::Block) -> Result<(), LowerError> {
        for &op in &self.k.block(block).ops {
            self.op(op)?;
        }
        Ok(())
    }

    fn op(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        match &d.kind {
            OpKind::Const(_) | OpKind::Binary(_) | OpKind::Cmp(_) | OpKind::Select | OpKind::Unary(_) | OpKind::Cast(_) => {
                self.arith(op)
            }
            OpKind::ProgramId(_)
            | OpKind::NumPrograms(_)
            | OpKind::MakeRange(..)
            | OpKind::Splat
            | OpKind::Broadcast
            | OpKind::ExpandDims(_)
            | OpKind::AddPtr
            | OpKind::PtrCast
            | OpKind::Reduce(..)
            | OpKind::Dot => self.tile_shape(op),
            OpKind::Load { .. } | OpKind::Store { .. } => self.tile_memory(op),
            OpKind::For | OpKind::If | OpKind::Yield | OpKind::Return => self.control(op),
            // One CPU thread runs the whole program instance: its accesses are already in order.
            OpKind::Barrier => Ok(()),
            _ => self.shmem(op),
        }
    }
}
