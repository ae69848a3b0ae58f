//! Scheduling: from a traced [`Algorithm`] to MSCCL-IR.
//!
//! 1. `graph`: split operations into per-rank instructions with every ordering edge, then
//!    fuse receive+send into `rcs` / `rrcs` / `rrs` where msccl-tools does.
//! 2. `order`: one global order, which every thread block follows.
//! 3. `assign`: channels and thread blocks (one send and one receive peer each).
//! 4. FIFO check: no connection may hold more outstanding sends than its slots.
//! 5. `emit`: dependencies, `nop`s, `hasdep`, instances, numbering.

mod assign;
mod emit;
mod graph;
mod order;

use super::error::{MscclError, Result};
use super::ir::MscclIr;
use super::program::Algorithm;

/// NCCL's channel limit (`MAXCHANNELS`).
pub const MAX_CHANNELS: usize = 32;

/// Scheduling knobs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduleConfig {
    /// FIFO slots per connection; `None` takes the protocol's ([`super::Protocol::fifo_slots`]).
    pub fifo_slots: Option<usize>,
    /// Whether to fuse receive+send into `rcs` / `rrcs` / `rrs`.
    pub fuse: bool,
    /// Channels automatic assignment may use (per instance).
    pub max_channels: usize,
}

impl Default for ScheduleConfig {
    fn default() -> Self {
        ScheduleConfig { fifo_slots: None, fuse: true, max_channels: MAX_CHANNELS }
    }
}

/// Schedules `algo` into MSCCL-IR: thread blocks, channels, dependencies and instances.
pub fn schedule(algo: &Algorithm, cfg: &ScheduleConfig) -> Result<MscclIr> {
    check_algorithm(algo)?;
    let slots = cfg.fifo_slots.unwrap_or(algo.protocol.fifo_slots());
    if slots == 0 || cfg.max_channels == 0 {
        return Err(MscclError::InvalidConfig("FIFO slots and channels must be at least 1".into()));
    }
    let mut g = graph::Graph::build(algo);
    if cfg.fuse {
        g.fuse();
    }
    let mut order = order::order(&g, slots);
    if order.len() != g.alive().count() {
        // Fusion never closes a cycle, so this means a bug; report it rather than mis-schedule.
        return Err(MscclError::InvalidProgram(format!("{}: instruction graph has a cycle", algo.name)));
    }
    let placed = loop {
        match assign::assign(&g, &order, algo, cfg.max_channels)? {
            assign::Outcome::Placed(placed) => break placed,
            assign::Outcome::Split(fused) => {
                // The send goes right after its receive: every constraint it has, the fused
                // node had, so the order stays valid.
                let send = g.unfuse(fused);
                let at = order.iter().position(|&n| n == fused).map_or(order.len(), |p| p + 1);
                order.insert(at, send);
            }
        }
    };
    if let Some(&lost) = order.iter().find(|&&n| placed.tb_of[n] == usize::MAX) {
        // Every receive belongs to the flow of some send; reaching here means a bug.
        return Err(MscclError::InvalidProgram(format!("{}: instruction {lost} was not placed", algo.name)));
    }
    order::check_fifo(&g, &order, &placed.channel_of, slots, algo.protocol)?;
    Ok(emit::emit(&g, &order, &placed, algo))
}

/// An [`Algorithm`] has public fields: reject one that no program could have traced.
fn check_algorithm(algo: &Algorithm) -> Result<()> {
    algo.collective.validate()?;
    let ranks = algo.ranks();
    let bad = |why: String| Err(MscclError::InvalidProgram(format!("{}: {why}", algo.name)));
    if algo.instances == 0 {
        return bad("instances must be at least 1".into());
    }
    if algo.scratch_chunks.len() != ranks {
        return bad(format!("scratch sizes for {} ranks, but the collective has {ranks}", algo.scratch_chunks.len()));
    }
    for (at, op) in algo.ops.iter().enumerate() {
        if op.id != at || op.count == 0 || op.src.rank >= ranks || op.dst.rank >= ranks {
            return bad(format!("operation {at} ({op}) is malformed"));
        }
    }
    Ok(())
}
