module {
  func.func @dot(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f16>) attributes {weft.constexprs = {}, weft.params = ["c", "ab"]} {
    %0 = "tile.make_range"() {end = 2 : i32, start = 0 : i32} : () -> tensor<2xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<2xi32>) -> tensor<2x1xi32>
    %2 = "tile.expand_dims"(%0) {axis = 0 : i32} : (tensor<2xi32>) -> tensor<1x2xi32>
    %c2_i32 = arith.constant 2 : i32
    %3 = "tile.splat"(%c2_i32) : (i32) -> tensor<2x1xi32>
    %4 = arith.muli %1, %3 : tensor<2x1xi32>
    %5 = "tile.broadcast"(%4) : (tensor<2x1xi32>) -> tensor<2x2xi32>
    %6 = "tile.broadcast"(%2) : (tensor<1x2xi32>) -> tensor<2x2xi32>
    %7 = arith.addi %5, %6 : tensor<2x2xi32>
    %8 = "tile.splat"(%arg1) : (!tile.ptr<f16>) -> tensor<2x2x!tile.ptr<f16>>
    %9 = "tile.addptr"(%8, %7) : (tensor<2x2x!tile.ptr<f16>>, tensor<2x2xi32>) -> tensor<2x2x!tile.ptr<f16>>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x2x!tile.ptr<f16>>) -> tensor<2x2xf16>
    %cst = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
    %11 = "tile.dot"(%10, %10, %cst) : (tensor<2x2xf16>, tensor<2x2xf16>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %12 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<2x2x!tile.ptr<f32>>
    %13 = "tile.addptr"(%12, %7) : (tensor<2x2x!tile.ptr<f32>>, tensor<2x2xi32>) -> tensor<2x2x!tile.ptr<f32>>
    "tile.store"(%13, %11) : (tensor<2x2x!tile.ptr<f32>>, tensor<2x2xf32>) -> ()
    return
  }
}
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_dot(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//     %5 = llvm.mlir.constant(1 : i64) : i64
//     %6 = llvm.alloca %5 x !llvm.array<4 x f16> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %7 = llvm.mlir.constant(1 : i64) : i64
//     %8 = llvm.alloca %7 x !llvm.array<4 x f32> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %9 = llvm.mlir.constant(1 : i64) : i64
//     %10 = llvm.alloca %9 x !llvm.array<4 x f32> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %11 = llvm.mlir.constant(1 : i64) : i64
//     %12 = llvm.alloca %11 x !llvm.array<4 x f32> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %cst = arith.constant dense<[0, 1]> : vector<2xi32>
//     %c2_i32 = arith.constant 2 : i32
//     %13 = vector.broadcast %c2_i32 : i32 to vector<2xi32>
//     %14 = arith.muli %cst, %13 : vector<2xi32>
//     %15 = vector.shuffle %14, %14 [0, 0, 1, 1] : vector<2xi32>, vector<2xi32>
//     %16 = vector.shuffle %cst, %cst [0, 1, 0, 1] : vector<2xi32>, vector<2xi32>
//     %17 = arith.extsi %14 : vector<2xi32> to vector<2xi64>
//     %18 = arith.addi %15, %16 : vector<4xi32>
//     %19 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %20 = vector.broadcast %19 : i64 to vector<4xi64>
//     %c0_i64 = arith.constant 0 : i64
//     %21 = vector.broadcast %c0_i64 : i64 to vector<2xi64>
//     %22 = arith.addi %17, %21 : vector<2xi64>
//     %cst_0 = arith.constant dense<2> : vector<2xi64>
//     %23 = arith.muli %22, %cst_0 : vector<2xi64>
//     %24 = vector.broadcast %19 : i64 to vector<2xi64>
//     %25 = arith.addi %23, %24 : vector<2xi64>
//     %26 = llvm.inttoptr %19 : i64 to !llvm.ptr
//     %27 = arith.extsi %18 : vector<4xi32> to vector<4xi64>
//     %c2_i64 = arith.constant 2 : i64
//     %28 = vector.broadcast %c2_i64 : i64 to vector<4xi64>
//     %29 = arith.muli %27, %28 : vector<4xi64>
//     %30 = arith.addi %20, %29 : vector<4xi64>
//     %c0 = arith.constant 0 : index
//     %c2 = arith.constant 2 : index
//     %c1 = arith.constant 1 : index
//     scf.for %arg2 = %c0 to %c2 step %c1 {
//       %47 = arith.index_cast %arg2 : index to i64
//       %48 = vector.extract %25[%arg2] : i64 from vector<2xi64>
//       %49 = llvm.inttoptr %48 : i64 to !llvm.ptr
//       %50 = llvm.load %49 {alignment = 2 : i64} : !llvm.ptr -> vector<2xi16>
//       %51 = arith.bitcast %50 : vector<2xi16> to vector<2xf16>
//       %c2_i64_17 = arith.constant 2 : i64
//       %52 = arith.muli %47, %c2_i64_17 : i64
//       %53 = llvm.getelementptr %6[%52] : (!llvm.ptr, i64) -> !llvm.ptr, f16
//       llvm.store %51, %53 {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr
//     }
//     %31 = llvm.load %6 {alignment = 64 : i64} : !llvm.ptr -> vector<4xf16>
//     %cst_1 = arith.constant 0.000000e+00 : f32
//     %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
//     %32 = arith.extf %31 : vector<4xf16> to vector<4xf32>
//     llvm.store %32, %8 {alignment = 64 : i64} : vector<4xf32>, !llvm.ptr
//     %33 = arith.extf %31 : vector<4xf16> to vector<4xf32>
//     llvm.store %33, %10 {alignment = 64 : i64} : vector<4xf32>, !llvm.ptr
//     llvm.store %cst_2, %12 {alignment = 64 : i64} : vector<4xf32>, !llvm.ptr
//     %c0_3 = arith.constant 0 : index
//     %c1_4 = arith.constant 1 : index
//     %c2_5 = arith.constant 2 : index
//     %c2_6 = arith.constant 2 : index
//     %c2_7 = arith.constant 2 : index
//     %c2_8 = arith.constant 2 : index
//     %c2_9 = arith.constant 2 : index
//     %c2_i64_10 = arith.constant 2 : i64
//     %c2_i64_11 = arith.constant 2 : i64
//     scf.for %arg2 = %c0_3 to %c2_5 step %c2_8 {
//       scf.for %arg3 = %c0_3 to %c2_6 step %c2_9 {
//         %47 = arith.index_cast %arg2 : index to i64
//         %48 = arith.index_cast %arg3 : index to i64
//         %49 = arith.muli %47, %c2_i64_10 : i64
//         %50 = arith.addi %49, %48 : i64
//         %51 = llvm.getelementptr %12[%50] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//         %c2_i64_17 = arith.constant 2 : i64
//         %52 = arith.addi %50, %c2_i64_17 : i64
//         %53 = llvm.getelementptr %12[%52] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//         %54 = llvm.load %51 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//         %55 = llvm.load %53 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//         %56:2 = scf.for %arg4 = %c0_3 to %c2_7 step %c1_4 iter_args(%arg5 = %54, %arg6 = %55) -> (vector<2xf32>, vector<2xf32>) {
//           %57 = arith.index_cast %arg4 : index to i64
//           %58 = arith.muli %57, %c2_i64_10 : i64
//           %59 = arith.addi %58, %48 : i64
//           %60 = llvm.getelementptr %10[%59] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %61 = llvm.load %60 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//           %62 = arith.muli %47, %c2_i64_11 : i64
//           %63 = arith.addi %62, %57 : i64
//           %64 = llvm.getelementptr %8[%63] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %65 = llvm.load %64 {alignment = 4 : i64} : !llvm.ptr -> f32
//           %66 = vector.broadcast %65 : f32 to vector<2xf32>
//           %67 = vector.fma %66, %61, %arg5 : vector<2xf32>
//           %c2_i64_18 = arith.constant 2 : i64
//           %68 = arith.addi %63, %c2_i64_18 : i64
//           %69 = llvm.getelementptr %8[%68] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %70 = llvm.load %69 {alignment = 4 : i64} : !llvm.ptr -> f32
//           %71 = vector.broadcast %70 : f32 to vector<2xf32>
//           %72 = vector.fma %71, %61, %arg6 : vector<2xf32>
//           scf.yield %67, %72 : vector<2xf32>, vector<2xf32>
//         }
//         llvm.store %56#0, %51 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//         llvm.store %56#1, %53 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//       }
//     }
//     %34 = llvm.load %12 {alignment = 64 : i64} : !llvm.ptr -> vector<4xf32>
//     %35 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %36 = vector.broadcast %35 : i64 to vector<4xi64>
//     %c0_i64_12 = arith.constant 0 : i64
//     %37 = vector.broadcast %c0_i64_12 : i64 to vector<2xi64>
//     %38 = arith.addi %17, %37 : vector<2xi64>
//     %cst_13 = arith.constant dense<4> : vector<2xi64>
//     %39 = arith.muli %38, %cst_13 : vector<2xi64>
//     %40 = vector.broadcast %35 : i64 to vector<2xi64>
//     %41 = arith.addi %39, %40 : vector<2xi64>
//     %42 = llvm.inttoptr %35 : i64 to !llvm.ptr
//     %43 = arith.extsi %18 : vector<4xi32> to vector<4xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %44 = vector.broadcast %c4_i64 : i64 to vector<4xi64>
//     %45 = arith.muli %43, %44 : vector<4xi64>
//     %46 = arith.addi %36, %45 : vector<4xi64>
//     %c0_14 = arith.constant 0 : index
//     %c2_15 = arith.constant 2 : index
//     %c1_16 = arith.constant 1 : index
//     scf.for %arg2 = %c0_14 to %c2_15 step %c1_16 {
//       %47 = arith.index_cast %arg2 : index to i64
//       %48 = vector.extract %41[%arg2] : i64 from vector<2xi64>
//       %49 = llvm.inttoptr %48 : i64 to !llvm.ptr
//       %c2_i64_17 = arith.constant 2 : i64
//       %50 = arith.muli %47, %c2_i64_17 : i64
//       %51 = llvm.getelementptr %12[%50] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       %52 = llvm.load %51 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//       llvm.store %52, %49 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//     }
//     return
//   }
// }
