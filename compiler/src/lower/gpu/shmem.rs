//! `shmem` ops as calls into NVSHMEM's device library (linked in later as bitcode), and the
//! CTA-level plumbing every shmem implementation shares (issuing scopes, wait tokens,
//! `consume_token`, peer-pointer shifts).
//!
//! A program instance is a CTA, so each op happens once per CTA: thread-scope transfers,
//! signals and waits run in thread 0, warp-scope ones in warp 0, block-scope ones in every
//! thread (NVSHMEM's `_block` calls are collective over the CTA). Barriers around them make
//! the CTA's earlier stores visible to the issuing thread and the op's effects (a wait's
//! acquire, a get's data) visible to every thread after it.

use super::emit::{num_elem, Gx};
use super::target::Sreg;
use crate::ir::{CmpPred, Op, OpKind, Scope, SigOp};
use crate::lower::LowerError;

/// `NVSHMEM_CMP_*` of `nvshmem_signal_wait_until` (nvshmem's `device_host/nvshmem_types.h`).
fn cmp_code(c: CmpPred) -> i32 {
    match c {
        CmpPred::Eq => 0,
        CmpPred::Ne => 1,
        CmpPred::Gt => 2,
        CmpPred::Le => 3,
        CmpPred::Lt => 4,
        CmpPred::Ge => 5,
    }
}

/// `NVSHMEM_SIGNAL_SET` / `NVSHMEM_SIGNAL_ADD` (nvshmem's `device_host/nvshmem_types.h`).
fn sig_code(op: SigOp) -> i32 {
    match op {
        SigOp::Set => 9,
        SigOp::Add => 10,
    }
}


/// NVSHMEM's name for a transfer of `base` (`putmem`, `getmem`, `putmem_signal`) at `scope`.
fn transfer_fn(base: &str, scope: Scope, nbi: bool) -> String {
    let nbi = if nbi { "_nbi" } else { "" };
    match scope {
        Scope::Thread => format!("nvshmem_{base}{nbi}"),
        Scope::Warp => format!("nvshmemx_{base}{nbi}_warp"),
        Scope::Block => format!("nvshmemx_{base}{nbi}_block"),
    }
}

impl Gx<'_> {
    pub(crate) fn shmem(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let names: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
        match &d.kind {
            OpKind::MyPe | OpKind::NPes => {
                let f = if d.kind == OpKind::MyPe { "nvshmem_my_pe" } else { "nvshmem_n_pes" };
                let v = self.call(f, "i32", &[]).unwrap_or_default();
                self.bind(d.results[0], v);
            }
            OpKind::RemotePtr => self.remote_ptr(op, |g, p, pe| {
                let q = g.call("nvshmem_ptr", "ptr", &[(p, "ptr"), (pe, "i32")]).unwrap_or_default();
                g.trap_if_null(&q);
                q
            })?,
            OpKind::Put { scope, nbi } | OpKind::Get { scope, nbi } => {
                let base = if matches!(d.kind, OpKind::Put { .. }) { "putmem" } else { "getmem" };
                let bytes = self.bytes(&names[2], num_elem(self.ty(d.operands[0])).bytes());
                let f = transfer_fn(base, *scope, *nbi);
                let (dst, src, pe) = (names[0].clone(), names[1].clone(), names[3].clone());
                let outline = self.outline_transfers();
                self.scoped(*scope, move |g| {
                    let args = [(dst.as_str(), "ptr"), (src.as_str(), "ptr"), (bytes.as_str(), "i64"), (pe.as_str(), "i32")];
                    if outline { g.call_outlined(&f, "void", &args) } else { g.call(&f, "void", &args) };
                });
            }
            OpKind::PutSignal { scope, nbi, sig_op } => {
                let bytes = self.bytes(&names[2], num_elem(self.ty(d.operands[0])).bytes());
                let f = transfer_fn("putmem_signal", *scope, *nbi);
                let so = sig_code(*sig_op).to_string();
                let n = names.clone();
                let outline = self.outline_transfers();
                self.scoped(*scope, move |g| {
                    let args = [(n[0].as_str(), "ptr"), (n[1].as_str(), "ptr"), (bytes.as_str(), "i64"), (n[3].as_str(), "ptr"), (n[4].as_str(), "i64"), (so.as_str(), "i32"), (n[5].as_str(), "i32")];
                    if outline { g.call_outlined(&f, "void", &args) } else { g.call(&f, "void", &args) };
                });
            }
            OpKind::SignalOp(s) => {
                let so = sig_code(*s).to_string();
                let n = names.clone();
                self.scoped(Scope::Thread, move |g| {
                    g.call("nvshmemx_signal_op", "void", &[(&n[0], "ptr"), (&n[1], "i64"), (&so, "i32"), (&n[2], "i32")]);
                });
            }
            OpKind::WaitUntil(c) => {
                let cc = cmp_code(*c).to_string();
                let (sig, val) = (names[0].clone(), names[1].clone());
                let tok = self.wait_token(|g| g.call("nvshmem_signal_wait_until", "i64", &[(&sig, "ptr"), (&cc, "i32"), (&val, "i64")]).unwrap_or_default());
                self.bind(d.results[0], tok);
            }
            OpKind::Fence | OpKind::Quiet => {
                // Each thread orders / completes the operations it issued itself.
                let f = if d.kind == OpKind::Fence { "nvshmem_fence" } else { "nvshmem_quiet" };
                self.barrier();
                self.call(f, "void", &[]);
                self.barrier();
            }
            OpKind::BarrierAll => {
                // NVSHMEM's barrier may be entered once per PE, so the CTAs of this PE meet
                // first and CTA 0 stands for all of them.
                self.call("nvshmem_quiet", "void", &[]);
                self.grid_barrier();
                let first = self.in_cta0();
                self.only_where(
                    &first,
                    |g| {
                        g.call("nvshmemx_barrier_all_block", "void", &[]);
                        vec![]
                    },
                    "0",
                );
                self.grid_barrier();
            }
            _ => return Err(self.unsupported(op, "no GPU lowering")),
        }
        Ok(())
    }

    /// Whether NVSHMEM's transfer functions stay out of line in this kernel: always. Each
    /// inlined `putmem[_signal]` brings its own copy loops into the kernel's register budget
    /// (measured: gemm_rs 252 -> 213 registers on sm_90a with its two transfer sites outlined,
    /// ag_gemm 196 -> 183, 0 spills at REDUCE_ROWS=8 where inlined f32 spilled), and a call
    /// costs little beside a tile-sized copy.
    fn outline_transfers(&self) -> bool {
        true
    }

    /// The result of a wait that thread 0 performs (`poll` returns the i64 it saw), given to
    /// every thread of the CTA through shared memory, between CTA barriers.
    pub(crate) fn wait_token(&mut self, poll: impl FnOnce(&mut Self) -> String) -> String {
        self.barrier();
        let t0 = self.is_thread0();
        self.only_where(
            &t0,
            |g| {
                let v = poll(g);
                g.declare("__weft_token", "@__weft_token = internal addrspace(3) global i64 undef, align 8");
                g.line(&format!("store i64 {v}, ptr addrspace(3) @__weft_token, align 8"));
                vec![]
            },
            "0",
        );
        self.barrier();
        // Every thread gets the value thread 0 saw, so the token is a real data dependency
        // wherever `consume_token` uses it.
        self.assign("load i64, ptr addrspace(3) @__weft_token, align 8")
    }

    /// `consume_token`: the value, with an opaque zero computed from the token added to
    /// pointers, so that loads through them cannot move above the wait.
    pub(crate) fn consume_token(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (v, r) = (d.operands[0], d.results[0]);
        let (val, tok) = (self.name(v), self.name(d.operands[1]));
        let x = if matches!(self.ty(v).elem(), Some(crate::ir::Elem::Ptr(_))) {
            let zero = self.emit_value(|t, r| t.opaque_zero(r, &tok));
            let vty = self.vty(v);
            self.assign(&format!("getelementptr i8, {vty} {val}, i64 {zero}"))
        } else {
            val
        };
        self.bind(r, x);
        if let Some(u) = self.uniform.get(&v).cloned() {
            self.uniform.insert(r, u);
        }
        Ok(())
    }

    /// `i1`: this is CTA (0, 0, 0) of the grid.
    pub(crate) fn in_cta0(&mut self) -> String {
        let (x, y, z) = (self.sreg(Sreg::CtaId(0)), self.sreg(Sreg::CtaId(1)), self.sreg(Sreg::CtaId(2)));
        let xy = self.assign(&format!("or i32 {x}, {y}"));
        let xyz = self.assign(&format!("or i32 {xy}, {z}"));
        self.assign(&format!("icmp eq i32 {xyz}, 0"))
    }

    /// Runs `body` in the threads that issue an op of `scope`, between CTA barriers.
    pub(crate) fn scoped(&mut self, scope: Scope, body: impl FnOnce(&mut Self)) {
        self.barrier();
        match scope {
            Scope::Block => body(self),
            Scope::Warp | Scope::Thread => {
                let c = if scope == Scope::Warp { self.in_warp0() } else { self.is_thread0() };
                self.only_where(
                    &c,
                    |g| {
                        body(g);
                        vec![]
                    },
                    "0",
                );
            }
        }
        self.barrier();
    }

    /// Traps (`llvm.trap`) where `p` is NULL: NVSHMEM's address queries return NULL where the
    /// platform has no load/store path, and an access near address 0 would fault somewhere
    /// unrelated (the host checks before launch; this catches what gets past it).
    pub(crate) fn trap_if_null(&mut self, p: &str) {
        let null = self.assign(&format!("icmp eq ptr {p}, null"));
        let (trap, ok) = (self.label("null.trap"), self.label("null.ok"));
        self.cond_br(&null, &trap, &ok);
        self.start(&trap);
        self.call("llvm.trap", "void", &[]);
        self.line("unreachable");
        self.start(&ok);
    }

    /// `nelems * elem_bytes` as i64.
    pub(crate) fn bytes(&mut self, nelems: &str, elem_bytes: usize) -> String {
        self.assign(&format!("mul i64 {nelems}, {elem_bytes}"))
    }

    /// `remote_ptr`: the peer address of a symmetric pointer, `translate(p, pe)` (NVSHMEM's
    /// `nvshmem_ptr`, or the peer heap's base arithmetic). A tile's pointers share one
    /// symmetric heap, so each thread translates slot 0 and shifts all its slots by the distance.
    pub(crate) fn remote_ptr(&mut self, op: Op, translate: impl Fn(&mut Self, &str, &str) -> String) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let (p, pe, r) = (d.operands[0], self.name(d.operands[1]), d.results[0]);
        let pn = self.name(p);
        let Some(per) = self.slots(self.ty(p)) else {
            let v = translate(self, &pn, &pe);
            self.bind(r, v);
            return Ok(());
        };
        let pty = format!("<{per} x ptr>");
        let p0 = self.extract(&pn, &pty, 0);
        let q0 = translate(self, &p0, &pe);
        let (a, b) = (self.assign(&format!("ptrtoint ptr {p0} to i64")), self.assign(&format!("ptrtoint ptr {q0} to i64")));
        let delta = self.assign(&format!("sub i64 {b}, {a}"));
        let x = self.assign(&format!("getelementptr i8, {pty} {pn}, i64 {delta}"));
        self.bind(r, x);
        Ok(())
    }
}
