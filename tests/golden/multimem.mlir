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
//     %17 = llvm.getelementptr %15[%16] : (!llvm.ptr, i64) -> !llvm.ptr, i16
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
//       %68 = arith.addi %27, %arg2 : i32
//       %69 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %70 = llvm.load %69 : !llvm.ptr -> !llvm.ptr
//       %71 = llvm.call %70(%arg0, %68, %c0_i32) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %72 = llvm.getelementptr %17[%71] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %73 = vector.shuffle %12, %12 [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xi1>, vector<16xi1>
//       %74 = vector.shuffle %12, %12 [1, 3, 5, 7, 9, 11, 13, 15] : vector<16xi1>, vector<16xi1>
//       %75 = arith.ori %73, %74 : vector<8xi1>
//       %76 = llvm.mlir.zero : vector<8xi32>
//       %77 = llvm.intr.masked.load %72, %75, %76 {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi32>) -> vector<8xi32>
//       %78 = vector.bitcast %77 : vector<8xi32> to vector<16xi16>
//       %79 = arith.extui %78 : vector<16xi16> to vector<16xi32>
//       %cst_20 = arith.constant dense<32768> : vector<16xi32>
//       %80 = arith.andi %79, %cst_20 : vector<16xi32>
//       %cst_21 = arith.constant dense<16> : vector<16xi32>
//       %81 = arith.shli %80, %cst_21 : vector<16xi32>
//       %cst_22 = arith.constant dense<32767> : vector<16xi32>
//       %82 = arith.andi %79, %cst_22 : vector<16xi32>
//       %cst_23 = arith.constant dense<31744> : vector<16xi32>
//       %83 = arith.andi %82, %cst_23 : vector<16xi32>
//       %cst_24 = arith.constant dense<13> : vector<16xi32>
//       %84 = arith.shli %82, %cst_24 : vector<16xi32>
//       %cst_25 = arith.constant dense<939524096> : vector<16xi32>
//       %85 = arith.addi %84, %cst_25 : vector<16xi32>
//       %cst_26 = arith.constant dense<939524096> : vector<16xi32>
//       %86 = arith.addi %85, %cst_26 : vector<16xi32>
//       %cst_27 = arith.constant dense<947912704> : vector<16xi32>
//       %87 = arith.addi %84, %cst_27 : vector<16xi32>
//       %88 = arith.bitcast %87 : vector<16xi32> to vector<16xf32>
//       %cst_28 = arith.constant dense<6.10351563E-5> : vector<16xf32>
//       %89 = arith.subf %88, %cst_28 : vector<16xf32>
//       %90 = arith.bitcast %89 : vector<16xf32> to vector<16xi32>
//       %cst_29 = arith.constant dense<31744> : vector<16xi32>
//       %91 = arith.cmpi eq, %83, %cst_29 : vector<16xi32>
//       %cst_30 = arith.constant dense<0> : vector<16xi32>
//       %92 = arith.cmpi eq, %83, %cst_30 : vector<16xi32>
//       %93 = arith.select %92, %90, %85 : vector<16xi1>, vector<16xi32>
//       %94 = arith.select %91, %86, %93 : vector<16xi1>, vector<16xi32>
//       %95 = arith.ori %94, %81 : vector<16xi32>
//       %96 = arith.bitcast %95 : vector<16xi32> to vector<16xf32>
//       %97 = arith.addf %arg3, %96 : vector<16xf32>
//       scf.yield %97 : vector<16xf32>
//     }
//     %31 = arith.bitcast %30 : vector<16xf32> to vector<16xi32>
//     %cst_1 = arith.constant dense<-2147483648> : vector<16xi32>
//     %32 = arith.andi %31, %cst_1 : vector<16xi32>
//     %cst_2 = arith.constant dense<2147483647> : vector<16xi32>
//     %33 = arith.andi %31, %cst_2 : vector<16xi32>
//     %cst_3 = arith.constant dense<1199570944> : vector<16xi32>
//     %34 = arith.cmpi uge, %33, %cst_3 : vector<16xi32>
//     %cst_4 = arith.constant dense<2139095040> : vector<16xi32>
//     %35 = arith.cmpi ugt, %33, %cst_4 : vector<16xi32>
//     %cst_5 = arith.constant dense<32256> : vector<16xi32>
//     %cst_6 = arith.constant dense<31744> : vector<16xi32>
//     %36 = arith.select %35, %cst_5, %cst_6 : vector<16xi1>, vector<16xi32>
//     %cst_7 = arith.constant dense<947912704> : vector<16xi32>
//     %37 = arith.cmpi ult, %33, %cst_7 : vector<16xi32>
//     %38 = arith.bitcast %33 : vector<16xi32> to vector<16xf32>
//     %cst_8 = arith.constant dense<5.000000e-01> : vector<16xf32>
//     %39 = arith.addf %38, %cst_8 : vector<16xf32>
//     %40 = arith.bitcast %39 : vector<16xf32> to vector<16xi32>
//     %cst_9 = arith.constant dense<1056964608> : vector<16xi32>
//     %41 = arith.subi %40, %cst_9 : vector<16xi32>
//     %cst_10 = arith.constant dense<13> : vector<16xi32>
//     %42 = arith.shrui %33, %cst_10 : vector<16xi32>
//     %cst_11 = arith.constant dense<1> : vector<16xi32>
//     %43 = arith.andi %42, %cst_11 : vector<16xi32>
//     %cst_12 = arith.constant dense<-939520001> : vector<16xi32>
//     %44 = arith.addi %33, %cst_12 : vector<16xi32>
//     %45 = arith.addi %44, %43 : vector<16xi32>
//     %cst_13 = arith.constant dense<13> : vector<16xi32>
//     %46 = arith.shrui %45, %cst_13 : vector<16xi32>
//     %47 = arith.select %37, %41, %46 : vector<16xi1>, vector<16xi32>
//     %48 = arith.select %34, %36, %47 : vector<16xi1>, vector<16xi32>
//     %cst_14 = arith.constant dense<16> : vector<16xi32>
//     %49 = arith.shrui %32, %cst_14 : vector<16xi32>
//     %50 = arith.ori %48, %49 : vector<16xi32>
//     %51 = arith.trunci %50 : vector<16xi32> to vector<16xi16>
//     %52 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %53 = vector.broadcast %52 : i64 to vector<16xi64>
//     %54 = llvm.inttoptr %52 : i64 to !llvm.ptr
//     %c0_i64_15 = arith.constant 0 : i64
//     %55 = arith.addi %9, %c0_i64_15 : i64
//     %56 = llvm.getelementptr %54[%55] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %57 = arith.extsi %10 : vector<16xi32> to vector<16xi64>
//     %c2_i64_16 = arith.constant 2 : i64
//     %58 = vector.broadcast %c2_i64_16 : i64 to vector<16xi64>
//     %59 = arith.muli %57, %58 : vector<16xi64>
//     %60 = arith.addi %53, %59 : vector<16xi64>
//     %c1_i32_17 = arith.constant 1 : i32
//     %61 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %62 = llvm.load %61 : !llvm.ptr -> i32
//     %63 = llvm.getelementptr %arg0[40] : (!llvm.ptr) -> !llvm.ptr, i8
//     %64 = llvm.load %63 : !llvm.ptr -> i32
//     %65 = arith.subi %62, %64 : i32
//     %66 = llvm.getelementptr %arg0[44] : (!llvm.ptr) -> !llvm.ptr, i8
//     %67 = llvm.load %66 : !llvm.ptr -> i32
//     %c0_i32_18 = arith.constant 0 : i32
//     %c1_i32_19 = arith.constant 1 : i32
//     scf.for %arg2 = %c0_i32_18 to %67 step %c1_i32_19  : i32 {
//       %68 = arith.addi %65, %arg2 : i32
//       %69 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %70 = llvm.load %69 : !llvm.ptr -> !llvm.ptr
//       %71 = llvm.call %70(%arg0, %68, %c1_i32_17) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %72 = llvm.getelementptr %56[%71] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %73 = vector.reduction <and>, %12 : vector<16xi1> into i1
//       scf.if %73 {
//         llvm.store %51, %72 {alignment = 2 : i64} : vector<16xi16>, !llvm.ptr
//       } else {
//         %c0 = arith.constant 0 : index
//         %c16 = arith.constant 16 : index
//         %c1 = arith.constant 1 : index
//         scf.for %arg3 = %c0 to %c16 step %c1 {
//           %74 = vector.extract %12[%arg3] : i1 from vector<16xi1>
//           scf.if %74 {
//             %75 = vector.extract %51[%arg3] : i16 from vector<16xi16>
//             %76 = arith.index_cast %arg3 : index to i64
//             %77 = llvm.getelementptr %72[%76] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//             llvm.store %75, %77 {alignment = 2 : i64} : i16, !llvm.ptr
//           }
//         }
//       }
//     }
//     return
//   }
// }
