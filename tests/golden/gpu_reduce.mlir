module {
  func.func @rmax(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "2"}, weft.params = ["x", "out"]} {
    %0 = "tile.make_range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
    %2 = "tile.addptr"(%1, %0) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %3 = "tile.load"(%2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
    %4 = "tile.reduce"(%3) {axis = 0 : i32, kind = "max"} : (tensor<256xf32>) -> f32
    "tile.store"(%arg1, %4) : (!tile.ptr<f32>, f32) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @rmax [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.mlir.global internal @__weft_red() {addr_space = 3 : i32, alignment = 8 : i64, dso_local} : !llvm.array<32 x i64> {
//       %0 = llvm.mlir.undef : !llvm.array<32 x i64>
//       llvm.return %0 : !llvm.array<32 x i64>
//     }
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func @llvm.nvvm.shfl.sync.bfly.f32(i32, f32, i32, i32) -> f32 attributes {convergent, memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = readwrite, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind, passthrough = ["nocallback"]}
//     llvm.func ptx_kernelcc @rmax(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "64"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(4 : i32) : i32
//       %1 = llvm.mlir.constant(32 : i32) : i32
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.poison : vector<1xi32>
//       %4 = llvm.mlir.constant(0 : i64) : i64
//       %5 = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi32>) : vector<4xi32>
//       %6 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %7 = llvm.mlir.constant(true) : i1
//       %8 = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
//       %9 = llvm.mlir.constant(15 : i64) : i64
//       %10 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %11 = llvm.mlir.constant(dense<0.000000e+00> : vector<4xf32>) : vector<4xf32>
//       %12 = llvm.mlir.constant(-1 : i32) : i32
//       %13 = llvm.mlir.constant(16 : i32) : i32
//       %14 = llvm.mlir.constant(31 : i32) : i32
//       %15 = llvm.mlir.constant(8 : i32) : i32
//       %16 = llvm.mlir.constant(2 : i32) : i32
//       %17 = llvm.mlir.constant(1 : i32) : i32
//       %18 = llvm.mlir.addressof @__weft_red : !llvm.ptr<3>
//       %19 = nvvm.read.ptx.sreg.tid.x : i32
//       %20 = llvm.mul %19, %0 overflow<nuw> : i32
//       %21 = llvm.udiv %19, %1 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %22 = llvm.add %20, %2 : i32
//       %23 = llvm.insertelement %22, %3[%4 : i64] : vector<1xi32>
//       %24 = llvm.shufflevector %23, %3 [0, 0, 0, 0] : vector<1xi32> 
//       %25 = llvm.add %24, %5 : vector<4xi32>
//       %26 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %27 = llvm.shufflevector %26, %6 [0, 0, 0, 0] : vector<1x!llvm.ptr> 
//       %28 = llvm.sext %25 : vector<4xi32> to vector<4xi64>
//       %29 = llvm.getelementptr %27[%28] : (vector<4x!llvm.ptr>, vector<4xi64>) -> vector<4x!llvm.ptr>, f32
//       %30 = llvm.extractelement %29[%4 : i64] : vector<4x!llvm.ptr>
//       %31 = "llvm.intr.vector.reduce.and"(%8) : (vector<4xi1>) -> i1
//       %32 = llvm.ptrtoint %30 : !llvm.ptr to i64
//       %33 = llvm.and %32, %9 : i64
//       %34 = llvm.icmp "eq" %33, %4 : i64
//       %35 = llvm.and %31, %34 : i1
//       llvm.cond_br %35, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       %36 = llvm.addrspacecast %30 : !llvm.ptr to !llvm.ptr<1>
//       %37 = llvm.load %36 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
//       llvm.br ^bb4(%37 : vector<4xf32>)
//     ^bb3:  // pred: ^bb1
//       %38 = llvm.addrspacecast %29 : vector<4x!llvm.ptr> to vector<4x!llvm.ptr<1>>
//       %39 = llvm.intr.masked.gather %38, %8, %11 {alignment = 4 : i32} : (vector<4x!llvm.ptr<1>>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
//       llvm.br ^bb4(%39 : vector<4xf32>)
//     ^bb4(%40: vector<4xf32>):  // 2 preds: ^bb2, ^bb3
//       %41 = llvm.intr.vector.reduce.fmaximum(%40) : (vector<4xf32>) -> f32
//       %42 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%12, %41, %13, %14) : (i32, f32, i32, i32) -> f32
//       %43 = llvm.intr.maximum(%41, %42) : (f32, f32) -> f32
//       %44 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%12, %43, %15, %14) : (i32, f32, i32, i32) -> f32
//       %45 = llvm.intr.maximum(%43, %44) : (f32, f32) -> f32
//       %46 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%12, %45, %0, %14) : (i32, f32, i32, i32) -> f32
//       %47 = llvm.intr.maximum(%45, %46) : (f32, f32) -> f32
//       %48 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%12, %47, %16, %14) : (i32, f32, i32, i32) -> f32
//       %49 = llvm.intr.maximum(%47, %48) : (f32, f32) -> f32
//       %50 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%12, %49, %17, %14) : (i32, f32, i32, i32) -> f32
//       %51 = llvm.intr.maximum(%49, %50) : (f32, f32) -> f32
//       %52 = llvm.urem %19, %1 : i32
//       %53 = llvm.icmp "eq" %52, %2 : i32
//       llvm.cond_br %53, ^bb5, ^bb6
//     ^bb5:  // pred: ^bb4
//       %54 = llvm.getelementptr %18[%2, %21] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       llvm.store %51, %54 {alignment = 8 : i64} : f32, !llvm.ptr<3>
//       llvm.br ^bb6
//     ^bb6:  // 2 preds: ^bb4, ^bb5
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%2) : (i32) -> ()
//       %55 = llvm.getelementptr %18[%2, %2] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       %56 = llvm.load %55 {alignment = 8 : i64} : !llvm.ptr<3> -> f32
//       %57 = llvm.getelementptr %18[%2, %17] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       %58 = llvm.load %57 {alignment = 8 : i64} : !llvm.ptr<3> -> f32
//       %59 = llvm.intr.maximum(%56, %58) : (f32, f32) -> f32
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%2) : (i32) -> ()
//       llvm.store %59, %arg1 {alignment = 4 : i64} : f32, !llvm.ptr
//       llvm.return
//     }
//   }
// }
