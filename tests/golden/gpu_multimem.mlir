module {
  func.func @multimem(%arg0: !tile.ptr<f32>, %arg1: i32) attributes {weft.constexprs = {}, weft.params = ["x", "n"]} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %c16_i32 = arith.constant 16 : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %3 = "tile.splat"(%1) : (i32) -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = "tile.splat"(%arg1) : (i32) -> tensor<16xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<16xi32>
    %7 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
    %8 = "tile.addptr"(%7, %4) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
    %9 = "shmem.multimem_ld_reduce"(%8, %6) {kind = "sum"} : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
    %11 = "tile.addptr"(%10, %4) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
    "shmem.multimem_st"(%11, %9, %6) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @multimem [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.func @nvshmemx_mc_ptr(i32, !llvm.ptr) -> !llvm.ptr
//     llvm.func ptx_kernelcc @multimem(%arg0: !llvm.ptr {llvm.noundef}, %arg1: i32 {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "128"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(16 : i32) : i32
//       %1 = llvm.mlir.constant(0 : i32) : i32
//       %2 = llvm.mlir.poison : vector<1xi32>
//       %3 = llvm.mlir.constant(0 : i64) : i64
//       %4 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %5 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %6 = llvm.mlir.constant(2 : i32) : i32
//       %7 = llvm.mlir.poison : vector<1xi64>
//       %8 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %9 = llvm.mlir.poison : vector<1xf32>
//       %10 = llvm.mlir.poison : vector<1xi1>
//       %11 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %12 = nvvm.read.ptx.sreg.tid.x : i32
//       %13 = llvm.urem %12, %0 : i32
//       %14 = llvm.icmp "ult" %12, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %15 = llvm.mul %11, %0 : i32
//       %16 = llvm.add %13, %1 : i32
//       %17 = llvm.insertelement %16, %2[%3 : i64] : vector<1xi32>
//       %18 = llvm.shufflevector %17, %2 [0] : vector<1xi32> 
//       %19 = llvm.add %18, %4 : vector<1xi32>
//       %20 = llvm.insertelement %15, %2[%3 : i64] : vector<1xi32>
//       %21 = llvm.shufflevector %20, %2 [0] : vector<1xi32> 
//       %22 = llvm.add %21, %19 : vector<1xi32>
//       %23 = llvm.insertelement %arg1, %2[%3 : i64] : vector<1xi32>
//       %24 = llvm.shufflevector %23, %2 [0] : vector<1xi32> 
//       %25 = llvm.icmp "slt" %22, %24 : vector<1xi32>
//       %26 = llvm.insertelement %arg0, %5[%3 : i64] : vector<1x!llvm.ptr>
//       %27 = llvm.shufflevector %26, %5 [0] : vector<1x!llvm.ptr> 
//       %28 = llvm.sext %22 : vector<1xi32> to vector<1xi64>
//       %29 = llvm.getelementptr %27[%28] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %30 = llvm.extractelement %29[%3 : i64] : vector<1x!llvm.ptr>
//       %31 = llvm.call @nvshmemx_mc_ptr(%6, %30) : (i32, !llvm.ptr) -> !llvm.ptr
//       %32 = llvm.ptrtoint %30 : !llvm.ptr to i64
//       %33 = llvm.ptrtoint %31 : !llvm.ptr to i64
//       %34 = llvm.sub %33, %32 : i64
//       %35 = llvm.ptrtoint %29 : vector<1x!llvm.ptr> to vector<1xi64>
//       %36 = llvm.insertelement %34, %7[%3 : i64] : vector<1xi64>
//       %37 = llvm.shufflevector %36, %7 [0] : vector<1xi64> 
//       %38 = llvm.add %35, %37 : vector<1xi64>
//       %39 = llvm.extractelement %38[%3 : i64] : vector<1xi64>
//       %40 = llvm.extractelement %25[%3 : i64] : vector<1xi1>
//       llvm.cond_br %40, ^bb2, ^bb3(%8 : f32)
//     ^bb2:  // pred: ^bb1
//       %41 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.ld_reduce.relaxed.sys.global.add.f32 $0, [$1];", "=f,l" %39 : (i64) -> f32
//       llvm.br ^bb3(%41 : f32)
//     ^bb3(%42: f32):  // 2 preds: ^bb1, ^bb2
//       %43 = llvm.insertelement %42, %9[%3 : i64] : vector<1xf32>
//       %44 = llvm.insertelement %arg0, %5[%3 : i64] : vector<1x!llvm.ptr>
//       %45 = llvm.shufflevector %44, %5 [0] : vector<1x!llvm.ptr> 
//       %46 = llvm.sext %22 : vector<1xi32> to vector<1xi64>
//       %47 = llvm.getelementptr %45[%46] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %48 = llvm.extractelement %47[%3 : i64] : vector<1x!llvm.ptr>
//       %49 = llvm.call @nvshmemx_mc_ptr(%6, %48) : (i32, !llvm.ptr) -> !llvm.ptr
//       %50 = llvm.ptrtoint %48 : !llvm.ptr to i64
//       %51 = llvm.ptrtoint %49 : !llvm.ptr to i64
//       %52 = llvm.sub %51, %50 : i64
//       %53 = llvm.ptrtoint %47 : vector<1x!llvm.ptr> to vector<1xi64>
//       %54 = llvm.insertelement %52, %7[%3 : i64] : vector<1xi64>
//       %55 = llvm.shufflevector %54, %7 [0] : vector<1xi64> 
//       %56 = llvm.add %53, %55 : vector<1xi64>
//       %57 = llvm.insertelement %14, %10[%3 : i64] : vector<1xi1>
//       %58 = llvm.shufflevector %57, %10 [0] : vector<1xi1> 
//       %59 = llvm.and %25, %58 : vector<1xi1>
//       %60 = llvm.extractelement %56[%3 : i64] : vector<1xi64>
//       %61 = llvm.extractelement %43[%3 : i64] : vector<1xf32>
//       %62 = llvm.extractelement %59[%3 : i64] : vector<1xi1>
//       llvm.cond_br %62, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       %63 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.st.relaxed.sys.global.f32 [$0], $1;", "l,f" %60, %61 : (i64, f32) -> !llvm.void
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.return
//     }
//   }
// }
