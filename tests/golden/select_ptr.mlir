module {
  func.func @select_ptr(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {}, weft.params = ["x", "out"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %4 = "shmem.remote_ptr"(%arg0, %3) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
    %c0_i32 = arith.constant 0 : i32
    %5 = arith.cmpi eq, %0, %c0_i32 : i32
    %6 = arith.select %5, %arg0, %4 : !tile.ptr<f32>
    %7 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %8 = "tile.splat"(%6) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %9 = "tile.addptr"(%8, %7) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %11 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %12 = "tile.addptr"(%11, %7) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%12, %10) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_select_ptr(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//     %5 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %6 = llvm.load %5 : !llvm.ptr -> i32
//     %c1_i32 = arith.constant 1 : i32
//     %7 = arith.addi %6, %c1_i32 : i32
//     %8 = llvm.getelementptr %arg0[12] : (!llvm.ptr) -> !llvm.ptr, i8
//     %9 = llvm.load %8 : !llvm.ptr -> i32
//     %10 = arith.remsi %7, %9 : i32
//     %c0_i32 = arith.constant 0 : i32
//     %11 = llvm.getelementptr %0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %12 = llvm.load %11 : !llvm.ptr -> !llvm.ptr
//     %13 = llvm.call %12(%arg0, %2, %10, %c0_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32) -> !llvm.ptr
//     %c0_i32_0 = arith.constant 0 : i32
//     %14 = arith.cmpi eq, %6, %c0_i32_0 : i32
//     %15 = arith.select %14, %2, %13 : !llvm.ptr
//     %cst = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %16 = llvm.ptrtoint %15 : !llvm.ptr to i64
//     %17 = vector.broadcast %16 : i64 to vector<4xi64>
//     %18 = llvm.inttoptr %16 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %19 = llvm.getelementptr %18[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %20 = arith.extsi %cst : vector<4xi32> to vector<4xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %21 = vector.broadcast %c4_i64 : i64 to vector<4xi64>
//     %22 = arith.muli %20, %21 : vector<4xi64>
//     %23 = arith.addi %17, %22 : vector<4xi64>
//     %24 = llvm.load %19 {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
//     %25 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %26 = vector.broadcast %25 : i64 to vector<4xi64>
//     %27 = llvm.inttoptr %25 : i64 to !llvm.ptr
//     %c0_i64_1 = arith.constant 0 : i64
//     %28 = llvm.getelementptr %27[%c0_i64_1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %29 = arith.extsi %cst : vector<4xi32> to vector<4xi64>
//     %c4_i64_2 = arith.constant 4 : i64
//     %30 = vector.broadcast %c4_i64_2 : i64 to vector<4xi64>
//     %31 = arith.muli %29, %30 : vector<4xi64>
//     %32 = arith.addi %26, %31 : vector<4xi64>
//     llvm.store %24, %28 {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
//     return
//   }
// }
