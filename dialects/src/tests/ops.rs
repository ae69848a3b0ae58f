//! A valid use of every op in dialects/README.md parses, verifies and round-trips.

use super::{ctx, round_trip};
use crate::{Context, parse, print};
use std::collections::BTreeSet;

/// Function arguments the op cases use.
const ARGS: &str = "%p: !tile.ptr<f32>, %ph: !tile.ptr<f16>, %sig: !tile.ptr<i64>, \
    %ps: tensor<128x!tile.ptr<f32>>, %sigs: tensor<128x!tile.ptr<i64>>, %off: tensor<128xi32>, \
    %m: tensor<128xi1>, %v: tensor<128xf32>, %x: f32, %n: i64, %pe: i32, \
    %a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %acc: tensor<64x64xf32>, \
    %t2: tensor<32x64xf32>, %w: tensor<128xi32>";

/// (op, body) — `body` is a valid use of `op` inside a function with [`ARGS`].
pub(crate) const CASES: &[(&str, &str)] = &[
    (
        "tile.program_id",
        r#"%r = "tile.program_id"() {axis = 0 : i32} : () -> i32"#,
    ),
    (
        "tile.program_id",
        r#"%r = "tile.program_id"() {axis = 2 : i32} : () -> i32"#,
    ),
    (
        "tile.num_programs",
        r#"%r = "tile.num_programs"() {axis = 1 : i32} : () -> i32"#,
    ),
    (
        "tile.make_range",
        r#"%r = "tile.make_range"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>"#,
    ),
    (
        "tile.splat",
        r#"%r = "tile.splat"(%x) : (f32) -> tensor<128xf32>"#,
    ),
    (
        "tile.convert_layout",
        r#"%e = "tile.splat"(%x) : (f32) -> tensor<4x128xf32, {kind = "blocked"}>
  %r = "tile.convert_layout"(%e) {weft.shared = {kind = "shared"}} : (tensor<4x128xf32, {kind = "blocked"}>) -> tensor<4x128xf32, {kind = "mma"}>"#,
    ),
    (
        "tile.splat",
        r#"%r = "tile.splat"(%p) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>"#,
    ),
    (
        "tile.broadcast",
        r#"%e = "tile.expand_dims"(%v) {axis = 0 : i32} : (tensor<128xf32>) -> tensor<1x128xf32>
  %r = "tile.broadcast"(%e) : (tensor<1x128xf32>) -> tensor<4x128xf32>"#,
    ),
    (
        "tile.expand_dims",
        r#"%r = "tile.expand_dims"(%v) {axis = 1 : i32} : (tensor<128xf32>) -> tensor<128x1xf32>"#,
    ),
    (
        "tile.addptr",
        r#"%r = "tile.addptr"(%ps, %off) : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>"#,
    ),
    (
        "tile.addptr",
        r#"%r = "tile.addptr"(%p, %pe) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>"#,
    ),
    (
        "tile.addptr",
        r#"%r = "tile.addptr"(%sig, %n) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>"#,
    ),
    (
        "tile.ptr_cast",
        r#"%r = "tile.ptr_cast"(%ps) : (tensor<128x!tile.ptr<f32>>) -> tensor<128x!tile.ptr<i32>>"#,
    ),
    (
        "tile.ptr_cast",
        r#"%r = "tile.ptr_cast"(%ph) : (!tile.ptr<f16>) -> !tile.ptr<bf16>"#,
    ),
    (
        "tile.load",
        r#"%r = "tile.load"(%ps) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>"#,
    ),
    (
        "tile.load",
        r#"%r = "tile.load"(%ps, %m) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>"#,
    ),
    (
        "tile.load",
        r#"%r = "tile.load"(%ps, %m, %v) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>"#,
    ),
    (
        "tile.load",
        r#"%r = "tile.load"(%p) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<f32>) -> f32"#,
    ),
    (
        "tile.store",
        r#""tile.store"(%ps, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()"#,
    ),
    (
        "tile.store",
        r#""tile.store"(%ps, %v, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()"#,
    ),
    (
        "tile.store",
        r#""tile.store"(%p, %x) : (!tile.ptr<f32>, f32) -> ()"#,
    ),
    (
        "tile.reduce",
        r#"%r = "tile.reduce"(%t2) {kind = "sum", axis = 0 : i32} : (tensor<32x64xf32>) -> tensor<64xf32>"#,
    ),
    (
        "tile.reduce",
        r#"%r = "tile.reduce"(%v) {kind = "max", axis = 0 : i32} : (tensor<128xf32>) -> f32"#,
    ),
    (
        "tile.reduce",
        r#"%r = "tile.reduce"(%w) {kind = "min", axis = 0 : i32} : (tensor<128xi32>) -> i32"#,
    ),
    (
        "tile.dot",
        r#"%r = "tile.dot"(%a, %b, %acc) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>"#,
    ),
    ("tile.barrier", r#""tile.barrier"() : () -> ()"#),
    ("shmem.my_pe", r#"%r = "shmem.my_pe"() : () -> i32"#),
    ("shmem.n_pes", r#"%r = "shmem.n_pes"() : () -> i32"#),
    (
        "shmem.remote_ptr",
        r#"%r = "shmem.remote_ptr"(%p, %pe) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>"#,
    ),
    (
        "shmem.remote_ptr",
        r#"%r = "shmem.remote_ptr"(%ps, %pe) : (tensor<128x!tile.ptr<f32>>, i32) -> tensor<128x!tile.ptr<f32>>"#,
    ),
    (
        "shmem.put",
        r#""shmem.put"(%p, %p, %n, %pe) {scope = "thread", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.put",
        r#""shmem.put"(%ph, %ph, %n, %pe) {scope = "block", nbi = "true"} : (!tile.ptr<f16>, !tile.ptr<f16>, i64, i32) -> ()"#,
    ),
    (
        "shmem.get",
        r#""shmem.get"(%p, %p, %n, %pe) {scope = "warp", nbi = "true"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.put_signal",
        r#""shmem.put_signal"(%ph, %ph, %n, %sig, %n, %pe) {scope = "block", nbi = "true", sig_op = "set"} : (!tile.ptr<f16>, !tile.ptr<f16>, i64, !tile.ptr<i64>, i64, i32) -> ()"#,
    ),
    (
        "shmem.put_signal",
        r#""shmem.put_signal"(%p, %p, %n, %sig, %n, %pe) {scope = "warp", nbi = "false", sig_op = "add"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()"#,
    ),
    (
        "shmem.signal_op",
        r#""shmem.signal_op"(%sig, %n, %pe) {sig_op = "add"} : (!tile.ptr<i64>, i64, i32) -> ()"#,
    ),
    (
        "shmem.signal_wait_until",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> !shmem.token"#,
    ),
    (
        "shmem.signal_wait_until",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "le"} : (!tile.ptr<i64>, i64) -> !shmem.token"#,
    ),
    (
        "shmem.consume_token",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
  %r = "shmem.consume_token"(%ps, %t) : (tensor<128x!tile.ptr<f32>>, !shmem.token) -> tensor<128x!tile.ptr<f32>>"#,
    ),
    ("shmem.fence", r#""shmem.fence"() : () -> ()"#),
    ("shmem.quiet", r#""shmem.quiet"() : () -> ()"#),
    ("shmem.barrier_all", r#""shmem.barrier_all"() : () -> ()"#),
    (
        "shmem.multimem_st",
        r#""shmem.multimem_st"(%ps, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> ()"#,
    ),
    (
        "shmem.multimem_st",
        r#""shmem.multimem_st"(%ps, %v, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()"#,
    ),
    (
        "shmem.multimem_ld_reduce",
        r#"%r = "shmem.multimem_ld_reduce"(%ps) {kind = "sum"} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>"#,
    ),
    (
        "shmem.multimem_ld_reduce",
        r#"%r = "shmem.multimem_ld_reduce"(%ps, %m) {kind = "sum"} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>"#,
    ),
    (
        "shmem.ll_pack",
        r#"%r = "shmem.ll_pack"(%w, %pe) : (tensor<128xi32>, i32) -> tensor<128xi64>"#,
    ),
    (
        "shmem.ll_recv",
        r#"%r = "shmem.ll_recv"(%sigs, %pe) : (tensor<128x!tile.ptr<i64>>, i32) -> tensor<128xi32>"#,
    ),
    (
        "shmem.ll_recv",
        r#"%r = "shmem.ll_recv"(%sigs, %pe, %m) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>"#,
    ),
];

/// Wraps an op body in a module + function with [`ARGS`].
pub(crate) fn wrap(body: &str) -> String {
    format!("module {{\n  func.func @ops({ARGS}) {{\n  {body}\n    return\n  }}\n}}\n")
}

/// Op names in the README's op tables (`| `tile.x`, `tile.y` | ...`).
fn readme_ops() -> BTreeSet<String> {
    include_str!("../../README.md")
        .lines()
        .filter(|l| l.starts_with("| `tile.") || l.starts_with("| `shmem."))
        .flat_map(|l| {
            let first_cell = l.split('|').nth(1).unwrap_or("");
            first_cell
                .split('`')
                .filter(|s| s.starts_with("tile.") || s.starts_with("shmem."))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_readme_op_has_a_valid_case() {
    let ops = readme_ops();
    assert_eq!(ops.len(), 30, "{ops:?}");
    let covered: BTreeSet<String> = CASES.iter().map(|(op, _)| op.to_string()).collect();
    let missing: Vec<_> = ops.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "README ops without a valid test case: {missing:?}"
    );
    let unknown: Vec<_> = covered.difference(&ops).collect();
    assert!(
        unknown.is_empty(),
        "test cases for ops not in the README: {unknown:?}"
    );
}

#[test]
fn every_op_parses_verifies_and_round_trips() {
    let ctx = ctx();
    for (op, body) in CASES {
        let text = wrap(body);
        let module = parse(&ctx, &text, "case.mlir")
            .unwrap_or_else(|e| panic!("valid `{op}` rejected: {e}\n{text}"));
        use melior::ir::operation::OperationLike;
        assert!(module.as_operation().verify());
        let printed = round_trip(&ctx, &text);
        assert!(
            printed.contains(&format!("\"{op}\"(")),
            "`{op}` not in generic form:\n{printed}"
        );
    }
}

#[test]
fn every_op_is_registered() {
    let ctx: Context = ctx();
    for op in readme_ops() {
        assert!(ctx.is_registered_operation(&op), "{op} not registered");
    }
    assert!(!ctx.is_registered_operation("tile.nope"));
}

#[test]
fn all_ops_in_one_function() {
    let ctx = ctx();
    let body: Vec<String> = CASES
        .iter()
        .enumerate()
        .map(|(i, (_, body))| {
            body.replace("%r ", &format!("%r{i} "))
                .replace("%r)", &format!("%r{i})"))
                .replace("%e ", &format!("%e{i} "))
                .replace("(%e)", &format!("(%e{i})"))
                .replace("%t ", &format!("%t{i} "))
                .replace(", %t)", &format!(", %t{i})"))
        })
        .collect();
    let text = wrap(&body.join("\n  "));
    let printed = round_trip(&ctx, &text);
    assert_eq!(
        printed.matches("\"shmem.").count() + printed.matches("\"tile.").count(),
        CASES.len() + 3 // three cases define a helper op first
    );
    let module = parse(&ctx, &text, "all.mlir").unwrap();
    assert_eq!(print(&module), printed);
}
