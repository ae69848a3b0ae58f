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
// ----- expected gpu@gfx942 -----
// ; ModuleID = 'll_protocol.gpu.ll'
// source_filename = "ll_protocol.gpu.ll"
// target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
// target triple = "amdgcn-amd-amdhsa"
//
// @weft_shmem_state = protected addrspace(4) externally_initialized global { i32, i32, i64, [64 x i64] } zeroinitializer, align 8
//
// ; Function Attrs: convergent nocallback nofree nounwind willreturn
// declare void @llvm.amdgcn.s.barrier() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #1
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x i32> @llvm.masked.gather.v1i32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x i32>) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1i32.v1p1(<1 x i32>, <1 x ptr addrspace(1)>, <1 x i1>) #3
//
// define amdgpu_kernel void @ll_protocol(ptr noundef %v0, ptr noundef %v1, i32 noundef %v2) #4 {
// entry:
//   %t1 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t2.m = mul nuw i32 %t1, 8
//   %t2 = udiv i32 %t2.m, 256
//   %t7.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 0
//   %t7 = load i32, ptr addrspace(4) %t7.at, align 4
//   %t9.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 1
//   %t9 = load i32, ptr addrspace(4) %t9.at, align 4
//   %t38.m = mul nuw i32 %t1, 8
//   %t38.k = urem i32 %t38.m, 256
//   %t38 = icmp ult i32 %t38.k, 8
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t6 = add <1 x i32> %t5, zeroinitializer
//   %t8 = add i32 %t7, 1
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
//   %t28 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t10
//   %t29 = load i64, ptr addrspace(4) %t28, align 8
//   %t30 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t7
//   %t31 = load i64, ptr addrspace(4) %t30, align 8
//   %t32 = sub i64 %t29, %t31
//   %t33 = getelementptr i8, ptr %t27, i64 %t32
//   %t34 = ptrtoint ptr %t27 to i64
//   %t35 = ptrtoint ptr %t33 to i64
//   %t36 = sub i64 %t35, %t34
//   %t37 = getelementptr i8, <1 x ptr> %t26, i64 %t36
//   %t39 = insertelement <1 x i1> poison, i1 %t38, i64 0
//   %t40 = shufflevector <1 x i1> %t39, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t41 = and <1 x i1> splat (i1 true), %t40
//   %t42 = extractelement <1 x ptr> %t37, i64 0
//   %t43 = extractelement <1 x i64> %t22, i64 0
//   %t44 = extractelement <1 x i1> %t41, i64 0
//   br i1 %t44, label %one.do45, label %one.end46
//
// one.do45:                                         ; preds = %body
//   store atomic i64 %t43, ptr %t42 monotonic, align 8
//   br label %one.end46
//
// one.end46:                                        ; preds = %one.do45, %body
//   %t47 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t48 = shufflevector <1 x ptr> %t47, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t49 = sext <1 x i32> %t6 to <1 x i64>
//   %t50 = getelementptr i64, <1 x ptr> %t48, <1 x i64> %t49
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t51 = zext i32 %v2 to i64
//   %t52 = shl i64 %t51, 32
//   %t53 = extractelement <1 x ptr> %t50, i64 0
//   br i1 true, label %one.do54, label %one.end55
//
// one.do54:                                         ; preds = %one.end46
//   br label %ll.poll56
//
// ll.poll56:                                        ; preds = %ll.poll56, %one.do54
//   %t58 = load atomic volatile i64, ptr %t53 monotonic, align 8
//   %t59 = and i64 %t58, -4294967296
//   %t60 = icmp eq i64 %t59, %t52
//   br i1 %t60, label %ll.got57, label %ll.poll56
//
// ll.got57:                                         ; preds = %ll.poll56
//   br label %one.end55
//
// one.end55:                                        ; preds = %ll.got57, %one.end46
//   %t61 = phi i64 [ %t58, %ll.got57 ], [ 0, %one.end46 ]
//   %t62 = trunc i64 %t61 to i32
//   %t63 = insertelement <1 x i32> poison, i32 %t62, i64 0
//   %t64 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t65 = shufflevector <1 x ptr> %t64, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t66 = sext <1 x i32> %t6 to <1 x i64>
//   %t67 = getelementptr i32, <1 x ptr> %t65, <1 x i64> %t66
//   %t68 = insertelement <1 x i1> poison, i1 %t38, i64 0
//   %t69 = shufflevector <1 x i1> %t68, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t70 = and <1 x i1> splat (i1 true), %t69
//   %t71 = addrspacecast <1 x ptr> %t67 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1i32.v1p1(<1 x i32> %t63, <1 x ptr addrspace(1)> align 4 %t71, <1 x i1> %t70)
//   ret void
//
// dead72:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { convergent nocallback nofree nounwind willreturn }
// attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #2 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #3 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #4 = { "amdgpu-flat-work-group-size"="256,256" "uniform-work-group-size"="true" }
//
// !llvm.module.flags = !{!0}
//
// !0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
