module {
  func.func @add(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: i32) attributes {weft.constexprs = {BLOCK = "8"}, weft.params = ["x", "y", "out", "n"]} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %c8_i32 = arith.constant 8 : i32
    %1 = arith.muli %0, %c8_i32 : i32
    %2 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %3 = "tile.splat"(%1) : (i32) -> tensor<8xi32>
    %4 = arith.addi %3, %2 : tensor<8xi32>
    %5 = "tile.splat"(%arg3) : (i32) -> tensor<8xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<8xi32>
    %7 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<8x!tile.ptr<f32>>
    %8 = "tile.addptr"(%7, %4) : (tensor<8x!tile.ptr<f32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<f32>>
    %cst = arith.constant 0.000000e+00 : f32
    %9 = "tile.splat"(%cst) : (f32) -> tensor<8xf32>
    %10 = "tile.load"(%8, %6, %9) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x!tile.ptr<f32>>, tensor<8xi1>, tensor<8xf32>) -> tensor<8xf32>
    %11 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<8x!tile.ptr<f32>>
    %12 = "tile.addptr"(%11, %4) : (tensor<8x!tile.ptr<f32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<f32>>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %13 = "tile.splat"(%cst_0) : (f32) -> tensor<8xf32>
    %14 = "tile.load"(%12, %6, %13) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<8x!tile.ptr<f32>>, tensor<8xi1>, tensor<8xf32>) -> tensor<8xf32>
    %15 = "tile.splat"(%arg2) : (!tile.ptr<f32>) -> tensor<8x!tile.ptr<f32>>
    %16 = "tile.addptr"(%15, %4) : (tensor<8x!tile.ptr<f32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<f32>>
    %17 = arith.addf %10, %14 : tensor<8xf32>
    "tile.store"(%16, %17, %6) : (tensor<8x!tile.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> ()
    return
  }
}
