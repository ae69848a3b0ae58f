module {
  func.func @ll_protocol(%arg0: !tile.ptr<i32>, %arg1: !tile.ptr<i64>, %arg2: i32) attributes {weft.constexprs = {}, weft.params = ["data", "ll", "flag"]} {
    %0 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %1 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %2 = arith.addi %1, %c1_i32 : i32
    %3 = "shmem.n_pes"() : () -> i32
    %4 = arith.remsi %2, %3 : i32
    %5 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %6 = "tile.addptr"(%5, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    %7 = "tile.load"(%6) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<i32>>) -> tensor<8xi32>
    %8 = "shmem.ll_pack"(%7, %arg2) : (tensor<8xi32>, i32) -> tensor<8xi64>
    %9 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %10 = "tile.addptr"(%9, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %11 = "shmem.remote_ptr"(%10, %4) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8x!tile.ptr<i64>>
    "tile.store"(%11, %8) : (tensor<8x!tile.ptr<i64>>, tensor<8xi64>) -> ()
    %12 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %13 = "tile.addptr"(%12, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %14 = "shmem.ll_recv"(%13, %arg2) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8xi32>
    %15 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %16 = "tile.addptr"(%15, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    "tile.store"(%16, %14) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @ll_protocol [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func @nvshmem_my_pe() -> i32
//     llvm.func @nvshmem_n_pes() -> i32
//     llvm.func @nvshmem_ptr(!llvm.ptr, i32) -> !llvm.ptr
//     llvm.func ptx_kernelcc @ll_protocol(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}, %arg2: i32 {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "128"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(8 : i32) : i32
//       %1 = llvm.mlir.constant(128 : i32) : i32
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.poison : vector<1xi32>
//       %4 = llvm.mlir.constant(0 : i64) : i64
//       %5 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %6 = llvm.mlir.constant(1 : i32) : i32
//       %7 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %8 = llvm.mlir.constant(true) : i1
//       %9 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %10 = llvm.mlir.constant(32 : i64) : i64
//       %11 = llvm.mlir.poison : vector<1xi64>
//       %12 = llvm.mlir.zero : !llvm.ptr
//       %13 = llvm.mlir.poison : vector<1xi1>
//       %14 = llvm.mlir.constant(-4294967296 : i64) : i64
//       %15 = nvvm.read.ptx.sreg.tid.x : i32
//       %16 = llvm.mul %15, %0 overflow<nuw> : i32
//       %17 = llvm.udiv %16, %1 : i32
//       %18 = llvm.mul %15, %0 overflow<nuw> : i32
//       %19 = llvm.urem %18, %1 : i32
//       %20 = llvm.icmp "ult" %19, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %21 = llvm.add %17, %2 : i32
//       %22 = llvm.insertelement %21, %3[%4 : i64] : vector<1xi32>
//       %23 = llvm.shufflevector %22, %3 [0] : vector<1xi32> 
//       %24 = llvm.add %23, %5 : vector<1xi32>
//       %25 = llvm.call @nvshmem_my_pe() : () -> i32
//       %26 = llvm.add %25, %6 : i32
//       %27 = llvm.call @nvshmem_n_pes() : () -> i32
//       %28 = llvm.srem %26, %27 : i32
//       %29 = llvm.insertelement %arg0, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %30 = llvm.shufflevector %29, %7 [0] : vector<1x!llvm.ptr> 
//       %31 = llvm.sext %24 : vector<1xi32> to vector<1xi64>
//       %32 = llvm.getelementptr %30[%31] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %33 = llvm.addrspacecast %32 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %34 = llvm.intr.masked.gather %33, %9, %5 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xi32>) -> vector<1xi32>
//       %35 = llvm.zext %34 : vector<1xi32> to vector<1xi64>
//       %36 = llvm.zext %arg2 : i32 to i64
//       %37 = llvm.shl %36, %10 : i64
//       %38 = llvm.insertelement %37, %11[%4 : i64] : vector<1xi64>
//       %39 = llvm.shufflevector %38, %11 [0] : vector<1xi64> 
//       %40 = llvm.or %35, %39 : vector<1xi64>
//       %41 = llvm.insertelement %arg1, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %42 = llvm.shufflevector %41, %7 [0] : vector<1x!llvm.ptr> 
//       %43 = llvm.sext %24 : vector<1xi32> to vector<1xi64>
//       %44 = llvm.getelementptr %42[%43] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       %45 = llvm.extractelement %44[%4 : i64] : vector<1x!llvm.ptr>
//       %46 = llvm.call @nvshmem_ptr(%45, %28) : (!llvm.ptr, i32) -> !llvm.ptr
//       %47 = llvm.icmp "eq" %46, %12 : !llvm.ptr
//       llvm.cond_br %47, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.intr.trap
//       llvm.unreachable
//     ^bb3:  // pred: ^bb1
//       %48 = llvm.ptrtoint %45 : !llvm.ptr to i64
//       %49 = llvm.ptrtoint %46 : !llvm.ptr to i64
//       %50 = llvm.sub %49, %48 : i64
//       %51 = llvm.getelementptr %44[%50] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %52 = llvm.insertelement %20, %13[%4 : i64] : vector<1xi1>
//       %53 = llvm.shufflevector %52, %13 [0] : vector<1xi1> 
//       %54 = llvm.and %9, %53 : vector<1xi1>
//       %55 = llvm.extractelement %51[%4 : i64] : vector<1x!llvm.ptr>
//       %56 = llvm.extractelement %40[%4 : i64] : vector<1xi64>
//       %57 = llvm.extractelement %54[%4 : i64] : vector<1xi1>
//       llvm.cond_br %57, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       llvm.store %56, %55 atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       %58 = llvm.insertelement %arg1, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %59 = llvm.shufflevector %58, %7 [0] : vector<1x!llvm.ptr> 
//       %60 = llvm.sext %24 : vector<1xi32> to vector<1xi64>
//       %61 = llvm.getelementptr %59[%60] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%2) : (i32) -> ()
//       %62 = llvm.zext %arg2 : i32 to i64
//       %63 = llvm.shl %62, %10 : i64
//       %64 = llvm.extractelement %61[%4 : i64] : vector<1x!llvm.ptr>
//       llvm.cond_br %8, ^bb6, ^bb9(%4 : i64)
//     ^bb6:  // pred: ^bb5
//       llvm.br ^bb7
//     ^bb7:  // 2 preds: ^bb6, ^bb7
//       %65 = llvm.load volatile %64 {alignment = 8 : i64} : !llvm.ptr -> i64
//       %66 = llvm.and %65, %14 : i64
//       %67 = llvm.icmp "eq" %66, %63 : i64
//       llvm.cond_br %67, ^bb8, ^bb7
//     ^bb8:  // pred: ^bb7
//       llvm.br ^bb9(%65 : i64)
//     ^bb9(%68: i64):  // 2 preds: ^bb5, ^bb8
//       %69 = llvm.trunc %68 : i64 to i32
//       %70 = llvm.insertelement %69, %3[%4 : i64] : vector<1xi32>
//       %71 = llvm.insertelement %arg0, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %72 = llvm.shufflevector %71, %7 [0] : vector<1x!llvm.ptr> 
//       %73 = llvm.sext %24 : vector<1xi32> to vector<1xi64>
//       %74 = llvm.getelementptr %72[%73] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %75 = llvm.insertelement %20, %13[%4 : i64] : vector<1xi1>
//       %76 = llvm.shufflevector %75, %13 [0] : vector<1xi1> 
//       %77 = llvm.and %9, %76 : vector<1xi1>
//       %78 = llvm.addrspacecast %74 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %70, %78, %77 {alignment = 4 : i32} : vector<1xi32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
