// The library gemm (bf16 in, f32 accumulate; 64x64x32, 4 warps, num_stages 3; 16-divisible
// sizes) at the layout stage on sm_100a: each dot operand's shared encoding as the lowering
// stages it (the swizzled ldmatrix staging (TMA-writable), its ring, the mma.sync accumulator).
module {
  func.func @gemm(%arg0: !tile.ptr<bf16>, %arg1: !tile.ptr<bf16>, %arg2: !tile.ptr<bf16>, %arg3: i64, %arg4: i64, %arg5: i64) attributes {weft.constexprs = {BLOCK_K = "32", BLOCK_M = "64", BLOCK_N = "64", COMM_PROGRAMS = "1", GROUP_M = "8", T = "bf16", divisible_by_16 = "a,b,c,m,n,k", num_stages = "3", num_warps = "4", small_ints = "m,n,k"}, weft.params = ["a", "b", "c", "m", "n", "k"]} {
    %c64_i64 = arith.constant 64 : i64
    %0 = arith.addi %arg3, %c64_i64 : i64
    %c1_i64 = arith.constant 1 : i64
    %1 = arith.subi %0, %c1_i64 : i64
    %c64_i64_0 = arith.constant 64 : i64
    %2 = arith.divsi %1, %c64_i64_0 : i64
    %c64_i64_1 = arith.constant 64 : i64
    %3 = arith.addi %arg4, %c64_i64_1 : i64
    %c1_i64_2 = arith.constant 1 : i64
    %4 = arith.subi %3, %c1_i64_2 : i64
    %c64_i64_3 = arith.constant 64 : i64
    %5 = arith.divsi %4, %c64_i64_3 : i64
    %6 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %7 = arith.extsi %6 : i32 to i64
    %8 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %9 = arith.extsi %8 : i32 to i64
    %10 = arith.muli %2, %5 : i64
    scf.for %arg6 = %7 to %10 step %9  : i64 {
      %c8_i64 = arith.constant 8 : i64
      %11 = arith.muli %5, %c8_i64 : i64
      %12 = arith.divsi %arg6, %11 : i64
      %c8_i64_4 = arith.constant 8 : i64
      %13 = arith.muli %12, %c8_i64_4 : i64
      %14 = arith.subi %2, %13 : i64
      %c8_i64_5 = arith.constant 8 : i64
      %15 = arith.minsi %14, %c8_i64_5 : i64
      %16 = arith.remsi %arg6, %11 : i64
      %17 = arith.remsi %16, %15 : i64
      %18 = arith.addi %13, %17 : i64
      %19 = arith.remsi %arg6, %11 : i64
      %20 = arith.divsi %19, %15 : i64
      %c64_i64_6 = arith.constant 64 : i64
      %21 = arith.muli %18, %c64_i64_6 : i64
      %22 = "tile.make_range"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
      %23 = arith.extsi %22 : tensor<64xi32> to tensor<64xi64>
      %24 = "tile.splat"(%21) : (i64) -> tensor<64xi64>
      %25 = arith.addi %24, %23 : tensor<64xi64>
      %c64_i64_7 = arith.constant 64 : i64
      %26 = arith.muli %20, %c64_i64_7 : i64
      %27 = "tile.make_range"() {end = 64 : i32, start = 0 : i32} : () -> tensor<64xi32>
      %28 = arith.extsi %27 : tensor<64xi32> to tensor<64xi64>
      %29 = "tile.splat"(%26) : (i64) -> tensor<64xi64>
      %30 = arith.addi %29, %28 : tensor<64xi64>
      %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
      %c0_i64 = arith.constant 0 : i64
      %c32_i64 = arith.constant 32 : i64
      %31 = scf.for %arg7 = %c0_i64 to %arg5 step %c32_i64 iter_args(%arg8 = %cst) -> (tensor<64x64xf32>)  : i64 {
        %49 = "tile.make_range"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
        %50 = arith.extsi %49 : tensor<32xi32> to tensor<32xi64>
        %51 = "tile.splat"(%arg7) : (i64) -> tensor<32xi64>
        %52 = arith.addi %51, %50 : tensor<32xi64>
        %53 = "tile.expand_dims"(%25) {axis = 1 : i32} : (tensor<64xi64>) -> tensor<64x1xi64>
        %54 = "tile.expand_dims"(%52) {axis = 0 : i32} : (tensor<32xi64>) -> tensor<1x32xi64>
        %55 = "tile.splat"(%arg5) : (i64) -> tensor<64x1xi64>
        %56 = arith.muli %53, %55 : tensor<64x1xi64>
        %57 = "tile.broadcast"(%56) : (tensor<64x1xi64>) -> tensor<64x32xi64>
        %58 = "tile.broadcast"(%54) : (tensor<1x32xi64>) -> tensor<64x32xi64>
        %59 = arith.addi %57, %58 : tensor<64x32xi64>
        %60 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<64x32x!tile.ptr<bf16>>
        %61 = "tile.addptr"(%60, %59) : (tensor<64x32x!tile.ptr<bf16>>, tensor<64x32xi64>) -> tensor<64x32x!tile.ptr<bf16>>
        %62 = "tile.splat"(%arg3) : (i64) -> tensor<64x1xi64>
        %63 = arith.cmpi slt, %53, %62 : tensor<64x1xi64>
        %64 = "tile.splat"(%arg5) : (i64) -> tensor<1x32xi64>
        %65 = arith.trunci %54 : tensor<1x32xi64> to tensor<1x32xi32>
        %66 = arith.trunci %64 : tensor<1x32xi64> to tensor<1x32xi32>
        %67 = arith.cmpi slt, %65, %66 : tensor<1x32xi32>
        %68 = "tile.broadcast"(%63) : (tensor<64x1xi1>) -> tensor<64x32xi1>
        %69 = "tile.broadcast"(%67) : (tensor<1x32xi1>) -> tensor<64x32xi1>
        %70 = arith.andi %68, %69 : tensor<64x32xi1>
        %71 = "tile.expand_dims"(%52) {axis = 1 : i32} : (tensor<32xi64>) -> tensor<32x1xi64>
        %72 = "tile.expand_dims"(%30) {axis = 0 : i32} : (tensor<64xi64>) -> tensor<1x64xi64>
        %73 = "tile.splat"(%arg4) : (i64) -> tensor<32x1xi64>
        %74 = arith.muli %71, %73 : tensor<32x1xi64>
        %75 = "tile.broadcast"(%74) : (tensor<32x1xi64>) -> tensor<32x64xi64>
        %76 = "tile.broadcast"(%72) : (tensor<1x64xi64>) -> tensor<32x64xi64>
        %77 = arith.addi %75, %76 : tensor<32x64xi64>
        %78 = "tile.splat"(%arg1) : (!tile.ptr<bf16>) -> tensor<32x64x!tile.ptr<bf16>>
        %79 = "tile.addptr"(%78, %77) : (tensor<32x64x!tile.ptr<bf16>>, tensor<32x64xi64>) -> tensor<32x64x!tile.ptr<bf16>>
        %80 = "tile.splat"(%arg5) : (i64) -> tensor<32x1xi64>
        %81 = arith.trunci %71 : tensor<32x1xi64> to tensor<32x1xi32>
        %82 = arith.trunci %80 : tensor<32x1xi64> to tensor<32x1xi32>
        %83 = arith.cmpi slt, %81, %82 : tensor<32x1xi32>
        %84 = "tile.splat"(%arg4) : (i64) -> tensor<1x64xi64>
        %85 = arith.cmpi slt, %72, %84 : tensor<1x64xi64>
        %86 = "tile.broadcast"(%83) : (tensor<32x1xi1>) -> tensor<32x64xi1>
        %87 = "tile.broadcast"(%85) : (tensor<1x64xi1>) -> tensor<32x64xi1>
        %88 = arith.andi %86, %87 : tensor<32x64xi1>
        %cst_8 = arith.constant 0.000000e+00 : bf16
        %89 = "tile.splat"(%cst_8) : (bf16) -> tensor<64x32xbf16>
        %90 = "tile.load"(%61, %70, %89) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x32x!tile.ptr<bf16>>, tensor<64x32xi1>, tensor<64x32xbf16>) -> tensor<64x32xbf16>
        %cst_9 = arith.constant 0.000000e+00 : bf16
        %91 = "tile.splat"(%cst_9) : (bf16) -> tensor<32x64xbf16>
        %92 = "tile.load"(%79, %88, %91) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!tile.ptr<bf16>>, tensor<32x64xi1>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
        %93 = "tile.dot"(%90, %92, %arg8) : (tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %93 : tensor<64x64xf32>
      }
      %32 = "tile.expand_dims"(%25) {axis = 1 : i32} : (tensor<64xi64>) -> tensor<64x1xi64>
      %33 = "tile.expand_dims"(%30) {axis = 0 : i32} : (tensor<64xi64>) -> tensor<1x64xi64>
      %34 = "tile.splat"(%arg4) : (i64) -> tensor<64x1xi64>
      %35 = arith.muli %32, %34 : tensor<64x1xi64>
      %36 = "tile.broadcast"(%35) : (tensor<64x1xi64>) -> tensor<64x64xi64>
      %37 = "tile.broadcast"(%33) : (tensor<1x64xi64>) -> tensor<64x64xi64>
      %38 = arith.addi %36, %37 : tensor<64x64xi64>
      %39 = "tile.splat"(%arg2) : (!tile.ptr<bf16>) -> tensor<64x64x!tile.ptr<bf16>>
      %40 = "tile.addptr"(%39, %38) : (tensor<64x64x!tile.ptr<bf16>>, tensor<64x64xi64>) -> tensor<64x64x!tile.ptr<bf16>>
      %41 = "tile.splat"(%arg3) : (i64) -> tensor<64x1xi64>
      %42 = arith.cmpi slt, %32, %41 : tensor<64x1xi64>
      %43 = "tile.splat"(%arg4) : (i64) -> tensor<1x64xi64>
      %44 = arith.cmpi slt, %33, %43 : tensor<1x64xi64>
      %45 = "tile.broadcast"(%42) : (tensor<64x1xi1>) -> tensor<64x64xi1>
      %46 = "tile.broadcast"(%44) : (tensor<1x64xi1>) -> tensor<64x64xi1>
      %47 = arith.andi %45, %46 : tensor<64x64xi1>
      %48 = arith.truncf %31 : tensor<64x64xf32> to tensor<64x64xbf16>
      "tile.store"(%40, %48, %47) : (tensor<64x64x!tile.ptr<bf16>>, tensor<64x64xbf16>, tensor<64x64xi1>) -> ()
    }
    return
  }
}
// ----- expected layout@sm_100a -----
// // weft layout stage: 4 warps of 32 threads per CTA
// #flat = {kind = "flat", elemsPerThread = 1 : i64}
// #blocked = {kind = "blocked", sizePerThread = array<i64: 1, 32>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}
// #mma = {kind = "mma", versionMajor = 2 : i64, warpsPerCTA = array<i64: 2, 2>, instrShape = array<i64: 16, 8>}
// #blocked1 = {kind = "blocked", sizePerThread = array<i64: 1, 1>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}
// #blocked2 = {kind = "blocked", sizePerThread = array<i64: 1, 16>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}
// #blocked3 = {kind = "blocked", sizePerThread = array<i64: 1, 1>, threadsPerWarp = array<i64: 8, 4>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}
// #blocked4 = {kind = "blocked", sizePerThread = array<i64: 1, 16>, threadsPerWarp = array<i64: 8, 4>, warpsPerCTA = array<i64: 4, 1>, order = array<i64: 1, 0>}
// #dot_a = {kind = "dot_op", opIdx = 0 : i64, parent = #mma, kWidth = 2 : i64}
// #shared = {kind = "shared", swizzle = 64 : i64, vec = 8 : i64, perPhase = 2 : i64, maxPhase = 4 : i64, order = array<i64: 1, 0>, pad = 0 : i64, at = 0 : i64, stages = 3 : i64, slotBytes = 8192 : i64, align = 1024 : i64, fill = "tma", read = "ldmatrix"}
// #dot_b = {kind = "dot_op", opIdx = 1 : i64, parent = #mma, kWidth = 2 : i64}
// #shared1 = {kind = "shared", swizzle = 128 : i64, vec = 8 : i64, perPhase = 1 : i64, maxPhase = 8 : i64, order = array<i64: 1, 0>, pad = 0 : i64, at = 4096 : i64, stages = 3 : i64, slotBytes = 8192 : i64, align = 1024 : i64, fill = "tma", read = "ldmatrix"}
//
// module {
//   func.func @gemm(%v0: !tile.ptr<bf16>, %v1: !tile.ptr<bf16>, %v2: !tile.ptr<bf16>, %v3: i64, %v4: i64, %v5: i64) attributes {weft.constexprs = {BLOCK_K = "32", BLOCK_M = "64", BLOCK_N = "64", COMM_PROGRAMS = "1", GROUP_M = "8", T = "bf16", divisible_by_16 = "a,b,c,m,n,k", num_stages = "3", num_warps = "4", small_ints = "m,n,k"}, weft.params = ["a", "b", "c", "m", "n", "k"]} {
//       %v6 = arith.constant 64 : i64
//       %v7 = arith.addi %v3, %v6 : i64
//       %v8 = arith.constant 1 : i64
//       %v9 = arith.subi %v7, %v8 : i64
//       %v10 = arith.constant 64 : i64
//       %v11 = arith.divsi %v9, %v10 : i64
//       %v12 = arith.constant 64 : i64
//       %v13 = arith.addi %v4, %v12 : i64
//       %v14 = arith.constant 1 : i64
//       %v15 = arith.subi %v13, %v14 : i64
//       %v16 = arith.constant 64 : i64
//       %v17 = arith.divsi %v15, %v16 : i64
//       %v18 = "tile.program_id"() {axis = 0 : i32} : () -> (i32)
//       %v19 = arith.extsi %v18 : i32 to i64
//       %v20 = "tile.num_programs"() {axis = 0 : i32} : () -> (i32)
//       %v21 = arith.extsi %v20 : i32 to i64
//       %v22 = arith.muli %v11, %v17 : i64
//       scf.for %v23 = %v19 to %v22 step %v21 : i64 {
//         %v24 = arith.constant 8 : i64
//         %v25 = arith.muli %v17, %v24 : i64
//         %v26 = arith.divsi %v23, %v25 : i64
//         %v27 = arith.constant 8 : i64
//         %v28 = arith.muli %v26, %v27 : i64
//         %v29 = arith.subi %v11, %v28 : i64
//         %v30 = arith.constant 8 : i64
//         %v31 = arith.minsi %v29, %v30 : i64
//         %v32 = arith.remsi %v23, %v25 : i64
//         %v33 = arith.remsi %v32, %v31 : i64
//         %v34 = arith.addi %v28, %v33 : i64
//         %v35 = arith.remsi %v23, %v25 : i64
//         %v36 = arith.divsi %v35, %v31 : i64
//         %v37 = arith.constant 64 : i64
//         %v38 = arith.muli %v34, %v37 : i64
//         %v39 = "tile.make_range"() {end = 64 : i32, start = 0 : i32} : () -> (tensor<64xi32, #flat>)
//         %v40 = arith.extsi %v39 : tensor<64xi32, #flat> to tensor<64xi64, #flat>
//         %v41 = "tile.splat"(%v38) : (i64) -> (tensor<64xi64, #flat>)
//         %v42 = arith.addi %v41, %v40 : tensor<64xi64, #flat>
//         %v43 = arith.constant 64 : i64
//         %v44 = arith.muli %v36, %v43 : i64
//         %v45 = "tile.make_range"() {end = 64 : i32, start = 0 : i32} : () -> (tensor<64xi32, #flat>)
//         %v46 = arith.extsi %v45 : tensor<64xi32, #flat> to tensor<64xi64, #flat>
//         %v47 = "tile.splat"(%v44) : (i64) -> (tensor<64xi64, #flat>)
//         %v48 = arith.addi %v47, %v46 : tensor<64xi64, #flat>
//         %v49 = arith.constant dense<0x00000000> : tensor<64x64xf32, #blocked>
//         %v50 = arith.constant 0 : i64
//         %v51 = arith.constant 32 : i64
//         %v122 = "tile.convert_layout"(%v49) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #mma>
//         %v101 = scf.for %v52 = %v50 to %v5 step %v51 iter_args(%v53 = %v122) -> (tensor<64x64xf32, #mma>) : i64 {
//           %v54 = "tile.make_range"() {end = 32 : i32, start = 0 : i32} : () -> (tensor<32xi32, #flat>)
//           %v55 = arith.extsi %v54 : tensor<32xi32, #flat> to tensor<32xi64, #flat>
//           %v56 = "tile.splat"(%v52) : (i64) -> (tensor<32xi64, #flat>)
//           %v57 = arith.addi %v56, %v55 : tensor<32xi64, #flat>
//           %v58 = "tile.expand_dims"(%v42) {axis = 1 : i32} : (tensor<64xi64, #flat>) -> (tensor<64x1xi64, #blocked1>)
//           %v59 = "tile.expand_dims"(%v57) {axis = 0 : i32} : (tensor<32xi64, #flat>) -> (tensor<1x32xi64, #flat>)
//           %v60 = "tile.splat"(%v5) : (i64) -> (tensor<64x1xi64, #blocked1>)
//           %v61 = arith.muli %v58, %v60 : tensor<64x1xi64, #blocked1>
//           %v62 = "tile.broadcast"(%v61) : (tensor<64x1xi64, #blocked1>) -> (tensor<64x32xi64, #blocked2>)
//           %v63 = "tile.broadcast"(%v59) : (tensor<1x32xi64, #flat>) -> (tensor<64x32xi64, #blocked2>)
//           %v64 = arith.addi %v62, %v63 : tensor<64x32xi64, #blocked2>
//           %v65 = "tile.splat"(%v0) : (!tile.ptr<bf16>) -> (tensor<64x32x!tile.ptr<bf16>, #blocked2>)
//           %v66 = "tile.addptr"(%v65, %v64) : (tensor<64x32x!tile.ptr<bf16>, #blocked2>, tensor<64x32xi64, #blocked2>) -> (tensor<64x32x!tile.ptr<bf16>, #blocked2>)
//           %v67 = "tile.splat"(%v3) : (i64) -> (tensor<64x1xi64, #blocked1>)
//           %v68 = arith.cmpi slt, %v58, %v67 : tensor<64x1xi64, #blocked1>
//           %v69 = "tile.splat"(%v5) : (i64) -> (tensor<1x32xi64, #flat>)
//           %v70 = arith.trunci %v59 : tensor<1x32xi64, #flat> to tensor<1x32xi32, #flat>
//           %v71 = arith.trunci %v69 : tensor<1x32xi64, #flat> to tensor<1x32xi32, #flat>
//           %v72 = arith.cmpi slt, %v70, %v71 : tensor<1x32xi32, #flat>
//           %v73 = "tile.broadcast"(%v68) : (tensor<64x1xi1, #blocked1>) -> (tensor<64x32xi1, #blocked2>)
//           %v74 = "tile.broadcast"(%v72) : (tensor<1x32xi1, #flat>) -> (tensor<64x32xi1, #blocked2>)
//           %v75 = arith.andi %v73, %v74 : tensor<64x32xi1, #blocked2>
//           %v76 = "tile.expand_dims"(%v57) {axis = 1 : i32} : (tensor<32xi64, #flat>) -> (tensor<32x1xi64, #blocked3>)
//           %v77 = "tile.expand_dims"(%v48) {axis = 0 : i32} : (tensor<64xi64, #flat>) -> (tensor<1x64xi64, #flat>)
//           %v78 = "tile.splat"(%v4) : (i64) -> (tensor<32x1xi64, #blocked3>)
//           %v79 = arith.muli %v76, %v78 : tensor<32x1xi64, #blocked3>
//           %v80 = "tile.broadcast"(%v79) : (tensor<32x1xi64, #blocked3>) -> (tensor<32x64xi64, #blocked4>)
//           %v81 = "tile.broadcast"(%v77) : (tensor<1x64xi64, #flat>) -> (tensor<32x64xi64, #blocked4>)
//           %v82 = arith.addi %v80, %v81 : tensor<32x64xi64, #blocked4>
//           %v83 = "tile.splat"(%v1) : (!tile.ptr<bf16>) -> (tensor<32x64x!tile.ptr<bf16>, #blocked4>)
//           %v84 = "tile.addptr"(%v83, %v82) : (tensor<32x64x!tile.ptr<bf16>, #blocked4>, tensor<32x64xi64, #blocked4>) -> (tensor<32x64x!tile.ptr<bf16>, #blocked4>)
//           %v85 = "tile.splat"(%v5) : (i64) -> (tensor<32x1xi64, #blocked3>)
//           %v86 = arith.trunci %v76 : tensor<32x1xi64, #blocked3> to tensor<32x1xi32, #blocked3>
//           %v87 = arith.trunci %v85 : tensor<32x1xi64, #blocked3> to tensor<32x1xi32, #blocked3>
//           %v88 = arith.cmpi slt, %v86, %v87 : tensor<32x1xi32, #blocked3>
//           %v89 = "tile.splat"(%v4) : (i64) -> (tensor<1x64xi64, #flat>)
//           %v90 = arith.cmpi slt, %v77, %v89 : tensor<1x64xi64, #flat>
//           %v91 = "tile.broadcast"(%v88) : (tensor<32x1xi1, #blocked3>) -> (tensor<32x64xi1, #blocked4>)
//           %v92 = "tile.broadcast"(%v90) : (tensor<1x64xi1, #flat>) -> (tensor<32x64xi1, #blocked4>)
//           %v93 = arith.andi %v91, %v92 : tensor<32x64xi1, #blocked4>
//           %v94 = arith.constant 0x0000 : bf16
//           %v95 = "tile.splat"(%v94) : (bf16) -> (tensor<64x32xbf16, #blocked2>)
//           %v96 = "tile.load"(%v66, %v75, %v95) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x32x!tile.ptr<bf16>, #blocked2>, tensor<64x32xi1, #blocked2>, tensor<64x32xbf16, #blocked2>) -> (tensor<64x32xbf16, #blocked2>)
//           %v97 = arith.constant 0x0000 : bf16
//           %v98 = "tile.splat"(%v97) : (bf16) -> (tensor<32x64xbf16, #blocked4>)
//           %v99 = "tile.load"(%v84, %v93, %v98) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!tile.ptr<bf16>, #blocked4>, tensor<32x64xi1, #blocked4>, tensor<32x64xbf16, #blocked4>) -> (tensor<32x64xbf16, #blocked4>)
//           %v120 = "tile.convert_layout"(%v96) {weft.shared = #shared} : (tensor<64x32xbf16, #blocked2>) -> tensor<64x32xbf16, #dot_a>
//           %v121 = "tile.convert_layout"(%v99) {weft.shared = #shared1} : (tensor<32x64xbf16, #blocked4>) -> tensor<32x64xbf16, #dot_b>
//           // llvm.nvvm.mma.m16n8k16.row.col.bf16 (m16n8k16): warps 2x2, 32x32 each, 32 f32 registers per thread
//           %v100 = "tile.dot"(%v120, %v121, %v53) : (tensor<64x32xbf16, #dot_a>, tensor<32x64xbf16, #dot_b>, tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>)
//           scf.yield %v100 : tensor<64x64xf32, #mma>
//         }
//         %v119 = "tile.convert_layout"(%v101) : (tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #blocked>
//         %v102 = "tile.expand_dims"(%v42) {axis = 1 : i32} : (tensor<64xi64, #flat>) -> (tensor<64x1xi64, #blocked1>)
//         %v103 = "tile.expand_dims"(%v48) {axis = 0 : i32} : (tensor<64xi64, #flat>) -> (tensor<1x64xi64, #flat>)
//         %v104 = "tile.splat"(%v4) : (i64) -> (tensor<64x1xi64, #blocked1>)
//         %v105 = arith.muli %v102, %v104 : tensor<64x1xi64, #blocked1>
//         %v106 = "tile.broadcast"(%v105) : (tensor<64x1xi64, #blocked1>) -> (tensor<64x64xi64, #blocked>)
//         %v107 = "tile.broadcast"(%v103) : (tensor<1x64xi64, #flat>) -> (tensor<64x64xi64, #blocked>)
//         %v108 = arith.addi %v106, %v107 : tensor<64x64xi64, #blocked>
//         %v109 = "tile.splat"(%v2) : (!tile.ptr<bf16>) -> (tensor<64x64x!tile.ptr<bf16>, #blocked>)
//         %v110 = "tile.addptr"(%v109, %v108) : (tensor<64x64x!tile.ptr<bf16>, #blocked>, tensor<64x64xi64, #blocked>) -> (tensor<64x64x!tile.ptr<bf16>, #blocked>)
//         %v111 = "tile.splat"(%v3) : (i64) -> (tensor<64x1xi64, #blocked1>)
//         %v112 = arith.cmpi slt, %v102, %v111 : tensor<64x1xi64, #blocked1>
//         %v113 = "tile.splat"(%v4) : (i64) -> (tensor<1x64xi64, #flat>)
//         %v114 = arith.cmpi slt, %v103, %v113 : tensor<1x64xi64, #flat>
//         %v115 = "tile.broadcast"(%v112) : (tensor<64x1xi1, #blocked1>) -> (tensor<64x64xi1, #blocked>)
//         %v116 = "tile.broadcast"(%v114) : (tensor<1x64xi1, #flat>) -> (tensor<64x64xi1, #blocked>)
//         %v117 = arith.andi %v115, %v116 : tensor<64x64xi1, #blocked>
//         %v118 = arith.truncf %v119 : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
//         "tile.store"(%v110, %v118, %v117) : (tensor<64x64x!tile.ptr<bf16>, #blocked>, tensor<64x64xbf16, #blocked>, tensor<64x64xi1, #blocked>) -> ()
//         scf.yield
//       }
//       return
//   }
// }
