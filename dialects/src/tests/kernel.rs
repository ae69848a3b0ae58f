//! A realistic kernel body: AllGather-GEMM with put_signal / wait / consume_token, mixing
//! `func`, `scf.for` with `iter_args`, `arith` on tensors, `tile.*` and `shmem.*`.

use super::{ctx, round_trip};
use crate::{parse, print, print_with_locations};

pub(crate) const AG_GEMM: &str = r#"// AllGather-GEMM, one 64x64 output tile per program instance.
module {
  func.func @ag_gemm(%a_local: !tile.ptr<f16>, %a_full: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                     %c: !tile.ptr<f32>, %signals: !tile.ptr<i64>, %K: i32, %shard: i64) {
    %pid = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %me = "shmem.my_pe"() : () -> i32
    %npes = "shmem.n_pes"() : () -> i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i64
    %npes_idx = arith.index_cast %npes : i32 to index
    // Producer: push my shard to every peer, then raise my signal there.
    %sig_me = "tile.addptr"(%signals, %me) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
    scf.for %i = %c0 to %npes_idx step %c1 {
      %peer = arith.index_cast %i : index to i32
      "shmem.put_signal"(%a_full, %a_local, %shard, %sig_me, %one, %peer) {scope = "block", nbi = "true", sig_op = "set"} : (!tile.ptr<f16>, !tile.ptr<f16>, i64, !tile.ptr<i64>, i64, i32) -> ()
    }
    "shmem.quiet"() : () -> ()
    // Consumer: offsets of a 64x64 tile.
    %r = "tile.make_range"() {start = 0 : i32, end = 64 : i32} : () -> tensor<64xi32>
    %rows = "tile.expand_dims"(%r) {axis = 1 : i32} : (tensor<64xi32>) -> tensor<64x1xi32>
    %cols = "tile.expand_dims"(%r) {axis = 0 : i32} : (tensor<64xi32>) -> tensor<1x64xi32>
    %rows_b = "tile.broadcast"(%rows) : (tensor<64x1xi32>) -> tensor<64x64xi32>
    %cols_b = "tile.broadcast"(%cols) : (tensor<1x64xi32>) -> tensor<64x64xi32>
    %Ks = "tile.splat"(%K) : (i32) -> tensor<64x64xi32>
    %row_off = arith.muli %rows_b, %Ks : tensor<64x64xi32>
    %offs = arith.addi %row_off, %cols_b : tensor<64x64xi32>
    %mask = arith.cmpi slt, %cols_b, %Ks : tensor<64x64xi32>
    %a_base = "tile.splat"(%a_full) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %b_base = "tile.splat"(%b) : (!tile.ptr<f16>) -> tensor<64x64x!tile.ptr<f16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %zero16 = arith.constant dense<0.000000e+00> : tensor<64x64xf16>
    %acc = scf.for %s = %c0 to %npes_idx step %c1 iter_args(%acc_in = %zero) -> (tensor<64x64xf32>) {
      %src = arith.index_cast %s : index to i32
      %sig = "tile.addptr"(%signals, %src) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
      %tok = "shmem.signal_wait_until"(%sig, %one) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
      %a_ptrs0 = "tile.addptr"(%a_base, %offs) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      %a_ptrs = "shmem.consume_token"(%a_ptrs0, %tok) : (tensor<64x64x!tile.ptr<f16>>, !shmem.token) -> tensor<64x64x!tile.ptr<f16>>
      %a_tile = "tile.load"(%a_ptrs, %mask, %zero16) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %b_ptrs = "tile.addptr"(%b_base, %offs) : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f16>>
      %b_tile = "tile.load"(%b_ptrs) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
      %acc_out = "tile.dot"(%a_tile, %b_tile, %acc_in) : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %acc_out : tensor<64x64xf32>
    }
    %half = arith.constant dense<5.000000e-01> : tensor<64x64xf32>
    %scaled = arith.mulf %acc, %half : tensor<64x64xf32>
    %c_base = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<64x64x!tile.ptr<f32>>
    %c_ptrs = "tile.addptr"(%c_base, %offs) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>) -> tensor<64x64x!tile.ptr<f32>>
    "tile.store"(%c_ptrs, %scaled, %mask) : (tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
    %rowmax = "tile.reduce"(%scaled) {kind = "max", axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32>
    %total = "tile.reduce"(%rowmax) {kind = "sum", axis = 0 : i32} : (tensor<64xf32>) -> f32
    "shmem.barrier_all"() : () -> ()
    return
  }
}
"#;

#[test]
fn ag_gemm_kernel_parses_and_round_trips() {
    let ctx = ctx();
    let printed = round_trip(&ctx, AG_GEMM);
    for needle in [
        "scf.for",
        "iter_args",
        "arith.muli",
        "\"tile.dot\"(",
        "\"shmem.put_signal\"(",
        "\"shmem.consume_token\"(",
        "!shmem.token",
        "tensor<64x64x!tile.ptr<f16>>",
    ] {
        assert!(printed.contains(needle), "{needle} missing:\n{printed}");
    }
    // Canonical text has no locations.
    assert!(!printed.contains("loc("), "{printed}");
}

#[test]
fn locations_survive_a_round_trip() {
    let ctx = ctx();
    let module = parse(&ctx, AG_GEMM, "ag_gemm.mlir").unwrap();
    let with_locs = print_with_locations(&module);
    // `%tok = "shmem.signal_wait_until"` is on line 36 of AG_GEMM; the op name at column 14.
    let line = with_locs
        .lines()
        .find(|l| l.contains("\"shmem.signal_wait_until\"("))
        .unwrap();
    assert!(line.ends_with("loc(\"ag_gemm.mlir\":36:14)"), "{line}");
    // Reparsing the located text (under another name) keeps the original locations.
    let again = parse(&ctx, &with_locs, "other.mlir").unwrap();
    assert_eq!(print_with_locations(&again), with_locs);
    assert_eq!(print(&again), print(&module));
}

#[test]
fn bare_function_is_wrapped_in_a_module() {
    let ctx = ctx();
    let text = "func.func @f() {\n  %0 = \"shmem.my_pe\"() : () -> i32\n  return\n}\n";
    let printed = round_trip(&ctx, text);
    assert!(
        printed.starts_with("module {\n  func.func @f()"),
        "{printed}"
    );
}

#[test]
fn several_top_level_ops_form_an_implicit_module() {
    let ctx = ctx();
    let text = "func.func @f() { %0 = \"shmem.my_pe\"() : () -> i32\n  return\n}\n\
                func.func @g(%x: i32) {\n  \"shmem.quiet\"() : () -> ()\n  return\n}\n";
    let module = parse(&ctx, text, "two.mlir").unwrap();
    let printed = print(&module);
    assert!(
        printed.contains("func.func @f()") && printed.contains("func.func @g("),
        "{printed}"
    );
    // Line-1 locations are not shifted by the implicit `module {` wrapper.
    let located = print_with_locations(&module);
    assert!(located.contains("loc(\"two.mlir\":1:23)"), "{located}");
    assert!(located.contains("} loc(\"two.mlir\":1:1)"), "{located}");
    assert!(located.contains("loc(\"two.mlir\":4:14)"), "{located}");
    assert_eq!(round_trip(&ctx, text), printed);
}

#[test]
fn empty_text_is_an_empty_module() {
    let ctx = ctx();
    for text in ["", "\n", "// just a comment\n"] {
        assert_eq!(
            print(&parse(&ctx, text, "empty.mlir").unwrap()),
            "module {\n}\n"
        );
    }
}
