module {
  func.func @msccl_ring_allreduce_ll(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<i64>, %arg4: !tile.ptr<f32>, %arg5: !tile.ptr<i64>, %arg6: !tile.ptr<i64>, %arg7: i64, %arg8: i64, %arg9: i64, %arg10: i64) attributes {weft.constexprs = {BLOCK = "128", PROTO = "LL", SHAPES = "2", T = "f32"}, weft.params = ["inp", "out", "scratch", "slots", "stage", "sig", "table", "ce", "te", "seg", "base"]} {
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
        %c2_i64_9 = arith.constant 2 : i64
        %44 = arith.muli %arg11, %c2_i64_9 : i64
        %c0_i64_10 = arith.constant 0 : i64
        %45 = arith.addi %44, %c0_i64_10 : i64
        %c2_i64_11 = arith.constant 2 : i64
        %46 = arith.muli %arg11, %c2_i64_11 : i64
        %c0_i64_12 = arith.constant 0 : i64
        %47 = arith.addi %46, %c0_i64_12 : i64
        %c8_i64 = arith.constant 8 : i64
        %48 = arith.muli %33, %c8_i64 : i64
        %c8_i64_13 = arith.constant 8 : i64
        %49 = arith.remsi %47, %c8_i64_13 : i64
        %50 = arith.addi %48, %49 : i64
        %c1_i64_14 = arith.constant 1 : i64
        %51 = arith.muli %arg9, %c1_i64_14 : i64
        %52 = arith.muli %50, %51 : i64
        %53 = "tile.addptr"(%arg3, %52) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %54 = arith.addi %arg10, %47 : i64
        %c1_i64_15 = arith.constant 1 : i64
        %55 = arith.addi %54, %c1_i64_15 : i64
        %56 = arith.trunci %55 : i64 to i32
        %c0_i64_16 = arith.constant 0 : i64
        %57 = arith.muli %arg8, %c0_i64_16 : i64
        %58 = "tile.addptr"(%16, %57) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %59 = "tile.ptr_cast"(%58) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_17 = arith.constant 4 : i64
        %60 = arith.muli %42, %c4_i64_17 : i64
        %c4_i64_18 = arith.constant 4 : i64
        %61 = arith.divsi %60, %c4_i64_18 : i64
        %c0_i64_19 = arith.constant 0 : i64
        %c128_i64 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_19 to %61 step %c128_i64  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%61) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%59) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg9, %c0_i64_63 : i64
          %151 = "tile.addptr"(%53, %150) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %152 = "tile.splat"(%151) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %153 = "tile.addptr"(%152, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %154 = "shmem.ll_recv"(%153, %56, %147) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c7_i64 = arith.constant 7 : i64
        %62 = "tile.addptr"(%43, %c7_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %63 = "tile.load"(%62) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %64 = arith.muli %63, %arg7 : i64
        %65 = "tile.addptr"(%arg0, %64) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %66 = "tile.addptr"(%65, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c6_i64 = arith.constant 6 : i64
        %67 = "tile.addptr"(%43, %c6_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %68 = "tile.load"(%67) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %69 = arith.muli %68, %arg7 : i64
        %70 = "tile.addptr"(%arg0, %69) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %71 = "tile.addptr"(%70, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_20 = arith.constant 0 : i64
        %c128_i64_21 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_20 to %42 step %c128_i64_21  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %148 = arith.muli %arg8, %c0_i64_63 : i64
          %149 = "tile.addptr"(%16, %148) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %150 = "tile.splat"(%149) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %152 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %c0_i64_64 = arith.constant 0 : i64
          %154 = arith.muli %arg7, %c0_i64_64 : i64
          %155 = "tile.addptr"(%71, %154) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %156 = "tile.splat"(%155) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %157 = "tile.addptr"(%156, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst_65 = arith.constant 0.000000e+00 : f32
          %158 = "tile.splat"(%cst_65) : (f32) -> tensor<128xf32>
          %159 = "tile.load"(%157, %147, %158) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %160 = arith.addf %153, %159 : tensor<128xf32>
          %c0_i64_66 = arith.constant 0 : i64
          %161 = arith.muli %arg7, %c0_i64_66 : i64
          %162 = "tile.addptr"(%66, %161) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %163 = "tile.splat"(%162) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %164 = "tile.addptr"(%163, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          "tile.store"(%164, %160, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c8_i64_22 = arith.constant 8 : i64
        %72 = arith.cmpi sge, %45, %c8_i64_22 : i64
        scf.if %72 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %45 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %146 = arith.subi %145, %c8_i64_65 : i64
          %147 = "shmem.signal_wait_until"(%143, %146) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_23 = arith.constant 8 : i64
        %73 = arith.muli %23, %c8_i64_23 : i64
        %c8_i64_24 = arith.constant 8 : i64
        %74 = arith.remsi %45, %c8_i64_24 : i64
        %75 = arith.addi %73, %74 : i64
        %c1_i64_25 = arith.constant 1 : i64
        %76 = arith.muli %arg9, %c1_i64_25 : i64
        %77 = arith.muli %75, %76 : i64
        %78 = "tile.addptr"(%arg3, %77) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %79 = arith.addi %arg10, %45 : i64
        %c1_i64_26 = arith.constant 1 : i64
        %80 = arith.addi %79, %c1_i64_26 : i64
        %81 = arith.trunci %80 : i64 to i32
        %c0_i64_27 = arith.constant 0 : i64
        %82 = arith.muli %arg7, %c0_i64_27 : i64
        %83 = "tile.addptr"(%66, %82) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %84 = "tile.ptr_cast"(%83) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_28 = arith.constant 0 : i64
        %85 = arith.muli %arg9, %c0_i64_28 : i64
        %86 = "tile.addptr"(%78, %85) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %87 = "shmem.remote_ptr"(%86, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_29 = arith.constant 4 : i64
        %88 = arith.muli %42, %c4_i64_29 : i64
        %c4_i64_30 = arith.constant 4 : i64
        %89 = arith.divsi %88, %c4_i64_30 : i64
        %c0_i64_31 = arith.constant 0 : i64
        %c128_i64_32 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_31 to %89 step %c128_i64_32  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%89) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%87) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %150 = "tile.splat"(%84) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %152 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %154 = "shmem.ll_pack"(%153, %81) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c2_i64_33 = arith.constant 2 : i64
        %90 = arith.muli %39, %c2_i64_33 : i64
        %c8_i64_34 = arith.constant 8 : i64
        %91 = arith.addi %47, %c8_i64_34 : i64
        %92 = arith.cmpi slt, %91, %90 : i64
        scf.if %92 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %47 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          "shmem.signal_op"(%143, %145, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
        %c2_i64_35 = arith.constant 2 : i64
        %93 = arith.muli %arg11, %c2_i64_35 : i64
        %c1_i64_36 = arith.constant 1 : i64
        %94 = arith.addi %93, %c1_i64_36 : i64
        %c10_i64 = arith.constant 10 : i64
        %95 = "tile.addptr"(%43, %c10_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %96 = "tile.load"(%95) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %97 = arith.muli %96, %arg7 : i64
        %98 = "tile.addptr"(%arg0, %97) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %99 = "tile.addptr"(%98, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c8_i64_37 = arith.constant 8 : i64
        %100 = arith.cmpi sge, %94, %c8_i64_37 : i64
        scf.if %100 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %94 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %146 = arith.subi %145, %c8_i64_65 : i64
          %147 = "shmem.signal_wait_until"(%143, %146) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_38 = arith.constant 8 : i64
        %101 = arith.muli %23, %c8_i64_38 : i64
        %c8_i64_39 = arith.constant 8 : i64
        %102 = arith.remsi %94, %c8_i64_39 : i64
        %103 = arith.addi %101, %102 : i64
        %c1_i64_40 = arith.constant 1 : i64
        %104 = arith.muli %arg9, %c1_i64_40 : i64
        %105 = arith.muli %103, %104 : i64
        %106 = "tile.addptr"(%arg3, %105) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %107 = arith.addi %arg10, %94 : i64
        %c1_i64_41 = arith.constant 1 : i64
        %108 = arith.addi %107, %c1_i64_41 : i64
        %109 = arith.trunci %108 : i64 to i32
        %c0_i64_42 = arith.constant 0 : i64
        %110 = arith.muli %arg7, %c0_i64_42 : i64
        %111 = "tile.addptr"(%99, %110) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %112 = "tile.ptr_cast"(%111) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_43 = arith.constant 0 : i64
        %113 = arith.muli %arg9, %c0_i64_43 : i64
        %114 = "tile.addptr"(%106, %113) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %115 = "shmem.remote_ptr"(%114, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_44 = arith.constant 4 : i64
        %116 = arith.muli %42, %c4_i64_44 : i64
        %c4_i64_45 = arith.constant 4 : i64
        %117 = arith.divsi %116, %c4_i64_45 : i64
        %c0_i64_46 = arith.constant 0 : i64
        %c128_i64_47 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_46 to %117 step %c128_i64_47  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%117) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%115) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %150 = "tile.splat"(%112) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %152 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %154 = "shmem.ll_pack"(%153, %109) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c2_i64_48 = arith.constant 2 : i64
        %118 = arith.muli %arg11, %c2_i64_48 : i64
        %c1_i64_49 = arith.constant 1 : i64
        %119 = arith.addi %118, %c1_i64_49 : i64
        %c8_i64_50 = arith.constant 8 : i64
        %120 = arith.muli %33, %c8_i64_50 : i64
        %c8_i64_51 = arith.constant 8 : i64
        %121 = arith.remsi %119, %c8_i64_51 : i64
        %122 = arith.addi %120, %121 : i64
        %c1_i64_52 = arith.constant 1 : i64
        %123 = arith.muli %arg9, %c1_i64_52 : i64
        %124 = arith.muli %122, %123 : i64
        %125 = "tile.addptr"(%arg3, %124) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %126 = arith.addi %arg10, %119 : i64
        %c1_i64_53 = arith.constant 1 : i64
        %127 = arith.addi %126, %c1_i64_53 : i64
        %128 = arith.trunci %127 : i64 to i32
        %c0_i64_54 = arith.constant 0 : i64
        %129 = arith.muli %arg8, %c0_i64_54 : i64
        %130 = "tile.addptr"(%16, %129) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %131 = "tile.ptr_cast"(%130) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_55 = arith.constant 4 : i64
        %132 = arith.muli %42, %c4_i64_55 : i64
        %c4_i64_56 = arith.constant 4 : i64
        %133 = arith.divsi %132, %c4_i64_56 : i64
        %c0_i64_57 = arith.constant 0 : i64
        %c128_i64_58 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_57 to %133 step %c128_i64_58  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%133) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%131) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg9, %c0_i64_63 : i64
          %151 = "tile.addptr"(%125, %150) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %152 = "tile.splat"(%151) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %153 = "tile.addptr"(%152, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %154 = "shmem.ll_recv"(%153, %128, %147) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c15_i64 = arith.constant 15 : i64
        %134 = "tile.addptr"(%43, %c15_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %135 = "tile.load"(%134) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %136 = arith.muli %135, %arg7 : i64
        %137 = "tile.addptr"(%arg0, %136) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %138 = "tile.addptr"(%137, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_59 = arith.constant 0 : i64
        %c128_i64_60 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_59 to %42 step %c128_i64_60  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %148 = arith.muli %arg7, %c0_i64_63 : i64
          %149 = "tile.addptr"(%138, %148) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %150 = "tile.splat"(%149) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_64 = arith.constant 0 : i64
          %152 = arith.muli %arg8, %c0_i64_64 : i64
          %153 = "tile.addptr"(%16, %152) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %154 = "tile.splat"(%153) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %155 = "tile.addptr"(%154, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %156 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %157 = "tile.load"(%155, %147, %156) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%151, %157, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c2_i64_61 = arith.constant 2 : i64
        %139 = arith.muli %39, %c2_i64_61 : i64
        %c8_i64_62 = arith.constant 8 : i64
        %140 = arith.addi %119, %c8_i64_62 : i64
        %141 = arith.cmpi slt, %140, %139 : i64
        scf.if %141 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %119 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          "shmem.signal_op"(%143, %145, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
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
        %c2_i64_9 = arith.constant 2 : i64
        %44 = arith.muli %arg11, %c2_i64_9 : i64
        %c0_i64_10 = arith.constant 0 : i64
        %45 = arith.addi %44, %c0_i64_10 : i64
        %c6_i64 = arith.constant 6 : i64
        %46 = "tile.addptr"(%43, %c6_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %47 = "tile.load"(%46) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %48 = arith.muli %47, %arg7 : i64
        %49 = "tile.addptr"(%arg0, %48) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %50 = "tile.addptr"(%49, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c8_i64 = arith.constant 8 : i64
        %51 = arith.cmpi sge, %45, %c8_i64 : i64
        scf.if %51 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %45 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %146 = arith.subi %145, %c8_i64_65 : i64
          %147 = "shmem.signal_wait_until"(%143, %146) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_11 = arith.constant 8 : i64
        %52 = arith.muli %23, %c8_i64_11 : i64
        %c8_i64_12 = arith.constant 8 : i64
        %53 = arith.remsi %45, %c8_i64_12 : i64
        %54 = arith.addi %52, %53 : i64
        %c1_i64_13 = arith.constant 1 : i64
        %55 = arith.muli %arg9, %c1_i64_13 : i64
        %56 = arith.muli %54, %55 : i64
        %57 = "tile.addptr"(%arg3, %56) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %58 = arith.addi %arg10, %45 : i64
        %c1_i64_14 = arith.constant 1 : i64
        %59 = arith.addi %58, %c1_i64_14 : i64
        %60 = arith.trunci %59 : i64 to i32
        %c0_i64_15 = arith.constant 0 : i64
        %61 = arith.muli %arg7, %c0_i64_15 : i64
        %62 = "tile.addptr"(%50, %61) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %63 = "tile.ptr_cast"(%62) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_16 = arith.constant 0 : i64
        %64 = arith.muli %arg9, %c0_i64_16 : i64
        %65 = "tile.addptr"(%57, %64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %66 = "shmem.remote_ptr"(%65, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_17 = arith.constant 4 : i64
        %67 = arith.muli %42, %c4_i64_17 : i64
        %c4_i64_18 = arith.constant 4 : i64
        %68 = arith.divsi %67, %c4_i64_18 : i64
        %c0_i64_19 = arith.constant 0 : i64
        %c128_i64 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_19 to %68 step %c128_i64  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%68) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%66) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %150 = "tile.splat"(%63) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %152 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %154 = "shmem.ll_pack"(%153, %60) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c2_i64_20 = arith.constant 2 : i64
        %69 = arith.muli %arg11, %c2_i64_20 : i64
        %c0_i64_21 = arith.constant 0 : i64
        %70 = arith.addi %69, %c0_i64_21 : i64
        %c8_i64_22 = arith.constant 8 : i64
        %71 = arith.muli %33, %c8_i64_22 : i64
        %c8_i64_23 = arith.constant 8 : i64
        %72 = arith.remsi %70, %c8_i64_23 : i64
        %73 = arith.addi %71, %72 : i64
        %c1_i64_24 = arith.constant 1 : i64
        %74 = arith.muli %arg9, %c1_i64_24 : i64
        %75 = arith.muli %73, %74 : i64
        %76 = "tile.addptr"(%arg3, %75) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %77 = arith.addi %arg10, %70 : i64
        %c1_i64_25 = arith.constant 1 : i64
        %78 = arith.addi %77, %c1_i64_25 : i64
        %79 = arith.trunci %78 : i64 to i32
        %c0_i64_26 = arith.constant 0 : i64
        %80 = arith.muli %arg8, %c0_i64_26 : i64
        %81 = "tile.addptr"(%16, %80) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %82 = "tile.ptr_cast"(%81) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_27 = arith.constant 4 : i64
        %83 = arith.muli %42, %c4_i64_27 : i64
        %c4_i64_28 = arith.constant 4 : i64
        %84 = arith.divsi %83, %c4_i64_28 : i64
        %c0_i64_29 = arith.constant 0 : i64
        %c128_i64_30 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_29 to %84 step %c128_i64_30  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%84) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%82) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg9, %c0_i64_63 : i64
          %151 = "tile.addptr"(%76, %150) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %152 = "tile.splat"(%151) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %153 = "tile.addptr"(%152, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %154 = "shmem.ll_recv"(%153, %79, %147) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c11_i64 = arith.constant 11 : i64
        %85 = "tile.addptr"(%43, %c11_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %86 = "tile.load"(%85) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %87 = arith.muli %86, %arg7 : i64
        %88 = "tile.addptr"(%arg0, %87) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %89 = "tile.addptr"(%88, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_31 = arith.constant 0 : i64
        %c128_i64_32 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_31 to %42 step %c128_i64_32  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %148 = arith.muli %arg7, %c0_i64_63 : i64
          %149 = "tile.addptr"(%89, %148) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %150 = "tile.splat"(%149) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_64 = arith.constant 0 : i64
          %152 = arith.muli %arg8, %c0_i64_64 : i64
          %153 = "tile.addptr"(%16, %152) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %154 = "tile.splat"(%153) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %155 = "tile.addptr"(%154, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %156 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %157 = "tile.load"(%155, %147, %156) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%151, %157, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c2_i64_33 = arith.constant 2 : i64
        %90 = arith.muli %39, %c2_i64_33 : i64
        %c8_i64_34 = arith.constant 8 : i64
        %91 = arith.addi %70, %c8_i64_34 : i64
        %92 = arith.cmpi slt, %91, %90 : i64
        scf.if %92 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %70 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          "shmem.signal_op"(%143, %145, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
        %c2_i64_35 = arith.constant 2 : i64
        %93 = arith.muli %arg11, %c2_i64_35 : i64
        %c1_i64_36 = arith.constant 1 : i64
        %94 = arith.addi %93, %c1_i64_36 : i64
        %c2_i64_37 = arith.constant 2 : i64
        %95 = arith.muli %arg11, %c2_i64_37 : i64
        %c1_i64_38 = arith.constant 1 : i64
        %96 = arith.addi %95, %c1_i64_38 : i64
        %c8_i64_39 = arith.constant 8 : i64
        %97 = arith.muli %33, %c8_i64_39 : i64
        %c8_i64_40 = arith.constant 8 : i64
        %98 = arith.remsi %96, %c8_i64_40 : i64
        %99 = arith.addi %97, %98 : i64
        %c1_i64_41 = arith.constant 1 : i64
        %100 = arith.muli %arg9, %c1_i64_41 : i64
        %101 = arith.muli %99, %100 : i64
        %102 = "tile.addptr"(%arg3, %101) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %103 = arith.addi %arg10, %96 : i64
        %c1_i64_42 = arith.constant 1 : i64
        %104 = arith.addi %103, %c1_i64_42 : i64
        %105 = arith.trunci %104 : i64 to i32
        %c0_i64_43 = arith.constant 0 : i64
        %106 = arith.muli %arg8, %c0_i64_43 : i64
        %107 = "tile.addptr"(%16, %106) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %108 = "tile.ptr_cast"(%107) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_44 = arith.constant 4 : i64
        %109 = arith.muli %42, %c4_i64_44 : i64
        %c4_i64_45 = arith.constant 4 : i64
        %110 = arith.divsi %109, %c4_i64_45 : i64
        %c0_i64_46 = arith.constant 0 : i64
        %c128_i64_47 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_46 to %110 step %c128_i64_47  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%110) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%108) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg9, %c0_i64_63 : i64
          %151 = "tile.addptr"(%102, %150) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %152 = "tile.splat"(%151) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %153 = "tile.addptr"(%152, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %154 = "shmem.ll_recv"(%153, %105, %147) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c15_i64 = arith.constant 15 : i64
        %111 = "tile.addptr"(%43, %c15_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %112 = "tile.load"(%111) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %113 = arith.muli %112, %arg7 : i64
        %114 = "tile.addptr"(%arg0, %113) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %115 = "tile.addptr"(%114, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c14_i64 = arith.constant 14 : i64
        %116 = "tile.addptr"(%43, %c14_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %117 = "tile.load"(%116) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %118 = arith.muli %117, %arg7 : i64
        %119 = "tile.addptr"(%arg0, %118) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %120 = "tile.addptr"(%119, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_48 = arith.constant 0 : i64
        %c128_i64_49 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_48 to %42 step %c128_i64_49  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %148 = arith.muli %arg8, %c0_i64_63 : i64
          %149 = "tile.addptr"(%16, %148) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %150 = "tile.splat"(%149) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %152 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %c0_i64_64 = arith.constant 0 : i64
          %154 = arith.muli %arg7, %c0_i64_64 : i64
          %155 = "tile.addptr"(%120, %154) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %156 = "tile.splat"(%155) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %157 = "tile.addptr"(%156, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst_65 = arith.constant 0.000000e+00 : f32
          %158 = "tile.splat"(%cst_65) : (f32) -> tensor<128xf32>
          %159 = "tile.load"(%157, %147, %158) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %160 = arith.addf %153, %159 : tensor<128xf32>
          %c0_i64_66 = arith.constant 0 : i64
          %161 = arith.muli %arg7, %c0_i64_66 : i64
          %162 = "tile.addptr"(%115, %161) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %163 = "tile.splat"(%162) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %164 = "tile.addptr"(%163, %145) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          "tile.store"(%164, %160, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c8_i64_50 = arith.constant 8 : i64
        %121 = arith.cmpi sge, %94, %c8_i64_50 : i64
        scf.if %121 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %94 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %146 = arith.subi %145, %c8_i64_65 : i64
          %147 = "shmem.signal_wait_until"(%143, %146) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_51 = arith.constant 8 : i64
        %122 = arith.muli %23, %c8_i64_51 : i64
        %c8_i64_52 = arith.constant 8 : i64
        %123 = arith.remsi %94, %c8_i64_52 : i64
        %124 = arith.addi %122, %123 : i64
        %c1_i64_53 = arith.constant 1 : i64
        %125 = arith.muli %arg9, %c1_i64_53 : i64
        %126 = arith.muli %124, %125 : i64
        %127 = "tile.addptr"(%arg3, %126) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %128 = arith.addi %arg10, %94 : i64
        %c1_i64_54 = arith.constant 1 : i64
        %129 = arith.addi %128, %c1_i64_54 : i64
        %130 = arith.trunci %129 : i64 to i32
        %c0_i64_55 = arith.constant 0 : i64
        %131 = arith.muli %arg7, %c0_i64_55 : i64
        %132 = "tile.addptr"(%115, %131) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %133 = "tile.ptr_cast"(%132) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_56 = arith.constant 0 : i64
        %134 = arith.muli %arg9, %c0_i64_56 : i64
        %135 = "tile.addptr"(%127, %134) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %136 = "shmem.remote_ptr"(%135, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_57 = arith.constant 4 : i64
        %137 = arith.muli %42, %c4_i64_57 : i64
        %c4_i64_58 = arith.constant 4 : i64
        %138 = arith.divsi %137, %c4_i64_58 : i64
        %c0_i64_59 = arith.constant 0 : i64
        %c128_i64_60 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_59 to %138 step %c128_i64_60  : i64 {
          %142 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %143 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %144 = arith.extsi %142 : tensor<128xi32> to tensor<128xi64>
          %145 = arith.addi %143, %144 : tensor<128xi64>
          %146 = "tile.splat"(%138) : (i64) -> tensor<128xi64>
          %147 = arith.cmpi slt, %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%136) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %149 = "tile.addptr"(%148, %145) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %150 = "tile.splat"(%133) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %145) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %152 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %153 = "tile.load"(%151, %147, %152) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %154 = "shmem.ll_pack"(%153, %130) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%149, %154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c2_i64_61 = arith.constant 2 : i64
        %139 = arith.muli %39, %c2_i64_61 : i64
        %c8_i64_62 = arith.constant 8 : i64
        %140 = arith.addi %96, %c8_i64_62 : i64
        %141 = arith.cmpi slt, %140, %139 : i64
        scf.if %141 {
          %c1_i64_63 = arith.constant 1 : i64
          %142 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %143 = "tile.addptr"(%142, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %144 = arith.addi %arg10, %96 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %145 = arith.addi %144, %c1_i64_64 : i64
          "shmem.signal_op"(%143, %145, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        } else {
        }
      }
    } else {
    }
    return
  }
}
