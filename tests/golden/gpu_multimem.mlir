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
//       %1 = llvm.mlir.constant(128 : i32) : i32
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.poison : vector<1xi32>
//       %4 = llvm.mlir.constant(0 : i64) : i64
//       %5 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %6 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %7 = llvm.mlir.constant(2 : i32) : i32
//       %8 = llvm.mlir.poison : vector<1xi64>
//       %9 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %10 = llvm.mlir.poison : vector<1xf32>
//       %11 = llvm.mlir.poison : vector<1xi1>
//       %12 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %13 = nvvm.read.ptx.sreg.tid.x : i32
//       %14 = llvm.mul %13, %0 overflow<nuw> : i32
//       %15 = llvm.udiv %14, %1 : i32
//       %16 = llvm.mul %13, %0 overflow<nuw> : i32
//       %17 = llvm.urem %16, %1 : i32
//       %18 = llvm.icmp "ult" %17, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %19 = llvm.mul %12, %0 : i32
//       %20 = llvm.add %15, %2 : i32
//       %21 = llvm.insertelement %20, %3[%4 : i64] : vector<1xi32>
//       %22 = llvm.shufflevector %21, %3 [0] : vector<1xi32> 
//       %23 = llvm.add %22, %5 : vector<1xi32>
//       %24 = llvm.insertelement %19, %3[%4 : i64] : vector<1xi32>
//       %25 = llvm.shufflevector %24, %3 [0] : vector<1xi32> 
//       %26 = llvm.add %25, %23 : vector<1xi32>
//       %27 = llvm.insertelement %arg1, %3[%4 : i64] : vector<1xi32>
//       %28 = llvm.shufflevector %27, %3 [0] : vector<1xi32> 
//       %29 = llvm.icmp "slt" %26, %28 : vector<1xi32>
//       %30 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %31 = llvm.shufflevector %30, %6 [0] : vector<1x!llvm.ptr> 
//       %32 = llvm.sext %26 : vector<1xi32> to vector<1xi64>
//       %33 = llvm.getelementptr %31[%32] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %34 = llvm.extractelement %33[%4 : i64] : vector<1x!llvm.ptr>
//       %35 = llvm.call @nvshmemx_mc_ptr(%7, %34) : (i32, !llvm.ptr) -> !llvm.ptr
//       %36 = llvm.ptrtoint %34 : !llvm.ptr to i64
//       %37 = llvm.ptrtoint %35 : !llvm.ptr to i64
//       %38 = llvm.sub %37, %36 : i64
//       %39 = llvm.ptrtoint %33 : vector<1x!llvm.ptr> to vector<1xi64>
//       %40 = llvm.insertelement %38, %8[%4 : i64] : vector<1xi64>
//       %41 = llvm.shufflevector %40, %8 [0] : vector<1xi64> 
//       %42 = llvm.add %39, %41 : vector<1xi64>
//       %43 = llvm.extractelement %42[%4 : i64] : vector<1xi64>
//       %44 = llvm.extractelement %29[%4 : i64] : vector<1xi1>
//       llvm.cond_br %44, ^bb2, ^bb3(%9 : f32)
//     ^bb2:  // pred: ^bb1
//       %45 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.ld_reduce.relaxed.sys.global.add.f32 $0, [$1];", "=f,l" %43 : (i64) -> f32
//       llvm.br ^bb3(%45 : f32)
//     ^bb3(%46: f32):  // 2 preds: ^bb1, ^bb2
//       %47 = llvm.insertelement %46, %10[%4 : i64] : vector<1xf32>
//       %48 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %49 = llvm.shufflevector %48, %6 [0] : vector<1x!llvm.ptr> 
//       %50 = llvm.sext %26 : vector<1xi32> to vector<1xi64>
//       %51 = llvm.getelementptr %49[%50] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %52 = llvm.extractelement %51[%4 : i64] : vector<1x!llvm.ptr>
//       %53 = llvm.call @nvshmemx_mc_ptr(%7, %52) : (i32, !llvm.ptr) -> !llvm.ptr
//       %54 = llvm.ptrtoint %52 : !llvm.ptr to i64
//       %55 = llvm.ptrtoint %53 : !llvm.ptr to i64
//       %56 = llvm.sub %55, %54 : i64
//       %57 = llvm.ptrtoint %51 : vector<1x!llvm.ptr> to vector<1xi64>
//       %58 = llvm.insertelement %56, %8[%4 : i64] : vector<1xi64>
//       %59 = llvm.shufflevector %58, %8 [0] : vector<1xi64> 
//       %60 = llvm.add %57, %59 : vector<1xi64>
//       %61 = llvm.insertelement %18, %11[%4 : i64] : vector<1xi1>
//       %62 = llvm.shufflevector %61, %11 [0] : vector<1xi1> 
//       %63 = llvm.and %29, %62 : vector<1xi1>
//       %64 = llvm.extractelement %60[%4 : i64] : vector<1xi64>
//       %65 = llvm.extractelement %47[%4 : i64] : vector<1xf32>
//       %66 = llvm.extractelement %63[%4 : i64] : vector<1xi1>
//       llvm.cond_br %66, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       %67 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.st.relaxed.sys.global.f32 [$0], $1;", "l,f" %64, %65 : (i64, f32) -> !llvm.void
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.return
//     }
//   }
// }
