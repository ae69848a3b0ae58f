//! Symbolic execution of an MSCCL-IR, with the msccl interpreter's semantics: each thread
//! block runs its steps in order; a step with a dependency waits until the named thread
//! block has signalled a step at least that far (only `hasdep` steps signal); a receive
//! waits for the next message on its connection (FIFO per sender, receiver and channel).
//! A send waits while its connection already holds as many messages as it has FIFO slots.
//! Values are chunk values, so the final buffers can be checked against the postcondition,
//! and every slot access is checked for races, so the result does not hinge on the one
//! interleaving simulated.
//!
//! Bounded FIFOs make the deadlock verdict exact: a completed run is an execution order in
//! which no connection ever exceeds its slots, and with such an order every execution can
//! always advance its earliest unfinished step, so none deadlocks; a stuck run is itself a
//! reachable deadlock.

use std::collections::{HashMap, VecDeque};

use super::buffer::Buffer;
use super::collective::Collective;
use super::error::{MscclError, Result};
use super::ir::{BufRef, MscclIr, Step, StepKind};
use super::race::{Access, Clock, History};
use super::value::ChunkValue;
use super::verify::check_postcondition;

/// Executes `ir` symbolically and checks that it implements `coll`: no deadlock (with the
/// protocol's FIFO slots), no data race, no uninitialized read, and every output slot holds
/// what the postcondition requires.
pub fn verify_ir(ir: &MscclIr, coll: &Collective) -> Result<()> {
    verify_ir_with_slots(ir, coll, ir.protocol.fifo_slots())
}

/// [`verify_ir`] with `fifo_slots` messages allowed in flight per connection.
pub fn verify_ir_with_slots(ir: &MscclIr, coll: &Collective, fifo_slots: usize) -> Result<()> {
    if fifo_slots == 0 {
        return Err(MscclError::InvalidConfig("FIFO slots must be at least 1".into()));
    }
    ir.validate()?;
    coll.validate()?;
    if ir.inplace {
        coll.validate_in_place()?;
    }
    if ir.ngpus() != coll.ranks() {
        return Err(MscclError::InvalidConfig(format!(
            "the MSCCL-IR has {} gpus but the collective has {} ranks",
            ir.ngpus(),
            coll.ranks()
        )));
    }
    let mut machine = Machine::new(ir, coll, fifo_slots);
    machine.run()?;
    check_postcondition(coll, ir.inplace, |rank, buffer, index| machine.value(rank, buffer, index))
}

/// One slot of the simulated memory.
#[derive(Debug, Clone, Default)]
struct Cell {
    value: Option<ChunkValue>,
    history: History,
}

/// Per thread block: next step, vector clock, and the clocks it published at `hasdep` steps.
#[derive(Debug, Clone)]
struct TbState {
    gpu: usize,
    tb: usize,
    pc: usize,
    clock: Clock,
    published: Vec<(usize, Clock)>,
}

/// A message in flight on a connection.
#[derive(Debug, Clone)]
struct Message {
    values: Vec<ChunkValue>,
    clock: Clock,
}

/// What one attempt to run a thread block's next step did.
enum Progress {
    Executed,
    Finished,
    Blocked(String),
}

struct Machine<'a> {
    ir: &'a MscclIr,
    coll: &'a Collective,
    /// `memory[gpu][buffer.slot()]`, canonical buffers.
    memory: Vec<[Vec<Cell>; 3]>,
    tbs: Vec<TbState>,
    /// Global index of each gpu's thread block 0.
    base: Vec<usize>,
    /// Keyed by (from, to, channel).
    queues: HashMap<(usize, usize, usize), VecDeque<Message>>,
    /// Messages a connection holds at most.
    slots: usize,
}

impl<'a> Machine<'a> {
    fn new(ir: &'a MscclIr, coll: &'a Collective, slots: usize) -> Self {
        let total: usize = ir.gpus.iter().map(|g| g.tbs.len()).sum();
        let mut tbs = Vec::with_capacity(total);
        let mut base = Vec::with_capacity(ir.ngpus());
        let mut memory = Vec::with_capacity(ir.ngpus());
        for (g, gpu) in ir.gpus.iter().enumerate() {
            base.push(tbs.len());
            tbs.extend((0..gpu.tbs.len()).map(|t| TbState {
                gpu: g,
                tb: t,
                pc: 0,
                clock: Clock::new(total),
                published: vec![],
            }));
            let mut buffers: [Vec<Cell>; 3] = Default::default();
            for buffer in [Buffer::Input, Buffer::Output] {
                buffers[buffer.slot()] = vec![Cell::default(); coll.canonical_chunks(buffer, ir.inplace)];
            }
            buffers[Buffer::Scratch.slot()] = vec![Cell::default(); gpu.scratch_chunks];
            for index in 0..coll.input_chunks() {
                let (buffer, at) = coll.canonical(g, Buffer::Input, index, ir.inplace);
                buffers[buffer.slot()][at].value = coll.initial(g, index);
            }
            memory.push(buffers);
        }
        Machine { ir, coll, memory, tbs, base, queues: HashMap::new(), slots }
    }

    fn value(&self, rank: usize, buffer: Buffer, index: usize) -> Option<&ChunkValue> {
        self.memory[rank][buffer.slot()].get(index).and_then(|c| c.value.as_ref())
    }

    /// Runs every thread block as far as it can, round robin, until all finish or none can move.
    fn run(&mut self) -> Result<()> {
        loop {
            let (mut progressed, mut unfinished) = (false, false);
            for tbi in 0..self.tbs.len() {
                loop {
                    match self.try_step(tbi)? {
                        Progress::Executed => progressed = true,
                        Progress::Finished => break,
                        Progress::Blocked(_) => {
                            unfinished = true;
                            break;
                        }
                    }
                }
            }
            if !unfinished {
                return Ok(());
            }
            if !progressed {
                let mut blocked = Vec::new();
                for tbi in 0..self.tbs.len() {
                    if let Progress::Blocked(why) = self.try_step(tbi)? {
                        blocked.push(why);
                    }
                }
                return Err(MscclError::Deadlock { blocked });
            }
        }
    }

    /// Runs thread block `tbi`'s next step if it can; a blocked attempt changes nothing.
    fn try_step(&mut self, tbi: usize) -> Result<Progress> {
        let (g, t, pc) = (self.tbs[tbi].gpu, self.tbs[tbi].tb, self.tbs[tbi].pc);
        let tb = &self.ir.gpus[g].tbs[t];
        let Some(step) = tb.steps.get(pc) else { return Ok(Progress::Finished) };
        let here = format!("gpu {g} tb {t} step {pc} ({})", step.kind.mnemonic());
        let mut learned = Vec::new();
        if let Some(dep) = step.dep {
            let published = &self.tbs[self.base[g] + dep.tb].published;
            match published.iter().find(|(s, _)| *s >= dep.step) {
                // The earliest signal that satisfies the wait is all the waiter is sure to have seen.
                Some((_, clock)) => learned.push(clock.clone()),
                None => return Ok(Progress::Blocked(format!("{here} waits for tb {} step {}", dep.tb, dep.step))),
            }
        }
        if let (true, Some(peer)) = (step.kind.sends(), tb.send) {
            let queued = self.queues.get(&(g, peer, tb.channel)).map_or(0, VecDeque::len);
            if queued >= self.slots {
                return Ok(Progress::Blocked(format!(
                    "{here} waits for a free FIFO slot to gpu {peer} on channel {} ({} slots)",
                    tb.channel, self.slots
                )));
            }
        }
        let mut incoming = None;
        if step.kind.receives() {
            let peer = tb.recv.unwrap_or(usize::MAX);
            let queue = self.queues.get_mut(&(peer, g, tb.channel));
            match queue.and_then(VecDeque::pop_front) {
                Some(message) => incoming = Some(message),
                None => {
                    return Ok(Progress::Blocked(format!(
                        "{here} waits for data from gpu {peer} on channel {}",
                        tb.channel
                    )));
                }
            }
        }
        let state = &mut self.tbs[tbi];
        for clock in &learned {
            state.clock.join(clock);
        }
        if let Some(message) = &incoming {
            state.clock.join(&message.clock);
            if message.values.len() != step.count {
                let message = format!("received {} chunks but the step moves {}", message.values.len(), step.count);
                return Err(MscclError::IrExecution { gpu: g, tb: t, step: pc, message });
            }
        }
        state.clock.tick(tbi);
        let clock = state.clock.clone();
        let me = Access { tb: tbi, time: clock.get(tbi), label: (t, pc) };
        let outgoing = self.execute(g, step, incoming.map(|m| m.values), me, &clock)?;
        if let (Some(values), Some(peer)) = (outgoing, tb.send) {
            let message = Message { values, clock: clock.clone() };
            self.queues.entry((g, peer, tb.channel)).or_default().push_back(message);
        }
        let state = &mut self.tbs[tbi];
        if step.has_dep {
            state.published.push((pc, clock));
        }
        state.pc += 1;
        Ok(Progress::Executed)
    }

    /// Applies one step's data movement; returns what it sends, if anything.
    fn execute(
        &mut self,
        g: usize,
        step: &Step,
        incoming: Option<Vec<ChunkValue>>,
        me: Access,
        clock: &Clock,
    ) -> Result<Option<Vec<ChunkValue>>> {
        let kind = step.kind;
        let local = if kind.reads_src() { Some(self.read(g, step.src, step.count, me, clock)?) } else { None };
        let received = incoming.unwrap_or_default();
        let combined = match (kind, local) {
            (StepKind::Nop, _) => return Ok(None),
            (StepKind::Reduce, Some(src)) => {
                let dst = self.read(g, step.dst, step.count, me, clock)?;
                sum(&dst, &src)
            }
            (_, Some(src)) if kind.reduces() => sum(&received, &src),
            (_, Some(src)) => src,
            (_, None) => received,
        };
        if kind.writes_dst() {
            self.write(g, step.dst, combined.clone(), me, clock)?;
        }
        Ok(kind.sends().then_some(combined))
    }

    /// Canonical (gpu-local, alias-resolved) slots of a step operand.
    fn slots(&self, g: usize, at: Option<BufRef>, count: usize, me: Access) -> Result<Vec<(Buffer, usize)>> {
        let at = at.ok_or_else(|| fail(g, me, "the step needs a local offset, not -1".into()))?;
        let limit = match at.buffer {
            Buffer::Scratch => self.memory[g][Buffer::Scratch.slot()].len(),
            buffer => self.coll.buffer_chunks(buffer),
        };
        if at.index + count > limit {
            let message = format!(
                "{}[{}..{}] is outside the collective's {limit} {} chunks",
                at.buffer.letter(),
                at.index,
                at.index + count,
                at.buffer
            );
            return Err(fail(g, me, message));
        }
        Ok((0..count).map(|j| self.coll.canonical(g, at.buffer, at.index + j, self.ir.inplace)).collect())
    }

    fn read(
        &mut self,
        g: usize,
        at: Option<BufRef>,
        count: usize,
        me: Access,
        clock: &Clock,
    ) -> Result<Vec<ChunkValue>> {
        let slots = self.slots(g, at, count, me)?;
        let mut values = Vec::with_capacity(count);
        for (buffer, index) in slots {
            let cell = &mut self.memory[g][buffer.slot()][index];
            cell.history.read(me, clock).map_err(|other| race(g, buffer, index, other, me))?;
            let uninitialized = || fail(g, me, format!("reads uninitialized {}[{index}]", buffer.letter()));
            let value = cell.value.clone().ok_or_else(uninitialized)?;
            values.push(value);
        }
        Ok(values)
    }

    fn write(
        &mut self,
        g: usize,
        at: Option<BufRef>,
        values: Vec<ChunkValue>,
        me: Access,
        clock: &Clock,
    ) -> Result<()> {
        let slots = self.slots(g, at, values.len(), me)?;
        for ((buffer, index), value) in slots.into_iter().zip(values) {
            let cell = &mut self.memory[g][buffer.slot()][index];
            cell.history.write(me, clock).map_err(|other| race(g, buffer, index, other, me))?;
            cell.value = Some(value);
        }
        Ok(())
    }
}

fn sum(a: &[ChunkValue], b: &[ChunkValue]) -> Vec<ChunkValue> {
    a.iter().zip(b).map(|(x, y)| x.reduce(y)).collect()
}

/// An execution failure at access `me`'s step.
fn fail(g: usize, me: Access, message: String) -> MscclError {
    MscclError::IrExecution { gpu: g, tb: me.label.0, step: me.label.1, message }
}

/// The race between an earlier access and `second`.
fn race(g: usize, buffer: Buffer, index: usize, first: Access, second: Access) -> MscclError {
    let name = |a: Access| format!("tb {} step {}", a.label.0, a.label.1);
    MscclError::DataRace {
        gpu: g,
        slot: format!("{}[{index}]", buffer.letter()),
        first: name(first),
        second: name(second),
    }
}
