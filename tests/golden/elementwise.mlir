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
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_add(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//     %5 = llvm.getelementptr %arg1[2] : (!llvm.ptr) -> !llvm.ptr, i64
//     %6 = llvm.load %5 : !llvm.ptr -> !llvm.ptr
//     %7 = llvm.getelementptr %arg1[3] : (!llvm.ptr) -> !llvm.ptr, i64
//     %8 = llvm.load %7 : !llvm.ptr -> i32
//     %9 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
//     %10 = llvm.load %9 : !llvm.ptr -> i32
//     %c8_i32 = arith.constant 8 : i32
//     %11 = arith.muli %10, %c8_i32 : i32
//     %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
//     %12 = vector.broadcast %11 : i32 to vector<8xi32>
//     %13 = arith.extsi %11 : i32 to i64
//     %14 = arith.addi %12, %cst : vector<8xi32>
//     %15 = vector.broadcast %8 : i32 to vector<8xi32>
//     %16 = arith.cmpi slt, %14, %15 : vector<8xi32>
//     %17 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %18 = vector.broadcast %17 : i64 to vector<8xi64>
//     %19 = llvm.inttoptr %17 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %20 = arith.addi %13, %c0_i64 : i64
//     %21 = llvm.getelementptr %19[%20] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %22 = arith.extsi %14 : vector<8xi32> to vector<8xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %23 = vector.broadcast %c4_i64 : i64 to vector<8xi64>
//     %24 = arith.muli %22, %23 : vector<8xi64>
//     %25 = arith.addi %18, %24 : vector<8xi64>
//     %cst_0 = arith.constant 0.000000e+00 : f32
//     %26 = vector.broadcast %cst_0 : f32 to vector<8xf32>
//     %27 = vector.reduction <and>, %16 : vector<8xi1> into i1
//     %28 = scf.if %27 -> (vector<8xf32>) {
//       %52 = llvm.load %21 {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
//       scf.yield %52 : vector<8xf32>
//     } else {
//       %52 = llvm.intr.masked.load %21, %16, %26 {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
//       scf.yield %52 : vector<8xf32>
//     }
//     %29 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %30 = vector.broadcast %29 : i64 to vector<8xi64>
//     %31 = llvm.inttoptr %29 : i64 to !llvm.ptr
//     %c0_i64_1 = arith.constant 0 : i64
//     %32 = arith.addi %13, %c0_i64_1 : i64
//     %33 = llvm.getelementptr %31[%32] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %34 = arith.extsi %14 : vector<8xi32> to vector<8xi64>
//     %c4_i64_2 = arith.constant 4 : i64
//     %35 = vector.broadcast %c4_i64_2 : i64 to vector<8xi64>
//     %36 = arith.muli %34, %35 : vector<8xi64>
//     %37 = arith.addi %30, %36 : vector<8xi64>
//     %cst_3 = arith.constant 0.000000e+00 : f32
//     %38 = vector.broadcast %cst_3 : f32 to vector<8xf32>
//     %39 = vector.reduction <and>, %16 : vector<8xi1> into i1
//     %40 = scf.if %39 -> (vector<8xf32>) {
//       %52 = llvm.load %33 {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
//       scf.yield %52 : vector<8xf32>
//     } else {
//       %52 = llvm.intr.masked.load %33, %16, %38 {alignment = 4 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
//       scf.yield %52 : vector<8xf32>
//     }
//     %41 = llvm.ptrtoint %6 : !llvm.ptr to i64
//     %42 = vector.broadcast %41 : i64 to vector<8xi64>
//     %43 = llvm.inttoptr %41 : i64 to !llvm.ptr
//     %c0_i64_4 = arith.constant 0 : i64
//     %44 = arith.addi %13, %c0_i64_4 : i64
//     %45 = llvm.getelementptr %43[%44] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %46 = arith.extsi %14 : vector<8xi32> to vector<8xi64>
//     %c4_i64_5 = arith.constant 4 : i64
//     %47 = vector.broadcast %c4_i64_5 : i64 to vector<8xi64>
//     %48 = arith.muli %46, %47 : vector<8xi64>
//     %49 = arith.addi %42, %48 : vector<8xi64>
//     %50 = arith.addf %28, %40 : vector<8xf32>
//     %51 = vector.reduction <and>, %16 : vector<8xi1> into i1
//     scf.if %51 {
//       llvm.store %50, %45 {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
//     } else {
//       llvm.intr.masked.store %50, %45, %16 {alignment = 4 : i32} : vector<8xf32>, vector<8xi1> into !llvm.ptr
//     }
//     return
//   }
// }
