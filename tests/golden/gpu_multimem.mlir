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
//       %8 = llvm.mlir.zero : !llvm.ptr
//       %9 = llvm.mlir.poison : vector<1xi64>
//       %10 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %11 = llvm.mlir.poison : vector<1xf32>
//       %12 = llvm.mlir.poison : vector<1xi1>
//       %13 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %14 = nvvm.read.ptx.sreg.tid.x : i32
//       %15 = llvm.mul %14, %0 overflow<nuw> : i32
//       %16 = llvm.udiv %15, %1 : i32
//       %17 = llvm.mul %14, %0 overflow<nuw> : i32
//       %18 = llvm.urem %17, %1 : i32
//       %19 = llvm.icmp "ult" %18, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %20 = llvm.mul %13, %0 : i32
//       %21 = llvm.add %16, %2 : i32
//       %22 = llvm.insertelement %21, %3[%4 : i64] : vector<1xi32>
//       %23 = llvm.shufflevector %22, %3 [0] : vector<1xi32> 
//       %24 = llvm.add %23, %5 : vector<1xi32>
//       %25 = llvm.insertelement %20, %3[%4 : i64] : vector<1xi32>
//       %26 = llvm.shufflevector %25, %3 [0] : vector<1xi32> 
//       %27 = llvm.add %26, %24 : vector<1xi32>
//       %28 = llvm.insertelement %arg1, %3[%4 : i64] : vector<1xi32>
//       %29 = llvm.shufflevector %28, %3 [0] : vector<1xi32> 
//       %30 = llvm.icmp "slt" %27, %29 : vector<1xi32>
//       %31 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %32 = llvm.shufflevector %31, %6 [0] : vector<1x!llvm.ptr> 
//       %33 = llvm.sext %27 : vector<1xi32> to vector<1xi64>
//       %34 = llvm.getelementptr %32[%33] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %35 = llvm.extractelement %34[%4 : i64] : vector<1x!llvm.ptr>
//       %36 = llvm.call @nvshmemx_mc_ptr(%7, %35) : (i32, !llvm.ptr) -> !llvm.ptr
//       %37 = llvm.icmp "eq" %36, %8 : !llvm.ptr
//       llvm.cond_br %37, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.intr.trap
//       llvm.unreachable
//     ^bb3:  // pred: ^bb1
//       %38 = llvm.ptrtoint %35 : !llvm.ptr to i64
//       %39 = llvm.ptrtoint %36 : !llvm.ptr to i64
//       %40 = llvm.sub %39, %38 : i64
//       %41 = llvm.ptrtoint %34 : vector<1x!llvm.ptr> to vector<1xi64>
//       %42 = llvm.insertelement %40, %9[%4 : i64] : vector<1xi64>
//       %43 = llvm.shufflevector %42, %9 [0] : vector<1xi64> 
//       %44 = llvm.add %41, %43 : vector<1xi64>
//       %45 = llvm.extractelement %44[%4 : i64] : vector<1xi64>
//       %46 = llvm.extractelement %30[%4 : i64] : vector<1xi1>
//       llvm.cond_br %46, ^bb4, ^bb5(%10 : f32)
//     ^bb4:  // pred: ^bb3
//       %47 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.ld_reduce.relaxed.sys.global.add.f32 $0, [$1];", "=f,l" %45 : (i64) -> f32
//       llvm.br ^bb5(%47 : f32)
//     ^bb5(%48: f32):  // 2 preds: ^bb3, ^bb4
//       %49 = llvm.insertelement %48, %11[%4 : i64] : vector<1xf32>
//       %50 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %51 = llvm.shufflevector %50, %6 [0] : vector<1x!llvm.ptr> 
//       %52 = llvm.sext %27 : vector<1xi32> to vector<1xi64>
//       %53 = llvm.getelementptr %51[%52] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %54 = llvm.extractelement %53[%4 : i64] : vector<1x!llvm.ptr>
//       %55 = llvm.call @nvshmemx_mc_ptr(%7, %54) : (i32, !llvm.ptr) -> !llvm.ptr
//       %56 = llvm.icmp "eq" %55, %8 : !llvm.ptr
//       llvm.cond_br %56, ^bb6, ^bb7
//     ^bb6:  // pred: ^bb5
//       llvm.intr.trap
//       llvm.unreachable
//     ^bb7:  // pred: ^bb5
//       %57 = llvm.ptrtoint %54 : !llvm.ptr to i64
//       %58 = llvm.ptrtoint %55 : !llvm.ptr to i64
//       %59 = llvm.sub %58, %57 : i64
//       %60 = llvm.ptrtoint %53 : vector<1x!llvm.ptr> to vector<1xi64>
//       %61 = llvm.insertelement %59, %9[%4 : i64] : vector<1xi64>
//       %62 = llvm.shufflevector %61, %9 [0] : vector<1xi64> 
//       %63 = llvm.add %60, %62 : vector<1xi64>
//       %64 = llvm.insertelement %19, %12[%4 : i64] : vector<1xi1>
//       %65 = llvm.shufflevector %64, %12 [0] : vector<1xi1> 
//       %66 = llvm.and %30, %65 : vector<1xi1>
//       %67 = llvm.extractelement %63[%4 : i64] : vector<1xi64>
//       %68 = llvm.extractelement %49[%4 : i64] : vector<1xf32>
//       %69 = llvm.extractelement %66[%4 : i64] : vector<1xi1>
//       llvm.cond_br %69, ^bb8, ^bb9
//     ^bb8:  // pred: ^bb7
//       %70 = llvm.inline_asm has_side_effects asm_dialect = att "multimem.st.relaxed.sys.global.f32 [$0], $1;", "l,f" %67, %68 : (i64, f32) -> !llvm.void
//       llvm.br ^bb9
//     ^bb9:  // 2 preds: ^bb7, ^bb8
//       llvm.return
//     }
//   }
// }
