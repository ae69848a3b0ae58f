//! Reads an MSCCL++ execution plan (JSON) into a [`Plan`]: resolves each operation's channel
//! indices (thread-block local in the format) to the rank's channels and each remote
//! `buffer_id` (an index into the thread block's `remote_buffer_refs`) to a peer's buffer, and
//! checks ranks, chunk ranges and operand shapes; [`super::check`] then pairs channels,
//! signals, waits and barriers.

use serde_json::Value;

use super::error::PlanError;
use super::json::{field_error, uint, At, Result};
use super::{Channel, ChannelKind, Chunks, Plan, PlanGpu, PlanOp, PlanOpKind, PlanTb};
use crate::msccl::buffer::Buffer;
use crate::msccl::collective::CollectiveKind;

/// Parses and checks an MSCCL++ execution plan.
pub fn from_json(text: &str) -> Result<Plan> {
    let root: Value = serde_json::from_str(text)
        .map_err(|e| PlanError::Json { line: e.line(), column: e.column(), message: e.to_string() })?;
    let top = At { v: &root, path: "" };
    let packets = match top.str("protocol")? {
        "Simple" => false,
        "LL" => true,
        other => return Err(field_error(&top.sub("protocol"), format!("protocol `{other}` is not supported (MSCCL++ plans use Simple or LL)"))),
    };
    let double_scratch = match top.opt("use_double_scratch_buffer")? {
        Some(_) => top.bool("use_double_scratch_buffer")?,
        None => false,
    };
    let gpus_json = top.list("gpus")?;
    let ranks = gpus_json.len();
    if ranks == 0 {
        return Err(field_error(&top.sub("gpus"), "the plan has no gpus"));
    }
    // Chunk counts and remote buffers first: operations on any rank refer to them.
    let mut heads = Vec::with_capacity(ranks);
    for (r, (g, path)) in gpus_json.iter().enumerate() {
        let at = At { v: g, path };
        let id = at.uint("id")?;
        if id != r {
            return Err(field_error(&at.sub("id"), format!("gpu {r} of the list has id {id}; ids must be 0..{ranks} in order")));
        }
        let chunks = [at.uint("input_chunks")?, at.uint("output_chunks")?, at.uint("scratch_chunks")?];
        heads.push((chunks, channels(at, r, ranks)?, remote_buffers(at, r, ranks)?));
    }
    let all_chunks: Vec<[usize; 3]> = heads.iter().map(|h| h.0).collect();
    let mut gpus = Vec::with_capacity(ranks);
    for (r, ((g, path), (chunks, (memory, port), remotes))) in gpus_json.iter().zip(heads).enumerate() {
        let at = At { v: g, path };
        let cx = Rank { me: r, memory: &memory, port: &port, remotes: &remotes, chunks: &all_chunks, packets };
        let mut tbs = Vec::new();
        for (t, (tb, path)) in at.list("threadblocks")?.iter().enumerate() {
            tbs.push(cx.threadblock(At { v: tb, path }, t)?);
        }
        gpus.push(PlanGpu { id: r, chunks, memory, port, tbs });
    }
    let (name, collective) = (top.str("name")?.to_string(), top.str("collective")?.to_string());
    let mut plan = Plan { name, collective, inplace: top.bool("inplace")?, packets, double_scratch, gpus };
    if CollectiveKind::from_xml_name(&plan.collective).is_some() {
        plan.collective(0)?;
    }
    super::check::pair(&mut plan)?;
    super::check::signals(&plan)?;
    super::check::packets(&plan)?;
    Ok(plan)
}

fn channel_kind(s: &str, path: &str) -> Result<ChannelKind> {
    match s {
        "memory" => Ok(ChannelKind::Memory),
        "port" => Ok(ChannelKind::Port),
        "switch" => Err(field_error(path, "switch channels (NVLS multimem) are not supported")),
        other => Err(field_error(path, format!("unknown channel type `{other}` (memory, port, switch)"))),
    }
}

fn buffer(s: &str, path: &str) -> Result<Buffer> {
    Buffer::from_letter(s).ok_or_else(|| PlanError::UnknownBuffer { at: path.to_string(), what: format!("type `{s}` (i, o or s)") })
}

fn peer(p: usize, me: usize, ranks: usize, path: &str) -> Result<usize> {
    if p >= ranks || p == me {
        return Err(PlanError::MissingPeer { at: path.to_string(), peer: p, ranks });
    }
    Ok(p)
}

/// A rank's memory and port channels, in plan order (pairing is filled in by the checker).
fn channels(g: At, me: usize, ranks: usize) -> Result<(Vec<Channel>, Vec<Channel>)> {
    let (mut memory, mut port) = (vec![], vec![]);
    for (c, path) in g.list("channels")? {
        let at = At { v: c, path: &path };
        let kind = channel_kind(at.str("channel_type")?, &at.sub("channel_type"))?;
        let list = if kind == ChannelKind::Memory { &mut memory } else { &mut port };
        for (i, p) in at.uints("connected_to")?.into_iter().enumerate() {
            let peer = peer(p, me, ranks, &format!("{}[{i}]", at.sub("connected_to")))?;
            list.push(Channel { kind, peer, paired: usize::MAX });
        }
    }
    Ok((memory, port))
}

/// A rank's remote buffers: (owner, buffer, channel kinds that may access it).
type Remote = (usize, Buffer, Vec<ChannelKind>);

fn remote_buffers(g: At, me: usize, ranks: usize) -> Result<Vec<Remote>> {
    let mut out = vec![];
    for (b, path) in g.list("remote_buffers")? {
        let at = At { v: b, path: &path };
        let owner = peer(at.uint("rank")?, me, ranks, &at.sub("rank"))?;
        let buf = buffer(at.str("type")?, &at.sub("type"))?;
        let kinds = at
            .list("access_channel_types")?
            .into_iter()
            .map(|(v, p)| channel_kind(v.as_str().unwrap_or_default(), &p))
            .collect::<Result<Vec<_>>>()?;
        out.push((owner, buf, kinds));
    }
    Ok(out)
}

/// What a rank's thread blocks resolve their references against.
struct Rank<'a> {
    me: usize,
    memory: &'a [Channel],
    port: &'a [Channel],
    remotes: &'a [Remote],
    chunks: &'a [[usize; 3]],
    /// The plan's protocol is LL.
    packets: bool,
}

/// A thread block's own channel and remote-buffer lists, per channel kind.
struct TbRefs {
    channels: [Vec<usize>; 2],
    remotes: [Vec<usize>; 2],
}

fn slot(kind: ChannelKind) -> usize {
    kind as usize
}

impl Rank<'_> {
    fn threadblock(&self, at: At, t: usize) -> Result<PlanTb> {
        let id = at.uint("id")?;
        if id != t {
            return Err(field_error(&at.sub("id"), format!("thread block {t} of the list has id {id}; ids must be in order")));
        }
        let mut refs = TbRefs { channels: [vec![], vec![]], remotes: [vec![], vec![]] };
        for (c, path) in at.list("channels")? {
            let c = At { v: c, path: &path };
            let kind = channel_kind(c.str("channel_type")?, &c.sub("channel_type"))?;
            let have = if kind == ChannelKind::Memory { self.memory.len() } else { self.port.len() };
            for (i, id) in c.uints("channel_ids")?.into_iter().enumerate() {
                if id >= have {
                    let msg = format!("channel {id} does not exist (rank {} has {have} {} channels)", self.me, kind.name());
                    return Err(field_error(&format!("{}[{i}]", c.sub("channel_ids")), msg));
                }
                refs.channels[slot(kind)].push(id);
            }
        }
        for (r, path) in at.list("remote_buffer_refs")? {
            let r = At { v: r, path: &path };
            let kind = channel_kind(r.str("access_channel_type")?, &r.sub("access_channel_type"))?;
            for (i, id) in r.uints("remote_buffer_ids")?.into_iter().enumerate() {
                let p = format!("{}[{i}]", r.sub("remote_buffer_ids"));
                let Some((_, _, kinds)) = self.remotes.get(id) else {
                    let what = format!("remote buffer {id} (rank {} has {})", self.me, self.remotes.len());
                    return Err(PlanError::UnknownBuffer { at: p, what });
                };
                if !kinds.contains(&kind) {
                    return Err(field_error(&p, format!("remote buffer {id} is not accessible over {} channels", kind.name())));
                }
                refs.remotes[slot(kind)].push(id);
            }
        }
        let mut ops = vec![];
        for (op, path) in at.list("ops")? {
            ops.push(self.op(At { v: op, path: &path }, &refs)?);
        }
        Ok(PlanTb { id, ops })
    }

    fn op(&self, at: At, refs: &TbRefs) -> Result<PlanOp> {
        let name = at.str("name")?;
        let unsupported = || PlanError::UnsupportedOp { at: at.path.to_string(), op: name.to_string() };
        let kind = match name {
            "nop" => PlanOpKind::Nop,
            "barrier" => PlanOpKind::Barrier { id: at.uint("barrier_id")?, threadblocks: at.uint("num_threadblocks")? },
            "put" => PlanOpKind::Put,
            "pws" | "pwsf" => PlanOpKind::PutSignal,
            "get" => PlanOpKind::Get,
            "copy" => PlanOpKind::Copy,
            "signal" | "rlxsignal" => PlanOpKind::Signal,
            "wait" | "rlxwait" => PlanOpKind::Wait,
            "flush" => PlanOpKind::Flush,
            "re" | "res" | "rre" | "rres" => PlanOpKind::Reduce,
            "ppkt" => PlanOpKind::PutPackets,
            "rppkt" => PlanOpKind::ReadPutPackets,
            "cpkt" => PlanOpKind::CopyPackets,
            "upkt" => PlanOpKind::UnpackPackets,
            "repkt" => PlanOpKind::ReducePackets { copy: false, send: false },
            "respkt" => PlanOpKind::ReducePackets { copy: false, send: true },
            "recpkt" => PlanOpKind::ReducePackets { copy: true, send: false },
            "recspkt" => PlanOpKind::ReducePackets { copy: true, send: true },
            _ => return Err(unsupported()),
        };
        if kind.uses_packets() && !self.packets {
            return Err(field_error(at.path, format!("`{name}` moves packets, but the plan's protocol is Simple (packets need \"protocol\": \"LL\")")));
        }
        if let Some(op) = at.opt("reduce_op")?.and_then(Value::as_str).filter(|o| *o != "sum") {
            return Err(field_error(&at.sub("reduce_op"), format!("reduce_op `{op}` is not supported (sum)")));
        }
        let part = match at.opt("tbg_info")? {
            Some(g) => {
                let g = At { v: g, path: &at.sub("tbg_info") };
                let (id, size) = (g.uint("tb_id")?, g.uint("tbg_size")?);
                if id >= size {
                    return Err(field_error(g.path, format!("tb_id {id} is not below tbg_size {size}")));
                }
                (id, size)
            }
            None => (0, 1),
        };
        let chan_kind = match at.opt("channel_type")?.and_then(Value::as_str) {
            None | Some("none") => None,
            Some(s) => Some(channel_kind(s, &at.sub("channel_type"))?),
        };
        let mut channels = vec![];
        for (i, local) in at.uints("channel_ids")?.into_iter().enumerate() {
            let p = format!("{}[{i}]", at.sub("channel_ids"));
            let kind = chan_kind.ok_or_else(|| field_error(&at.sub("channel_type"), "channel_ids without a channel_type"))?;
            let list = &refs.channels[slot(kind)];
            let id = *list.get(local).ok_or_else(|| {
                field_error(&p, format!("the thread block has {} {} channels, not {}", list.len(), kind.name(), local + 1))
            })?;
            channels.push((kind, id));
        }
        if kind.uses_packets() && chan_kind == Some(ChannelKind::Port) {
            return Err(field_error(&at.sub("channel_type"), format!("`{name}` over port channels is not supported (packets move over memory channels)")));
        }
        let srcs = self.operands(at, "src_buff", chan_kind, refs, |i| kind.packet_src(i))?;
        let dsts = self.operands(at, "dst_buff", chan_kind, refs, |i| kind.packet_dst(i))?;
        let op = PlanOp { name: name.to_string(), kind, channels, srcs, dsts, part };
        shape(&op, at.path)?;
        Ok(op)
    }

    /// The operands under `key`; operand `i` is in packet format where `packet(i)`.
    fn operands(&self, op: At, key: &str, chan: Option<ChannelKind>, refs: &TbRefs, packet: impl Fn(usize) -> bool) -> Result<Vec<Chunks>> {
        let mut out = vec![];
        for (i, (b, path)) in op.list(key)?.into_iter().enumerate() {
            let at = At { v: b, path: &path };
            if at.opt("switch_channel_id")?.is_some() {
                return Err(field_error(&path, "switch channel buffers (NVLS) are not supported"));
            }
            let (rank, buffer) = match (at.opt("type")?, at.opt("buffer_id")?) {
                (Some(t), None) => (None, buffer(t.as_str().unwrap_or_default(), &at.sub("type"))?),
                (None, Some(id)) => {
                    let id = uint(id, &at.sub("buffer_id"))?;
                    let kind = chan.ok_or_else(|| field_error(&op.sub("channel_type"), "a remote buffer needs the op's channel_type"))?;
                    let list = &refs.remotes[slot(kind)];
                    let Some(&remote) = list.get(id) else {
                        let what = format!("buffer_id {id} (the thread block has {} {} remote buffers)", list.len(), kind.name());
                        return Err(PlanError::UnknownBuffer { at: at.sub("buffer_id"), what });
                    };
                    let (owner, buf, _) = self.remotes[remote];
                    (Some(owner), buf)
                }
                _ => return Err(field_error(&path, "a buffer reference needs exactly one of `type` (local) and `buffer_id` (remote)")),
            };
            let (index, count) = (at.uint("index")?, at.uint("size")?);
            let owner = rank.unwrap_or(self.me);
            let chunks = self.chunks[owner][buffer.slot()];
            if count == 0 || index + count > chunks {
                return Err(PlanError::ChunkOutOfRange { at: path.clone(), rank: owner, buffer, index, count, chunks });
            }
            let packet = packet(i);
            if packet && buffer != Buffer::Scratch {
                let what = if key == "src_buff" { "reads" } else { "writes" };
                let msg = format!("`{}` {what} packets in the {buffer} buffer; MSCCL++ keeps packets in the scratch buffer", op.str("name")?);
                return Err(field_error(&path, msg));
            }
            out.push(Chunks { rank, buffer, index, count, packet });
        }
        Ok(out)
    }
}

/// Checks which operands an operation has: local or remote, how many, equal sizes.
fn shape(op: &PlanOp, path: &str) -> Result<()> {
    let local = |c: &Chunks| c.rank.is_none();
    let (s, d) = (&op.srcs, &op.dsts);
    let ok = match (op.kind, op.name.as_str()) {
        (PlanOpKind::Put | PlanOpKind::PutSignal | PlanOpKind::PutPackets | PlanOpKind::ReadPutPackets, _) => !s.is_empty() && s.len() == d.len() && s.iter().all(local) && !d.iter().any(local),
        (PlanOpKind::Get, _) => !s.is_empty() && s.len() == d.len() && !s.iter().any(local) && d.iter().all(local),
        (PlanOpKind::Copy | PlanOpKind::CopyPackets | PlanOpKind::UnpackPackets, _) => s.len() == 1 && d.len() == 1 && local(&s[0]) && local(&d[0]),
        (PlanOpKind::ReducePackets { copy, send }, _) => {
            // Data and local packet sources; the data destination, then the local packet copy
            // (`copy`), then remote packets (`send`).
            let local_dsts = 1 + copy as usize;
            s.len() >= 2 && s.iter().all(local) && d.len() >= local_dsts && d[..local_dsts].iter().all(local) && d[local_dsts..].iter().all(|c| !local(c)) && (send || d.len() == local_dsts)
        }
        (PlanOpKind::Reduce, name) => {
            // re / res read local sources, rre / rres remote ones after the first; res / rres
            // also write remote destinations after the first.
            let remote_reads = name.starts_with("rr");
            let remote_writes = name.ends_with('s');
            s.len() >= 2
                && !d.is_empty()
                && local(&s[0])
                && local(&d[0])
                && s[1..].iter().all(|c| local(c) != remote_reads)
                && d[1..].iter().all(|c| !local(c))
                && (remote_writes || d.len() == 1)
        }
        _ => s.is_empty() && d.is_empty(),
    };
    if !ok {
        return Err(field_error(path, format!("`{}` has the wrong operands (src_buff {} entries, dst_buff {} entries, local and remote as the op requires)", op.name, s.len(), d.len())));
    }
    if let Some(c) = s.iter().chain(d).find(|c| c.count != s.first().or(d.first()).map_or(0, |f| f.count)) {
        return Err(field_error(path, format!("`{}` moves {} chunks in one operand and a different count in another", op.name, c.count)));
    }
    let needs_channels = matches!(op.kind, PlanOpKind::PutSignal | PlanOpKind::Signal | PlanOpKind::Wait);
    if needs_channels && op.channels.is_empty() {
        return Err(field_error(path, format!("`{}` names no channel_ids", op.name)));
    }
    Ok(())
}
