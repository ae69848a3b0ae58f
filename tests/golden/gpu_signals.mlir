module {
  func.func @signals(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<i64>, %arg3: i64) attributes {weft.constexprs = {}, weft.params = ["dst", "src", "sig", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %c1_i64 = arith.constant 1 : i64
    "shmem.put_signal"(%arg0, %arg1, %arg3, %arg2, %c1_i64, %3) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_0 = arith.constant 1 : i64
    %4 = "tile.addptr"(%arg2, %c1_i64_0) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64 = arith.constant 2 : i64
    "shmem.signal_op"(%4, %c2_i64, %3) {sig_op = "add"} : (!tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_1 = arith.constant 1 : i64
    %5 = "shmem.signal_wait_until"(%arg2, %c1_i64_1) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %c1_i64_2 = arith.constant 1 : i64
    %6 = "tile.addptr"(%arg2, %c1_i64_2) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64_3 = arith.constant 2 : i64
    %7 = "shmem.signal_wait_until"(%6, %c2_i64_3) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %8 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %11 = "shmem.consume_token"(%10, %5) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %12 = "shmem.consume_token"(%11, %7) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %13 = "tile.load"(%12) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %14 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %15 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %16 = "tile.addptr"(%15, %14) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%16, %13) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    "shmem.fence"() : () -> ()
    "shmem.quiet"() : () -> ()
    "shmem.barrier_all"() : () -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// module attributes {gpu.container_module} {
//   gpu.module @signals [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.mlir.global internal @__weft_grid_count(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64, dso_local} : i32
//     llvm.mlir.global internal @__weft_grid_gen(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64, dso_local} : i32
//     llvm.mlir.global internal @__weft_token() {addr_space = 3 : i32, alignment = 8 : i64, dso_local} : i64 {
//       %0 = llvm.mlir.undef : i64
//       llvm.return %0 : i64
//     }
//     llvm.func @llvm.nvvm.barrier.cta.sync.aligned.all(i32) attributes {convergent, no_unwind, passthrough = ["nocallback"]}
//     llvm.func @nvshmem_fence()
//     llvm.func @nvshmem_my_pe() -> i32
//     llvm.func @nvshmem_n_pes() -> i32
//     llvm.func @nvshmem_quiet()
//     llvm.func @nvshmem_signal_wait_until(!llvm.ptr, i32, i64) -> i64
//     llvm.func @nvshmemx_barrier_all_block()
//     llvm.func @nvshmemx_putmem_signal_block(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32)
//     llvm.func @nvshmemx_signal_op(!llvm.ptr, i64, i32, i32)
//     llvm.func ptx_kernelcc @signals(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}, %arg2: !llvm.ptr {llvm.noundef}, %arg3: i64 {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "128"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(0 : i32) : i32
//       %1 = llvm.mlir.constant(4 : i32) : i32
//       %2 = llvm.mlir.constant(1 : i32) : i32
//       %3 = llvm.mlir.constant(4 : i64) : i64
//       %4 = llvm.mlir.constant(1 : i64) : i64
//       %5 = llvm.mlir.constant(9 : i32) : i32
//       %6 = llvm.mlir.constant(2 : i64) : i64
//       %7 = llvm.mlir.constant(10 : i32) : i32
//       %8 = llvm.mlir.constant(5 : i32) : i32
//       %9 = llvm.mlir.addressof @__weft_token : !llvm.ptr<3>
//       %10 = llvm.mlir.poison : vector<1xi32>
//       %11 = llvm.mlir.constant(0 : i64) : i64
//       %12 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %13 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %14 = llvm.mlir.constant(true) : i1
//       %15 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %16 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %17 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xf32>) : vector<1xf32>
//       %18 = llvm.mlir.poison : vector<1xi1>
//       %19 = llvm.mlir.addressof @__weft_grid_gen : !llvm.ptr<1>
//       %20 = llvm.mlir.addressof @__weft_grid_count : !llvm.ptr<1>
//       %21 = nvvm.read.ptx.sreg.tid.x : i32
//       %22 = llvm.icmp "eq" %21, %0 : i32
//       %23 = llvm.urem %21, %1 : i32
//       %24 = llvm.icmp "ult" %21, %1 : i32
//       %25 = nvvm.read.ptx.sreg.nctaid.x : i32
//       %26 = nvvm.read.ptx.sreg.nctaid.y : i32
//       %27 = nvvm.read.ptx.sreg.nctaid.z : i32
//       %28 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %29 = nvvm.read.ptx.sreg.ctaid.y : i32
//       %30 = nvvm.read.ptx.sreg.ctaid.z : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %31 = llvm.call @nvshmem_my_pe() : () -> i32
//       %32 = llvm.add %31, %2 : i32
//       %33 = llvm.call @nvshmem_n_pes() : () -> i32
//       %34 = llvm.srem %32, %33 : i32
//       %35 = llvm.mul %arg3, %3 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmemx_putmem_signal_block(%arg0, %arg1, %35, %arg2, %4, %5, %34) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %36 = llvm.getelementptr %arg2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %22, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.call @nvshmemx_signal_op(%36, %6, %7, %34) : (!llvm.ptr, i64, i32, i32) -> ()
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %22, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       %37 = llvm.call @nvshmem_signal_wait_until(%arg2, %8, %4) : (!llvm.ptr, i32, i64) -> i64
//       llvm.store %37, %9 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %38 = llvm.load %9 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %39 = llvm.getelementptr %arg2[%4] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %22, ^bb6, ^bb7
//     ^bb6:  // pred: ^bb5
//       %40 = llvm.call @nvshmem_signal_wait_until(%39, %0, %6) : (!llvm.ptr, i32, i64) -> i64
//       llvm.store %40, %9 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb7
//     ^bb7:  // 2 preds: ^bb5, ^bb6
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %41 = llvm.load %9 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %42 = llvm.add %23, %0 : i32
//       %43 = llvm.insertelement %42, %10[%11 : i64] : vector<1xi32>
//       %44 = llvm.shufflevector %43, %10 [0] : vector<1xi32> 
//       %45 = llvm.add %44, %12 : vector<1xi32>
//       %46 = llvm.insertelement %arg0, %13[%11 : i64] : vector<1x!llvm.ptr>
//       %47 = llvm.shufflevector %46, %13 [0] : vector<1x!llvm.ptr> 
//       %48 = llvm.sext %45 : vector<1xi32> to vector<1xi64>
//       %49 = llvm.getelementptr %47[%48] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %50 = llvm.inline_asm has_side_effects asm_dialect = att "and.b64 $0, $1, 0;", "=l,l" %38 : (i64) -> i64
//       %51 = llvm.getelementptr %49[%50] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %52 = llvm.inline_asm has_side_effects asm_dialect = att "and.b64 $0, $1, 0;", "=l,l" %41 : (i64) -> i64
//       %53 = llvm.getelementptr %51[%52] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %54 = llvm.addrspacecast %53 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %55 = llvm.intr.masked.gather %54, %15, %17 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xf32>) -> vector<1xf32>
//       %56 = llvm.add %23, %0 : i32
//       %57 = llvm.insertelement %56, %10[%11 : i64] : vector<1xi32>
//       %58 = llvm.shufflevector %57, %10 [0] : vector<1xi32> 
//       %59 = llvm.add %58, %12 : vector<1xi32>
//       %60 = llvm.insertelement %arg1, %13[%11 : i64] : vector<1x!llvm.ptr>
//       %61 = llvm.shufflevector %60, %13 [0] : vector<1x!llvm.ptr> 
//       %62 = llvm.sext %59 : vector<1xi32> to vector<1xi64>
//       %63 = llvm.getelementptr %61[%62] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %64 = llvm.insertelement %24, %18[%11 : i64] : vector<1xi1>
//       %65 = llvm.shufflevector %64, %18 [0] : vector<1xi1> 
//       %66 = llvm.and %15, %65 : vector<1xi1>
//       %67 = llvm.addrspacecast %63 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %55, %67, %66 {alignment = 4 : i32} : vector<1xf32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_fence() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %22, ^bb8, ^bb12
//     ^bb8:  // pred: ^bb7
//       %68 = llvm.mul %25, %26 : i32
//       %69 = llvm.mul %68, %27 : i32
//       %70 = llvm.sub %69, %2 : i32
//       llvm.fence acq_rel
//       %71 = llvm.load volatile %19 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %72 = llvm.atomicrmw add %20, %2 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %73 = llvm.icmp "eq" %72, %70 : i32
//       llvm.cond_br %73, ^bb9, ^bb10
//     ^bb9:  // pred: ^bb8
//       llvm.store %0, %20 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %74 = llvm.add %71, %2 : i32
//       llvm.store %74, %19 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb11
//     ^bb10:  // 2 preds: ^bb8, ^bb10
//       %75 = llvm.load volatile %19 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %76 = llvm.icmp "eq" %75, %71 : i32
//       llvm.cond_br %76, ^bb10, ^bb11
//     ^bb11:  // 2 preds: ^bb9, ^bb10
//       llvm.br ^bb12
//     ^bb12:  // 2 preds: ^bb7, ^bb11
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %77 = llvm.or %28, %29 : i32
//       %78 = llvm.or %77, %30 : i32
//       %79 = llvm.icmp "eq" %78, %0 : i32
//       llvm.cond_br %79, ^bb13, ^bb14
//     ^bb13:  // pred: ^bb12
//       llvm.call @nvshmemx_barrier_all_block() : () -> ()
//       llvm.br ^bb14
//     ^bb14:  // 2 preds: ^bb12, ^bb13
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %22, ^bb15, ^bb19
//     ^bb15:  // pred: ^bb14
//       %80 = llvm.mul %25, %26 : i32
//       %81 = llvm.mul %80, %27 : i32
//       %82 = llvm.sub %81, %2 : i32
//       llvm.fence acq_rel
//       %83 = llvm.load volatile %19 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %84 = llvm.atomicrmw add %20, %2 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %85 = llvm.icmp "eq" %84, %82 : i32
//       llvm.cond_br %85, ^bb16, ^bb17
//     ^bb16:  // pred: ^bb15
//       llvm.store %0, %20 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %86 = llvm.add %83, %2 : i32
//       llvm.store %86, %19 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb18
//     ^bb17:  // 2 preds: ^bb15, ^bb17
//       %87 = llvm.load volatile %19 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %88 = llvm.icmp "eq" %87, %83 : i32
//       llvm.cond_br %88, ^bb17, ^bb18
//     ^bb18:  // 2 preds: ^bb16, ^bb17
//       llvm.br ^bb19
//     ^bb19:  // 2 preds: ^bb14, ^bb18
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.return
//     }
//   }
// }
