module {
  func.func @msccl_allgather_ring(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<f32>, %arg4: !tile.ptr<f32>, %arg5: !tile.ptr<i64>, %arg6: !tile.ptr<i64>, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64) attributes {weft.constexprs = {BLOCK = "128", CODE = "per_shape", PROTO = "Simple", SHAPES = "1", T = "f32"}, weft.params = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"]} {
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
        %c1_i64_8 = arith.constant 1 : i64
        %c9_i64 = arith.constant 9 : i64
        %43 = "tile.addptr"(%42, %c9_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %44 = "tile.load"(%43) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %45 = arith.muli %44, %arg7 : i64
        %46 = "tile.addptr"(%arg0, %45) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %47 = "tile.addptr"(%46, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c10_i64 = arith.constant 10 : i64
        %48 = "tile.addptr"(%42, %c10_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %49 = "tile.load"(%48) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %50 = arith.muli %49, %arg7 : i64
        %51 = "tile.addptr"(%arg1, %50) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %52 = "tile.addptr"(%51, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c1_i64_9 = arith.constant 1 : i64
        %53 = arith.muli %38, %c1_i64_9 : i64
        %c0_i64_10 = arith.constant 0 : i64
        %c1_i64_11 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_10 to %c1_i64_8 step %c1_i64_11  : i64 {
          %c0_i64_36 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_36 to %41 step %c128_i64  : i64 {
            %99 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %100 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %101 = arith.extsi %99 : tensor<128xi32> to tensor<128xi64>
            %102 = arith.addi %100, %101 : tensor<128xi64>
            %103 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
            %104 = arith.cmpi slt, %102, %103 : tensor<128xi64>
            %105 = arith.muli %arg7, %arg12 : i64
            %106 = "tile.addptr"(%52, %105) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %107 = "tile.splat"(%106) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %108 = "tile.addptr"(%107, %102) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %109 = arith.muli %arg7, %arg12 : i64
            %110 = "tile.addptr"(%47, %109) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %111 = "tile.splat"(%110) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %112 = "tile.addptr"(%111, %102) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %113 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %114 = "tile.load"(%112, %104, %113) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            "tile.store"(%108, %114, %104) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c1_i64_12 = arith.constant 1 : i64
        %c19_i64 = arith.constant 19 : i64
        %54 = "tile.addptr"(%42, %c19_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %55 = "tile.load"(%54) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %56 = arith.muli %55, %arg7 : i64
        %57 = "tile.addptr"(%arg1, %56) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %58 = "tile.addptr"(%57, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c1_i64_13 = arith.constant 1 : i64
        %59 = arith.muli %arg11, %c1_i64_13 : i64
        %c0_i64_14 = arith.constant 0 : i64
        %60 = arith.addi %59, %c0_i64_14 : i64
        %c1_i64_15 = arith.constant 1 : i64
        %61 = arith.muli %38, %c1_i64_15 : i64
        %c2_i64_16 = arith.constant 2 : i64
        %62 = arith.cmpi sge, %60, %c2_i64_16 : i64
        scf.if %62 {
          %c1_i64_36 = arith.constant 1 : i64
          %99 = "tile.addptr"(%arg5, %c1_i64_36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %100 = "tile.addptr"(%99, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %101 = arith.addi %arg10, %60 : i64
          %c1_i64_37 = arith.constant 1 : i64
          %102 = arith.addi %101, %c1_i64_37 : i64
          %c2_i64_38 = arith.constant 2 : i64
          %103 = arith.subi %102, %c2_i64_38 : i64
          %104 = "shmem.signal_wait_until"(%100, %103) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c2_i64_17 = arith.constant 2 : i64
        %63 = arith.muli %22, %c2_i64_17 : i64
        %c2_i64_18 = arith.constant 2 : i64
        %64 = arith.remsi %60, %c2_i64_18 : i64
        %65 = arith.addi %63, %64 : i64
        %c1_i64_19 = arith.constant 1 : i64
        %66 = arith.muli %arg9, %c1_i64_19 : i64
        %67 = arith.muli %65, %66 : i64
        %68 = "tile.addptr"(%arg3, %67) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c1_i64_20 = arith.constant 1 : i64
        %69 = arith.subi %c1_i64_12, %c1_i64_20 : i64
        %c0_i64_21 = arith.constant 0 : i64
        %c1_i64_22 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_21 to %69 step %c1_i64_22  : i64 {
          %99 = arith.muli %arg9, %arg12 : i64
          %100 = "tile.addptr"(%68, %99) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %101 = arith.muli %arg7, %arg12 : i64
          %102 = "tile.addptr"(%58, %101) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          "shmem.put"(%100, %102, %41, %19) {nbi = "false", scope = "block"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
        }
        %c1_i64_23 = arith.constant 1 : i64
        %70 = arith.subi %c1_i64_12, %c1_i64_23 : i64
        %71 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %72 = arith.muli %arg9, %70 : i64
        %73 = "tile.addptr"(%68, %72) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %74 = arith.muli %arg7, %70 : i64
        %75 = "tile.addptr"(%58, %74) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %76 = arith.addi %arg10, %60 : i64
        %c1_i64_24 = arith.constant 1 : i64
        %77 = arith.addi %76, %c1_i64_24 : i64
        "shmem.put_signal"(%73, %75, %41, %71, %77, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
        %c1_i64_25 = arith.constant 1 : i64
        %c30_i64 = arith.constant 30 : i64
        %78 = "tile.addptr"(%42, %c30_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %80 = arith.muli %79, %arg7 : i64
        %81 = "tile.addptr"(%arg1, %80) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %82 = "tile.addptr"(%81, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c1_i64_26 = arith.constant 1 : i64
        %83 = arith.muli %arg11, %c1_i64_26 : i64
        %c0_i64_27 = arith.constant 0 : i64
        %84 = arith.addi %83, %c0_i64_27 : i64
        %c1_i64_28 = arith.constant 1 : i64
        %85 = arith.muli %38, %c1_i64_28 : i64
        %c2_i64_29 = arith.constant 2 : i64
        %86 = arith.muli %32, %c2_i64_29 : i64
        %c2_i64_30 = arith.constant 2 : i64
        %87 = arith.remsi %84, %c2_i64_30 : i64
        %88 = arith.addi %86, %87 : i64
        %c1_i64_31 = arith.constant 1 : i64
        %89 = arith.muli %arg9, %c1_i64_31 : i64
        %90 = arith.muli %88, %89 : i64
        %91 = "tile.addptr"(%arg3, %90) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %92 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %93 = arith.addi %arg10, %84 : i64
        %c1_i64_32 = arith.constant 1 : i64
        %94 = arith.addi %93, %c1_i64_32 : i64
        %95 = "shmem.signal_wait_until"(%92, %94) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        %96 = "shmem.consume_token"(%91, %95) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
        %c0_i64_33 = arith.constant 0 : i64
        %c1_i64_34 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_33 to %c1_i64_25 step %c1_i64_34  : i64 {
          %c0_i64_36 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_36 to %41 step %c128_i64  : i64 {
            %99 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %100 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %101 = arith.extsi %99 : tensor<128xi32> to tensor<128xi64>
            %102 = arith.addi %100, %101 : tensor<128xi64>
            %103 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
            %104 = arith.cmpi slt, %102, %103 : tensor<128xi64>
            %105 = arith.muli %arg7, %arg12 : i64
            %106 = "tile.addptr"(%82, %105) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %107 = "tile.splat"(%106) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %108 = "tile.addptr"(%107, %102) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %109 = arith.muli %arg9, %arg12 : i64
            %110 = "tile.addptr"(%96, %109) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %111 = "tile.splat"(%110) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %112 = "tile.addptr"(%111, %102) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %113 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %114 = "tile.load"(%112, %104, %113) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            "tile.store"(%108, %114, %104) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c2_i64_35 = arith.constant 2 : i64
        %97 = arith.addi %84, %c2_i64_35 : i64
        %98 = arith.cmpi slt, %97, %85 : i64
        scf.if %98 {
          %c1_i64_36 = arith.constant 1 : i64
          %99 = "tile.addptr"(%arg5, %c1_i64_36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %100 = "tile.addptr"(%99, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %101 = arith.addi %arg10, %84 : i64
          %c1_i64_37 = arith.constant 1 : i64
          %102 = arith.addi %101, %c1_i64_37 : i64
          "shmem.signal_op"(%100, %102, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
      }
    } else {
    }
    return
  }
}
