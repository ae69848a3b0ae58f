module {
  func.func @reduce_scatter(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: !tile.ptr<f32>, %arg4: !tile.ptr<i64>, %arg5: i64, %arg6: i64, %arg7: i64) attributes {weft.constexprs = {BLOCK = "1024", T = "f32"}, weft.params = ["inp", "out", "recv", "work", "sig", "n", "segmax", "epoch"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %1 = "shmem.n_pes"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %2 = arith.addi %0, %c1_i32 : i32
    %3 = arith.addi %2, %1 : i32
    %4 = arith.remsi %3, %1 : i32
    %5 = arith.extsi %0 : i32 to i64
    %6 = arith.extsi %1 : i32 to i64
    %7 = arith.muli %5, %arg5 : i64
    %8 = arith.divsi %7, %6 : i64
    %c1_i64 = arith.constant 1 : i64
    %9 = arith.addi %5, %c1_i64 : i64
    %10 = arith.muli %9, %arg5 : i64
    %11 = arith.divsi %10, %6 : i64
    %12 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %13 = arith.extsi %12 : i32 to i64
    %14 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %15 = arith.extsi %14 : i32 to i64
    %16 = arith.addi %arg6, %15 : i64
    %c1_i64_0 = arith.constant 1 : i64
    %17 = arith.subi %16, %c1_i64_0 : i64
    %18 = arith.divsi %17, %15 : i64
    %19 = arith.muli %13, %18 : i64
    %20 = arith.minsi %19, %arg6 : i64
    %21 = arith.addi %20, %18 : i64
    %22 = arith.minsi %21, %arg6 : i64
    %23 = arith.addi %8, %20 : i64
    %24 = arith.minsi %23, %11 : i64
    %25 = arith.addi %8, %22 : i64
    %26 = arith.minsi %25, %11 : i64
    %27 = arith.extsi %0 : i32 to i64
    %28 = arith.extsi %1 : i32 to i64
    %29 = arith.muli %27, %arg5 : i64
    %30 = arith.divsi %29, %28 : i64
    %c1_i64_1 = arith.constant 1 : i64
    %31 = arith.addi %27, %c1_i64_1 : i64
    %32 = arith.muli %31, %arg5 : i64
    %33 = arith.divsi %32, %28 : i64
    %c1_i32_2 = arith.constant 1 : i32
    %34 = arith.cmpi eq, %1, %c1_i32_2 : i32
    scf.if %34 {
      %c0_i64 = arith.constant 0 : i64
      %36 = arith.subi %c0_i64, %30 : i64
      %37 = "tile.addptr"(%arg1, %36) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %c1024_i64 = arith.constant 1024 : i64
      scf.for %arg8 = %24 to %26 step %c1024_i64  : i64 {
        %38 = "tile.make_range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
        %39 = "tile.splat"(%arg8) : (i64) -> tensor<1024xi64>
        %40 = arith.extsi %38 : tensor<1024xi32> to tensor<1024xi64>
        %41 = arith.addi %39, %40 : tensor<1024xi64>
        %42 = "tile.splat"(%26) : (i64) -> tensor<1024xi64>
        %43 = arith.cmpi slt, %41, %42 : tensor<1024xi64>
        %44 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
        %45 = "tile.addptr"(%44, %41) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
        %cst = arith.constant 0.000000e+00 : f32
        %46 = "tile.splat"(%cst) : (f32) -> tensor<1024xf32>
        %47 = "tile.load"(%45, %43, %46) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
        %48 = "tile.splat"(%37) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
        %49 = "tile.addptr"(%48, %41) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
        "tile.store"(%49, %47, %43) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
      }
    } else {
    }
    %c1_i32_3 = arith.constant 1 : i32
    %35 = arith.subi %1, %c1_i32_3 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32_4 = arith.constant 1 : i32
    scf.for %arg8 = %c0_i32 to %35 step %c1_i32_4  : i32 {
      %c1_i32_5 = arith.constant 1 : i32
      %36 = arith.addi %arg8, %c1_i32_5 : i32
      %c0_i32_6 = arith.constant 0 : i32
      %37 = arith.subi %c0_i32_6, %36 : i32
      %38 = arith.addi %0, %37 : i32
      %39 = arith.addi %38, %1 : i32
      %40 = arith.remsi %39, %1 : i32
      %41 = arith.extsi %40 : i32 to i64
      %42 = arith.extsi %1 : i32 to i64
      %43 = arith.muli %41, %arg5 : i64
      %44 = arith.divsi %43, %42 : i64
      %c1_i64_7 = arith.constant 1 : i64
      %45 = arith.addi %41, %c1_i64_7 : i64
      %46 = arith.muli %45, %arg5 : i64
      %47 = arith.divsi %46, %42 : i64
      %48 = "tile.program_id"() {axis = 0 : i32} : () -> i32
      %49 = arith.extsi %48 : i32 to i64
      %50 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
      %51 = arith.extsi %50 : i32 to i64
      %52 = arith.addi %arg6, %51 : i64
      %c1_i64_8 = arith.constant 1 : i64
      %53 = arith.subi %52, %c1_i64_8 : i64
      %54 = arith.divsi %53, %51 : i64
      %55 = arith.muli %49, %54 : i64
      %56 = arith.minsi %55, %arg6 : i64
      %57 = arith.addi %56, %54 : i64
      %58 = arith.minsi %57, %arg6 : i64
      %59 = arith.addi %44, %56 : i64
      %60 = arith.minsi %59, %47 : i64
      %61 = arith.addi %44, %58 : i64
      %62 = arith.minsi %61, %47 : i64
      %63 = arith.extsi %40 : i32 to i64
      %64 = arith.extsi %1 : i32 to i64
      %65 = arith.muli %63, %arg5 : i64
      %66 = arith.divsi %65, %64 : i64
      %c1_i64_9 = arith.constant 1 : i64
      %67 = arith.addi %63, %c1_i64_9 : i64
      %68 = arith.muli %67, %arg5 : i64
      %69 = arith.divsi %68, %64 : i64
      %c0_i32_10 = arith.constant 0 : i32
      %70 = arith.cmpi eq, %arg8, %c0_i32_10 : i32
      scf.if %70 {
        %c0_i64_18 = arith.constant 0 : i64
        %130 = arith.subi %c0_i64_18, %66 : i64
        %131 = "tile.addptr"(%arg3, %130) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
        %c1024_i64_19 = arith.constant 1024 : i64
        scf.for %arg9 = %60 to %62 step %c1024_i64_19  : i64 {
          %132 = "tile.make_range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
          %133 = "tile.splat"(%arg9) : (i64) -> tensor<1024xi64>
          %134 = arith.extsi %132 : tensor<1024xi32> to tensor<1024xi64>
          %135 = arith.addi %133, %134 : tensor<1024xi64>
          %136 = "tile.splat"(%62) : (i64) -> tensor<1024xi64>
          %137 = arith.cmpi slt, %135, %136 : tensor<1024xi64>
          %138 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
          %139 = "tile.addptr"(%138, %135) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
          %cst = arith.constant 0.000000e+00 : f32
          %140 = "tile.splat"(%cst) : (f32) -> tensor<1024xf32>
          %141 = "tile.load"(%139, %137, %140) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
          %142 = "tile.splat"(%131) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
          %143 = "tile.addptr"(%142, %135) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
          "tile.store"(%143, %141, %137) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
        }
      } else {
      }
      %71 = arith.extsi %arg8 : i32 to i64
      %72 = arith.muli %71, %arg6 : i64
      %73 = "tile.addptr"(%arg2, %72) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %c0_i64 = arith.constant 0 : i64
      %74 = arith.subi %c0_i64, %66 : i64
      %75 = "tile.addptr"(%73, %74) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %76 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
      %77 = arith.muli %arg8, %76 : i32
      %78 = "tile.program_id"() {axis = 0 : i32} : () -> i32
      %79 = arith.addi %77, %78 : i32
      %80 = arith.extsi %79 : i32 to i64
      %81 = "tile.addptr"(%arg4, %80) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
      %82 = "tile.addptr"(%75, %60) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %c0_i64_11 = arith.constant 0 : i64
      %83 = arith.subi %c0_i64_11, %66 : i64
      %84 = "tile.addptr"(%arg3, %83) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %85 = "tile.addptr"(%84, %60) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %86 = arith.subi %62, %60 : i64
      "shmem.put_signal"(%82, %85, %86, %81, %arg7, %4) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
      %c2_i32 = arith.constant 2 : i32
      %87 = arith.addi %arg8, %c2_i32 : i32
      %c0_i32_12 = arith.constant 0 : i32
      %88 = arith.subi %c0_i32_12, %87 : i32
      %89 = arith.addi %0, %88 : i32
      %90 = arith.addi %89, %1 : i32
      %91 = arith.remsi %90, %1 : i32
      %92 = arith.extsi %91 : i32 to i64
      %93 = arith.extsi %1 : i32 to i64
      %94 = arith.muli %92, %arg5 : i64
      %95 = arith.divsi %94, %93 : i64
      %c1_i64_13 = arith.constant 1 : i64
      %96 = arith.addi %92, %c1_i64_13 : i64
      %97 = arith.muli %96, %arg5 : i64
      %98 = arith.divsi %97, %93 : i64
      %99 = "tile.program_id"() {axis = 0 : i32} : () -> i32
      %100 = arith.extsi %99 : i32 to i64
      %101 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
      %102 = arith.extsi %101 : i32 to i64
      %103 = arith.addi %arg6, %102 : i64
      %c1_i64_14 = arith.constant 1 : i64
      %104 = arith.subi %103, %c1_i64_14 : i64
      %105 = arith.divsi %104, %102 : i64
      %106 = arith.muli %100, %105 : i64
      %107 = arith.minsi %106, %arg6 : i64
      %108 = arith.addi %107, %105 : i64
      %109 = arith.minsi %108, %arg6 : i64
      %110 = arith.addi %95, %107 : i64
      %111 = arith.minsi %110, %98 : i64
      %112 = arith.addi %95, %109 : i64
      %113 = arith.minsi %112, %98 : i64
      %114 = arith.extsi %91 : i32 to i64
      %115 = arith.extsi %1 : i32 to i64
      %116 = arith.muli %114, %arg5 : i64
      %117 = arith.divsi %116, %115 : i64
      %c1_i64_15 = arith.constant 1 : i64
      %118 = arith.addi %114, %c1_i64_15 : i64
      %119 = arith.muli %118, %arg5 : i64
      %120 = arith.divsi %119, %115 : i64
      %121 = "shmem.signal_wait_until"(%81, %arg7) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
      %122 = arith.extsi %arg8 : i32 to i64
      %123 = arith.muli %122, %arg6 : i64
      %124 = "tile.addptr"(%arg2, %123) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %c0_i64_16 = arith.constant 0 : i64
      %125 = arith.subi %c0_i64_16, %117 : i64
      %126 = "tile.addptr"(%124, %125) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
      %127 = "shmem.consume_token"(%126, %121) : (!tile.ptr<f32>, !shmem.token) -> !tile.ptr<f32>
      %c2_i32_17 = arith.constant 2 : i32
      %128 = arith.subi %1, %c2_i32_17 : i32
      %129 = arith.cmpi eq, %arg8, %128 : i32
      %c1024_i64 = arith.constant 1024 : i64
      scf.for %arg9 = %111 to %113 step %c1024_i64  : i64 {
        %130 = "tile.make_range"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>
        %131 = "tile.splat"(%arg9) : (i64) -> tensor<1024xi64>
        %132 = arith.extsi %130 : tensor<1024xi32> to tensor<1024xi64>
        %133 = arith.addi %131, %132 : tensor<1024xi64>
        %134 = "tile.splat"(%113) : (i64) -> tensor<1024xi64>
        %135 = arith.cmpi slt, %133, %134 : tensor<1024xi64>
        %136 = "tile.splat"(%127) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
        %137 = "tile.addptr"(%136, %133) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
        %cst = arith.constant 0.000000e+00 : f32
        %138 = "tile.splat"(%cst) : (f32) -> tensor<1024xf32>
        %139 = "tile.load"(%137, %135, %138) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
        %140 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
        %141 = "tile.addptr"(%140, %133) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
        %cst_18 = arith.constant 0.000000e+00 : f32
        %142 = "tile.splat"(%cst_18) : (f32) -> tensor<1024xf32>
        %143 = "tile.load"(%141, %135, %142) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
        %144 = arith.addf %139, %143 : tensor<1024xf32>
        scf.if %129 {
          %c0_i64_19 = arith.constant 0 : i64
          %145 = arith.subi %c0_i64_19, %117 : i64
          %146 = "tile.addptr"(%arg1, %145) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %147 = "tile.splat"(%146) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
          %148 = "tile.addptr"(%147, %133) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
          "tile.store"(%148, %144, %135) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
        } else {
          %c0_i64_19 = arith.constant 0 : i64
          %145 = arith.subi %c0_i64_19, %117 : i64
          %146 = "tile.addptr"(%arg3, %145) : (!tile.ptr<f32>, i64) -> !tile.ptr<f32>
          %147 = "tile.splat"(%146) : (!tile.ptr<f32>) -> tensor<1024x!tile.ptr<f32>>
          %148 = "tile.addptr"(%147, %133) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>) -> tensor<1024x!tile.ptr<f32>>
          "tile.store"(%148, %144, %135) : (tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()
        }
      }
    }
    return
  }
}
