//! The chunk DSL's program: the collective being implemented, the symbolic buffers every
//! operation updates as it is traced, and the trace of operations itself.
//!
//! Operations are traced eagerly: each `copy` / `reduce` checks its references, updates the
//! symbolic buffers and returns a `Result`, so the first misuse stops the program at the
//! operation that made it. The state is shared by `Rc<RefCell<..>>` because chunk references
//! are used fluently (`c.copy(..)?.reduce(..)?`) and each one must reach it.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use super::buffer::{Buffer, Loc, span};
use super::chunk::ChunkRef;
use super::collective::Collective;
use super::error::{MscclError, Result};
use super::ir::MscclIr;
use super::protocol::Protocol;
use super::value::ChunkValue;
use super::verify::check_postcondition;

/// Scratch indices above this are treated as a typo rather than grown into.
pub const MAX_SCRATCH_CHUNKS: usize = 1 << 20;

/// What a program implements and how it runs.
#[derive(Debug, Clone)]
pub struct ProgramSpec {
    /// Algorithm name (the `name` attribute of the MSCCL-IR).
    pub name: String,
    /// The collective, with its rank count and chunk factor.
    pub collective: Collective,
    /// Copies of the algorithm run side by side, each over its own sub-chunks and channels.
    pub instances: usize,
    /// Point-to-point protocol.
    pub protocol: Protocol,
    /// Whether input and output alias (MSCCLang's in-place programs).
    pub in_place: bool,
}

impl ProgramSpec {
    /// A spec with one instance, the Simple protocol, out of place.
    pub fn new(name: impl Into<String>, collective: Collective) -> Self {
        ProgramSpec { name: name.into(), collective, instances: 1, protocol: Protocol::Simple, in_place: false }
    }

    /// Sets the instance count.
    pub fn instances(mut self, instances: usize) -> Self {
        self.instances = instances;
        self
    }

    /// Sets the protocol.
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Sets the in-place flag.
    pub fn in_place(mut self, in_place: bool) -> Self {
        self.in_place = in_place;
        self
    }
}

/// Optional scheduling hints for one operation; unset fields are chosen automatically.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    /// Channel of the send and the receive.
    pub channel: Option<usize>,
    /// Thread block (on the source rank) that sends, or runs a local operation.
    pub send_tb: Option<usize>,
    /// Thread block (on the destination rank) that receives.
    pub recv_tb: Option<usize>,
}

impl Hints {
    /// No hints.
    pub fn new() -> Self {
        Hints::default()
    }

    /// Pins the channel.
    pub fn channel(mut self, channel: usize) -> Self {
        self.channel = Some(channel);
        self
    }

    /// Pins the sending (or local) thread block.
    pub fn send_tb(mut self, tb: usize) -> Self {
        self.send_tb = Some(tb);
        self
    }

    /// Pins the receiving thread block.
    pub fn recv_tb(mut self, tb: usize) -> Self {
        self.recv_tb = Some(tb);
        self
    }
}

/// The two chunk operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// `dst = src`.
    Copy,
    /// `dst = dst + src`.
    Reduce,
}

/// One traced operation, with canonical (alias-resolved) locations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// Position in the trace.
    pub id: usize,
    /// Copy or reduce.
    pub kind: OpKind,
    /// First source slot.
    pub src: Loc,
    /// First destination slot.
    pub dst: Loc,
    /// Number of consecutive chunks.
    pub count: usize,
    /// Scheduling hints.
    pub hints: Hints,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&describe(self.id, self.kind, self.src, self.dst, self.count))
    }
}

/// `#id copy src -> dst` / `#id reduce dst += src`.
pub(crate) fn describe(id: usize, kind: OpKind, src: Loc, dst: Loc, count: usize) -> String {
    match kind {
        OpKind::Copy => format!("#{id} copy {} -> {}", span(src, count), span(dst, count)),
        OpKind::Reduce => format!("#{id} reduce {} += {}", span(dst, count), span(src, count)),
    }
}

/// A traced program that met its collective's postcondition: the input of scheduling.
#[derive(Debug, Clone)]
pub struct Algorithm {
    /// Algorithm name.
    pub name: String,
    /// The collective (for one instance).
    pub collective: Collective,
    /// Whether input and output alias.
    pub in_place: bool,
    /// Instance count.
    pub instances: usize,
    /// Protocol.
    pub protocol: Protocol,
    /// The trace.
    pub ops: Vec<Op>,
    /// Scratch chunks each rank uses (one instance), inferred from the highest index used.
    pub scratch_chunks: Vec<usize>,
}

impl Algorithm {
    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.collective.ranks()
    }

    /// Schedules with default settings and checks the result symbolically.
    pub fn to_ir(&self) -> Result<MscclIr> {
        let ir = super::schedule::schedule(self, &super::schedule::ScheduleConfig::default())?;
        super::exec::verify_ir(&ir, &self.collective.scaled(self.instances))?;
        Ok(ir)
    }
}

/// One symbolic chunk slot.
#[derive(Debug, Clone, Default)]
pub(super) struct Slot {
    /// Current contents (`None`: uninitialized).
    pub value: Option<ChunkValue>,
    /// Ids of the operations that wrote the slot, in order; its length is the slot's
    /// generation, which references capture to detect staleness.
    pub writers: Vec<usize>,
}

/// Shared state behind a [`Program`] and its references.
#[derive(Debug)]
pub(super) struct State {
    pub spec: ProgramSpec,
    /// `slots[rank][buffer.slot()]`, canonical buffers only.
    pub slots: Vec<[Vec<Slot>; 3]>,
    pub ops: Vec<Op>,
}

impl State {
    /// Range-checks a logical location and resolves in-place aliasing.
    pub fn resolve(&self, op: &str, rank: usize, buffer: Buffer, index: usize, count: usize) -> Result<Loc> {
        let coll = &self.spec.collective;
        let ranks = coll.ranks();
        if rank >= ranks {
            return Err(MscclError::RankOutOfRange { op: op.to_string(), rank, ranks });
        }
        if count == 0 {
            return Err(MscclError::CountMismatch { op: op.to_string(), left: 1, right: 0 });
        }
        let size = match buffer {
            Buffer::Scratch => MAX_SCRATCH_CHUNKS,
            _ => coll.buffer_chunks(buffer),
        };
        if index + count > size {
            return Err(MscclError::IndexOutOfRange { op: op.to_string(), rank, buffer, index, count, size });
        }
        let (buffer, index) = coll.canonical(rank, buffer, index, self.spec.in_place);
        Ok(Loc::new(rank, buffer, index))
    }

    fn slot(&self, loc: Loc) -> Option<&Slot> {
        self.slots[loc.rank][loc.buffer.slot()].get(loc.index)
    }

    /// The current generation of each of `count` slots.
    pub fn generations(&self, loc: Loc, count: usize) -> Vec<usize> {
        (0..count).map(|j| self.slot(loc.offset(j)).map_or(0, |s| s.writers.len())).collect()
    }

    /// Fails if any slot was overwritten since the reference captured `generations`.
    pub fn check_fresh(&self, op: &str, loc: Loc, generations: &[usize]) -> Result<()> {
        for (j, &generation) in generations.iter().enumerate() {
            let writers = self.slot(loc.offset(j)).map_or(&[][..], |s| &s.writers[..]);
            if let Some(&overwriter) = writers.get(generation) {
                return Err(MscclError::StaleReference {
                    used_by: op.to_string(),
                    overwritten_by: self.ops[overwriter].to_string(),
                    slot: loc.offset(j),
                });
            }
        }
        Ok(())
    }

    /// The values of `count` slots; every one must be initialized.
    pub fn read(&self, op: &str, loc: Loc, count: usize) -> Result<Vec<ChunkValue>> {
        (0..count)
            .map(|j| {
                let slot = loc.offset(j);
                self.slot(slot)
                    .and_then(|s| s.value.clone())
                    .ok_or_else(|| MscclError::UninitializedChunk { op: op.to_string(), slot })
            })
            .collect()
    }

    /// Writes values (growing scratch as needed) and records `op` as their writer.
    pub fn write(&mut self, loc: Loc, values: Vec<ChunkValue>, op: usize) {
        let buffer = &mut self.slots[loc.rank][loc.buffer.slot()];
        if buffer.len() < loc.index + values.len() {
            buffer.resize(loc.index + values.len(), Slot::default());
        }
        for (j, value) in values.into_iter().enumerate() {
            let slot = &mut buffer[loc.index + j];
            slot.value = Some(value);
            slot.writers.push(op);
        }
    }

    /// Reads a canonical slot's value (for the postcondition check).
    fn value(&self, rank: usize, buffer: Buffer, index: usize) -> Option<&ChunkValue> {
        self.slot(Loc::new(rank, buffer, index)).and_then(|s| s.value.as_ref())
    }
}

/// A chunk-DSL program under construction.
#[derive(Debug, Clone)]
pub struct Program {
    state: Rc<RefCell<State>>,
}

impl Program {
    /// Starts a program; the input buffers hold the collective's precondition.
    pub fn new(spec: ProgramSpec) -> Result<Program> {
        let coll = &spec.collective;
        coll.validate()?;
        if spec.in_place {
            coll.validate_in_place()?;
        }
        if spec.instances == 0 {
            return Err(MscclError::InvalidProgram(format!("{}: instances must be at least 1", spec.name)));
        }
        let mut slots = Vec::with_capacity(coll.ranks());
        for rank in 0..coll.ranks() {
            let mut buffers: [Vec<Slot>; 3] = Default::default();
            for buffer in [Buffer::Input, Buffer::Output] {
                buffers[buffer.slot()] = vec![Slot::default(); coll.canonical_chunks(buffer, spec.in_place)];
            }
            for index in 0..coll.input_chunks() {
                let (buffer, at) = coll.canonical(rank, Buffer::Input, index, spec.in_place);
                buffers[buffer.slot()][at].value = coll.initial(rank, index);
            }
            slots.push(buffers);
        }
        Ok(Program { state: Rc::new(RefCell::new(State { spec, slots, ops: Vec::new() })) })
    }

    /// A reference to `count` chunks at `index` of `buffer` on `rank`; they must be initialized.
    pub fn chunk(&self, rank: usize, buffer: Buffer, index: usize, count: usize) -> Result<ChunkRef> {
        let state = self.state.borrow();
        let op = format!("chunk(r{rank}, {buffer}, {index}, count {count})");
        let loc = state.resolve(&op, rank, buffer, index, count)?;
        state.read(&op, loc, count)?;
        let generations = state.generations(loc, count);
        drop(state);
        Ok(ChunkRef::new(self.state.clone(), loc, count, generations))
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.state.borrow().spec.collective.ranks()
    }

    /// The program's spec.
    pub fn spec(&self) -> ProgramSpec {
        self.state.borrow().spec.clone()
    }

    /// Operations traced so far.
    pub fn ops(&self) -> Vec<Op> {
        self.state.borrow().ops.clone()
    }

    /// The symbolic contents of a slot now (`None`: uninitialized), after in-place aliasing.
    pub fn contents(&self, rank: usize, buffer: Buffer, index: usize) -> Result<Option<ChunkValue>> {
        let state = self.state.borrow();
        let op = format!("contents(r{rank}, {buffer}, {index})");
        let loc = state.resolve(&op, rank, buffer, index, 1)?;
        Ok(state.value(loc.rank, loc.buffer, loc.index).cloned())
    }

    /// Checks the collective's postcondition against the buffers as they are now.
    pub fn check(&self) -> Result<()> {
        let state = self.state.borrow();
        check_postcondition(&state.spec.collective, state.spec.in_place, |r, b, i| state.value(r, b, i))
    }

    /// Verifies the postcondition and returns the traced algorithm.
    pub fn finish(self) -> Result<Algorithm> {
        self.check()?;
        let state = self.state.borrow();
        Ok(Algorithm {
            name: state.spec.name.clone(),
            collective: state.spec.collective.clone(),
            in_place: state.spec.in_place,
            instances: state.spec.instances,
            protocol: state.spec.protocol,
            ops: state.ops.clone(),
            scratch_chunks: state.slots.iter().map(|b| b[Buffer::Scratch.slot()].len()).collect(),
        })
    }
}
