module {
  func.func @reduce_broadcast(%arg0: !tile.ptr<f32>) attributes {weft.constexprs = {}, weft.params = ["x"]} {
    %0 = "tile.make_range"() {end = 2 : i32, start = 0 : i32} : () -> tensor<2xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<2xi32>) -> tensor<2x1xi32>
    %2 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %3 = "tile.expand_dims"(%2) {axis = 0 : i32} : (tensor<4xi32>) -> tensor<1x4xi32>
    %c4_i32 = arith.constant 4 : i32
    %4 = "tile.splat"(%c4_i32) : (i32) -> tensor<2x1xi32>
    %5 = arith.muli %1, %4 : tensor<2x1xi32>
    %6 = "tile.broadcast"(%5) : (tensor<2x1xi32>) -> tensor<2x4xi32>
    %7 = "tile.broadcast"(%3) : (tensor<1x4xi32>) -> tensor<2x4xi32>
    %8 = arith.addi %6, %7 : tensor<2x4xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<2x4x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<2x4x!tile.ptr<f32>>, tensor<2x4xi32>) -> tensor<2x4x!tile.ptr<f32>>
    %11 = "tile.load"(%10) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x4x!tile.ptr<f32>>) -> tensor<2x4xf32>
    %12 = "tile.make_range"() {end = 2 : i32, start = 0 : i32} : () -> tensor<2xi32>
    %13 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<2x!tile.ptr<f32>>
    %14 = "tile.addptr"(%13, %12) : (tensor<2x!tile.ptr<f32>>, tensor<2xi32>) -> tensor<2x!tile.ptr<f32>>
    %15 = "tile.reduce"(%11) {axis = 1 : i32, kind = "sum"} : (tensor<2x4xf32>) -> tensor<2xf32>
    "tile.store"(%14, %15) : (tensor<2x!tile.ptr<f32>>, tensor<2xf32>) -> ()
    %16 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %17 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %18 = "tile.addptr"(%17, %16) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %19 = "tile.reduce"(%11) {axis = 0 : i32, kind = "max"} : (tensor<2x4xf32>) -> tensor<4xf32>
    "tile.store"(%18, %19) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
