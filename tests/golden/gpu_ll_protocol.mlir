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
// ; weft kernel `ll_protocol` for sm_90a: one CTA of 4 warps (128 threads) per program instance
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// declare <1 x i32> @llvm.masked.gather.v1i32.v1p0(<1 x ptr> align 4, <1 x i1>, <1 x i32>)
// declare void @llvm.masked.scatter.v1i32.v1p0(<1 x i32>, <1 x ptr> align 4, <1 x i1>)
// declare void @llvm.masked.scatter.v1i64.v1p0(<1 x i64>, <1 x ptr> align 8, <1 x i1>)
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
// declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// declare i32 @nvshmem_my_pe()
// declare i32 @nvshmem_n_pes()
// declare ptr @nvshmem_ptr(ptr, i32)
//
// define ptx_kernel void @ll_protocol(ptr noundef %v0, ptr noundef %v1, i32 noundef %v2) #0 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2 = urem i32 %t1, 8
//   %t32 = icmp ult i32 %t1, 8
//   br label %body
// body:
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <1 x i32> <i32 0>
//   %t6 = add <1 x i32> %t5, <i32 0>
//   %t7 = call i32 @nvshmem_my_pe()
//   %t8 = add i32 %t7, 1
//   %t9 = call i32 @nvshmem_n_pes()
//   %t10 = srem i32 %t8, %t9
//   %t11 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t12 = shufflevector <1 x ptr> %t11, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t13 = sext <1 x i32> %t6 to <1 x i64>
//   %t14 = getelementptr i32, <1 x ptr> %t12, <1 x i64> %t13
//   %t15 = call <1 x i32> @llvm.masked.gather.v1i32.v1p0(<1 x ptr> align 4 %t14, <1 x i1> splat (i1 true), <1 x i32> zeroinitializer)
//   %t16 = zext <1 x i32> %t15 to <1 x i64>
//   %t17 = zext i32 %v2 to i64
//   %t18 = shl i64 %t17, 32
//   %t19 = insertelement <1 x i64> poison, i64 %t18, i64 0
//   %t20 = shufflevector <1 x i64> %t19, <1 x i64> poison, <1 x i32> <i32 0>
//   %t21 = or <1 x i64> %t16, %t20
//   %t22 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t23 = shufflevector <1 x ptr> %t22, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t24 = sext <1 x i32> %t6 to <1 x i64>
//   %t25 = getelementptr i64, <1 x ptr> %t23, <1 x i64> %t24
//   %t26 = extractelement <1 x ptr> %t25, i64 0
//   %t27 = call ptr @nvshmem_ptr(ptr %t26, i32 %t10)
//   %t28 = ptrtoint ptr %t26 to i64
//   %t29 = ptrtoint ptr %t27 to i64
//   %t30 = sub i64 %t29, %t28
//   %t31 = getelementptr i8, <1 x ptr> %t25, i64 %t30
//   %t33 = insertelement <1 x i1> poison, i1 %t32, i64 0
//   %t34 = shufflevector <1 x i1> %t33, <1 x i1> poison, <1 x i32> <i32 0>
//   %t35 = and <1 x i1> splat (i1 true), %t34
//   call void @llvm.masked.scatter.v1i64.v1p0(<1 x i64> %t21, <1 x ptr> align 8 %t31, <1 x i1> %t35)
//   %t36 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t37 = shufflevector <1 x ptr> %t36, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t38 = sext <1 x i32> %t6 to <1 x i64>
//   %t39 = getelementptr i64, <1 x ptr> %t37, <1 x i64> %t38
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t40 = zext i32 %v2 to i64
//   %t41 = shl i64 %t40, 32
//   %t42 = extractelement <1 x ptr> %t39, i64 0
//   br i1 true, label %one.do43, label %one.end44
// one.do43:
//   br label %ll.poll45
// ll.poll45:
//   %t47 = load volatile i64, ptr %t42, align 8
//   %t48 = and i64 %t47, -4294967296
//   %t49 = icmp eq i64 %t48, %t41
//   br i1 %t49, label %ll.got46, label %ll.poll45
// ll.got46:
//   br label %one.end44
// one.end44:
//   %t50 = phi i64 [ %t47, %ll.got46 ], [ 0, %body ]
//   %t51 = trunc i64 %t50 to i32
//   %t52 = insertelement <1 x i32> poison, i32 %t51, i64 0
//   %t53 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t54 = shufflevector <1 x ptr> %t53, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t55 = sext <1 x i32> %t6 to <1 x i64>
//   %t56 = getelementptr i32, <1 x ptr> %t54, <1 x i64> %t55
//   %t57 = insertelement <1 x i1> poison, i1 %t32, i64 0
//   %t58 = shufflevector <1 x i1> %t57, <1 x i1> poison, <1 x i32> <i32 0>
//   %t59 = and <1 x i1> splat (i1 true), %t58
//   call void @llvm.masked.scatter.v1i32.v1p0(<1 x i32> %t52, <1 x ptr> align 4 %t56, <1 x i1> %t59)
//   ret void
// dead60:
//   unreachable
// }
//
// attributes #0 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
