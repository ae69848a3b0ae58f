//! Ill-typed uses and garbage fail with one-line messages that name the op; nothing panics.

use super::ctx;
use super::ops::wrap;
use crate::{DialectError, Severity, parse};

/// Parses `body` (inside the ops test function) and returns the error.
fn fails(ctx: &crate::Context, body: &str) -> DialectError {
    let text = wrap(body);
    match parse(ctx, &text, "bad.mlir") {
        Ok(m) => panic!("accepted:\n{}", crate::print(&m)),
        Err(e) => e,
    }
}

/// (op the error must name, a substring of the message, body)
const ILL_TYPED: &[(&str, &str, &str)] = &[
    // wrong operand types
    (
        "shmem.put",
        "expected 'i64' but got 'i32'",
        r#""shmem.put"(%p, %p, %pe, %pe) {scope = "thread", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i32, i32) -> ()"#,
    ),
    (
        "shmem.put",
        "expected 'i32' but got 'i64'",
        r#""shmem.put"(%p, %p, %n, %n) {scope = "thread", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i64) -> ()"#,
    ),
    (
        "shmem.put",
        "expected '!tile.ptr<f32>' but got '!tile.ptr<f16>'",
        r#""shmem.put"(%p, %ph, %n, %pe) {scope = "thread", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f16>, i64, i32) -> ()"#,
    ),
    (
        "shmem.signal_op",
        "",
        r#""shmem.signal_op"(%p, %n, %pe) {sig_op = "add"} : (!tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.signal_wait_until",
        "",
        r#"%t = "shmem.signal_wait_until"(%sig, %pe) {cmp = "eq"} : (!tile.ptr<i64>, i32) -> !shmem.token"#,
    ),
    (
        "shmem.signal_wait_until",
        "",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> i32"#,
    ),
    (
        "shmem.put_signal",
        "",
        r#""shmem.put_signal"(%p, %p, %n, %p, %n, %pe) {scope = "block", nbi = "true", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.consume_token",
        "",
        r#"%r = "shmem.consume_token"(%ps, %n) : (tensor<128x!tile.ptr<f32>>, i64) -> tensor<128x!tile.ptr<f32>>"#,
    ),
    (
        "shmem.consume_token",
        "",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> !shmem.token
  %r = "shmem.consume_token"(%ps, %t) : (tensor<128x!tile.ptr<f32>>, !shmem.token) -> tensor<128xf32>"#,
    ),
    (
        "shmem.remote_ptr",
        "",
        r#"%r = "shmem.remote_ptr"(%p, %pe) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>"#,
    ),
    (
        "shmem.remote_ptr",
        "",
        r#"%r = "shmem.remote_ptr"(%x, %pe) : (f32, i32) -> f32"#,
    ),
    (
        "shmem.my_pe",
        "expected 'i32' but got 'i64'",
        r#"%r = "shmem.my_pe"() : () -> i64"#,
    ),
    (
        "shmem.ll_pack",
        "",
        r#"%r = "shmem.ll_pack"(%w, %n) : (tensor<128xi32>, i64) -> tensor<128xi64>"#,
    ),
    (
        "shmem.multimem_st",
        "",
        r#""shmem.multimem_st"(%p, %x) : (!tile.ptr<f32>, f32) -> ()"#,
    ),
    (
        "tile.program_id",
        "expected 'i32' but got 'i64'",
        r#"%r = "tile.program_id"() {axis = 0 : i32} : () -> i64"#,
    ),
    (
        "tile.addptr",
        "",
        r#"%r = "tile.addptr"(%p, %x) : (!tile.ptr<f32>, f32) -> !tile.ptr<f32>"#,
    ),
    (
        "tile.addptr",
        "expected '!tile.ptr<f32>' but got '!tile.ptr<i32>'",
        r#"%r = "tile.addptr"(%p, %pe) : (!tile.ptr<f32>, i32) -> !tile.ptr<i32>"#,
    ),
    (
        "tile.load",
        "",
        r#"%r = "tile.load"(%p, %x) {operandSegmentSizes = array<i32: 1, 1, 0>} : (!tile.ptr<f32>, f32) -> f32"#,
    ),
    (
        "tile.load",
        "",
        r#"%r = "tile.load"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (f32) -> f32"#,
    ),
    (
        "tile.store",
        "",
        r#""tile.store"(%x, %x) : (f32, f32) -> ()"#,
    ),
    (
        "tile.dot",
        "",
        r#"%r = "tile.dot"(%a, %b, %acc) : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf16>"#,
    ),
    ("tile.splat", "", r#"%r = "tile.splat"(%x) : (f32) -> f32"#),
    // wrong attribute values / kinds
    (
        "shmem.signal_wait_until",
        "\"foo\"",
        r#"%t = "shmem.signal_wait_until"(%sig, %n) {cmp = "foo"} : (!tile.ptr<i64>, i64) -> !shmem.token"#,
    ),
    (
        "shmem.put",
        "\"grid\"",
        r#""shmem.put"(%p, %p, %n, %pe) {scope = "grid", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.put",
        "true",
        r#""shmem.put"(%p, %p, %n, %pe) {scope = "thread", nbi = true} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.get",
        "\"yes\"",
        r#""shmem.get"(%p, %p, %n, %pe) {scope = "thread", nbi = "yes"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "shmem.signal_op",
        "\"xor\"",
        r#""shmem.signal_op"(%sig, %n, %pe) {sig_op = "xor"} : (!tile.ptr<i64>, i64, i32) -> ()"#,
    ),
    (
        "shmem.multimem_ld_reduce",
        "\"max\"",
        r#"%r = "shmem.multimem_ld_reduce"(%ps) {kind = "max"} : (tensor<128x!tile.ptr<f32>>) -> tensor<128xf32>"#,
    ),
    (
        "tile.reduce",
        "\"avg\"",
        r#"%r = "tile.reduce"(%v) {kind = "avg", axis = 0 : i32} : (tensor<128xf32>) -> f32"#,
    ),
    (
        "tile.reduce",
        "builtin.integer",
        r#"%r = "tile.reduce"(%v) {kind = "sum", axis = "0"} : (tensor<128xf32>) -> f32"#,
    ),
    (
        "tile.program_id",
        "3 : i32",
        r#"%r = "tile.program_id"() {axis = 3 : i32} : () -> i32"#,
    ),
    (
        "tile.program_id",
        "0 : i64",
        r#"%r = "tile.program_id"() {axis = 0 : i64} : () -> i32"#,
    ),
    // missing attributes / operands, extra operands
    (
        "shmem.put",
        "\"scope\" is expected",
        r#""shmem.put"(%p, %p, %n, %pe) {nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()"#,
    ),
    (
        "tile.expand_dims",
        "\"axis\" is expected",
        r#"%r = "tile.expand_dims"(%v) : (tensor<128xf32>) -> tensor<128x1xf32>"#,
    ),
    (
        "shmem.put",
        "operands",
        r#""shmem.put"(%p, %p, %n) {scope = "thread", nbi = "false"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64) -> ()"#,
    ),
    (
        "shmem.signal_wait_until",
        "operands",
        r#"%t = "shmem.signal_wait_until"(%sig) {cmp = "eq"} : (!tile.ptr<i64>) -> !shmem.token"#,
    ),
    (
        "shmem.fence",
        "operands",
        r#""shmem.fence"(%n) : (i64) -> ()"#,
    ),
    (
        "tile.dot",
        "operands",
        r#"%r = "tile.dot"(%a, %b) : (tensor<64x32xf16>, tensor<32x64xf16>) -> tensor<64x64xf32>"#,
    ),
    (
        "tile.load",
        "operandSegmentSizes",
        r#"%r = "tile.load"(%ps, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>"#,
    ),
    (
        "shmem.quiet",
        "results",
        r#"%r = "shmem.quiet"() : () -> i32"#,
    ),
    (
        "shmem.put_signal",
        "sig_op",
        r#""shmem.put_signal"(%p, %p, %n, %sig, %n, %pe) {scope = "block", nbi = "true"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()"#,
    ),
];

#[test]
fn ill_typed_uses_fail_naming_the_op() {
    let ctx = ctx();
    for (op, needle, body) in ILL_TYPED {
        let e = fails(&ctx, body);
        let shown = e.to_string();
        assert!(
            matches!(e, DialectError::Verify { .. }),
            "{op}: expected a verify error, got {e:?}"
        );
        assert_eq!(e.op(), Some(*op), "{op}: {shown}");
        assert!(shown.starts_with("bad.mlir:"), "{shown}");
        assert!(shown.contains(&format!("error in `{op}`: ")), "{shown}");
        assert!(shown.contains(needle), "{op}: `{needle}` not in: {shown}");
        assert!(!shown.contains('\n'), "not one line: {shown}");
        assert!(!e.diagnostics().is_empty());
    }
}

#[test]
fn display_is_file_line_col_op_message() {
    let ctx = ctx();
    let text = "module {\n  func.func @k(%d: !tile.ptr<f32>, %s: !tile.ptr<f32>, %n: i32, %pe: i32) {\n        \"shmem.put\"(%d, %s, %n, %pe) {scope = \"thread\", nbi = \"false\"} : (!tile.ptr<f32>, !tile.ptr<f32>, i32, i32) -> ()\n    return\n  }\n}\n";
    let e = parse(&ctx, text, "kernel.mlir").unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel.mlir:3:9: error in `shmem.put`: expected 'i64' but got 'i32'"
    );
    match &e {
        DialectError::Verify {
            file,
            line,
            col,
            op,
            message,
            diagnostics,
        } => {
            assert_eq!((file.as_str(), *line, *col), ("kernel.mlir", 3, 9));
            assert_eq!(op.as_deref(), Some("shmem.put"));
            assert_eq!(message, "expected 'i64' but got 'i32'");
            assert_eq!(diagnostics[0].severity, Severity::Error);
            assert!(diagnostics[0].notes[0].starts_with("see current operation"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn parse_errors_name_the_op_from_the_source_line() {
    let ctx = ctx();
    // A value used with two types: a parse error whose message names no op.
    let text = "func.func @k(%n: i64, %pe: i32, %p: !tile.ptr<f32>) {\n  \"shmem.put\"(%p, %p, %n, %pe) {scope = \"thread\", nbi = \"false\"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i64) -> ()\n  return\n}\n";
    let e = parse(&ctx, text, "k.mlir").unwrap_err();
    assert!(matches!(e, DialectError::Parse { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "k.mlir:2:27: error in `shmem.put`: use of value '%pe' expects different type than prior uses: 'i64' vs 'i32'"
    );
    // A bad `!tile.ptr` parameter: reported inside the function signature.
    let e = parse(
        &ctx,
        "func.func @k(%p: !tile.ptr<f64>) {\n  return\n}\n",
        "k.mlir",
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "k.mlir:1:24: error in `func.func`: 'f64' does not satisfy the constraint"
    );
    // Unknown op of a known dialect.
    let e = parse(
        &ctx,
        "func.func @k() {\n  \"tile.nope\"() : () -> ()\n  return\n}\n",
        "k.mlir",
    )
    .unwrap_err();
    assert_eq!(e.op(), Some("tile.nope"), "{e}");
    assert!(
        e.to_string()
            .starts_with("k.mlir:2:3: error in `tile.nope`: "),
        "{e}"
    );
    // Upstream op misuse in pretty form.
    let e = parse(
        &ctx,
        "func.func @k(%a: i32, %b: i64) {\n  %0 = arith.addi %a, %b : i32\n  return\n}\n",
        "k.mlir",
    )
    .unwrap_err();
    assert_eq!(e.op(), Some("arith.addi"), "{e}");
}

#[test]
fn all_diagnostics_are_kept_and_the_first_is_shown() {
    let ctx = ctx();
    let text = "func.func @a() {\n  %0 = \"shmem.my_pe\"() : () -> i64\n  return\n}\n\
                func.func @b() {\n  %0 = \"shmem.n_pes\"() : () -> f32\n  return\n}\n";
    let e = parse(&ctx, text, "two.mlir").unwrap_err();
    let errors: Vec<_> = e
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 2, "{:?}", e.diagnostics());
    assert_eq!(
        e.to_string(),
        "two.mlir:2:8: error in `shmem.my_pe`: expected 'i32' but got 'i64'"
    );
    assert_eq!(
        errors[1].to_string(),
        "two.mlir:6:8: error in `shmem.n_pes`: expected 'i32' but got 'f32'"
    );
}

#[test]
fn garbage_fails_cleanly() {
    let ctx = ctx();
    let garbage = [
        "this is not MLIR",
        "}}}}",
        "module {",
        "module { func.func @f( }",
        "\"tile.program_id\"(",
        "\0\0\0",
        "module {\n}\0module { garbage",
        "module { \"unterminated string }",
        "!tile.ptr<",
        "func.func @f() { %0 = \"shmem.my_pe\"() : () -> !tile.ptr<>\n return }",
        "func.func @f() { %0 = \"shmem.my_pe\"() : () -> !tile.ptr<f32, f32>\n return }",
        "func.func @f() { %0 = \"shmem.my_pe\"() : () -> !shmem.token<i32>\n return }",
        "func.func @f() { %0 = \"shmem.my_pe\"() : () -> !shmem.nope\n return }",
        "func.func @f() { return %undefined : i32 }",
        "#map = affine_map<(d0) -> (d0)>\nfunc.func @f() { return }\nfunc.func @g() { return }",
        "\u{feff}module {}\u{1F600}",
    ];
    for text in garbage {
        let e = parse(&ctx, text, "junk.mlir")
            .err()
            .unwrap_or_else(|| panic!("accepted {text:?}"));
        let shown = e.to_string();
        assert!(shown.starts_with("junk.mlir"), "{shown}");
        assert!(shown.contains("error"), "{shown}");
        assert!(!shown.contains('\n'), "{shown}");
        assert!(!e.diagnostics().is_empty(), "{text:?}: {e:?}");
    }
    // Random bytes (as lossy UTF-8) never panic.
    let mut seed = 0x2545F4914F6CDD1Du64;
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..64)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed & 0xff) as u8
            })
            .collect();
        let _ = parse(&ctx, &String::from_utf8_lossy(&bytes), "random.mlir");
    }
}

#[test]
fn context_is_usable_after_errors() {
    let ctx = ctx();
    assert!(parse(&ctx, "nonsense", "a.mlir").is_err());
    let text = wrap(r#"%r = "shmem.my_pe"() : () -> i32"#);
    assert!(parse(&ctx, &text, "b.mlir").is_ok());
}

#[test]
fn verify_checks_modules_built_in_memory() {
    use melior::ir::{BlockLike, Location, operation::OperationBuilder, r#type::IntegerType};
    let ctx = ctx();
    let module = parse(
        &ctx,
        &wrap(r#"%r = "shmem.my_pe"() : () -> i32"#),
        "ok.mlir",
    )
    .unwrap();
    crate::verify(&module).unwrap();
    let loc = Location::new(&ctx, "built.mlir", 7, 3);
    let module = crate::Module::new(Location::unknown(&ctx));
    let op = OperationBuilder::new("shmem.my_pe", loc)
        .add_results(&[IntegerType::new(&ctx, 64).into()])
        .build()
        .unwrap();
    module.body().append_operation(op);
    let e = crate::verify(&module).unwrap_err();
    assert!(matches!(e, DialectError::Verify { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "built.mlir:7:3: error in `shmem.my_pe`: expected 'i32' but got 'i64'"
    );
}
