// The `shmem` dialect of weft (OpenSHMEM-style one-sided operations), defined in IRDL and
// loaded into the MLIR context at run time (`weft_dialects::context()`). The op contract is
// dialects/README.md.
//
// This file refers to `!tile.ptr` (`@tile::@ptr`), so it must be loaded in the same IRDL module
// as tile.irdl.mlir: `weft_dialects::context()` concatenates the two; with mlir-opt use
//   cat tile.irdl.mlir shmem.irdl.mlir > weft.irdl.mlir && mlir-opt-22 --irdl-file=weft.irdl.mlir
//
// IRDL checks: operand / result / attribute counts, exact scalar types (`nelems` and signal
// values i64, `pe` and `flag` i32), signals are exactly `!tile.ptr<i64>`, put / get / put_signal
// `dst` and `src` are scalar `!tile.ptr<T>` with the same T, remote_ptr and consume_token return
// their first operand's type, `!shmem.token`, and the enumerations (string attributes limited to
// their allowed values; `nbi` is the string "false" or "true").
//
// IRDL cannot express, so the compiler's own checker (compiler/) enforces:
//   * tensor element types (multimem ptrs `tensor<..x!tile.ptr<T>>`, masks of i1, ll_pack
//     `tensor<Nxi32>` -> `tensor<Nxi64>`, ll_recv `tensor<Nx!tile.ptr<i64>>` -> `tensor<Nxi32>`);
//   * shape agreement (multimem value / mask vs ptrs, ll_pack / ll_recv N);
//   * that multimem_ld_reduce's result element matches the pointee.
//
// Optional operands: multimem_st, multimem_ld_reduce and ll_recv each have one optional `mask`,
// which is present iff the operand count says so (no `operandSegmentSizes` needed).

irdl.dialect @shmem {
  // `!shmem.token`: proof that a `signal_wait_until` completed.
  irdl.type @token {
  }

  // %r = "shmem.my_pe"() : () -> i32
  irdl.operation @my_pe {
    %i32 = irdl.is i32
    irdl.results(result: %i32)
  }

  // %r = "shmem.n_pes"() : () -> i32
  irdl.operation @n_pes {
    %i32 = irdl.is i32
    irdl.results(result: %i32)
  }

  // %r = "shmem.remote_ptr"(%ptrs, %pe) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
  irdl.operation @remote_ptr {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptrs = irdl.any_of(%ptr, %ptr_tensor)
    %i32 = irdl.is i32
    irdl.operands(ptr: %ptrs, pe: %i32)
    irdl.results(result: %ptrs)
  }

  // "shmem.put"(%dst, %src, %nelems, %pe) {scope = "block", nbi = "true"}
  //   : (!tile.ptr<f16>, !tile.ptr<f16>, i64, i32) -> ()
  irdl.operation @put {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %i64 = irdl.is i64
    %i32 = irdl.is i32
    %thread = irdl.is "thread"
    %warp = irdl.is "warp"
    %block = irdl.is "block"
    %scope = irdl.any_of(%thread, %warp, %block)
    %false = irdl.is "false"
    %true = irdl.is "true"
    %nbi = irdl.any_of(%false, %true)
    irdl.attributes { "scope" = %scope, "nbi" = %nbi }
    irdl.operands(dst: %ptr, src: %ptr, nelems: %i64, pe: %i32)
  }

  // "shmem.get"(%dst, %src, %nelems, %pe) {scope = "thread", nbi = "false"}
  //   : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
  irdl.operation @get {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %i64 = irdl.is i64
    %i32 = irdl.is i32
    %thread = irdl.is "thread"
    %warp = irdl.is "warp"
    %block = irdl.is "block"
    %scope = irdl.any_of(%thread, %warp, %block)
    %false = irdl.is "false"
    %true = irdl.is "true"
    %nbi = irdl.any_of(%false, %true)
    irdl.attributes { "scope" = %scope, "nbi" = %nbi }
    irdl.operands(dst: %ptr, src: %ptr, nelems: %i64, pe: %i32)
  }

  // "shmem.put_signal"(%dst, %src, %nelems, %sig, %sigval, %pe)
  //   {scope = "block", nbi = "true", sig_op = "set"}
  //   : (!tile.ptr<f16>, !tile.ptr<f16>, i64, !tile.ptr<i64>, i64, i32) -> ()
  irdl.operation @put_signal {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %i64 = irdl.is i64
    %sig = irdl.parametric @tile::@ptr<%i64>
    %i32 = irdl.is i32
    %thread = irdl.is "thread"
    %warp = irdl.is "warp"
    %block = irdl.is "block"
    %scope = irdl.any_of(%thread, %warp, %block)
    %false = irdl.is "false"
    %true = irdl.is "true"
    %nbi = irdl.any_of(%false, %true)
    %set = irdl.is "set"
    %add = irdl.is "add"
    %sig_op = irdl.any_of(%set, %add)
    irdl.attributes { "scope" = %scope, "nbi" = %nbi, "sig_op" = %sig_op }
    irdl.operands(dst: %ptr, src: %ptr, nelems: %i64, sig: %sig, sigval: %i64, pe: %i32)
  }

  // "shmem.signal_op"(%sig, %value, %pe) {sig_op = "add"} : (!tile.ptr<i64>, i64, i32) -> ()
  irdl.operation @signal_op {
    %i64 = irdl.is i64
    %sig = irdl.parametric @tile::@ptr<%i64>
    %i32 = irdl.is i32
    %set = irdl.is "set"
    %add = irdl.is "add"
    %sig_op = irdl.any_of(%set, %add)
    irdl.attributes { "sig_op" = %sig_op }
    irdl.operands(sig: %sig, value: %i64, pe: %i32)
  }

  // %tok = "shmem.signal_wait_until"(%sig, %value) {cmp = "ge"}
  //          : (!tile.ptr<i64>, i64) -> !shmem.token
  irdl.operation @signal_wait_until {
    %i64 = irdl.is i64
    %sig = irdl.parametric @tile::@ptr<%i64>
    %eq = irdl.is "eq"
    %ne = irdl.is "ne"
    %gt = irdl.is "gt"
    %ge = irdl.is "ge"
    %lt = irdl.is "lt"
    %le = irdl.is "le"
    %cmp = irdl.any_of(%eq, %ne, %gt, %ge, %lt, %le)
    %token = irdl.base @shmem::@token
    irdl.attributes { "cmp" = %cmp }
    irdl.operands(sig: %sig, value: %i64)
    irdl.results(token: %token)
  }

  // %r = "shmem.consume_token"(%v, %tok) : (tensor<128x!tile.ptr<f32>>, !shmem.token)
  //        -> tensor<128x!tile.ptr<f32>>
  irdl.operation @consume_token {
    %value = irdl.any
    %token = irdl.base @shmem::@token
    irdl.operands(value: %value, token: %token)
    irdl.results(result: %value)
  }

  // "shmem.fence"() : () -> ()
  irdl.operation @fence {
  }

  // "shmem.quiet"() : () -> ()
  irdl.operation @quiet {
  }

  // "shmem.barrier_all"() : () -> ()
  irdl.operation @barrier_all {
  }

  // "shmem.multimem_st"(%ptrs, %value, %mask)
  //   : (tensor<128x!tile.ptr<bf16>>, tensor<128xbf16>, tensor<128xi1>) -> ()
  irdl.operation @multimem_st {
    %ptrs = irdl.base "!builtin.tensor"
    %value = irdl.base "!builtin.tensor"
    %mask = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %ptrs, value: %value, mask: optional %mask)
  }

  // %r = "shmem.multimem_ld_reduce"(%ptrs, %mask) {kind = "sum"}
  //        : (tensor<128x!tile.ptr<bf16>>, tensor<128xi1>) -> tensor<128xbf16>
  irdl.operation @multimem_ld_reduce {
    %ptrs = irdl.base "!builtin.tensor"
    %mask = irdl.base "!builtin.tensor"
    %value = irdl.base "!builtin.tensor"
    %sum = irdl.is "sum"
    irdl.attributes { "kind" = %sum }
    irdl.operands(ptr: %ptrs, mask: optional %mask)
    irdl.results(result: %value)
  }

  // %r = "shmem.ll_pack"(%data, %flag) : (tensor<128xi32>, i32) -> tensor<128xi64>
  irdl.operation @ll_pack {
    %data = irdl.base "!builtin.tensor"
    %i32 = irdl.is i32
    %packed = irdl.base "!builtin.tensor"
    irdl.operands(data: %data, flag: %i32)
    irdl.results(result: %packed)
  }

  // %r = "shmem.ll_recv"(%ptrs, %flag, %mask)
  //        : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
  irdl.operation @ll_recv {
    %ptrs = irdl.base "!builtin.tensor"
    %i32 = irdl.is i32
    %mask = irdl.base "!builtin.tensor"
    %data = irdl.base "!builtin.tensor"
    irdl.operands(ptr: %ptrs, flag: %i32, mask: optional %mask)
    irdl.results(result: %data)
  }
}
