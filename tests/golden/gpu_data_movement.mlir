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
// ; ModuleID = 'data_movement.gpu.ll'
// source_filename = "data_movement.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x bfloat>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat>, <1 x ptr addrspace(1)>, <1 x i1>) #1
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3
//
// ; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
// declare void @llvm.trap() #4
//
// declare void @nvshmem_getmem(ptr, ptr, i64, i32)
//
// declare i32 @nvshmem_my_pe()
//
// declare i32 @nvshmem_n_pes()
//
// declare ptr @nvshmem_ptr(ptr, i32)
//
// declare void @nvshmem_quiet()
//
// declare void @nvshmemx_getmem_nbi_block(ptr, ptr, i64, i32)
//
// declare void @nvshmemx_putmem_block(ptr, ptr, i64, i32)
//
// declare void @nvshmemx_putmem_nbi_warp(ptr, ptr, i64, i32)
//
// define ptx_kernel void @data_movement(ptr noundef %v0, i64 noundef %v1) #5 {
// entry:
//   %t9 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t10 = icmp ult i32 %t9, 32
//   %t15 = icmp eq i32 %t9, 0
//   %t24.m = mul nuw i32 %t9, 8
//   %t24 = udiv i32 %t24.m, 128
//   %t43.m = mul nuw i32 %t9, 8
//   %t43.k = urem i32 %t43.m, 128
//   %t43 = icmp ult i32 %t43.k, 8
//   br label %body
//
// body:                                             ; preds = %entry
//   %t1 = call i32 @nvshmem_my_pe()
//   %t2 = add i32 %t1, 1
//   %t3 = call i32 @nvshmem_n_pes()
//   %t4 = srem i32 %t2, %t3
//   %t5 = getelementptr bfloat, ptr %v0, i64 %v1
//   %t6 = mul i64 %v1, 2
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmemx_putmem_block(ptr %v0, ptr %t5, i64 %t6, i32 %t4) #6
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t7 = getelementptr bfloat, ptr %v0, i64 %v1
//   %t8 = mul i64 %v1, 2
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t10, label %one.do11, label %one.end12
//
// one.do11:                                         ; preds = %body
//   call void @nvshmemx_putmem_nbi_warp(ptr %v0, ptr %t7, i64 %t8, i32 %t4) #6
//   br label %one.end12
//
// one.end12:                                        ; preds = %one.do11, %body
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t13 = getelementptr bfloat, ptr %v0, i64 %v1
//   %t14 = mul i64 %v1, 2
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   br i1 %t15, label %one.do16, label %one.end17
//
// one.do16:                                         ; preds = %one.end12
//   call void @nvshmem_getmem(ptr %v0, ptr %t13, i64 %t14, i32 %t4) #6
//   br label %one.end17
//
// one.end17:                                        ; preds = %one.do16, %one.end12
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t18 = getelementptr bfloat, ptr %v0, i64 %v1
//   %t19 = mul i64 %v1, 2
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmemx_getmem_nbi_block(ptr %v0, ptr %t18, i64 %t19, i32 %t4) #6
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   call void @nvshmem_quiet()
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t20 = call ptr @nvshmem_ptr(ptr %v0, i32 %t4)
//   %t21 = icmp eq ptr %t20, null
//   br i1 %t21, label %null.trap22, label %null.ok23
//
// null.trap22:                                      ; preds = %one.end17
//   call void @llvm.trap()
//   unreachable
//
// null.ok23:                                        ; preds = %one.end17
//   %t25 = add i32 %t24, 0
//   %t26 = insertelement <1 x i32> poison, i32 %t25, i64 0
//   %t27 = shufflevector <1 x i32> %t26, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t28 = add <1 x i32> %t27, zeroinitializer
//   %t29 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t30 = shufflevector <1 x ptr> %t29, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t31 = sext <1 x i32> %t28 to <1 x i64>
//   %t32 = getelementptr bfloat, <1 x ptr> %t30, <1 x i64> %t31
//   %t33 = add i32 %t24, 0
//   %t34 = insertelement <1 x i32> poison, i32 %t33, i64 0
//   %t35 = shufflevector <1 x i32> %t34, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t36 = add <1 x i32> %t35, zeroinitializer
//   %t37 = insertelement <1 x ptr> poison, ptr %t20, i64 0
//   %t38 = shufflevector <1 x ptr> %t37, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t39 = sext <1 x i32> %t36 to <1 x i64>
//   %t40 = getelementptr bfloat, <1 x ptr> %t38, <1 x i64> %t39
//   %t41 = addrspacecast <1 x ptr> %t40 to <1 x ptr addrspace(1)>
//   %t42 = call <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)> align 2 %t41, <1 x i1> splat (i1 true), <1 x bfloat> zeroinitializer)
//   %t44 = insertelement <1 x i1> poison, i1 %t43, i64 0
//   %t45 = shufflevector <1 x i1> %t44, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t46 = and <1 x i1> splat (i1 true), %t45
//   %t47 = addrspacecast <1 x ptr> %t32 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat> %t42, <1 x ptr addrspace(1)> align 2 %t47, <1 x i1> %t46)
//   ret void
//
// dead48:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { cold noreturn nounwind memory(inaccessiblemem: write) }
// attributes #5 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
// attributes #6 = { noinline }
