//! `shmem` ops without a device library (AMD): every PE of the node maps every other PE's
//! symmetric heap into its address space (HIP IPC), so data movement is loads and stores
//! through peer pointers, and signals are system-scope atomics on peer words.
//!
//! **Device-state ABI.** The module defines one global that the host runtime fills before the
//! first launch (with `hipModuleGetGlobal` + a copy), as NVSHMEM does with its device state:
//!
//! ```text
//! @weft_shmem_state = protected addrspace(4) externally_initialized global
//!     { i32 my_pe, i32 n_pes, i64 sync_offset, [64 x i64] heap_base }
//! ```
//!
//! `heap_base[q]` is where PE `q`'s symmetric heap is mapped in *this* PE's address space
//! (`heap_base[my_pe]` is the local heap), so a symmetric address `p` is `p - heap_base[my_pe]
//! + heap_base[q]` on PE `q`; at most [`MAX_PES`] PEs. `sync_offset` is the byte offset, the
//! same on every PE, of a zeroed area of `8 * (MAX_PES + 1)` bytes in the symmetric heap that
//! `barrier_all` owns: word `q` is the last barrier epoch PE `q` announced to this PE, word
//! `MAX_PES` this PE's own epoch.
//!
//! Scopes and barriers follow the NVSHMEM lowering (see `shmem`): thread-scope ops run in
//! thread 0, warp-scope ones in wavefront 0, block-scope ones in every thread, between CTA
//! barriers. Signals after data (`put_signal`) are ordered by a system-scope release fence in
//! every thread that moved data, then a release atomic; waits poll with relaxed system-scope
//! loads and `s_sleep`, then take an acquire fence.

use super::emit::{num_elem, Gx, LlvmScalar};
use crate::ir::{CmpPred, Op, OpKind, Scalar, Scope, SigOp};
use crate::lower::LowerError;

/// The most PEs the device state describes.
pub const MAX_PES: usize = 64;

/// The device-state global's symbol, which the host runtime looks up.
pub const STATE_SYMBOL: &str = "weft_shmem_state";

const STATE_TY: &str = "{ i32, i32, i64, [64 x i64] }";

/// The unsigned comparison of a signal wait (signals are `u64`, as in OpenSHMEM).
fn icmp(c: CmpPred) -> &'static str {
    match c {
        CmpPred::Eq => "eq",
        CmpPred::Ne => "ne",
        CmpPred::Gt => "ugt",
        CmpPred::Ge => "uge",
        CmpPred::Lt => "ult",
        CmpPred::Le => "ule",
    }
}

impl Gx<'_> {
    pub(crate) fn shmem_peer(&mut self, op: Op) -> Result<(), LowerError> {
        let d = self.k.op(op);
        let n: Vec<String> = d.operands.iter().map(|&o| self.name(o)).collect();
        match &d.kind {
            OpKind::MyPe => {
                let v = self.state_i32(0);
                self.bind(d.results[0], v);
            }
            OpKind::NPes => {
                let v = self.state_i32(1);
                self.bind(d.results[0], v);
            }
            OpKind::RemotePtr => self.remote_ptr(op, |g, p, pe| g.peer(p, pe))?,
            OpKind::Put { scope, .. } | OpKind::Get { scope, .. } => {
                // Stores to a peer complete locally at once, so blocking and nbi forms are the
                // same code; `quiet` makes them visible.
                let put = matches!(d.kind, OpKind::Put { .. });
                let elem = num_elem(self.ty(d.operands[0]));
                self.scoped(*scope, |g| {
                    let (dst, src) = if put { (g.peer(&n[0], &n[3]), n[1].clone()) } else { (n[0].clone(), g.peer(&n[1], &n[3])) };
                    g.copy(&dst, &src, &n[2], elem, *scope);
                });
            }
            OpKind::PutSignal { scope, sig_op, .. } => {
                let elem = num_elem(self.ty(d.operands[0]));
                self.scoped(*scope, |g| {
                    let dst = g.peer(&n[0], &n[5]);
                    g.copy(&dst, &n[1], &n[2], elem, *scope);
                    // Each wave's stores are out before the CTA barrier that precedes the signal.
                    g.line("fence release");
                });
                self.scoped(Scope::Thread, |g| g.signal(&n[3], &n[4], *sig_op, &n[5]));
            }
            OpKind::SignalOp(s) => self.scoped(Scope::Thread, |g| g.signal(&n[0], &n[1], *s, &n[2])),
            OpKind::WaitUntil(c) => {
                let pred = icmp(*c);
                let tok = self.wait_token(|g| {
                    let sig = g.as_global(&n[0]);
                    g.poll_until(&sig, pred, &n[1])
                });
                self.bind(d.results[0], tok);
            }
            OpKind::Fence | OpKind::Quiet => {
                // Each thread orders (fence) or completes (quiet) the stores it issued itself.
                let order = if d.kind == OpKind::Fence { "release" } else { "seq_cst" };
                self.barrier();
                self.line(&format!("fence {order}"));
                self.barrier();
            }
            OpKind::BarrierAll => {
                self.line("fence seq_cst");
                // The CTAs of this PE meet first; thread 0 of CTA 0 then meets the other PEs.
                self.grid_barrier();
                let first = self.in_cta0();
                let t0 = self.is_thread0();
                let one = self.assign(&format!("and i1 {first}, {t0}"));
                self.only_where(
                    &one,
                    |g| {
                        g.pe_barrier();
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

    /// Field `i` (0: my_pe, 1: n_pes) of the device state, read once.
    fn state_i32(&mut self, i: usize) -> String {
        self.declare_state();
        self.entry_value(&format!("shmem.state.{i}"), |_, r| {
            vec![
                format!("{r}.at = getelementptr inbounds {STATE_TY}, ptr addrspace(4) @{STATE_SYMBOL}, i32 0, i32 {i}"),
                format!("{r} = load i32, ptr addrspace(4) {r}.at, align 4"),
            ]
        })
    }

    fn declare_state(&mut self) {
        self.declare(STATE_SYMBOL, &format!("@{STATE_SYMBOL} = protected addrspace(4) externally_initialized global {STATE_TY} zeroinitializer, align 8"));
    }

    /// Where PE `pe`'s (i32) symmetric heap is mapped here, as i64.
    fn heap_base(&mut self, pe: &str) -> String {
        self.declare_state();
        let at = self.assign(&format!("getelementptr inbounds {STATE_TY}, ptr addrspace(4) @{STATE_SYMBOL}, i32 0, i32 3, i32 {pe}"));
        self.assign(&format!("load i64, ptr addrspace(4) {at}, align 8"))
    }

    /// The address of symmetric pointer `p` on PE `pe`.
    fn peer(&mut self, p: &str, pe: &str) -> String {
        let me = self.state_i32(0);
        let (theirs, mine) = (self.heap_base(pe), self.heap_base(&me));
        let delta = self.assign(&format!("sub i64 {theirs}, {mine}"));
        self.assign(&format!("getelementptr i8, ptr {p}, i64 {delta}"))
    }

    /// `p` as a global pointer (atomics on flat pointers would also test for scratch).
    fn as_global(&mut self, p: &str) -> String {
        self.assign(&format!("addrspacecast ptr {p} to ptr addrspace(1)"))
    }

    /// Copies `nelems` (i64) elements of `s` from `src` to `dst`, spread over the threads that
    /// issue an op of `scope`: 16 bytes per access when both ends and the size allow it, else
    /// one element per access.
    fn copy(&mut self, dst: &str, src: &str, nelems: &str, s: Scalar, scope: Scope) {
        let (first, step) = match scope {
            Scope::Thread => ("0".to_string(), 1),
            Scope::Warp => (self.tid(), self.t.warp_size()),
            Scope::Block => (self.tid(), self.threads()),
        };
        let first = self.assign(&format!("zext i32 {first} to i64"));
        let (d, sp) = (self.as_global(dst), self.as_global(src));
        let bytes = self.bytes(nelems, s.bytes());
        let (di, si) = (self.assign(&format!("ptrtoint ptr addrspace(1) {d} to i64")), self.assign(&format!("ptrtoint ptr addrspace(1) {sp} to i64")));
        let any = self.assign(&format!("or i64 {di}, {si}"));
        let any = self.assign(&format!("or i64 {any}, {bytes}"));
        let low = self.assign(&format!("and i64 {any}, 15"));
        let wide = self.assign(&format!("icmp eq i64 {low}, 0"));
        let (vec, narrow, end) = (self.label("copy.vec"), self.label("copy.elems"), self.label("copy.end"));
        self.cond_br(&wide, &vec, &narrow);
        let unit = |g: &mut Self, ty: &str, i: &str| {
            let (from, to) = (g.assign(&format!("getelementptr {ty}, ptr addrspace(1) {sp}, i64 {i}")), g.assign(&format!("getelementptr {ty}, ptr addrspace(1) {d}, i64 {i}")));
            let v = g.assign(&format!("load {ty}, ptr addrspace(1) {from}"));
            g.line(&format!("store {ty} {v}, ptr addrspace(1) {to}"));
        };
        self.start(&vec);
        let n16 = self.assign(&format!("lshr i64 {bytes}, 4"));
        self.counted_loop(&first, step, &n16, |g, i| unit(g, "<4 x i32>", i));
        self.br(&end);
        self.start(&narrow);
        self.counted_loop(&first, step, nelems, |g, i| unit(g, s.mem(), i));
        self.br(&end);
        self.start(&end);
    }

    /// `for (i = first; i < end; i += step) body(i)` over i64.
    fn counted_loop(&mut self, first: &str, step: usize, end: &str, body: impl FnOnce(&mut Self, &str)) {
        let (head, inner, exit) = (self.label("loop.head"), self.label("loop.body"), self.label("loop.exit"));
        let (i, next) = (self.fresh(), self.fresh());
        let pre = self.cur.clone();
        self.br(&head);
        self.start(&head);
        let latch = self.label("loop.latch");
        self.line(&format!("{i} = phi i64 [ {first}, %{pre} ], [ {next}, %{latch} ]"));
        let go = self.assign(&format!("icmp slt i64 {i}, {end}"));
        self.cond_br(&go, &inner, &exit);
        self.start(&inner);
        body(self, &i);
        self.br(&latch);
        self.start(&latch);
        self.line(&format!("{next} = add i64 {i}, {step}"));
        self.br(&head);
        self.start(&exit);
    }

    /// Polls global i64 `sig` until `sig <pred> val`, sleeping between polls; then acquires.
    /// Returns the value seen.
    fn poll_until(&mut self, sig: &str, pred: &str, val: &str) -> String {
        let (poll, sleep, done) = (self.label("wait.poll"), self.label("wait.sleep"), self.label("wait.done"));
        self.br(&poll);
        self.start(&poll);
        let v = self.assign(&format!("load atomic volatile i64, ptr addrspace(1) {sig} monotonic, align 8"));
        let ok = self.assign(&format!("icmp {pred} i64 {v}, {val}"));
        self.cond_br(&ok, &done, &sleep);
        self.start(&sleep);
        self.call("llvm.amdgcn.s.sleep", "void", &[("1", "i32")]);
        self.br(&poll);
        self.start(&done);
        self.line("fence acquire");
        v
    }

    /// Sets or adds `val` to the i64 signal `sig` on PE `pe`, releasing this thread's writes.
    fn signal(&mut self, sig: &str, val: &str, op: SigOp, pe: &str) {
        let remote = self.peer(sig, pe);
        let g = self.as_global(&remote);
        match op {
            SigOp::Set => self.line(&format!("store atomic i64 {val}, ptr addrspace(1) {g} release, align 8")),
            SigOp::Add => {
                self.assign(&format!("atomicrmw add ptr addrspace(1) {g}, i64 {val} release, align 8"));
            }
        }
    }

    /// The barrier across PEs, run by one thread per PE: announce a new epoch to every PE's
    /// sync area, then wait until every PE announced it here.
    fn pe_barrier(&mut self) {
        let (me, npes) = (self.state_i32(0), self.state_i32(1));
        self.declare_state();
        let off_at = self.assign(&format!("getelementptr inbounds {STATE_TY}, ptr addrspace(4) @{STATE_SYMBOL}, i32 0, i32 2"));
        let off = self.assign(&format!("load i64, ptr addrspace(4) {off_at}, align 8"));
        let mine = self.heap_base(&me);
        let own = self.assign(&format!("add i64 {mine}, {off}"));
        let own = self.assign(&format!("inttoptr i64 {own} to ptr addrspace(1)"));
        let epoch_at = self.assign(&format!("getelementptr i64, ptr addrspace(1) {own}, i64 {MAX_PES}"));
        let last = self.assign(&format!("load volatile i64, ptr addrspace(1) {epoch_at}, align 8"));
        let epoch = self.assign(&format!("add i64 {last}, 1"));
        self.line(&format!("store volatile i64 {epoch}, ptr addrspace(1) {epoch_at}, align 8"));
        let n = self.assign(&format!("zext i32 {npes} to i64"));
        let me64 = self.assign(&format!("zext i32 {me} to i64"));
        self.counted_loop("0", 1, &n, |g, q| {
            let q32 = g.assign(&format!("trunc i64 {q} to i32"));
            let base = g.heap_base(&q32);
            let area = g.assign(&format!("add i64 {base}, {off}"));
            let area = g.assign(&format!("inttoptr i64 {area} to ptr addrspace(1)"));
            let slot = g.assign(&format!("getelementptr i64, ptr addrspace(1) {area}, i64 {me64}"));
            g.line(&format!("store atomic i64 {epoch}, ptr addrspace(1) {slot} release, align 8"));
        });
        self.counted_loop("0", 1, &n, |g, q| {
            let slot = g.assign(&format!("getelementptr i64, ptr addrspace(1) {own}, i64 {q}"));
            g.poll_until(&slot, "uge", &epoch);
        });
    }
}

