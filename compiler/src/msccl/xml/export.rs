//! Writes MSCCL-IR XML in the layout msccl-tools produces and the msccl runtime reads.

use std::fmt::Write;

use crate::msccl::buffer::Buffer;
use crate::msccl::ir::{BufRef, MscclIr, Step, ThreadBlock};

/// The XML text of `ir`.
pub fn to_xml(ir: &MscclIr) -> String {
    let mut out = String::new();
    let mut algo = format!(
        "<algo name=\"{}\" proto=\"{}\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{}\" coll=\"{}\" inplace=\"{}\"",
        escape(&ir.name),
        ir.protocol.name(),
        ir.nchannels,
        ir.nchunksperloop,
        ir.ngpus(),
        escape(&ir.collective),
        u8::from(ir.inplace),
    );
    if let Some(outofplace) = ir.outofplace {
        let _ = write!(algo, " outofplace=\"{}\"", u8::from(outofplace));
    }
    if let Some(min) = ir.min_bytes {
        let _ = write!(algo, " minBytes=\"{min}\"");
    }
    if let Some(max) = ir.max_bytes {
        let _ = write!(algo, " maxBytes=\"{max}\"");
    }
    for (key, value) in &ir.extra_attrs {
        let _ = write!(algo, " {key}=\"{}\"", escape(value));
    }
    out.push_str(&algo);
    out.push_str(">\n");
    for gpu in &ir.gpus {
        let _ = write!(
            out,
            "  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\"",
            gpu.id, gpu.input_chunks, gpu.output_chunks, gpu.scratch_chunks
        );
        if gpu.tbs.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        for tb in &gpu.tbs {
            write_tb(&mut out, tb);
        }
        out.push_str("  </gpu>\n");
    }
    out.push_str("</algo>\n");
    out
}

fn write_tb(out: &mut String, tb: &ThreadBlock) {
    let _ = write!(
        out,
        "    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"{}\"",
        tb.id,
        peer(tb.send),
        peer(tb.recv),
        tb.channel
    );
    if tb.steps.is_empty() {
        out.push_str("/>\n");
        return;
    }
    out.push_str(">\n");
    for (s, step) in tb.steps.iter().enumerate() {
        write_step(out, s, step);
    }
    out.push_str("    </tb>\n");
}

fn write_step(out: &mut String, s: usize, step: &Step) {
    // msccl-tools spells an absent operand as offset -1 in `i` (source) / `o` (destination).
    let (srcbuf, srcoff) = operand(step.src, Buffer::Input);
    let (dstbuf, dstoff) = operand(step.dst, Buffer::Output);
    let (depid, deps) = step.dep.map_or((-1, -1), |d| (d.tb as i64, d.step as i64));
    let _ = writeln!(
        out,
        "      <step s=\"{s}\" type=\"{}\" srcbuf=\"{srcbuf}\" srcoff=\"{srcoff}\" dstbuf=\"{dstbuf}\" dstoff=\"{dstoff}\" cnt=\"{}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{}\"/>",
        step.kind.mnemonic(),
        step.count,
        u8::from(step.has_dep),
    );
}

fn operand(at: Option<BufRef>, absent: Buffer) -> (&'static str, i64) {
    at.map_or((absent.letter(), -1), |b| (b.buffer.letter(), b.index as i64))
}

fn peer(p: Option<usize>) -> i64 {
    p.map_or(-1, |p| p as i64)
}

/// Escapes an attribute value.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
