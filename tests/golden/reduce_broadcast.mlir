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
//     %3 = llvm.mlir.constant(1 : i64) : i64
//     %4 = llvm.alloca %3 x !llvm.array<8 x f32> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %cst = arith.constant dense<[0, 1]> : vector<2xi32>
//     %cst_0 = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %c4_i32 = arith.constant 4 : i32
//     %5 = vector.broadcast %c4_i32 : i32 to vector<2xi32>
//     %6 = arith.muli %cst, %5 : vector<2xi32>
//     %7 = vector.shuffle %6, %6 [0, 0, 0, 0, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
//     %8 = vector.shuffle %cst_0, %cst_0 [0, 1, 2, 3, 0, 1, 2, 3] : vector<4xi32>, vector<4xi32>
//     %9 = arith.extsi %6 : vector<2xi32> to vector<2xi64>
//     %10 = arith.addi %7, %8 : vector<8xi32>
//     %11 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %12 = vector.broadcast %11 : i64 to vector<8xi64>
//     %c0_i64 = arith.constant 0 : i64
//     %13 = vector.broadcast %c0_i64 : i64 to vector<2xi64>
//     %14 = arith.addi %9, %13 : vector<2xi64>
//     %cst_1 = arith.constant dense<4> : vector<2xi64>
//     %15 = arith.muli %14, %cst_1 : vector<2xi64>
//     %16 = vector.broadcast %11 : i64 to vector<2xi64>
//     %17 = arith.addi %15, %16 : vector<2xi64>
//     %18 = llvm.inttoptr %11 : i64 to !llvm.ptr
//     %19 = arith.extsi %10 : vector<8xi32> to vector<8xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %20 = vector.broadcast %c4_i64 : i64 to vector<8xi64>
//     %21 = arith.muli %19, %20 : vector<8xi64>
//     %22 = arith.addi %12, %21 : vector<8xi64>
//     %c0 = arith.constant 0 : index
//     %c2 = arith.constant 2 : index
//     %c1 = arith.constant 1 : index
//     scf.for %arg2 = %c0 to %c2 step %c1 {
//       %50 = arith.index_cast %arg2 : index to i64
//       %51 = vector.extract %17[%arg2] : i64 from vector<2xi64>
//       %52 = llvm.inttoptr %51 : i64 to !llvm.ptr
//       %53 = llvm.load %52 {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
//       %c4_i64_8 = arith.constant 4 : i64
//       %54 = arith.muli %50, %c4_i64_8 : i64
//       %55 = llvm.getelementptr %4[%54] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       llvm.store %53, %55 {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
//     }
//     %23 = llvm.load %4 {alignment = 64 : i64} : !llvm.ptr -> vector<8xf32>
//     %cst_2 = arith.constant dense<[0, 1]> : vector<2xi32>
//     %24 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %25 = vector.broadcast %24 : i64 to vector<2xi64>
//     %26 = llvm.inttoptr %24 : i64 to !llvm.ptr
//     %c0_i64_3 = arith.constant 0 : i64
//     %27 = llvm.getelementptr %26[%c0_i64_3] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %28 = arith.extsi %cst_2 : vector<2xi32> to vector<2xi64>
//     %c4_i64_4 = arith.constant 4 : i64
//     %29 = vector.broadcast %c4_i64_4 : i64 to vector<2xi64>
//     %30 = arith.muli %28, %29 : vector<2xi64>
//     %31 = arith.addi %25, %30 : vector<2xi64>
//     %32 = vector.shuffle %23, %23 [0, 4] : vector<8xf32>, vector<8xf32>
//     %33 = vector.shuffle %23, %23 [1, 5] : vector<8xf32>, vector<8xf32>
//     %34 = arith.addf %32, %33 : vector<2xf32>
//     %35 = vector.shuffle %23, %23 [2, 6] : vector<8xf32>, vector<8xf32>
//     %36 = arith.addf %34, %35 : vector<2xf32>
//     %37 = vector.shuffle %23, %23 [3, 7] : vector<8xf32>, vector<8xf32>
//     %38 = arith.addf %36, %37 : vector<2xf32>
//     llvm.store %38, %27 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//     %cst_5 = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %39 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %40 = vector.broadcast %39 : i64 to vector<4xi64>
//     %41 = llvm.inttoptr %39 : i64 to !llvm.ptr
//     %c0_i64_6 = arith.constant 0 : i64
//     %42 = llvm.getelementptr %41[%c0_i64_6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %43 = arith.extsi %cst_5 : vector<4xi32> to vector<4xi64>
//     %c4_i64_7 = arith.constant 4 : i64
//     %44 = vector.broadcast %c4_i64_7 : i64 to vector<4xi64>
//     %45 = arith.muli %43, %44 : vector<4xi64>
//     %46 = arith.addi %40, %45 : vector<4xi64>
//     %47 = vector.shuffle %23, %23 [0, 1, 2, 3] : vector<8xf32>, vector<8xf32>
//     %48 = vector.shuffle %23, %23 [4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
//     %49 = arith.maximumf %47, %48 : vector<4xf32>
//     llvm.store %49, %42 {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
//     return
//   }
// }
