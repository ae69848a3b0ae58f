module {
  func.func @allgather(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<i64>, %arg3: i64, %arg4: i64) attributes {weft.constexprs = {BLOCK = "1024", T = "f32"}, weft.params = ["inp", "out", "sig", "n", "epoch"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %1 = "shmem.n_pes"() : () -> i32
    %2 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %3 = arith.extsi %2 : i32 to i64
    %4 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %5 = arith.extsi %4 : i32 to i64
    %6 = arith.addi %arg3, %5 : i64
    %c1_i64 = arith.constant 1 : i64
    %7 = arith.subi %6, %c1_i64 : i64
    %8 = arith.divsi %7, %5 : i64
    %9 = arith.muli %3, %8 : i64
    %10 = arith.minsi %9, %arg3 : i64
    %11 = arith.addi %10, %8 : i64
    %12 = arith.minsi %11, %arg3 : i64
    %13 = arith.extsi %0 : i32 to i64
    %14 = arith.muli %13, %arg3 : i64
    %15 = "tile.addptr"(%arg1, %14) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
    %c1024_i64 = arith.constant 1024 : i64
    scf.for %arg5 = %10 to %12 step %c1024_i64  : i64 {
      %20 = "tile.make_range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
      %21 = "tile.splat"(%arg5) : (i64) -> tensor<1024xi64>
      %22 = arith.extsi %20 : tensor<1024xi32> to tensor<1024xi64>
      %23 = arith.addi %21, %22 : tensor<1024xi64>
      %24 = "tile.splat"(%12) : (i64) -> tensor<1024xi64>
      %25 = arith.cmpi slt, %23, %24 : tensor<1024xi64>
      %26 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
      %27 = "tile.addptr"(%26, %23) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
      %cst = arith.constant 0.000000e+00 : f32
      %28 = "tile.splat"(%cst) : (f32) -> tensor<1024xf32>
      %29 = "tile.load"(%27, %25, %28) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
      %30 = "tile.splat"(%15) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
      %31 = "tile.addptr"(%30, %23) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
      "tile.store"(%31, %29, %25) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
    }
    %c1_i32 = arith.constant 1 : i32
    %16 = arith.addi %0, %c1_i32 : i32
    %17 = arith.addi %16, %1 : i32
    %18 = arith.remsi %17, %1 : i32
    %c1_i32_0 = arith.constant 1 : i32
    %19 = arith.cmpi sgt, %1, %c1_i32_0 : i32
    scf.if %19 {
      %20 = arith.extsi %0 : i32 to i64
      %21 = arith.muli %20, %arg3 : i64
      %22 = "tile.addptr"(%arg1, %21) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %23 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
      %24 = arith.muli %0, %23 : i32
      %25 = "tile.program_id"() {axis = 0 : i32} : () -> i32
      %26 = arith.addi %24, %25 : i32
      %27 = arith.extsi %26 : i32 to i64
      %28 = "tile.addptr"(%arg2, %27) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %29 = "tile.addptr"(%22, %10) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %30 = "tile.addptr"(%22, %10) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %31 = arith.subi %12, %10 : i64
      "shmem.put_signal"(%29, %30, %31, %28, %arg4, %18) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
    } else {
    }
    %c1_i32_1 = arith.constant 1 : i32
    %c1_i32_2 = arith.constant 1 : i32
    scf.for %arg5 = %c1_i32_1 to %1 step %c1_i32_2  : i32 {
      %c0_i32 = arith.constant 0 : i32
      %20 = arith.subi %c0_i32, %arg5 : i32
      %21 = arith.addi %0, %20 : i32
      %22 = arith.addi %21, %1 : i32
      %23 = arith.remsi %22, %1 : i32
      %24 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
      %25 = arith.muli %23, %24 : i32
      %26 = "tile.program_id"() {axis = 0 : i32} : () -> i32
      %27 = arith.addi %25, %26 : i32
      %28 = arith.extsi %27 : i32 to i64
      %29 = "tile.addptr"(%arg2, %28) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %30 = "shmem.signal_wait_until"(%29, %arg4) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
      %c1_i32_3 = arith.constant 1 : i32
      %31 = arith.subi %1, %c1_i32_3 : i32
      %32 = arith.cmpi slt, %arg5, %31 : i32
      scf.if %32 {
        %33 = arith.extsi %23 : i32 to i64
        %34 = arith.muli %33, %arg3 : i64
        %35 = "tile.addptr"(%arg1, %34) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %36 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
        %37 = arith.muli %23, %36 : i32
        %38 = "tile.program_id"() {axis = 0 : i32} : () -> i32
        %39 = arith.addi %37, %38 : i32
        %40 = arith.extsi %39 : i32 to i64
        %41 = "tile.addptr"(%arg2, %40) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %42 = "tile.addptr"(%35, %10) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %43 = "tile.addptr"(%35, %10) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %44 = arith.subi %12, %10 : i64
        "shmem.put_signal"(%42, %43, %44, %41, %arg4, %18) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
      } else {
      }
    }
    return
  }
}
