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
