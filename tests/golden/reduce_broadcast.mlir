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
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_reduce_broadcast(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %cst = arith.constant dense<[0, 1]> : vector<2xi32>
//     %cst_0 = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %c4_i32 = arith.constant 4 : i32
//     %3 = vector.broadcast %c4_i32 : i32 to vector<2xi32>
//     %4 = arith.muli %cst, %3 : vector<2xi32>
//     %5 = vector.shuffle %4, %4 [0, 0, 0, 0, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
//     %6 = vector.shuffle %cst_0, %cst_0 [0, 1, 2, 3, 0, 1, 2, 3] : vector<4xi32>, vector<4xi32>
//     %7 = arith.addi %5, %6 : vector<8xi32>
//     %8 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %9 = vector.broadcast %8 : i64 to vector<8xi64>
//     %10 = llvm.inttoptr %8 : i64 to !llvm.ptr
//     %11 = arith.extsi %7 : vector<8xi32> to vector<8xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %12 = vector.broadcast %c4_i64 : i64 to vector<8xi64>
//     %13 = arith.muli %11, %12 : vector<8xi64>
//     %14 = arith.addi %9, %13 : vector<8xi64>
//     %15 = llvm.inttoptr %14 : vector<8xi64> to vector<8x!llvm.ptr>
//     %cst_1 = arith.constant dense<true> : vector<8xi1>
//     %16 = llvm.mlir.zero : vector<8xf32>
//     %17 = llvm.intr.masked.gather %15, %cst_1, %16 {alignment = 4 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
//     %cst_2 = arith.constant dense<[0, 1]> : vector<2xi32>
//     %18 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %19 = vector.broadcast %18 : i64 to vector<2xi64>
//     %20 = llvm.inttoptr %18 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %21 = llvm.getelementptr %20[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %22 = arith.extsi %cst_2 : vector<2xi32> to vector<2xi64>
//     %c4_i64_3 = arith.constant 4 : i64
//     %23 = vector.broadcast %c4_i64_3 : i64 to vector<2xi64>
//     %24 = arith.muli %22, %23 : vector<2xi64>
//     %25 = arith.addi %19, %24 : vector<2xi64>
//     %26 = vector.shuffle %17, %17 [0, 4] : vector<8xf32>, vector<8xf32>
//     %27 = vector.shuffle %17, %17 [1, 5] : vector<8xf32>, vector<8xf32>
//     %28 = arith.addf %26, %27 : vector<2xf32>
//     %29 = vector.shuffle %17, %17 [2, 6] : vector<8xf32>, vector<8xf32>
//     %30 = arith.addf %28, %29 : vector<2xf32>
//     %31 = vector.shuffle %17, %17 [3, 7] : vector<8xf32>, vector<8xf32>
//     %32 = arith.addf %30, %31 : vector<2xf32>
//     llvm.store %32, %21 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//     %cst_4 = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %33 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %34 = vector.broadcast %33 : i64 to vector<4xi64>
//     %35 = llvm.inttoptr %33 : i64 to !llvm.ptr
//     %c0_i64_5 = arith.constant 0 : i64
//     %36 = llvm.getelementptr %35[%c0_i64_5] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %37 = arith.extsi %cst_4 : vector<4xi32> to vector<4xi64>
//     %c4_i64_6 = arith.constant 4 : i64
//     %38 = vector.broadcast %c4_i64_6 : i64 to vector<4xi64>
//     %39 = arith.muli %37, %38 : vector<4xi64>
//     %40 = arith.addi %34, %39 : vector<4xi64>
//     %41 = vector.shuffle %17, %17 [0, 1, 2, 3] : vector<8xf32>, vector<8xf32>
//     %42 = vector.shuffle %17, %17 [4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
//     %43 = arith.maximumf %41, %42 : vector<4xf32>
//     llvm.store %43, %36 {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
//     return
//   }
// }
