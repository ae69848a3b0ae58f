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
//       %6 = llvm.mlir.zero : !llvm.ptr
//       %7 = llvm.mlir.poison : vector<1xi32>
//       %8 = llvm.mlir.constant(0 : i64) : i64
//       %9 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %10 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %11 = llvm.mlir.constant(true) : i1
//       %12 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %13 = llvm.mlir.constant(0.000000e+00 : bf16) : bf16
//       %14 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xbf16>) : vector<1xbf16>
//       %15 = llvm.mlir.poison : vector<1xi1>
//       %16 = nvvm.read.ptx.sreg.tid.x : i32
//       %17 = llvm.icmp "ult" %16, %0 : i32
//       %18 = llvm.icmp "eq" %16, %1 : i32
//       %19 = llvm.mul %16, %2 overflow<nuw> : i32
//       %20 = llvm.udiv %19, %3 : i32
//       %21 = llvm.mul %16, %2 overflow<nuw> : i32
//       %22 = llvm.urem %21, %3 : i32
//       %23 = llvm.icmp "ult" %22, %2 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %24 = llvm.call @nvshmem_my_pe() : () -> i32
//       %25 = llvm.add %24, %4 : i32
//       %26 = llvm.call @nvshmem_n_pes() : () -> i32
//       %27 = llvm.srem %25, %26 : i32
//       %28 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %29 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_putmem_block(%arg0, %28, %29, %27) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %30 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %31 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %17, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.call @nvshmemx_putmem_nbi_warp(%arg0, %30, %31, %27) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %32 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %33 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.cond_br %18, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       llvm.call @nvshmem_getmem(%arg0, %32, %33, %27) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %34 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       %35 = llvm.mul %arg1, %5 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmemx_getmem_nbi_block(%arg0, %34, %35, %27) {no_inline} : (!llvm.ptr, !llvm.ptr, i64, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%1) : (i32) -> ()
//       %36 = llvm.call @nvshmem_ptr(%arg0, %27) : (!llvm.ptr, i32) -> !llvm.ptr
//       %37 = llvm.icmp "eq" %36, %6 : !llvm.ptr
//       llvm.cond_br %37, ^bb6, ^bb7
//     ^bb6:  // pred: ^bb5
//       llvm.intr.trap
//       llvm.unreachable
//     ^bb7:  // pred: ^bb5
//       %38 = llvm.add %20, %1 : i32
//       %39 = llvm.insertelement %38, %7[%8 : i64] : vector<1xi32>
//       %40 = llvm.shufflevector %39, %7 [0] : vector<1xi32> 
//       %41 = llvm.add %40, %9 : vector<1xi32>
//       %42 = llvm.insertelement %arg0, %10[%8 : i64] : vector<1x!llvm.ptr>
//       %43 = llvm.shufflevector %42, %10 [0] : vector<1x!llvm.ptr> 
//       %44 = llvm.sext %41 : vector<1xi32> to vector<1xi64>
//       %45 = llvm.getelementptr %43[%44] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %46 = llvm.add %20, %1 : i32
//       %47 = llvm.insertelement %46, %7[%8 : i64] : vector<1xi32>
//       %48 = llvm.shufflevector %47, %7 [0] : vector<1xi32> 
//       %49 = llvm.add %48, %9 : vector<1xi32>
//       %50 = llvm.insertelement %36, %10[%8 : i64] : vector<1x!llvm.ptr>
//       %51 = llvm.shufflevector %50, %10 [0] : vector<1x!llvm.ptr> 
//       %52 = llvm.sext %49 : vector<1xi32> to vector<1xi64>
//       %53 = llvm.getelementptr %51[%52] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %54 = llvm.addrspacecast %53 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %55 = llvm.intr.masked.gather %54, %12, %14 {alignment = 2 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xbf16>) -> vector<1xbf16>
//       %56 = llvm.insertelement %23, %15[%8 : i64] : vector<1xi1>
//       %57 = llvm.shufflevector %56, %15 [0] : vector<1xi1> 
//       %58 = llvm.and %12, %57 : vector<1xi1>
//       %59 = llvm.addrspacecast %45 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %55, %59, %58 {alignment = 2 : i32} : vector<1xbf16>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
