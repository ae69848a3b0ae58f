module {
  func.func @msccl_ring_allreduce_ll(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<i64>, %arg4: !tile.ptr<f32>, %arg5: !tile.ptr<i64>, %arg6: !tile.ptr<i64>, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64) attributes {weft.constexprs = {BLOCK = "128", CODE = "per_shape", PROTO = "LL", SHAPES = "2", T = "f32"}, weft.params = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"]} {
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
      %13 = arith.extsi %1 : i32 to i64
      %c1_i64_2 = arith.constant 1 : i64
      %14 = arith.muli %arg8, %c1_i64_2 : i64
      %15 = arith.muli %13, %14 : i64
      %16 = "tile.addptr"(%arg4, %15) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %17 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c0_i64_3 = arith.constant 0 : i64
      %18 = "tile.addptr"(%17, %c0_i64_3) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %19 = "tile.load"(%18) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %20 = arith.trunci %19 : i64 to i32
      %21 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c2_i64_4 = arith.constant 2 : i64
      %22 = "tile.addptr"(%21, %c2_i64_4) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %23 = "tile.load"(%22) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %24 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c3_i64 = arith.constant 3 : i64
      %25 = "tile.addptr"(%24, %c3_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %26 = "tile.load"(%25) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %27 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c1_i64_5 = arith.constant 1 : i64
      %28 = "tile.addptr"(%27, %c1_i64_5) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %29 = "tile.load"(%28) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %30 = arith.trunci %29 : i64 to i32
      %31 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c4_i64 = arith.constant 4 : i64
      %32 = "tile.addptr"(%31, %c4_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %33 = "tile.load"(%32) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %34 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c5_i64 = arith.constant 5 : i64
      %35 = "tile.addptr"(%34, %c5_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %36 = "tile.load"(%35) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %37 = arith.addi %arg7, %arg8 : i64
      %c1_i64_6 = arith.constant 1 : i64
      %38 = arith.subi %37, %c1_i64_6 : i64
      %39 = arith.divsi %38, %arg8 : i64
      %c0_i64_7 = arith.constant 0 : i64
      %c1_i64_8 = arith.constant 1 : i64
      scf.for %arg11 = %c0_i64_7 to %39 step %c1_i64_8  : i64 {
        %40 = arith.muli %arg11, %arg8 : i64
        %41 = arith.subi %arg7, %40 : i64
        %42 = arith.minsi %arg8, %41 : i64
        %43 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %c1_i64_9 = arith.constant 1 : i64
        %c9_i64 = arith.constant 9 : i64
        %44 = "tile.addptr"(%43, %c9_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %45 = "tile.load"(%44) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %46 = arith.muli %45, %arg7 : i64
        %47 = "tile.addptr"(%arg0, %46) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %48 = "tile.addptr"(%47, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c10_i64 = arith.constant 10 : i64
        %49 = "tile.addptr"(%43, %c10_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %50 = "tile.load"(%49) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %51 = arith.muli %50, %arg7 : i64
        %52 = "tile.addptr"(%arg0, %51) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %53 = "tile.addptr"(%52, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_10 = arith.constant 2 : i64
        %54 = arith.muli %arg11, %c2_i64_10 : i64
        %c0_i64_11 = arith.constant 0 : i64
        %55 = arith.addi %54, %c0_i64_11 : i64
        %c2_i64_12 = arith.constant 2 : i64
        %56 = arith.muli %arg11, %c2_i64_12 : i64
        %c0_i64_13 = arith.constant 0 : i64
        %57 = arith.addi %56, %c0_i64_13 : i64
        %c2_i64_14 = arith.constant 2 : i64
        %58 = arith.muli %39, %c2_i64_14 : i64
        %c8_i64 = arith.constant 8 : i64
        %59 = arith.muli %33, %c8_i64 : i64
        %c8_i64_15 = arith.constant 8 : i64
        %60 = arith.remsi %57, %c8_i64_15 : i64
        %61 = arith.addi %59, %60 : i64
        %c1_i64_16 = arith.constant 1 : i64
        %62 = arith.muli %arg9, %c1_i64_16 : i64
        %63 = arith.muli %61, %62 : i64
        %64 = "tile.addptr"(%arg3, %63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %65 = arith.addi %arg10, %57 : i64
        %c1_i64_17 = arith.constant 1 : i64
        %66 = arith.addi %65, %c1_i64_17 : i64
        %67 = arith.trunci %66 : i64 to i32
        %c0_i64_18 = arith.constant 0 : i64
        %c1_i64_19 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_18 to %c1_i64_9 step %c1_i64_19  : i64 {
          %117 = arith.muli %arg8, %arg12 : i64
          %118 = "tile.addptr"(%16, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %c4_i64_54 = arith.constant 4 : i64
          %120 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %121 = arith.divsi %120, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %121 step %c128_i64  : i64 {
            %122 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %123 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %124 = arith.extsi %122 : tensor<128xi32> to tensor<128xi64>
            %125 = arith.addi %123, %124 : tensor<128xi64>
            %126 = "tile.splat"(%121) : (i64) -> tensor<128xi64>
            %127 = arith.cmpi slt, %125, %126 : tensor<128xi64>
            %128 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %129 = "tile.addptr"(%128, %125) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %130 = arith.muli %arg9, %arg12 : i64
            %131 = "tile.addptr"(%64, %130) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %132 = "tile.splat"(%131) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.addptr"(%132, %125) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %134 = "shmem.ll_recv"(%133, %67, %127) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
            "tile.store"(%129, %134, %127) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
          }
        }
        %c0_i64_20 = arith.constant 0 : i64
        %c1_i64_21 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_20 to %c1_i64_9 step %c1_i64_21  : i64 {
          %c0_i64_54 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_54 to %42 step %c128_i64  : i64 {
            %117 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %118 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %119 = arith.extsi %117 : tensor<128xi32> to tensor<128xi64>
            %120 = arith.addi %118, %119 : tensor<128xi64>
            %121 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
            %122 = arith.cmpi slt, %120, %121 : tensor<128xi64>
            %123 = arith.muli %arg8, %arg12 : i64
            %124 = "tile.addptr"(%16, %123) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %125 = "tile.splat"(%124) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %126 = "tile.addptr"(%125, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %127 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %128 = "tile.load"(%126, %122, %127) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            %129 = arith.muli %arg7, %arg12 : i64
            %130 = "tile.addptr"(%48, %129) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %131 = "tile.splat"(%130) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %132 = "tile.addptr"(%131, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst_55 = arith.constant 0.000000e+00 : f32
            %133 = "tile.splat"(%cst_55) : (f32) -> tensor<128xf32>
            %134 = "tile.load"(%132, %122, %133) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            %135 = arith.addf %128, %134 : tensor<128xf32>
            %136 = arith.muli %arg7, %arg12 : i64
            %137 = "tile.addptr"(%53, %136) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %138 = "tile.splat"(%137) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %139 = "tile.addptr"(%138, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            "tile.store"(%139, %135, %122) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_22 = arith.constant 8 : i64
        %68 = arith.cmpi sge, %55, %c8_i64_22 : i64
        scf.if %68 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %55 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          %c8_i64_56 = arith.constant 8 : i64
          %121 = arith.subi %120, %c8_i64_56 : i64
          %122 = "shmem.signal_wait_until"(%118, %121) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_23 = arith.constant 8 : i64
        %69 = arith.muli %23, %c8_i64_23 : i64
        %c8_i64_24 = arith.constant 8 : i64
        %70 = arith.remsi %55, %c8_i64_24 : i64
        %71 = arith.addi %69, %70 : i64
        %c1_i64_25 = arith.constant 1 : i64
        %72 = arith.muli %arg9, %c1_i64_25 : i64
        %73 = arith.muli %71, %72 : i64
        %74 = "tile.addptr"(%arg3, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %75 = arith.addi %arg10, %55 : i64
        %c1_i64_26 = arith.constant 1 : i64
        %76 = arith.addi %75, %c1_i64_26 : i64
        %77 = arith.trunci %76 : i64 to i32
        %c0_i64_27 = arith.constant 0 : i64
        %c1_i64_28 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_27 to %c1_i64_9 step %c1_i64_28  : i64 {
          %117 = arith.muli %arg7, %arg12 : i64
          %118 = "tile.addptr"(%53, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %120 = arith.muli %arg9, %arg12 : i64
          %121 = "tile.addptr"(%74, %120) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %122 = "shmem.remote_ptr"(%121, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
          %c4_i64_54 = arith.constant 4 : i64
          %123 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %124 = arith.divsi %123, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %124 step %c128_i64  : i64 {
            %125 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %126 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %127 = arith.extsi %125 : tensor<128xi32> to tensor<128xi64>
            %128 = arith.addi %126, %127 : tensor<128xi64>
            %129 = "tile.splat"(%124) : (i64) -> tensor<128xi64>
            %130 = arith.cmpi slt, %128, %129 : tensor<128xi64>
            %131 = "tile.splat"(%122) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %132 = "tile.addptr"(%131, %128) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %134 = "tile.addptr"(%133, %128) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %c0_i32 = arith.constant 0 : i32
            %135 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
            %136 = "tile.load"(%134, %130, %135) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
            %137 = "shmem.ll_pack"(%136, %77) : (tensor<128xi32>, i32) -> tensor<128xi64>
            "tile.store"(%132, %137, %130) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_29 = arith.constant 8 : i64
        %78 = arith.addi %57, %c8_i64_29 : i64
        %79 = arith.cmpi slt, %78, %58 : i64
        scf.if %79 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %57 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          "shmem.signal_op"(%118, %120, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
        %c1_i64_30 = arith.constant 1 : i64
        %c19_i64 = arith.constant 19 : i64
        %80 = "tile.addptr"(%43, %c19_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %81 = "tile.load"(%80) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %82 = arith.muli %81, %arg7 : i64
        %83 = "tile.addptr"(%arg0, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %84 = "tile.addptr"(%83, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_31 = arith.constant 2 : i64
        %85 = arith.muli %arg11, %c2_i64_31 : i64
        %c1_i64_32 = arith.constant 1 : i64
        %86 = arith.addi %85, %c1_i64_32 : i64
        %c2_i64_33 = arith.constant 2 : i64
        %87 = arith.muli %39, %c2_i64_33 : i64
        %c8_i64_34 = arith.constant 8 : i64
        %88 = arith.cmpi sge, %86, %c8_i64_34 : i64
        scf.if %88 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %86 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          %c8_i64_56 = arith.constant 8 : i64
          %121 = arith.subi %120, %c8_i64_56 : i64
          %122 = "shmem.signal_wait_until"(%118, %121) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_35 = arith.constant 8 : i64
        %89 = arith.muli %23, %c8_i64_35 : i64
        %c8_i64_36 = arith.constant 8 : i64
        %90 = arith.remsi %86, %c8_i64_36 : i64
        %91 = arith.addi %89, %90 : i64
        %c1_i64_37 = arith.constant 1 : i64
        %92 = arith.muli %arg9, %c1_i64_37 : i64
        %93 = arith.muli %91, %92 : i64
        %94 = "tile.addptr"(%arg3, %93) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %95 = arith.addi %arg10, %86 : i64
        %c1_i64_38 = arith.constant 1 : i64
        %96 = arith.addi %95, %c1_i64_38 : i64
        %97 = arith.trunci %96 : i64 to i32
        %c0_i64_39 = arith.constant 0 : i64
        %c1_i64_40 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_39 to %c1_i64_30 step %c1_i64_40  : i64 {
          %117 = arith.muli %arg7, %arg12 : i64
          %118 = "tile.addptr"(%84, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %120 = arith.muli %arg9, %arg12 : i64
          %121 = "tile.addptr"(%94, %120) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %122 = "shmem.remote_ptr"(%121, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
          %c4_i64_54 = arith.constant 4 : i64
          %123 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %124 = arith.divsi %123, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %124 step %c128_i64  : i64 {
            %125 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %126 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %127 = arith.extsi %125 : tensor<128xi32> to tensor<128xi64>
            %128 = arith.addi %126, %127 : tensor<128xi64>
            %129 = "tile.splat"(%124) : (i64) -> tensor<128xi64>
            %130 = arith.cmpi slt, %128, %129 : tensor<128xi64>
            %131 = "tile.splat"(%122) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %132 = "tile.addptr"(%131, %128) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %134 = "tile.addptr"(%133, %128) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %c0_i32 = arith.constant 0 : i32
            %135 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
            %136 = "tile.load"(%134, %130, %135) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
            %137 = "shmem.ll_pack"(%136, %97) : (tensor<128xi32>, i32) -> tensor<128xi64>
            "tile.store"(%132, %137, %130) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
          }
        }
        %c1_i64_41 = arith.constant 1 : i64
        %c30_i64 = arith.constant 30 : i64
        %98 = "tile.addptr"(%43, %c30_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %99 = "tile.load"(%98) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %100 = arith.muli %99, %arg7 : i64
        %101 = "tile.addptr"(%arg0, %100) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %102 = "tile.addptr"(%101, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_42 = arith.constant 2 : i64
        %103 = arith.muli %arg11, %c2_i64_42 : i64
        %c1_i64_43 = arith.constant 1 : i64
        %104 = arith.addi %103, %c1_i64_43 : i64
        %c2_i64_44 = arith.constant 2 : i64
        %105 = arith.muli %39, %c2_i64_44 : i64
        %c8_i64_45 = arith.constant 8 : i64
        %106 = arith.muli %33, %c8_i64_45 : i64
        %c8_i64_46 = arith.constant 8 : i64
        %107 = arith.remsi %104, %c8_i64_46 : i64
        %108 = arith.addi %106, %107 : i64
        %c1_i64_47 = arith.constant 1 : i64
        %109 = arith.muli %arg9, %c1_i64_47 : i64
        %110 = arith.muli %108, %109 : i64
        %111 = "tile.addptr"(%arg3, %110) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %112 = arith.addi %arg10, %104 : i64
        %c1_i64_48 = arith.constant 1 : i64
        %113 = arith.addi %112, %c1_i64_48 : i64
        %114 = arith.trunci %113 : i64 to i32
        %c0_i64_49 = arith.constant 0 : i64
        %c1_i64_50 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_49 to %c1_i64_41 step %c1_i64_50  : i64 {
          %117 = arith.muli %arg8, %arg12 : i64
          %118 = "tile.addptr"(%16, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %c4_i64_54 = arith.constant 4 : i64
          %120 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %121 = arith.divsi %120, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %121 step %c128_i64  : i64 {
            %122 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %123 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %124 = arith.extsi %122 : tensor<128xi32> to tensor<128xi64>
            %125 = arith.addi %123, %124 : tensor<128xi64>
            %126 = "tile.splat"(%121) : (i64) -> tensor<128xi64>
            %127 = arith.cmpi slt, %125, %126 : tensor<128xi64>
            %128 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %129 = "tile.addptr"(%128, %125) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %130 = arith.muli %arg9, %arg12 : i64
            %131 = "tile.addptr"(%111, %130) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %132 = "tile.splat"(%131) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.addptr"(%132, %125) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %134 = "shmem.ll_recv"(%133, %114, %127) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
            "tile.store"(%129, %134, %127) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
          }
        }
        %c0_i64_51 = arith.constant 0 : i64
        %c1_i64_52 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_51 to %c1_i64_41 step %c1_i64_52  : i64 {
          %c0_i64_54 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_54 to %42 step %c128_i64  : i64 {
            %117 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %118 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %119 = arith.extsi %117 : tensor<128xi32> to tensor<128xi64>
            %120 = arith.addi %118, %119 : tensor<128xi64>
            %121 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
            %122 = arith.cmpi slt, %120, %121 : tensor<128xi64>
            %123 = arith.muli %arg7, %arg12 : i64
            %124 = "tile.addptr"(%102, %123) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %125 = "tile.splat"(%124) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %126 = "tile.addptr"(%125, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %127 = arith.muli %arg8, %arg12 : i64
            %128 = "tile.addptr"(%16, %127) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %129 = "tile.splat"(%128) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %130 = "tile.addptr"(%129, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %131 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %132 = "tile.load"(%130, %122, %131) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            "tile.store"(%126, %132, %122) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_53 = arith.constant 8 : i64
        %115 = arith.addi %104, %c8_i64_53 : i64
        %116 = arith.cmpi slt, %115, %105 : i64
        scf.if %116 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %104 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          "shmem.signal_op"(%118, %120, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
      }
    } else {
    }
    %c1_i64_1 = arith.constant 1 : i64
    %12 = arith.cmpi eq, %8, %c1_i64_1 : i64
    scf.if %12 {
      %13 = arith.extsi %1 : i32 to i64
      %c1_i64_2 = arith.constant 1 : i64
      %14 = arith.muli %arg8, %c1_i64_2 : i64
      %15 = arith.muli %13, %14 : i64
      %16 = "tile.addptr"(%arg4, %15) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %17 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c0_i64_3 = arith.constant 0 : i64
      %18 = "tile.addptr"(%17, %c0_i64_3) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %19 = "tile.load"(%18) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %20 = arith.trunci %19 : i64 to i32
      %21 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c2_i64_4 = arith.constant 2 : i64
      %22 = "tile.addptr"(%21, %c2_i64_4) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %23 = "tile.load"(%22) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %24 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c3_i64 = arith.constant 3 : i64
      %25 = "tile.addptr"(%24, %c3_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %26 = "tile.load"(%25) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %27 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c1_i64_5 = arith.constant 1 : i64
      %28 = "tile.addptr"(%27, %c1_i64_5) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %29 = "tile.load"(%28) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %30 = arith.trunci %29 : i64 to i32
      %31 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c4_i64 = arith.constant 4 : i64
      %32 = "tile.addptr"(%31, %c4_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %33 = "tile.load"(%32) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %34 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %c5_i64 = arith.constant 5 : i64
      %35 = "tile.addptr"(%34, %c5_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %36 = "tile.load"(%35) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
      %37 = arith.addi %arg7, %arg8 : i64
      %c1_i64_6 = arith.constant 1 : i64
      %38 = arith.subi %37, %c1_i64_6 : i64
      %39 = arith.divsi %38, %arg8 : i64
      %c0_i64_7 = arith.constant 0 : i64
      %c1_i64_8 = arith.constant 1 : i64
      scf.for %arg11 = %c0_i64_7 to %39 step %c1_i64_8  : i64 {
        %40 = arith.muli %arg11, %arg8 : i64
        %41 = arith.subi %arg7, %40 : i64
        %42 = arith.minsi %arg8, %41 : i64
        %43 = "tile.addptr"(%arg6, %10) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %c1_i64_9 = arith.constant 1 : i64
        %c9_i64 = arith.constant 9 : i64
        %44 = "tile.addptr"(%43, %c9_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %45 = "tile.load"(%44) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %46 = arith.muli %45, %arg7 : i64
        %47 = "tile.addptr"(%arg0, %46) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %48 = "tile.addptr"(%47, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_10 = arith.constant 2 : i64
        %49 = arith.muli %arg11, %c2_i64_10 : i64
        %c0_i64_11 = arith.constant 0 : i64
        %50 = arith.addi %49, %c0_i64_11 : i64
        %c2_i64_12 = arith.constant 2 : i64
        %51 = arith.muli %39, %c2_i64_12 : i64
        %c8_i64 = arith.constant 8 : i64
        %52 = arith.cmpi sge, %50, %c8_i64 : i64
        scf.if %52 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %50 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          %c8_i64_56 = arith.constant 8 : i64
          %121 = arith.subi %120, %c8_i64_56 : i64
          %122 = "shmem.signal_wait_until"(%118, %121) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_13 = arith.constant 8 : i64
        %53 = arith.muli %23, %c8_i64_13 : i64
        %c8_i64_14 = arith.constant 8 : i64
        %54 = arith.remsi %50, %c8_i64_14 : i64
        %55 = arith.addi %53, %54 : i64
        %c1_i64_15 = arith.constant 1 : i64
        %56 = arith.muli %arg9, %c1_i64_15 : i64
        %57 = arith.muli %55, %56 : i64
        %58 = "tile.addptr"(%arg3, %57) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %59 = arith.addi %arg10, %50 : i64
        %c1_i64_16 = arith.constant 1 : i64
        %60 = arith.addi %59, %c1_i64_16 : i64
        %61 = arith.trunci %60 : i64 to i32
        %c0_i64_17 = arith.constant 0 : i64
        %c1_i64_18 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_17 to %c1_i64_9 step %c1_i64_18  : i64 {
          %117 = arith.muli %arg7, %arg12 : i64
          %118 = "tile.addptr"(%48, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %120 = arith.muli %arg9, %arg12 : i64
          %121 = "tile.addptr"(%58, %120) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %122 = "shmem.remote_ptr"(%121, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
          %c4_i64_54 = arith.constant 4 : i64
          %123 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %124 = arith.divsi %123, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %124 step %c128_i64  : i64 {
            %125 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %126 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %127 = arith.extsi %125 : tensor<128xi32> to tensor<128xi64>
            %128 = arith.addi %126, %127 : tensor<128xi64>
            %129 = "tile.splat"(%124) : (i64) -> tensor<128xi64>
            %130 = arith.cmpi slt, %128, %129 : tensor<128xi64>
            %131 = "tile.splat"(%122) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %132 = "tile.addptr"(%131, %128) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %134 = "tile.addptr"(%133, %128) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %c0_i32 = arith.constant 0 : i32
            %135 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
            %136 = "tile.load"(%134, %130, %135) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
            %137 = "shmem.ll_pack"(%136, %61) : (tensor<128xi32>, i32) -> tensor<128xi64>
            "tile.store"(%132, %137, %130) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
          }
        }
        %c1_i64_19 = arith.constant 1 : i64
        %c20_i64 = arith.constant 20 : i64
        %62 = "tile.addptr"(%43, %c20_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %63 = "tile.load"(%62) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %64 = arith.muli %63, %arg7 : i64
        %65 = "tile.addptr"(%arg0, %64) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %66 = "tile.addptr"(%65, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_20 = arith.constant 2 : i64
        %67 = arith.muli %arg11, %c2_i64_20 : i64
        %c0_i64_21 = arith.constant 0 : i64
        %68 = arith.addi %67, %c0_i64_21 : i64
        %c2_i64_22 = arith.constant 2 : i64
        %69 = arith.muli %39, %c2_i64_22 : i64
        %c8_i64_23 = arith.constant 8 : i64
        %70 = arith.muli %33, %c8_i64_23 : i64
        %c8_i64_24 = arith.constant 8 : i64
        %71 = arith.remsi %68, %c8_i64_24 : i64
        %72 = arith.addi %70, %71 : i64
        %c1_i64_25 = arith.constant 1 : i64
        %73 = arith.muli %arg9, %c1_i64_25 : i64
        %74 = arith.muli %72, %73 : i64
        %75 = "tile.addptr"(%arg3, %74) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %76 = arith.addi %arg10, %68 : i64
        %c1_i64_26 = arith.constant 1 : i64
        %77 = arith.addi %76, %c1_i64_26 : i64
        %78 = arith.trunci %77 : i64 to i32
        %c0_i64_27 = arith.constant 0 : i64
        %c1_i64_28 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_27 to %c1_i64_19 step %c1_i64_28  : i64 {
          %117 = arith.muli %arg8, %arg12 : i64
          %118 = "tile.addptr"(%16, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %c4_i64_54 = arith.constant 4 : i64
          %120 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %121 = arith.divsi %120, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %121 step %c128_i64  : i64 {
            %122 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %123 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %124 = arith.extsi %122 : tensor<128xi32> to tensor<128xi64>
            %125 = arith.addi %123, %124 : tensor<128xi64>
            %126 = "tile.splat"(%121) : (i64) -> tensor<128xi64>
            %127 = arith.cmpi slt, %125, %126 : tensor<128xi64>
            %128 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %129 = "tile.addptr"(%128, %125) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %130 = arith.muli %arg9, %arg12 : i64
            %131 = "tile.addptr"(%75, %130) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %132 = "tile.splat"(%131) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.addptr"(%132, %125) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %134 = "shmem.ll_recv"(%133, %78, %127) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
            "tile.store"(%129, %134, %127) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
          }
        }
        %c0_i64_29 = arith.constant 0 : i64
        %c1_i64_30 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_29 to %c1_i64_19 step %c1_i64_30  : i64 {
          %c0_i64_54 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_54 to %42 step %c128_i64  : i64 {
            %117 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %118 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %119 = arith.extsi %117 : tensor<128xi32> to tensor<128xi64>
            %120 = arith.addi %118, %119 : tensor<128xi64>
            %121 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
            %122 = arith.cmpi slt, %120, %121 : tensor<128xi64>
            %123 = arith.muli %arg7, %arg12 : i64
            %124 = "tile.addptr"(%66, %123) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %125 = "tile.splat"(%124) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %126 = "tile.addptr"(%125, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %127 = arith.muli %arg8, %arg12 : i64
            %128 = "tile.addptr"(%16, %127) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %129 = "tile.splat"(%128) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %130 = "tile.addptr"(%129, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %131 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %132 = "tile.load"(%130, %122, %131) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            "tile.store"(%126, %132, %122) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_31 = arith.constant 8 : i64
        %79 = arith.addi %68, %c8_i64_31 : i64
        %80 = arith.cmpi slt, %79, %69 : i64
        scf.if %80 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %68 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          "shmem.signal_op"(%118, %120, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
        %c1_i64_32 = arith.constant 1 : i64
        %c29_i64 = arith.constant 29 : i64
        %81 = "tile.addptr"(%43, %c29_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %82 = "tile.load"(%81) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %83 = arith.muli %82, %arg7 : i64
        %84 = "tile.addptr"(%arg0, %83) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %85 = "tile.addptr"(%84, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c30_i64 = arith.constant 30 : i64
        %86 = "tile.addptr"(%43, %c30_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %87 = "tile.load"(%86) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %88 = arith.muli %87, %arg7 : i64
        %89 = "tile.addptr"(%arg0, %88) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %90 = "tile.addptr"(%89, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c2_i64_33 = arith.constant 2 : i64
        %91 = arith.muli %arg11, %c2_i64_33 : i64
        %c1_i64_34 = arith.constant 1 : i64
        %92 = arith.addi %91, %c1_i64_34 : i64
        %c2_i64_35 = arith.constant 2 : i64
        %93 = arith.muli %arg11, %c2_i64_35 : i64
        %c1_i64_36 = arith.constant 1 : i64
        %94 = arith.addi %93, %c1_i64_36 : i64
        %c2_i64_37 = arith.constant 2 : i64
        %95 = arith.muli %39, %c2_i64_37 : i64
        %c8_i64_38 = arith.constant 8 : i64
        %96 = arith.muli %33, %c8_i64_38 : i64
        %c8_i64_39 = arith.constant 8 : i64
        %97 = arith.remsi %94, %c8_i64_39 : i64
        %98 = arith.addi %96, %97 : i64
        %c1_i64_40 = arith.constant 1 : i64
        %99 = arith.muli %arg9, %c1_i64_40 : i64
        %100 = arith.muli %98, %99 : i64
        %101 = "tile.addptr"(%arg3, %100) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %102 = arith.addi %arg10, %94 : i64
        %c1_i64_41 = arith.constant 1 : i64
        %103 = arith.addi %102, %c1_i64_41 : i64
        %104 = arith.trunci %103 : i64 to i32
        %c0_i64_42 = arith.constant 0 : i64
        %c1_i64_43 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_42 to %c1_i64_32 step %c1_i64_43  : i64 {
          %117 = arith.muli %arg8, %arg12 : i64
          %118 = "tile.addptr"(%16, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %c4_i64_54 = arith.constant 4 : i64
          %120 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %121 = arith.divsi %120, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %121 step %c128_i64  : i64 {
            %122 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %123 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %124 = arith.extsi %122 : tensor<128xi32> to tensor<128xi64>
            %125 = arith.addi %123, %124 : tensor<128xi64>
            %126 = "tile.splat"(%121) : (i64) -> tensor<128xi64>
            %127 = arith.cmpi slt, %125, %126 : tensor<128xi64>
            %128 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %129 = "tile.addptr"(%128, %125) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %130 = arith.muli %arg9, %arg12 : i64
            %131 = "tile.addptr"(%101, %130) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %132 = "tile.splat"(%131) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.addptr"(%132, %125) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %134 = "shmem.ll_recv"(%133, %104, %127) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
            "tile.store"(%129, %134, %127) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
          }
        }
        %c0_i64_44 = arith.constant 0 : i64
        %c1_i64_45 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_44 to %c1_i64_32 step %c1_i64_45  : i64 {
          %c0_i64_54 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_54 to %42 step %c128_i64  : i64 {
            %117 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %118 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %119 = arith.extsi %117 : tensor<128xi32> to tensor<128xi64>
            %120 = arith.addi %118, %119 : tensor<128xi64>
            %121 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
            %122 = arith.cmpi slt, %120, %121 : tensor<128xi64>
            %123 = arith.muli %arg8, %arg12 : i64
            %124 = "tile.addptr"(%16, %123) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %125 = "tile.splat"(%124) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %126 = "tile.addptr"(%125, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst = arith.constant 0.000000e+00 : f32
            %127 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
            %128 = "tile.load"(%126, %122, %127) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            %129 = arith.muli %arg7, %arg12 : i64
            %130 = "tile.addptr"(%85, %129) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %131 = "tile.splat"(%130) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %132 = "tile.addptr"(%131, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            %cst_55 = arith.constant 0.000000e+00 : f32
            %133 = "tile.splat"(%cst_55) : (f32) -> tensor<128xf32>
            %134 = "tile.load"(%132, %122, %133) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
            %135 = arith.addf %128, %134 : tensor<128xf32>
            %136 = arith.muli %arg7, %arg12 : i64
            %137 = "tile.addptr"(%90, %136) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %138 = "tile.splat"(%137) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
            %139 = "tile.addptr"(%138, %120) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
            "tile.store"(%139, %135, %122) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_46 = arith.constant 8 : i64
        %105 = arith.cmpi sge, %92, %c8_i64_46 : i64
        scf.if %105 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %92 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          %c8_i64_56 = arith.constant 8 : i64
          %121 = arith.subi %120, %c8_i64_56 : i64
          %122 = "shmem.signal_wait_until"(%118, %121) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_47 = arith.constant 8 : i64
        %106 = arith.muli %23, %c8_i64_47 : i64
        %c8_i64_48 = arith.constant 8 : i64
        %107 = arith.remsi %92, %c8_i64_48 : i64
        %108 = arith.addi %106, %107 : i64
        %c1_i64_49 = arith.constant 1 : i64
        %109 = arith.muli %arg9, %c1_i64_49 : i64
        %110 = arith.muli %108, %109 : i64
        %111 = "tile.addptr"(%arg3, %110) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %112 = arith.addi %arg10, %92 : i64
        %c1_i64_50 = arith.constant 1 : i64
        %113 = arith.addi %112, %c1_i64_50 : i64
        %114 = arith.trunci %113 : i64 to i32
        %c0_i64_51 = arith.constant 0 : i64
        %c1_i64_52 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_51 to %c1_i64_32 step %c1_i64_52  : i64 {
          %117 = arith.muli %arg7, %arg12 : i64
          %118 = "tile.addptr"(%90, %117) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %119 = "tile.ptr_cast"(%118) : (!tile.ptr<f32>) -> !tile.ptr<i32>
          %120 = arith.muli %arg9, %arg12 : i64
          %121 = "tile.addptr"(%111, %120) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %122 = "shmem.remote_ptr"(%121, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
          %c4_i64_54 = arith.constant 4 : i64
          %123 = arith.muli %42, %c4_i64_54 : i64
          %c4_i64_55 = arith.constant 4 : i64
          %124 = arith.divsi %123, %c4_i64_55 : i64
          %c0_i64_56 = arith.constant 0 : i64
          %c128_i64 = arith.constant 128 : i64
          scf.for %arg13 = %c0_i64_56 to %124 step %c128_i64  : i64 {
            %125 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
            %126 = "tile.splat"(%arg13) : (i64) -> tensor<128xi64>
            %127 = arith.extsi %125 : tensor<128xi32> to tensor<128xi64>
            %128 = arith.addi %126, %127 : tensor<128xi64>
            %129 = "tile.splat"(%124) : (i64) -> tensor<128xi64>
            %130 = arith.cmpi slt, %128, %129 : tensor<128xi64>
            %131 = "tile.splat"(%122) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
            %132 = "tile.addptr"(%131, %128) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
            %133 = "tile.splat"(%119) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
            %134 = "tile.addptr"(%133, %128) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
            %c0_i32 = arith.constant 0 : i32
            %135 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
            %136 = "tile.load"(%134, %130, %135) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
            %137 = "shmem.ll_pack"(%136, %114) : (tensor<128xi32>, i32) -> tensor<128xi64>
            "tile.store"(%132, %137, %130) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
          }
        }
        %c8_i64_53 = arith.constant 8 : i64
        %115 = arith.addi %94, %c8_i64_53 : i64
        %116 = arith.cmpi slt, %115, %95 : i64
        scf.if %116 {
          %c1_i64_54 = arith.constant 1 : i64
          %117 = "tile.addptr"(%arg5, %c1_i64_54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %118 = "tile.addptr"(%117, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %119 = arith.addi %arg10, %94 : i64
          %c1_i64_55 = arith.constant 1 : i64
          %120 = arith.addi %119, %c1_i64_55 : i64
          "shmem.signal_op"(%118, %120, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
      }
    } else {
    }
    return
  }
}
