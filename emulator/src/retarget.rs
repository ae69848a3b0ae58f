//! Retargets one kernel's per-thread GPU IR to the host, through LLVM's API: every target
//! operation the lowering emits (special registers, barriers, shuffles, `mma.sync`, polling
//! loads, NVSHMEM device calls, the inline PTX it allows) becomes a call through the module's
//! runtime table `__weft_emu_rt`, each call site numbered for reports; shared-memory globals
//! become offsets into the CTA's buffer and other globals offsets into a per-rank copy.

use crate::ir::{Ir, Val};
use crate::slots::{sreg, xfer, Slot};
use crate::EmuError;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use weft_runtime::Site;

/// Address space of shared memory (NVPTX `.shared`, AMDGPU LDS).
pub(crate) const SHARED_AS: u32 = 3;

/// The AMD peer-heap shmem device state (the compiler's `shmem_peer::STATE_SYMBOL`).
const AMD_STATE: &str = weft_compiler::lower::gpu::shmem_peer::STATE_SYMBOL;

/// What the retargeted kernel needs at launch.
pub struct Layout {
    /// Call sites, indexed by the `site` argument of runtime calls.
    pub sites: Vec<Site>,
    /// Bytes of shared memory per CTA.
    pub smem_bytes: u64,
    /// Bytes of the per-rank copy of module globals.
    pub global_bytes: u64,
    /// Offset of the AMD shmem device state among the per-rank globals, if the module has it.
    pub amd_state: Option<usize>,
}

/// Rewrites `kernel` (the entry function) in place; `instrument_smem` adds a runtime call
/// before every shared-memory access (the race check), `bounds` before every global one
/// (see [`crate::bounds`]), `count` an instruction counter; `dynamic_smem` sizes the module's
/// external shared array (the dynamic shared memory a GPU launch gives each CTA).
pub fn rewrite(ir: &mut Ir, kernel: LLVMValueRef, instrument_smem: bool, count: bool, bounds: bool, dynamic_smem: u64) -> Result<Layout, EmuError> {
    let name = ir.name_of(kernel);
    let global = if bounds { crate::bounds::accesses(ir, kernel) } else { vec![] };
    // Sizes of the kernel's own blocks, before the rewrite adds runtime calls.
    let blocks = if count { ir.block_sizes(kernel) } else { vec![] };
    let mut rw = Rw { ir, kernel: name, sites: vec![], amd_state: None, bounds };
    let (smem_bytes, global_bytes) = rw.globals(kernel, dynamic_smem)?;
    for inst in rw.ir.instructions(kernel) {
        rw.instruction(inst)?;
    }
    if instrument_smem {
        for inst in rw.ir.instructions(kernel) {
            rw.smem_access(inst);
        }
    }
    for inst in global {
        rw.bounds_check(inst);
    }
    if count {
        let first = rw.ir.first_instruction(kernel);
        rw.ir.position_before(first);
        let site = rw.site("instruction counter", first);
        let counter = rw.ir.rt(Slot::Counter, site, &[]);
        for (at, n) in blocks {
            rw.ir.add_to_counter(counter, at, n);
        }
    }
    Ok(Layout { sites: rw.sites, smem_bytes, global_bytes, amd_state: rw.amd_state })
}

pub(crate) struct Rw<'a> {
    pub(crate) ir: &'a mut Ir,
    kernel: String,
    sites: Vec<Site>,
    amd_state: Option<usize>,
    /// Bulk tensor copies check the global bytes they touch (the bounds check).
    bounds: bool,
}

impl Rw<'_> {
    pub(crate) fn site(&mut self, op: &str, inst: LLVMValueRef) -> Val {
        let block = self.ir.block_name(inst);
        self.sites.push(Site { op: op.to_string(), loc: format!("kernel `{}`, block %{block}", self.kernel) });
        self.ir.i32((self.sites.len() - 1) as i64)
    }

    /// Lays out the module's globals: shared ones in the CTA buffer, the others (the grid
    /// barrier's words) per rank; replaces their uses with addresses computed at entry.
    fn globals(&mut self, kernel: LLVMValueRef, dynamic_smem: u64) -> Result<(u64, u64), EmuError> {
        let (mut smem, mut glob) = (0u64, 0u64);
        let mut placed = vec![];
        let dynamic = self.ir.declared_shared();
        for g in self.ir.globals().into_iter().chain(dynamic.iter().copied()) {
            if self.ir.name_of(g).starts_with("__weft_emu") {
                continue;
            }
            let (size, align) = self.ir.global_size(g);
            let size = if dynamic.contains(&g) { dynamic_smem } else { size };
            let shared = self.ir.addr_space(g) == SHARED_AS;
            if !shared && !self.ir.zero_initialized(g) {
                return Err(EmuError::Unsupported(format!("global `{}` with a non-zero initializer", self.ir.name_of(g))));
            }
            let at = if shared { &mut smem } else { &mut glob };
            *at = at.div_ceil(align.max(1)) * align.max(1);
            if self.ir.name_of(g) == AMD_STATE {
                self.amd_state = Some(*at as usize);
            }
            placed.push((g, shared, *at));
            *at += size;
        }
        if placed.is_empty() {
            return Ok((0, 0));
        }
        let first = self.ir.first_instruction(kernel);
        self.ir.position_before(first);
        let site = self.site("module globals", first);
        let smem_base = (smem > 0).then(|| self.ir.rt(Slot::SmemBase, site, &[]));
        let glob_base = (glob > 0).then(|| self.ir.rt(Slot::RankGlobals, site, &[]));
        let mut repl = vec![];
        for (g, shared, at) in placed {
            let base = if shared { smem_base } else { glob_base }.expect("a base for every placed global");
            let p = self.ir.byte_offset(base, at);
            let p = self.ir.addrspace_cast(p, self.ir.type_of(g));
            repl.push((g, p));
        }
        for inst in self.ir.instructions(kernel) {
            self.ir.replace_operands(inst, &repl)?;
        }
        Ok((smem.div_ceil(16) * 16, glob))
    }

    fn instruction(&mut self, inst: LLVMValueRef) -> Result<(), EmuError> {
        match self.ir.opcode(inst) {
            LLVMOpcode::LLVMCall => self.call(inst),
            LLVMOpcode::LLVMLoad if self.ir.is_volatile(inst) => {
                self.ir.position_before(inst);
                let site = self.site("ld.volatile (poll)", inst);
                let ty = self.ir.type_of(inst);
                let bytes = self.ir.store_size(ty);
                if !matches!(bytes, 4 | 8) || self.ir.kind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
                    return Err(EmuError::Unsupported(format!("a volatile load of {bytes} bytes (polls are i32 or i64)")));
                }
                let p = self.ir.flat(self.ir.operand(inst, 0));
                let bytes_v = self.ir.i32(bytes as i64);
                let v = self.ir.rt(Slot::PollLoad, site, &[p, bytes_v]);
                let v = self.ir.int_cast(v, ty);
                self.ir.replace(inst, v);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn call(&mut self, inst: LLVMValueRef) -> Result<(), EmuError> {
        let callee = self.ir.called(inst);
        if let Some(asm) = self.ir.inline_asm(callee) {
            return self.asm(inst, &asm);
        }
        let name = self.ir.name_of(callee);
        if name.starts_with("llvm.") && !name.starts_with("llvm.nvvm.") && !name.starts_with("llvm.amdgcn.") {
            return Ok(()); // target-independent intrinsics run on the host as they are
        }
        if self.ir.has_body(callee) {
            return Ok(());
        }
        self.ir.position_before(inst);
        let args: Vec<Val> = (0..self.ir.num_args(inst)).map(|i| self.ir.operand(inst, i)).collect();
        let short = name.trim_start_matches("llvm.nvvm.").trim_start_matches("llvm.amdgcn.");
        let site = self.site(short, inst);
        let mapped = if name.starts_with("llvm.amdgcn.") { self.amd_call(&name, site, &args, inst) } else { self.map_call(&name, site, &args, inst)? };
        let out = match mapped {
            Some(v) => v,
            None => return Err(EmuError::Unsupported(format!("call to `{name}`: the emulator does not implement it"))),
        };
        if let Some(v) = out {
            let v = self.ir.int_cast(v, self.ir.type_of(inst));
            self.ir.replace(inst, v);
        } else {
            self.ir.erase(inst);
        }
        Ok(())
    }

    /// The runtime call for a declared function, `None` if unknown; the inner option is the
    /// result (to be cast to the call's type) or nothing for void calls.
    fn map_call(&mut self, name: &str, site: Val, a: &[Val], inst: LLVMValueRef) -> Result<Option<Option<Val>>, EmuError> {
        let bounds = self.bounds;
        let ir = &mut *self.ir;
        let r = |v: Val| Ok(Some(Some(v)));
        if let Some(reg) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
            let which = match reg {
                "tid.x" => sreg::TID,
                "ctaid.x" | "ctaid.y" | "ctaid.z" => sreg::CTAID + axis(reg),
                "nctaid.x" | "nctaid.y" | "nctaid.z" => sreg::NCTAID + axis(reg),
                _ => return Ok(None),
            };
            let w = ir.i32(which as i64);
            return r(ir.rt(Slot::Sreg, site, &[w]));
        }
        match name {
            "llvm.nvvm.barrier.cta.sync.aligned.all" | "llvm.nvvm.barrier0" => {
                ir.rt(Slot::Barrier, site, &[]);
                Ok(Some(None))
            }
            "llvm.nvvm.shfl.sync.bfly.i32" | "llvm.nvvm.shfl.sync.bfly.f32" => {
                let x = ir.to_i32(a[1]);
                r(ir.rt(Slot::ShflBfly, site, &[a[0], x, a[2], a[3]]))
            }
            "llvm.nvvm.shfl.sync.idx.i32" => r(ir.rt(Slot::ShflIdx, site, &[a[0], a[1], a[2], a[3]])),
            n if n.starts_with("llvm.nvvm.mma.m16n8k16.row.col.") => {
                let kind = if n.ends_with(".bf16") { 0 } else { 1 };
                r(ir.mma(site, kind, a, inst))
            }
            n if n.starts_with("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x") => {
                let rest = &n["llvm.nvvm.ldmatrix.sync.aligned.m8n8.x".len()..];
                let count = match rest.as_bytes().first() {
                    Some(b'1') => 1,
                    Some(b'2') => 2,
                    Some(b'4') => 4,
                    _ => return Ok(None),
                };
                let kind = count + if rest.contains(".trans") { 8 } else { 0 };
                r(ir.ldmatrix(site, kind, count as usize, a[0], inst))
            }
            "llvm.nvvm.cp.async.cg.shared.global.16.s" | "llvm.nvvm.cp.async.cg.shared.global.16" => {
                let size = if a.len() > 2 { a[2] } else { ir.i32(16) };
                ir.rt(Slot::CpAsync, site, &[a[0], a[1], size]);
                Ok(Some(None))
            }
            // `wgmma` computes at issue here (see `wgmma`): nothing to fence; its groups are
            // tracked to check that their operands stay put until retired (`wgmma_groups`).
            "llvm.nvvm.fence.proxy.async.shared_cta" | "llvm.nvvm.wgmma.fence.sync.aligned" => Ok(Some(None)),
            "llvm.nvvm.wgmma.commit_group.sync.aligned" => {
                ir.rt(Slot::WgmmaCommit, site, &[]);
                Ok(Some(None))
            }
            "llvm.nvvm.cp.async.commit.group" => {
                ir.rt(Slot::CpAsyncCommit, site, &[]);
                Ok(Some(None))
            }
            "llvm.nvvm.cp.async.wait.group" | "llvm.nvvm.cp.async.wait.all" => {
                if name.ends_with(".all") {
                    ir.rt(Slot::CpAsyncCommit, site, &[]);
                }
                let n = if a.is_empty() { ir.i32(0) } else { a[0] };
                ir.rt(Slot::CpAsyncWait, site, &[n]);
                Ok(Some(None))
            }
            // The approximate base-2 logarithm, exact here (the tests' tolerances cover both).
            "llvm.nvvm.lg2.approx.f" | "llvm.nvvm.lg2.approx.ftz.f" => r(ir.float_intrinsic("llvm.log2", a[0])),
            "nvshmem_my_pe" => r(ir.rt(Slot::MyPe, site, &[])),
            "nvshmem_n_pes" => r(ir.rt(Slot::NPes, site, &[])),
            "nvshmem_ptr" => r(ir.rt(Slot::PeerPtr, site, &[a[0], a[1]])),
            "nvshmemx_mc_ptr" => r(ir.rt(Slot::McPtr, site, &[a[0], a[1]])),
            "nvshmemx_signal_op" => {
                ir.rt(Slot::SignalOp, site, &[a[0], a[1], a[2], a[3]]);
                Ok(Some(None))
            }
            "nvshmem_signal_wait_until" => r(ir.rt(Slot::WaitUntil, site, &[a[0], a[1], a[2]])),
            "nvshmem_fence" | "nvshmem_quiet" | "nvshmemx_barrier_all_block" => {
                let s = match name {
                    "nvshmem_fence" => Slot::Fence,
                    "nvshmem_quiet" => Slot::Quiet,
                    _ => Slot::BarrierAllBlock,
                };
                ir.rt(s, site, &[]);
                Ok(Some(None))
            }
            n => {
                if let Some(v) = crate::tma_ir::call(ir, n, site, a, inst, bounds)? {
                    return Ok(Some(v));
                }
                let Some(desc) = transfer_desc(n) else { return Ok(None) };
                let d = ir.i32(desc as i64);
                let (null, z64, z32) = (ir.null_ptr(), ir.i64(0), ir.i32(0));
                let args = if desc & 3 == xfer::PUT_SIGNAL {
                    [d, a[0], a[1], a[2], a[3], a[4], a[5], a[6]]
                } else {
                    [d, a[0], a[1], a[2], null, z64, z32, a[3]]
                };
                ir.rt(Slot::Xfer, site, &args);
                Ok(Some(None))
            }
        }
    }

    /// The inline PTX strings the lowering emits (see `lower::gpu::target` and `multimem`).
    fn asm(&mut self, inst: LLVMValueRef, asm: &str) -> Result<(), EmuError> {
        self.ir.position_before(inst);
        let wgmma = crate::wgmma::parse(asm);
        let tma = crate::tma_asm::parse(asm);
        let op = if wgmma.is_some() {
            "wgmma.mma_async".to_string()
        } else if tma.is_some() {
            crate::tma_asm::opcode(asm)
        } else {
            asm.split_whitespace().next().unwrap_or("asm").to_string()
        };
        let site = self.site(&op, inst);
        let args: Vec<Val> = (0..self.ir.num_args(inst)).map(|i| self.ir.operand(inst, i)).collect();
        if let Some(a) = tma {
            return self.tma_asm(inst, &a, site, &args);
        }
        if let Some(kind) = wgmma {
            let v = self.ir.wgmma(site, kind, &args, inst);
            self.ir.replace(inst, v);
            return Ok(());
        }
        if asm == weft_compiler::lower::gpu::cp_async::CP_ASYNC_MASKED {
            // `ignore-src` set: nothing is read and the 16 bytes are zero-filled.
            let (zero, full) = (self.ir.i32(0), self.ir.i32(16));
            let size = self.ir.select(args[2], zero, full);
            self.ir.rt(Slot::CpAsync, site, &[args[0], args[1], size]);
            self.ir.erase(inst);
            return Ok(());
        }
        if let Some(n) = asm.strip_prefix("wgmma.wait_group.sync.aligned ").and_then(|r| r.strip_suffix(';')).and_then(|n| n.parse::<i64>().ok()) {
            // The registers pass through: the product was done at issue.
            let n = self.ir.i32(n);
            self.ir.rt(Slot::WgmmaWait, site, &[n]);
            let v = self.ir.pack(&args, self.ir.type_of(inst));
            self.ir.replace(inst, v);
            return Ok(());
        }
        // The element suffix is the first word after the prefix: `f32`, `s32` or `u64`.
        let kind = |s: &str| match s.split_whitespace().next() {
            Some("f32") => 0,
            Some("s32") => 1,
            _ => 2,
        };
        if asm == "and.b64 $0, $1, 0;" || asm == "v_and_b32 $0, 0, $1" {
            let x = self.ir.to_i64(args[0]);
            let v = self.ir.rt(Slot::OpaqueZero, site, &[x]);
            let v = self.ir.int_cast(v, self.ir.type_of(inst));
            self.ir.replace(inst, v);
        } else if let Some(rest) = asm.strip_prefix("multimem.ld_reduce.relaxed.sys.global.add.") {
            let k = self.ir.i32(kind(rest));
            let v = self.ir.rt(Slot::MultimemLd, site, &[k, args[0]]);
            let v = self.ir.int_cast(v, self.ir.type_of(inst));
            self.ir.replace(inst, v);
        } else if let Some(rest) = asm.strip_prefix("multimem.st.relaxed.sys.global.") {
            let k = self.ir.i32(kind(rest));
            let x = self.ir.to_i64(args[1]);
            self.ir.rt(Slot::MultimemSt, site, &[k, args[0], x]);
            self.ir.erase(inst);
        } else if let Some(k) = crate::fp8::kind(asm) {
            // Narrowing takes two f32 (their bits), widening one i16 of two codes.
            let i64t = self.ir.int(64);
            let (a, b) = match args[..] {
                [a, b] => (self.ir.to_i64(a), self.ir.to_i64(b)),
                _ => (self.ir.int_cast(args[0], i64t), self.ir.i64(0)),
            };
            let k = self.ir.i32(k as i64);
            let v = self.ir.rt(Slot::Fp8Cvt, site, &[k, a, b]);
            let v = self.ir.int_cast(v, self.ir.type_of(inst));
            self.ir.replace(inst, v);
        } else {
            return Err(EmuError::Unsupported(format!("inline PTX `{asm}`")));
        }
        Ok(())
    }

    /// The runtime calls of an mbarrier or bulk-copy instruction in inline PTX.
    fn tma_asm(&mut self, inst: LLVMValueRef, a: &crate::tma_asm::AsmOp, site: Val, args: &[Val]) -> Result<(), EmuError> {
        let ty = self.ir.type_of(inst);
        let outs = match self.ir.kind(ty) {
            LLVMTypeKind::LLVMVoidTypeKind => 0,
            LLVMTypeKind::LLVMStructTypeKind => unsafe { llvm_sys::core::LLVMCountStructElementTypes(ty) as usize },
            _ => 1,
        };
        match (crate::tma_asm::emit(self.ir, a, site, args, outs, inst, self.bounds)?, outs) {
            (_, 0) => self.ir.erase(inst),
            (Some(v), 1) if self.ir.kind(ty) != LLVMTypeKind::LLVMStructTypeKind => {
                let v = self.ir.int_cast(v, ty);
                self.ir.replace(inst, v);
            }
            _ => return Err(EmuError::Unsupported(format!("inline PTX {a:?} with {outs} outputs"))),
        }
        Ok(())
    }

    /// Puts a race-check call before a load or store through a shared-memory pointer.
    fn smem_access(&mut self, inst: LLVMValueRef) {
        let (p, write, ty) = match self.ir.opcode(inst) {
            LLVMOpcode::LLVMLoad => (self.ir.operand(inst, 0), 0, self.ir.type_of(inst)),
            LLVMOpcode::LLVMStore => {
                let v = self.ir.operand(inst, 0);
                (self.ir.operand(inst, 1), 1, self.ir.type_of(v))
            }
            _ => return,
        };
        if self.ir.addr_space(p) != SHARED_AS {
            return;
        }
        self.ir.position_before(inst);
        let op = if write == 1 { "st.shared" } else { "ld.shared" };
        let site = self.site(op, inst);
        let bytes = self.ir.store_size(ty);
        let (fp, b, w) = (self.ir.flat(p), self.ir.i32(bytes as i64), self.ir.i32(write));
        self.ir.rt(Slot::SmemAccess, site, &[fp, b, w]);
    }
}

fn axis(reg: &str) -> i32 {
    match reg.as_bytes().last() {
        Some(b'y') => 1,
        Some(b'z') => 2,
        _ => 0,
    }
}

/// The `Xfer` descriptor of an NVSHMEM transfer function (`nvshmemx_putmem_signal_nbi_block`).
fn transfer_desc(name: &str) -> Option<i32> {
    let rest = name.strip_prefix("nvshmemx_").or_else(|| name.strip_prefix("nvshmem_"))?;
    let (rest, scope) = if let Some(r) = rest.strip_suffix("_block") {
        (r, 2)
    } else if let Some(r) = rest.strip_suffix("_warp") {
        (r, 1)
    } else {
        (rest, 0)
    };
    let (rest, nbi) = match rest.strip_suffix("_nbi") {
        Some(r) => (r, xfer::NBI),
        None => (rest, 0),
    };
    let base = match rest {
        "putmem" => xfer::PUT,
        "getmem" => xfer::GET,
        "putmem_signal" => xfer::PUT_SIGNAL,
        _ => return None,
    };
    Some(base | scope << xfer::SCOPE_SHIFT | nbi)
}

#[cfg(test)]
mod tests {
    #[test]
    fn transfer_names() {
        use super::{transfer_desc, xfer};
        assert_eq!(transfer_desc("nvshmem_putmem"), Some(xfer::PUT));
        assert_eq!(transfer_desc("nvshmemx_getmem_nbi_warp"), Some(xfer::GET | 1 << 2 | xfer::NBI));
        assert_eq!(transfer_desc("nvshmemx_putmem_signal_block"), Some(xfer::PUT_SIGNAL | 2 << 2));
        assert_eq!(transfer_desc("nvshmem_malloc"), None);
    }
}
