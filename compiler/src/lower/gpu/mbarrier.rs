//! Shared-memory `mbarrier` objects (sm_90+) through LLVM's NVVM intrinsics: the 8-byte
//! barriers a TMA ring's slots complete on. Each is initialised by thread 0 for one arrival
//! (the thread that issues the slot's copies, with `expect_tx`), so a phase completes when
//! that arrival and all the copies' bytes are in; consumers spin on `try_wait.parity`.

use super::emit::Gx;

const INIT: &str = "llvm.nvvm.mbarrier.init.shared";
const INVAL: &str = "llvm.nvvm.mbarrier.inval.shared";
const EXPECT_TX: &str = "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta";
/// Acquire at CTA scope: the copies' bytes are visible to the waiter once it returns true.
const TRY_WAIT: &str = "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta";
/// Makes thread 0's `init`s visible to the other threads and to the async proxy (the copies).
const FENCE_INIT: &str = "llvm.nvvm.fence.mbarrier_init.release.cluster";

impl Gx<'_> {
    /// The address of barrier `i` (an i32) of the array at scratch byte `base`.
    pub(crate) fn mbarrier_at(&mut self, base: usize, i: &str) -> String {
        self.smem_at(base, "i64", i)
    }

    /// Thread 0 initialises barriers `0..n` at scratch byte `base` for one arrival each
    /// (`inval` false), or invalidates them (`inval` true: before their bytes are used for
    /// anything else, or initialised again). The caller orders it against other threads.
    pub(crate) fn mbarriers(&mut self, base: usize, n: usize, inval: bool) {
        self.declare(INIT, &format!("declare void @{INIT}(ptr addrspace(3), i32)"));
        self.declare(INVAL, &format!("declare void @{INVAL}(ptr addrspace(3))"));
        self.declare(FENCE_INIT, &format!("declare void @{FENCE_INIT}()"));
        let t0 = self.is_thread0();
        self.only_where(&t0, |g| {
            for i in 0..n {
                let b = g.mbarrier_at(base, &i.to_string());
                match inval {
                    false => g.line(&format!("call void @{INIT}(ptr addrspace(3) {b}, i32 1)")),
                    true => g.line(&format!("call void @{INVAL}(ptr addrspace(3) {b})")),
                }
            }
            if !inval {
                g.line(&format!("call void @{FENCE_INIT}()"));
            }
            vec![]
        }, "0");
    }

    /// The issuing thread's arrival on barrier `bar`, expecting `bytes` from copies.
    pub(crate) fn mbarrier_expect(&mut self, bar: &str, bytes: usize) {
        self.declare(EXPECT_TX, &format!("declare i64 @{EXPECT_TX}(ptr addrspace(3), i32)"));
        self.assign(&format!("call i64 @{EXPECT_TX}(ptr addrspace(3) {bar}, i32 {bytes})"));
    }

    /// Spins until the phase of barrier `bar` with parity `parity` (an i32, 0 or 1) has
    /// completed. A fresh barrier counts its (never run) phase of parity 1 as complete.
    pub(crate) fn mbarrier_wait(&mut self, bar: &str, parity: &str) {
        self.declare(TRY_WAIT, &format!("declare i1 @{TRY_WAIT}(ptr addrspace(3), i32)"));
        let (spin, done) = (self.label("mbar.spin"), self.label("mbar.done"));
        self.br(&spin);
        self.start(&spin);
        let ok = self.assign(&format!("call i1 @{TRY_WAIT}(ptr addrspace(3) {bar}, i32 {parity})"));
        self.cond_br(&ok, &done, &spin);
        self.start(&done);
    }
}
