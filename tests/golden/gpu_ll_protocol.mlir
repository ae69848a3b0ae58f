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
// ; ModuleID = 'll_protocol.gpu.ll'
// source_filename = "ll_protocol.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x i32> @llvm.masked.gather.v1i32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x i32>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1i32.v1p1(<1 x i32>, <1 x ptr addrspace(1)>, <1 x i1>) #1
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
// declare i32 @nvshmem_my_pe()
//
// declare i32 @nvshmem_n_pes()
//
// declare ptr @nvshmem_ptr(ptr, i32)
//
// define ptx_kernel void @ll_protocol(ptr noundef %v0, ptr noundef %v1, i32 noundef %v2) #5 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2.m = mul nuw i32 %t1, 8
//   %t2 = udiv i32 %t2.m, 128
//   %t36.m = mul nuw i32 %t1, 8
//   %t36.k = urem i32 %t36.m, 128
//   %t36 = icmp ult i32 %t36.k, 8
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t6 = add <1 x i32> %t5, zeroinitializer
//   %t7 = call i32 @nvshmem_my_pe()
//   %t8 = add i32 %t7, 1
//   %t9 = call i32 @nvshmem_n_pes()
//   %t10 = srem i32 %t8, %t9
//   %t11 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t12 = shufflevector <1 x ptr> %t11, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t13 = sext <1 x i32> %t6 to <1 x i64>
//   %t14 = getelementptr i32, <1 x ptr> %t12, <1 x i64> %t13
//   %t15 = addrspacecast <1 x ptr> %t14 to <1 x ptr addrspace(1)>
//   %t16 = call <1 x i32> @llvm.masked.gather.v1i32.v1p1(<1 x ptr addrspace(1)> align 4 %t15, <1 x i1> splat (i1 true), <1 x i32> zeroinitializer)
//   %t17 = zext <1 x i32> %t16 to <1 x i64>
//   %t18 = zext i32 %v2 to i64
//   %t19 = shl i64 %t18, 32
//   %t20 = insertelement <1 x i64> poison, i64 %t19, i64 0
//   %t21 = shufflevector <1 x i64> %t20, <1 x i64> poison, <1 x i32> zeroinitializer
//   %t22 = or <1 x i64> %t17, %t21
//   %t23 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t24 = shufflevector <1 x ptr> %t23, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t25 = sext <1 x i32> %t6 to <1 x i64>
//   %t26 = getelementptr i64, <1 x ptr> %t24, <1 x i64> %t25
//   %t27 = extractelement <1 x ptr> %t26, i64 0
//   %t28 = call ptr @nvshmem_ptr(ptr %t27, i32 %t10)
//   %t29 = icmp eq ptr %t28, null
//   br i1 %t29, label %null.trap30, label %null.ok31
//
// null.trap30:                                      ; preds = %body
//   call void @llvm.trap()
//   unreachable
//
// null.ok31:                                        ; preds = %body
//   %t32 = ptrtoint ptr %t27 to i64
//   %t33 = ptrtoint ptr %t28 to i64
//   %t34 = sub i64 %t33, %t32
//   %t35 = getelementptr i8, <1 x ptr> %t26, i64 %t34
//   %t37 = insertelement <1 x i1> poison, i1 %t36, i64 0
//   %t38 = shufflevector <1 x i1> %t37, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t39 = and <1 x i1> splat (i1 true), %t38
//   %t40 = extractelement <1 x ptr> %t35, i64 0
//   %t41 = extractelement <1 x i64> %t22, i64 0
//   %t42 = extractelement <1 x i1> %t39, i64 0
//   br i1 %t42, label %one.do43, label %one.end44
//
// one.do43:                                         ; preds = %null.ok31
//   store atomic i64 %t41, ptr %t40 monotonic, align 8
//   br label %one.end44
//
// one.end44:                                        ; preds = %one.do43, %null.ok31
//   %t45 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t46 = shufflevector <1 x ptr> %t45, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t47 = sext <1 x i32> %t6 to <1 x i64>
//   %t48 = getelementptr i64, <1 x ptr> %t46, <1 x i64> %t47
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t49 = zext i32 %v2 to i64
//   %t50 = shl i64 %t49, 32
//   %t51 = extractelement <1 x ptr> %t48, i64 0
//   br i1 true, label %one.do52, label %one.end53
//
// one.do52:                                         ; preds = %one.end44
//   br label %ll.poll54
//
// ll.poll54:                                        ; preds = %ll.poll54, %one.do52
//   %t56 = load volatile i64, ptr %t51, align 8
//   %t57 = and i64 %t56, -4294967296
//   %t58 = icmp eq i64 %t57, %t50
//   br i1 %t58, label %ll.got55, label %ll.poll54
//
// ll.got55:                                         ; preds = %ll.poll54
//   br label %one.end53
//
// one.end53:                                        ; preds = %ll.got55, %one.end44
//   %t59 = phi i64 [ %t56, %ll.got55 ], [ 0, %one.end44 ]
//   %t60 = trunc i64 %t59 to i32
//   %t61 = insertelement <1 x i32> poison, i32 %t60, i64 0
//   %t62 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t63 = shufflevector <1 x ptr> %t62, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t64 = sext <1 x i32> %t6 to <1 x i64>
//   %t65 = getelementptr i32, <1 x ptr> %t63, <1 x i64> %t64
//   %t66 = insertelement <1 x i1> poison, i1 %t36, i64 0
//   %t67 = shufflevector <1 x i1> %t66, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t68 = and <1 x i1> splat (i1 true), %t67
//   %t69 = addrspacecast <1 x ptr> %t65 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1i32.v1p1(<1 x i32> %t61, <1 x ptr addrspace(1)> align 4 %t69, <1 x i1> %t68)
//   ret void
//
// dead70:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { cold noreturn nounwind memory(inaccessiblemem: write) }
// attributes #5 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
