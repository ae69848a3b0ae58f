//! MSCCL front end: MSCCLang-style chunk programs, their symbolic verification, scheduling
//! into MSCCL-IR, and MSCCL-IR XML import / export. Pure Rust; nothing here touches MLIR.
//!
//! # Pipeline
//! 1. Write an algorithm in the chunk DSL ([`Program`], [`ChunkRef`]): `chunk(..)` references,
//!    `copy` / `reduce` returning new references. Misuse (stale reference, uninitialized
//!    read, out-of-range rank or index, count mismatch) is a typed [`MscclError`] at the
//!    operation that made it.
//! 2. [`Program::finish`] checks the [`Collective`]'s postcondition symbolically and returns an
//!    [`Algorithm`] (the trace).
//! 3. [`schedule()`] turns the trace into an [`MscclIr`]: thread blocks, channels, fused steps,
//!    cross-thread-block dependencies, instances. [`verify_ir`] re-checks any MSCCL-IR,
//!    imported ones included, by executing it symbolically with bounded FIFOs (deadlocks,
//!    races, uninitialized reads, postcondition).
//! 4. [`xml::to_xml`] / [`xml::from_xml`] write and read the msccl XML format.
//! 5. [`plan`] imports MSCCL++ JSON execution plans and lowers them op for op (one-sided).
//! 6. [`algorithms`] holds built-in algorithms by name; [`SelectionTable`] picks one by size.
//!
//! # The interface a lowering consumes: [`MscclIr`]
//! - `gpus[r]` is rank `r`'s program; its buffers have `input_chunks` / `output_chunks` /
//!   `scratch_chunks` chunks. A run of `E` elements cuts each buffer into `nchunksperloop`
//!   chunks; [`Pipeline`] cuts each chunk into slot-sized tiles, and the whole step program
//!   runs once per tile index (that loop is the pipelining).
//! - `gpus[r].tbs[t]` is one program instance (thread block). It runs `steps` in order. It has
//!   at most one send peer (`send`) and one receive peer (`recv`), both on `channel`.
//! - The connection `(from, to, channel)` links the one thread block of `from` with
//!   `send == to` on that channel to the one of `to` with `recv == from`
//!   ([`MscclIr::connections`]). Messages on it arrive in send order; at most
//!   [`Protocol::fifo_slots`] are in flight, which the scheduler guarantees is deadlock free.
//! - A step's [`StepKind`] says what it does with its local operands `src` (read) and `dst`
//!   (written): see [`StepKind::reads_src`], [`StepKind::writes_dst`], [`StepKind::sends`],
//!   [`StepKind::receives`]; `count` consecutive chunks move at once. Receive-reduce kinds add
//!   the received data to local `src`. Where a kind does not use `src` / `dst` locally they
//!   record the peer's slot (where a send lands, where a receive came from), as msccl-tools does.
//! - `dep = Some(Dep { tb, step })`: before running, wait until thread block `tb` of the same
//!   gpu has completed step `step`. `has_dep`: after running, signal completion (only such
//!   steps are ever waited on). `nop` steps carry extra dependencies and move no data.
//! - `inplace`: input and output alias as in MSCCLang (see [`Collective::canonical`]).

pub mod algorithms;
mod buffer;
mod chunk;
mod collective;
mod error;
mod exec;
mod ir;
mod ir_check;
pub mod lower;
mod pipeline;
pub mod plan;
mod program;
mod protocol;
mod race;
pub mod schedule;
mod select;
pub mod synth;
mod value;
mod verify;
pub mod xml;

pub use buffer::{Buffer, Loc};
pub use chunk::ChunkRef;
pub use collective::{Collective, CollectiveKind, CustomCollective, PostconditionFn, PreconditionFn};
pub use error::{MscclError, Result, XmlError};
pub use exec::{verify_ir, verify_ir_with_slots};
pub use ir::{BufRef, Connection, Dep, Gpu, MscclIr, Step, StepKind, ThreadBlock};
pub use pipeline::Pipeline;
pub use program::{Algorithm, Hints, MAX_SCRATCH_CHUNKS, Op, OpKind, Program, ProgramSpec};
pub use protocol::{NCCL_STEPS, Protocol};
pub use schedule::{ScheduleConfig, schedule};
pub use select::{Registration, SelectionTable};
pub use value::{ChunkValue, Contribution};

#[cfg(test)]
mod tests;
