module {
  func.func @msccl_allgather_ring(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<f32>, %arg4: !tile.ptr<f32>, %arg5: !tile.ptr<i64>, %arg6: !tile.ptr<i64>, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64) attributes {weft.constexprs = {BLOCK = "128", PROTO = "Simple", SHAPES = "1", T = "f32"}, weft.params = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %1 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %2 = arith.extsi %0 : i32 to i64
    %c1_i64 = arith.constant 1 : i64
    %3 = arith.muli %2, %c1_i64 : i64
    %4 = arith.extsi %1 : i32 to i64
    %5 = arith.addi %3, %4 : i64
    %c2_i64 = arith.constant 2 : i64
    %6 = arith.muli %5, %c2_i64 : i64
    %7 = "tile.addptr"(%arg6, %6) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %8 = "tile.load"(%7) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
    %c1_i64_0 = arith.constant 1 : i64
    %9 = "tile.addptr"(%7, %c1_i64_0) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
    %c0_i64 = arith.constant 0 : i64
    %11 = arith.cmpi eq, %8, %c0_i64 : i64
    scf.if %11 {
      %12 = arith.extsi %1 : i32 to i64
      %c1_i64_1 = arith.constant 1 : i64
      %13 = arith.muli %arg8, %c1_i64_1 : i64
      %14 = arith.muli %12, %13 : i64
      %15 = "tile.addptr"(%arg4, %14) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %16 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c0_i64_2 = arith.constant 0 : i64
      %17 = "tile.addptr"(%16, %c0_i64_2) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %18 = "tile.load"(%17) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %19 = arith.trunci %18 : i64 to i32
      %20 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c2_i64_3 = arith.constant 2 : i64
      %21 = "tile.addptr"(%20, %c2_i64_3) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %22 = "tile.load"(%21) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %23 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c3_i64 = arith.constant 3 : i64
      %24 = "tile.addptr"(%23, %c3_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %25 = "tile.load"(%24) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %26 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c1_i64_4 = arith.constant 1 : i64
      %27 = "tile.addptr"(%26, %c1_i64_4) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %28 = "tile.load"(%27) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %29 = arith.trunci %28 : i64 to i32
      %30 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c4_i64 = arith.constant 4 : i64
      %31 = "tile.addptr"(%30, %c4_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %32 = "tile.load"(%31) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %33 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c5_i64 = arith.constant 5 : i64
      %34 = "tile.addptr"(%33, %c5_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %35 = "tile.load"(%34) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %36 = arith.addi %arg7, %arg8 : i64
      %c1_i64_5 = arith.constant 1 : i64
      %37 = arith.subi %36, %c1_i64_5 : i64
      %38 = arith.divsi %37, %arg8 : i64
      %c0_i64_6 = arith.constant 0 : i64
      %c1_i64_7 = arith.constant 1 : i64
      scf.for %arg11 = %c0_i64_6 to %38 step %c1_i64_7  : i64 {
        %39 = arith.muli %arg11, %arg8 : i64
        %40 = arith.subi %arg7, %39 : i64
        %41 = arith.minsi %arg8, %40 : i64
        %42 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %c7_i64 = arith.constant 7 : i64
        %43 = "tile.addptr"(%42, %c7_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %44 = "tile.load"(%43) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %45 = arith.muli %44, %arg7 : i64
        %46 = "tile.addptr"(%arg1, %45) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %47 = "tile.addptr"(%46, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c6_i64 = arith.constant 6 : i64
        %48 = "tile.addptr"(%42, %c6_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %49 = "tile.load"(%48) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %50 = arith.muli %49, %arg7 : i64
        %51 = "tile.addptr"(%arg0, %50) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %52 = "tile.addptr"(%51, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_8 = arith.constant 0 : i64
        %c128_i64 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_8 to %41 step %c128_i64  : i64 {
          %95 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %96 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %97 = arith.extsi %95 : tensor<128xi32> to tensor<128xi64>
          %98 = arith.addi %96, %97 : tensor<128xi64>
          %99 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
          %100 = arith.cmpi slt, %98, %99 : tensor<128xi64>
          %c0_i64_28 = arith.constant 0 : i64
          %101 = arith.muli %arg7, %c0_i64_28 : i64
          %102 = "tile.addptr"(%47, %101) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %103 = "tile.splat"(%102) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %104 = "tile.addptr"(%103, %98) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_29 = arith.constant 0 : i64
          %105 = arith.muli %arg7, %c0_i64_29 : i64
          %106 = "tile.addptr"(%52, %105) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %107 = "tile.splat"(%106) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %108 = "tile.addptr"(%107, %98) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %109 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %110 = "tile.load"(%108, %100, %109) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%104, %110, %100) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c1_i64_9 = arith.constant 1 : i64
        %53 = arith.muli %arg11, %c1_i64_9 : i64
        %c0_i64_10 = arith.constant 0 : i64
        %54 = arith.addi %53, %c0_i64_10 : i64
        %c10_i64 = arith.constant 10 : i64
        %55 = "tile.addptr"(%42, %c10_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %56 = "tile.load"(%55) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %57 = arith.muli %56, %arg7 : i64
        %58 = "tile.addptr"(%arg1, %57) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %59 = "tile.addptr"(%58, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_11 = arith.constant 2 : i64
        %60 = arith.cmpi sge, %54, %c2_i64_11 : i64
        scf.if %60 {
          %c1_i64_28 = arith.constant 1 : i64
          %95 = "tile.addptr"(%arg5, %c1_i64_28) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %96 = "tile.addptr"(%95, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %97 = arith.addi %arg10, %54 : i64
          %c1_i64_29 = arith.constant 1 : i64
          %98 = arith.addi %97, %c1_i64_29 : i64
          %c2_i64_30 = arith.constant 2 : i64
          %99 = arith.subi %98, %c2_i64_30 : i64
          %100 = "shmem.signal_wait_until"(%96, %99) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c2_i64_12 = arith.constant 2 : i64
        %61 = arith.muli %22, %c2_i64_12 : i64
        %c2_i64_13 = arith.constant 2 : i64
        %62 = arith.remsi %54, %c2_i64_13 : i64
        %63 = arith.addi %61, %62 : i64
        %c1_i64_14 = arith.constant 1 : i64
        %64 = arith.muli %arg9, %c1_i64_14 : i64
        %65 = arith.muli %63, %64 : i64
        %66 = "tile.addptr"(%arg3, %65) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %67 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %c0_i64_15 = arith.constant 0 : i64
        %68 = arith.muli %arg9, %c0_i64_15 : i64
        %69 = "tile.addptr"(%66, %68) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_16 = arith.constant 0 : i64
        %70 = arith.muli %arg7, %c0_i64_16 : i64
        %71 = "tile.addptr"(%59, %70) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %72 = arith.addi %arg10, %54 : i64
        %c1_i64_17 = arith.constant 1 : i64
        %73 = arith.addi %72, %c1_i64_17 : i64
        "shmem.put_signal"(%69, %71, %41, %67, %73, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
        %c1_i64_18 = arith.constant 1 : i64
        %74 = arith.muli %arg11, %c1_i64_18 : i64
        %c0_i64_19 = arith.constant 0 : i64
        %75 = arith.addi %74, %c0_i64_19 : i64
        %c2_i64_20 = arith.constant 2 : i64
        %76 = arith.muli %32, %c2_i64_20 : i64
        %c2_i64_21 = arith.constant 2 : i64
        %77 = arith.remsi %75, %c2_i64_21 : i64
        %78 = arith.addi %76, %77 : i64
        %c1_i64_22 = arith.constant 1 : i64
        %79 = arith.muli %arg9, %c1_i64_22 : i64
        %80 = arith.muli %78, %79 : i64
        %81 = "tile.addptr"(%arg3, %80) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %82 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %83 = arith.addi %arg10, %75 : i64
        %c1_i64_23 = arith.constant 1 : i64
        %84 = arith.addi %83, %c1_i64_23 : i64
        %85 = "shmem.signal_wait_until"(%82, %84) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        %86 = "shmem.consume_token"(%81, %85) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
        %c15_i64 = arith.constant 15 : i64
        %87 = "tile.addptr"(%42, %c15_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %88 = "tile.load"(%87) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %89 = arith.muli %88, %arg7 : i64
        %90 = "tile.addptr"(%arg1, %89) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %91 = "tile.addptr"(%90, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_24 = arith.constant 0 : i64
        %c128_i64_25 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_24 to %41 step %c128_i64_25  : i64 {
          %95 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %96 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %97 = arith.extsi %95 : tensor<128xi32> to tensor<128xi64>
          %98 = arith.addi %96, %97 : tensor<128xi64>
          %99 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
          %100 = arith.cmpi slt, %98, %99 : tensor<128xi64>
          %c0_i64_28 = arith.constant 0 : i64
          %101 = arith.muli %arg7, %c0_i64_28 : i64
          %102 = "tile.addptr"(%91, %101) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %103 = "tile.splat"(%102) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %104 = "tile.addptr"(%103, %98) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_29 = arith.constant 0 : i64
          %105 = arith.muli %arg9, %c0_i64_29 : i64
          %106 = "tile.addptr"(%86, %105) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %107 = "tile.splat"(%106) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %108 = "tile.addptr"(%107, %98) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %109 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %110 = "tile.load"(%108, %100, %109) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%104, %110, %100) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c1_i64_26 = arith.constant 1 : i64
        %92 = arith.muli %38, %c1_i64_26 : i64
        %c2_i64_27 = arith.constant 2 : i64
        %93 = arith.addi %75, %c2_i64_27 : i64
        %94 = arith.cmpi slt, %93, %92 : i64
        scf.if %94 {
          %c1_i64_28 = arith.constant 1 : i64
          %95 = "tile.addptr"(%arg5, %c1_i64_28) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %96 = "tile.addptr"(%95, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %97 = arith.addi %arg10, %75 : i64
          %c1_i64_29 = arith.constant 1 : i64
          %98 = arith.addi %97, %c1_i64_29 : i64
          "shmem.signal_op"(%96, %98, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
      }
    } else {
    }
    return
  }
}
