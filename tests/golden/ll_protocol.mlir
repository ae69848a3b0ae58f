module {
  func.func @ll_protocol(%arg0: !tile.ptr<i32>, %arg1: !tile.ptr<i64>, %arg2: i32) attributes {weft.constexprs = {}, weft.params = ["data", "ll", "flag"]} {
    %0 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %1 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %2 = arith.addi %1, %c1_i32 : i32
    %3 = "shmem.n_pes"() : () -> i32
    %4 = arith.remsi %2, %3 : i32
    %5 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %6 = "tile.addptr"(%5, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    %7 = "tile.load"(%6) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<i32>>) -> tensor<8xi32>
    %8 = "shmem.ll_pack"(%7, %arg2) : (tensor<8xi32>, i32) -> tensor<8xi64>
    %9 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %10 = "tile.addptr"(%9, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %11 = "shmem.remote_ptr"(%10, %4) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8x!tile.ptr<i64>>
    "tile.store"(%11, %8) : (tensor<8x!tile.ptr<i64>>, tensor<8xi64>) -> ()
    %12 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %13 = "tile.addptr"(%12, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %14 = "shmem.ll_recv"(%13, %arg2) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8xi32>
    %15 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %16 = "tile.addptr"(%15, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    "tile.store"(%16, %14) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> ()
    return
  }
}
