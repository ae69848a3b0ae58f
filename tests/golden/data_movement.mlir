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
