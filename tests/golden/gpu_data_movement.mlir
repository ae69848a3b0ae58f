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
//       %3 = llvm.mlir.constant(128 : i32) : i32
//       %4 = llvm.mlir.constant(1 : i32) : i32
//       %5 = llvm.mlir.constant(2 : i64) : i64
//       %6 = llvm.mlir.poison : vector<1xi32>
//       %7 = llvm.mlir.constant(0 : i64) : i64
//       %8 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %9 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %10 = llvm.mlir.constant(true) : i1
//       %11 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %12 = llvm.mlir.constant(0.000000e+00 : bf16) : bf16
//       %13 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xbf16>) : vector<1xbf16>
//       %14 = llvm.mlir.poison : vector<1xi1>
//       %15 = nvvm.read.ptx.sreg.tid.x : i32
//       %16 = llvm.icmp "ult" %15, %0 : i32
//       %17 = llvm.icmp "eq" %15, %1 : i32
//       %18 = llvm.mul %15, %2 overflow<nuw> : i32
//       %19 = llvm.udiv %18, %3 : i32
//       %20 = llvm.mul %15, %2 overflow<nuw> : i32
//       %21 = llvm.urem %20, %3 : i32
//       %22 = llvm.icmp "ult" %21, %2 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %23 = llvm.call @nvshmem_my_pe() : () -> i32
//       %24 = llvm.add %23, %4 : i32
//       %25 = llvm.call @nvshmem_n_pes() : () -> i32
//       %26 = llvm.srem %24, %25 : i32
//       %27 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %28 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_putmem_block(%arg0, %27, %28, %26) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %29 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %30 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %16, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.call @nvshmemx_putmem_nbi_warp(%arg0, %29, %30, %26) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %31 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %32 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %17, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       llvm.call @nvshmem_getmem(%arg0, %31, %32, %26) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %33 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %34 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_getmem_nbi_block(%arg0, %33, %34, %26) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %35 = llvm.call @nvshmem_ptr(%arg0, %26) : (!llvm.ptr, i32) -> !llvm.ptr
//       %36 = llvm.add %19, %1 : i32
//       %37 = llvm.insertelement %36, %6[%7 : i64] : vector<1xi32>
//       %38 = llvm.shufflevector %37, %6 [0] : vector<1xi32> 
//       %39 = llvm.add %38, %8 : vector<1xi32>
//       %40 = llvm.insertelement %arg0, %9[%7 : i64] : vector<1x!llvm.ptr>
//       %41 = llvm.shufflevector %40, %9 [0] : vector<1x!llvm.ptr> 
//       %42 = llvm.sext %39 : vector<1xi32> to vector<1xi64>
//       %43 = llvm.getelementptr %41[%42] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %44 = llvm.add %19, %1 : i32
//       %45 = llvm.insertelement %44, %6[%7 : i64] : vector<1xi32>
//       %46 = llvm.shufflevector %45, %6 [0] : vector<1xi32> 
//       %47 = llvm.add %46, %8 : vector<1xi32>
//       %48 = llvm.insertelement %35, %9[%7 : i64] : vector<1x!llvm.ptr>
//       %49 = llvm.shufflevector %48, %9 [0] : vector<1x!llvm.ptr> 
//       %50 = llvm.sext %47 : vector<1xi32> to vector<1xi64>
//       %51 = llvm.getelementptr %49[%50] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %52 = llvm.addrspacecast %51 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %53 = llvm.intr.masked.gather %52, %11, %13 {alignment = 2 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xbf16>) -> vector<1xbf16>
//       %54 = llvm.insertelement %22, %14[%7 : i64] : vector<1xi1>
//       %55 = llvm.shufflevector %54, %14 [0] : vector<1xi1> 
//       %56 = llvm.and %11, %55 : vector<1xi1>
//       %57 = llvm.addrspacecast %43 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %53, %57, %56 {alignment = 2 : i32} : vector<1xbf16>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
