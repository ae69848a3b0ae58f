//! The C ABI between compiled kernels and the runtime.
//!
//! A compiled kernel entry point is `extern "C" fn(ctx: *mut KernelCtx, args: *const u64)`.
//! `args` is one 64-bit slot per kernel argument, in declaration order: pointers are the
//! rank-local address, integers are sign-extended, f32 is its bit pattern in the low 32 bits.
//!
//! Kernels never link against runtime symbols. They call through the function table at
//! `ctx.fns`, so the same object code runs under any transport and loads with plain `dlopen`.
//! The compiler reads the field offsets and table slots below; change them together.

use std::ffi::c_void;

/// Signature of a compiled kernel entry point.
pub type KernelFn = unsafe extern "C" fn(ctx: *mut KernelCtx, args: *const u64);

/// Per program instance state handed to the kernel. Layout is part of the ABI.
#[repr(C)]
#[derive(Debug)]
pub struct KernelCtx {
    /// Runtime function table (offset 0).
    pub fns: *const RtFns,
    /// This rank (offset 8).
    pub rank: i32,
    /// World size (offset 12).
    pub n_ranks: i32,
    /// Program id per axis (offsets 16, 20, 24).
    pub program_id: [i32; 3],
    /// Grid size per axis (offsets 28, 32, 36).
    pub num_programs: [i32; 3],
    /// Rank within its node (offset 40).
    pub local_rank: i32,
    /// Ranks per node (offset 44).
    pub local_size: i32,
    /// Runtime-private per-instance state (offset 48).
    pub inst: *mut c_void,
}

/// Byte offsets of `KernelCtx` fields, read by the compiler's lowering.
pub mod ctx_offset {
    /// `fns`
    pub const FNS: usize = 0;
    /// `rank`
    pub const RANK: usize = 8;
    /// `n_ranks`
    pub const N_RANKS: usize = 12;
    /// `program_id[0]`
    pub const PROGRAM_ID: usize = 16;
    /// `num_programs[0]`
    pub const NUM_PROGRAMS: usize = 28;
    /// `local_rank`
    pub const LOCAL_RANK: usize = 40;
    /// `local_size`
    pub const LOCAL_SIZE: usize = 44;
}

/// `flags` bits for data movement calls.
pub mod flags {
    /// Non-blocking: completion is only guaranteed after `quiet` / `barrier_all`.
    pub const NBI: i32 = 1;
    /// Scope is encoded in bits 1..=2: 0 thread, 1 warp, 2 block (a hint on the CPU).
    pub const SCOPE_SHIFT: i32 = 1;
}

/// Signal operation codes (`sig_op`), as in NVSHMEM.
pub mod sig_op {
    /// Overwrite the signal.
    pub const SET: i32 = 0;
    /// Atomically add to the signal.
    pub const ADD: i32 = 1;
}

/// Comparison codes for `signal_wait_until`, as in NVSHMEM (`NVSHMEM_CMP_*`).
pub mod cmp {
    /// `==`
    pub const EQ: i32 = 0;
    /// `!=`
    pub const NE: i32 = 1;
    /// `>`
    pub const GT: i32 = 2;
    /// `<=`
    pub const LE: i32 = 3;
    /// `<`
    pub const LT: i32 = 4;
    /// `>=`
    pub const GE: i32 = 5;
}

/// The runtime entry points a kernel may call. Slot `i` is at byte offset `8 * i`.
///
/// `site` arguments index the kernel's site table (op name + IR source location), so that
/// deadlock and misuse reports can name the op. Pointers are rank-local addresses into the
/// symmetric heap unless stated otherwise.
#[repr(C)]
pub struct RtFns {
    /// 0: address of `ptr` (a local symmetric address) on rank `pe`.
    pub remote_ptr: unsafe extern "C" fn(ctx: *mut KernelCtx, ptr: *mut u8, pe: i32, site: i32) -> *mut u8,
    /// 1: copy `bytes` from local `src` to `dst` on rank `pe`.
    pub put: unsafe extern "C" fn(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, flags: i32, site: i32),
    /// 2: copy `bytes` from `src` on rank `pe` to local `dst`.
    pub get: unsafe extern "C" fn(ctx: *mut KernelCtx, dst: *mut u8, src: *const u8, bytes: i64, pe: i32, flags: i32, site: i32),
    /// 3: `put`, then (release) apply `sig_op` with `value` to the u64 at `sig` on rank `pe`.
    pub put_signal: unsafe extern "C" fn(
        ctx: *mut KernelCtx,
        dst: *mut u8,
        src: *const u8,
        bytes: i64,
        sig: *mut u64,
        value: u64,
        sig_op: i32,
        pe: i32,
        flags: i32,
        site: i32,
    ),
    /// 4: apply `sig_op` with `value` (release) to the u64 at `sig` on rank `pe`.
    pub signal_op: unsafe extern "C" fn(ctx: *mut KernelCtx, sig: *mut u64, value: u64, sig_op: i32, pe: i32, site: i32),
    /// 5: block (yielding to the scheduler) until `*sig <cmp> value` (acquire); returns the value seen.
    pub signal_wait_until: unsafe extern "C" fn(ctx: *mut KernelCtx, sig: *mut u64, cmp: i32, value: u64, site: i32) -> u64,
    /// 6: order this instance's earlier puts before its later ones.
    pub fence: unsafe extern "C" fn(ctx: *mut KernelCtx, site: i32),
    /// 7: complete this instance's outstanding nbi operations.
    pub quiet: unsafe extern "C" fn(ctx: *mut KernelCtx, site: i32),
    /// 8: quiet, then wait until every program instance of every rank has arrived.
    pub barrier_all: unsafe extern "C" fn(ctx: *mut KernelCtx, site: i32),
    /// 9: byte distance from this rank's heap to rank `pe`'s heap (for vectorised remote access).
    pub peer_delta: unsafe extern "C" fn(ctx: *mut KernelCtx, pe: i32, site: i32) -> i64,
    /// 10: a polling loop (e.g. `ll_recv`) found nothing new; yield and report `addr` if it never will.
    pub spin_yield: unsafe extern "C" fn(ctx: *mut KernelCtx, addr: *const u8, site: i32),
    /// 11: quiet, then wait until one program instance of every rank has arrived (a PE-level
    /// barrier, as NVSHMEM's `barrier_all` entered by one CTA per PE; used by the emulator).
    pub barrier_ranks: unsafe extern "C" fn(ctx: *mut KernelCtx, site: i32),
    /// 12: stop the launch with a kernel fault carrying the UTF-8 message `msg[..len]`.
    pub fault: unsafe extern "C" fn(ctx: *mut KernelCtx, msg: *const u8, len: usize, site: i32),
    /// 13: `bytes` of zeroed memory private to this rank for the launch, the same for every
    /// instance of the rank (a GPU module's global variables; used by the emulator).
    pub rank_scratch: unsafe extern "C" fn(ctx: *mut KernelCtx, bytes: usize, site: i32) -> *mut u8,
    /// 14: this rank's device area (`heap::DEVICE_AREA_BYTES` zeroed bytes kept across launches,
    /// at the same offset from every rank's heap base; used by the emulator).
    pub device_area: unsafe extern "C" fn(ctx: *mut KernelCtx, site: i32) -> *mut u8,
    /// 15: bytes from `addr` to the end of the host allocation (any rank's) or device area
    /// holding it, -1 outside every one (the emulator's bounds check).
    pub extent: unsafe extern "C" fn(ctx: *mut KernelCtx, addr: *const u8, site: i32) -> i64,
    /// 16: a tile load or store of a kernel compiled with race checks: `n` lanes of
    /// `lane_bytes` each at `base + i * lane_bytes`, or at `lanes[i]` when `lanes` is not null
    /// (address 0: the lane is off), the lanes whose `mask` byte is 0 off when `mask` is not
    /// null; `kind` is one of [`access`]'s codes. Only the race detector reads it.
    pub access: unsafe extern "C" fn(ctx: *mut KernelCtx, base: u64, lanes: *const u64, mask: *const u8, n: i64, lane_bytes: i64, kind: i32, site: i32),
}

/// `kind` codes of [`RtFns::access`].
pub mod access {
    /// The lanes are read.
    pub const READ: i32 = 0;
    /// The lanes are written.
    pub const WRITE: i32 = 1;
    /// LL words are about to be stored to the lanes: a write, then a release (the flag in
    /// every word publishes the data beside it).
    pub const LL_RELEASE: i32 = 2;
    /// An `ll_recv` saw its words in the lanes: an acquire, and a read of them that waited
    /// for whatever stored them.
    pub const LL_ACQUIRE: i32 = 3;
}

/// Slot indices into [`RtFns`], read by the compiler's lowering.
pub mod slot {
    /// [`super::RtFns::remote_ptr`]
    pub const REMOTE_PTR: usize = 0;
    /// [`super::RtFns::put`]
    pub const PUT: usize = 1;
    /// [`super::RtFns::get`]
    pub const GET: usize = 2;
    /// [`super::RtFns::put_signal`]
    pub const PUT_SIGNAL: usize = 3;
    /// [`super::RtFns::signal_op`]
    pub const SIGNAL_OP: usize = 4;
    /// [`super::RtFns::signal_wait_until`]
    pub const SIGNAL_WAIT_UNTIL: usize = 5;
    /// [`super::RtFns::fence`]
    pub const FENCE: usize = 6;
    /// [`super::RtFns::quiet`]
    pub const QUIET: usize = 7;
    /// [`super::RtFns::barrier_all`]
    pub const BARRIER_ALL: usize = 8;
    /// [`super::RtFns::peer_delta`]
    pub const PEER_DELTA: usize = 9;
    /// [`super::RtFns::spin_yield`]
    pub const SPIN_YIELD: usize = 10;
    /// [`super::RtFns::barrier_ranks`]
    pub const BARRIER_RANKS: usize = 11;
    /// [`super::RtFns::fault`]
    pub const FAULT: usize = 12;
    /// [`super::RtFns::rank_scratch`]
    pub const RANK_SCRATCH: usize = 13;
    /// [`super::RtFns::device_area`]
    pub const DEVICE_AREA: usize = 14;
    /// [`super::RtFns::extent`]
    pub const EXTENT: usize = 15;
    /// [`super::RtFns::access`]
    pub const ACCESS: usize = 16;
}

const _: () = {
    assert!(std::mem::offset_of!(KernelCtx, rank) == ctx_offset::RANK);
    assert!(std::mem::offset_of!(KernelCtx, n_ranks) == ctx_offset::N_RANKS);
    assert!(std::mem::offset_of!(KernelCtx, program_id) == ctx_offset::PROGRAM_ID);
    assert!(std::mem::offset_of!(KernelCtx, num_programs) == ctx_offset::NUM_PROGRAMS);
    assert!(std::mem::offset_of!(KernelCtx, local_rank) == ctx_offset::LOCAL_RANK);
    assert!(std::mem::offset_of!(KernelCtx, local_size) == ctx_offset::LOCAL_SIZE);
    assert!(std::mem::offset_of!(RtFns, spin_yield) == 8 * slot::SPIN_YIELD);
    assert!(std::mem::offset_of!(RtFns, rank_scratch) == 8 * slot::RANK_SCRATCH);
    assert!(std::mem::offset_of!(RtFns, access) == 8 * slot::ACCESS);
};
