//! `tile.dot` on sm_90a through `wgmma.mma_async`: both operands arrive by `cp.async` (or, in
//! a ring whose loads a tensor map describes, by TMA: [`super::tma_ring`]) in the
//! swizzled staging of [`super::wgmma_desc`] (A `[M][K]`, B `[K][N]`), and each warp group
//! issues one `m64nNk16` per k16 step straight from shared memory through two descriptors,
//! with no shared loads into registers. The accumulator is the warp-group D fragment, which is
//! the mma layout with all warps along M (`warps x 1`), so everything downstream of the dot
//! (loops carrying it, the epilogue's conversion) is unchanged.
//!
//! Ordering: the copies are waited for and the CTA has met at a barrier before the dot (the
//! ring's or the dot's own); `fence.proxy.async` then makes those generic-proxy writes
//! visible to the async proxy `wgmma` reads through; `wgmma.fence` orders the accumulator's
//! earlier register writes. Outside a ring the dot then waits for its own group (`wait_group
//! 0`). In a `num_stages` ring it waits for the previous step's group only (`wait_group 1`),
//! so the tensor core works on step k while step k+1 is issued; the ring has one slot more
//! than `num_stages`, so no copy overwrites a slot a group in flight reads, and after the
//! loop the last group is waited for ([`Gx::wgmma_drain`]). Each wait is an inline asm that
//! takes and returns every accumulator register, so no use of them can be scheduled above it.
//!
//! The epilogue is not a TMA store: the accumulator leaves through scratch in chunks
//! ([`super::acc_chunks`]) to the blocked layout and is stored with 16-byte `st.global`
//! (8 per thread for a 128x128 bf16 tile), masked per chunk on ragged edges.

use super::acc_layout::AccLayout;
use super::emit::{num_elem, Gx};
use super::layout::Blocked;
use super::ldmatrix::Staging;
use super::wgmma_desc::{plan, Desc, SwizzledTile, WG_K, WG_WARPS};
use crate::ir::{Op, Scalar};

/// The intrinsic every `wgmma` dot calls (its declaration marks a module that needs the
/// scratch buffer 1024-byte aligned).
pub(crate) const FENCE: &str = "llvm.nvvm.wgmma.fence.sync.aligned";

/// Makes this thread's generic-proxy shared-memory writes visible to the async proxy.
pub(crate) const PROXY_FENCE: &str = "llvm.nvvm.fence.proxy.async.shared_cta";

/// Lane `b` of a warp's `x` (`shfl.sync.idx.b32`).
const SHFL_IDX: &str = "llvm.nvvm.shfl.sync.idx.i32";

/// The instructions that set `out` to the byte offset in staging `tile` of element
/// (`row`, `col`) (i32 values), with temporaries named from `t`: [`SwizzledTile::byte_of`] in
/// LLVM IR.
pub(crate) fn swizzled_byte(t: &str, out: &str, (row, col): (&str, &str), tile: SwizzledTile) -> Vec<String> {
    let (w, s) = (tile.atom_cols(), tile.swizzle);
    vec![
        format!("{t}.atom = udiv i32 {col}, {w}"),
        format!("{t}.in = urem i32 {col}, {w}"),
        format!("{t}.ab = mul i32 {t}.atom, {}", tile.atom_bytes()),
        format!("{t}.rb = mul i32 {row}, {s}"),
        format!("{t}.ib = mul i32 {t}.in, 2"),
        format!("{t}.l0 = add i32 {t}.ab, {t}.rb"),
        format!("{t}.lin = add i32 {t}.l0, {t}.ib"),
        format!("{t}.hi = lshr i32 {t}.lin, 7"),
        format!("{t}.ph = and i32 {t}.hi, {}", s / 16 - 1),
        format!("{t}.x = shl i32 {t}.ph, 4"),
        format!("{out} = xor i32 {t}.lin, {t}.x"),
    ]
}

impl Gx<'_> {
    /// The stagings of `dot`'s A and B when it lowers to `wgmma`: the target has it, the
    /// accumulator is the warp-group layout, both operands are 16-bit and copied by
    /// `cp.async`, and [`plan`] takes the shape.
    pub(crate) fn wgmma_plan(&self, dot: Op) -> Option<(SwizzledTile, SwizzledTile)> {
        let d = self.k.op(dot);
        let s = num_elem(self.ty(d.operands[0]));
        let Some(&AccLayout::Mma { m, n, warps_m, warps_n: 1 }) = self.accs.layout.get(&d.results[0]) else { return None };
        let k = *self.ty(d.operands[0]).shape().last()?;
        let ok = self.t.wgmma() && matches!(s, Scalar::BF16 | Scalar::F16) && warps_m == self.num_warps && self.staged_operands(dot) == [true, true];
        ok.then(|| plan(m, n, k, warps_m)).flatten()
    }

    /// The scratch staging of a `wgmma` dot: A at 0, B after it, both 1024-byte aligned (the
    /// 128-byte swizzle repeats every 1024 bytes of address), no row padding.
    pub(crate) fn wgmma_staging(&self, (a, b): (SwizzledTile, SwizzledTile)) -> Staging {
        let b_at = a.bytes().div_ceil(1024) * 1024;
        Staging { pad_a: 0, pad_b: 0, b_at, bytes: (b_at + b.bytes()).div_ceil(1024) * 1024 }
    }

    /// The element index (from the operand's base) of the 16-byte chunk that starts at
    /// element `first` of this thread's part of blocked `l`, in staging `tile`.
    pub(crate) fn swizzled_chunk(&mut self, l: &Blocked, tile: SwizzledTile, first: usize) -> String {
        let base = self.layout_base(l);
        let cols = tile.cols;
        self.entry_value(&format!("swz.{l:?}.{tile:?}.{first}"), |_, r| {
            let mut v = vec![format!("{r}.e = add i32 {base}, {first}"), format!("{r}.row = udiv i32 {r}.e, {cols}"), format!("{r}.col = urem i32 {r}.e, {cols}")];
            v.extend(swizzled_byte(r, &format!("{r}.b"), (&format!("{r}.row"), &format!("{r}.col")), tile));
            v.push(format!("{r} = lshr i32 {r}.b, 1"));
            v
        })
    }

    /// The `wgmma` steps of a dot staged as `(ta, tb)` (B at byte `b_at`, both offset by the
    /// element offset `slot` in a ring), accumulating into `accs` (the D fragment).
    pub(crate) fn wgmma_steps(&mut self, s: Scalar, (ta, tb): (SwizzledTile, SwizzledTile), b_at: usize, slot: Option<&str>, accs: &mut [String]) {
        let tid = self.tid();
        let group_bytes = Desc::a(ta, 1, 0).start - Desc::a(ta, 0, 0).start;
        // Shared addresses of this warp group's A and of B, as i32. The warp group is lane
        // 0's: the same value, but one ptxas knows to be warp-uniform, so the descriptors
        // stay in uniform registers (no copy into them before every `wgmma`).
        self.declare(SHFL_IDX, &format!("declare i32 @{SHFL_IDX}(i32, i32, i32, i32)"));
        let a0 = self.entry_value(&format!("wg.a.{ta:?}"), |_, r| {
            vec![
                format!("{r}.base = ptrtoint ptr addrspace(3) @__weft_smem to i32"),
                format!("{r}.w = udiv i32 {tid}, {}", WG_WARPS * 32),
                format!("{r}.g = call i32 @{SHFL_IDX}(i32 -1, i32 {r}.w, i32 0, i32 31)"),
                format!("{r}.off = mul i32 {r}.g, {group_bytes}"),
                format!("{r} = add i32 {r}.base, {r}.off"),
            ]
        });
        let b0 = self.entry_value(&format!("wg.b.{b_at}"), |_, r| vec![format!("{r}.base = ptrtoint ptr addrspace(3) @__weft_smem to i32"), format!("{r} = add i32 {r}.base, {b_at}")]);
        let (a0, b0) = match slot {
            Some(o) => {
                let bytes = self.assign(&format!("shl i32 {o}, 1"));
                (self.assign(&format!("add i32 {a0}, {bytes}")), self.assign(&format!("add i32 {b0}, {bytes}")))
            }
            None => (a0, b0),
        };
        // The descriptor's 14-bit start field (on a GPU the mask changes nothing: shared
        // addresses stay below 256 KiB; the emulator's are host addresses).
        let field = |g: &mut Self, x: &str| {
            let q = g.assign(&format!("lshr i32 {x}, 4"));
            g.assign(&format!("and i32 {q}, 16383"))
        };
        let (a4, b4) = (field(self, &a0), field(self, &b0));
        // A TMA ring's slots are written by the async proxy only (its zeroes were fenced
        // before the loop, see `tma_ring`), so its steps need no proxy fence.
        if !(slot.is_some() && self.ring.as_ref().is_some_and(|r| r.tma.is_some())) {
            self.intrinsic(PROXY_FENCE);
        }
        self.intrinsic(FENCE);
        // m64nN with f32 accumulation: N / 2 registers per thread.
        let (n, c) = (tb.cols, accs.len());
        debug_assert_eq!(c, n / 2);
        let ty = if s == Scalar::BF16 { "bf16" } else { "f16" };
        let regs = (0..c).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
        let asm = format!(
            "{{\\0A.reg .pred p;\\0Asetp.ne.b32 p, ${}, 0;\\0Awgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ty}.{ty} {{{regs}}}, ${c}, ${}, p, 1, 1, 0, 1;\\0A}}",
            c + 2,
            c + 1
        );
        let cons = format!("{},l,l,r,{}", vec!["=f"; c].join(","), (0..c).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
        let sty = format!("{{{}}}", vec!["float"; c].join(", "));
        for step in 0..ta.cols / WG_K {
            let (da, db) = (Desc::a(ta, 0, step), Desc::b(tb, step));
            let ad = self.descriptor(&a4, &da);
            let bd = self.descriptor(&b4, &db);
            let args: Vec<String> = accs.iter().map(|x| format!("float {x}")).collect();
            let d = self.assign(&format!("call {sty} asm sideeffect \"{asm}\", \"{cons}\"(i64 {ad}, i64 {bd}, i32 1, {})", args.join(", ")));
            for (q, a) in accs.iter_mut().enumerate() {
                *a = self.assign(&format!("extractvalue {sty} {d}, {q}"));
            }
        }
        self.intrinsic("llvm.nvvm.wgmma.commit_group.sync.aligned");
        // In a ring the previous step's group is waited for and this one stays in flight
        // (the slot it reads is rewritten only after the next step's wait and barrier);
        // alone, the dot waits for its own group.
        self.wgmma_wait(usize::from(slot.is_some()), accs);
        if slot.is_some() {
            self.wgmma_copies();
        }
    }

    /// In a ring, after the step's `wait_group 1`: every warp group has retired the previous
    /// step's group (the barrier), so the copies into the slot it read go out now.
    fn wgmma_copies(&mut self) {
        self.barrier();
        if let Some((r, t)) = self.tma_pending.take() {
            self.tma_fill(&r, &t);
            return;
        }
        if let Some(text) = self.deferred.take() {
            self.out.push_str(&text);
        }
        self.commit_copies();
    }

    /// Groups a ring's `wgmma` dot keeps in flight across K steps: 1 (the ring's copies then
    /// go out after the dot's `wait_group 1` and a barrier, see `pipeline_ring`); 0 for other
    /// dots.
    pub(crate) fn wgmma_in_flight(&self, dot: Op) -> usize {
        usize::from(self.wgmma_plan(dot).is_some())
    }

    /// After a ringed loop whose dot is `dot`: waits for the last `wgmma` group, passing the
    /// loop's accumulator `acc` (`<n x float>`) through; returns the value to use after it.
    pub(crate) fn wgmma_drain(&mut self, dot: Op, acc: &str) -> String {
        if self.wgmma_in_flight(dot) == 0 {
            return acc.to_string();
        }
        let n = self.accs.layout.get(&self.k.op(dot).results[0]).map_or(0, |l| l.slots());
        let vty = format!("<{n} x float>");
        let mut accs: Vec<String> = (0..n).map(|i| self.extract(acc, &vty, i)).collect();
        self.wgmma_wait(0, &mut accs);
        let mut v = "poison".to_string();
        for (i, x) in accs.iter().enumerate() {
            v = self.assign(&format!("insertelement {vty} {v}, float {x}, i64 {i}"));
        }
        v
    }

    /// `wgmma.wait_group n`, the accumulators passing through the asm so that nothing reads
    /// them before it.
    fn wgmma_wait(&mut self, n: usize, accs: &mut [String]) {
        let c = accs.len();
        let sty = format!("{{{}}}", vec!["float"; c].join(", "));
        let cons = format!("{},{}", vec!["=f"; c].join(","), (0..c).map(|i| i.to_string()).collect::<Vec<_>>().join(","));
        let args: Vec<String> = accs.iter().map(|x| format!("float {x}")).collect();
        let d = self.assign(&format!("call {sty} asm sideeffect \"wgmma.wait_group.sync.aligned {n};\", \"{cons}\"({})", args.join(", ")));
        for (q, a) in accs.iter_mut().enumerate() {
            *a = self.assign(&format!("extractvalue {sty} {d}, {q}"));
        }
    }

    /// The 64-bit descriptor `d` for an operand whose base address `>> 4` is `base4`.
    fn descriptor(&mut self, base4: &str, d: &Desc) -> String {
        let lo = if d.start == 0 { base4.to_string() } else { self.assign(&format!("add i32 {base4}, {}", d.start >> 4)) };
        let wide = self.assign(&format!("zext i32 {lo} to i64"));
        self.assign(&format!("or i64 {wide}, {}", d.fields() as i64))
    }

    /// A call of the argument-less void intrinsic `f`.
    pub(crate) fn intrinsic(&mut self, f: &str) {
        self.declare(f, &format!("declare void @{f}()"));
        self.line(&format!("call void @{f}()"));
    }
}
