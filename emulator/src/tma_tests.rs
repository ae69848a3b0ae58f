//! TMA and mbarriers executed: a hand-written sm_90a kernel (NVVM intrinsics, as the
//! lowering emits them) in which thread 0 arms an mbarrier with `arrive.expect_tx` and
//! issues one `cp.async.bulk.tensor.2d` load, every thread spins on `try_wait.parity`, then
//! copies the raw shared-memory image out, and thread 0 stores the box back with a TMA
//! store at other coordinates. Random ragged matrices, boxes, element sizes and every
//! swizzle; the image and the matrix afterwards are checked byte by byte against plain index
//! math, with the swizzle written from the CUDA programming guide's tables (the 16-byte
//! chunk of each `span`-byte row XORed with `r % 8`, `(r / 2) % 4`, `(r / 4) % 2`), not from
//! the address-bit form the emulator uses.

use crate::object::Shape;
use crate::Checks;
use weft_runtime::cuda::tensor_map::{TileMap, TmaElem, TmaParam, TmaSwizzle};
use weft_runtime::{Arg, Launchable, LocalOptions, RuntimeError, Topology, World};

/// The intrinsics the test kernels call (at their `DECLARE` line).
const DECLS: &str = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
";

/// The single-copy kernel (see the module docs).
const KERNEL: &str = r#"
target triple = "nvptx64-nvidia-cuda"
@buf = internal addrspace(3) global [16384 x i8] undef, align 1024
@bar = internal addrspace(3) global i64 undef, align 8

DECLARE

define ptx_kernel void @tma_k(ptr %src, i64 %rows, i64 %cols, i64 %ld, ptr %out, i32 %c0, i32 %c1, i32 %tx, i32 %nbytes, i32 %early, i32 %stale, i32 %s0, i32 %s1, i32 %store, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %map) {
ENTRY
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)
  call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %synced
synced:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %t0, label %issue, label %peekq
issue:
  %tok = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %tx)
  %dst = addrspacecast ptr addrspace(3) @buf to ptr addrspace(7)
  call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 %c0, i32 %c1, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %peekq
peekq:
  %early1 = icmp ne i32 %early, 0
  %e = and i1 %early1, %t0
  br i1 %e, label %peek, label %spin
peek:
  %tidp = zext i32 %tid to i64
  %pp = getelementptr i8, ptr addrspace(3) @buf, i64 %tidp
  %pv = load i8, ptr addrspace(3) %pp
  %po = getelementptr i8, ptr %out, i64 %tidp
  store i8 %pv, ptr %po
  br label %spin
WAIT(spin, @bar, 0, waited)
waited:
  %st = icmp ne i32 %stale, 0
  br i1 %st, label %spin1, label %copy
WAIT(spin1, @bar, 1, copy)
copy:
  %n = zext i32 %nbytes to i64
COPY_OUT(0, 0, %n)
done:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %ds = icmp ne i32 %store, 0
  %go = and i1 %t0, %ds
  br i1 %go, label %put, label %exit
put:
  call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @buf, ptr %map, i32 %s0, i32 %s1, i64 0, i1 false)
  call void @llvm.nvvm.cp.async.bulk.commit.group()
  call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  br label %exit
exit:
  ret void
}
"#;

/// `kernel` with [`DECLS`] at its `DECLARE` line, the thread-0 split at `ENTRY`, the spin
/// loops at `WAIT(spin, bar, parity, next)`, and each `COPY_OUT(soff, ooff, n)` written
/// out: the CTA's 32 threads copy shared bytes `soff..soff + n` of `@buf` to `%out + ooff`,
/// entered from block `%copy`.
pub(super) fn expand(kernel: &str) -> String {
    let mut out = String::new();
    for line in kernel.lines() {
        if line == "DECLARE" {
            out.push_str(DECLS);
            continue;
        }
        if line == "ENTRY" {
            // Thread 0 goes to `%init`, the others to `%synced`.
            out.push_str("entry:\n  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  %t0 = icmp eq i32 %tid, 0\n  br i1 %t0, label %init, label %synced\ninit:\n");
            continue;
        }
        if let Some(args) = line.strip_prefix("WAIT(").and_then(|a| a.strip_suffix(')')) {
            // Block `spin` spins on `try_wait.parity` of barrier `bar` at `parity`, then goes to `next`.
            let [spin, bar, parity, next] = args.split(", ").collect::<Vec<_>>()[..] else { panic!("{line}") };
            out.push_str(&format!("{spin}:\n  %ok.{spin} = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) {bar}, i32 {parity})\n  br i1 %ok.{spin}, label %{next}, label %{spin}\n"));
            continue;
        }
        let Some(args) = line.strip_prefix("COPY_OUT(").and_then(|a| a.strip_suffix(')')) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        let [soff, ooff, n] = args.split(", ").collect::<Vec<_>>()[..] else { panic!("{line}") };
        out.push_str(&format!(
            "  %start = zext i32 %tid to i64
  br label %loop
loop:
  %i = phi i64 [ %start, %copy ], [ %next, %body ]
  %more = icmp ult i64 %i, {n}
  br i1 %more, label %body, label %done
body:
  %si = add i64 {soff}, %i
  %sp = getelementptr i8, ptr addrspace(3) @buf, i64 %si
  %v = load i8, ptr addrspace(3) %sp
  %oi = add i64 {ooff}, %i
  %op = getelementptr i8, ptr %out, i64 %oi
  store i8 %v, ptr %op
  %next = add i64 %i, 32
  br label %loop
"
        ));
    }
    out
}

/// [`KERNEL`] with its mbarrier and bulk-copy intrinsics replaced by inline PTX, as CUTLASS
/// writes them (the wait through a `selp` of the predicate).
fn asm_kernel() -> String {
    let pairs = [
        ("call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 1)", r#"call void asm sideeffect "mbarrier.init.shared::cta.b64 [$0], $1;", "l,r"(ptr addrspace(3) @bar, i32 1)"#),
        ("call void @llvm.nvvm.fence.mbarrier_init.release.cluster()", r#"call void asm sideeffect "fence.mbarrier_init.release.cluster;", ""()"#),
        ("%tok = call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @bar, i32 %tx)", r#"call void asm sideeffect "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "l,r"(ptr addrspace(3) @bar, i32 %tx)"#),
        (
            "call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst, ptr addrspace(3) @bar, ptr %map, i32 %c0, i32 %c1, i16 0, i64 0, i1 false, i1 false, i32 0)",
            r#"call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", "l,l,r,r,l"(ptr addrspace(7) %dst, ptr %map, i32 %c0, i32 %c1, ptr addrspace(3) @bar)"#,
        ),
        (
            "%ok.spin = call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @bar, i32 0)",
            "%okw = call i32 asm sideeffect \"{\\0A.reg .pred p;\\0Ambarrier.try_wait.parity.shared::cta.b64 p, [$1], $2;\\0Aselp.u32 $0, 1, 0, p;\\0A}\", \"=r,l,r\"(ptr addrspace(3) @bar, i32 0)\n  %ok.spin = icmp ne i32 %okw, 0",
        ),
        ("call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @buf, ptr %map, i32 %s0, i32 %s1, i64 0, i1 false)", r#"call void asm sideeffect "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$1, $2}], [$3];", "l,r,r,l"(ptr %map, i32 %s0, i32 %s1, ptr addrspace(3) @buf)"#),
        ("call void @llvm.nvvm.cp.async.bulk.commit.group()", r#"call void asm sideeffect "cp.async.bulk.commit_group;", ""()"#),
        ("call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)", r#"call void asm sideeffect "cp.async.bulk.wait_group.read 0;", ""()"#),
    ];
    let mut k = expand(KERNEL);
    for (from, to) in pairs {
        assert!(k.contains(from), "{from}");
        k = k.replace(from, to);
    }
    k
}

/// The kernel with its map filled by the entry from `tma` (or passed as the last argument).
fn kernel(checks: Checks, tma: &[TmaParam]) -> Launchable {
    kernel_of(&expand(KERNEL), checks, tma)
}

fn kernel_of(llvm: &str, checks: Checks, tma: &[TmaParam]) -> Launchable {
    let shape = Shape { threads: 32, warp: 32, dynamic_smem: 0 };
    crate::launchable_ir("tma_k", llvm, "tma_k", shape, tma, "sm_90a", checks).unwrap_or_else(|e| panic!("{e}"))
}

pub(super) fn world() -> World {
    World::local_with(LocalOptions { topology: Topology::single_node(1), emulate: Some("sm_90a"), ..LocalOptions::from_env() }).unwrap()
}

pub(super) struct Rng(pub(super) u64);
impl Rng {
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    pub(super) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo) as u64) as i64
    }
}

/// The shared byte dense box byte `lin` lands at under a `span`-byte swizzle, from the
/// programming guide's tables.
pub(super) fn guide_byte(span: usize, lin: usize) -> usize {
    if span == 0 {
        return lin;
    }
    let (row, chunk) = (lin / span, (lin % span) / 16);
    let phase = match span {
        128 => row % 8,
        64 => (row / 2) % 4,
        _ => (row / 4) % 2,
    };
    row * span + (chunk ^ phase) * 16 + lin % 16
}

/// One random case: matrix, box, coordinates.
pub(super) struct Case {
    pub(super) elem: TmaElem,
    pub(super) swizzle: TmaSwizzle,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) ld: usize,
    pub(super) box_rows: usize,
    pub(super) box_cols: usize,
    pub(super) load: (i64, i64),
    pub(super) store: (i64, i64),
}

impl Case {
    pub(super) fn random(r: &mut Rng) -> Case {
        let elem = [TmaElem::Bf16, TmaElem::F16, TmaElem::F32][r.below(3) as usize];
        let swizzle = [TmaSwizzle::None, TmaSwizzle::B32, TmaSwizzle::B64, TmaSwizzle::B128][r.below(4) as usize];
        let es = elem.bytes() as usize;
        let span = swizzle.span().unwrap_or(128) as usize;
        let box_cols = 16 * (1 + r.below((span / 16) as u64) as usize) / es;
        let box_rows = 1 + r.below(64) as usize;
        let (rows, cols) = (1 + r.below(150) as usize, 1 + r.below(200) as usize);
        let ld = cols.div_ceil(16 / es) * (16 / es) + (16 / es) * r.below(3) as usize;
        let at = |r: &mut Rng, b: usize, n: usize| r.range(-(b as i64), n as i64 + 2);
        let load = (at(r, box_cols, cols), at(r, box_rows, rows));
        let store = (at(r, box_cols, cols), at(r, box_rows, rows));
        Case { elem, swizzle, rows, cols, ld, box_rows, box_cols, load, store }
    }

    pub(super) fn param(&self) -> TmaParam {
        TmaParam { ptr: 0, rows: 1, cols: 2, ld: 3, box_rows: self.box_rows as u32, box_cols: self.box_cols as u32, elem: self.elem, swizzle: self.swizzle }
    }

    pub(super) fn box_bytes(&self) -> usize {
        self.box_rows * self.box_cols * self.elem.bytes() as usize
    }

    /// The matrix byte that dense box byte `lin` of the box at `(c0, c1)` is, if inside it.
    pub(super) fn element(&self, (c0, c1): (i64, i64), lin: usize) -> Option<usize> {
        let es = self.elem.bytes() as usize;
        let (e, b) = (lin / es, lin % es);
        let (gr, gc) = (c1 + (e / self.box_cols) as i64, c0 + (e % self.box_cols) as i64);
        let inside = gr >= 0 && gc >= 0 && (gr as usize) < self.rows && (gc as usize) < self.cols;
        inside.then(|| (gr as usize * self.ld + gc as usize) * es + b)
    }
}

/// 16-byte aligned host bytes (the kernel reads and writes them through raw pointers, as
/// the emulator runs in this process).
pub(super) struct Bytes(Vec<u128>, usize);
impl Bytes {
    pub(super) fn new(data: &[u8]) -> Bytes {
        let mut b = Bytes(vec![0; data.len().div_ceil(16)], data.len());
        b.bytes_mut().copy_from_slice(data);
        b
    }
    pub(super) fn addr(&mut self) -> u64 {
        self.0.as_mut_ptr() as u64
    }
    pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: `len` bytes of the words' memory.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr() as *mut u8, self.1) }
    }
}

/// The shared image, the matrix afterwards, the matrix before.
type Ran = (Vec<u8>, Vec<u8>, Vec<u8>);

/// Runs one case.
fn run(w: &World, k: &Launchable, c: &Case, explicit_map: bool, early: bool, extra_tx: usize, stale: bool) -> Result<Ran, Box<RuntimeError>> {
    let mut r = Rng(c.rows as u64 * 7919 + c.cols as u64);
    let es = c.elem.bytes() as usize;
    let src: Vec<u8> = (0..c.rows * c.ld * es).map(|_| r.below(255) as u8 + 1).collect();
    let mut sb = Bytes::new(&src);
    // The shared footprint: whole 128-byte lines when swizzled.
    let foot = if c.swizzle == TmaSwizzle::None { c.box_bytes() } else { c.box_bytes().div_ceil(128) * 128 };
    let mut ob = Bytes::new(&vec![0; foot]);
    let mut args = vec![Arg::U64(sb.addr()), Arg::I64(c.rows as i64), Arg::I64(c.cols as i64), Arg::I64(c.ld as i64), Arg::U64(ob.addr())];
    let flag = |b: bool| Arg::I32(b as i32);
    args.extend([Arg::I32(c.load.0 as i32), Arg::I32(c.load.1 as i32), Arg::I32((c.box_bytes() + extra_tx) as i32), Arg::I32(foot as i32)]);
    args.extend([flag(early), flag(stale), Arg::I32(c.store.0 as i32), Arg::I32(c.store.1 as i32), flag(true)]);
    let mut map = Bytes::new(&[0; 128]);
    if explicit_map {
        let tm = c.param().resolve(&[sb.addr(), c.rows as u64, c.cols as u64, c.ld as u64]).unwrap();
        map.bytes_mut().copy_from_slice(&TileMap::encode_emulated(&tm).unwrap().0);
        args.push(Arg::U64(map.addr()));
    }
    w.launch(k, [1, 1, 1], &args).map_err(Box::new)?;
    Ok((ob.bytes_mut().to_vec(), sb.bytes_mut().to_vec(), src))
}

/// Checks the image against the guide's swizzle and the matrix against the box stored back.
fn check(c: &Case, image: &[u8], after: &[u8], src: &[u8]) {
    let span = c.swizzle.span().unwrap_or(0) as usize;
    let mut want = src.to_vec();
    for lin in 0..c.box_bytes() {
        let v = c.element(c.load, lin).map_or(0, |i| src[i]);
        assert_eq!(image[guide_byte(span, lin)], v, "{:?} {:?} box {}x{} of {}x{} (ld {}) at {:?}: dense byte {lin}", c.elem, c.swizzle, c.box_rows, c.box_cols, c.rows, c.cols, c.ld, c.load);
        if let Some(i) = c.element(c.store, lin) {
            want[i] = v;
        }
    }
    assert!(after == want, "{:?} {:?}: the matrix after storing the box at {:?} differs at byte {:?}", c.elem, c.swizzle, c.store, after.iter().zip(&want).position(|(a, b)| a != b));
}

#[test]
fn tma_loads_and_stores_random_boxes_of_ragged_matrices_with_every_swizzle() {
    let w = world();
    let mut r = Rng(0x7a13);
    let plain = kernel(Checks::default(), &[]);
    let raced = kernel(Checks { races: true, ..Checks::default() }, &[]);
    let mut seen = std::collections::HashSet::new();
    for i in 0..48 {
        let c = Case::random(&mut r);
        seen.insert(format!("{:?}", c.swizzle));
        let k = if i % 2 == 0 { &plain } else { &raced };
        let (image, after, src) = run(&w, k, &c, true, false, 0, false).unwrap_or_else(|e| panic!("case {i}: {e}"));
        check(&c, &image, &after, &src);
    }
    assert_eq!(seen.len(), 4, "every swizzle: {seen:?}");
}

/// The same through inline PTX.
#[test]
fn inline_ptx_mbarriers_and_bulk_copies_run_as_the_intrinsics_do() {
    let w = world();
    let mut r = Rng(0x7a17);
    let k = kernel_of(&asm_kernel(), Checks { races: true, ..Checks::default() }, &[]);
    for _ in 0..8 {
        let c = Case::random(&mut r);
        let (image, after, src) = run(&w, &k, &c, true, false, 0, false).unwrap();
        check(&c, &image, &after, &src);
    }
}

/// The lowering's path: the map is a `TmaParam` the entry resolves from the arguments.
#[test]
fn tensor_map_parameters_are_filled_from_the_launch_arguments() {
    let w = world();
    let mut r = Rng(0x7a14);
    for _ in 0..3 {
        let c = Case::random(&mut r);
        let k = kernel(Checks::default(), &[c.param()]);
        let (image, after, src) = run(&w, &k, &c, false, false, 0, false).unwrap();
        check(&c, &image, &after, &src);
    }
    // A row stride the driver would refuse: a fault naming the field, not a crash.
    let mut c = Case::random(&mut r);
    c.elem = TmaElem::Bf16;
    c.ld = c.cols.div_ceil(8) * 8 + 1;
    let k = kernel(Checks::default(), &[c.param()]);
    let e = run(&w, &k, &c, false, false, 0, false).unwrap_err().to_string();
    assert!(e.contains("tensor-map parameter 0") && e.contains("row stride"), "{e}");
}

#[test]
fn reading_a_slot_before_its_mbarrier_phase_completes_is_a_race() {
    let w = world();
    let c = Case::random(&mut Rng(0x7a15));
    let k = kernel(Checks { races: true, ..Checks::default() }, &[]);
    let e = run(&w, &k, &c, true, true, 0, false).unwrap_err().to_string();
    assert!(e.contains("shared-memory race") && e.contains("cp.async.bulk.tensor") && e.contains("still writing"), "{e}");
}

#[test]
fn a_phase_that_can_never_complete_is_a_deadlock_report() {
    let w = world();
    let c = Case::random(&mut Rng(0x7a16));
    let k = kernel(Checks::default(), &[]);
    // Waiting again at parity 1 after phase 0 completed: nothing arrives for phase 1.
    let e = run(&w, &k, &c, true, false, 0, true).unwrap_err().to_string();
    assert!(e.contains("mbarrier deadlock") && e.contains("threads 0-31 wait at") && e.contains("for phase 1 (parity 1)") && e.contains("block %spin1") && e.contains("1 of 1 arrivals") && e.contains("`mbarrier.try.wait.parity.scope.cta.space.cta` at kernel `tma_k`"), "{e}");
    // 16 transaction bytes more than the copy delivers.
    let e = run(&w, &k, &c, true, false, 16, false).unwrap_err().to_string();
    assert!(e.contains("mbarrier deadlock") && e.contains("for phase 0 (parity 0)") && e.contains("16 transaction bytes"), "{e}");
}

/// `tma_box` alone at ranks 3 to 5 with traversal strides and NaN fill: each element of the
/// box is found by walking the dimensions outermost first (not the implementation's
/// div/mod), read from host memory, placed by the guide's swizzle, and stored back.
#[test]
fn boxes_of_rank_three_to_five_with_element_strides_load_and_store() {
    use weft_runtime::cuda::tensor_map_emu::EmuTensorMap;
    let mut r = Rng(0x7a18);
    for case in 0..60 {
        let rank = 3 + r.below(3) as usize;
        let (dtype, es) = [(9u8, 2usize), (7, 4), (0, 1), (8, 8)][r.below(4) as usize];
        let swizzle = r.below(4) as u8;
        let span = [128usize, 32, 64, 128][swizzle as usize];
        let mut m = EmuTensorMap { dtype, rank, base: 0, dims: [0; 5], strides: [0; 5], boxes: [0; 5], elem_strides: [0; 5], swizzle, interleave: 0, oob_nan: dtype != 0 && r.below(2) == 0 };
        m.strides[0] = es as u64;
        for i in 0..rank {
            m.dims[i] = 1 + r.below(if i == 0 { 40 } else { 5 });
            m.elem_strides[i] = if i == 0 { 1 } else { 1 + r.below(3) as u32 };
            m.boxes[i] = if i == 0 { (16 * (1 + r.below((span / 16) as u64) as usize) / es) as u32 } else { 1 + r.below(6) as u32 };
            if i > 0 {
                m.strides[i] = (m.strides[i - 1] * m.dims[i - 1]).div_ceil(16) * 16 + 16 * r.below(2);
            }
        }
        let total = (m.strides[rank - 1] * m.dims[rank - 1]) as usize;
        let data: Vec<u8> = (0..total).map(|_| r.below(255) as u8 + 1).collect();
        let mut g = Bytes::new(&data);
        m.base = g.addr();
        m.check().unwrap_or_else(|e| panic!("case {case}: {e}"));
        let coords: Vec<i32> = (0..rank).map(|i| r.range(-(m.boxes[i] as i64), m.dims[i] as i64 + 1) as i32).collect();
        let foot = (m.box_bytes() as usize).div_ceil(128) * 128;
        let mut smem = vec![0u8; foot];
        // SAFETY: in-bounds elements lie in `g`.
        unsafe { crate::tma_box::load(&m, &coords, &mut smem, 0) };
        // The reference walk: box index `j`, outermost dimension first.
        let n: Vec<usize> = (0..rank).map(|i| (m.boxes[i] as usize).div_ceil(m.elem_strides[i] as usize)).collect();
        let mut j = vec![0usize; rank];
        let mut want_back = vec![0u8; total];
        let mut g2 = Bytes::new(&vec![0; total]);
        loop {
            let dense = (0..rank).rev().fold(0, |acc, i| acc * n[i] + j[i]) * es;
            let at: Vec<i64> = (0..rank).map(|i| coords[i] as i64 + (j[i] * m.elem_strides[i] as usize) as i64).collect();
            let inside = (0..rank).all(|i| at[i] >= 0 && (at[i] as u64) < m.dims[i]);
            let off = (0..rank).map(|i| at[i] * m.strides[i] as i64).sum::<i64>() as usize;
            for b in 0..es {
                let nan = match (dtype, b) {
                    (9, 0) => 0xc0,
                    (9, 1) => 0x7f,
                    (7, 2) => 0xc0,
                    (7, 3) => 0x7f,
                    (8, 6) => 0xf8,
                    (8, 7) => 0x7f,
                    _ => 0,
                };
                let v = if inside { data[off + b] } else if m.oob_nan { nan } else { 0 };
                assert_eq!(smem[guide_byte(if swizzle == 0 { 0 } else { span }, dense + b)], v, "case {case} rank {rank} {m:?} at {coords:?}: box {j:?} byte {b}");
                if inside {
                    want_back[off + b] = v;
                }
            }
            // Next box index, innermost fastest.
            let mut i = 0;
            while i < rank && j[i] + 1 == n[i] {
                j[i] = 0;
                i += 1;
            }
            if i == rank {
                break;
            }
            j[i] += 1;
        }
        m.base = g2.addr();
        // SAFETY: as above, into `g2`.
        unsafe { crate::tma_box::store(&m, &coords, &smem, 0) };
        assert!(g2.bytes_mut() == &want_back[..], "case {case}: the stored box differs");
    }
}

/// With the bounds check, a map whose shape overstates its buffer is a report at the copy.
#[test]
fn a_tensor_map_larger_than_its_buffer_is_an_out_of_bounds_report() {
    let w = world();
    let mut c = Case::random(&mut Rng(0x7a19));
    (c.rows, c.load) = (100, (0, 99));
    let es = c.elem.bytes() as usize;
    // Half the rows the map claims.
    let src = w.alloc_bytes(50 * c.ld * es).unwrap();
    let mut out = Bytes::new(&vec![0; 1 << 14]);
    let k = kernel(Checks { bounds: true, ..Checks::default() }, &[c.param()]);
    let mut args = vec![Arg::Buf(src), Arg::I64(100), Arg::I64(c.cols as i64), Arg::I64(c.ld as i64), Arg::U64(out.addr())];
    args.extend([0, 99, c.box_bytes() as i32, 16, 0, 0, 0, 0, 0].map(Arg::I32));
    let e = w.launch(&k, [1, 1, 1], &args).unwrap_err().to_string();
    assert!(e.contains("out-of-bounds global access: cp.async.bulk.tensor touches global bytes"), "{e}");
    // A map the kernel is handed from outside any buffer: named, not read.
    let k = kernel(Checks { bounds: true, ..Checks::default() }, &[]);
    let mut map = Bytes::new(&[0; 128]);
    args.push(Arg::U64(map.addr()));
    let e = w.launch(&k, [1, 1, 1], &args).unwrap_err().to_string();
    assert!(e.contains("neither a tensor-map parameter nor 128 bytes of a buffer the host allocated"), "{e}");
}
