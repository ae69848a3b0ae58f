module {
  func.func @signals(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<i64>, %arg3: i64) attributes {weft.constexprs = {}, weft.params = ["dst", "src", "sig", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %c1_i64 = arith.constant 1 : i64
    "shmem.put_signal"(%arg0, %arg1, %arg3, %arg2, %c1_i64, %3) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_0 = arith.constant 1 : i64
    %4 = "tile.addptr"(%arg2, %c1_i64_0) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64 = arith.constant 2 : i64
    "shmem.signal_op"(%4, %c2_i64, %3) {sig_op = "add"} : (!tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_1 = arith.constant 1 : i64
    %5 = "shmem.signal_wait_until"(%arg2, %c1_i64_1) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %c1_i64_2 = arith.constant 1 : i64
    %6 = "tile.addptr"(%arg2, %c1_i64_2) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64_3 = arith.constant 2 : i64
    %7 = "shmem.signal_wait_until"(%6, %c2_i64_3) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %8 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %11 = "shmem.consume_token"(%10, %5) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %12 = "shmem.consume_token"(%11, %7) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %13 = "tile.load"(%12) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %14 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %15 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %16 = "tile.addptr"(%15, %14) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%16, %13) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    "shmem.fence"() : () -> ()
    "shmem.quiet"() : () -> ()
    "shmem.barrier_all"() : () -> ()
    return
  }
}
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_signals(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//     %5 = llvm.getelementptr %arg1[2] : (!llvm.ptr) -> !llvm.ptr, i64
//     %6 = llvm.load %5 : !llvm.ptr -> !llvm.ptr
//     %7 = llvm.getelementptr %arg1[3] : (!llvm.ptr) -> !llvm.ptr, i64
//     %8 = llvm.load %7 : !llvm.ptr -> i64
//     %9 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %10 = llvm.load %9 : !llvm.ptr -> i32
//     %c1_i32 = arith.constant 1 : i32
//     %11 = arith.addi %10, %c1_i32 : i32
//     %12 = llvm.getelementptr %arg0[12] : (!llvm.ptr) -> !llvm.ptr, i8
//     %13 = llvm.load %12 : !llvm.ptr -> i32
//     %14 = arith.remsi %11, %13 : i32
//     %c1_i64 = arith.constant 1 : i64
//     %c4_i64 = arith.constant 4 : i64
//     %15 = arith.muli %8, %c4_i64 : i64
//     %c0_i32 = arith.constant 0 : i32
//     %c4_i32 = arith.constant 4 : i32
//     %c0_i32_0 = arith.constant 0 : i32
//     %16 = llvm.getelementptr %0[3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %17 = llvm.load %16 : !llvm.ptr -> !llvm.ptr
//     llvm.call %17(%arg0, %2, %4, %15, %6, %c1_i64, %c0_i32, %14, %c4_i32, %c0_i32_0) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32, i32, i32) -> ()
//     %c1_i64_1 = arith.constant 1 : i64
//     %18 = llvm.getelementptr %6[%c1_i64_1] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//     %c2_i64 = arith.constant 2 : i64
//     %c1_i32_2 = arith.constant 1 : i32
//     %c1_i32_3 = arith.constant 1 : i32
//     %19 = llvm.getelementptr %0[4] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %20 = llvm.load %19 : !llvm.ptr -> !llvm.ptr
//     llvm.call %20(%arg0, %18, %c2_i64, %c1_i32_2, %14, %c1_i32_3) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i64, i32, i32, i32) -> ()
//     %c1_i64_4 = arith.constant 1 : i64
//     %c5_i32 = arith.constant 5 : i32
//     %c2_i32 = arith.constant 2 : i32
//     %21 = llvm.getelementptr %0[5] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %22 = llvm.load %21 : !llvm.ptr -> !llvm.ptr
//     %23 = llvm.call %22(%arg0, %6, %c5_i32, %c1_i64_4, %c2_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i64, i32) -> i64
//     %c1_i64_5 = arith.constant 1 : i64
//     %24 = llvm.getelementptr %6[%c1_i64_5] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//     %c2_i64_6 = arith.constant 2 : i64
//     %c0_i32_7 = arith.constant 0 : i32
//     %c3_i32 = arith.constant 3 : i32
//     %25 = llvm.getelementptr %0[5] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %26 = llvm.load %25 : !llvm.ptr -> !llvm.ptr
//     %27 = llvm.call %26(%arg0, %24, %c0_i32_7, %c2_i64_6, %c3_i32) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32, i64, i32) -> i64
//     %cst = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %28 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %29 = vector.broadcast %28 : i64 to vector<4xi64>
//     %30 = llvm.inttoptr %28 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %31 = llvm.getelementptr %30[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %32 = arith.extsi %cst : vector<4xi32> to vector<4xi64>
//     %c4_i64_8 = arith.constant 4 : i64
//     %33 = vector.broadcast %c4_i64_8 : i64 to vector<4xi64>
//     %34 = arith.muli %32, %33 : vector<4xi64>
//     %35 = arith.addi %29, %34 : vector<4xi64>
//     %36 = llvm.load %31 {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
//     %cst_9 = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
//     %37 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %38 = vector.broadcast %37 : i64 to vector<4xi64>
//     %39 = llvm.inttoptr %37 : i64 to !llvm.ptr
//     %c0_i64_10 = arith.constant 0 : i64
//     %40 = llvm.getelementptr %39[%c0_i64_10] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//     %41 = arith.extsi %cst_9 : vector<4xi32> to vector<4xi64>
//     %c4_i64_11 = arith.constant 4 : i64
//     %42 = vector.broadcast %c4_i64_11 : i64 to vector<4xi64>
//     %43 = arith.muli %41, %42 : vector<4xi64>
//     %44 = arith.addi %38, %43 : vector<4xi64>
//     llvm.store %36, %40 {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
//     %c4_i32_12 = arith.constant 4 : i32
//     %45 = llvm.getelementptr %0[6] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %46 = llvm.load %45 : !llvm.ptr -> !llvm.ptr
//     llvm.call %46(%arg0, %c4_i32_12) : !llvm.ptr, (!llvm.ptr, i32) -> ()
//     %c5_i32_13 = arith.constant 5 : i32
//     %47 = llvm.getelementptr %0[7] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %48 = llvm.load %47 : !llvm.ptr -> !llvm.ptr
//     llvm.call %48(%arg0, %c5_i32_13) : !llvm.ptr, (!llvm.ptr, i32) -> ()
//     %c6_i32 = arith.constant 6 : i32
//     %49 = llvm.getelementptr %0[8] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %50 = llvm.load %49 : !llvm.ptr -> !llvm.ptr
//     llvm.call %50(%arg0, %c6_i32) : !llvm.ptr, (!llvm.ptr, i32) -> ()
//     return
//   }
// }
