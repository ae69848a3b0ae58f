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
//     %6 = llvm.alloca %5 x !llvm.array<4 x i16> {alignment = 64 : i64} : (i64) -> !llvm.ptr
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
//       %45 = arith.index_cast %arg2 : index to i64
//       %46 = vector.extract %25[%arg2] : i64 from vector<2xi64>
//       %47 = llvm.inttoptr %46 : i64 to !llvm.ptr
//       %48 = llvm.load %47 {alignment = 2 : i64} : !llvm.ptr -> vector<2xi16>
//       %c2_i64_23 = arith.constant 2 : i64
//       %49 = arith.muli %45, %c2_i64_23 : i64
//       %50 = llvm.getelementptr %6[%49] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//       llvm.store %48, %50 {alignment = 4 : i64} : vector<2xi16>, !llvm.ptr
//     }
//     %31 = llvm.load %6 {alignment = 64 : i64} : !llvm.ptr -> vector<4xi16>
//     %cst_1 = arith.constant 0.000000e+00 : f32
//     %cst_2 = arith.constant dense<0.000000e+00> : vector<4xf32>
//     %c0_3 = arith.constant 0 : index
//     %c1_4 = arith.constant 1 : index
//     %c1_5 = arith.constant 1 : index
//     scf.for %arg2 = %c0_3 to %c1_4 step %c1_5 {
//       %45 = arith.index_cast %arg2 : index to i64
//       %c4_i64_23 = arith.constant 4 : i64
//       %46 = arith.muli %45, %c4_i64_23 : i64
//       %47 = llvm.getelementptr %6[%46] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//       %48 = llvm.getelementptr %8[%46] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       %49 = llvm.load %47 {alignment = 2 : i64} : !llvm.ptr -> vector<4xi16>
//       %50 = arith.extui %49 : vector<4xi16> to vector<4xi32>
//       %cst_24 = arith.constant dense<32768> : vector<4xi32>
//       %51 = arith.andi %50, %cst_24 : vector<4xi32>
//       %cst_25 = arith.constant dense<16> : vector<4xi32>
//       %52 = arith.shli %51, %cst_25 : vector<4xi32>
//       %cst_26 = arith.constant dense<32767> : vector<4xi32>
//       %53 = arith.andi %50, %cst_26 : vector<4xi32>
//       %cst_27 = arith.constant dense<31744> : vector<4xi32>
//       %54 = arith.andi %53, %cst_27 : vector<4xi32>
//       %cst_28 = arith.constant dense<13> : vector<4xi32>
//       %55 = arith.shli %53, %cst_28 : vector<4xi32>
//       %cst_29 = arith.constant dense<939524096> : vector<4xi32>
//       %56 = arith.addi %55, %cst_29 : vector<4xi32>
//       %cst_30 = arith.constant dense<939524096> : vector<4xi32>
//       %57 = arith.addi %56, %cst_30 : vector<4xi32>
//       %cst_31 = arith.constant dense<947912704> : vector<4xi32>
//       %58 = arith.addi %55, %cst_31 : vector<4xi32>
//       %59 = arith.bitcast %58 : vector<4xi32> to vector<4xf32>
//       %cst_32 = arith.constant dense<6.10351563E-5> : vector<4xf32>
//       %60 = arith.subf %59, %cst_32 : vector<4xf32>
//       %61 = arith.bitcast %60 : vector<4xf32> to vector<4xi32>
//       %cst_33 = arith.constant dense<31744> : vector<4xi32>
//       %62 = arith.cmpi eq, %54, %cst_33 : vector<4xi32>
//       %cst_34 = arith.constant dense<0> : vector<4xi32>
//       %63 = arith.cmpi eq, %54, %cst_34 : vector<4xi32>
//       %64 = arith.select %63, %61, %56 : vector<4xi1>, vector<4xi32>
//       %65 = arith.select %62, %57, %64 : vector<4xi1>, vector<4xi32>
//       %66 = arith.ori %65, %52 : vector<4xi32>
//       %67 = arith.bitcast %66 : vector<4xi32> to vector<4xf32>
//       llvm.store %67, %48 {alignment = 2 : i64} : vector<4xf32>, !llvm.ptr
//     }
//     %c0_6 = arith.constant 0 : index
//     %c1_7 = arith.constant 1 : index
//     %c1_8 = arith.constant 1 : index
//     scf.for %arg2 = %c0_6 to %c1_7 step %c1_8 {
//       %45 = arith.index_cast %arg2 : index to i64
//       %c4_i64_23 = arith.constant 4 : i64
//       %46 = arith.muli %45, %c4_i64_23 : i64
//       %47 = llvm.getelementptr %6[%46] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//       %48 = llvm.getelementptr %10[%46] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       %49 = llvm.load %47 {alignment = 2 : i64} : !llvm.ptr -> vector<4xi16>
//       %50 = arith.extui %49 : vector<4xi16> to vector<4xi32>
//       %cst_24 = arith.constant dense<32768> : vector<4xi32>
//       %51 = arith.andi %50, %cst_24 : vector<4xi32>
//       %cst_25 = arith.constant dense<16> : vector<4xi32>
//       %52 = arith.shli %51, %cst_25 : vector<4xi32>
//       %cst_26 = arith.constant dense<32767> : vector<4xi32>
//       %53 = arith.andi %50, %cst_26 : vector<4xi32>
//       %cst_27 = arith.constant dense<31744> : vector<4xi32>
//       %54 = arith.andi %53, %cst_27 : vector<4xi32>
//       %cst_28 = arith.constant dense<13> : vector<4xi32>
//       %55 = arith.shli %53, %cst_28 : vector<4xi32>
//       %cst_29 = arith.constant dense<939524096> : vector<4xi32>
//       %56 = arith.addi %55, %cst_29 : vector<4xi32>
//       %cst_30 = arith.constant dense<939524096> : vector<4xi32>
//       %57 = arith.addi %56, %cst_30 : vector<4xi32>
//       %cst_31 = arith.constant dense<947912704> : vector<4xi32>
//       %58 = arith.addi %55, %cst_31 : vector<4xi32>
//       %59 = arith.bitcast %58 : vector<4xi32> to vector<4xf32>
//       %cst_32 = arith.constant dense<6.10351563E-5> : vector<4xf32>
//       %60 = arith.subf %59, %cst_32 : vector<4xf32>
//       %61 = arith.bitcast %60 : vector<4xf32> to vector<4xi32>
//       %cst_33 = arith.constant dense<31744> : vector<4xi32>
//       %62 = arith.cmpi eq, %54, %cst_33 : vector<4xi32>
//       %cst_34 = arith.constant dense<0> : vector<4xi32>
//       %63 = arith.cmpi eq, %54, %cst_34 : vector<4xi32>
//       %64 = arith.select %63, %61, %56 : vector<4xi1>, vector<4xi32>
//       %65 = arith.select %62, %57, %64 : vector<4xi1>, vector<4xi32>
//       %66 = arith.ori %65, %52 : vector<4xi32>
//       %67 = arith.bitcast %66 : vector<4xi32> to vector<4xf32>
//       llvm.store %67, %48 {alignment = 2 : i64} : vector<4xf32>, !llvm.ptr
//     }
//     llvm.store %cst_2, %12 {alignment = 64 : i64} : vector<4xf32>, !llvm.ptr
//     %c0_9 = arith.constant 0 : index
//     %c1_10 = arith.constant 1 : index
//     %c2_11 = arith.constant 2 : index
//     %c2_12 = arith.constant 2 : index
//     %c2_13 = arith.constant 2 : index
//     %c2_14 = arith.constant 2 : index
//     %c2_15 = arith.constant 2 : index
//     %c2_i64_16 = arith.constant 2 : i64
//     %c2_i64_17 = arith.constant 2 : i64
//     scf.for %arg2 = %c0_9 to %c2_11 step %c2_14 {
//       scf.for %arg3 = %c0_9 to %c2_12 step %c2_15 {
//         %45 = arith.index_cast %arg2 : index to i64
//         %46 = arith.index_cast %arg3 : index to i64
//         %47 = arith.muli %45, %c2_i64_16 : i64
//         %48 = arith.addi %47, %46 : i64
//         %49 = llvm.getelementptr %12[%48] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//         %c2_i64_23 = arith.constant 2 : i64
//         %50 = arith.addi %48, %c2_i64_23 : i64
//         %51 = llvm.getelementptr %12[%50] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//         %52 = llvm.load %49 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//         %53 = llvm.load %51 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//         %54:2 = scf.for %arg4 = %c0_9 to %c2_13 step %c1_10 iter_args(%arg5 = %52, %arg6 = %53) -> (vector<2xf32>, vector<2xf32>) {
//           %55 = arith.index_cast %arg4 : index to i64
//           %56 = arith.muli %55, %c2_i64_16 : i64
//           %57 = arith.addi %56, %46 : i64
//           %58 = llvm.getelementptr %10[%57] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %59 = llvm.load %58 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//           %60 = arith.muli %45, %c2_i64_17 : i64
//           %61 = arith.addi %60, %55 : i64
//           %62 = llvm.getelementptr %8[%61] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %63 = llvm.load %62 {alignment = 4 : i64} : !llvm.ptr -> f32
//           %64 = vector.broadcast %63 : f32 to vector<2xf32>
//           %65 = vector.fma %64, %59, %arg5 : vector<2xf32>
//           %c2_i64_24 = arith.constant 2 : i64
//           %66 = arith.addi %61, %c2_i64_24 : i64
//           %67 = llvm.getelementptr %8[%66] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//           %68 = llvm.load %67 {alignment = 4 : i64} : !llvm.ptr -> f32
//           %69 = vector.broadcast %68 : f32 to vector<2xf32>
//           %70 = vector.fma %69, %59, %arg6 : vector<2xf32>
//           scf.yield %65, %70 : vector<2xf32>, vector<2xf32>
//         }
//         llvm.store %54#0, %49 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//         llvm.store %54#1, %51 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//       }
//     }
//     %32 = llvm.load %12 {alignment = 64 : i64} : !llvm.ptr -> vector<4xf32>
//     %33 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %34 = vector.broadcast %33 : i64 to vector<4xi64>
//     %c0_i64_18 = arith.constant 0 : i64
//     %35 = vector.broadcast %c0_i64_18 : i64 to vector<2xi64>
//     %36 = arith.addi %17, %35 : vector<2xi64>
//     %cst_19 = arith.constant dense<4> : vector<2xi64>
//     %37 = arith.muli %36, %cst_19 : vector<2xi64>
//     %38 = vector.broadcast %33 : i64 to vector<2xi64>
//     %39 = arith.addi %37, %38 : vector<2xi64>
//     %40 = llvm.inttoptr %33 : i64 to !llvm.ptr
//     %41 = arith.extsi %18 : vector<4xi32> to vector<4xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %42 = vector.broadcast %c4_i64 : i64 to vector<4xi64>
//     %43 = arith.muli %41, %42 : vector<4xi64>
//     %44 = arith.addi %34, %43 : vector<4xi64>
//     %c0_20 = arith.constant 0 : index
//     %c2_21 = arith.constant 2 : index
//     %c1_22 = arith.constant 1 : index
//     scf.for %arg2 = %c0_20 to %c2_21 step %c1_22 {
//       %45 = arith.index_cast %arg2 : index to i64
//       %46 = vector.extract %39[%arg2] : i64 from vector<2xi64>
//       %47 = llvm.inttoptr %46 : i64 to !llvm.ptr
//       %c2_i64_23 = arith.constant 2 : i64
//       %48 = arith.muli %45, %c2_i64_23 : i64
//       %49 = llvm.getelementptr %12[%48] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//       %50 = llvm.load %49 {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
//       llvm.store %50, %47 {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
//     }
//     return
//   }
// }
