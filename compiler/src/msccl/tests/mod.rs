//! Tests of the MSCCL front end. Expected values come from the collectives' definitions
//! computed here independently (loops over ranks and indices), not from recorded outputs.

mod builtins;
mod collective;
mod dsl;
mod exec;
mod pipeline;
mod random;
mod schedule;
mod select;
mod xml_io;

use super::*;

/// `in[r{rank}:c{index}]` summed over `ranks`, spelled out by hand.
fn spelled_sum(ranks: impl IntoIterator<Item = usize>, index: usize) -> String {
    ranks.into_iter().map(|r| format!("in[r{r}:c{index}]")).collect::<Vec<_>>().join("+")
}

/// Schedules with defaults, checks the IR symbolically, and round-trips it through XML.
fn schedule_verify_roundtrip(algo: &Algorithm) -> MscclIr {
    let ir = schedule(algo, &ScheduleConfig::default()).unwrap_or_else(|e| panic!("{}: schedule: {e}", algo.name));
    let coll = algo.collective.scaled(algo.instances);
    verify_ir(&ir, &coll).unwrap_or_else(|e| panic!("{} x{}: verify_ir: {e}", algo.name, algo.instances));
    let text = xml::to_xml(&ir);
    let back = xml::from_xml(&text).unwrap_or_else(|e| panic!("{}: reimport: {e}\n{text}", algo.name));
    assert_eq!(back, ir, "{}: XML round trip changed the IR", algo.name);
    assert_eq!(xml::to_xml(&back), text, "{}: export is not stable", algo.name);
    verify_ir(&back, &coll).unwrap_or_else(|e| panic!("{}: verify_ir after reimport: {e}", algo.name));
    ir
}

/// Steps of `kind` on gpu `g`.
fn count_kind(ir: &MscclIr, g: usize, kind: StepKind) -> usize {
    ir.gpus[g].tbs.iter().flat_map(|t| &t.steps).filter(|s| s.kind == kind).count()
}
