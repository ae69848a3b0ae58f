//! Turns a solved schedule into a chunk-DSL program, so it is traced, checked against the
//! collective's postcondition and scheduled into MSCCL-IR like any hand-written algorithm.
//!
//! Where a chunk lives on a rank that holds it: the slot the collective gives it there (in
//! place where the collective allows, so no local copies are needed), or for AllToAll relays
//! a scratch slot named by the chunk id.

use super::error::Result;
use super::problem::SynthCollective;
use super::search::{Send, SolvedStep};
use std::collections::HashMap;
use crate::msccl::buffer::Buffer;
use crate::msccl::collective::Collective;
use crate::msccl::{MscclIr, ScheduleConfig, schedule, verify_ir};
use crate::msccl::program::{Algorithm, Hints, Program, ProgramSpec};

/// A synthesized algorithm: the non-combining schedule(s) and its MSCCL form.
#[derive(Debug, Clone)]
pub struct Synthesized {
    /// `name`: `<coll>.n<ranks>-<topo>-steps<S>.rounds<R>.chunks<k>`.
    pub name: String,
    /// Steps of the whole algorithm.
    pub steps: usize,
    /// Rounds of the whole algorithm.
    pub rounds: u32,
    /// Chunks per slice.
    pub chunks: usize,
    /// The traced, postcondition-checked algorithm.
    pub algorithm: Algorithm,
}

impl Synthesized {
    /// Schedules into MSCCL-IR and verifies it. Receive+send fusion (`rcs`, `rrs`, `rrcs`)
    /// is tried first: a fused step forwards from the receive slot instead of reading its
    /// copy back, which saves a pass over the data. Where a fused send cannot keep the
    /// channel of its position on its link, the unfused schedule is used.
    pub fn to_ir(&self) -> Result<MscclIr> {
        let attempt = |fuse: bool| -> Result<MscclIr> {
            let ir = schedule(&self.algorithm, &ScheduleConfig { fuse, ..ScheduleConfig::default() })?;
            verify_ir(&ir, &self.algorithm.collective)?;
            Ok(ir)
        };
        attempt(true).or_else(|_| attempt(false))
    }
}

/// Where chunk `c` of a non-combining collective lives on `rank`.
fn home(coll: SynthCollective, n: usize, k: usize, c: usize, rank: usize) -> (Buffer, usize) {
    match coll {
        SynthCollective::AllToAll => {
            let (sd, j) = (c / k, c % k);
            let (s, d) = (sd / n, sd % n);
            match rank {
                r if r == s => (Buffer::Input, d * k + j),
                r if r == d => (Buffer::Output, s * k + j),
                _ => (Buffer::Scratch, c),
            }
        }
        SynthCollective::Scatter { .. } => (Buffer::Input, c),
        _ => (Buffer::Output, c),
    }
}

/// The MSCCL collective of `coll` on `n` ranks with `k` chunks per slice, and whether the
/// program runs in place.
fn msccl_collective(coll: SynthCollective, n: usize, k: usize) -> (Collective, bool) {
    match coll {
        SynthCollective::AllGather => (Collective::AllGather { ranks: n, chunks: k }, true),
        SynthCollective::Gather { root } => (Collective::Gather { ranks: n, chunks: k, root }, true),
        SynthCollective::Scatter { root } => (Collective::Scatter { ranks: n, chunks: k, root }, true),
        SynthCollective::Broadcast { root } => (Collective::Broadcast { ranks: n, chunks: k, root }, true),
        SynthCollective::AllToAll => (Collective::AllToAll { ranks: n, chunks: k }, false),
        SynthCollective::ReduceScatter => (Collective::ReduceScatter { ranks: n, chunks: k }, true),
        SynthCollective::AllReduce => (Collective::AllReduce { ranks: n, chunks: n * k }, true),
    }
}

/// Each send with a channel hint: its position among its link's sends in its step, so no
/// connection has more than one of a step's sends outstanding.
fn with_channels(step: &SolvedStep) -> Vec<(Send, Hints)> {
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    step.sends
        .iter()
        .map(|s| {
            let ch = seen.entry((s.src, s.dst)).or_insert(0);
            *ch += 1;
            (*s, Hints::new().channel(*ch - 1))
        })
        .collect()
}

/// Copies along `steps` (chunk ids index slots through `home`).
fn copy_phase(prog: &Program, coll: SynthCollective, n: usize, k: usize, steps: &[SolvedStep]) -> Result<()> {
    for (s, hints) in steps.iter().flat_map(with_channels) {
        let (b, i) = home(coll, n, k, s.chunk, s.src);
        let (db, di) = home(coll, n, k, s.chunk, s.dst);
        prog.chunk(s.src, b, i, 1)?.copy_with(s.dst, db, di, hints)?;
    }
    Ok(())
}

/// Reduces along `dual` (an AllGather schedule on the reversed topology) run backwards: each
/// dual send `src -> dst` becomes `dst` adding its partial into `src`'s slot.
fn reduce_phase(prog: &Program, dual: &[SolvedStep]) -> Result<()> {
    for (s, hints) in dual.iter().rev().flat_map(with_channels) {
        let partial = prog.chunk(s.dst, Buffer::Input, s.chunk, 1)?;
        prog.chunk(s.src, Buffer::Input, s.chunk, 1)?.reduce_with(&partial, hints)?;
    }
    Ok(())
}

/// Builds the algorithm. Non-combining collectives use `forward`; ReduceScatter uses `dual`
/// (its AllGather dual on the reversed topology); AllReduce uses `dual` then `forward`.
pub fn build(
    coll: SynthCollective,
    topo_name: &str,
    n: usize,
    k: usize,
    forward: &[SolvedStep],
    dual: &[SolvedStep],
) -> Result<Synthesized> {
    let (collective, in_place) = msccl_collective(coll, n, k);
    let used: Vec<&SolvedStep> = match coll {
        SynthCollective::ReduceScatter => dual.iter().collect(),
        SynthCollective::AllReduce => dual.iter().chain(forward).collect(),
        _ => forward.iter().collect(),
    };
    let (steps, rounds) = (used.len(), used.iter().map(|s| s.rounds).sum());
    let name = format!("{}.n{n}-{topo_name}-steps{steps}.rounds{rounds}.chunks{k}", coll.to_string().split('(').next().unwrap_or(""));
    let prog = Program::new(ProgramSpec::new(name.clone(), collective).in_place(in_place))?;
    if coll.is_combining() {
        reduce_phase(&prog, dual)?;
    }
    if coll == SynthCollective::AllReduce {
        copy_phase(&prog, SynthCollective::AllGather, n, k, forward)?;
    } else if !coll.is_combining() {
        if coll == SynthCollective::AllToAll {
            // A rank's slice for itself moves from its input to its output locally.
            for r in 0..n {
                for j in 0..k {
                    prog.chunk(r, Buffer::Input, r * k + j, 1)?.copy(r, Buffer::Output, r * k + j)?;
                }
            }
        }
        copy_phase(&prog, coll, n, k, forward)?;
    }
    Ok(Synthesized { name, steps, rounds, chunks: k, algorithm: prog.finish()? })
}
