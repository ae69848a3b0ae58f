//! What the lowered kernel and its host agree on, computed from the MSCCL-IR alone:
//! connection and dependency numbering, the thread-block shapes that share code, and the
//! operand table every program instance reads its peers and chunk indices from.

use std::collections::{BTreeMap, HashMap};

use super::super::buffer::Buffer;
use super::super::error::{MscclError, Result};
use super::super::ir::{MscclIr, StepKind, ThreadBlock};
use super::super::protocol::Protocol;

/// Table entries of a thread block's row before its steps (see [`RowField`]).
pub const ROW_HEADER: usize = 9;
/// Table entries per step (see [`StepField`]).
pub const STEP_FIELDS: usize = 10;
/// Above this many step bodies over all shapes, the kernel runs every thread block through
/// one table-driven step loop instead of a code body per shape: code then grows with the
/// step kinds used, not with ranks times steps.
pub const SPECIALIZE_MAX_STEPS: usize = 64;

/// The fields of one step in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepField {
    /// Chunk index of `src`.
    SrcChunk = 0,
    /// Chunk index of `dst`.
    DstChunk = 1,
    /// Completion slot waited on first (-1: none).
    Dep = 2,
    /// Completion slot set afterwards (-1: none).
    Done = 3,
    /// Position of the kind in [`StepKind::ALL`].
    Kind = 4,
    /// Consecutive chunks.
    Count = 5,
    /// Buffer of `src` ([`buffer_slot`]; -1: unused).
    SrcBuf = 6,
    /// Buffer of `dst`.
    DstBuf = 7,
    /// Position among the thread block's sends per iteration (-1: none).
    SendJ = 8,
    /// Position among its receives.
    RecvJ = 9,
}
/// Table entries per (rank, program) header: shape id (-1: idle) and row offset.
pub const HEADER_FIELDS: usize = 2;

/// The fields at the start of a thread block's table row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowField {
    /// Rank this thread block sends to.
    SendPeer = 0,
    /// Rank it receives from.
    RecvPeer = 1,
    /// Index of the outgoing connection among the send peer's incoming ones (its slots and arrival signal).
    PeerInIdx = 2,
    /// Index of the outgoing connection among this rank's outgoing ones (its credit signal).
    MyOutIdx = 3,
    /// Index of the incoming connection among this rank's incoming ones.
    MyInIdx = 4,
    /// Index of the incoming connection among the receive peer's outgoing ones.
    PeerOutIdx = 5,
    /// Steps.
    Steps = 6,
    /// Sends per pipeline iteration.
    Sends = 7,
    /// Receives per pipeline iteration.
    Recvs = 8,
}

/// One step as the code generator sees it: everything but the numbers in the table.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StepShape {
    /// Step type.
    pub kind: StepKind,
    /// Consecutive chunks moved.
    pub count: usize,
    /// Buffer read as `src` (only where the kind reads it).
    pub src: Option<Buffer>,
    /// Buffer written as `dst` (only where the kind writes it).
    pub dst: Option<Buffer>,
    /// Waits on another thread block first.
    pub dep: bool,
    /// Signals completion afterwards.
    pub done: bool,
    /// Position among the thread block's sends in one pipeline iteration.
    pub send_j: Option<usize>,
    /// Position among its receives.
    pub recv_j: Option<usize>,
}

/// A thread-block shape: thread blocks with the same step shapes share one code body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TbShape {
    /// Steps in order.
    pub steps: Vec<StepShape>,
    /// Sends per pipeline iteration.
    pub sends: usize,
    /// Receives per pipeline iteration.
    pub recvs: usize,
}

impl TbShape {
    fn of(tb: &ThreadBlock) -> TbShape {
        let (mut sends, mut recvs) = (0, 0);
        let steps = tb
            .steps
            .iter()
            .map(|s| {
                let send_j = s.kind.sends().then(|| {
                    sends += 1;
                    sends - 1
                });
                let recv_j = s.kind.receives().then(|| {
                    recvs += 1;
                    recvs - 1
                });
                StepShape {
                    kind: s.kind,
                    count: s.count.max(1),
                    src: s.src.filter(|_| s.kind.reads_src()).map(|b| b.buffer),
                    dst: s.dst.filter(|_| s.kind.writes_dst()).map(|b| b.buffer),
                    dep: s.dep.is_some(),
                    done: s.has_dep,
                    send_j,
                    recv_j,
                }
            })
            .collect();
        TbShape { steps, sends, recvs }
    }
}

/// The lowering's layout of one MSCCL-IR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Protocol.
    pub protocol: Protocol,
    /// FIFO slots per connection.
    pub slots: usize,
    /// Program instances per rank (the most thread blocks any rank has).
    pub grid: usize,
    /// Ranks.
    pub ranks: usize,
    /// Most chunks one step moves: a slot holds this many tiles.
    pub max_count: usize,
    /// Most incoming connections of any rank (slot regions and arrival signals).
    pub max_in: usize,
    /// Most outgoing connections of any rank (credit signals).
    pub max_out: usize,
    /// Most completion signals of any rank.
    pub max_deps: usize,
    /// Most messages one connection carries per pipeline iteration.
    pub max_msgs: usize,
    /// Chunks of each buffer, the most over ranks.
    pub chunks: [usize; 3],
    /// Distinct thread-block shapes, in shape-id order.
    pub shapes: Vec<TbShape>,
    /// Whether every thread block runs the table-driven step loop (shape id 0 for all).
    pub generic: bool,
    /// The step kinds the algorithm uses, in [`StepKind::ALL`] order.
    pub kinds: Vec<StepKind>,
    /// The operand table: headers for every (rank, program), then one row per thread block.
    pub table: Vec<i64>,
}

/// Position of `b` in [`Layout::chunks`].
pub fn buffer_slot(b: Buffer) -> usize {
    match b {
        Buffer::Input => 0,
        Buffer::Output => 1,
        Buffer::Scratch => 2,
    }
}

impl Layout {
    /// Lays out `ir`, which must pass [`MscclIr::validate`].
    pub fn of(ir: &MscclIr) -> Result<Layout> {
        ir.validate()?;
        let ranks = ir.ngpus();
        // An algorithm with nothing to do (one rank, in place) still launches one idle program.
        let grid = ir.gpus.iter().map(|g| g.tbs.len()).max().unwrap_or(0).max(1);
        if ranks == 0 {
            return Err(MscclError::InvalidConfig(format!("{}: no ranks to lower for", ir.name)));
        }
        // Number connections per rank: incoming by (from, channel), outgoing by (to, channel).
        let mut ins: Vec<BTreeMap<(usize, usize), usize>> = vec![BTreeMap::new(); ranks];
        let mut outs: Vec<BTreeMap<(usize, usize), usize>> = vec![BTreeMap::new(); ranks];
        for c in ir.connections() {
            let n = ins[c.to].len();
            ins[c.to].entry((c.from, c.channel)).or_insert(n);
            let n = outs[c.from].len();
            outs[c.from].entry((c.to, c.channel)).or_insert(n);
        }
        let mut shape_ids: HashMap<TbShape, usize> = HashMap::new();
        let mut shapes = vec![];
        let mut table = vec![-1i64; ranks * grid * HEADER_FIELDS];
        let (mut max_deps, mut max_msgs, mut max_count) = (0, 0, 1);
        for gpu in &ir.gpus {
            // Completion slots: one per step that something waits on.
            let mut done_slot = BTreeMap::new();
            for tb in &gpu.tbs {
                for (s, step) in tb.steps.iter().enumerate() {
                    if step.has_dep {
                        let n = done_slot.len();
                        done_slot.insert((tb.id, s), n);
                    }
                }
            }
            max_deps = max_deps.max(done_slot.len());
            for tb in &gpu.tbs {
                let shape = TbShape::of(tb);
                max_msgs = max_msgs.max(shape.sends).max(shape.recvs);
                max_count = shape.steps.iter().map(|s| s.count).fold(max_count, usize::max);
                let id = *shape_ids.entry(shape.clone()).or_insert_with(|| {
                    shapes.push(shape.clone());
                    shapes.len() - 1
                });
                let h = (gpu.id * grid + tb.id) * HEADER_FIELDS;
                table[h] = id as i64;
                table[h + 1] = table.len() as i64;
                let idx = |m: &BTreeMap<(usize, usize), usize>, k| m.get(&k).map_or(-1, |&i| i as i64);
                let (send, recv) = (tb.send, tb.recv);
                table.extend([
                    send.map_or(-1, |p| p as i64),
                    recv.map_or(-1, |p| p as i64),
                    send.map_or(-1, |p| idx(&ins[p], (gpu.id, tb.channel))),
                    send.map_or(-1, |p| idx(&outs[gpu.id], (p, tb.channel))),
                    recv.map_or(-1, |p| idx(&ins[gpu.id], (p, tb.channel))),
                    recv.map_or(-1, |p| idx(&outs[p], (gpu.id, tb.channel))),
                    tb.steps.len() as i64,
                    shape.sends as i64,
                    shape.recvs as i64,
                ]);
                for (s, step) in tb.steps.iter().enumerate() {
                    let missing = if step.kind.reads_src() && step.src.is_none() {
                        Some("srcoff")
                    } else if step.kind.writes_dst() && step.dst.is_none() {
                        Some("dstoff")
                    } else {
                        None
                    };
                    if let Some(attribute) = missing {
                        return Err(MscclError::InvalidIr {
                            location: format!("gpu {} tb {} step {s}", gpu.id, tb.id),
                            attribute,
                            message: format!("a `{}` step needs this operand", step.kind.mnemonic()),
                        });
                    }
                    let chunk = |b: Option<super::super::ir::BufRef>| b.map_or(-1, |b| b.index as i64);
                    let dep = step.dep.and_then(|d| done_slot.get(&(d.tb, d.step))).map_or(-1, |&i| i as i64);
                    let done = done_slot.get(&(tb.id, s)).map_or(-1, |&i| i as i64);
                    if step.dep.is_some() && dep < 0 {
                        return Err(MscclError::InvalidIr {
                            location: format!("gpu {} tb {} step {s}", gpu.id, tb.id),
                            attribute: "depid",
                            message: "depends on a step that does not signal (hasdep=0)".into(),
                        });
                    }
                    let st = &shape.steps[s];
                    let kind = StepKind::ALL.iter().position(|&k| k == st.kind).unwrap_or(0) as i64;
                    let buf = |b: Option<Buffer>| b.map_or(-1, |b| buffer_slot(b) as i64);
                    let j = |j: Option<usize>| j.map_or(-1, |j| j as i64);
                    table.extend([chunk(step.src), chunk(step.dst), dep, done, kind, st.count as i64, buf(st.src), buf(st.dst), j(st.send_j), j(st.recv_j)]);
                }
            }
        }
        let bodies: usize = shapes.iter().map(|s| s.steps.len()).sum();
        let generic = bodies > SPECIALIZE_MAX_STEPS;
        if generic {
            for h in (0..ranks * grid).map(|i| i * HEADER_FIELDS) {
                if table[h] >= 0 {
                    table[h] = 0;
                }
            }
        }
        let mut kinds: Vec<StepKind> = StepKind::ALL.into_iter().filter(|k| shapes.iter().any(|s| s.steps.iter().any(|st| st.kind == *k))).collect();
        kinds.dedup();
        let most = |f: fn(&super::super::ir::Gpu) -> usize| ir.gpus.iter().map(f).max().unwrap_or(0);
        Ok(Layout {
            protocol: ir.protocol,
            slots: ir.protocol.fifo_slots(),
            grid,
            ranks,
            max_count,
            max_in: ins.iter().map(|m| m.len()).max().unwrap_or(0),
            max_out: outs.iter().map(|m| m.len()).max().unwrap_or(0),
            max_deps,
            max_msgs,
            chunks: [most(|g| g.input_chunks), most(|g| g.output_chunks), most(|g| g.scratch_chunks)],
            shapes,
            generic,
            kinds,
            table,
        })
    }

    /// Signal words per rank: arrivals, then credits, then completions.
    pub fn signal_words(&self) -> usize {
        self.max_in + self.max_out + self.max_deps
    }

    /// How far the signal base must advance after a launch of `tiles` pipeline iterations,
    /// so every value the next launch waits for is above every value this one wrote.
    pub fn base_step(&self, tiles: usize) -> i64 {
        (tiles * (self.max_msgs + 1) + self.slots + 2) as i64
    }
}
