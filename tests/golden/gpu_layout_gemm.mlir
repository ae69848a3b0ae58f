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
