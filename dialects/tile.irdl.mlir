// The `tile` dialect of weft, defined in IRDL and loaded into the MLIR context at run time
// (`weft_dialects::context()`). The op contract is dialects/README.md.
//
// IRDL checks: operand / result / attribute counts, exact scalar types (i32, i64, i1), the kind
// of each value (`!tile.ptr<T>` with T one of the six element types, builtin ranked or unranked
// `tensor`), enumerations (string attributes limited to their allowed values), `axis` of
// program_id / num_programs (0, 1 or 2, as i32), and "same type" relations written as one shared
// constraint variable (addptr result = ptrs operand, dot result = acc).
//
// IRDL cannot express, so the compiler's own checker (compiler/) enforces:
//   * the element types of tensors (`tensor<Nx!tile.ptr<T>>`, masks `tensor<..xi1>`, integer
//     offsets) and "a scalar, not a tensor" for tile.splat;
//   * shape agreement (addptr offsets, load/store mask and other, broadcast, expand_dims,
//     reduce, dot MxK · KxN -> MxN, make_range's N = end - start);
//   * that integer attributes other than program_id/num_programs `axis` are i32 (`#builtin.integer`
//     is the tightest base IRDL offers for attributes of arbitrary value), and their ranges;
//   * that tile.load's result element matches the pointee, and ptr_cast changes the pointee only.
//
// Optional operands: tile.load has two (mask, other) and so needs `operandSegmentSizes`
// (`array<i32: 1, m, o>`); ops with a single optional operand infer it from the operand count.

irdl.dialect @tile {
  // `!tile.ptr<T>`: pointer to one element of type T.
  irdl.type @ptr {
    %f32 = irdl.is f32
    %f16 = irdl.is f16
    %bf16 = irdl.is bf16
    %i8 = irdl.is i8
    %i32 = irdl.is i32
    %i64 = irdl.is i64
    %f8e4m3 = irdl.is f8E4M3FN
    %f8e5m2 = irdl.is f8E5M2
    %elem = irdl.any_of(%f32, %f16, %bf16, %i8, %i32, %i64, %f8e4m3, %f8e5m2)
    irdl.parameters(pointee: %elem)
  }

  // %r = "tile.program_id"() {axis = 0 : i32} : () -> i32
  irdl.operation @program_id {
    %a0 = irdl.is 0 : i32
    %a1 = irdl.is 1 : i32
    %a2 = irdl.is 2 : i32
    %axis = irdl.any_of(%a0, %a1, %a2)
    %i32 = irdl.is i32
    irdl.attributes { "axis" = %axis }
    irdl.results(result: %i32)
  }

  // %r = "tile.num_programs"() {axis = 0 : i32} : () -> i32
  irdl.operation @num_programs {
    %a0 = irdl.is 0 : i32
    %a1 = irdl.is 1 : i32
    %a2 = irdl.is 2 : i32
    %axis = irdl.any_of(%a0, %a1, %a2)
    %i32 = irdl.is i32
    irdl.attributes { "axis" = %axis }
    irdl.results(result: %i32)
  }

  // %r = "tile.make_range"() {start = 0 : i32, end = 128 : i32} : () -> tensor<128xi32>
  irdl.operation @make_range {
    %start = irdl.base "#builtin.integer"
    %end = irdl.base "#builtin.integer"
    %tensor = irdl.base "!builtin.tensor"
    irdl.attributes { "start" = %start, "end" = %end }
    irdl.results(result: %tensor)
  }

  // %r = "tile.splat"(%scalar) : (f32) -> tensor<128xf32>
  irdl.operation @splat {
    %scalar = irdl.any
    %tensor = irdl.base "!builtin.tensor"
    irdl.operands(value: %scalar)
    irdl.results(result: %tensor)
  }

  // %r = "tile.broadcast"(%t) : (tensor<1x64xf32>) -> tensor<32x64xf32>
  irdl.operation @broadcast {
    %src = irdl.base "!builtin.tensor"
    %dst = irdl.base "!builtin.tensor"
    irdl.operands(value: %src)
    irdl.results(result: %dst)
  }

  // %r = "tile.convert_layout"(%t) : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #blocked>
  // Only in the GPU `layout` stage: the same tile read in another encoding (the encodings are
  // tensor-type attributes; see compiler/src/layout). A dot operand's conversion may say how it
  // is staged in shared memory (`weft.shared`, a discardable attribute).
  irdl.operation @convert_layout {
    %src = irdl.base "!builtin.tensor"
    %dst = irdl.base "!builtin.tensor"
    irdl.operands(value: %src)
    irdl.results(result: %dst)
  }

  // %r = "tile.expand_dims"(%t) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
  irdl.operation @expand_dims {
    %axis = irdl.base "#builtin.integer"
    %src = irdl.base "!builtin.tensor"
    %dst = irdl.base "!builtin.tensor"
    irdl.attributes { "axis" = %axis }
    irdl.operands(value: %src)
    irdl.results(result: %dst)
  }

  // %r = "tile.addptr"(%ptrs, %offsets)
  //        : (tensor<128x!tile.ptr<f32>>, tensor<128xi32>) -> tensor<128x!tile.ptr<f32>>
  irdl.operation @addptr {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptrs = irdl.any_of(%ptr, %ptr_tensor)
    %int = irdl.base "!builtin.integer"
    %int_tensor = irdl.base "!builtin.tensor"
    %offsets = irdl.any_of(%int, %int_tensor)
    irdl.operands(ptr: %ptrs, offset: %offsets)
    irdl.results(result: %ptrs)
  }

  // %r = "tile.ptr_cast"(%ptrs) : (tensor<128x!tile.ptr<f32>>) -> tensor<128x!tile.ptr<i32>>
  irdl.operation @ptr_cast {
    %src_pointee = irdl.any
    %src_ptr = irdl.parametric @tile::@ptr<%src_pointee>
    %src_tensor = irdl.base "!builtin.tensor"
    %src = irdl.any_of(%src_ptr, %src_tensor)
    %dst_pointee = irdl.any
    %dst_ptr = irdl.parametric @tile::@ptr<%dst_pointee>
    %dst_tensor = irdl.base "!builtin.tensor"
    %dst = irdl.any_of(%dst_ptr, %dst_tensor)
    irdl.operands(ptr: %src)
    irdl.results(result: %dst)
  }

  // %r = "tile.load"(%ptrs, %mask, %other) {operandSegmentSizes = array<i32: 1, 1, 1>}
  //        : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  irdl.operation @load {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptrs = irdl.any_of(%ptr, %ptr_tensor)
    %i1 = irdl.is i1
    %mask_tensor = irdl.base "!builtin.tensor"
    %mask = irdl.any_of(%i1, %mask_tensor)
    %other = irdl.any
    %value = irdl.any
    irdl.operands(ptr: %ptrs, mask: optional %mask, other: optional %other)
    irdl.results(result: %value)
  }

  // "tile.store"(%ptrs, %value, %mask)
  //   : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  irdl.operation @store {
    %pointee = irdl.any
    %ptr = irdl.parametric @tile::@ptr<%pointee>
    %ptr_tensor = irdl.base "!builtin.tensor"
    %ptrs = irdl.any_of(%ptr, %ptr_tensor)
    %value = irdl.any
    %i1 = irdl.is i1
    %mask_tensor = irdl.base "!builtin.tensor"
    %mask = irdl.any_of(%i1, %mask_tensor)
    irdl.operands(ptr: %ptrs, value: %value, mask: optional %mask)
  }

  // %r = "tile.reduce"(%t) {kind = "sum", axis = 0 : i32} : (tensor<32x64xf32>) -> tensor<64xf32>
  irdl.operation @reduce {
    %sum = irdl.is "sum"
    %max = irdl.is "max"
    %min = irdl.is "min"
    %kind = irdl.any_of(%sum, %max, %min)
    %axis = irdl.base "#builtin.integer"
    %src = irdl.base "!builtin.tensor"
    %result = irdl.any
    irdl.attributes { "kind" = %kind, "axis" = %axis }
    irdl.operands(value: %src)
    irdl.results(result: %result)
  }

  // %r = "tile.dot"(%a, %b, %acc)
  //        : (tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  irdl.operation @dot {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %acc = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, acc: %acc)
    irdl.results(result: %acc)
  }

  // "tile.barrier"() : () -> ()
  // The instance's memory accesses before it complete before any after it.
  irdl.operation @barrier {
  }
}
