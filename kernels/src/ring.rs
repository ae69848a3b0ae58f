//! The engine of the pipelined ring collectives (`allreduce_ring`, `allreduce_ring_bidir`,
//! `reduce_scatter_bidir`, `allgather_bidir`): a ReduceScatter ring and an AllGather ring over
//! one direction or both, each segment cut into chunks. A chunk goes through all its steps
//! before the next chunk starts (NCCL's ring loop), and moves on to the next rank as soon as
//! its step is done, so the ranks work on the same chunk in a wavefront, one step apart.
//! Every rank runs its steps in the same order, and each wait is for a peer's earlier step,
//! so the rings cannot deadlock (going step by step over all chunks would: at step 0 every
//! rank sends more chunks than its neighbour has slots before anyone receives).
//!
//! * ReduceScatter: partials travel through `RING_SLOTS` receive slots per (direction, program)
//!   (the MSCCL lowering's FIFO): message `k` goes to slot `k % RING_SLOTS`, and the sender
//!   first waits for the receiver's credit for message `k - RING_SLOTS`, so a fast sender never
//!   overwrites a slot that has not been read. Only the incoming partial and a one-chunk stage
//!   are touched besides the input, so the slots stay in cache (on a GPU, in L2).
//! * With `P2P=1` (every rank reachable by load/store: `prepare` sets it for CPU code on one
//!   node) a rank stores each partial sum straight into the next rank's slot and then signals,
//!   instead of staging it and putting the stage: one pass over the chunk, not two (the stage's
//!   store, then the put's load and store), so a middle step reads two chunks and writes one.
//!   Step 0 sends nothing then: step 1 reads `prev`'s input in place (it is the partial step 0
//!   would have sent). GPU code keeps the puts: a kernel using `remote_ptr` needs a P2P path to
//!   every PE.
//! * AllGather: reduced chunks are put straight into the peers' outputs (every chunk has its
//!   own place there), so it needs arrival counters only.
//! * Bidirectional: each program's share of a segment is halved; the first half travels towards
//!   `me + 1`, the second towards `me - 1`, each over its own slots and signals, interleaved
//!   chunk by chunk in one program (Pallas' bidirectional ReduceScatter).
//!
//! Signals count messages from a per-launch base (`epoch << 32`), so nothing is cleared
//! between launches. Like the MSCCL lowering, the last `RING_SLOTS` credits of a launch are
//! not sent (nothing waits for them): a launch starts once the previous one has finished.

use crate::common::*;
use weft_compiler::dsl::shmem::*;
use weft_compiler::dsl::*;
use weft_compiler::ir::Scalar;

/// Receive slots per (direction, program): how many chunks a sender may run ahead.
pub const RING_SLOTS: usize = 4;
/// Signal words per (direction, program): ReduceScatter arrivals, credits, AllGather arrivals.
pub const RING_SIGNALS: usize = 3;
/// GPU chunk in elements (32 KiB of f32 partials: a CTA's slots stay in L2).
pub const RING_CHUNK: usize = 8 << 10;
/// Chunks per lane (direction, program) on the CPU (see [`ring_chunk`]).
pub const RING_CPU_CHUNKS: usize = 2;
/// The largest CPU chunk in elements (256 KiB of f32 partials: a lane's slots fit a core's L2).
pub const RING_CPU_CHUNK_MAX: usize = 64 << 10;

/// Program instances per rank for `elems` elements per rank: the collectives' rule (one per
/// 64 Ki elements, at most 4), but one for the AllReduce rings' CPU code (`cpu_ring`). There
/// every instance is a coroutine that the workers switch between at each of its
/// `2 (world - 1)` steps per chunk, and the ranks alone give the workers enough instances:
/// on one worker at 1 MiB, 2/4/8 ranks, one program runs at 91-96 / 89-95 / 107-122 % of
/// memcpy, four at 84-86 / 76-85 / 74-87 % (load 10).
pub fn ring_programs(elems: usize, cpu_ring: bool) -> usize {
    if cpu_ring { 1 } else { elems.div_ceil(64 << 10).clamp(1, 4) }
}

/// The chunk size for a lane whose share of a segment is at most `share` elements, capped by
/// `cap` (`-D CHUNK=`). GPU code gets [`RING_CHUNK`]: a chunk moves on to the next rank while
/// the next one is reduced. CPU code gets the share in [`RING_CPU_CHUNKS`] pieces: there a put
/// is a memcpy by the sender itself, so nothing overlaps, and every chunk is a handoff between
/// worker threads (on a loaded machine, a wait for the other thread's next time slice); at
/// most [`RING_CPU_CHUNK_MAX`], so a partial stored into the next rank's slot is still in
/// the caches when that rank reads it (one program, 16 / 64 MiB at 4 and 8 ranks: 105-137 %
/// of memcpy against 81-105 % uncapped, load 11).
pub fn ring_chunk(share: usize, gpu: bool, cap: Option<usize>) -> usize {
    let default = if gpu { RING_CHUNK } else { share.div_ceil(RING_CPU_CHUNKS).min(RING_CPU_CHUNK_MAX) };
    share.min(cap.unwrap_or(default)).max(1)
}

/// One direction of the ring, as seen by this program instance.
#[derive(Clone, Copy)]
pub(crate) struct Dir {
    /// 0 for the half that travels towards `me + 1`, 1 for the other.
    d: i64,
    /// +1 or -1: the step from a rank to the one it sends to.
    sign: i32,
    next: Val,
    prev: Val,
    /// Index of (direction, program): which signals, slots and stage are this direction's.
    lane: Val,
    /// Its signal words (symmetric, so also the peers' words at the same address).
    arrived: Val,
    credit: Val,
    gathered: Val,
}

/// A pipelined ring over one program instance's share of every segment.
pub(crate) struct Pipe {
    dirs: Vec<Dir>,
    /// Elements per chunk, chunks per (segment, direction), per-launch signal base.
    chunk: Val,
    chunks: Val,
    base: Val,
    me: Val,
    world: Val,
    /// This program's `[start, end)` of segment `x` (i64, in the output's coordinates).
    share: Box<dyn Fn(Val) -> (Val, Val)>,
}

/// The ring's signals (`RING_SIGNALS` words per direction and program), chunk size and epoch.
pub(crate) struct PipeArgs {
    pub(crate) sig: Val,
    pub(crate) chunk: Val,
    pub(crate) epoch: Val,
}

/// What the ReduceScatter ring adds: `RING_SLOTS` receive slots and one stage of `chunk`
/// elements per direction and program (accumulator type), and whether partials are stored
/// straight into the next rank's slots (`P2P`, see the module doc; the stage is unused then).
#[derive(Clone, Copy)]
pub(crate) struct Slots {
    pub(crate) slots: Val,
    pub(crate) stage: Val,
    pub(crate) p2p: bool,
}

/// The `P2P` constexpr (0 or 1, absent = 0): store to peers through `remote_ptr`.
pub(crate) fn p2p(c: &Constexprs) -> Result<bool, DslError> {
    c.flag("P2P")
}

/// The arguments of the ring ReduceScatter kernels: `inp, out, slots, stage, sig, n, segmax,
/// chunk, epoch`, as `(inp, out, slots, ring, n, segmax)`.
pub(crate) fn reduce_args(a: &mut Args, cfg: &Config, p2p: bool) -> (Val, Val, Slots, PipeArgs, Val, Val) {
    let acc = cfg.acc();
    let (inp, out) = (a.ptr("inp", cfg.t), a.ptr("out", cfg.t));
    let slots = Slots { slots: a.ptr("slots", acc), stage: a.ptr("stage", acc), p2p };
    let sig = a.ptr("sig", Scalar::I64);
    let (n, segmax, chunk, epoch) = (a.i64("n"), a.i64("segmax"), a.i64("chunk"), a.i64("epoch"));
    (inp, out, slots, PipeArgs { sig, chunk, epoch }, n, segmax)
}

impl Pipe {
    /// A ring over `ndirs` (1 or 2) directions; `share(x)` is this program's part of segment `x`
    /// and `longest` bounds its length for every segment.
    pub(crate) fn new(b: &PipeArgs, ndirs: i64, longest: Val, share: Box<dyn Fn(Val) -> (Val, Val)>) -> Pipe {
        let (me, world) = (my_pe(), n_pes());
        let chunk = maximum(b.chunk, 1i64);
        let chunks = maximum(cdiv(cdiv(longest, ndirs), chunk), 1i64);
        let (pid, nprog) = (program_id(0).to(Scalar::I64), num_programs(0).to(Scalar::I64));
        let dirs = (0..ndirs)
            .map(|d| {
                let sign = if d == 0 { 1 } else { -1 };
                let lane = d * nprog + pid;
                let sig = b.sig + lane * RING_SIGNALS as i64;
                Dir {
                    d,
                    sign,
                    next: peer(me, sign, world),
                    prev: peer(me, -sign, world),
                    arrived: sig,
                    credit: sig + 1i64,
                    gathered: sig + 2i64,
                    lane,
                }
            })
            .collect();
        Pipe { dirs, chunk, chunks, base: b.epoch.to(Scalar::I64) << 32i64, me, world, share }
    }

    /// Chunk `c` of direction `dir`'s half of segment `x`: absolute `[start, end)`.
    fn piece(&self, dir: &Dir, x: Val, c: Val) -> (Val, Val) {
        let (s, e) = (self.share)(x);
        let (lo, hi) = if self.dirs.len() == 1 {
            (s, e)
        } else {
            let mid = s + cdiv(e - s, 2i64);
            if dir.d == 0 { (s, mid) } else { (mid, e) }
        };
        let cs = minimum(lo + c * self.chunk, hi);
        (cs, minimum(cs + self.chunk, hi))
    }

    /// The segment a direction handles at step `s`: `me - sign * (s + offset)`.
    fn segment(&self, dir: &Dir, s: Val, offset: i32) -> Val {
        peer(self.me, -(s + offset) * dir.sign, self.world)
    }

    /// Signal value of message `k` (i64).
    fn seq(&self, k: Val) -> Val {
        self.base + k + 1i64
    }

    /// Index of the AllGather message that carries step `s` of chunk `c` (a chunk's steps are
    /// consecutive).
    fn msg(&self, c: Val, s: Val) -> Val {
        c * (self.world - 1).to(Scalar::I64) + s.to(Scalar::I64)
    }

    /// Runs `body(dir, c)` for every chunk `c`, both directions interleaved.
    pub(crate) fn for_chunks(&self, body: &dyn Fn(&Dir, Val)) {
        for_range(0i64, self.chunks, 1i64, |c| {
            for dir in &self.dirs {
                body(dir, c);
            }
        });
    }

    /// Chunk `c` of `dir`'s half of this rank's own segment.
    pub(crate) fn own(&self, dir: &Dir, c: Val) -> (Val, Val) {
        self.piece(dir, self.me, c)
    }

    /// The ReduceScatter ring for chunk `c`: at step `s` a rank adds its input to the partial
    /// of segment `me - sign (s + 1)` that arrived from `prev` (none at step 0) and sends it
    /// on; at the last step the segment is `me`'s own and `finish(offsets, mask, sum)` gets
    /// each tile of the full sum (in the accumulator type).
    pub(crate) fn reduce_scatter(&self, cfg: &Config, inp: Val, bufs: Slots, dir: &Dir, c: Val, finish: &dyn Fn(Val, Val, Val)) {
        let rs = RsChunk::new(self, cfg, inp, bufs, dir, c);
        let zero = constant(0, Scalar::I32, &[]);
        if bufs.p2p {
            // Step 0 sends nothing: step 1 reads `prev`'s input where it lies (the input does
            // not change during a launch), sparing a copy of the chunk into a slot and back
            // out: a third of the passes over memory at two ranks.
            if_(self.world.eq_(1), || rs.step(zero, Recv::Nothing, finish));
            if_(self.world.gt(1), || rs.step(zero + 1, Recv::Input(remote_ptr(inp, dir.prev)), finish));
            for_range(2, self.world, 1, |s| rs.step(s, Recv::Slot, finish));
            return;
        }
        // Step 0 sends the input unchanged: when it is already in the accumulator type it is
        // put straight from `inp`, sparing a pass through the stage (a load and a store of
        // every element of the chunk: half of the ReduceScatter's passes at two ranks).
        let first = if cfg.t == cfg.acc() {
            if_(self.world.gt(1), || {
                let (ps, pe) = rs.piece(zero);
                rs.put(zero, inp + ps, (ps, pe));
            });
            // A world of one has no step to skip: its step 0 is the last, which finishes.
            minimum(self.world - 1, 1)
        } else {
            zero
        };
        for_range(first, self.world, 1, |s| rs.step(s, Recv::Slot, finish));
    }

    /// Message `k`'s signal to `next` after its data was stored there through `remote_ptr`.
    fn stored(&self, sig: Val, dir: &Dir, k: Val) {
        fence();
        signal_op(sig, self.seq(k), Signal::Set, dir.next);
    }

    /// `p` (symmetric) on the rank `dir` sends to.
    pub(crate) fn at_next(&self, dir: &Dir, p: Val) -> Val {
        remote_ptr(p, dir.next)
    }

    /// Step 0 of the AllGather ring for chunk `c` when its data was already stored into
    /// `next`'s output (through [`Pipe::at_next`]): the signal alone.
    pub(crate) fn gather_stored(&self, dir: &Dir, c: Val) {
        if_(self.world.gt(1), || self.stored(dir.gathered, dir, self.msg(c, constant(0, Scalar::I32, &[]))));
    }

    /// Puts `[start, end)` of `out` (chunk `c` of segment `me - sign t`) to `next` as step `t`
    /// of the AllGather ring.
    pub(crate) fn gather_push(&self, dir: &Dir, out: Val, (start, end): (Val, Val), c: Val, t: Val) {
        let k = self.seq(self.msg(c, t));
        if_(self.world.gt(1), || put_signal(out + start, out + start, end - start, dir.gathered, k, dir.next, PutSignal::default()));
    }

    /// The AllGather ring for chunk `c` after this rank pushed its own (step 0): at step `t`
    /// segment `me - sign t` arrives from `prev`, and is forwarded unless `next` owns it.
    pub(crate) fn gather(&self, dir: &Dir, out: Val, c: Val) {
        for_range(1, self.world, 1, |t| {
            let _ = wait_until(dir.gathered, Cmp::Ge, self.seq(self.msg(c, t - 1)));
            if_(t.lt(self.world - 1), || self.gather_push(dir, out, self.piece(dir, self.segment(dir, t, 0), c), c, t));
        });
    }
}

/// Where a ReduceScatter step's incoming partial comes from.
enum Recv {
    /// None (a world of one).
    Nothing,
    /// `prev`'s input itself (step 1 with `P2P`), absolute coordinates, the input's type.
    Input(Val),
    /// The receive slot of the message from step `s - 1` (none at step 0: loads masked off).
    Slot,
}

/// One chunk of one direction's ReduceScatter: its messages, slots and steps.
struct RsChunk<'a> {
    pipe: &'a Pipe,
    cfg: &'a Config,
    inp: Val,
    bufs: Slots,
    dir: &'a Dir,
    c: Val,
    /// Messages per chunk (steps that send one), and the first step that sends one.
    hops: Val,
    first: i64,
    /// Messages in this launch: the last `RING_SLOTS` are never credited.
    total: Val,
    my_slots: Val,
    my_stage: Val,
}

impl<'a> RsChunk<'a> {
    fn new(pipe: &'a Pipe, cfg: &'a Config, inp: Val, bufs: Slots, dir: &'a Dir, c: Val) -> RsChunk<'a> {
        // With P2P step 0 sends nothing (step 1 reads `prev`'s input), so messages count from step 1.
        let first = i64::from(bufs.p2p);
        let hops = maximum((pipe.world - 1).to(Scalar::I64) - first, 0i64);
        let slots = RING_SLOTS as i64;
        let (my_slots, my_stage) = (bufs.slots + dir.lane * slots * pipe.chunk, bufs.stage + dir.lane * pipe.chunk);
        RsChunk { pipe, cfg, inp, bufs, dir, c, hops, first, total: hops * pipe.chunks, my_slots, my_stage }
    }

    /// Index of the message step `s` sends (the steps of a chunk send consecutive messages).
    fn msg(&self, s: Val) -> Val {
        self.c * self.hops + s.to(Scalar::I64) - self.first
    }

    /// This chunk of the segment step `s` works on, absolute `[start, end)`.
    fn piece(&self, s: Val) -> (Val, Val) {
        self.pipe.piece(self.dir, self.pipe.segment(self.dir, s, 1), self.c)
    }

    fn slot_of(&self, k: Val) -> Val {
        self.my_slots + (k % RING_SLOTS as i64) * self.pipe.chunk
    }

    /// Waits until `next` has read the message that used message `k`'s slot before.
    fn credit(&self, k: Val) {
        let slots = RING_SLOTS as i64;
        if_(k.ge(slots), || {
            let _ = wait_until(self.dir.credit, Cmp::Ge, self.pipe.seq(k - slots));
        })
    }

    /// Puts `[ps, pe)` from `src` as step `s`'s message into `next`'s slot, with its signal.
    fn put(&self, s: Val, src: Val, (ps, pe): (Val, Val)) {
        let k = self.msg(s);
        self.credit(k);
        put_signal(self.slot_of(k), src, pe - ps, self.dir.arrived, self.pipe.seq(k), self.dir.next, PutSignal::default());
    }

    /// Step `s`: the incoming partial plus this rank's input, sent on (middle steps) or
    /// handed to `finish` (the last step).
    fn step(&self, s: Val, recv: Recv, finish: &dyn Fn(Val, Val, Val)) {
        let (pipe, dir, acc) = (self.pipe, self.dir, self.cfg.acc());
        let (ps, pe) = self.piece(s);
        let (last, more) = (s.eq_(pipe.world - 1), s.lt(pipe.world - 1));
        let krecv = self.msg(s - 1);
        let has_recv = s.gt(0);
        // The partial's pointer (in `ps`-relative coordinates for a slot) and its mask.
        let partial = match recv {
            Recv::Nothing => None,
            Recv::Input(p) => Some((p, None)),
            Recv::Slot => {
                // Step 0 receives nothing: its wait (for 0, signals compare unsigned) returns
                // at once and its loads are masked off.
                let tok = wait_until(dir.arrived, Cmp::Ge, select(has_recv, pipe.seq(krecv), 0i64));
                Some((consume_token(self.slot_of(maximum(krecv, 0i64)) - ps, tok), Some(has_recv)))
            }
        };
        // Where a middle step's sum goes: the stage, or with P2P the next rank's slot.
        let ksend = self.msg(s);
        let to = if self.bufs.p2p {
            if_(more, || self.credit(ksend));
            pipe.at_next(dir, self.slot_of(ksend)) - ps
        } else {
            self.my_stage - ps
        };
        for_tiles(ps, pe, self.cfg.block, |offs, m| {
            let mine = load_masked(self.inp + offs, m, 0).to(acc);
            let sum = match partial {
                None => mine,
                Some((p, live)) => load_masked(p + offs, live.map_or(m, |l| m & l), 0).to(acc) + mine,
            };
            // Branches, not masks: a store whose mask is all false still costs a microcode
            // assist per vector on x86 when its page was never written (the stage, once
            // step 0 skips it), which made a two-rank launch ~10x slower.
            if_(more, || store_masked(to + offs, sum, m));
            if_(last, || finish(offs, m, sum));
        });
        if matches!(recv, Recv::Slot) {
            // The slot is read: `prev` may reuse it (the last credits are never waited for).
            let slots = RING_SLOTS as i64;
            if_(has_recv & (krecv + slots).lt(self.total), || signal_op(dir.credit, pipe.seq(krecv), Signal::Set, dir.prev));
        }
        if self.bufs.p2p {
            if_(more, || pipe.stored(dir.arrived, dir, ksend));
        } else {
            if_(more, || self.put(s, self.my_stage, (ps, pe)));
        }
    }
}
