//! MSCCL-IR XML: hand-written fixtures in msccl-tools' layout, round trips, and malformed
//! input, each error naming its element, attribute and line.

use std::collections::BTreeSet;

use super::*;

const RING: &str = include_str!("fixtures/allreduce_ring_3.xml");
const PAIRS: &str = include_str!("fixtures/allreduce_pairs_2.xml");

#[test]
fn ring_fixture_imports_verifies_and_exports_byte_identically() {
    let ir = xml::from_xml(RING).expect("imports");
    assert_eq!((ir.ngpus(), ir.nchannels, ir.nchunksperloop, ir.protocol), (3, 1, 3, Protocol::LL128));
    assert!(ir.inplace);
    let coll = ir.inferred_collective().unwrap();
    assert_eq!((coll.kind(), coll.ranks(), coll.chunk_factor()), (CollectiveKind::AllReduce, 3, 3));
    verify_ir(&ir, &coll).expect("the ring fixture is a correct allreduce");
    assert_eq!(xml::to_xml(&ir), RING, "export reproduces msccl-tools' layout");
    let conns = ir.connections();
    assert_eq!(conns.len(), 3);
    assert!(conns.iter().all(|c| c.to == (c.from + 1) % 3 && c.messages == 4 && c.channel == 0));
}

#[test]
fn pairs_fixture_uses_cpy_re_nop_rrc_and_round_trips() {
    let ir = xml::from_xml(PAIRS).expect("imports");
    assert_eq!((ir.outofplace, ir.min_bytes, ir.max_bytes), (Some(true), Some(0), Some(65536)));
    let nop = &ir.gpus[1].tbs[1].steps[0];
    assert_eq!((nop.kind, nop.dep, nop.src, nop.count), (StepKind::Nop, Some(Dep { tb: 0, step: 0 }), None, 0));
    verify_ir(&ir, &Collective::AllReduce { ranks: 2, chunks: 2 }).expect("verifies");
    let text = xml::to_xml(&ir);
    let without_comments: String = PAIRS.lines().filter(|l| !l.starts_with("<!--")).map(|l| format!("{l}\n")).collect();
    assert_eq!(text, without_comments);
    assert_eq!(xml::from_xml(&text).unwrap(), ir);
}

#[test]
fn the_fixtures_cover_every_step_type() {
    let kinds: BTreeSet<&str> = [RING, PAIRS]
        .iter()
        .flat_map(|t| xml::from_xml(t).unwrap().gpus)
        .flat_map(|g| g.tbs)
        .flat_map(|t| t.steps)
        .map(|s| s.kind.mnemonic())
        .collect();
    let all: BTreeSet<&str> = StepKind::ALL.iter().map(|k| k.mnemonic()).collect();
    assert_eq!(kinds, all);
}

/// Replaces the first `from` in `base` by `to`; returns the text and the 1-based line changed.
fn mutate(base: &str, from: &str, to: &str) -> (String, u32) {
    let at = base.find(from).unwrap_or_else(|| panic!("`{from}` not in fixture"));
    let line = base[..at].matches('\n').count() as u32 + 1;
    (format!("{}{to}{}", &base[..at], &base[at + from.len()..]), line)
}

/// Imports `text`, expecting an XML error at `element` / `attribute` on `line`.
fn rejects(text: &str, element: &str, attribute: Option<&str>, line: u32) -> XmlError {
    match xml::from_xml(text) {
        Err(MscclError::Xml(e)) => {
            assert_eq!(
                (e.element.as_str(), e.attribute.as_deref(), e.line),
                (element, attribute, line),
                "wrong location for: {e}"
            );
            e
        }
        Err(other) => panic!("expected an XML error, got {other}"),
        Ok(_) => panic!("malformed XML was accepted:\n{text}"),
    }
}

#[test]
fn dependency_on_a_missing_thread_block() {
    let (text, line) = mutate(PAIRS, r#"depid="2" deps="2""#, r#"depid="7" deps="2""#);
    let e = rejects(&text, "step", Some("depid"), line);
    assert!(e.message.contains("no thread block 7"), "{e}");
    assert!(e.to_string().starts_with(&format!("MSCCL-IR XML line {line}: <step> attribute `depid`")), "{e}");
}

#[test]
fn dependency_on_a_missing_step_or_unsignalled_step() {
    let (text, line) = mutate(PAIRS, r#"depid="2" deps="2""#, r#"depid="2" deps="9""#);
    rejects(&text, "step", Some("deps"), line);
    // The nop waits on the copy, which must then signal (hasdep=1).
    let (text, _) = mutate(
        PAIRS,
        r#"dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1""#,
        r#"dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0""#,
    );
    let nop_line = PAIRS.lines().position(|l| l.contains(r#"type="nop""#)).unwrap() as u32 + 1;
    let e = rejects(&text, "step", Some("deps"), nop_line);
    assert!(e.message.contains("hasdep=0"), "{e}");
    let (text, line) = mutate(PAIRS, r#"depid="2" deps="2""#, r#"depid="-1" deps="2""#);
    rejects(&text, "step", Some("depid"), line);
}

#[test]
fn send_without_a_matching_receive() {
    // gpu 1 now receives from gpu 2 instead of gpu 0: gpu 0's sends have no receiver.
    let (text, _) =
        mutate(RING, r#"<tb id="0" send="2" recv="0" chan="0">"#, r#"<tb id="0" send="2" recv="2" chan="0">"#);
    let tb_line = RING.lines().position(|l| l.contains(r#"send="1" recv="2""#)).unwrap() as u32 + 1;
    let e = rejects(&text, "tb", Some("send"), tb_line);
    assert!(e.message.contains("gpu 1 has no thread block receiving from gpu 0"), "{e}");
    // One send more than the peer receives.
    let extra = r#"      <step s="5" type="s" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>"#;
    let (text, line) = mutate(RING, "    </tb>", extra);
    let e = rejects(&text, "step", Some("type"), line);
    assert!(e.message.contains("no matching receive"), "{e}");
}

#[test]
fn send_and_receive_counts_must_match() {
    let (text, line) = mutate(
        RING,
        r#"<step s="3" type="rcs" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="1""#,
        r#"<step s="3" type="rcs" srcbuf="i" srcoff="0" dstbuf="i" dstoff="0" cnt="2""#,
    );
    let e = rejects(&text, "step", Some("cnt"), line);
    assert!(e.message.contains("receives 2 chunks"), "{e}");
}

#[test]
fn chunk_index_out_of_range() {
    let (text, line) = mutate(RING, r#"type="s" srcbuf="i" srcoff="2""#, r#"type="s" srcbuf="i" srcoff="3""#);
    let e = rejects(&text, "step", Some("srcoff"), line);
    assert!(e.message.contains("i_chunks is 3"), "{e}");
    let (text, line) = mutate(
        PAIRS,
        r#"type="re" srcbuf="s" srcoff="0" dstbuf="o" dstoff="0""#,
        r#"type="re" srcbuf="s" srcoff="0" dstbuf="o" dstoff="2""#,
    );
    rejects(&text, "step", Some("dstoff"), line);
    let (text, line) = mutate(PAIRS, r#"type="re" srcbuf="s" srcoff="0""#, r#"type="re" srcbuf="s" srcoff="1""#);
    let e = rejects(&text, "step", Some("srcoff"), line);
    assert!(e.message.contains("s_chunks is 1"), "{e}");
}

#[test]
fn unknown_values_and_missing_attributes() {
    let (text, line) = mutate(RING, r#"type="rrcs""#, r#"type="rrx""#);
    let e = rejects(&text, "step", Some("type"), line);
    assert!(e.message.contains("unknown step type `rrx`"), "{e}");
    let (text, line) = mutate(RING, r#" cnt="1""#, "");
    let e = rejects(&text, "step", Some("cnt"), line);
    assert_eq!(e.message, "missing required attribute");
    let (text, line) = mutate(RING, r#"proto="LL128""#, r#"proto="LL64""#);
    rejects(&text, "algo", Some("proto"), line);
    let (text, line) = mutate(RING, r#"srcbuf="i""#, r#"srcbuf="x""#);
    rejects(&text, "step", Some("srcbuf"), line);
    let (text, line) = mutate(RING, r#"hasdep="0""#, r#"hasdep="2""#);
    rejects(&text, "step", Some("hasdep"), line);
    let (text, line) = mutate(RING, r#"srcoff="2""#, r#"srcoff="two""#);
    rejects(&text, "step", Some("srcoff"), line);
    let (text, line) = mutate(RING, "<step ", "<stp ");
    rejects(&text, "stp", None, line);
}

#[test]
fn ids_peers_channels_and_counts_are_checked() {
    let (text, line) = mutate(PAIRS, r#"<tb id="1" send="-1""#, r#"<tb id="0" send="-1""#);
    rejects(&text, "tb", Some("id"), line);
    let (text, line) = mutate(RING, r#"ngpus="3""#, r#"ngpus="4""#);
    rejects(&text, "algo", Some("ngpus"), line);
    let (text, line) = mutate(RING, r#"<step s="1" type="rrs""#, r#"<step s="5" type="rrs""#);
    rejects(&text, "step", Some("s"), line);
    let (text, line) = mutate(RING, r#"send="1" recv="2""#, r#"send="0" recv="2""#);
    rejects(&text, "tb", Some("send"), line);
    let (text, line) = mutate(RING, r#"send="1" recv="2" chan="0""#, r#"send="1" recv="2" chan="1""#);
    rejects(&text, "tb", Some("chan"), line);
    let (text, line) = mutate(RING, r#"<gpu id="2""#, r#"<gpu id="1""#);
    rejects(&text, "gpu", Some("id"), line);
}

#[test]
fn syntax_errors_report_the_line() {
    let (text, _) = mutate(RING, "    </tb>\n  </gpu>\n  <gpu id=\"1\"", "  </gpu>\n  <gpu id=\"1\"");
    match xml::from_xml(&text) {
        Err(MscclError::Xml(e)) => assert!(e.line > 1 && e.element.is_empty(), "{e}"),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn imported_xml_that_races_or_computes_wrongly_fails_verification() {
    let coll = Collective::AllReduce { ranks: 2, chunks: 2 };
    // Without the nop the reduce may run before the copy it adds to: a race on o[0].
    let (text, _) = mutate(PAIRS, r#"depid="0" deps="0""#, r#"depid="-1" deps="-1""#);
    let ir = xml::from_xml(&text).unwrap();
    let err = verify_ir(&ir, &coll).unwrap_err();
    assert!(matches!(&err, MscclError::DataRace { gpu: 0, slot, .. } if slot == "o[0]"), "{err}");
    // The rrc adds the wrong local chunk.
    let (text, _) = mutate(PAIRS, r#"type="rrc" srcbuf="i" srcoff="1""#, r#"type="rrc" srcbuf="i" srcoff="0""#);
    let err = verify_ir(&xml::from_xml(&text).unwrap(), &coll).unwrap_err();
    let MscclError::WrongOutput { rank: 0, index: 1, expected, actual: Some(actual), .. } = &err else {
        panic!("expected a wrong output at rank 0 out[1], got {err}");
    };
    assert_eq!(expected.to_string(), spelled_sum(0..2, 1));
    assert_eq!(actual.to_string(), "in[r0:c0]+in[r1:c1]");
}
