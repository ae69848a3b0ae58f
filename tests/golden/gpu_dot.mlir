module {
  func.func @mma(%arg0: !tile.ptr<bf16>, %arg1: !tile.ptr<bf16>, %arg2: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "1"}, weft.params = ["a", "b", "c"]} {
    %0 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %2 = "tile.splat"(%c16_i32) : (i32) -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = "tile.broadcast"(%3) : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %5 = "tile.expand_dims"(%0) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %6 = "tile.broadcast"(%5) : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %7 = arith.addi %4, %6 : tensor<16x16xi32>
    %8 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<16x16x!tile.ptr<bf16>>
    %9 = "tile.addptr"(%8, %7) : (tensor<16x16x!tile.ptr<bf16>>, tensor<16x16xi32>) -> tensor<16x16x!tile.ptr<bf16>>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x16x!tile.ptr<bf16>>) -> tensor<16x16xbf16>
    %11 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %12 = "tile.expand_dims"(%11) {axis = 0 : i32} : (tensor<8xi32>) -> tensor<1x8xi32>
    %c8_i32 = arith.constant 8 : i32
    %13 = "tile.splat"(%c8_i32) : (i32) -> tensor<16x1xi32>
    %14 = arith.muli %1, %13 : tensor<16x1xi32>
    %15 = "tile.broadcast"(%14) : (tensor<16x1xi32>) -> tensor<16x8xi32>
    %16 = "tile.broadcast"(%12) : (tensor<1x8xi32>) -> tensor<16x8xi32>
    %17 = arith.addi %15, %16 : tensor<16x8xi32>
    %18 = "tile.splat"(%arg1) : (!tile.ptr<bf16>) -> tensor<16x8x!tile.ptr<bf16>>
    %19 = "tile.addptr"(%18, %17) : (tensor<16x8x!tile.ptr<bf16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<bf16>>
    %20 = "tile.load"(%19) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x8x!tile.ptr<bf16>>) -> tensor<16x8xbf16>
    %cst = arith.constant dense<0.000000e+00> : tensor<16x8xf32>
    %21 = "tile.dot"(%10, %20, %cst) : (tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %22 = "tile.splat"(%arg2) : (!tile.ptr<f32>) -> tensor<16x8x!tile.ptr<f32>>
    %23 = "tile.addptr"(%22, %17) : (tensor<16x8x!tile.ptr<f32>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<f32>>
    "tile.store"(%23, %21) : (tensor<16x8x!tile.ptr<f32>>, tensor<16x8xf32>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @mma [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.mlir.global internal @__weft_smem() {addr_space = 3 : i32, alignment = 16 : i64, dso_local} : !llvm.array<768 x i8> {
//       %0 = llvm.mlir.undef : !llvm.array<768 x i8>
//       llvm.return %0 : !llvm.array<768 x i8>
//     }
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)> attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind, passthrough = ["nocallback"]}
//     llvm.func ptx_kernelcc @mma(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}, %arg2: !llvm.ptr {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "32"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(16 : i32) : i32
//       %1 = llvm.mlir.constant(32 : i32) : i32
//       %2 = llvm.mlir.constant(8 : i32) : i32
//       %3 = llvm.mlir.constant(4 : i32) : i32
//       %4 = llvm.mlir.constant(1 : i32) : i32
//       %5 = llvm.mlir.constant(2 : i32) : i32
//       %6 = llvm.mlir.constant(0 : i32) : i32
//       %7 = llvm.mlir.poison : vector<1xi32>
//       %8 = llvm.mlir.constant(0 : i64) : i64
//       %9 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %10 = llvm.mlir.addressof @__weft_smem : !llvm.ptr<3>
//       %11 = llvm.mlir.constant(3 : i32) : i32
//       %12 = llvm.mlir.constant(5 : i32) : i32
//       %13 = llvm.mlir.constant(6 : i32) : i32
//       %14 = llvm.mlir.constant(7 : i32) : i32
//       %15 = llvm.mlir.poison : vector<8xi32>
//       %16 = llvm.mlir.constant(1 : i64) : i64
//       %17 = llvm.mlir.constant(2 : i64) : i64
//       %18 = llvm.mlir.constant(3 : i64) : i64
//       %19 = llvm.mlir.constant(4 : i64) : i64
//       %20 = llvm.mlir.constant(5 : i64) : i64
//       %21 = llvm.mlir.constant(6 : i64) : i64
//       %22 = llvm.mlir.constant(7 : i64) : i64
//       %23 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %24 = llvm.mlir.constant(true) : i1
//       %25 = llvm.mlir.constant(dense<true> : vector<8xi1>) : vector<8xi1>
//       %26 = llvm.mlir.constant(0.000000e+00 : bf16) : bf16
//       %27 = llvm.mlir.constant(dense<0.000000e+00> : vector<8xbf16>) : vector<8xbf16>
//       %28 = llvm.mlir.poison : vector<4xi32>
//       %29 = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
//       %30 = llvm.mlir.constant(dense<0.000000e+00> : vector<4xbf16>) : vector<4xbf16>
//       %31 = llvm.mlir.poison : vector<1xf32>
//       %32 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %33 = llvm.mlir.constant(512 : i32) : i32
//       %34 = llvm.getelementptr inbounds %10[%33] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
//       %35 = llvm.mlir.constant(128 : i32) : i32
//       %36 = llvm.mlir.constant(136 : i32) : i32
//       %37 = llvm.mlir.poison : vector<4xf32>
//       %38 = llvm.mlir.constant(64 : i32) : i32
//       %39 = llvm.mlir.constant(65 : i32) : i32
//       %40 = nvvm.read.ptx.sreg.tid.x : i32
//       %41 = llvm.mul %40, %0 overflow<nuw> : i32
//       %42 = llvm.udiv %41, %1 : i32
//       %43 = llvm.mul %40, %0 overflow<nuw> : i32
//       %44 = llvm.urem %43, %1 : i32
//       %45 = llvm.icmp "ult" %44, %0 : i32
//       %46 = llvm.mul %40, %2 overflow<nuw> : i32
//       %47 = llvm.mul %40, %2 overflow<nuw> : i32
//       %48 = llvm.udiv %47, %1 : i32
//       %49 = llvm.mul %40, %2 overflow<nuw> : i32
//       %50 = llvm.urem %49, %1 : i32
//       %51 = llvm.icmp "ult" %50, %2 : i32
//       %52 = llvm.mul %40, %3 overflow<nuw> : i32
//       %53 = llvm.udiv %40, %1 : i32
//       %54 = llvm.urem %40, %1 : i32
//       %55 = llvm.udiv %53, %4 : i32
//       %56 = llvm.urem %53, %4 : i32
//       %57 = llvm.udiv %54, %3 : i32
//       %58 = llvm.urem %54, %3 : i32
//       %59 = llvm.mul %55, %0 : i32
//       %60 = llvm.add %59, %57 : i32
//       %61 = llvm.mul %56, %2 : i32
//       %62 = llvm.mul %58, %5 : i32
//       %63 = llvm.add %61, %62 : i32
//       %64 = llvm.mul %60, %2 : i32
//       %65 = llvm.add %64, %63 : i32
//       %66 = llvm.udiv %65, %2 : i32
//       %67 = llvm.urem %65, %2 : i32
//       %68 = llvm.urem %67, %2 : i32
//       %69 = llvm.mul %66, %0 : i32
//       %70 = llvm.add %69, %68 : i32
//       %71 = llvm.udiv %40, %1 : i32
//       %72 = llvm.urem %71, %4 : i32
//       %73 = llvm.urem %40, %1 : i32
//       %74 = llvm.udiv %73, %3 : i32
//       %75 = llvm.urem %73, %3 : i32
//       %76 = llvm.mul %72, %2 : i32
//       %77 = llvm.add %76, %74 : i32
//       %78 = llvm.mul %77, %0 : i32
//       %79 = llvm.mul %75, %5 : i32
//       %80 = llvm.add %78, %79 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %81 = llvm.add %42, %6 : i32
//       %82 = llvm.insertelement %81, %7[%8 : i64] : vector<1xi32>
//       %83 = llvm.shufflevector %82, %7 [0] : vector<1xi32> 
//       %84 = llvm.add %83, %9 : vector<1xi32>
//       %85 = llvm.insertelement %0, %7[%8 : i64] : vector<1xi32>
//       %86 = llvm.shufflevector %85, %7 [0] : vector<1xi32> 
//       %87 = llvm.mul %84, %86 : vector<1xi32>
//       %88 = llvm.shufflevector %87, %7 [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32> 
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %89 = llvm.getelementptr inbounds %10[%42] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %90 = llvm.extractelement %84[%8 : i64] : vector<1xi32>
//       llvm.cond_br %45, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.store %90, %89 {alignment = 4 : i64} : i32, !llvm.ptr<3>
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %91 = llvm.add %46, %6 : i32
//       %92 = llvm.udiv %91, %4 : i32
//       %93 = llvm.urem %92, %0 : i32
//       %94 = llvm.mul %93, %4 : i32
//       %95 = llvm.add %6, %94 : i32
//       %96 = llvm.getelementptr inbounds %10[%95] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %97 = llvm.getelementptr inbounds %96[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %98 = llvm.load %97 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %99 = llvm.add %46, %4 : i32
//       %100 = llvm.udiv %99, %4 : i32
//       %101 = llvm.urem %100, %0 : i32
//       %102 = llvm.mul %101, %4 : i32
//       %103 = llvm.add %6, %102 : i32
//       %104 = llvm.getelementptr inbounds %10[%103] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %105 = llvm.getelementptr inbounds %104[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %106 = llvm.load %105 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %107 = llvm.add %46, %5 : i32
//       %108 = llvm.udiv %107, %4 : i32
//       %109 = llvm.urem %108, %0 : i32
//       %110 = llvm.mul %109, %4 : i32
//       %111 = llvm.add %6, %110 : i32
//       %112 = llvm.getelementptr inbounds %10[%111] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %113 = llvm.getelementptr inbounds %112[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %114 = llvm.load %113 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %115 = llvm.add %46, %11 : i32
//       %116 = llvm.udiv %115, %4 : i32
//       %117 = llvm.urem %116, %0 : i32
//       %118 = llvm.mul %117, %4 : i32
//       %119 = llvm.add %6, %118 : i32
//       %120 = llvm.getelementptr inbounds %10[%119] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %121 = llvm.getelementptr inbounds %120[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %122 = llvm.load %121 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %123 = llvm.add %46, %3 : i32
//       %124 = llvm.udiv %123, %4 : i32
//       %125 = llvm.urem %124, %0 : i32
//       %126 = llvm.mul %125, %4 : i32
//       %127 = llvm.add %6, %126 : i32
//       %128 = llvm.getelementptr inbounds %10[%127] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %129 = llvm.getelementptr inbounds %128[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %130 = llvm.load %129 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %131 = llvm.add %46, %12 : i32
//       %132 = llvm.udiv %131, %4 : i32
//       %133 = llvm.urem %132, %0 : i32
//       %134 = llvm.mul %133, %4 : i32
//       %135 = llvm.add %6, %134 : i32
//       %136 = llvm.getelementptr inbounds %10[%135] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %137 = llvm.getelementptr inbounds %136[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %138 = llvm.load %137 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %139 = llvm.add %46, %13 : i32
//       %140 = llvm.udiv %139, %4 : i32
//       %141 = llvm.urem %140, %0 : i32
//       %142 = llvm.mul %141, %4 : i32
//       %143 = llvm.add %6, %142 : i32
//       %144 = llvm.getelementptr inbounds %10[%143] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %145 = llvm.getelementptr inbounds %144[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %146 = llvm.load %145 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %147 = llvm.add %46, %14 : i32
//       %148 = llvm.udiv %147, %4 : i32
//       %149 = llvm.urem %148, %0 : i32
//       %150 = llvm.mul %149, %4 : i32
//       %151 = llvm.add %6, %150 : i32
//       %152 = llvm.getelementptr inbounds %10[%151] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %153 = llvm.getelementptr inbounds %152[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %154 = llvm.load %153 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %155 = llvm.insertelement %98, %15[%8 : i64] : vector<8xi32>
//       %156 = llvm.insertelement %106, %155[%16 : i64] : vector<8xi32>
//       %157 = llvm.insertelement %114, %156[%17 : i64] : vector<8xi32>
//       %158 = llvm.insertelement %122, %157[%18 : i64] : vector<8xi32>
//       %159 = llvm.insertelement %130, %158[%19 : i64] : vector<8xi32>
//       %160 = llvm.insertelement %138, %159[%20 : i64] : vector<8xi32>
//       %161 = llvm.insertelement %146, %160[%21 : i64] : vector<8xi32>
//       %162 = llvm.insertelement %154, %161[%22 : i64] : vector<8xi32>
//       %163 = llvm.add %88, %162 : vector<8xi32>
//       %164 = llvm.insertelement %arg0, %23[%8 : i64] : vector<1x!llvm.ptr>
//       %165 = llvm.shufflevector %164, %23 [0, 0, 0, 0, 0, 0, 0, 0] : vector<1x!llvm.ptr> 
//       %166 = llvm.sext %163 : vector<8xi32> to vector<8xi64>
//       %167 = llvm.getelementptr %165[%166] : (vector<8x!llvm.ptr>, vector<8xi64>) -> vector<8x!llvm.ptr>, bf16
//       %168 = llvm.addrspacecast %167 : vector<8x!llvm.ptr> to vector<8x!llvm.ptr<1>>
//       %169 = llvm.intr.masked.gather %168, %25, %27 {alignment = 2 : i32} : (vector<8x!llvm.ptr<1>>, vector<8xi1>, vector<8xbf16>) -> vector<8xbf16>
//       %170 = llvm.add %48, %6 : i32
//       %171 = llvm.insertelement %170, %7[%8 : i64] : vector<1xi32>
//       %172 = llvm.shufflevector %171, %7 [0] : vector<1xi32> 
//       %173 = llvm.add %172, %9 : vector<1xi32>
//       %174 = llvm.insertelement %2, %7[%8 : i64] : vector<1xi32>
//       %175 = llvm.shufflevector %174, %7 [0] : vector<1xi32> 
//       %176 = llvm.mul %84, %175 : vector<1xi32>
//       %177 = llvm.shufflevector %176, %7 [0, 0, 0, 0] : vector<1xi32> 
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %178 = llvm.getelementptr inbounds %10[%48] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %179 = llvm.extractelement %173[%8 : i64] : vector<1xi32>
//       llvm.cond_br %51, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       llvm.store %179, %178 {alignment = 4 : i64} : i32, !llvm.ptr<3>
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %180 = llvm.add %52, %6 : i32
//       %181 = llvm.udiv %180, %4 : i32
//       %182 = llvm.urem %181, %2 : i32
//       %183 = llvm.mul %182, %4 : i32
//       %184 = llvm.add %6, %183 : i32
//       %185 = llvm.getelementptr inbounds %10[%184] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %186 = llvm.getelementptr inbounds %185[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %187 = llvm.load %186 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %188 = llvm.add %52, %4 : i32
//       %189 = llvm.udiv %188, %4 : i32
//       %190 = llvm.urem %189, %2 : i32
//       %191 = llvm.mul %190, %4 : i32
//       %192 = llvm.add %6, %191 : i32
//       %193 = llvm.getelementptr inbounds %10[%192] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %194 = llvm.getelementptr inbounds %193[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %195 = llvm.load %194 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %196 = llvm.add %52, %5 : i32
//       %197 = llvm.udiv %196, %4 : i32
//       %198 = llvm.urem %197, %2 : i32
//       %199 = llvm.mul %198, %4 : i32
//       %200 = llvm.add %6, %199 : i32
//       %201 = llvm.getelementptr inbounds %10[%200] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %202 = llvm.getelementptr inbounds %201[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %203 = llvm.load %202 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %204 = llvm.add %52, %11 : i32
//       %205 = llvm.udiv %204, %4 : i32
//       %206 = llvm.urem %205, %2 : i32
//       %207 = llvm.mul %206, %4 : i32
//       %208 = llvm.add %6, %207 : i32
//       %209 = llvm.getelementptr inbounds %10[%208] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %210 = llvm.getelementptr inbounds %209[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
//       %211 = llvm.load %210 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %212 = llvm.insertelement %187, %28[%8 : i64] : vector<4xi32>
//       %213 = llvm.insertelement %195, %212[%16 : i64] : vector<4xi32>
//       %214 = llvm.insertelement %203, %213[%17 : i64] : vector<4xi32>
//       %215 = llvm.insertelement %211, %214[%18 : i64] : vector<4xi32>
//       %216 = llvm.add %177, %215 : vector<4xi32>
//       %217 = llvm.insertelement %arg1, %23[%8 : i64] : vector<1x!llvm.ptr>
//       %218 = llvm.shufflevector %217, %23 [0, 0, 0, 0] : vector<1x!llvm.ptr> 
//       %219 = llvm.sext %216 : vector<4xi32> to vector<4xi64>
//       %220 = llvm.getelementptr %218[%219] : (vector<4x!llvm.ptr>, vector<4xi64>) -> vector<4x!llvm.ptr>, bf16
//       %221 = llvm.addrspacecast %220 : vector<4x!llvm.ptr> to vector<4x!llvm.ptr<1>>
//       %222 = llvm.intr.masked.gather %221, %29, %30 {alignment = 2 : i32} : (vector<4x!llvm.ptr<1>>, vector<4xi1>, vector<4xbf16>) -> vector<4xbf16>
//       %223 = llvm.insertelement %32, %31[%8 : i64] : vector<1xf32>
//       %224 = llvm.shufflevector %223, %31 [0, 0, 0, 0] : vector<1xf32> 
//       %225 = llvm.extractelement %224[%8 : i64] : vector<4xf32>
//       %226 = llvm.extractelement %224[%16 : i64] : vector<4xf32>
//       %227 = llvm.extractelement %224[%17 : i64] : vector<4xf32>
//       %228 = llvm.extractelement %224[%18 : i64] : vector<4xf32>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %229 = llvm.getelementptr inbounds %10[%46] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       llvm.store %169, %229 {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
//       %230 = llvm.add %52, %6 : i32
//       %231 = llvm.udiv %230, %2 : i32
//       %232 = llvm.urem %230, %2 : i32
//       %233 = llvm.mul %232, %0 : i32
//       %234 = llvm.add %233, %231 : i32
//       %235 = llvm.getelementptr inbounds %34[%234] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %236 = llvm.extractelement %222[%8 : i64] : vector<4xbf16>
//       llvm.store %236, %235 {alignment = 2 : i64} : bf16, !llvm.ptr<3>
//       %237 = llvm.add %52, %4 : i32
//       %238 = llvm.udiv %237, %2 : i32
//       %239 = llvm.urem %237, %2 : i32
//       %240 = llvm.mul %239, %0 : i32
//       %241 = llvm.add %240, %238 : i32
//       %242 = llvm.getelementptr inbounds %34[%241] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %243 = llvm.extractelement %222[%16 : i64] : vector<4xbf16>
//       llvm.store %243, %242 {alignment = 2 : i64} : bf16, !llvm.ptr<3>
//       %244 = llvm.add %52, %5 : i32
//       %245 = llvm.udiv %244, %2 : i32
//       %246 = llvm.urem %244, %2 : i32
//       %247 = llvm.mul %246, %0 : i32
//       %248 = llvm.add %247, %245 : i32
//       %249 = llvm.getelementptr inbounds %34[%248] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %250 = llvm.extractelement %222[%17 : i64] : vector<4xbf16>
//       llvm.store %250, %249 {alignment = 2 : i64} : bf16, !llvm.ptr<3>
//       %251 = llvm.add %52, %11 : i32
//       %252 = llvm.udiv %251, %2 : i32
//       %253 = llvm.urem %251, %2 : i32
//       %254 = llvm.mul %253, %0 : i32
//       %255 = llvm.add %254, %252 : i32
//       %256 = llvm.getelementptr inbounds %34[%255] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %257 = llvm.extractelement %222[%18 : i64] : vector<4xbf16>
//       llvm.store %257, %256 {alignment = 2 : i64} : bf16, !llvm.ptr<3>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %258 = llvm.getelementptr inbounds %10[%70] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %259 = llvm.getelementptr inbounds %34[%80] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %260 = llvm.getelementptr inbounds %259[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %261 = llvm.load %260 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %262 = llvm.getelementptr inbounds %259[%2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %263 = llvm.load %262 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %264 = llvm.getelementptr inbounds %258[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %265 = llvm.load %264 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %266 = llvm.getelementptr inbounds %258[%35] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %267 = llvm.load %266 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %268 = llvm.getelementptr inbounds %258[%2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %269 = llvm.load %268 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %270 = llvm.getelementptr inbounds %258[%36] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
//       %271 = llvm.load %270 {alignment = 4 : i64} : !llvm.ptr<3> -> i32
//       %272 = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.bf16"(%265, %267, %269, %271, %261, %263, %225, %226, %227, %228) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
//       %273 = llvm.extractvalue %272[0] : !llvm.struct<(f32, f32, f32, f32)> 
//       %274 = llvm.extractvalue %272[1] : !llvm.struct<(f32, f32, f32, f32)> 
//       %275 = llvm.extractvalue %272[2] : !llvm.struct<(f32, f32, f32, f32)> 
//       %276 = llvm.extractvalue %272[3] : !llvm.struct<(f32, f32, f32, f32)> 
//       %277 = llvm.insertelement %273, %37[%8 : i64] : vector<4xf32>
//       %278 = llvm.insertelement %274, %277[%16 : i64] : vector<4xf32>
//       %279 = llvm.insertelement %275, %278[%17 : i64] : vector<4xf32>
//       %280 = llvm.insertelement %276, %279[%18 : i64] : vector<4xf32>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %281 = llvm.getelementptr inbounds %10[%65] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %282 = llvm.extractelement %280[%8 : i64] : vector<4xf32>
//       %283 = llvm.getelementptr inbounds %281[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       llvm.store %282, %283 {alignment = 4 : i64} : f32, !llvm.ptr<3>
//       %284 = llvm.extractelement %280[%16 : i64] : vector<4xf32>
//       %285 = llvm.getelementptr inbounds %281[%4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       llvm.store %284, %285 {alignment = 4 : i64} : f32, !llvm.ptr<3>
//       %286 = llvm.extractelement %280[%17 : i64] : vector<4xf32>
//       %287 = llvm.getelementptr inbounds %281[%38] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       llvm.store %286, %287 {alignment = 4 : i64} : f32, !llvm.ptr<3>
//       %288 = llvm.extractelement %280[%18 : i64] : vector<4xf32>
//       %289 = llvm.getelementptr inbounds %281[%39] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       llvm.store %288, %289 {alignment = 4 : i64} : f32, !llvm.ptr<3>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%6) : (i32) -> ()
//       %290 = llvm.getelementptr inbounds %10[%52] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
//       %291 = llvm.load %290 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
//       %292 = llvm.insertelement %arg2, %23[%8 : i64] : vector<1x!llvm.ptr>
//       %293 = llvm.shufflevector %292, %23 [0, 0, 0, 0] : vector<1x!llvm.ptr> 
//       %294 = llvm.sext %216 : vector<4xi32> to vector<4xi64>
//       %295 = llvm.getelementptr %293[%294] : (vector<4x!llvm.ptr>, vector<4xi64>) -> vector<4x!llvm.ptr>, f32
//       %296 = llvm.addrspacecast %295 : vector<4x!llvm.ptr> to vector<4x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %291, %296, %29 {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
