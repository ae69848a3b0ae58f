module {
  func.func @allreduce_one_shot(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: i64) attributes {weft.constexprs = {BLOCK = "1024", T = "f32"}, weft.params = ["inp", "out", "n"]} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %1 = arith.extsi %0 : i32 to i64
    %2 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %3 = arith.extsi %2 : i32 to i64
    %4 = arith.addi %arg2, %3 : i64
    %c1_i64 = arith.constant 1 : i64
    %5 = arith.subi %4, %c1_i64 : i64
    %6 = arith.divsi %5, %3 : i64
    %7 = arith.muli %1, %6 : i64
    %8 = arith.minsi %7, %arg2 : i64
    %9 = arith.addi %8, %6 : i64
    %10 = arith.minsi %9, %arg2 : i64
    "shmem.barrier_all"() : () -> ()
    %c1024_i64 = arith.constant 1024 : i64
    scf.for %arg3 = %8 to %10 step %c1024_i64  : i64 {
      %11 = "tile.make_range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
      %12 = "tile.splat"(%arg3) : (i64) -> tensor<1024xi64>
      %13 = arith.extsi %11 : tensor<1024xi32> to tensor<1024xi64>
      %14 = arith.addi %12, %13 : tensor<1024xi64>
      %15 = "tile.splat"(%10) : (i64) -> tensor<1024xi64>
      %16 = arith.cmpi slt, %14, %15 : tensor<1024xi64>
      %17 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
      %18 = "tile.addptr"(%17, %14) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
      %c0_i32 = arith.constant 0 : i32
      %19 = "shmem.n_pes"() : () -> i32
      %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
      %c0_i32_0 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %20 = scf.for %arg4 = %c0_i32_0 to %19 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<1024xf32>)  : i32 {
        %23 = arith.addi %c0_i32, %arg4 : i32
        %24 = "shmem.remote_ptr"(%18, %23) : (tensor<1024x!tile.ptr<f32>>, i32) -> tensor<1024x!tile.ptr<f32>>
        %cst_1 = arith.constant 0.000000e+00 : f32
        %25 = "tile.splat"(%cst_1) : (f32) -> tensor<1024xf32>
        %26 = "tile.load"(%24, %16, %25) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
        %27 = arith.addf %arg5, %26 : tensor<1024xf32>
        scf.yield %27 : tensor<1024xf32>
      }
      %21 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
      %22 = "tile.addptr"(%21, %14) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
      "tile.store"(%22, %20, %16) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
    }
    return
  }
}
