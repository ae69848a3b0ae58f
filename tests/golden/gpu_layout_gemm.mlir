// A 32x32 bf16 tile GEMM over two K blocks of 16 with 2 warps, and the row sums of the result:
// the layout stage shows blocked tiles, slices of them, the mma accumulator carried by the
// loop, the dot operands staged through shared memory, and the conversions between them.
module {
  func.func @layout_gemm(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>, %rows: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "2"}, weft.params = ["a", "b", "c", "rows"]} {
    %r32 = "tile.make_range"() {end = 32 : i32, start = 0 : i32} : () -> tensor<32xi32>
    %r16 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %c32 = arith.constant 32 : i32
    %c16 = arith.constant 16 : i32
    %rm = "tile.expand_dims"(%r32) {axis = 1 : i32} : (tensor<32xi32>) -> tensor<32x1xi32>
    %s32 = "tile.splat"(%c32) : (i32) -> tensor<32x1xi32>
    %rm32 = arith.muli %rm, %s32 : tensor<32x1xi32>
    %ka = "tile.expand_dims"(%r16) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %a0 = "tile.broadcast"(%rm32) : (tensor<32x1xi32>) -> tensor<32x16xi32>
    %a1 = "tile.broadcast"(%ka) : (tensor<1x16xi32>) -> tensor<32x16xi32>
    %aoff = arith.addi %a0, %a1 : tensor<32x16xi32>
    %kb = "tile.expand_dims"(%r16) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
    %s32b = "tile.splat"(%c32) : (i32) -> tensor<16x1xi32>
    %kb32 = arith.muli %kb, %s32b : tensor<16x1xi32>
    %cn = "tile.expand_dims"(%r32) {axis = 0 : i32} : (tensor<32xi32>) -> tensor<1x32xi32>
    %b0 = "tile.broadcast"(%kb32) : (tensor<16x1xi32>) -> tensor<16x32xi32>
    %b1 = "tile.broadcast"(%cn) : (tensor<1x32xi32>) -> tensor<16x32xi32>
    %boff = arith.addi %b0, %b1 : tensor<16x32xi32>
    %pa = "tile.splat"(%a) : (!tile.ptr<bf16>) -> tensor<32x16x!tile.ptr<bf16>>
    %pb = "tile.splat"(%b) : (!tile.ptr<bf16>) -> tensor<16x32x!tile.ptr<bf16>>
    %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %lo = arith.constant 0 : i32
    %hi = arith.constant 2 : i32
    %one = arith.constant 1 : i32
    %acc = scf.for %s = %lo to %hi step %one iter_args(%x = %zero) -> (tensor<32x32xf32>) : i32 {
      %sa = arith.muli %s, %c16 : i32
      %sb = arith.muli %sa, %c32 : i32
      %sa_t = "tile.splat"(%sa) : (i32) -> tensor<32x16xi32>
      %sb_t = "tile.splat"(%sb) : (i32) -> tensor<16x32xi32>
      %ao = arith.addi %aoff, %sa_t : tensor<32x16xi32>
      %bo = arith.addi %boff, %sb_t : tensor<16x32xi32>
      %pa2 = "tile.addptr"(%pa, %ao) : (tensor<32x16x!tile.ptr<bf16>>, tensor<32x16xi32>) -> tensor<32x16x!tile.ptr<bf16>>
      %pb2 = "tile.addptr"(%pb, %bo) : (tensor<16x32x!tile.ptr<bf16>>, tensor<16x32xi32>) -> tensor<16x32x!tile.ptr<bf16>>
      %va = "tile.load"(%pa2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x16x!tile.ptr<bf16>>) -> tensor<32x16xbf16>
      %vb = "tile.load"(%pb2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x32x!tile.ptr<bf16>>) -> tensor<16x32xbf16>
      %d = "tile.dot"(%va, %vb, %x) : (tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
      scf.yield %d : tensor<32x32xf32>
    }
    %c0 = "tile.broadcast"(%rm32) : (tensor<32x1xi32>) -> tensor<32x32xi32>
    %c1 = "tile.broadcast"(%cn) : (tensor<1x32xi32>) -> tensor<32x32xi32>
    %coff = arith.addi %c0, %c1 : tensor<32x32xi32>
    %pc = "tile.splat"(%c) : (!tile.ptr<f32>) -> tensor<32x32x!tile.ptr<f32>>
    %pc2 = "tile.addptr"(%pc, %coff) : (tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>) -> tensor<32x32x!tile.ptr<f32>>
    "tile.store"(%pc2, %acc) : (tensor<32x32x!tile.ptr<f32>>, tensor<32x32xf32>) -> ()
    %sum = "tile.reduce"(%acc) {axis = 1 : i32, kind = "sum"} : (tensor<32x32xf32>) -> tensor<32xf32>
    %pr = "tile.splat"(%rows) : (!tile.ptr<f32>) -> tensor<32x!tile.ptr<f32>>
    %pr2 = "tile.addptr"(%pr, %r32) : (tensor<32x!tile.ptr<f32>>, tensor<32xi32>) -> tensor<32x!tile.ptr<f32>>
    "tile.store"(%pr2, %sum) : (tensor<32x!tile.ptr<f32>>, tensor<32xf32>) -> ()
    return
  }
}
// ----- expected layout@sm_90a -----
// // weft layout stage: 2 warps of 32 threads per CTA
// #blocked = {kind = "blocked", sizePerThread = array<i64: 1, 1>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 2, 1>, order = array<i64: 1, 0>}
// #slice = {kind = "slice", dim = 1 : i64, parent = #blocked}
// #blocked1 = {kind = "blocked", sizePerThread = array<i64: 1, 1>, threadsPerWarp = array<i64: 8, 4>, warpsPerCTA = array<i64: 2, 1>, order = array<i64: 1, 0>}
// #slice1 = {kind = "slice", dim = 1 : i64, parent = #blocked1}
// #flat = {kind = "flat", elemsPerThread = 1 : i64}
// #blocked2 = {kind = "blocked", sizePerThread = array<i64: 1, 8>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 2, 1>, order = array<i64: 1, 0>}
// #blocked3 = {kind = "blocked", sizePerThread = array<i64: 1, 8>, threadsPerWarp = array<i64: 8, 4>, warpsPerCTA = array<i64: 2, 1>, order = array<i64: 1, 0>}
// #blocked4 = {kind = "blocked", sizePerThread = array<i64: 1, 16>, threadsPerWarp = array<i64: 16, 2>, warpsPerCTA = array<i64: 2, 1>, order = array<i64: 1, 0>}
// #mma = {kind = "mma", versionMajor = 2 : i64, warpsPerCTA = array<i64: 1, 2>, instrShape = array<i64: 16, 8>}
// #slice2 = {kind = "slice", dim = 1 : i64, parent = #blocked4}
// #dot_a = {kind = "dot_op", opIdx = 0 : i64, parent = #mma, kWidth = 2 : i64}
// #shared = {kind = "shared", swizzle = 0 : i64, vec = 1 : i64, perPhase = 1 : i64, maxPhase = 1 : i64, order = array<i64: 1, 0>, pad = 8 : i64, at = 0 : i64, stages = 1 : i64, slotBytes = 2816 : i64, align = 16 : i64, fill = "st.shared", read = "ldmatrix"}
// #dot_b = {kind = "dot_op", opIdx = 1 : i64, parent = #mma, kWidth = 2 : i64}
// #shared1 = {kind = "shared", swizzle = 0 : i64, vec = 1 : i64, perPhase = 1 : i64, maxPhase = 1 : i64, order = array<i64: 1, 0>, pad = 8 : i64, at = 1536 : i64, stages = 1 : i64, slotBytes = 2816 : i64, align = 16 : i64, fill = "st.shared", read = "ldmatrix"}
//
// module {
//   func.func @layout_gemm(%v0: !tile.ptr<bf16>, %v1: !tile.ptr<bf16>, %v2: !tile.ptr<f32>, %v3: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "2"}, weft.params = ["a", "b", "c", "rows"]} {
//       %v4 = "tile.make_range"() {end = 32 : i32, start = 0 : i32} : () -> (tensor<32xi32, #slice>)
//       %v5 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> (tensor<16xi32, #slice1>)
//       %v6 = arith.constant 32 : i32
//       %v7 = arith.constant 16 : i32
//       %v8 = "tile.expand_dims"(%v4) {axis = 1 : i32} : (tensor<32xi32, #slice>) -> (tensor<32x1xi32, #blocked>)
//       %v9 = "tile.splat"(%v6) : (i32) -> (tensor<32x1xi32, #blocked>)
//       %v10 = arith.muli %v8, %v9 : tensor<32x1xi32, #blocked>
//       %v11 = "tile.expand_dims"(%v5) {axis = 0 : i32} : (tensor<16xi32, #slice1>) -> (tensor<1x16xi32, #flat>)
//       %v12 = "tile.broadcast"(%v10) : (tensor<32x1xi32, #blocked>) -> (tensor<32x16xi32, #blocked2>)
//       %v13 = "tile.broadcast"(%v11) : (tensor<1x16xi32, #flat>) -> (tensor<32x16xi32, #blocked2>)
//       %v14 = arith.addi %v12, %v13 : tensor<32x16xi32, #blocked2>
//       %v15 = "tile.expand_dims"(%v5) {axis = 1 : i32} : (tensor<16xi32, #slice1>) -> (tensor<16x1xi32, #blocked1>)
//       %v16 = "tile.splat"(%v6) : (i32) -> (tensor<16x1xi32, #blocked1>)
//       %v17 = arith.muli %v15, %v16 : tensor<16x1xi32, #blocked1>
//       %v18 = "tile.expand_dims"(%v4) {axis = 0 : i32} : (tensor<32xi32, #slice>) -> (tensor<1x32xi32, #flat>)
//       %v19 = "tile.broadcast"(%v17) : (tensor<16x1xi32, #blocked1>) -> (tensor<16x32xi32, #blocked3>)
//       %v20 = "tile.broadcast"(%v18) : (tensor<1x32xi32, #flat>) -> (tensor<16x32xi32, #blocked3>)
//       %v21 = arith.addi %v19, %v20 : tensor<16x32xi32, #blocked3>
//       %v22 = "tile.splat"(%v0) : (!tile.ptr<bf16>) -> (tensor<32x16x!tile.ptr<bf16>, #blocked2>)
//       %v23 = "tile.splat"(%v1) : (!tile.ptr<bf16>) -> (tensor<16x32x!tile.ptr<bf16>, #blocked3>)
//       %v24 = arith.constant dense<0x00000000> : tensor<32x32xf32, #blocked4>
//       %v25 = arith.constant 0 : i32
//       %v26 = arith.constant 2 : i32
//       %v27 = arith.constant 1 : i32
//       %v53 = "tile.convert_layout"(%v24) : (tensor<32x32xf32, #blocked4>) -> tensor<32x32xf32, #mma>
//       %v41 = scf.for %v28 = %v25 to %v26 step %v27 iter_args(%v29 = %v53) -> (tensor<32x32xf32, #mma>) : i32 {
//         %v30 = arith.muli %v28, %v7 : i32
//         %v31 = arith.muli %v30, %v6 : i32
//         %v32 = "tile.splat"(%v30) : (i32) -> (tensor<32x16xi32, #blocked2>)
//         %v33 = "tile.splat"(%v31) : (i32) -> (tensor<16x32xi32, #blocked3>)
//         %v34 = arith.addi %v14, %v32 : tensor<32x16xi32, #blocked2>
//         %v35 = arith.addi %v21, %v33 : tensor<16x32xi32, #blocked3>
//         %v36 = "tile.addptr"(%v22, %v34) : (tensor<32x16x!tile.ptr<bf16>, #blocked2>, tensor<32x16xi32, #blocked2>) -> (tensor<32x16x!tile.ptr<bf16>, #blocked2>)
//         %v37 = "tile.addptr"(%v23, %v35) : (tensor<16x32x!tile.ptr<bf16>, #blocked3>, tensor<16x32xi32, #blocked3>) -> (tensor<16x32x!tile.ptr<bf16>, #blocked3>)
//         %v38 = "tile.load"(%v36) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x16x!tile.ptr<bf16>, #blocked2>) -> (tensor<32x16xbf16, #blocked2>)
//         %v39 = "tile.load"(%v37) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x32x!tile.ptr<bf16>, #blocked3>) -> (tensor<16x32xbf16, #blocked3>)
//         %v51 = "tile.convert_layout"(%v38) {weft.shared = #shared} : (tensor<32x16xbf16, #blocked2>) -> tensor<32x16xbf16, #dot_a>
//         %v52 = "tile.convert_layout"(%v39) {weft.shared = #shared1} : (tensor<16x32xbf16, #blocked3>) -> tensor<16x32xbf16, #dot_b>
//         // llvm.nvvm.mma.m16n8k16.row.col.bf16 (m16n8k16): warps 1x2, 32x16 each, 16 f32 registers per thread
//         %v40 = "tile.dot"(%v51, %v52, %v29) : (tensor<32x16xbf16, #dot_a>, tensor<16x32xbf16, #dot_b>, tensor<32x32xf32, #mma>) -> (tensor<32x32xf32, #mma>)
//         scf.yield %v40 : tensor<32x32xf32, #mma>
//       }
//       %v50 = "tile.convert_layout"(%v41) : (tensor<32x32xf32, #mma>) -> tensor<32x32xf32, #blocked4>
//       %v42 = "tile.broadcast"(%v10) : (tensor<32x1xi32, #blocked>) -> (tensor<32x32xi32, #blocked4>)
//       %v43 = "tile.broadcast"(%v18) : (tensor<1x32xi32, #flat>) -> (tensor<32x32xi32, #blocked4>)
//       %v44 = arith.addi %v42, %v43 : tensor<32x32xi32, #blocked4>
//       %v45 = "tile.splat"(%v2) : (!tile.ptr<f32>) -> (tensor<32x32x!tile.ptr<f32>, #blocked4>)
//       %v46 = "tile.addptr"(%v45, %v44) : (tensor<32x32x!tile.ptr<f32>, #blocked4>, tensor<32x32xi32, #blocked4>) -> (tensor<32x32x!tile.ptr<f32>, #blocked4>)
//       "tile.store"(%v46, %v50) : (tensor<32x32x!tile.ptr<f32>, #blocked4>, tensor<32x32xf32, #blocked4>) -> ()
//       %v47 = "tile.reduce"(%v50) {axis = 1 : i32, kind = "sum"} : (tensor<32x32xf32, #blocked4>) -> (tensor<32xf32, #slice2>)
//       %v48 = "tile.splat"(%v3) : (!tile.ptr<f32>) -> (tensor<32x!tile.ptr<f32>, #flat>)
//       %v49 = "tile.addptr"(%v48, %v4) : (tensor<32x!tile.ptr<f32>, #flat>, tensor<32xi32, #slice>) -> (tensor<32x!tile.ptr<f32>, #flat>)
//       "tile.store"(%v49, %v47) : (tensor<32x!tile.ptr<f32>, #flat>, tensor<32xf32, #slice2>) -> ()
//       return
//   }
// }
