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
      %c0_i64_6 = arith.constant 0 : i64
      %37 = arith.addi %arg7, %arg8 : i64
      %c1_i64_7 = arith.constant 1 : i64
      %38 = arith.subi %37, %c1_i64_7 : i64
      %39 = arith.divsi %38, %arg8 : i64
      %c1_i64_8 = arith.constant 1 : i64
      scf.for %arg11 = %c0_i64_6 to %39 step %c1_i64_8  : i64 {
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%61) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%59) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %152 = arith.muli %arg9, %c0_i64_63 : i64
          %153 = "tile.addptr"(%53, %152) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %154 = "tile.splat"(%153) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %155 = "tile.addptr"(%154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %156 = "shmem.ll_recv"(%155, %56, %149) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg8, %c0_i64_63 : i64
          %151 = "tile.addptr"(%16, %150) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %152 = "tile.splat"(%151) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %154 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %c0_i64_64 = arith.constant 0 : i64
          %156 = arith.muli %arg7, %c0_i64_64 : i64
          %157 = "tile.addptr"(%71, %156) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %158 = "tile.splat"(%157) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %159 = "tile.addptr"(%158, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst_65 = arith.constant 0.000000e+00 : f32
          %160 = "tile.splat"(%cst_65) : (f32) -> tensor<128xf32>
          %161 = "tile.load"(%159, %149, %160) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %162 = arith.addf %155, %161 : tensor<128xf32>
          %c0_i64_66 = arith.constant 0 : i64
          %163 = arith.muli %arg7, %c0_i64_66 : i64
          %164 = "tile.addptr"(%66, %163) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %165 = "tile.splat"(%164) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %166 = "tile.addptr"(%165, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          "tile.store"(%166, %162, %149) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c8_i64_22 = arith.constant 8 : i64
        %72 = arith.cmpi sge, %45, %c8_i64_22 : i64
        scf.if %72 {
          %c1_i64_63 = arith.constant 1 : i64
          %144 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %145 = "tile.addptr"(%144, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %146 = arith.addi %arg10, %45 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %147 = arith.addi %146, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %148 = arith.subi %147, %c8_i64_65 : i64
          %149 = "shmem.signal_wait_until"(%145, %148) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%89) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%87) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %152 = "tile.splat"(%84) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %154 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %156 = "shmem.ll_pack"(%155, %81) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c1_i64_33 = arith.constant 1 : i64
        %90 = "tile.addptr"(%arg5, %c1_i64_33) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %91 = "tile.addptr"(%90, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %92 = arith.addi %arg10, %47 : i64
        %c1_i64_34 = arith.constant 1 : i64
        %93 = arith.addi %92, %c1_i64_34 : i64
        "shmem.signal_op"(%91, %93, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        %c2_i64_35 = arith.constant 2 : i64
        %94 = arith.muli %arg11, %c2_i64_35 : i64
        %c1_i64_36 = arith.constant 1 : i64
        %95 = arith.addi %94, %c1_i64_36 : i64
        %c10_i64 = arith.constant 10 : i64
        %96 = "tile.addptr"(%43, %c10_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %97 = "tile.load"(%96) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %98 = arith.muli %97, %arg7 : i64
        %99 = "tile.addptr"(%arg0, %98) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %100 = "tile.addptr"(%99, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c8_i64_37 = arith.constant 8 : i64
        %101 = arith.cmpi sge, %95, %c8_i64_37 : i64
        scf.if %101 {
          %c1_i64_63 = arith.constant 1 : i64
          %144 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %145 = "tile.addptr"(%144, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %146 = arith.addi %arg10, %95 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %147 = arith.addi %146, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %148 = arith.subi %147, %c8_i64_65 : i64
          %149 = "shmem.signal_wait_until"(%145, %148) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_38 = arith.constant 8 : i64
        %102 = arith.muli %23, %c8_i64_38 : i64
        %c8_i64_39 = arith.constant 8 : i64
        %103 = arith.remsi %95, %c8_i64_39 : i64
        %104 = arith.addi %102, %103 : i64
        %c1_i64_40 = arith.constant 1 : i64
        %105 = arith.muli %arg9, %c1_i64_40 : i64
        %106 = arith.muli %104, %105 : i64
        %107 = "tile.addptr"(%arg3, %106) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %108 = arith.addi %arg10, %95 : i64
        %c1_i64_41 = arith.constant 1 : i64
        %109 = arith.addi %108, %c1_i64_41 : i64
        %110 = arith.trunci %109 : i64 to i32
        %c0_i64_42 = arith.constant 0 : i64
        %111 = arith.muli %arg7, %c0_i64_42 : i64
        %112 = "tile.addptr"(%100, %111) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %113 = "tile.ptr_cast"(%112) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_43 = arith.constant 0 : i64
        %114 = arith.muli %arg9, %c0_i64_43 : i64
        %115 = "tile.addptr"(%107, %114) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %116 = "shmem.remote_ptr"(%115, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_44 = arith.constant 4 : i64
        %117 = arith.muli %42, %c4_i64_44 : i64
        %c4_i64_45 = arith.constant 4 : i64
        %118 = arith.divsi %117, %c4_i64_45 : i64
        %c0_i64_46 = arith.constant 0 : i64
        %c128_i64_47 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_46 to %118 step %c128_i64_47  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%118) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%116) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %152 = "tile.splat"(%113) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %154 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %156 = "shmem.ll_pack"(%155, %110) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c2_i64_48 = arith.constant 2 : i64
        %119 = arith.muli %arg11, %c2_i64_48 : i64
        %c1_i64_49 = arith.constant 1 : i64
        %120 = arith.addi %119, %c1_i64_49 : i64
        %c8_i64_50 = arith.constant 8 : i64
        %121 = arith.muli %33, %c8_i64_50 : i64
        %c8_i64_51 = arith.constant 8 : i64
        %122 = arith.remsi %120, %c8_i64_51 : i64
        %123 = arith.addi %121, %122 : i64
        %c1_i64_52 = arith.constant 1 : i64
        %124 = arith.muli %arg9, %c1_i64_52 : i64
        %125 = arith.muli %123, %124 : i64
        %126 = "tile.addptr"(%arg3, %125) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %127 = arith.addi %arg10, %120 : i64
        %c1_i64_53 = arith.constant 1 : i64
        %128 = arith.addi %127, %c1_i64_53 : i64
        %129 = arith.trunci %128 : i64 to i32
        %c0_i64_54 = arith.constant 0 : i64
        %130 = arith.muli %arg8, %c0_i64_54 : i64
        %131 = "tile.addptr"(%16, %130) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %132 = "tile.ptr_cast"(%131) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_55 = arith.constant 4 : i64
        %133 = arith.muli %42, %c4_i64_55 : i64
        %c4_i64_56 = arith.constant 4 : i64
        %134 = arith.divsi %133, %c4_i64_56 : i64
        %c0_i64_57 = arith.constant 0 : i64
        %c128_i64_58 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_57 to %134 step %c128_i64_58  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%134) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%132) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %152 = arith.muli %arg9, %c0_i64_63 : i64
          %153 = "tile.addptr"(%126, %152) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %154 = "tile.splat"(%153) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %155 = "tile.addptr"(%154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %156 = "shmem.ll_recv"(%155, %129, %149) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c15_i64 = arith.constant 15 : i64
        %135 = "tile.addptr"(%43, %c15_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %136 = "tile.load"(%135) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %137 = arith.muli %136, %arg7 : i64
        %138 = "tile.addptr"(%arg0, %137) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %139 = "tile.addptr"(%138, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_59 = arith.constant 0 : i64
        %c128_i64_60 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_59 to %42 step %c128_i64_60  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg7, %c0_i64_63 : i64
          %151 = "tile.addptr"(%139, %150) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %152 = "tile.splat"(%151) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_64 = arith.constant 0 : i64
          %154 = arith.muli %arg8, %c0_i64_64 : i64
          %155 = "tile.addptr"(%16, %154) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %156 = "tile.splat"(%155) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %157 = "tile.addptr"(%156, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %158 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %159 = "tile.load"(%157, %149, %158) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%153, %159, %149) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c1_i64_61 = arith.constant 1 : i64
        %140 = "tile.addptr"(%arg5, %c1_i64_61) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %141 = "tile.addptr"(%140, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %142 = arith.addi %arg10, %120 : i64
        %c1_i64_62 = arith.constant 1 : i64
        %143 = arith.addi %142, %c1_i64_62 : i64
        "shmem.signal_op"(%141, %143, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
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
      %c0_i64_6 = arith.constant 0 : i64
      %37 = arith.addi %arg7, %arg8 : i64
      %c1_i64_7 = arith.constant 1 : i64
      %38 = arith.subi %37, %c1_i64_7 : i64
      %39 = arith.divsi %38, %arg8 : i64
      %c1_i64_8 = arith.constant 1 : i64
      scf.for %arg11 = %c0_i64_6 to %39 step %c1_i64_8  : i64 {
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
          %144 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %145 = "tile.addptr"(%144, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %146 = arith.addi %arg10, %45 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %147 = arith.addi %146, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %148 = arith.subi %147, %c8_i64_65 : i64
          %149 = "shmem.signal_wait_until"(%145, %148) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%68) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%66) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %152 = "tile.splat"(%63) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %154 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %156 = "shmem.ll_pack"(%155, %60) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%84) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%82) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %152 = arith.muli %arg9, %c0_i64_63 : i64
          %153 = "tile.addptr"(%76, %152) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %154 = "tile.splat"(%153) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %155 = "tile.addptr"(%154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %156 = "shmem.ll_recv"(%155, %79, %149) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
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
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg7, %c0_i64_63 : i64
          %151 = "tile.addptr"(%89, %150) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %152 = "tile.splat"(%151) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %c0_i64_64 = arith.constant 0 : i64
          %154 = arith.muli %arg8, %c0_i64_64 : i64
          %155 = "tile.addptr"(%16, %154) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %156 = "tile.splat"(%155) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %157 = "tile.addptr"(%156, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %158 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %159 = "tile.load"(%157, %149, %158) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          "tile.store"(%153, %159, %149) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c1_i64_33 = arith.constant 1 : i64
        %90 = "tile.addptr"(%arg5, %c1_i64_33) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %91 = "tile.addptr"(%90, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %92 = arith.addi %arg10, %70 : i64
        %c1_i64_34 = arith.constant 1 : i64
        %93 = arith.addi %92, %c1_i64_34 : i64
        "shmem.signal_op"(%91, %93, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
        %c2_i64_35 = arith.constant 2 : i64
        %94 = arith.muli %arg11, %c2_i64_35 : i64
        %c1_i64_36 = arith.constant 1 : i64
        %95 = arith.addi %94, %c1_i64_36 : i64
        %c2_i64_37 = arith.constant 2 : i64
        %96 = arith.muli %arg11, %c2_i64_37 : i64
        %c1_i64_38 = arith.constant 1 : i64
        %97 = arith.addi %96, %c1_i64_38 : i64
        %c8_i64_39 = arith.constant 8 : i64
        %98 = arith.muli %33, %c8_i64_39 : i64
        %c8_i64_40 = arith.constant 8 : i64
        %99 = arith.remsi %97, %c8_i64_40 : i64
        %100 = arith.addi %98, %99 : i64
        %c1_i64_41 = arith.constant 1 : i64
        %101 = arith.muli %arg9, %c1_i64_41 : i64
        %102 = arith.muli %100, %101 : i64
        %103 = "tile.addptr"(%arg3, %102) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %104 = arith.addi %arg10, %97 : i64
        %c1_i64_42 = arith.constant 1 : i64
        %105 = arith.addi %104, %c1_i64_42 : i64
        %106 = arith.trunci %105 : i64 to i32
        %c0_i64_43 = arith.constant 0 : i64
        %107 = arith.muli %arg8, %c0_i64_43 : i64
        %108 = "tile.addptr"(%16, %107) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %109 = "tile.ptr_cast"(%108) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c4_i64_44 = arith.constant 4 : i64
        %110 = arith.muli %42, %c4_i64_44 : i64
        %c4_i64_45 = arith.constant 4 : i64
        %111 = arith.divsi %110, %c4_i64_45 : i64
        %c0_i64_46 = arith.constant 0 : i64
        %c128_i64_47 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_46 to %111 step %c128_i64_47  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%111) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%109) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i64_63 = arith.constant 0 : i64
          %152 = arith.muli %arg9, %c0_i64_63 : i64
          %153 = "tile.addptr"(%103, %152) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %154 = "tile.splat"(%153) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %155 = "tile.addptr"(%154, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %156 = "shmem.ll_recv"(%155, %106, %149) : (tensor<128x!tile.ptr<i64>>, i32, tensor<128xi1>) -> tensor<128xi32>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
        }
        %c15_i64 = arith.constant 15 : i64
        %112 = "tile.addptr"(%43, %c15_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %113 = "tile.load"(%112) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %114 = arith.muli %113, %arg7 : i64
        %115 = "tile.addptr"(%arg0, %114) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %116 = "tile.addptr"(%115, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c14_i64 = arith.constant 14 : i64
        %117 = "tile.addptr"(%43, %c14_i64) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %118 = "tile.load"(%117) {operandSegmentSizes = array<i32: 1, 0, 0>} : (!tile.ptr<i64>) -> i64
        %119 = arith.muli %118, %arg7 : i64
        %120 = "tile.addptr"(%arg0, %119) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %121 = "tile.addptr"(%120, %40) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c0_i64_48 = arith.constant 0 : i64
        %c128_i64_49 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_48 to %42 step %c128_i64_49  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%42) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %c0_i64_63 = arith.constant 0 : i64
          %150 = arith.muli %arg8, %c0_i64_63 : i64
          %151 = "tile.addptr"(%16, %150) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %152 = "tile.splat"(%151) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %154 = "tile.splat"(%cst) : (f32) -> tensor<128xf32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %c0_i64_64 = arith.constant 0 : i64
          %156 = arith.muli %arg7, %c0_i64_64 : i64
          %157 = "tile.addptr"(%121, %156) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %158 = "tile.splat"(%157) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %159 = "tile.addptr"(%158, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          %cst_65 = arith.constant 0.000000e+00 : f32
          %160 = "tile.splat"(%cst_65) : (f32) -> tensor<128xf32>
          %161 = "tile.load"(%159, %149, %160) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
          %162 = arith.addf %155, %161 : tensor<128xf32>
          %c0_i64_66 = arith.constant 0 : i64
          %163 = arith.muli %arg7, %c0_i64_66 : i64
          %164 = "tile.addptr"(%116, %163) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %165 = "tile.splat"(%164) : (!tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>>
          %166 = "tile.addptr"(%165, %147) : (tensor<128x!tile.ptr<f32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<f32>>
          "tile.store"(%166, %162, %149) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
        }
        %c8_i64_50 = arith.constant 8 : i64
        %122 = arith.cmpi sge, %95, %c8_i64_50 : i64
        scf.if %122 {
          %c1_i64_63 = arith.constant 1 : i64
          %144 = "tile.addptr"(%arg5, %c1_i64_63) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %145 = "tile.addptr"(%144, %26) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
          %146 = arith.addi %arg10, %95 : i64
          %c1_i64_64 = arith.constant 1 : i64
          %147 = arith.addi %146, %c1_i64_64 : i64
          %c8_i64_65 = arith.constant 8 : i64
          %148 = arith.subi %147, %c8_i64_65 : i64
          %149 = "shmem.signal_wait_until"(%145, %148) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
        } else {
        }
        %c8_i64_51 = arith.constant 8 : i64
        %123 = arith.muli %23, %c8_i64_51 : i64
        %c8_i64_52 = arith.constant 8 : i64
        %124 = arith.remsi %95, %c8_i64_52 : i64
        %125 = arith.addi %123, %124 : i64
        %c1_i64_53 = arith.constant 1 : i64
        %126 = arith.muli %arg9, %c1_i64_53 : i64
        %127 = arith.muli %125, %126 : i64
        %128 = "tile.addptr"(%arg3, %127) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %129 = arith.addi %arg10, %95 : i64
        %c1_i64_54 = arith.constant 1 : i64
        %130 = arith.addi %129, %c1_i64_54 : i64
        %131 = arith.trunci %130 : i64 to i32
        %c0_i64_55 = arith.constant 0 : i64
        %132 = arith.muli %arg7, %c0_i64_55 : i64
        %133 = "tile.addptr"(%116, %132) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %134 = "tile.ptr_cast"(%133) : (!tile.ptr<f32>) -> !tile.ptr<i32>
        %c0_i64_56 = arith.constant 0 : i64
        %135 = arith.muli %arg9, %c0_i64_56 : i64
        %136 = "tile.addptr"(%128, %135) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %137 = "shmem.remote_ptr"(%136, %20) : (!tile.ptr<i64>, i32) -> !tile.ptr<i64>
        %c4_i64_57 = arith.constant 4 : i64
        %138 = arith.muli %42, %c4_i64_57 : i64
        %c4_i64_58 = arith.constant 4 : i64
        %139 = arith.divsi %138, %c4_i64_58 : i64
        %c0_i64_59 = arith.constant 0 : i64
        %c128_i64_60 = arith.constant 128 : i64
        scf.for %arg12 = %c0_i64_59 to %139 step %c128_i64_60  : i64 {
          %144 = "tile.make_range"() {end = 128 : i32, start = 0 : i32} : () -> tensor<128xi32>
          %145 = "tile.splat"(%arg12) : (i64) -> tensor<128xi64>
          %146 = arith.extsi %144 : tensor<128xi32> to tensor<128xi64>
          %147 = arith.addi %145, %146 : tensor<128xi64>
          %148 = "tile.splat"(%139) : (i64) -> tensor<128xi64>
          %149 = arith.cmpi slt, %147, %148 : tensor<128xi64>
          %150 = "tile.splat"(%137) : (!tile.ptr<i64>) -> tensor<128x!tile.ptr<i64>>
          %151 = "tile.addptr"(%150, %147) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i64>>
          %152 = "tile.splat"(%134) : (!tile.ptr<i32>) -> tensor<128x!tile.ptr<i32>>
          %153 = "tile.addptr"(%152, %147) : (tensor<128x!tile.ptr<i32>>, tensor<128xi64>) -> tensor<128x!tile.ptr<i32>>
          %c0_i32 = arith.constant 0 : i32
          %154 = "tile.splat"(%c0_i32) : (i32) -> tensor<128xi32>
          %155 = "tile.load"(%153, %149, %154) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x!tile.ptr<i32>>, tensor<128xi1>, tensor<128xi32>) -> tensor<128xi32>
          %156 = "shmem.ll_pack"(%155, %131) : (tensor<128xi32>, i32) -> tensor<128xi64>
          "tile.store"(%151, %156, %149) : (tensor<128x!tile.ptr<i64>>, tensor<128xi64>, tensor<128xi1>) -> ()
        }
        %c1_i64_61 = arith.constant 1 : i64
        %140 = "tile.addptr"(%arg5, %c1_i64_61) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %141 = "tile.addptr"(%140, %36) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
        %142 = arith.addi %arg10, %97 : i64
        %c1_i64_62 = arith.constant 1 : i64
        %143 = arith.addi %142, %c1_i64_62 : i64
        "shmem.signal_op"(%141, %143, %30) {sig_op = "set"} : (!tile.ptr<i64>, i64, i32) -> ()
      }
    } else {
    }
    return
  }
}
