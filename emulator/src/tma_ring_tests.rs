//! TMA in a pipeline: a three-slot ring through many mbarrier phases, and a warp group's
//! `wgmma` on a TMA-loaded tile (helpers from the single-copy tests, `super::tests`).

use super::tests::{expand, guide_byte, world, Bytes, Case, Rng};
use crate::object::Shape;
use crate::Checks;
use weft_runtime::cuda::tensor_map::{TileMap, TmaElem, TmaSwizzle};
use weft_runtime::Arg;

/// A three-slot ring as the lowering builds one: thread 0 fills the slot of step `k + 2`
/// (after a barrier: every thread is done with the slot of step `k - 1`), every thread waits
/// on the slot of step `k` at parity `(k / 3) % 2` and copies it out. Each barrier goes
/// through several phases; `%flip` waits at the wrong parity (the planted bug).
const RING: &str = r#"
target triple = "nvptx64-nvidia-cuda"
@buf = internal addrspace(3) global [24576 x i8] undef, align 1024
@bars = internal addrspace(3) global [3 x i64] undef, align 8

DECLARE

define ptx_kernel void @ring_k(ptr %out, i32 %c0, i32 %brows, i32 %tx, i32 %foot, i32 %steps, i32 %flip, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %map) {
ENTRY
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bars, i32 1)
  %b1 = getelementptr i64, ptr addrspace(3) @bars, i64 1
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %b1, i32 1)
  %b2 = getelementptr i64, ptr addrspace(3) @bars, i64 2
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %b2, i32 1)
FILL(0, a)
  %two = icmp ugt i32 %steps, 1
  br i1 %two, label %second, label %synced
second:
FILL(1, b)
  br label %synced
synced:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %step
step:
  %k = phi i32 [ 0, %synced ], [ %k1, %refilled ]
  %s = urem i32 %k, 3
  %s64 = zext i32 %s to i64
  %bar = getelementptr i64, ptr addrspace(3) @bars, i64 %s64
  %round = udiv i32 %k, 3
  %par0 = and i32 %round, 1
  %par = xor i32 %par0, %flip
  br label %spin
WAIT(spin, %bar, %par, copy)
copy:
  %soff = mul i64 %s64, 8192
  %k64 = zext i32 %k to i64
  %f64 = zext i32 %foot to i64
  %ooff = mul i64 %k64, %f64
COPY_OUT(%soff, %ooff, %f64)
done:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %n = add i32 %k, 2
  %live = icmp ult i32 %n, %steps
  %go = and i1 %t0, %live
  br i1 %go, label %refill, label %refilled
refill:
FILL(%n, c)
  br label %refilled
refilled:
  %k1 = add i32 %k, 1
  %again = icmp ult i32 %k1, %steps
  br i1 %again, label %step, label %exit
exit:
  ret void
}
"#;

/// [`RING`] with thread 0's fill of step `n` written out at each `FILL(n, tag)` (the
/// emulator retargets the kernel function only, so no helper function).
fn ring_ir() -> String {
    let fill = |n: &str, t: &str| {
        format!(
            "  %s.{t} = urem i32 {n}, 3
  %s64.{t} = zext i32 %s.{t} to i64
  %bar.{t} = getelementptr i64, ptr addrspace(3) @bars, i64 %s64.{t}
  %off.{t} = mul i64 %s64.{t}, 8192
  %slot.{t} = getelementptr i8, ptr addrspace(3) @buf, i64 %off.{t}
  %dst.{t} = addrspacecast ptr addrspace(3) %slot.{t} to ptr addrspace(7)
  %row.{t} = mul i32 {n}, %brows
  %tok.{t} = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %bar.{t}, i32 %tx)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst.{t}, ptr addrspace(3) %bar.{t}, ptr %map, i32 %c0, i32 %row.{t}, i16 0, i64 0, i1 false, i1 false, i32 0)"
        )
    };
    expand(RING).replace("FILL(0, a)", &fill("0", "a")).replace("FILL(1, b)", &fill("1", "b")).replace("FILL(%n, c)", &fill("%n", "c"))
}

/// Runs the ring over a random ragged matrix; the image of step `k` is the box at row
/// `k * box_rows`, each checked against the guide's swizzle.
#[test]
fn a_three_slot_ring_refills_its_slots_through_many_mbarrier_phases() {
    let w = world();
    let mut r = Rng(0x7a1a);
    let shape = Shape { threads: 32, warp: 32, dynamic_smem: 0 };
    let ring = |checks| crate::launchable_ir("ring_k", &ring_ir(), "ring_k", shape, &[], "sm_90a", checks).unwrap_or_else(|e| panic!("{e}"));
    let (plain, raced) = (ring(Checks::default()), ring(Checks { races: true, ..Checks::default() }));
    for case in 0..12 {
        let mut c = Case::random(&mut r);
        c.box_rows = c.box_rows.min(8192 / (c.box_cols * c.elem.bytes() as usize));
        let span = c.swizzle.span().unwrap_or(0) as usize;
        let steps = c.rows.div_ceil(c.box_rows) + 1;
        let es = c.elem.bytes() as usize;
        let src: Vec<u8> = (0..c.rows * c.ld * es).map(|_| r.below(255) as u8 + 1).collect();
        let mut sb = Bytes::new(&src);
        let foot = if span == 0 { c.box_bytes() } else { c.box_bytes().div_ceil(128) * 128 };
        let mut ob = Bytes::new(&vec![0; foot * steps]);
        let tm = c.param().resolve(&[sb.addr(), c.rows as u64, c.cols as u64, c.ld as u64]).unwrap();
        let mut map = Bytes::new(&TileMap::encode_emulated(&tm).unwrap().0);
        let k = if case % 2 == 0 { &plain } else { &raced };
        let (oaddr, maddr) = (ob.addr(), map.addr());
        let args = |flip: i32| {
            let mut a = vec![Arg::U64(oaddr)];
            a.extend([c.load.0 as i32, c.box_rows as i32, c.box_bytes() as i32, foot as i32, steps as i32, flip].map(Arg::I32));
            a.push(Arg::U64(maddr));
            a
        };
        w.launch(k, [1, 1, 1], &args(0)).unwrap_or_else(|e| panic!("case {case}: {e}"));
        let image = ob.bytes_mut().to_vec();
        for step in 0..steps {
            for lin in 0..c.box_bytes() {
                let v = c.element((c.load.0, (step * c.box_rows) as i64), lin).map_or(0, |i| src[i]);
                assert_eq!(image[step * foot + guide_byte(span, lin)], v, "case {case} step {step} of {steps}: dense byte {lin}");
            }
        }
        // Waiting at the other parity reads the first slot before its copy lands.
        let e = w.launch(&raced, [1, 1, 1], &args(1)).unwrap_err().to_string();
        assert!(e.contains("shared-memory race") && e.contains("cp.async.bulk.tensor"), "case {case}: {e}");
    }
}

/// A warp group's `wgmma` reading a 64x64 bf16 tile that thread 0 TMA-loads (128-byte
/// swizzle), after waiting on the mbarrier or (`%early`) not.
const WGMMA: &str = r#"
target triple = "nvptx64-nvidia-cuda"
@buf = internal addrspace(3) global [8192 x i8] undef, align 1024
@bar = internal addrspace(3) global i64 undef, align 8

DECLARE

define ptx_kernel void @wg_k(ptr %out, i32 %early, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %map) {
ENTRY
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  %tok = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 8192)
  %dst = addrspacecast ptr addrspace(3) @buf to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 0, i32 0, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %synced
synced:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %e = icmp ne i32 %early, 0
  br i1 %e, label %mma, label %spin
WAIT(spin, @bar, 0, mma)
mma:
  %pi = ptrtoint ptr addrspace(3) @buf to i64
  %sh = lshr i64 %pi, 4
  %lo = and i64 %sh, 16383
  %d = or i64 %lo, FIELDS
  %r = call { float, float, float, float } asm sideeffect "{\0A.reg .pred p;\0Asetp.ne.b32 p, $6, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, $4, $5, p, 1, 1, 0, 0;\0A}", "=f,=f,=f,=f,l,l,r,0,1,2,3"(i64 %d, i64 %d, i32 0, float 0.0, float 0.0, float 0.0, float 0.0)
  %x = extractvalue { float, float, float, float } %r, 0
  %t = zext i32 %tid to i64
  %op = getelementptr float, ptr %out, i64 %t
  store float %x, ptr %op
  ret void
}
"#;

/// `wgmma` operands are checked against TMA loads in flight: waiting first runs, not
/// waiting is a race report naming the copy.
#[test]
fn a_wgmma_on_a_slot_whose_copy_is_in_flight_is_a_race() {
    use weft_compiler::lower::gpu::wgmma_desc::{Desc, SwizzledTile};
    let w = world();
    let tile = SwizzledTile::new(64, 64).unwrap();
    let ir = expand(WGMMA).replace("FIELDS", &Desc::a(tile, 0, 0).fields().to_string());
    let shape = Shape { threads: 128, warp: 32, dynamic_smem: 0 };
    let k = crate::launchable_ir("wg_k", &ir, "wg_k", shape, &[], "sm_90a", Checks::default()).unwrap_or_else(|e| panic!("{e}"));
    let c = Case { elem: TmaElem::Bf16, swizzle: TmaSwizzle::B128, rows: 64, cols: 64, ld: 64, box_rows: 64, box_cols: 64, load: (0, 0), store: (0, 0) };
    let src: Vec<u8> = (0..64 * 64).flat_map(|i: u32| half::bf16::from_f32((i % 7) as f32).to_bits().to_le_bytes()).collect();
    let mut sb = Bytes::new(&src);
    let mut out = Bytes::new(&[0; 4 * 128]);
    let tm = c.param().resolve(&[sb.addr(), 64, 64, 64]).unwrap();
    let mut map = Bytes::new(&TileMap::encode_emulated(&tm).unwrap().0);
    let (oaddr, maddr) = (out.addr(), map.addr());
    let args = |early: i32| [Arg::U64(oaddr), Arg::I32(early), Arg::U64(maddr)];
    w.launch(&k, [1, 1, 1], &args(0)).unwrap_or_else(|e| panic!("{e}"));
    // Each thread's first accumulator: row r of A times row c of A (B is A, K-major).
    let a = |r: usize, k: usize| ((r * 64 + k) % 7) as f32;
    for (t, d) in out.bytes_mut().chunks(4).enumerate() {
        let (r, c) = weft_compiler::lower::gpu::wgmma_desc::d_fragment(t / 32, t % 32, 0);
        let want: f32 = (0..16).map(|k| a(r, k) * a(c, k)).sum();
        assert_eq!(f32::from_le_bytes(d.try_into().unwrap()), want, "thread {t}: D({r}, {c})");
    }
    let e = w.launch(&k, [1, 1, 1], &args(1)).unwrap_err().to_string();
    assert!(e.contains("wgmma.mma_async") && e.contains("shared-memory race") && e.contains("cp.async.bulk.tensor issued by thread 0"), "{e}");
}
