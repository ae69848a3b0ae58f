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
//       %12 = llvm.mlir.poison : vector<1xi1>
//       %13 = llvm.mlir.constant(-4294967296 : i64) : i64
//       %14 = nvvm.read.ptx.sreg.tid.x : i32
//       %15 = llvm.mul %14, %0 overflow<nuw> : i32
//       %16 = llvm.udiv %15, %1 : i32
//       %17 = llvm.mul %14, %0 overflow<nuw> : i32
//       %18 = llvm.urem %17, %1 : i32
//       %19 = llvm.icmp "ult" %18, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %20 = llvm.add %16, %2 : i32
//       %21 = llvm.insertelement %20, %3[%4 : i64] : vector<1xi32>
//       %22 = llvm.shufflevector %21, %3 [0] : vector<1xi32> 
//       %23 = llvm.add %22, %5 : vector<1xi32>
//       %24 = llvm.call @nvshmem_my_pe() : () -> i32
//       %25 = llvm.add %24, %6 : i32
//       %26 = llvm.call @nvshmem_n_pes() : () -> i32
//       %27 = llvm.srem %25, %26 : i32
//       %28 = llvm.insertelement %arg0, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %29 = llvm.shufflevector %28, %7 [0] : vector<1x!llvm.ptr> 
//       %30 = llvm.sext %23 : vector<1xi32> to vector<1xi64>
//       %31 = llvm.getelementptr %29[%30] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %32 = llvm.addrspacecast %31 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %33 = llvm.intr.masked.gather %32, %9, %5 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xi32>) -> vector<1xi32>
//       %34 = llvm.zext %33 : vector<1xi32> to vector<1xi64>
//       %35 = llvm.zext %arg2 : i32 to i64
//       %36 = llvm.shl %35, %10 : i64
//       %37 = llvm.insertelement %36, %11[%4 : i64] : vector<1xi64>
//       %38 = llvm.shufflevector %37, %11 [0] : vector<1xi64> 
//       %39 = llvm.or %34, %38 : vector<1xi64>
//       %40 = llvm.insertelement %arg1, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %41 = llvm.shufflevector %40, %7 [0] : vector<1x!llvm.ptr> 
//       %42 = llvm.sext %23 : vector<1xi32> to vector<1xi64>
//       %43 = llvm.getelementptr %41[%42] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       %44 = llvm.extractelement %43[%4 : i64] : vector<1x!llvm.ptr>
//       %45 = llvm.call @nvshmem_ptr(%44, %27) : (!llvm.ptr, i32) -> !llvm.ptr
//       %46 = llvm.ptrtoint %44 : !llvm.ptr to i64
//       %47 = llvm.ptrtoint %45 : !llvm.ptr to i64
//       %48 = llvm.sub %47, %46 : i64
//       %49 = llvm.getelementptr %43[%48] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %50 = llvm.insertelement %19, %12[%4 : i64] : vector<1xi1>
//       %51 = llvm.shufflevector %50, %12 [0] : vector<1xi1> 
//       %52 = llvm.and %9, %51 : vector<1xi1>
//       %53 = llvm.addrspacecast %49 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %39, %53, %52 {alignment = 8 : i32} : vector<1xi64>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       %54 = llvm.insertelement %arg1, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %55 = llvm.shufflevector %54, %7 [0] : vector<1x!llvm.ptr> 
//       %56 = llvm.sext %23 : vector<1xi32> to vector<1xi64>
//       %57 = llvm.getelementptr %55[%56] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%2) : (i32) -> ()
//       %58 = llvm.zext %arg2 : i32 to i64
//       %59 = llvm.shl %58, %10 : i64
//       %60 = llvm.extractelement %57[%4 : i64] : vector<1x!llvm.ptr>
//       llvm.cond_br %8, ^bb2, ^bb5(%4 : i64)
//     ^bb2:  // pred: ^bb1
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb2, ^bb3
//       %61 = llvm.load volatile %60 {alignment = 8 : i64} : !llvm.ptr -> i64
//       %62 = llvm.and %61, %13 : i64
//       %63 = llvm.icmp "eq" %62, %59 : i64
//       llvm.cond_br %63, ^bb4, ^bb3
//     ^bb4:  // pred: ^bb3
//       llvm.br ^bb5(%61 : i64)
//     ^bb5(%64: i64):  // 2 preds: ^bb1, ^bb4
//       %65 = llvm.trunc %64 : i64 to i32
//       %66 = llvm.insertelement %65, %3[%4 : i64] : vector<1xi32>
//       %67 = llvm.insertelement %arg0, %7[%4 : i64] : vector<1x!llvm.ptr>
//       %68 = llvm.shufflevector %67, %7 [0] : vector<1x!llvm.ptr> 
//       %69 = llvm.sext %23 : vector<1xi32> to vector<1xi64>
//       %70 = llvm.getelementptr %68[%69] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %71 = llvm.insertelement %19, %12[%4 : i64] : vector<1xi1>
//       %72 = llvm.shufflevector %71, %12 [0] : vector<1xi1> 
//       %73 = llvm.and %9, %72 : vector<1xi1>
//       %74 = llvm.addrspacecast %70 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %66, %74, %73 {alignment = 4 : i32} : vector<1xi32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
