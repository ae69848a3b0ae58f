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
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_multimem(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> i32
//     %5 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
//     %6 = llvm.load %5 : !llvm.ptr -> i32
//     %c16_i32 = arith.constant 16 : i32
//     %7 = arith.muli %6, %c16_i32 : i32
//     %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
//     %8 = vector.broadcast %7 : i32 to vector<16xi32>
//     %9 = arith.extsi %7 : i32 to i64
//     %10 = arith.addi %8, %cst : vector<16xi32>
//     %11 = vector.broadcast %4 : i32 to vector<16xi32>
//     %12 = arith.cmpi slt, %10, %11 : vector<16xi32>
//     %13 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %14 = vector.broadcast %13 : i64 to vector<16xi64>
//     %15 = llvm.inttoptr %13 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %16 = arith.addi %9, %c0_i64 : i64
//     %17 = llvm.getelementptr %15[%16] : (!llvm.ptr, i64) -> !llvm.ptr, f16
//     %18 = arith.extsi %10 : vector<16xi32> to vector<16xi64>
//     %c2_i64 = arith.constant 2 : i64
//     %19 = vector.broadcast %c2_i64 : i64 to vector<16xi64>
//     %20 = arith.muli %18, %19 : vector<16xi64>
//     %21 = arith.addi %14, %20 : vector<16xi64>
//     %22 = llvm.mlir.zero : vector<16xf32>
//     %c0_i32 = arith.constant 0 : i32
//     %23 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %24 = llvm.load %23 : !llvm.ptr -> i32
//     %25 = llvm.getelementptr %arg0[40] : (!llvm.ptr) -> !llvm.ptr, i8
//     %26 = llvm.load %25 : !llvm.ptr -> i32
//     %27 = arith.subi %24, %26 : i32
//     %28 = llvm.getelementptr %arg0[44] : (!llvm.ptr) -> !llvm.ptr, i8
//     %29 = llvm.load %28 : !llvm.ptr -> i32
//     %c0_i32_0 = arith.constant 0 : i32
//     %c1_i32 = arith.constant 1 : i32
//     %30 = scf.for %arg2 = %c0_i32_0 to %29 step %c1_i32 iter_args(%arg3 = %22) -> (vector<16xf32>)  : i32 {
//       %48 = arith.addi %27, %arg2 : i32
//       %49 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %50 = llvm.load %49 : !llvm.ptr -> !llvm.ptr
//       %51 = llvm.call %50(%arg0, %48, %c0_i32) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %52 = llvm.getelementptr %17[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %53 = vector.shuffle %12, %12 [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xi1>, vector<16xi1>
//       %54 = vector.shuffle %12, %12 [1, 3, 5, 7, 9, 11, 13, 15] : vector<16xi1>, vector<16xi1>
//       %55 = arith.ori %53, %54 : vector<8xi1>
//       %56 = llvm.mlir.zero : vector<8xi32>
//       %57 = llvm.intr.masked.load %52, %55, %56 {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi32>) -> vector<8xi32>
//       %58 = vector.bitcast %57 : vector<8xi32> to vector<16xi16>
//       %59 = arith.bitcast %58 : vector<16xi16> to vector<16xf16>
//       %60 = arith.extf %59 : vector<16xf16> to vector<16xf32>
//       %61 = arith.addf %arg3, %60 : vector<16xf32>
//       scf.yield %61 : vector<16xf32>
//     }
//     %31 = arith.truncf %30 : vector<16xf32> to vector<16xf16>
//     %32 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %33 = vector.broadcast %32 : i64 to vector<16xi64>
//     %34 = llvm.inttoptr %32 : i64 to !llvm.ptr
//     %c0_i64_1 = arith.constant 0 : i64
//     %35 = arith.addi %9, %c0_i64_1 : i64
//     %36 = llvm.getelementptr %34[%35] : (!llvm.ptr, i64) -> !llvm.ptr, f16
//     %37 = arith.extsi %10 : vector<16xi32> to vector<16xi64>
//     %c2_i64_2 = arith.constant 2 : i64
//     %38 = vector.broadcast %c2_i64_2 : i64 to vector<16xi64>
//     %39 = arith.muli %37, %38 : vector<16xi64>
//     %40 = arith.addi %33, %39 : vector<16xi64>
//     %c1_i32_3 = arith.constant 1 : i32
//     %41 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %42 = llvm.load %41 : !llvm.ptr -> i32
//     %43 = llvm.getelementptr %arg0[40] : (!llvm.ptr) -> !llvm.ptr, i8
//     %44 = llvm.load %43 : !llvm.ptr -> i32
//     %45 = arith.subi %42, %44 : i32
//     %46 = llvm.getelementptr %arg0[44] : (!llvm.ptr) -> !llvm.ptr, i8
//     %47 = llvm.load %46 : !llvm.ptr -> i32
//     %c0_i32_4 = arith.constant 0 : i32
//     %c1_i32_5 = arith.constant 1 : i32
//     scf.for %arg2 = %c0_i32_4 to %47 step %c1_i32_5  : i32 {
//       %48 = arith.addi %45, %arg2 : i32
//       %49 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %50 = llvm.load %49 : !llvm.ptr -> !llvm.ptr
//       %51 = llvm.call %50(%arg0, %48, %c1_i32_3) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %52 = llvm.getelementptr %36[%51] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %53 = arith.bitcast %31 : vector<16xf16> to vector<16xi16>
//       %54 = vector.reduction <and>, %12 : vector<16xi1> into i1
//       scf.if %54 {
//         llvm.store %53, %52 {alignment = 2 : i64} : vector<16xi16>, !llvm.ptr
//       } else {
//         %c0 = arith.constant 0 : index
//         %c16 = arith.constant 16 : index
//         %c1 = arith.constant 1 : index
//         scf.for %arg3 = %c0 to %c16 step %c1 {
//           %55 = vector.extract %12[%arg3] : i1 from vector<16xi1>
//           scf.if %55 {
//             %56 = vector.extract %53[%arg3] : i16 from vector<16xi16>
//             %57 = arith.index_cast %arg3 : index to i64
//             %58 = llvm.getelementptr %52[%57] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//             llvm.store %56, %58 {alignment = 2 : i64} : i16, !llvm.ptr
//           }
//         }
//       }
//     }
//     return
//   }
// }
