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
//     %5 = llvm.mlir.constant(1 : i64) : i64
//     %6 = llvm.alloca %5 x !llvm.array<16 x i16> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %7 = llvm.mlir.constant(1 : i64) : i64
//     %8 = llvm.alloca %7 x !llvm.array<16 x i8> {alignment = 64 : i64} : (i64) -> !llvm.ptr
//     %9 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
//     %10 = llvm.load %9 : !llvm.ptr -> i32
//     %c16_i32 = arith.constant 16 : i32
//     %11 = arith.muli %10, %c16_i32 : i32
//     %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : vector<16xi32>
//     %12 = vector.broadcast %11 : i32 to vector<16xi32>
//     %13 = arith.extsi %11 : i32 to i64
//     %14 = arith.addi %12, %cst : vector<16xi32>
//     %15 = vector.broadcast %4 : i32 to vector<16xi32>
//     %16 = arith.cmpi slt, %14, %15 : vector<16xi32>
//     %17 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %18 = vector.broadcast %17 : i64 to vector<16xi64>
//     %19 = llvm.inttoptr %17 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %20 = arith.addi %13, %c0_i64 : i64
//     %21 = llvm.getelementptr %19[%20] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %22 = arith.extsi %14 : vector<16xi32> to vector<16xi64>
//     %c2_i64 = arith.constant 2 : i64
//     %23 = vector.broadcast %c2_i64 : i64 to vector<16xi64>
//     %24 = arith.muli %22, %23 : vector<16xi64>
//     %25 = arith.addi %18, %24 : vector<16xi64>
//     %26 = llvm.mlir.zero : vector<16xf32>
//     %c0_i32 = arith.constant 0 : i32
//     %27 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %28 = llvm.load %27 : !llvm.ptr -> i32
//     %29 = llvm.getelementptr %arg0[40] : (!llvm.ptr) -> !llvm.ptr, i8
//     %30 = llvm.load %29 : !llvm.ptr -> i32
//     %31 = arith.subi %28, %30 : i32
//     %32 = llvm.getelementptr %arg0[44] : (!llvm.ptr) -> !llvm.ptr, i8
//     %33 = llvm.load %32 : !llvm.ptr -> i32
//     %c0_i32_0 = arith.constant 0 : i32
//     %c1_i32 = arith.constant 1 : i32
//     %34 = scf.for %arg2 = %c0_i32_0 to %33 step %c1_i32 iter_args(%arg3 = %26) -> (vector<16xf32>)  : i32 {
//       %72 = arith.addi %31, %arg2 : i32
//       %73 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %74 = llvm.load %73 : !llvm.ptr -> !llvm.ptr
//       %75 = llvm.call %74(%arg0, %72, %c0_i32) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %76 = llvm.getelementptr %21[%75] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %77 = vector.reduction <and>, %16 : vector<16xi1> into i1
//       %78 = scf.if %77 -> (vector<16xi16>) {
//         %98 = llvm.load %76 {alignment = 2 : i64} : !llvm.ptr -> vector<16xi16>
//         scf.yield %98 : vector<16xi16>
//       } else {
//         %98 = vector.shuffle %16, %16 [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xi1>, vector<16xi1>
//         %99 = vector.shuffle %16, %16 [1, 3, 5, 7, 9, 11, 13, 15] : vector<16xi1>, vector<16xi1>
//         %100 = arith.ori %98, %99 : vector<8xi1>
//         %101 = llvm.mlir.zero : vector<8xi32>
//         %102 = llvm.intr.masked.load %76, %100, %101 {alignment = 2 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi32>) -> vector<8xi32>
//         %103 = vector.bitcast %102 : vector<8xi32> to vector<16xi16>
//         scf.yield %103 : vector<16xi16>
//       }
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
//     %35 = arith.bitcast %34 : vector<16xf32> to vector<16xi32>
//     %cst_1 = arith.constant dense<-2147483648> : vector<16xi32>
//     %36 = arith.andi %35, %cst_1 : vector<16xi32>
//     %cst_2 = arith.constant dense<2147483647> : vector<16xi32>
//     %37 = arith.andi %35, %cst_2 : vector<16xi32>
//     %cst_3 = arith.constant dense<1199570944> : vector<16xi32>
//     %38 = arith.cmpi uge, %37, %cst_3 : vector<16xi32>
//     %cst_4 = arith.constant dense<2139095040> : vector<16xi32>
//     %39 = arith.cmpi ugt, %37, %cst_4 : vector<16xi32>
//     %cst_5 = arith.constant dense<32256> : vector<16xi32>
//     %cst_6 = arith.constant dense<31744> : vector<16xi32>
//     %40 = arith.select %39, %cst_5, %cst_6 : vector<16xi1>, vector<16xi32>
//     %cst_7 = arith.constant dense<947912704> : vector<16xi32>
//     %41 = arith.cmpi ult, %37, %cst_7 : vector<16xi32>
//     %42 = arith.bitcast %37 : vector<16xi32> to vector<16xf32>
//     %cst_8 = arith.constant dense<5.000000e-01> : vector<16xf32>
//     %43 = arith.addf %42, %cst_8 : vector<16xf32>
//     %44 = arith.bitcast %43 : vector<16xf32> to vector<16xi32>
//     %cst_9 = arith.constant dense<1056964608> : vector<16xi32>
//     %45 = arith.subi %44, %cst_9 : vector<16xi32>
//     %cst_10 = arith.constant dense<13> : vector<16xi32>
//     %46 = arith.shrui %37, %cst_10 : vector<16xi32>
//     %cst_11 = arith.constant dense<1> : vector<16xi32>
//     %47 = arith.andi %46, %cst_11 : vector<16xi32>
//     %cst_12 = arith.constant dense<-939520001> : vector<16xi32>
//     %48 = arith.addi %37, %cst_12 : vector<16xi32>
//     %49 = arith.addi %48, %47 : vector<16xi32>
//     %cst_13 = arith.constant dense<13> : vector<16xi32>
//     %50 = arith.shrui %49, %cst_13 : vector<16xi32>
//     %51 = arith.select %41, %45, %50 : vector<16xi1>, vector<16xi32>
//     %52 = arith.select %38, %40, %51 : vector<16xi1>, vector<16xi32>
//     %cst_14 = arith.constant dense<16> : vector<16xi32>
//     %53 = arith.shrui %36, %cst_14 : vector<16xi32>
//     %54 = arith.ori %52, %53 : vector<16xi32>
//     %55 = arith.trunci %54 : vector<16xi32> to vector<16xi16>
//     %56 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %57 = vector.broadcast %56 : i64 to vector<16xi64>
//     %58 = llvm.inttoptr %56 : i64 to !llvm.ptr
//     %c0_i64_15 = arith.constant 0 : i64
//     %59 = arith.addi %13, %c0_i64_15 : i64
//     %60 = llvm.getelementptr %58[%59] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %61 = arith.extsi %14 : vector<16xi32> to vector<16xi64>
//     %c2_i64_16 = arith.constant 2 : i64
//     %62 = vector.broadcast %c2_i64_16 : i64 to vector<16xi64>
//     %63 = arith.muli %61, %62 : vector<16xi64>
//     %64 = arith.addi %57, %63 : vector<16xi64>
//     %c1_i32_17 = arith.constant 1 : i32
//     %65 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %66 = llvm.load %65 : !llvm.ptr -> i32
//     %67 = llvm.getelementptr %arg0[40] : (!llvm.ptr) -> !llvm.ptr, i8
//     %68 = llvm.load %67 : !llvm.ptr -> i32
//     %69 = arith.subi %66, %68 : i32
//     %70 = llvm.getelementptr %arg0[44] : (!llvm.ptr) -> !llvm.ptr, i8
//     %71 = llvm.load %70 : !llvm.ptr -> i32
//     %c0_i32_18 = arith.constant 0 : i32
//     %c1_i32_19 = arith.constant 1 : i32
//     scf.for %arg2 = %c0_i32_18 to %71 step %c1_i32_19  : i32 {
//       %72 = arith.addi %69, %arg2 : i32
//       %73 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       %74 = llvm.load %73 : !llvm.ptr -> !llvm.ptr
//       %75 = llvm.call %74(%arg0, %72, %c1_i32_17) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//       %76 = llvm.getelementptr %60[%75] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %77 = vector.reduction <and>, %16 : vector<16xi1> into i1
//       %78 = vector.reduction <or>, %16 : vector<16xi1> into i1
//       scf.if %77 {
//         llvm.store %55, %76 {alignment = 2 : i64} : vector<16xi16>, !llvm.ptr
//       } else {
//         scf.if %78 {
//           llvm.store %55, %6 {alignment = 64 : i64} : vector<16xi16>, !llvm.ptr
//           %79 = arith.extui %16 : vector<16xi1> to vector<16xi8>
//           llvm.store %79, %8 {alignment = 64 : i64} : vector<16xi8>, !llvm.ptr
//           %c0 = arith.constant 0 : index
//           %c2 = arith.constant 2 : index
//           %c1 = arith.constant 1 : index
//           scf.for %arg3 = %c0 to %c2 step %c1 {
//             %80 = arith.index_cast %arg3 : index to i64
//             %c8_i64 = arith.constant 8 : i64
//             %81 = arith.muli %80, %c8_i64 : i64
//             %82 = llvm.getelementptr %8[%81] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//             %83 = llvm.getelementptr %6[%81] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//             %84 = llvm.getelementptr %76[%81] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//             %85 = llvm.load %82 {alignment = 8 : i64} : !llvm.ptr -> i64
//             %c72340172838076673_i64 = arith.constant 72340172838076673 : i64
//             %c0_i64_20 = arith.constant 0 : i64
//             %86 = arith.cmpi eq, %85, %c72340172838076673_i64 : i64
//             %87 = arith.cmpi ne, %85, %c0_i64_20 : i64
//             scf.if %86 {
//               %88 = llvm.load %83 {alignment = 16 : i64} : !llvm.ptr -> vector<8xi16>
//               llvm.store %88, %84 {alignment = 2 : i64} : vector<8xi16>, !llvm.ptr
//             } else {
//               scf.if %87 {
//                 %c0_21 = arith.constant 0 : index
//                 %c8 = arith.constant 8 : index
//                 %c1_22 = arith.constant 1 : index
//                 scf.for %arg4 = %c0_21 to %c8 step %c1_22 {
//                   %88 = arith.index_cast %arg4 : index to i64
//                   %89 = llvm.getelementptr %82[%88] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//                   %90 = llvm.load %89 {alignment = 1 : i64} : !llvm.ptr -> i8
//                   %c0_i8 = arith.constant 0 : i8
//                   %91 = arith.cmpi ne, %90, %c0_i8 : i8
//                   scf.if %91 {
//                     %92 = llvm.getelementptr %83[%88] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//                     %93 = llvm.getelementptr %84[%88] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//                     %94 = llvm.load %92 {alignment = 2 : i64} : !llvm.ptr -> i16
//                     llvm.store %94, %93 {alignment = 2 : i64} : i16, !llvm.ptr
//                   }
//                 }
//               }
//             }
//           }
//         }
//       }
//     }
//     return
//   }
// }
