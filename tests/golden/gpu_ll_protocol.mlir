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
//       %1 = llvm.mlir.constant(0 : i32) : i32
//       %2 = llvm.mlir.poison : vector<1xi32>
//       %3 = llvm.mlir.constant(0 : i64) : i64
//       %4 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %5 = llvm.mlir.constant(1 : i32) : i32
//       %6 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %7 = llvm.mlir.constant(true) : i1
//       %8 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %9 = llvm.mlir.constant(32 : i64) : i64
//       %10 = llvm.mlir.poison : vector<1xi64>
//       %11 = llvm.mlir.poison : vector<1xi1>
//       %12 = llvm.mlir.constant(-4294967296 : i64) : i64
//       %13 = nvvm.read.ptx.sreg.tid.x : i32
//       %14 = llvm.urem %13, %0 : i32
//       %15 = llvm.icmp "ult" %13, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %16 = llvm.add %14, %1 : i32
//       %17 = llvm.insertelement %16, %2[%3 : i64] : vector<1xi32>
//       %18 = llvm.shufflevector %17, %2 [0] : vector<1xi32> 
//       %19 = llvm.add %18, %4 : vector<1xi32>
//       %20 = llvm.call @nvshmem_my_pe() : () -> i32
//       %21 = llvm.add %20, %5 : i32
//       %22 = llvm.call @nvshmem_n_pes() : () -> i32
//       %23 = llvm.srem %21, %22 : i32
//       %24 = llvm.insertelement %arg0, %6[%3 : i64] : vector<1x!llvm.ptr>
//       %25 = llvm.shufflevector %24, %6 [0] : vector<1x!llvm.ptr> 
//       %26 = llvm.sext %19 : vector<1xi32> to vector<1xi64>
//       %27 = llvm.getelementptr %25[%26] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %28 = llvm.addrspacecast %27 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %29 = llvm.intr.masked.gather %28, %8, %4 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xi32>) -> vector<1xi32>
//       %30 = llvm.zext %29 : vector<1xi32> to vector<1xi64>
//       %31 = llvm.zext %arg2 : i32 to i64
//       %32 = llvm.shl %31, %9 : i64
//       %33 = llvm.insertelement %32, %10[%3 : i64] : vector<1xi64>
//       %34 = llvm.shufflevector %33, %10 [0] : vector<1xi64> 
//       %35 = llvm.or %30, %34 : vector<1xi64>
//       %36 = llvm.insertelement %arg1, %6[%3 : i64] : vector<1x!llvm.ptr>
//       %37 = llvm.shufflevector %36, %6 [0] : vector<1x!llvm.ptr> 
//       %38 = llvm.sext %19 : vector<1xi32> to vector<1xi64>
//       %39 = llvm.getelementptr %37[%38] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       %40 = llvm.extractelement %39[%3 : i64] : vector<1x!llvm.ptr>
//       %41 = llvm.call @nvshmem_ptr(%40, %23) : (!llvm.ptr, i32) -> !llvm.ptr
//       %42 = llvm.ptrtoint %40 : !llvm.ptr to i64
//       %43 = llvm.ptrtoint %41 : !llvm.ptr to i64
//       %44 = llvm.sub %43, %42 : i64
//       %45 = llvm.getelementptr %39[%44] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %46 = llvm.insertelement %15, %11[%3 : i64] : vector<1xi1>
//       %47 = llvm.shufflevector %46, %11 [0] : vector<1xi1> 
//       %48 = llvm.and %8, %47 : vector<1xi1>
//       %49 = llvm.addrspacecast %45 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %35, %49, %48 {alignment = 8 : i32} : vector<1xi64>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       %50 = llvm.insertelement %arg1, %6[%3 : i64] : vector<1x!llvm.ptr>
//       %51 = llvm.shufflevector %50, %6 [0] : vector<1x!llvm.ptr> 
//       %52 = llvm.sext %19 : vector<1xi32> to vector<1xi64>
//       %53 = llvm.getelementptr %51[%52] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %54 = llvm.zext %arg2 : i32 to i64
//       %55 = llvm.shl %54, %9 : i64
//       %56 = llvm.extractelement %53[%3 : i64] : vector<1x!llvm.ptr>
//       llvm.cond_br %7, ^bb2, ^bb5(%3 : i64)
//     ^bb2:  // pred: ^bb1
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb2, ^bb3
//       %57 = llvm.load volatile %56 {alignment = 8 : i64} : !llvm.ptr -> i64
//       %58 = llvm.and %57, %12 : i64
//       %59 = llvm.icmp "eq" %58, %55 : i64
//       llvm.cond_br %59, ^bb4, ^bb3
//     ^bb4:  // pred: ^bb3
//       llvm.br ^bb5(%57 : i64)
//     ^bb5(%60: i64):  // 2 preds: ^bb1, ^bb4
//       %61 = llvm.trunc %60 : i64 to i32
//       %62 = llvm.insertelement %61, %2[%3 : i64] : vector<1xi32>
//       %63 = llvm.insertelement %arg0, %6[%3 : i64] : vector<1x!llvm.ptr>
//       %64 = llvm.shufflevector %63, %6 [0] : vector<1x!llvm.ptr> 
//       %65 = llvm.sext %19 : vector<1xi32> to vector<1xi64>
//       %66 = llvm.getelementptr %64[%65] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %67 = llvm.insertelement %15, %11[%3 : i64] : vector<1xi1>
//       %68 = llvm.shufflevector %67, %11 [0] : vector<1xi1> 
//       %69 = llvm.and %8, %68 : vector<1xi1>
//       %70 = llvm.addrspacecast %66 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %62, %70, %69 {alignment = 4 : i32} : vector<1xi32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
