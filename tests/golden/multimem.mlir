module {
  func.func @multimem(%arg0: !tile.ptr<f16>, %arg1: i32) attributes {weft.constexprs = {}, weft.params = ["x", "n"]} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %c16_i32 = arith.constant 16 : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %3 = "tile.splat"(%1) : (i32) -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = "tile.splat"(%arg1) : (i32) -> tensor<16xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<16xi32>
    %7 = "tile.splat"(%arg0) : (!tile.ptr<f16>) -> tensor<16x!tile.ptr<f16>>
    %8 = "tile.addptr"(%7, %4) : (tensor<16x!tile.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f16>>
    %9 = "shmem.multimem_ld_reduce"(%8, %6) {kind = "sum"} : (tensor<16x!tile.ptr<f16>>, tensor<16xi1>) -> tensor<16xf16>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<f16>) -> tensor<16x!tile.ptr<f16>>
    %11 = "tile.addptr"(%10, %4) : (tensor<16x!tile.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f16>>
    "shmem.multimem_st"(%11, %9, %6) : (tensor<16x!tile.ptr<f16>>, tensor<16xf16>, tensor<16xi1>) -> ()
    return
  }
}
