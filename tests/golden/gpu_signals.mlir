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
//       %2 = llvm.mlir.constant(128 : i32) : i32
//       %3 = llvm.mlir.constant(1 : i32) : i32
//       %4 = llvm.mlir.constant(4 : i64) : i64
//       %5 = llvm.mlir.constant(1 : i64) : i64
//       %6 = llvm.mlir.constant(9 : i32) : i32
//       %7 = llvm.mlir.constant(2 : i64) : i64
//       %8 = llvm.mlir.constant(10 : i32) : i32
//       %9 = llvm.mlir.constant(5 : i32) : i32
//       %10 = llvm.mlir.addressof @__weft_token : !llvm.ptr<3>
//       %11 = llvm.mlir.poison : vector<1xi32>
//       %12 = llvm.mlir.constant(0 : i64) : i64
//       %13 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %14 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %15 = llvm.mlir.constant(true) : i1
//       %16 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %17 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %18 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xf32>) : vector<1xf32>
//       %19 = llvm.mlir.poison : vector<1xi1>
//       %20 = llvm.mlir.addressof @__weft_grid_gen : !llvm.ptr<1>
//       %21 = llvm.mlir.addressof @__weft_grid_count : !llvm.ptr<1>
//       %22 = nvvm.read.ptx.sreg.tid.x : i32
//       %23 = llvm.icmp "eq" %22, %0 : i32
//       %24 = llvm.mul %22, %1 overflow<nuw> : i32
//       %25 = llvm.udiv %24, %2 : i32
//       %26 = llvm.mul %22, %1 overflow<nuw> : i32
//       %27 = llvm.urem %26, %2 : i32
//       %28 = llvm.icmp "ult" %27, %1 : i32
//       %29 = nvvm.read.ptx.sreg.nctaid.x : i32
//       %30 = nvvm.read.ptx.sreg.nctaid.y : i32
//       %31 = nvvm.read.ptx.sreg.nctaid.z : i32
//       %32 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %33 = nvvm.read.ptx.sreg.ctaid.y : i32
//       %34 = nvvm.read.ptx.sreg.ctaid.z : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %35 = llvm.call @nvshmem_my_pe() : () -> i32
//       %36 = llvm.add %35, %3 : i32
//       %37 = llvm.call @nvshmem_n_pes() : () -> i32
//       %38 = llvm.srem %36, %37 : i32
//       %39 = llvm.mul %arg3, %4 : i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmemx_putmem_signal_block(%arg0, %arg1, %39, %arg2, %5, %6, %38) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, i32, i32) -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %40 = llvm.getelementptr %arg2[%5] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %23, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.call @nvshmemx_signal_op(%40, %7, %8, %38) : (!llvm.ptr, i64, i32, i32) -> ()
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %23, ^bb4, ^bb5
//     ^bb4:  // pred: ^bb3
//       %41 = llvm.call @nvshmem_signal_wait_until(%arg2, %9, %5) : (!llvm.ptr, i32, i64) -> i64
//       llvm.store %41, %10 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb3, ^bb4
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %42 = llvm.load %10 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %43 = llvm.getelementptr %arg2[%5] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %23, ^bb6, ^bb7
//     ^bb6:  // pred: ^bb5
//       %44 = llvm.call @nvshmem_signal_wait_until(%43, %0, %7) : (!llvm.ptr, i32, i64) -> i64
//       llvm.store %44, %10 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb7
//     ^bb7:  // 2 preds: ^bb5, ^bb6
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %45 = llvm.load %10 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %46 = llvm.add %25, %0 : i32
//       %47 = llvm.insertelement %46, %11[%12 : i64] : vector<1xi32>
//       %48 = llvm.shufflevector %47, %11 [0] : vector<1xi32> 
//       %49 = llvm.add %48, %13 : vector<1xi32>
//       %50 = llvm.insertelement %arg0, %14[%12 : i64] : vector<1x!llvm.ptr>
//       %51 = llvm.shufflevector %50, %14 [0] : vector<1x!llvm.ptr> 
//       %52 = llvm.sext %49 : vector<1xi32> to vector<1xi64>
//       %53 = llvm.getelementptr %51[%52] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %54 = llvm.inline_asm has_side_effects asm_dialect = att "and.b64 $0, $1, 0;", "=l,l" %42 : (i64) -> i64
//       %55 = llvm.getelementptr %53[%54] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %56 = llvm.inline_asm has_side_effects asm_dialect = att "and.b64 $0, $1, 0;", "=l,l" %45 : (i64) -> i64
//       %57 = llvm.getelementptr %55[%56] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %58 = llvm.addrspacecast %57 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %59 = llvm.intr.masked.gather %58, %16, %18 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xf32>) -> vector<1xf32>
//       %60 = llvm.add %25, %0 : i32
//       %61 = llvm.insertelement %60, %11[%12 : i64] : vector<1xi32>
//       %62 = llvm.shufflevector %61, %11 [0] : vector<1xi32> 
//       %63 = llvm.add %62, %13 : vector<1xi32>
//       %64 = llvm.insertelement %arg1, %14[%12 : i64] : vector<1x!llvm.ptr>
//       %65 = llvm.shufflevector %64, %14 [0] : vector<1x!llvm.ptr> 
//       %66 = llvm.sext %63 : vector<1xi32> to vector<1xi64>
//       %67 = llvm.getelementptr %65[%66] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %68 = llvm.insertelement %28, %19[%12 : i64] : vector<1xi1>
//       %69 = llvm.shufflevector %68, %19 [0] : vector<1xi1> 
//       %70 = llvm.and %16, %69 : vector<1xi1>
//       %71 = llvm.addrspacecast %67 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %59, %71, %70 {alignment = 4 : i32} : vector<1xf32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_fence() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.call @nvshmem_quiet() : () -> ()
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %23, ^bb8, ^bb12
//     ^bb8:  // pred: ^bb7
//       %72 = llvm.mul %29, %30 : i32
//       %73 = llvm.mul %72, %31 : i32
//       %74 = llvm.sub %73, %3 : i32
//       llvm.fence acq_rel
//       %75 = llvm.load volatile %20 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %76 = llvm.atomicrmw add %21, %3 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %77 = llvm.icmp "eq" %76, %74 : i32
//       llvm.cond_br %77, ^bb9, ^bb10
//     ^bb9:  // pred: ^bb8
//       llvm.store %0, %21 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %78 = llvm.add %75, %3 : i32
//       llvm.store %78, %20 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb11
//     ^bb10:  // 2 preds: ^bb8, ^bb10
//       %79 = llvm.load volatile %20 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %80 = llvm.icmp "eq" %79, %75 : i32
//       llvm.cond_br %80, ^bb10, ^bb11
//     ^bb11:  // 2 preds: ^bb9, ^bb10
//       llvm.br ^bb12
//     ^bb12:  // 2 preds: ^bb7, ^bb11
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       %81 = llvm.or %32, %33 : i32
//       %82 = llvm.or %81, %34 : i32
//       %83 = llvm.icmp "eq" %82, %0 : i32
//       llvm.cond_br %83, ^bb13, ^bb14
//     ^bb13:  // pred: ^bb12
//       llvm.call @nvshmemx_barrier_all_block() : () -> ()
//       llvm.br ^bb14
//     ^bb14:  // 2 preds: ^bb12, ^bb13
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.cond_br %23, ^bb15, ^bb19
//     ^bb15:  // pred: ^bb14
//       %84 = llvm.mul %29, %30 : i32
//       %85 = llvm.mul %84, %31 : i32
//       %86 = llvm.sub %85, %3 : i32
//       llvm.fence acq_rel
//       %87 = llvm.load volatile %20 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %88 = llvm.atomicrmw add %21, %3 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %89 = llvm.icmp "eq" %88, %86 : i32
//       llvm.cond_br %89, ^bb16, ^bb17
//     ^bb16:  // pred: ^bb15
//       llvm.store %0, %21 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %90 = llvm.add %87, %3 : i32
//       llvm.store %90, %20 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb18
//     ^bb17:  // 2 preds: ^bb15, ^bb17
//       %91 = llvm.load volatile %20 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %92 = llvm.icmp "eq" %91, %87 : i32
//       llvm.cond_br %92, ^bb17, ^bb18
//     ^bb18:  // 2 preds: ^bb16, ^bb17
//       llvm.br ^bb19
//     ^bb19:  // 2 preds: ^bb14, ^bb18
//       llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%0) : (i32) -> ()
//       llvm.return
//     }
//   }
// }
