module {
  func.func @rowsum(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "1"}, weft.params = ["x", "out"]} {
    %0 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %2 = "tile.splat"(%c16_i32) : (i32) -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = "tile.broadcast"(%3) : (tensor<4x1xi32>) -> tensor<4x16xi32>
    %5 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %6 = "tile.expand_dims"(%5) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %7 = "tile.broadcast"(%6) : (tensor<1x16xi32>) -> tensor<4x16xi32>
    %8 = arith.addi %4, %7 : tensor<4x16xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x16x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<4x16x!tile.ptr<f32>>, tensor<4x16xi32>) -> tensor<4x16x!tile.ptr<f32>>
    %11 = "tile.load"(%10) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16x!tile.ptr<f32>>) -> tensor<4x16xf32>
    %12 = "tile.reduce"(%11) {axis = 1 : i32, kind = "sum"} : (tensor<4x16xf32>) -> tensor<4xf32>
    %13 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %14 = "tile.addptr"(%13, %0) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%14, %12) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
// ----- expected gpu@sm_80 -----
// module attributes {gpu.container_module} {
//   gpu.module @rowsum [#nvvm.target<chip = "sm_80", features = "+ptx82">] {
//     llvm.mlir.global internal @__weft_smem() {addr_space = 3 : i32, alignment = 16 : i64, dso_local} : !llvm.array<256 x i8> {
//       %0 = llvm.mlir.undef : !llvm.array<256 x i8>
//       llvm.return %0 : !llvm.array<256 x i8>
//     }
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func ptx_kernelcc @rowsum(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "32"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(4 : i32) : i32
//       %1 = llvm.mlir.constant(32 : i32) : i32
//       %2 = llvm.mlir.constant(16 : i32) : i32
//       %3 = llvm.mlir.constant(2 : i32) : i32
//       %4 = llvm.mlir.constant(0 : i32) : i32
//       %5 = llvm.mlir.poison : vector<1xi32>
//       %6 = llvm.mlir.constant(0 : i64) : i64
//       %7 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %8 = llvm.mlir.addressof @__weft_smem : !llvm.ptr<3>
//       %9 = llvm.mlir.constant(1 : i32) : i32
//       %10 = llvm.mlir.poison : vector<2xi32>
//       %11 = llvm.mlir.constant(1 : i64) : i64
//       %12 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %13 = llvm.mlir.constant(true) : i1
//       %14 = llvm.mlir.constant(dense<true> : vector<2xi1>) : vector<2xi1>
//       %15 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %16 = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>
//       %17 = llvm.mlir.constant(3 : i32) : i32
//       %18 = llvm.mlir.constant(5 : i32) : i32
//       %19 = llvm.mlir.constant(6 : i32) : i32
//       %20 = llvm.mlir.constant(7 : i32) : i32
//       %21 = llvm.mlir.constant(8 : i32) : i32
//       %22 = llvm.mlir.constant(9 : i32) : i32
//       %23 = llvm.mlir.constant(10 : i32) : i32
//       %24 = llvm.mlir.constant(11 : i32) : i32
//       %25 = llvm.mlir.constant(12 : i32) : i32
//       %26 = llvm.mlir.constant(13 : i32) : i32
//       %27 = llvm.mlir.constant(14 : i32) : i32
//       %28 = llvm.mlir.constant(15 : i32) : i32
//       %29 = llvm.mlir.poison : vector<1xf32>
//       %30 = llvm.mlir.poison : vector<1xi1>
//       %31 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %32 = nvvm.read.ptx.sreg.tid.x : i32
//       %33 = llvm.mul %32, %0 overflow<nuw> : i32
//       %34 = llvm.udiv %33, %1 : i32
//       %35 = llvm.mul %32, %2 overflow<nuw> : i32
//       %36 = llvm.udiv %35, %1 : i32
//       %37 = llvm.mul %32, %2 overflow<nuw> : i32
//       %38 = llvm.urem %37, %1 : i32
//       %39 = llvm.icmp "ult" %38, %2 : i32
//       %40 = llvm.mul %32, %3 overflow<nuw> : i32
//       %41 = llvm.mul %32, %0 overflow<nuw> : i32
//       %42 = llvm.urem %41, %1 : i32
//       %43 = llvm.icmp "ult" %42, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %44 = llvm.add %34, %4 : i32
//       %45 = llvm.insertelement %44, %5[%6 : i64] : vector<1xi32>
//       %46 = llvm.shufflevector %45, %5 [0] : vector<1xi32> 
//       %47 = llvm.add %46, %7 : vector<1xi32>
//       %48 = llvm.insertelement %2, %5[%6 : i64] : vector<1xi32>
//       %49 = llvm.shufflevector %48, %5 [0] : vector<1xi32> 
//       %50 = llvm.mul %47, %49 : vector<1xi32>
//       %51 = llvm.shufflevector %50, %5 [0, 0] : vector<1xi32> 
//       %52 = llvm.add %36, %4 : i32
//       %53 = llvm.insertelement %52, %5[%6 : i64] : vector<1xi32>
//       %54 = llvm.shufflevector %53, %5 [0] : vector<1xi32> 
//       %55 = llvm.add %54, %7 : vector<1xi32>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%4) : (i32) -> ()
//       %56 = llvm.getelementptr inbounds %8[%36] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %57 = llvm.extractelement %55[%6 : i64] : vector<1xi32>
//       llvm.cond_br %39, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.store %57, %56 {alignment = 4 : i64} : i32, !llvm.ptr<3>
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%4) : (i32) -> ()
//       %58 = llvm.add %40, %4 : i32
//       %59 = llvm.udiv %58, %9 : i32
//       %60 = llvm.urem %59, %2 : i32
//       %61 = llvm.mul %60, %9 : i32
//       %62 = llvm.add %4, %61 : i32
//       %63 = llvm.getelementptr inbounds %8[%62] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %64 = llvm.getelementptr inbounds %63[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %65 = llvm.load %64 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %66 = llvm.add %40, %9 : i32
//       %67 = llvm.udiv %66, %9 : i32
//       %68 = llvm.urem %67, %2 : i32
//       %69 = llvm.mul %68, %9 : i32
//       %70 = llvm.add %4, %69 : i32
//       %71 = llvm.getelementptr inbounds %8[%70] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %72 = llvm.getelementptr inbounds %71[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %73 = llvm.load %72 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %74 = llvm.insertelement %65, %10[%6 : i64] : vector<2xi32>
//       %75 = llvm.insertelement %73, %74[%11 : i64] : vector<2xi32>
//       %76 = llvm.add %51, %75 : vector<2xi32>
//       %77 = llvm.insertelement %arg0, %12[%6 : i64] : vector<1x!llvm.ptr>
//       %78 = llvm.shufflevector %77, %12 [0, 0] : vector<1x!llvm.ptr> 
//       %79 = llvm.sext %76 : vector<2xi32> to vector<2xi64>
//       %80 = llvm.getelementptr %78[%79] : (vector<2x!llvm.ptr>, vector<2xi64>) -> vector<2x!llvm.ptr>, f32
//       %81 = llvm.addrspacecast %80 : vector<2x!llvm.ptr> to vector<2x!llvm.ptr<1>>
//       %82 = llvm.intr.masked.gather %81, %14, %16 {alignment = 4 : i32} : (vector<2x!llvm.ptr<1>>, vector<2xi1>, vector<2xf32>) -> vector<2xf32>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%4) : (i32) -> ()
//       %83 = llvm.getelementptr inbounds %8[%40] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       llvm.store %82, %83 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%4) : (i32) -> ()
//       %84 = llvm.add %34, %4 : i32
//       %85 = llvm.udiv %84, %9 : i32
//       %86 = llvm.urem %85, %0 : i32
//       %87 = llvm.mul %86, %2 : i32
//       %88 = llvm.add %4, %87 : i32
//       %89 = llvm.getelementptr inbounds %8[%88] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %90 = llvm.getelementptr inbounds %89[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %91 = llvm.load %90 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %92 = llvm.getelementptr inbounds %89[%9] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %93 = llvm.load %92 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %94 = llvm.getelementptr inbounds %89[%3] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %95 = llvm.load %94 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %96 = llvm.getelementptr inbounds %89[%17] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %97 = llvm.load %96 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %98 = llvm.getelementptr inbounds %89[%0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %99 = llvm.load %98 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %100 = llvm.getelementptr inbounds %89[%18] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %101 = llvm.load %100 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %102 = llvm.getelementptr inbounds %89[%19] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %103 = llvm.load %102 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %104 = llvm.getelementptr inbounds %89[%20] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %105 = llvm.load %104 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %106 = llvm.getelementptr inbounds %89[%21] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %107 = llvm.load %106 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %108 = llvm.getelementptr inbounds %89[%22] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %109 = llvm.load %108 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %110 = llvm.getelementptr inbounds %89[%23] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %111 = llvm.load %110 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %112 = llvm.getelementptr inbounds %89[%24] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %113 = llvm.load %112 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %114 = llvm.getelementptr inbounds %89[%25] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %115 = llvm.load %114 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %116 = llvm.getelementptr inbounds %89[%26] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %117 = llvm.load %116 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %118 = llvm.getelementptr inbounds %89[%27] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %119 = llvm.load %118 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %120 = llvm.getelementptr inbounds %89[%28] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %121 = llvm.load %120 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
//       %122 = llvm.fadd %91, %93 : f32
//       %123 = llvm.fadd %122, %95 : f32
//       %124 = llvm.fadd %123, %97 : f32
//       %125 = llvm.fadd %124, %99 : f32
//       %126 = llvm.fadd %125, %101 : f32
//       %127 = llvm.fadd %126, %103 : f32
//       %128 = llvm.fadd %127, %105 : f32
//       %129 = llvm.fadd %128, %107 : f32
//       %130 = llvm.fadd %129, %109 : f32
//       %131 = llvm.fadd %130, %111 : f32
//       %132 = llvm.fadd %131, %113 : f32
//       %133 = llvm.fadd %132, %115 : f32
//       %134 = llvm.fadd %133, %117 : f32
//       %135 = llvm.fadd %134, %119 : f32
//       %136 = llvm.fadd %135, %121 : f32
//       %137 = llvm.insertelement %136, %29[%6 : i64] : vector<1xf32>
//       %138 = llvm.insertelement %arg1, %12[%6 : i64] : vector<1x!llvm.ptr>
//       %139 = llvm.shufflevector %138, %12 [0] : vector<1x!llvm.ptr> 
//       %140 = llvm.sext %47 : vector<1xi32> to vector<1xi64>
//       %141 = llvm.getelementptr %139[%140] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %142 = llvm.insertelement %43, %30[%6 : i64] : vector<1xi1>
//       %143 = llvm.shufflevector %142, %30 [0] : vector<1xi1> 
//       %144 = llvm.and %31, %143 : vector<1xi1>
//       %145 = llvm.addrspacecast %141 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %137, %145, %144 {alignment = 4 : i32} : vector<1xf32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
