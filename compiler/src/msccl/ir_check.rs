//! Structural checks of an MSCCL-IR, shared by the XML importer (which maps a problem's site
//! to an element and line) and by in-memory validation.

use std::collections::BTreeMap;

use super::buffer::Buffer;
use super::error::MscclError;
use super::ir::{BufRef, Connection, Gpu, MscclIr, Step};

/// Which element a problem belongs to (positions, which equal ids once ids are checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// A `<gpu>`.
    Gpu(usize),
    /// A `<tb>` of a gpu.
    Tb(usize, usize),
    /// A `<step>` of a tb of a gpu.
    Step(usize, usize, usize),
}

/// A structural problem: the element, the attribute at fault and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub site: Site,
    pub attribute: &'static str,
    pub message: String,
}

impl Problem {
    fn new(site: Site, attribute: &'static str, message: String) -> Self {
        Problem { site, attribute, message }
    }

    /// The error for an in-memory IR (no line numbers).
    pub fn into_error(self) -> MscclError {
        let location = match self.site {
            Site::Gpu(g) => format!("gpu {g}"),
            Site::Tb(g, t) => format!("gpu {g} tb {t}"),
            Site::Step(g, t, s) => format!("gpu {g} tb {t} step {s}"),
        };
        MscclError::InvalidIr { location, attribute: self.attribute, message: self.message }
    }
}

/// Runs every check; the first problem wins.
pub(crate) fn check(ir: &MscclIr) -> Result<(), Problem> {
    for (g, gpu) in ir.gpus.iter().enumerate() {
        if gpu.id != g {
            return Err(Problem::new(Site::Gpu(g), "id", format!("gpu ids must be 0..{} in order", ir.ngpus())));
        }
        check_tbs(ir, g, gpu)?;
        for (t, tb) in gpu.tbs.iter().enumerate() {
            for (s, step) in tb.steps.iter().enumerate() {
                check_step(gpu, step)
                    .map_err(|(attribute, message)| Problem::new(Site::Step(g, t, s), attribute, message))?;
            }
        }
    }
    check_pairs(ir)
}

/// Thread block ids, peers and channels; one tb per (peer, channel) and direction.
fn check_tbs(ir: &MscclIr, g: usize, gpu: &Gpu) -> Result<(), Problem> {
    let mut senders = BTreeMap::new();
    let mut receivers = BTreeMap::new();
    for (t, tb) in gpu.tbs.iter().enumerate() {
        let site = Site::Tb(g, t);
        if tb.id != t {
            return Err(Problem::new(site, "id", format!("thread block ids of gpu {g} must be 0..{}", gpu.tbs.len())));
        }
        for (attribute, peer, owners) in [("send", tb.send, &mut senders), ("recv", tb.recv, &mut receivers)] {
            let Some(peer) = peer else { continue };
            if peer >= ir.ngpus() || peer == g {
                return Err(Problem::new(
                    site,
                    attribute,
                    format!("peer {peer} is not another gpu of the {}", ir.ngpus()),
                ));
            }
            if let Some(other) = owners.insert((peer, tb.channel), t) {
                return Err(Problem::new(
                    site,
                    attribute,
                    format!(
                        "tb {other} already has peer {peer} on channel {}: one tb per peer and channel",
                        tb.channel
                    ),
                ));
            }
        }
        if tb.channel >= ir.nchannels {
            return Err(Problem::new(
                site,
                "chan",
                format!("channel {} but nchannels is {}", tb.channel, ir.nchannels),
            ));
        }
        for (s, step) in tb.steps.iter().enumerate() {
            let site = Site::Step(g, t, s);
            if step.kind.sends() && tb.send.is_none() {
                return Err(Problem::new(
                    site,
                    "type",
                    format!("`{}` sends but tb {t} has no send peer", step.kind.mnemonic()),
                ));
            }
            if step.kind.receives() && tb.recv.is_none() {
                return Err(Problem::new(
                    site,
                    "type",
                    format!("`{}` receives but tb {t} has no recv peer", step.kind.mnemonic()),
                ));
            }
            if let Some(dep) = step.dep {
                let Some(target) = gpu.tbs.get(dep.tb) else {
                    return Err(Problem::new(site, "depid", format!("gpu {g} has no thread block {}", dep.tb)));
                };
                if dep.tb == t {
                    return Err(Problem::new(site, "depid", "a step cannot depend on its own thread block".into()));
                }
                let Some(dep_step) = target.steps.get(dep.step) else {
                    return Err(Problem::new(
                        site,
                        "deps",
                        format!("tb {} has only {} steps", dep.tb, target.steps.len()),
                    ));
                };
                if !dep_step.has_dep {
                    return Err(Problem::new(
                        site,
                        "deps",
                        format!("step {} of tb {} has hasdep=0, so it is never signalled", dep.step, dep.tb),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Local operands must exist and lie inside the gpu's buffers.
fn check_step(gpu: &Gpu, step: &Step) -> Result<(), (&'static str, String)> {
    let kind = step.kind;
    if kind != super::ir::StepKind::Nop && step.count == 0 {
        return Err(("cnt", format!("`{}` must move at least one chunk", kind.mnemonic())));
    }
    if kind.reads_src() {
        in_bounds(gpu, step.src, step.count).map_err(|m| ("srcoff", m))?;
    }
    if kind.writes_dst() {
        in_bounds(gpu, step.dst, step.count).map_err(|m| ("dstoff", m))?;
    }
    Ok(())
}

fn in_bounds(gpu: &Gpu, at: Option<BufRef>, count: usize) -> Result<(), String> {
    let Some(at) = at else { return Err("this step type needs a local buffer offset, not -1".into()) };
    let size = gpu.chunks(at.buffer);
    if at.index + count > size {
        let name = match at.buffer {
            Buffer::Input => "i_chunks",
            Buffer::Output => "o_chunks",
            Buffer::Scratch => "s_chunks",
        };
        return Err(format!("chunks {}..{} are out of range ({name} is {size})", at.index, at.index + count));
    }
    Ok(())
}

/// (gpu, tb, step) of every step of `tb` that sends (or receives).
fn message_steps(ir: &MscclIr, g: usize, t: usize, sending: bool) -> Vec<(usize, &Step)> {
    let steps = &ir.gpus[g].tbs[t].steps;
    steps.iter().enumerate().filter(|(_, s)| if sending { s.kind.sends() } else { s.kind.receives() }).collect()
}

/// The tb of gpu `g` that talks to `peer` on `channel` in the given direction.
fn tb_for(ir: &MscclIr, g: usize, peer: usize, channel: usize, sending: bool) -> Option<usize> {
    ir.gpus[g]
        .tbs
        .iter()
        .position(|tb| tb.channel == channel && if sending { tb.send == Some(peer) } else { tb.recv == Some(peer) })
}

/// Every send needs a receive on the peer (same channel, same order, same count), and the
/// other way round.
fn check_pairs(ir: &MscclIr) -> Result<(), Problem> {
    for (g, gpu) in ir.gpus.iter().enumerate() {
        for (t, tb) in gpu.tbs.iter().enumerate() {
            if let Some(peer) = tb.recv {
                let recvs = message_steps(ir, g, t, false);
                if !recvs.is_empty() && tb_for(ir, peer, g, tb.channel, true).is_none() {
                    return Err(Problem::new(
                        Site::Tb(g, t),
                        "recv",
                        format!("gpu {peer} has no thread block sending to gpu {g} on channel {}", tb.channel),
                    ));
                }
            }
            let Some(peer) = tb.send else { continue };
            let sends = message_steps(ir, g, t, true);
            if sends.is_empty() {
                continue;
            }
            let Some(rt) = tb_for(ir, peer, g, tb.channel, false) else {
                return Err(Problem::new(
                    Site::Tb(g, t),
                    "send",
                    format!("gpu {peer} has no thread block receiving from gpu {g} on channel {}", tb.channel),
                ));
            };
            let recvs = message_steps(ir, peer, rt, false);
            for (k, (s, send)) in sends.iter().enumerate() {
                let Some((rs, recv)) = recvs.get(k) else {
                    return Err(Problem::new(
                        Site::Step(g, t, *s),
                        "type",
                        format!("send #{k} to gpu {peer} on channel {} has no matching receive", tb.channel),
                    ));
                };
                if send.count != recv.count {
                    return Err(Problem::new(
                        Site::Step(peer, rt, *rs),
                        "cnt",
                        format!(
                            "receives {} chunks but the matching send (gpu {g} tb {t} step {s}) sends {}",
                            recv.count, send.count
                        ),
                    ));
                }
            }
            if let Some((rs, _)) = recvs.get(sends.len()) {
                return Err(Problem::new(
                    Site::Step(peer, rt, *rs),
                    "type",
                    format!("receive #{} from gpu {g} on channel {} has no matching send", sends.len(), tb.channel),
                ));
            }
        }
    }
    Ok(())
}

/// Connections with at least one message.
pub(crate) fn connections(ir: &MscclIr) -> Vec<Connection> {
    let mut out = Vec::new();
    for (g, gpu) in ir.gpus.iter().enumerate() {
        for (t, tb) in gpu.tbs.iter().enumerate() {
            let Some(peer) = tb.send else { continue };
            let messages = message_steps(ir, g, t, true).len();
            if messages == 0 || peer >= ir.ngpus() {
                continue;
            }
            if let Some(recv_tb) = tb_for(ir, peer, g, tb.channel, false) {
                out.push(Connection { from: g, to: peer, channel: tb.channel, send_tb: t, recv_tb, messages });
            }
        }
    }
    out.sort_by_key(|c| (c.from, c.to, c.channel));
    out
}
