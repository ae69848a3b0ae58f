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
//   %t10 = mul nuw i32 %t1, 2
//   %t22.m = mul nuw i32 %t1, 16
//   %t22 = udiv i32 %t22.m, 32
//   %t111.m = mul nuw i32 %t1, 4
//   %t111.k = urem i32 %t111.m, 32
//   %t111 = icmp ult i32 %t111.k, 4
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
//   %t11 = insertelement <1 x i32> poison, i32 %t10, i64 0
//   %t12 = shufflevector <1 x i32> %t11, <1 x i32> poison, <2 x i32> zeroinitializer
//   %t13 = add <2 x i32> %t12, <i32 0, i32 1>
//   %t14 = udiv <2 x i32> %t13, splat (i32 1)
//   %t15 = urem <2 x i32> %t14, splat (i32 16)
//   %t16 = udiv <2 x i32> %t13, splat (i32 16)
//   %t17 = urem <2 x i32> %t16, splat (i32 4)
//   %t18 = add <2 x i32> %t17, zeroinitializer
//   %t19 = insertelement <1 x i32> poison, i32 16, i64 0
//   %t20 = shufflevector <1 x i32> %t19, <1 x i32> poison, <2 x i32> zeroinitializer
//   %t21 = mul <2 x i32> %t18, %t20
//   %t23 = add i32 %t22, 0
//   %t24 = insertelement <1 x i32> poison, i32 %t23, i64 0
//   %t25 = shufflevector <1 x i32> %t24, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t26 = add <1 x i32> %t25, zeroinitializer
//   %t27 = insertelement <1 x i32> poison, i32 %t10, i64 0
//   %t28 = shufflevector <1 x i32> %t27, <1 x i32> poison, <2 x i32> zeroinitializer
//   %t29 = add <2 x i32> %t28, <i32 0, i32 1>
//   %t30 = udiv <2 x i32> %t29, splat (i32 1)
//   %t31 = urem <2 x i32> %t30, splat (i32 16)
//   %t32 = udiv <2 x i32> %t29, splat (i32 16)
//   %t33 = urem <2 x i32> %t32, splat (i32 4)
//   %t34 = add <2 x i32> %t31, zeroinitializer
//   %t35 = add <2 x i32> %t21, %t34
//   %t36 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t37 = shufflevector <1 x ptr> %t36, <1 x ptr> poison, <2 x i32> zeroinitializer
//   %t38 = sext <2 x i32> %t35 to <2 x i64>
//   %t39 = getelementptr float, <2 x ptr> %t37, <2 x i64> %t38
//   %t43 = extractelement <2 x ptr> %t39, i64 0
//   %t44 = addrspacecast ptr %t43 to ptr addrspace(1)
//   %t45 = ptrtoint ptr addrspace(1) %t44 to i64
//   %t46 = and i64 %t45, 7
//   %t47 = icmp eq i64 %t46, 0
//   br i1 %t47, label %ld.vec40, label %ld.slots41
//
// ld.vec40:                                         ; preds = %body
//   %t48 = load <2 x float>, ptr addrspace(1) %t44, align 8
//   br label %ld.end42
//
// ld.slots41:                                       ; preds = %body
//   %t49 = addrspacecast <2 x ptr> %t39 to <2 x ptr addrspace(1)>
//   %t50 = call <2 x float> @llvm.masked.gather.v2f32.v2p1(<2 x ptr addrspace(1)> align 4 %t49, <2 x i1> splat (i1 true), <2 x float> zeroinitializer)
//   br label %ld.end42
//
// ld.end42:                                         ; preds = %ld.slots41, %ld.vec40
//   %t51 = phi <2 x float> [ %t48, %ld.vec40 ], [ %t50, %ld.slots41 ]
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t52 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t10
//   store <2 x float> %t51, ptr addrspace(3) %t52, align 8
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t53 = add i32 %t2, 0
//   %t54 = udiv i32 %t53, 1
//   %t55 = urem i32 %t54, 4
//   %t56 = mul i32 %t55, 16
//   %t57 = add i32 0, %t56
//   %t58 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t57
//   %t59 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 0
//   %t60 = load float, ptr addrspace(3) %t59, align 4
//   %t61 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 1
//   %t62 = load float, ptr addrspace(3) %t61, align 4
//   %t63 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 2
//   %t64 = load float, ptr addrspace(3) %t63, align 4
//   %t65 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 3
//   %t66 = load float, ptr addrspace(3) %t65, align 4
//   %t67 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 4
//   %t68 = load float, ptr addrspace(3) %t67, align 4
//   %t69 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 5
//   %t70 = load float, ptr addrspace(3) %t69, align 4
//   %t71 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 6
//   %t72 = load float, ptr addrspace(3) %t71, align 4
//   %t73 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 7
//   %t74 = load float, ptr addrspace(3) %t73, align 4
//   %t75 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 8
//   %t76 = load float, ptr addrspace(3) %t75, align 4
//   %t77 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 9
//   %t78 = load float, ptr addrspace(3) %t77, align 4
//   %t79 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 10
//   %t80 = load float, ptr addrspace(3) %t79, align 4
//   %t81 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 11
//   %t82 = load float, ptr addrspace(3) %t81, align 4
//   %t83 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 12
//   %t84 = load float, ptr addrspace(3) %t83, align 4
//   %t85 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 13
//   %t86 = load float, ptr addrspace(3) %t85, align 4
//   %t87 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 14
//   %t88 = load float, ptr addrspace(3) %t87, align 4
//   %t89 = getelementptr inbounds float, ptr addrspace(3) %t58, i32 15
//   %t90 = load float, ptr addrspace(3) %t89, align 4
//   %t91 = fadd float %t60, %t62
//   %t92 = fadd float %t91, %t64
//   %t93 = fadd float %t92, %t66
//   %t94 = fadd float %t93, %t68
//   %t95 = fadd float %t94, %t70
//   %t96 = fadd float %t95, %t72
//   %t97 = fadd float %t96, %t74
//   %t98 = fadd float %t97, %t76
//   %t99 = fadd float %t98, %t78
//   %t100 = fadd float %t99, %t80
//   %t101 = fadd float %t100, %t82
//   %t102 = fadd float %t101, %t84
//   %t103 = fadd float %t102, %t86
//   %t104 = fadd float %t103, %t88
//   %t105 = fadd float %t104, %t90
//   %t106 = insertelement <1 x float> poison, float %t105, i64 0
//   %t107 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t108 = shufflevector <1 x ptr> %t107, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t109 = sext <1 x i32> %t6 to <1 x i64>
//   %t110 = getelementptr float, <1 x ptr> %t108, <1 x i64> %t109
//   %t112 = insertelement <1 x i1> poison, i1 %t111, i64 0
//   %t113 = shufflevector <1 x i1> %t112, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t114 = and <1 x i1> splat (i1 true), %t113
//   %t115 = addrspacecast <1 x ptr> %t110 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t106, <1 x ptr addrspace(1)> align 4 %t115, <1 x i1> %t114)
//   ret void
//
// dead116:                                          ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { "nvvm.maxntid"="32" "nvvm.minctasm"="1" }
