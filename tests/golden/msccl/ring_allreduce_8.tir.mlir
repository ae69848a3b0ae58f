module {
  func.func @msccl_ring_allreduce(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<f32>, %arg4: !tile.ptr<f32>, %arg5: !tile.ptr<i64>, %arg6: !tile.ptr<i64>, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64) attributes {weft.constexprs = {BLOCK = "128", CODE = "step_loop", PROTO = "Simple", SHAPES = "8", T = "f32"}, weft.params = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"]} {
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
        %c8_i64 = arith.constant 8 : i64
        %45 = "tile.addptr"(%42, %c8_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %46 = "tile.load"(%45) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %c0_i64_8 = arith.constant 0 : i64
        %c6_i64 = arith.constant 6 : i64
        %47 = "tile.addptr"(%42, %c6_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %48 = "tile.load"(%47) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %c1_i64_9 = arith.constant 1 : i64
        scf.for %arg12 = %c0_i64_8 to %48 step %c1_i64_9  : i64 {
          %c10_i64 = arith.constant 10 : i64
          %49 = arith.muli %arg12, %c10_i64 : i64
          %c11_i64 = arith.constant 11 : i64
          %50 = arith.addi %49, %c11_i64 : i64
          %51 = "tile.addptr"(%42, %50) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %52 = "tile.load"(%51) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
          %c10_i64_10 = arith.constant 10 : i64
          %53 = arith.muli %arg12, %c10_i64_10 : i64
          %c12_i64 = arith.constant 12 : i64
          %54 = arith.addi %53, %c12_i64 : i64
          %55 = "tile.addptr"(%42, %54) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %56 = "tile.load"(%55) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
          %c0_i64_11 = arith.constant 0 : i64
          %57 = arith.cmpi sge, %52, %c0_i64_11 : i64
          scf.if %57 {
            %c2_i64_19 = arith.constant 2 : i64
            %68 = "tile.addptr"(%arg5, %c2_i64_19) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %69 = "tile.addptr"(%68, %52) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %70 = arith.addi %arg10, %arg11 : i64
            %c1_i64_20 = arith.constant 1 : i64
            %71 = arith.addi %70, %c1_i64_20 : i64
            %72 = "shmem.signal_wait_until"(%69, %71) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
          } else {
          }
          %c10_i64_12 = arith.constant 10 : i64
          %58 = arith.muli %arg12, %c10_i64_12 : i64
          %c13_i64 = arith.constant 13 : i64
          %59 = arith.addi %58, %c13_i64 : i64
          %60 = "tile.addptr"(%42, %59) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %61 = "tile.load"(%60) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
          %c0_i64_13 = arith.constant 0 : i64
          %62 = arith.cmpi eq, %61, %c0_i64_13 : i64
          scf.if %62 {
            %c10_i64_19 = arith.constant 10 : i64
            %68 = arith.muli %arg12, %c10_i64_19 : i64
            %c14_i64 = arith.constant 14 : i64
            %69 = arith.addi %68, %c14_i64 : i64
            %70 = "tile.addptr"(%42, %69) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %71 = "tile.load"(%70) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_20 = arith.constant 10 : i64
            %72 = arith.muli %arg12, %c10_i64_20 : i64
            %c15_i64 = arith.constant 15 : i64
            %73 = arith.addi %72, %c15_i64 : i64
            %74 = "tile.addptr"(%42, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %75 = "tile.load"(%74) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_21 = arith.constant 10 : i64
            %76 = arith.muli %arg12, %c10_i64_21 : i64
            %c9_i64 = arith.constant 9 : i64
            %77 = arith.addi %76, %c9_i64 : i64
            %78 = "tile.addptr"(%42, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_22 = arith.constant 0 : i64
            %80 = arith.cmpi eq, %75, %c0_i64_22 : i64
            %81 = scf.if %80 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_33 = arith.constant 1 : i64
              %108 = arith.cmpi eq, %75, %c1_i64_33 : i64
              %109 = scf.if %108 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %109 : !tile.ptr<f32>
            }
            %82 = arith.muli %79, %arg7 : i64
            %83 = "tile.addptr"(%81, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %84 = "tile.addptr"(%83, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %85 = arith.muli %arg11, %44 : i64
            %c10_i64_23 = arith.constant 10 : i64
            %86 = arith.muli %arg12, %c10_i64_23 : i64
            %c17_i64 = arith.constant 17 : i64
            %87 = arith.addi %86, %c17_i64 : i64
            %88 = "tile.addptr"(%42, %87) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %89 = "tile.load"(%88) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %90 = arith.addi %85, %89 : i64
            %91 = arith.muli %38, %46 : i64
            %c2_i64_24 = arith.constant 2 : i64
            %92 = arith.cmpi sge, %90, %c2_i64_24 : i64
            scf.if %92 {
              %c1_i64_33 = arith.constant 1 : i64
              %108 = "tile.addptr"(%arg5, %c1_i64_33) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %109 = "tile.addptr"(%108, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %110 = arith.addi %arg10, %90 : i64
              %c1_i64_34 = arith.constant 1 : i64
              %111 = arith.addi %110, %c1_i64_34 : i64
              %c2_i64_35 = arith.constant 2 : i64
              %112 = arith.subi %111, %c2_i64_35 : i64
              %113 = "shmem.signal_wait_until"(%109, %112) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            } else {
            }
            %c2_i64_25 = arith.constant 2 : i64
            %93 = arith.muli %22, %c2_i64_25 : i64
            %c2_i64_26 = arith.constant 2 : i64
            %94 = arith.remsi %90, %c2_i64_26 : i64
            %95 = arith.addi %93, %94 : i64
            %c1_i64_27 = arith.constant 1 : i64
            %96 = arith.muli %arg9, %c1_i64_27 : i64
            %97 = arith.muli %95, %96 : i64
            %98 = "tile.addptr"(%arg3, %97) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %c1_i64_28 = arith.constant 1 : i64
            %99 = arith.subi %71, %c1_i64_28 : i64
            %c0_i64_29 = arith.constant 0 : i64
            %c1_i64_30 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_29 to %99 step %c1_i64_30  : i64 {
              %108 = arith.muli %arg9, %arg13 : i64
              %109 = "tile.addptr"(%98, %108) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              %110 = arith.muli %arg7, %arg13 : i64
              %111 = "tile.addptr"(%84, %110) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              "shmem.put"(%109, %111, %41, %19) {nbi = "false", scope = "block"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
            }
            %c1_i64_31 = arith.constant 1 : i64
            %100 = arith.subi %71, %c1_i64_31 : i64
            %101 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %102 = arith.muli %arg9, %100 : i64
            %103 = "tile.addptr"(%98, %102) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %104 = arith.muli %arg7, %100 : i64
            %105 = "tile.addptr"(%84, %104) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %106 = arith.addi %arg10, %90 : i64
            %c1_i64_32 = arith.constant 1 : i64
            %107 = arith.addi %106, %c1_i64_32 : i64
            "shmem.put_signal"(%103, %105, %41, %101, %107, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
          } else {
          }
          %c1_i64_14 = arith.constant 1 : i64
          %63 = arith.cmpi eq, %61, %c1_i64_14 : i64
          scf.if %63 {
            %c10_i64_19 = arith.constant 10 : i64
            %68 = arith.muli %arg12, %c10_i64_19 : i64
            %c14_i64 = arith.constant 14 : i64
            %69 = arith.addi %68, %c14_i64 : i64
            %70 = "tile.addptr"(%42, %69) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %71 = "tile.load"(%70) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_20 = arith.constant 10 : i64
            %72 = arith.muli %arg12, %c10_i64_20 : i64
            %c16_i64 = arith.constant 16 : i64
            %73 = arith.addi %72, %c16_i64 : i64
            %74 = "tile.addptr"(%42, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %75 = "tile.load"(%74) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_21 = arith.constant 10 : i64
            %76 = arith.muli %arg12, %c10_i64_21 : i64
            %c10_i64_22 = arith.constant 10 : i64
            %77 = arith.addi %76, %c10_i64_22 : i64
            %78 = "tile.addptr"(%42, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_23 = arith.constant 0 : i64
            %80 = arith.cmpi eq, %75, %c0_i64_23 : i64
            %81 = scf.if %80 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_32 = arith.constant 1 : i64
              %105 = arith.cmpi eq, %75, %c1_i64_32 : i64
              %106 = scf.if %105 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %106 : !tile.ptr<f32>
            }
            %82 = arith.muli %79, %arg7 : i64
            %83 = "tile.addptr"(%81, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %84 = "tile.addptr"(%83, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %85 = arith.muli %arg11, %46 : i64
            %c10_i64_24 = arith.constant 10 : i64
            %86 = arith.muli %arg12, %c10_i64_24 : i64
            %c18_i64 = arith.constant 18 : i64
            %87 = arith.addi %86, %c18_i64 : i64
            %88 = "tile.addptr"(%42, %87) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %89 = "tile.load"(%88) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %90 = arith.addi %85, %89 : i64
            %91 = arith.muli %38, %46 : i64
            %c2_i64_25 = arith.constant 2 : i64
            %92 = arith.muli %32, %c2_i64_25 : i64
            %c2_i64_26 = arith.constant 2 : i64
            %93 = arith.remsi %90, %c2_i64_26 : i64
            %94 = arith.addi %92, %93 : i64
            %c1_i64_27 = arith.constant 1 : i64
            %95 = arith.muli %arg9, %c1_i64_27 : i64
            %96 = arith.muli %94, %95 : i64
            %97 = "tile.addptr"(%arg3, %96) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %98 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %99 = arith.addi %arg10, %90 : i64
            %c1_i64_28 = arith.constant 1 : i64
            %100 = arith.addi %99, %c1_i64_28 : i64
            %101 = "shmem.signal_wait_until"(%98, %100) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            %102 = "shmem.consume_token"(%97, %101) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
            %c0_i64_29 = arith.constant 0 : i64
            %c1_i64_30 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_29 to %71 step %c1_i64_30  : i64 {
              %c0_i64_32 = arith.constant 0 : i64
              %c128_i64 = arith.constant 128 : i64
              scf.for %arg14 = %c0_i64_32 to %41 step %c128_i64  : i64 {
                %105 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
                %106 = "tile.splat"(%arg14) : (i64) -> tensor<128xi64>
                %107 = arith.extsi %105 : tensor<128xi32> to tensor<128xi64>
                %108 = arith.addi %106, %107 : tensor<128xi64>
                %109 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
                %110 = arith.cmpi slt, %108, %109 : tensor<128xi64>
                %111 = arith.muli %arg7, %arg13 : i64
                %112 = "tile.addptr"(%84, %111) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %113 = "tile.splat"(%112) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %114 = "tile.addptr"(%113, %108) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %115 = arith.muli %arg9, %arg13 : i64
                %116 = "tile.addptr"(%102, %115) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %117 = "tile.splat"(%116) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %118 = "tile.addptr"(%117, %108) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst = arith.constant 0.000000e+00 : f32
                %119 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
                %120 = "tile.load"(%118, %110, %119) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                "tile.store"(%114, %120, %110) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
              }
            }
            %c2_i64_31 = arith.constant 2 : i64
            %103 = arith.addi %90, %c2_i64_31 : i64
            %104 = arith.cmpi slt, %103, %91 : i64
            scf.if %104 {
              %c1_i64_32 = arith.constant 1 : i64
              %105 = "tile.addptr"(%arg5, %c1_i64_32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %106 = "tile.addptr"(%105, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %107 = arith.addi %arg10, %90 : i64
              %c1_i64_33 = arith.constant 1 : i64
              %108 = arith.addi %107, %c1_i64_33 : i64
              "shmem.signal_op"(%106, %108, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
            } else {
            }
          } else {
          }
          %c2_i64_15 = arith.constant 2 : i64
          %64 = arith.cmpi eq, %61, %c2_i64_15 : i64
          scf.if %64 {
            %c10_i64_19 = arith.constant 10 : i64
            %68 = arith.muli %arg12, %c10_i64_19 : i64
            %c14_i64 = arith.constant 14 : i64
            %69 = arith.addi %68, %c14_i64 : i64
            %70 = "tile.addptr"(%42, %69) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %71 = "tile.load"(%70) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_20 = arith.constant 10 : i64
            %72 = arith.muli %arg12, %c10_i64_20 : i64
            %c16_i64 = arith.constant 16 : i64
            %73 = arith.addi %72, %c16_i64 : i64
            %74 = "tile.addptr"(%42, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %75 = "tile.load"(%74) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_21 = arith.constant 10 : i64
            %76 = arith.muli %arg12, %c10_i64_21 : i64
            %c10_i64_22 = arith.constant 10 : i64
            %77 = arith.addi %76, %c10_i64_22 : i64
            %78 = "tile.addptr"(%42, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_23 = arith.constant 0 : i64
            %80 = arith.cmpi eq, %75, %c0_i64_23 : i64
            %81 = scf.if %80 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_42 = arith.constant 1 : i64
              %127 = arith.cmpi eq, %75, %c1_i64_42 : i64
              %128 = scf.if %127 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %128 : !tile.ptr<f32>
            }
            %82 = arith.muli %79, %arg7 : i64
            %83 = "tile.addptr"(%81, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %84 = "tile.addptr"(%83, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %85 = arith.muli %arg11, %44 : i64
            %c10_i64_24 = arith.constant 10 : i64
            %86 = arith.muli %arg12, %c10_i64_24 : i64
            %c17_i64 = arith.constant 17 : i64
            %87 = arith.addi %86, %c17_i64 : i64
            %88 = "tile.addptr"(%42, %87) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %89 = "tile.load"(%88) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %90 = arith.addi %85, %89 : i64
            %91 = arith.muli %arg11, %46 : i64
            %c10_i64_25 = arith.constant 10 : i64
            %92 = arith.muli %arg12, %c10_i64_25 : i64
            %c18_i64 = arith.constant 18 : i64
            %93 = arith.addi %92, %c18_i64 : i64
            %94 = "tile.addptr"(%42, %93) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %95 = "tile.load"(%94) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %96 = arith.addi %91, %95 : i64
            %97 = arith.muli %38, %46 : i64
            %c2_i64_26 = arith.constant 2 : i64
            %98 = arith.muli %32, %c2_i64_26 : i64
            %c2_i64_27 = arith.constant 2 : i64
            %99 = arith.remsi %96, %c2_i64_27 : i64
            %100 = arith.addi %98, %99 : i64
            %c1_i64_28 = arith.constant 1 : i64
            %101 = arith.muli %arg9, %c1_i64_28 : i64
            %102 = arith.muli %100, %101 : i64
            %103 = "tile.addptr"(%arg3, %102) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %104 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %105 = arith.addi %arg10, %96 : i64
            %c1_i64_29 = arith.constant 1 : i64
            %106 = arith.addi %105, %c1_i64_29 : i64
            %107 = "shmem.signal_wait_until"(%104, %106) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            %108 = "shmem.consume_token"(%103, %107) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
            %c0_i64_30 = arith.constant 0 : i64
            %c1_i64_31 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_30 to %71 step %c1_i64_31  : i64 {
              %c0_i64_42 = arith.constant 0 : i64
              %c128_i64 = arith.constant 128 : i64
              scf.for %arg14 = %c0_i64_42 to %41 step %c128_i64  : i64 {
                %127 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
                %128 = "tile.splat"(%arg14) : (i64) -> tensor<128xi64>
                %129 = arith.extsi %127 : tensor<128xi32> to tensor<128xi64>
                %130 = arith.addi %128, %129 : tensor<128xi64>
                %131 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
                %132 = arith.cmpi slt, %130, %131 : tensor<128xi64>
                %133 = arith.muli %arg7, %arg13 : i64
                %134 = "tile.addptr"(%84, %133) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %135 = "tile.splat"(%134) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %136 = "tile.addptr"(%135, %130) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %137 = arith.muli %arg9, %arg13 : i64
                %138 = "tile.addptr"(%108, %137) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %139 = "tile.splat"(%138) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %140 = "tile.addptr"(%139, %130) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst = arith.constant 0.000000e+00 : f32
                %141 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
                %142 = "tile.load"(%140, %132, %141) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                "tile.store"(%136, %142, %132) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
              }
            }
            %c2_i64_32 = arith.constant 2 : i64
            %109 = arith.cmpi sge, %90, %c2_i64_32 : i64
            scf.if %109 {
              %c1_i64_42 = arith.constant 1 : i64
              %127 = "tile.addptr"(%arg5, %c1_i64_42) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %128 = "tile.addptr"(%127, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %129 = arith.addi %arg10, %90 : i64
              %c1_i64_43 = arith.constant 1 : i64
              %130 = arith.addi %129, %c1_i64_43 : i64
              %c2_i64_44 = arith.constant 2 : i64
              %131 = arith.subi %130, %c2_i64_44 : i64
              %132 = "shmem.signal_wait_until"(%128, %131) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            } else {
            }
            %c2_i64_33 = arith.constant 2 : i64
            %110 = arith.muli %22, %c2_i64_33 : i64
            %c2_i64_34 = arith.constant 2 : i64
            %111 = arith.remsi %90, %c2_i64_34 : i64
            %112 = arith.addi %110, %111 : i64
            %c1_i64_35 = arith.constant 1 : i64
            %113 = arith.muli %arg9, %c1_i64_35 : i64
            %114 = arith.muli %112, %113 : i64
            %115 = "tile.addptr"(%arg3, %114) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %c1_i64_36 = arith.constant 1 : i64
            %116 = arith.subi %71, %c1_i64_36 : i64
            %c0_i64_37 = arith.constant 0 : i64
            %c1_i64_38 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_37 to %116 step %c1_i64_38  : i64 {
              %127 = arith.muli %arg9, %arg13 : i64
              %128 = "tile.addptr"(%115, %127) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              %129 = arith.muli %arg9, %arg13 : i64
              %130 = "tile.addptr"(%108, %129) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              "shmem.put"(%128, %130, %41, %19) {nbi = "false", scope = "block"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
            }
            %c1_i64_39 = arith.constant 1 : i64
            %117 = arith.subi %71, %c1_i64_39 : i64
            %118 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %119 = arith.muli %arg9, %117 : i64
            %120 = "tile.addptr"(%115, %119) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %121 = arith.muli %arg9, %117 : i64
            %122 = "tile.addptr"(%108, %121) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %123 = arith.addi %arg10, %90 : i64
            %c1_i64_40 = arith.constant 1 : i64
            %124 = arith.addi %123, %c1_i64_40 : i64
            "shmem.put_signal"(%120, %122, %41, %118, %124, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
            %c2_i64_41 = arith.constant 2 : i64
            %125 = arith.addi %96, %c2_i64_41 : i64
            %126 = arith.cmpi slt, %125, %97 : i64
            scf.if %126 {
              %c1_i64_42 = arith.constant 1 : i64
              %127 = "tile.addptr"(%arg5, %c1_i64_42) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %128 = "tile.addptr"(%127, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %129 = arith.addi %arg10, %96 : i64
              %c1_i64_43 = arith.constant 1 : i64
              %130 = arith.addi %129, %c1_i64_43 : i64
              "shmem.signal_op"(%128, %130, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
            } else {
            }
          } else {
          }
          %c3_i64_16 = arith.constant 3 : i64
          %65 = arith.cmpi eq, %61, %c3_i64_16 : i64
          scf.if %65 {
            %c10_i64_19 = arith.constant 10 : i64
            %68 = arith.muli %arg12, %c10_i64_19 : i64
            %c14_i64 = arith.constant 14 : i64
            %69 = arith.addi %68, %c14_i64 : i64
            %70 = "tile.addptr"(%42, %69) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %71 = "tile.load"(%70) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_20 = arith.constant 10 : i64
            %72 = arith.muli %arg12, %c10_i64_20 : i64
            %c15_i64 = arith.constant 15 : i64
            %73 = arith.addi %72, %c15_i64 : i64
            %74 = "tile.addptr"(%42, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %75 = "tile.load"(%74) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_21 = arith.constant 10 : i64
            %76 = arith.muli %arg12, %c10_i64_21 : i64
            %c9_i64 = arith.constant 9 : i64
            %77 = arith.addi %76, %c9_i64 : i64
            %78 = "tile.addptr"(%42, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_22 = arith.constant 0 : i64
            %80 = arith.cmpi eq, %75, %c0_i64_22 : i64
            %81 = scf.if %80 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_41 = arith.constant 1 : i64
              %127 = arith.cmpi eq, %75, %c1_i64_41 : i64
              %128 = scf.if %127 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %128 : !tile.ptr<f32>
            }
            %82 = arith.muli %79, %arg7 : i64
            %83 = "tile.addptr"(%81, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %84 = "tile.addptr"(%83, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %85 = arith.muli %arg11, %44 : i64
            %c10_i64_23 = arith.constant 10 : i64
            %86 = arith.muli %arg12, %c10_i64_23 : i64
            %c17_i64 = arith.constant 17 : i64
            %87 = arith.addi %86, %c17_i64 : i64
            %88 = "tile.addptr"(%42, %87) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %89 = "tile.load"(%88) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %90 = arith.addi %85, %89 : i64
            %91 = arith.muli %arg11, %46 : i64
            %c10_i64_24 = arith.constant 10 : i64
            %92 = arith.muli %arg12, %c10_i64_24 : i64
            %c18_i64 = arith.constant 18 : i64
            %93 = arith.addi %92, %c18_i64 : i64
            %94 = "tile.addptr"(%42, %93) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %95 = "tile.load"(%94) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %96 = arith.addi %91, %95 : i64
            %97 = arith.muli %38, %46 : i64
            %c2_i64_25 = arith.constant 2 : i64
            %98 = arith.muli %32, %c2_i64_25 : i64
            %c2_i64_26 = arith.constant 2 : i64
            %99 = arith.remsi %96, %c2_i64_26 : i64
            %100 = arith.addi %98, %99 : i64
            %c1_i64_27 = arith.constant 1 : i64
            %101 = arith.muli %arg9, %c1_i64_27 : i64
            %102 = arith.muli %100, %101 : i64
            %103 = "tile.addptr"(%arg3, %102) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %104 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %105 = arith.addi %arg10, %96 : i64
            %c1_i64_28 = arith.constant 1 : i64
            %106 = arith.addi %105, %c1_i64_28 : i64
            %107 = "shmem.signal_wait_until"(%104, %106) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            %108 = "shmem.consume_token"(%103, %107) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
            %c0_i64_29 = arith.constant 0 : i64
            %c1_i64_30 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_29 to %71 step %c1_i64_30  : i64 {
              %c0_i64_41 = arith.constant 0 : i64
              %c128_i64 = arith.constant 128 : i64
              scf.for %arg14 = %c0_i64_41 to %41 step %c128_i64  : i64 {
                %127 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
                %128 = "tile.splat"(%arg14) : (i64) -> tensor<128xi64>
                %129 = arith.extsi %127 : tensor<128xi32> to tensor<128xi64>
                %130 = arith.addi %128, %129 : tensor<128xi64>
                %131 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
                %132 = arith.cmpi slt, %130, %131 : tensor<128xi64>
                %133 = arith.muli %arg9, %arg13 : i64
                %134 = "tile.addptr"(%108, %133) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %135 = "tile.splat"(%134) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %136 = "tile.addptr"(%135, %130) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst = arith.constant 0.000000e+00 : f32
                %137 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
                %138 = "tile.load"(%136, %132, %137) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                %139 = arith.muli %arg7, %arg13 : i64
                %140 = "tile.addptr"(%84, %139) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %141 = "tile.splat"(%140) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %142 = "tile.addptr"(%141, %130) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst_42 = arith.constant 0.000000e+00 : f32
                %143 = "tile.splat"(%cst_42) : (f32) -> tensor<128xf32>
                %144 = "tile.load"(%142, %132, %143) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                %145 = arith.addf %138, %144 : tensor<128xf32>
                %146 = arith.muli %arg8, %arg13 : i64
                %147 = "tile.addptr"(%15, %146) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %148 = "tile.splat"(%147) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %149 = "tile.addptr"(%148, %130) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                "tile.store"(%149, %145, %132) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
              }
            }
            %c2_i64_31 = arith.constant 2 : i64
            %109 = arith.cmpi sge, %90, %c2_i64_31 : i64
            scf.if %109 {
              %c1_i64_41 = arith.constant 1 : i64
              %127 = "tile.addptr"(%arg5, %c1_i64_41) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %128 = "tile.addptr"(%127, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %129 = arith.addi %arg10, %90 : i64
              %c1_i64_42 = arith.constant 1 : i64
              %130 = arith.addi %129, %c1_i64_42 : i64
              %c2_i64_43 = arith.constant 2 : i64
              %131 = arith.subi %130, %c2_i64_43 : i64
              %132 = "shmem.signal_wait_until"(%128, %131) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            } else {
            }
            %c2_i64_32 = arith.constant 2 : i64
            %110 = arith.muli %22, %c2_i64_32 : i64
            %c2_i64_33 = arith.constant 2 : i64
            %111 = arith.remsi %90, %c2_i64_33 : i64
            %112 = arith.addi %110, %111 : i64
            %c1_i64_34 = arith.constant 1 : i64
            %113 = arith.muli %arg9, %c1_i64_34 : i64
            %114 = arith.muli %112, %113 : i64
            %115 = "tile.addptr"(%arg3, %114) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %c1_i64_35 = arith.constant 1 : i64
            %116 = arith.subi %71, %c1_i64_35 : i64
            %c0_i64_36 = arith.constant 0 : i64
            %c1_i64_37 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_36 to %116 step %c1_i64_37  : i64 {
              %127 = arith.muli %arg9, %arg13 : i64
              %128 = "tile.addptr"(%115, %127) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              %129 = arith.muli %arg8, %arg13 : i64
              %130 = "tile.addptr"(%15, %129) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              "shmem.put"(%128, %130, %41, %19) {nbi = "false", scope = "block"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
            }
            %c1_i64_38 = arith.constant 1 : i64
            %117 = arith.subi %71, %c1_i64_38 : i64
            %118 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %119 = arith.muli %arg9, %117 : i64
            %120 = "tile.addptr"(%115, %119) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %121 = arith.muli %arg8, %117 : i64
            %122 = "tile.addptr"(%15, %121) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %123 = arith.addi %arg10, %90 : i64
            %c1_i64_39 = arith.constant 1 : i64
            %124 = arith.addi %123, %c1_i64_39 : i64
            "shmem.put_signal"(%120, %122, %41, %118, %124, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
            %c2_i64_40 = arith.constant 2 : i64
            %125 = arith.addi %96, %c2_i64_40 : i64
            %126 = arith.cmpi slt, %125, %97 : i64
            scf.if %126 {
              %c1_i64_41 = arith.constant 1 : i64
              %127 = "tile.addptr"(%arg5, %c1_i64_41) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %128 = "tile.addptr"(%127, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %129 = arith.addi %arg10, %96 : i64
              %c1_i64_42 = arith.constant 1 : i64
              %130 = arith.addi %129, %c1_i64_42 : i64
              "shmem.signal_op"(%128, %130, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
            } else {
            }
          } else {
          }
          %c5_i64_17 = arith.constant 5 : i64
          %66 = arith.cmpi eq, %61, %c5_i64_17 : i64
          scf.if %66 {
            %c10_i64_19 = arith.constant 10 : i64
            %68 = arith.muli %arg12, %c10_i64_19 : i64
            %c14_i64 = arith.constant 14 : i64
            %69 = arith.addi %68, %c14_i64 : i64
            %70 = "tile.addptr"(%42, %69) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %71 = "tile.load"(%70) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_20 = arith.constant 10 : i64
            %72 = arith.muli %arg12, %c10_i64_20 : i64
            %c15_i64 = arith.constant 15 : i64
            %73 = arith.addi %72, %c15_i64 : i64
            %74 = "tile.addptr"(%42, %73) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %75 = "tile.load"(%74) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_21 = arith.constant 10 : i64
            %76 = arith.muli %arg12, %c10_i64_21 : i64
            %c9_i64 = arith.constant 9 : i64
            %77 = arith.addi %76, %c9_i64 : i64
            %78 = "tile.addptr"(%42, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %79 = "tile.load"(%78) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_22 = arith.constant 0 : i64
            %80 = arith.cmpi eq, %75, %c0_i64_22 : i64
            %81 = scf.if %80 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_45 = arith.constant 1 : i64
              %140 = arith.cmpi eq, %75, %c1_i64_45 : i64
              %141 = scf.if %140 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %141 : !tile.ptr<f32>
            }
            %82 = arith.muli %79, %arg7 : i64
            %83 = "tile.addptr"(%81, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %84 = "tile.addptr"(%83, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %c10_i64_23 = arith.constant 10 : i64
            %85 = arith.muli %arg12, %c10_i64_23 : i64
            %c16_i64 = arith.constant 16 : i64
            %86 = arith.addi %85, %c16_i64 : i64
            %87 = "tile.addptr"(%42, %86) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %88 = "tile.load"(%87) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c10_i64_24 = arith.constant 10 : i64
            %89 = arith.muli %arg12, %c10_i64_24 : i64
            %c10_i64_25 = arith.constant 10 : i64
            %90 = arith.addi %89, %c10_i64_25 : i64
            %91 = "tile.addptr"(%42, %90) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %92 = "tile.load"(%91) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %c0_i64_26 = arith.constant 0 : i64
            %93 = arith.cmpi eq, %88, %c0_i64_26 : i64
            %94 = scf.if %93 -> (!tile.ptr<f32>) {
              scf.yield %arg0 : !tile.ptr<f32>
            } else {
              %c1_i64_45 = arith.constant 1 : i64
              %140 = arith.cmpi eq, %88, %c1_i64_45 : i64
              %141 = scf.if %140 -> (!tile.ptr<f32>) {
                scf.yield %arg1 : !tile.ptr<f32>
              } else {
                scf.yield %arg2 : !tile.ptr<f32>
              }
              scf.yield %141 : !tile.ptr<f32>
            }
            %95 = arith.muli %92, %arg7 : i64
            %96 = "tile.addptr"(%94, %95) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %97 = "tile.addptr"(%96, %39) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %98 = arith.muli %arg11, %44 : i64
            %c10_i64_27 = arith.constant 10 : i64
            %99 = arith.muli %arg12, %c10_i64_27 : i64
            %c17_i64 = arith.constant 17 : i64
            %100 = arith.addi %99, %c17_i64 : i64
            %101 = "tile.addptr"(%42, %100) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %102 = "tile.load"(%101) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %103 = arith.addi %98, %102 : i64
            %104 = arith.muli %arg11, %46 : i64
            %c10_i64_28 = arith.constant 10 : i64
            %105 = arith.muli %arg12, %c10_i64_28 : i64
            %c18_i64 = arith.constant 18 : i64
            %106 = arith.addi %105, %c18_i64 : i64
            %107 = "tile.addptr"(%42, %106) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %108 = "tile.load"(%107) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
            %109 = arith.addi %104, %108 : i64
            %110 = arith.muli %38, %46 : i64
            %c2_i64_29 = arith.constant 2 : i64
            %111 = arith.muli %32, %c2_i64_29 : i64
            %c2_i64_30 = arith.constant 2 : i64
            %112 = arith.remsi %109, %c2_i64_30 : i64
            %113 = arith.addi %111, %112 : i64
            %c1_i64_31 = arith.constant 1 : i64
            %114 = arith.muli %arg9, %c1_i64_31 : i64
            %115 = arith.muli %113, %114 : i64
            %116 = "tile.addptr"(%arg3, %115) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %117 = "tile.addptr"(%arg5, %32) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %118 = arith.addi %arg10, %109 : i64
            %c1_i64_32 = arith.constant 1 : i64
            %119 = arith.addi %118, %c1_i64_32 : i64
            %120 = "shmem.signal_wait_until"(%117, %119) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            %121 = "shmem.consume_token"(%116, %120) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
            %c0_i64_33 = arith.constant 0 : i64
            %c1_i64_34 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_33 to %71 step %c1_i64_34  : i64 {
              %c0_i64_45 = arith.constant 0 : i64
              %c128_i64 = arith.constant 128 : i64
              scf.for %arg14 = %c0_i64_45 to %41 step %c128_i64  : i64 {
                %140 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
                %141 = "tile.splat"(%arg14) : (i64) -> tensor<128xi64>
                %142 = arith.extsi %140 : tensor<128xi32> to tensor<128xi64>
                %143 = arith.addi %141, %142 : tensor<128xi64>
                %144 = "tile.splat"(%41) : (i64) -> tensor<128xi64>
                %145 = arith.cmpi slt, %143, %144 : tensor<128xi64>
                %146 = arith.muli %arg9, %arg13 : i64
                %147 = "tile.addptr"(%121, %146) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %148 = "tile.splat"(%147) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %149 = "tile.addptr"(%148, %143) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst = arith.constant 0.000000e+00 : f32
                %150 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
                %151 = "tile.load"(%149, %145, %150) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                %152 = arith.muli %arg7, %arg13 : i64
                %153 = "tile.addptr"(%84, %152) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %154 = "tile.splat"(%153) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %155 = "tile.addptr"(%154, %143) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                %cst_46 = arith.constant 0.000000e+00 : f32
                %156 = "tile.splat"(%cst_46) : (f32) -> tensor<128xf32>
                %157 = "tile.load"(%155, %145, %156) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
                %158 = arith.addf %151, %157 : tensor<128xf32>
                %159 = arith.muli %arg7, %arg13 : i64
                %160 = "tile.addptr"(%97, %159) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
                %161 = "tile.splat"(%160) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
                %162 = "tile.addptr"(%161, %143) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
                "tile.store"(%162, %158, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
              }
            }
            %c2_i64_35 = arith.constant 2 : i64
            %122 = arith.cmpi sge, %103, %c2_i64_35 : i64
            scf.if %122 {
              %c1_i64_45 = arith.constant 1 : i64
              %140 = "tile.addptr"(%arg5, %c1_i64_45) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %141 = "tile.addptr"(%140, %25) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %142 = arith.addi %arg10, %103 : i64
              %c1_i64_46 = arith.constant 1 : i64
              %143 = arith.addi %142, %c1_i64_46 : i64
              %c2_i64_47 = arith.constant 2 : i64
              %144 = arith.subi %143, %c2_i64_47 : i64
              %145 = "shmem.signal_wait_until"(%141, %144) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
            } else {
            }
            %c2_i64_36 = arith.constant 2 : i64
            %123 = arith.muli %22, %c2_i64_36 : i64
            %c2_i64_37 = arith.constant 2 : i64
            %124 = arith.remsi %103, %c2_i64_37 : i64
            %125 = arith.addi %123, %124 : i64
            %c1_i64_38 = arith.constant 1 : i64
            %126 = arith.muli %arg9, %c1_i64_38 : i64
            %127 = arith.muli %125, %126 : i64
            %128 = "tile.addptr"(%arg3, %127) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %c1_i64_39 = arith.constant 1 : i64
            %129 = arith.subi %71, %c1_i64_39 : i64
            %c0_i64_40 = arith.constant 0 : i64
            %c1_i64_41 = arith.constant 1 : i64
            scf.for %arg13 = %c0_i64_40 to %129 step %c1_i64_41  : i64 {
              %140 = arith.muli %arg9, %arg13 : i64
              %141 = "tile.addptr"(%128, %140) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              %142 = arith.muli %arg7, %arg13 : i64
              %143 = "tile.addptr"(%97, %142) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
              "shmem.put"(%141, %143, %41, %19) {nbi = "false", scope = "block"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, i32) -> ()
            }
            %c1_i64_42 = arith.constant 1 : i64
            %130 = arith.subi %71, %c1_i64_42 : i64
            %131 = "tile.addptr"(%arg5, %22) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %132 = arith.muli %arg9, %130 : i64
            %133 = "tile.addptr"(%128, %132) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %134 = arith.muli %arg7, %130 : i64
            %135 = "tile.addptr"(%97, %134) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
            %136 = arith.addi %arg10, %103 : i64
            %c1_i64_43 = arith.constant 1 : i64
            %137 = arith.addi %136, %c1_i64_43 : i64
            "shmem.put_signal"(%133, %135, %41, %131, %137, %19) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
            %c2_i64_44 = arith.constant 2 : i64
            %138 = arith.addi %109, %c2_i64_44 : i64
            %139 = arith.cmpi slt, %138, %110 : i64
            scf.if %139 {
              %c1_i64_45 = arith.constant 1 : i64
              %140 = "tile.addptr"(%arg5, %c1_i64_45) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %141 = "tile.addptr"(%140, %35) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
              %142 = arith.addi %arg10, %109 : i64
              %c1_i64_46 = arith.constant 1 : i64
              %143 = arith.addi %142, %c1_i64_46 : i64
              "shmem.signal_op"(%141, %143, %29) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
            } else {
            }
          } else {
          }
          %c0_i64_18 = arith.constant 0 : i64
          %67 = arith.cmpi sge, %56, %c0_i64_18 : i64
          scf.if %67 {
            %c2_i64_19 = arith.constant 2 : i64
            %68 = "tile.addptr"(%arg5, %c2_i64_19) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %69 = "tile.addptr"(%68, %56) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
            %70 = arith.addi %arg10, %arg11 : i64
            %c1_i64_20 = arith.constant 1 : i64
            %71 = arith.addi %70, %c1_i64_20 : i64
            "shmem.signal_op"(%69, %71, %0) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
          } else {
          }
        }
      }
    } else {
    }
    return
  }
}
