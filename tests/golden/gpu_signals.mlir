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
// ; ModuleID = 'signals.gpu.ll'
// source_filename = "signals.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// @__weft_grid_count = internal addrspace(1) global i32 0, align 4
// @__weft_grid_gen = internal addrspace(1) global i32 0, align 4
// @__weft_token = internal addrspace(3) global i64 undef, align 8
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x float>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1f32.v1p1(<1 x float>, <1 x ptr addrspace(1)>, <1 x i1>) #1
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 1, 65536) i32 @llvm.nvvm.read.ptx.sreg.nctaid.y() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 1, 65536) i32 @llvm.nvvm.read.ptx.sreg.nctaid.z() #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3
//
// declare void @nvshmem_fence()
//
// declare i32 @nvshmem_my_pe()
//
// declare i32 @nvshmem_n_pes()
//
// declare void @nvshmem_quiet()
//
// declare i64 @nvshmem_signal_wait_until(ptr, i32, i64)
//
// declare void @nvshmemx_barrier_all_block()
//
// declare void @nvshmemx_putmem_signal_block(ptr, ptr, i64, ptr, i64, i32, i32)
//
// declare void @nvshmemx_signal_op(ptr, i64, i32, i32)
//
// define ptx_kernel void @signals(ptr noundef %v0, ptr noundef %v1, ptr noundef %v2, i64 noundef %v3) #4 {
// entry:
//   %t7 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t8 = icmp eq i32 %t7, 0
//   %t20.m = mul nuw i32 %t7, 4
//   %t20 = udiv i32 %t20.m, 128
//   %t43.m = mul nuw i32 %t7, 4
//   %t43.k = urem i32 %t43.m, 128
//   %t43 = icmp ult i32 %t43.k, 4
//   %t48 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
//   %t49 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
//   %t50 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
//   %t65 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
//   %t66 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
//   %t67 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
//   br label %body
//
// body:                                             ; preds = %entry
//   %t1 = call i32 @nvshmem_my_pe()
//   %t2 = add i32 %t1, 1
//   %t3 = call i32 @nvshmem_n_pes()
//   %t4 = srem i32 %t2, %t3
//   %t5 = mul i64 %v3, 4
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmemx_putmem_signal_block(ptr %v0, ptr %v1, i64 %t5, ptr %v2, i64 1, i32 9, i32 %t4) #5
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t6 = getelementptr i64, ptr %v2, i64 1
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t8, label %one.do9, label %one.end10
//
// one.do9:                                          ; preds = %body
//   call void @nvshmemx_signal_op(ptr %t6, i64 2, i32 10, i32 %t4)
//   br label %one.end10
//
// one.end10:                                        ; preds = %one.do9, %body
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t8, label %one.do11, label %one.end12
//
// one.do11:                                         ; preds = %one.end10
//   %t13 = call i64 @nvshmem_signal_wait_until(ptr %v2, i32 5, i64 1)
//   store i64 %t13, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end12
//
// one.end12:                                        ; preds = %one.do11, %one.end10
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t14 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t15 = getelementptr i64, ptr %v2, i64 1
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t8, label %one.do16, label %one.end17
//
// one.do16:                                         ; preds = %one.end12
//   %t18 = call i64 @nvshmem_signal_wait_until(ptr %t15, i32 0, i64 2)
//   store i64 %t18, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end17
//
// one.end17:                                        ; preds = %one.do16, %one.end12
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t19 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t21 = add i32 %t20, 0
//   %t22 = insertelement <1 x i32> poison, i32 %t21, i64 0
//   %t23 = shufflevector <1 x i32> %t22, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t24 = add <1 x i32> %t23, zeroinitializer
//   %t25 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t26 = shufflevector <1 x ptr> %t25, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t27 = sext <1 x i32> %t24 to <1 x i64>
//   %t28 = getelementptr float, <1 x ptr> %t26, <1 x i64> %t27
//   %t29 = call i64 asm sideeffect "and.b64 $0, $1, 0;", "=l,l"(i64 %t14)
//   %t30 = getelementptr i8, <1 x ptr> %t28, i64 %t29
//   %t31 = call i64 asm sideeffect "and.b64 $0, $1, 0;", "=l,l"(i64 %t19)
//   %t32 = getelementptr i8, <1 x ptr> %t30, i64 %t31
//   %t33 = addrspacecast <1 x ptr> %t32 to <1 x ptr addrspace(1)>
//   %t34 = call <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4 %t33, <1 x i1> splat (i1 true), <1 x float> zeroinitializer)
//   %t35 = add i32 %t20, 0
//   %t36 = insertelement <1 x i32> poison, i32 %t35, i64 0
//   %t37 = shufflevector <1 x i32> %t36, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t38 = add <1 x i32> %t37, zeroinitializer
//   %t39 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t40 = shufflevector <1 x ptr> %t39, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t41 = sext <1 x i32> %t38 to <1 x i64>
//   %t42 = getelementptr float, <1 x ptr> %t40, <1 x i64> %t41
//   %t44 = insertelement <1 x i1> poison, i1 %t43, i64 0
//   %t45 = shufflevector <1 x i1> %t44, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t46 = and <1 x i1> splat (i1 true), %t45
//   %t47 = addrspacecast <1 x ptr> %t42 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t34, <1 x ptr addrspace(1)> align 4 %t47, <1 x i1> %t46)
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmem_fence()
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmem_quiet()
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmem_quiet()
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t8, label %one.do51, label %one.end52
//
// one.do51:                                         ; preds = %one.end17
//   %t53 = mul i32 %t48, %t49
//   %t54 = mul i32 %t53, %t50
//   %t55 = sub i32 %t54, 1
//   fence acq_rel
//   %t56 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t57 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t58 = icmp eq i32 %t57, %t55
//   br i1 %t58, label %grid.reset59, label %grid.wait60
//
// grid.reset59:                                     ; preds = %one.do51
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t62 = add i32 %t56, 1
//   store atomic i32 %t62, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done61
//
// grid.wait60:                                      ; preds = %grid.wait60, %one.do51
//   %t63 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t64 = icmp eq i32 %t63, %t56
//   br i1 %t64, label %grid.wait60, label %grid.done61
//
// grid.done61:                                      ; preds = %grid.wait60, %grid.reset59
//   br label %one.end52
//
// one.end52:                                        ; preds = %grid.done61, %one.end17
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t68 = or i32 %t65, %t66
//   %t69 = or i32 %t68, %t67
//   %t70 = icmp eq i32 %t69, 0
//   br i1 %t70, label %one.do71, label %one.end72
//
// one.do71:                                         ; preds = %one.end52
//   call void @nvshmemx_barrier_all_block()
//   br label %one.end72
//
// one.end72:                                        ; preds = %one.do71, %one.end52
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t8, label %one.do73, label %one.end74
//
// one.do73:                                         ; preds = %one.end72
//   %t75 = mul i32 %t48, %t49
//   %t76 = mul i32 %t75, %t50
//   %t77 = sub i32 %t76, 1
//   fence acq_rel
//   %t78 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t79 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t80 = icmp eq i32 %t79, %t77
//   br i1 %t80, label %grid.reset81, label %grid.wait82
//
// grid.reset81:                                     ; preds = %one.do73
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t84 = add i32 %t78, 1
//   store atomic i32 %t84, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done83
//
// grid.wait82:                                      ; preds = %grid.wait82, %one.do73
//   %t85 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t86 = icmp eq i32 %t85, %t78
//   br i1 %t86, label %grid.wait82, label %grid.done83
//
// grid.done83:                                      ; preds = %grid.wait82, %grid.reset81
//   br label %one.end74
//
// one.end74:                                        ; preds = %grid.done83, %one.end72
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   ret void
//
// dead87:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
// attributes #5 = { noinline }
