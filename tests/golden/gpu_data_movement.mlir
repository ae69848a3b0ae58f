module {
  func.func @data_movement(%arg0: !tile.ptr<bf16>, %arg1: i64) attributes {weft.constexprs = {}, weft.params = ["buf", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %4 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %4, %arg1, %3) {nbi = "false", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %5 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %5, %arg1, %3) {nbi = "true", scope = "warp"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %6 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %6, %arg1, %3) {nbi = "false", scope = "thread"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %7 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %7, %arg1, %3) {nbi = "true", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    "shmem.quiet"() : () -> ()
    %8 = "shmem.remote_ptr"(%arg0, %3) : (!tile.ptr<bf16>, i32) -> !tile.ptr<bf16>
    %9 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %11 = "tile.addptr"(%10, %9) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %12 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %13 = "tile.splat"(%8) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %14 = "tile.addptr"(%13, %12) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %15 = "tile.load"(%14) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<bf16>>) -> tensor<8xbf16>
    "tile.store"(%11, %15) : (tensor<8x!tile.ptr<bf16>>, tensor<8xbf16>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @data_movement [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func @nvshmem_getmem(!llvm.ptr, !llvm.ptr, i64, i32)
//     llvm.func @nvshmem_my_pe() -> i32
//     llvm.func @nvshmem_n_pes() -> i32
//     llvm.func @nvshmem_ptr(!llvm.ptr, i32) -> !llvm.ptr
//     llvm.func @nvshmem_quiet()
//     llvm.func @nvshmemx_getmem_nbi_block(!llvm.ptr, !llvm.ptr, i64, i32)
//     llvm.func @nvshmemx_putmem_block(!llvm.ptr, !llvm.ptr, i64, i32)
//     llvm.func @nvshmemx_putmem_nbi_warp(!llvm.ptr, !llvm.ptr, i64, i32)
//     llvm.func ptx_kernelcc @data_movement(%arg0: !llvm.ptr {llvm.noundef}, %arg1: i64 {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "128"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(32 : i32) : i32
//       %1 = llvm.mlir.constant(0 : i32) : i32
//       %2 = llvm.mlir.constant(8 : i32) : i32
//       %3 = llvm.mlir.constant(1 : i32) : i32
//       %4 = llvm.mlir.constant(2 : i64) : i64
//       %5 = llvm.mlir.poison : vector<1xi32>
//       %6 = llvm.mlir.constant(0 : i64) : i64
//       %7 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %8 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %9 = llvm.mlir.constant(true) : i1
//       %10 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %11 = llvm.mlir.constant(0.000000e+00 : bf16) : bf16
//       %12 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xbf16>) : vector<1xbf16>
//       %13 = llvm.mlir.poison : vector<1xi1>
//       %14 = nvvm.read.ptx.sreg.tid.x : i32
//       %15 = llvm.icmp "ult" %14, %0 : i32
//       %16 = llvm.icmp "eq" %14, %1 : i32
//       %17 = llvm.urem %14, %2 : i32
//       %18 = llvm.icmp "ult" %14, %2 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %19 = llvm.call @nvshmem_my_pe() : () -> i32
//       %20 = llvm.add %19, %3 : i32
//       %21 = llvm.call @nvshmem_n_pes() : () -> i32
//       %22 = llvm.srem %20, %21 : i32
//       %23 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %24 = llvm.mul %arg1, %4 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_putmem_block(%arg0, %23, %24, %22) : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %25 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %26 = llvm.mul %arg1, %4 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %15, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.call @nvshmemx_putmem_nbi_warp(%arg0, %25, %26, %22) : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %27 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %28 = llvm.mul %arg1, %4 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %16, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       llvm.call @nvshmem_getmem(%arg0, %27, %28, %22) : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %29 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %30 = llvm.mul %arg1, %4 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_getmem_nbi_block(%arg0, %29, %30, %22) : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %31 = llvm.call @nvshmem_ptr(%arg0, %22) : (!llvm.ptr, i32) -> !llvm.ptr
//       %32 = llvm.add %17, %1 : i32
//       %33 = llvm.insertelement %32, %5[%6 : i64] : vector<1xi32>
//       %34 = llvm.shufflevector %33, %5 [0] : vector<1xi32> 
//       %35 = llvm.add %34, %7 : vector<1xi32>
//       %36 = llvm.insertelement %arg0, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %37 = llvm.shufflevector %36, %8 [0] : vector<1x!llvm.ptr> 
//       %38 = llvm.sext %35 : vector<1xi32> to vector<1xi64>
//       %39 = llvm.getelementptr %37[%38] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %40 = llvm.add %17, %1 : i32
//       %41 = llvm.insertelement %40, %5[%6 : i64] : vector<1xi32>
//       %42 = llvm.shufflevector %41, %5 [0] : vector<1xi32> 
//       %43 = llvm.add %42, %7 : vector<1xi32>
//       %44 = llvm.insertelement %31, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %45 = llvm.shufflevector %44, %8 [0] : vector<1x!llvm.ptr> 
//       %46 = llvm.sext %43 : vector<1xi32> to vector<1xi64>
//       %47 = llvm.getelementptr %45[%46] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %48 = llvm.addrspacecast %47 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %49 = llvm.intr.masked.gather %48, %10, %12 {alignment = 2 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xbf16>) -> vector<1xbf16>
//       %50 = llvm.insertelement %18, %13[%6 : i64] : vector<1xi1>
//       %51 = llvm.shufflevector %50, %13 [0] : vector<1xi1> 
//       %52 = llvm.and %10, %51 : vector<1xi1>
//       %53 = llvm.addrspacecast %39 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %49, %53, %52 {alignment = 2 : i32} : vector<1xbf16>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
