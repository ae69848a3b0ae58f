module {
  func.func @allgather_ll(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<i64>, %arg3: !tile.ptr<i32>, %arg4: i64, %arg5: i64, %arg6: i32) attributes {weft.constexprs = {BLOCK = "256", T = "f32"}, weft.params = ["inp", "out", "ll", "stage", "n", "words", "flag"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %1 = "shmem.n_pes"() : () -> i32
    %2 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %3 = arith.extsi %2 : i32 to i64
    %4 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %5 = arith.extsi %4 : i32 to i64
    %6 = arith.addi %arg5, %5 : i64
    %c1_i64 = arith.constant 1 : i64
    %7 = arith.subi %6, %c1_i64 : i64
    %8 = arith.divsi %7, %5 : i64
    %9 = arith.muli %3, %8 : i64
    %10 = arith.minsi %9, %arg5 : i64
    %11 = arith.addi %10, %8 : i64
    %12 = arith.minsi %11, %arg5 : i64
    %13 = "tile.ptr_cast"(%arg0) : (!tile.ptr<f32>) -> !tile.ptr<i32>
    %c256_i64 = arith.constant 256 : i64
    scf.for %arg7 = %10 to %12 step %c256_i64  : i64 {
      %15 = "tile.make_range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
      %16 = "tile.splat"(%arg7) : (i64) -> tensor<256xi64>
      %17 = arith.extsi %15 : tensor<256xi32> to tensor<256xi64>
      %18 = arith.addi %16, %17 : tensor<256xi64>
      %19 = "tile.splat"(%12) : (i64) -> tensor<256xi64>
      %20 = arith.cmpi slt, %18, %19 : tensor<256xi64>
      %21 = "tile.splat"(%13) : (!tile.ptr<i32>) -> tensor<256x!tile.ptr<i32>>
      %22 = "tile.addptr"(%21, %18) : (tensor<256x!tile.ptr<i32>>, tensor<256xi64>) -> tensor<256x!tile.ptr<i32>>
      %c0_i32_0 = arith.constant 0 : i32
      %23 = "tile.splat"(%c0_i32_0) : (i32) -> tensor<256xi32>
      %24 = "tile.load"(%22, %20, %23) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!tile.ptr<i32>>, tensor<256xi1>, tensor<256xi32>) -> tensor<256xi32>
      %25 = "shmem.ll_pack"(%24, %arg6) : (tensor<256xi32>, i32) -> tensor<256xi64>
      %c0_i32_1 = arith.constant 0 : i32
      %c1_i32_2 = arith.constant 1 : i32
      scf.for %arg8 = %c0_i32_1 to %1 step %c1_i32_2  : i32 {
        %26 = arith.extsi %0 : i32 to i64
        %27 = arith.muli %26, %arg5 : i64
        %28 = "tile.addptr"(%arg2, %27) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %29 = "tile.splat"(%28) : (!tile.ptr<i64>) -> tensor<256x!tile.ptr<i64>>
        %30 = "tile.addptr"(%29, %18) : (tensor<256x!tile.ptr<i64>>, tensor<256xi64>) -> tensor<256x!tile.ptr<i64>>
        %31 = "shmem.remote_ptr"(%30, %arg8) : (tensor<256x!tile.ptr<i64>>, i32) -> tensor<256x!tile.ptr<i64>>
        "tile.store"(%31, %25, %20) : (tensor<256x!tile.ptr<i64>>, tensor<256xi64>, tensor<256xi1>) -> ()
      }
    }
    %14 = "tile.ptr_cast"(%arg1) : (!tile.ptr<f32>) -> !tile.ptr<i32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %arg7 = %c0_i32 to %1 step %c1_i32  : i32 {
      %c256_i64_0 = arith.constant 256 : i64
      scf.for %arg8 = %10 to %12 step %c256_i64_0  : i64 {
        %15 = "tile.make_range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
        %16 = "tile.splat"(%arg8) : (i64) -> tensor<256xi64>
        %17 = arith.extsi %15 : tensor<256xi32> to tensor<256xi64>
        %18 = arith.addi %16, %17 : tensor<256xi64>
        %19 = "tile.splat"(%12) : (i64) -> tensor<256xi64>
        %20 = arith.cmpi slt, %18, %19 : tensor<256xi64>
        %21 = arith.extsi %arg7 : i32 to i64
        %22 = arith.muli %21, %arg5 : i64
        %23 = "tile.addptr"(%arg2, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %24 = "tile.splat"(%23) : (!tile.ptr<i64>) -> tensor<256x!tile.ptr<i64>>
        %25 = "tile.addptr"(%24, %18) : (tensor<256x!tile.ptr<i64>>, tensor<256xi64>) -> tensor<256x!tile.ptr<i64>>
        %26 = "shmem.ll_recv"(%25, %arg6, %20) : (tensor<256x!tile.ptr<i64>>, i32, tensor<256xi1>) -> tensor<256xi32>
        %27 = arith.extsi %arg7 : i32 to i64
        %28 = arith.muli %27, %arg5 : i64
        %29 = "tile.addptr"(%14, %28) : (!tile.ptr<i32>, i64) -> !tile.ptr<i32>
        %30 = "tile.splat"(%29) : (!tile.ptr<i32>) -> tensor<256x!tile.ptr<i32>>
        %31 = "tile.addptr"(%30, %18) : (tensor<256x!tile.ptr<i32>>, tensor<256xi64>) -> tensor<256x!tile.ptr<i32>>
        "tile.store"(%31, %26, %20) : (tensor<256x!tile.ptr<i32>>, tensor<256xi32>, tensor<256xi1>) -> ()
      }
    }
    return
  }
}
