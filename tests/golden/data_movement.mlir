module {
  func.func @data_movement(%arg0: !tile.ptr<bf16>, %arg1: i64) attributes {weft.constexprs = {}, weft.params = ["buf", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %4 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %4, %arg1, %3) {nbi = "false", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %5 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %5, %arg1, %3) {nbi = "true", scope = "warp"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %6 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %6, %arg1, %3) {nbi = "false", scope = "thread"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %7 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %7, %arg1, %3) {nbi = "true", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    "shmem.quiet"() : () -> ()
    %8 = "shmem.remote_ptr"(%arg0, %3) : (!tile.ptr<bf16>, i32) -> !tile.ptr<bf16>
    %9 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %11 = "tile.addptr"(%10, %9) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %12 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %13 = "tile.splat"(%8) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %14 = "tile.addptr"(%13, %12) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %15 = "tile.load"(%14) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<bf16>>) -> tensor<8xbf16>
    "tile.store"(%11, %15) : (tensor<8x!tile.ptr<bf16>>, tensor<8xbf16>) -> ()
    return
  }
}
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_data_movement(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> i64
//     %5 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %6 = llvm.load %5 : !llvm.ptr -> i32
//     %c1_i32 = arith.constant 1 : i32
//     %7 = arith.addi %6, %c1_i32 : i32
//     %8 = llvm.getelementptr %arg0[12] : (!llvm.ptr) -> !llvm.ptr, i8
//     %9 = llvm.load %8 : !llvm.ptr -> i32
//     %10 = arith.remsi %7, %9 : i32
//     %11 = llvm.getelementptr %2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %c2_i64 = arith.constant 2 : i64
//     %12 = arith.muli %4, %c2_i64 : i64
//     %c4_i32 = arith.constant 4 : i32
//     %c0_i32 = arith.constant 0 : i32
//     %13 = llvm.getelementptr %0[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %14 = llvm.load %13 : !llvm.ptr -> !llvm.ptr
//     llvm.call %14(%arg0, %2, %11, %12, %10, %c4_i32, %c0_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, i32) -> ()
//     %15 = llvm.getelementptr %2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %c2_i64_0 = arith.constant 2 : i64
//     %16 = arith.muli %4, %c2_i64_0 : i64
//     %c3_i32 = arith.constant 3 : i32
//     %c1_i32_1 = arith.constant 1 : i32
//     %17 = llvm.getelementptr %0[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %18 = llvm.load %17 : !llvm.ptr -> !llvm.ptr
//     llvm.call %18(%arg0, %2, %15, %16, %10, %c3_i32, %c1_i32_1) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, i32) -> ()
//     %19 = llvm.getelementptr %2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %c2_i64_2 = arith.constant 2 : i64
//     %20 = arith.muli %4, %c2_i64_2 : i64
//     %c0_i32_3 = arith.constant 0 : i32
//     %c2_i32 = arith.constant 2 : i32
//     %21 = llvm.getelementptr %0[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %22 = llvm.load %21 : !llvm.ptr -> !llvm.ptr
//     llvm.call %22(%arg0, %2, %19, %20, %10, %c0_i32_3, %c2_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, i32) -> ()
//     %23 = llvm.getelementptr %2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %c2_i64_4 = arith.constant 2 : i64
//     %24 = arith.muli %4, %c2_i64_4 : i64
//     %c5_i32 = arith.constant 5 : i32
//     %c3_i32_5 = arith.constant 3 : i32
//     %25 = llvm.getelementptr %0[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %26 = llvm.load %25 : !llvm.ptr -> !llvm.ptr
//     llvm.call %26(%arg0, %2, %23, %24, %10, %c5_i32, %c3_i32_5) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, i32) -> ()
//     %c4_i32_6 = arith.constant 4 : i32
//     %27 = llvm.getelementptr %0[7] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %28 = llvm.load %27 : !llvm.ptr -> !llvm.ptr
//     llvm.call %28(%arg0, %c4_i32_6) : !llvm.ptr, (!llvm.ptr, i32) -> ()
//     %c5_i32_7 = arith.constant 5 : i32
//     %29 = llvm.getelementptr %0[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %30 = llvm.load %29 : !llvm.ptr -> !llvm.ptr
//     %31 = llvm.call %30(%arg0, %2, %10, %c5_i32_7) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i32) -> !llvm.ptr
//     %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
//     %32 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %33 = vector.broadcast %32 : i64 to vector<8xi64>
//     %34 = llvm.inttoptr %32 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %35 = llvm.getelementptr %34[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %36 = arith.extsi %cst : vector<8xi32> to vector<8xi64>
//     %c2_i64_8 = arith.constant 2 : i64
//     %37 = vector.broadcast %c2_i64_8 : i64 to vector<8xi64>
//     %38 = arith.muli %36, %37 : vector<8xi64>
//     %39 = arith.addi %33, %38 : vector<8xi64>
//     %cst_9 = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
//     %40 = llvm.ptrtoint %31 : !llvm.ptr to i64
//     %41 = vector.broadcast %40 : i64 to vector<8xi64>
//     %42 = llvm.inttoptr %40 : i64 to !llvm.ptr
//     %c0_i64_10 = arith.constant 0 : i64
//     %43 = llvm.getelementptr %42[%c0_i64_10] : (!llvm.ptr, i64) -> !llvm.ptr, i16
//     %44 = arith.extsi %cst_9 : vector<8xi32> to vector<8xi64>
//     %c2_i64_11 = arith.constant 2 : i64
//     %45 = vector.broadcast %c2_i64_11 : i64 to vector<8xi64>
//     %46 = arith.muli %44, %45 : vector<8xi64>
//     %47 = arith.addi %41, %46 : vector<8xi64>
//     %48 = llvm.load %43 {alignment = 2 : i64} : !llvm.ptr -> vector<8xi16>
//     llvm.store %48, %35 {alignment = 2 : i64} : vector<8xi16>, !llvm.ptr
//     return
//   }
// }
