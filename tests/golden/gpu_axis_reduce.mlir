module {
  func.func @rowsum(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "1"}, weft.params = ["x", "out"]} {
    %0 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<4xi32>) -> tensor<4x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %2 = "tile.splat"(%c16_i32) : (i32) -> tensor<4x1xi32>
    %3 = arith.muli %1, %2 : tensor<4x1xi32>
    %4 = "tile.broadcast"(%3) : (tensor<4x1xi32>) -> tensor<4x16xi32>
    %5 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %6 = "tile.expand_dims"(%5) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %7 = "tile.broadcast"(%6) : (tensor<1x16xi32>) -> tensor<4x16xi32>
    %8 = arith.addi %4, %7 : tensor<4x16xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x16x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<4x16x!tile.ptr<f32>>, tensor<4x16xi32>) -> tensor<4x16x!tile.ptr<f32>>
    %11 = "tile.load"(%10) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x16x!tile.ptr<f32>>) -> tensor<4x16xf32>
    %12 = "tile.reduce"(%11) {axis = 1 : i32, kind = "sum"} : (tensor<4x16xf32>) -> tensor<4xf32>
    %13 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %14 = "tile.addptr"(%13, %0) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%14, %12) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
// ----- expected gpu@sm_80 -----
// ; ModuleID = 'rowsum.gpu.ll'
// source_filename = "rowsum.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// @__weft_smem = internal addrspace(3) global [256 x i8] undef, align 16
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <2 x float> @llvm.masked.gather.v2f32.v2p1(<2 x ptr addrspace(1)>, <2 x i1>, <2 x float>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1f32.v1p1(<1 x float>, <1 x ptr addrspace(1)>, <1 x i1>) #1
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3
//
// define ptx_kernel void @rowsum(ptr noundef %v0, ptr noundef %v1) #4 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2.m = mul nuw i32 %t1, 4
//   %t2 = udiv i32 %t2.m, 32
//   %t11.m = mul nuw i32 %t1, 16
//   %t11 = udiv i32 %t11.m, 32
//   %t17.m = mul nuw i32 %t1, 16
//   %t17.k = urem i32 %t17.m, 32
//   %t17 = icmp ult i32 %t17.k, 16
//   %t21 = mul nuw i32 %t1, 2
//   %t106.m = mul nuw i32 %t1, 4
//   %t106.k = urem i32 %t106.m, 32
//   %t106 = icmp ult i32 %t106.k, 4
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t6 = add <1 x i32> %t5, zeroinitializer
//   %t7 = insertelement <1 x i32> poison, i32 16, i64 0
//   %t8 = shufflevector <1 x i32> %t7, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t9 = mul <1 x i32> %t6, %t8
//   %t10 = shufflevector <1 x i32> %t9, <1 x i32> poison, <2 x i32> zeroinitializer
//   %t12 = add i32 %t11, 0
//   %t13 = insertelement <1 x i32> poison, i32 %t12, i64 0
//   %t14 = shufflevector <1 x i32> %t13, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t15 = add <1 x i32> %t14, zeroinitializer
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t16 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t11
//   %t18 = extractelement <1 x i32> %t15, i64 0
//   br i1 %t17, label %one.do19, label %one.end20
//
// one.do19:                                         ; preds = %body
//   store i32 %t18, ptr addrspace(3) %t16, align 4
//   br label %one.end20
//
// one.end20:                                        ; preds = %one.do19, %body
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t22 = add i32 %t21, 0
//   %t23 = udiv i32 %t22, 1
//   %t24 = urem i32 %t23, 16
//   %t25 = mul i32 %t24, 1
//   %t26 = add i32 0, %t25
//   %t27 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t26
//   %t28 = getelementptr inbounds i32, ptr addrspace(3) %t27, i32 0
//   %t29 = load i32, ptr addrspace(3) %t28, align 4
//   %t30 = add i32 %t21, 1
//   %t31 = udiv i32 %t30, 1
//   %t32 = urem i32 %t31, 16
//   %t33 = mul i32 %t32, 1
//   %t34 = add i32 0, %t33
//   %t35 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t34
//   %t36 = getelementptr inbounds i32, ptr addrspace(3) %t35, i32 0
//   %t37 = load i32, ptr addrspace(3) %t36, align 4
//   %t38 = insertelement <2 x i32> poison, i32 %t29, i64 0
//   %t39 = insertelement <2 x i32> %t38, i32 %t37, i64 1
//   %t40 = add <2 x i32> %t10, %t39
//   %t41 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t42 = shufflevector <1 x ptr> %t41, <1 x ptr> poison, <2 x i32> zeroinitializer
//   %t43 = sext <2 x i32> %t40 to <2 x i64>
//   %t44 = getelementptr float, <2 x ptr> %t42, <2 x i64> %t43
//   %t45 = addrspacecast <2 x ptr> %t44 to <2 x ptr addrspace(1)>
//   %t46 = call <2 x float> @llvm.masked.gather.v2f32.v2p1(<2 x ptr addrspace(1)> align 4 %t45, <2 x i1> splat (i1 true), <2 x float> zeroinitializer)
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t47 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t21
//   store <2 x float> %t46, ptr addrspace(3) %t47, align 8
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t48 = add i32 %t2, 0
//   %t49 = udiv i32 %t48, 1
//   %t50 = urem i32 %t49, 4
//   %t51 = mul i32 %t50, 16
//   %t52 = add i32 0, %t51
//   %t53 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t52
//   %t54 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 0
//   %t55 = load float, ptr addrspace(3) %t54, align 4
//   %t56 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 1
//   %t57 = load float, ptr addrspace(3) %t56, align 4
//   %t58 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 2
//   %t59 = load float, ptr addrspace(3) %t58, align 4
//   %t60 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 3
//   %t61 = load float, ptr addrspace(3) %t60, align 4
//   %t62 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 4
//   %t63 = load float, ptr addrspace(3) %t62, align 4
//   %t64 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 5
//   %t65 = load float, ptr addrspace(3) %t64, align 4
//   %t66 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 6
//   %t67 = load float, ptr addrspace(3) %t66, align 4
//   %t68 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 7
//   %t69 = load float, ptr addrspace(3) %t68, align 4
//   %t70 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 8
//   %t71 = load float, ptr addrspace(3) %t70, align 4
//   %t72 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 9
//   %t73 = load float, ptr addrspace(3) %t72, align 4
//   %t74 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 10
//   %t75 = load float, ptr addrspace(3) %t74, align 4
//   %t76 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 11
//   %t77 = load float, ptr addrspace(3) %t76, align 4
//   %t78 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 12
//   %t79 = load float, ptr addrspace(3) %t78, align 4
//   %t80 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 13
//   %t81 = load float, ptr addrspace(3) %t80, align 4
//   %t82 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 14
//   %t83 = load float, ptr addrspace(3) %t82, align 4
//   %t84 = getelementptr inbounds float, ptr addrspace(3) %t53, i32 15
//   %t85 = load float, ptr addrspace(3) %t84, align 4
//   %t86 = fadd float %t55, %t57
//   %t87 = fadd float %t86, %t59
//   %t88 = fadd float %t87, %t61
//   %t89 = fadd float %t88, %t63
//   %t90 = fadd float %t89, %t65
//   %t91 = fadd float %t90, %t67
//   %t92 = fadd float %t91, %t69
//   %t93 = fadd float %t92, %t71
//   %t94 = fadd float %t93, %t73
//   %t95 = fadd float %t94, %t75
//   %t96 = fadd float %t95, %t77
//   %t97 = fadd float %t96, %t79
//   %t98 = fadd float %t97, %t81
//   %t99 = fadd float %t98, %t83
//   %t100 = fadd float %t99, %t85
//   %t101 = insertelement <1 x float> poison, float %t100, i64 0
//   %t102 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t103 = shufflevector <1 x ptr> %t102, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t104 = sext <1 x i32> %t6 to <1 x i64>
//   %t105 = getelementptr float, <1 x ptr> %t103, <1 x i64> %t104
//   %t107 = insertelement <1 x i1> poison, i1 %t106, i64 0
//   %t108 = shufflevector <1 x i1> %t107, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t109 = and <1 x i1> splat (i1 true), %t108
//   %t110 = addrspacecast <1 x ptr> %t105 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t101, <1 x ptr addrspace(1)> align 4 %t110, <1 x i1> %t109)
//   ret void
//
// dead111:                                          ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { "nvvm.maxntid"="32" "nvvm.minctasm"="1" }
