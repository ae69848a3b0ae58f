module {
  func.func @mma(%arg0: !tile.ptr<bf16>, %arg1: !tile.ptr<bf16>, %arg2: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "1"}, weft.params = ["a", "b", "c"]} {
    %0 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %1 = "tile.expand_dims"(%0) {axis = 1 : i32} : (tensor<16xi32>) -> tensor<16x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %2 = "tile.splat"(%c16_i32) : (i32) -> tensor<16x1xi32>
    %3 = arith.muli %1, %2 : tensor<16x1xi32>
    %4 = "tile.broadcast"(%3) : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %5 = "tile.expand_dims"(%0) {axis = 0 : i32} : (tensor<16xi32>) -> tensor<1x16xi32>
    %6 = "tile.broadcast"(%5) : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %7 = arith.addi %4, %6 : tensor<16x16xi32>
    %8 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<16x16x!tile.ptr<bf16>>
    %9 = "tile.addptr"(%8, %7) : (tensor<16x16x!tile.ptr<bf16>>, tensor<16x16xi32>) -> tensor<16x16x!tile.ptr<bf16>>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x16x!tile.ptr<bf16>>) -> tensor<16x16xbf16>
    %11 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %12 = "tile.expand_dims"(%11) {axis = 0 : i32} : (tensor<8xi32>) -> tensor<1x8xi32>
    %c8_i32 = arith.constant 8 : i32
    %13 = "tile.splat"(%c8_i32) : (i32) -> tensor<16x1xi32>
    %14 = arith.muli %1, %13 : tensor<16x1xi32>
    %15 = "tile.broadcast"(%14) : (tensor<16x1xi32>) -> tensor<16x8xi32>
    %16 = "tile.broadcast"(%12) : (tensor<1x8xi32>) -> tensor<16x8xi32>
    %17 = arith.addi %15, %16 : tensor<16x8xi32>
    %18 = "tile.splat"(%arg1) : (!tile.ptr<bf16>) -> tensor<16x8x!tile.ptr<bf16>>
    %19 = "tile.addptr"(%18, %17) : (tensor<16x8x!tile.ptr<bf16>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<bf16>>
    %20 = "tile.load"(%19) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x8x!tile.ptr<bf16>>) -> tensor<16x8xbf16>
    %cst = arith.constant dense<0.000000e+00> : tensor<16x8xf32>
    %21 = "tile.dot"(%10, %20, %cst) : (tensor<16x16xbf16>, tensor<16x8xbf16>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %22 = "tile.splat"(%arg2) : (!tile.ptr<f32>) -> tensor<16x8x!tile.ptr<f32>>
    %23 = "tile.addptr"(%22, %17) : (tensor<16x8x!tile.ptr<f32>>, tensor<16x8xi32>) -> tensor<16x8x!tile.ptr<f32>>
    "tile.store"(%23, %21) : (tensor<16x8x!tile.ptr<f32>>, tensor<16x8xf32>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'mma.gpu.ll'
// source_filename = "mma.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// @__weft_smem = internal addrspace(3) global [1024 x i8] undef, align 16
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <4 x bfloat> @llvm.masked.gather.v4bf16.v4p1(<4 x ptr addrspace(1)>, <4 x i1>, <4 x bfloat>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <8 x bfloat> @llvm.masked.gather.v8bf16.v8p1(<8 x ptr addrspace(1)>, <8 x i1>, <8 x bfloat>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v4f32.v4p1(<4 x float>, <4 x ptr addrspace(1)>, <4 x i1>) #1
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2
//
// ; Function Attrs: nocallback nounwind memory(none)
// declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float) #3
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4
//
// define ptx_kernel void @mma(ptr noundef %v0, ptr noundef %v1, ptr noundef %v2) #5 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2.m = mul nuw i32 %t1, 16
//   %t2 = udiv i32 %t2.m, 32
//   %t10 = mul nuw i32 %t1, 8
//   %t47.m = mul nuw i32 %t1, 8
//   %t47 = udiv i32 %t47.m, 32
//   %t55 = mul nuw i32 %t1, 4
//   %t98.row = udiv i32 %t10, 16
//   %t98.skip = mul i32 %t98.row, 8
//   %t98 = add i32 %t10, %t98.skip
//   %t102.w = udiv i32 %t1, 32
//   %t102.wm = udiv i32 %t102.w, 1
//   %t102.wn = urem i32 %t102.w, 1
//   %t102 = urem i32 %t1, 32
//   %t103.r = urem i32 %t102, 16
//   %t103.c = udiv i32 %t102, 16
//   %t103.c8 = mul i32 %t103.c, 8
//   %t103.r0 = mul i32 %t102.wm, 16
//   %t103.row = add i32 %t103.r0, %t103.r
//   %t103.rk = mul i32 %t103.row, 24
//   %t103 = add i32 %t103.rk, %t103.c8
//   %t104.r = urem i32 %t102, 16
//   %t104.c = udiv i32 %t102, 16
//   %t104.c8 = mul i32 %t104.c, 8
//   %t104.c0 = mul i32 %t102.wn, 8
//   %t104.col = add i32 %t104.c0, %t104.c8
//   %t104.rk = mul i32 %t104.r, 8
//   %t104 = add i32 %t104.rk, %t104.col
//   %t126.w = udiv i32 %t1, 32
//   %t126.l = urem i32 %t1, 32
//   %t126.wm = udiv i32 %t126.w, 1
//   %t126.wn = urem i32 %t126.w, 1
//   %t126.g = udiv i32 %t126.l, 4
//   %t126.q = urem i32 %t126.l, 4
//   %t126.r0 = mul i32 %t126.wm, 16
//   %t126.row = add i32 %t126.r0, %t126.g
//   %t126.c0 = mul i32 %t126.wn, 8
//   %t126.c1 = mul i32 %t126.q, 2
//   %t126.col = add i32 %t126.c0, %t126.c1
//   %t126.rn = mul i32 %t126.row, 8
//   %t126 = add i32 %t126.rn, %t126.col
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
//   %t12 = shufflevector <1 x i32> %t11, <1 x i32> poison, <8 x i32> zeroinitializer
//   %t13 = add <8 x i32> %t12, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
//   %t14 = udiv <8 x i32> %t13, splat (i32 1)
//   %t15 = urem <8 x i32> %t14, splat (i32 16)
//   %t16 = udiv <8 x i32> %t13, splat (i32 16)
//   %t17 = urem <8 x i32> %t16, splat (i32 16)
//   %t18 = add <8 x i32> %t17, zeroinitializer
//   %t19 = insertelement <1 x i32> poison, i32 16, i64 0
//   %t20 = shufflevector <1 x i32> %t19, <1 x i32> poison, <8 x i32> zeroinitializer
//   %t21 = mul <8 x i32> %t18, %t20
//   %t22 = insertelement <1 x i32> poison, i32 %t10, i64 0
//   %t23 = shufflevector <1 x i32> %t22, <1 x i32> poison, <8 x i32> zeroinitializer
//   %t24 = add <8 x i32> %t23, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
//   %t25 = udiv <8 x i32> %t24, splat (i32 1)
//   %t26 = urem <8 x i32> %t25, splat (i32 16)
//   %t27 = udiv <8 x i32> %t24, splat (i32 16)
//   %t28 = urem <8 x i32> %t27, splat (i32 16)
//   %t29 = add <8 x i32> %t26, zeroinitializer
//   %t30 = add <8 x i32> %t21, %t29
//   %t31 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t32 = shufflevector <1 x ptr> %t31, <1 x ptr> poison, <8 x i32> zeroinitializer
//   %t33 = sext <8 x i32> %t30 to <8 x i64>
//   %t34 = getelementptr bfloat, <8 x ptr> %t32, <8 x i64> %t33
//   %t38 = extractelement <8 x ptr> %t34, i64 0
//   %t39 = addrspacecast ptr %t38 to ptr addrspace(1)
//   %t40 = ptrtoint ptr addrspace(1) %t39 to i64
//   %t41 = and i64 %t40, 15
//   %t42 = icmp eq i64 %t41, 0
//   br i1 %t42, label %ld.vec35, label %ld.slots36
//
// ld.vec35:                                         ; preds = %body
//   %t43 = load <8 x bfloat>, ptr addrspace(1) %t39, align 16
//   br label %ld.end37
//
// ld.slots36:                                       ; preds = %body
//   %t44 = addrspacecast <8 x ptr> %t34 to <8 x ptr addrspace(1)>
//   %t45 = call <8 x bfloat> @llvm.masked.gather.v8bf16.v8p1(<8 x ptr addrspace(1)> align 2 %t44, <8 x i1> splat (i1 true), <8 x bfloat> zeroinitializer)
//   br label %ld.end37
//
// ld.end37:                                         ; preds = %ld.slots36, %ld.vec35
//   %t46 = phi <8 x bfloat> [ %t43, %ld.vec35 ], [ %t45, %ld.slots36 ]
//   %t48 = add i32 %t47, 0
//   %t49 = insertelement <1 x i32> poison, i32 %t48, i64 0
//   %t50 = shufflevector <1 x i32> %t49, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t51 = add <1 x i32> %t50, zeroinitializer
//   %t52 = insertelement <1 x i32> poison, i32 8, i64 0
//   %t53 = shufflevector <1 x i32> %t52, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t54 = mul <1 x i32> %t6, %t53
//   %t56 = insertelement <1 x i32> poison, i32 %t55, i64 0
//   %t57 = shufflevector <1 x i32> %t56, <1 x i32> poison, <4 x i32> zeroinitializer
//   %t58 = add <4 x i32> %t57, <i32 0, i32 1, i32 2, i32 3>
//   %t59 = udiv <4 x i32> %t58, splat (i32 1)
//   %t60 = urem <4 x i32> %t59, splat (i32 8)
//   %t61 = udiv <4 x i32> %t58, splat (i32 8)
//   %t62 = urem <4 x i32> %t61, splat (i32 16)
//   %t63 = add <4 x i32> %t62, zeroinitializer
//   %t64 = insertelement <1 x i32> poison, i32 8, i64 0
//   %t65 = shufflevector <1 x i32> %t64, <1 x i32> poison, <4 x i32> zeroinitializer
//   %t66 = mul <4 x i32> %t63, %t65
//   %t67 = insertelement <1 x i32> poison, i32 %t55, i64 0
//   %t68 = shufflevector <1 x i32> %t67, <1 x i32> poison, <4 x i32> zeroinitializer
//   %t69 = add <4 x i32> %t68, <i32 0, i32 1, i32 2, i32 3>
//   %t70 = udiv <4 x i32> %t69, splat (i32 1)
//   %t71 = urem <4 x i32> %t70, splat (i32 8)
//   %t72 = udiv <4 x i32> %t69, splat (i32 8)
//   %t73 = urem <4 x i32> %t72, splat (i32 16)
//   %t74 = add <4 x i32> %t71, zeroinitializer
//   %t75 = add <4 x i32> %t66, %t74
//   %t76 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t77 = shufflevector <1 x ptr> %t76, <1 x ptr> poison, <4 x i32> zeroinitializer
//   %t78 = sext <4 x i32> %t75 to <4 x i64>
//   %t79 = getelementptr bfloat, <4 x ptr> %t77, <4 x i64> %t78
//   %t83 = extractelement <4 x ptr> %t79, i64 0
//   %t84 = addrspacecast ptr %t83 to ptr addrspace(1)
//   %t85 = ptrtoint ptr addrspace(1) %t84 to i64
//   %t86 = and i64 %t85, 7
//   %t87 = icmp eq i64 %t86, 0
//   br i1 %t87, label %ld.vec80, label %ld.slots81
//
// ld.vec80:                                         ; preds = %ld.end37
//   %t88 = load <4 x bfloat>, ptr addrspace(1) %t84, align 8
//   br label %ld.end82
//
// ld.slots81:                                       ; preds = %ld.end37
//   %t89 = addrspacecast <4 x ptr> %t79 to <4 x ptr addrspace(1)>
//   %t90 = call <4 x bfloat> @llvm.masked.gather.v4bf16.v4p1(<4 x ptr addrspace(1)> align 2 %t89, <4 x i1> splat (i1 true), <4 x bfloat> zeroinitializer)
//   br label %ld.end82
//
// ld.end82:                                         ; preds = %ld.slots81, %ld.vec80
//   %t91 = phi <4 x bfloat> [ %t88, %ld.vec80 ], [ %t90, %ld.slots81 ]
//   %t92 = insertelement <1 x float> poison, float 0.000000e+00, i64 0
//   %t93 = shufflevector <1 x float> %t92, <1 x float> poison, <4 x i32> zeroinitializer
//   %t94 = extractelement <4 x float> %t93, i64 0
//   %t95 = extractelement <4 x float> %t93, i64 1
//   %t96 = extractelement <4 x float> %t93, i64 2
//   %t97 = extractelement <4 x float> %t93, i64 3
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t99 = getelementptr inbounds bfloat, ptr addrspace(3) @__weft_smem, i32 %t98
//   %t100 = getelementptr inbounds bfloat, ptr addrspace(3) %t99, i32 0
//   store <8 x bfloat> %t46, ptr addrspace(3) %t100, align 16
//   %t101 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 768), i32 %t55
//   store <4 x bfloat> %t91, ptr addrspace(3) %t101, align 8
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t105 = getelementptr inbounds bfloat, ptr addrspace(3) @__weft_smem, i32 %t103
//   %t106 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 768), i32 %t104
//   %t107 = getelementptr inbounds bfloat, ptr addrspace(3) %t106, i32 0
//   %t108 = call { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) %t107)
//   %t109 = extractvalue { i32, i32 } %t108, 0
//   %t110 = extractvalue { i32, i32 } %t108, 1
//   %t111 = getelementptr inbounds bfloat, ptr addrspace(3) %t105, i32 0
//   %t112 = call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %t111)
//   %t113 = extractvalue { i32, i32, i32, i32 } %t112, 0
//   %t114 = extractvalue { i32, i32, i32, i32 } %t112, 1
//   %t115 = extractvalue { i32, i32, i32, i32 } %t112, 2
//   %t116 = extractvalue { i32, i32, i32, i32 } %t112, 3
//   %t117 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %t113, i32 %t114, i32 %t115, i32 %t116, i32 %t109, i32 %t110, float %t94, float %t95, float %t96, float %t97)
//   %t118 = extractvalue { float, float, float, float } %t117, 0
//   %t119 = extractvalue { float, float, float, float } %t117, 1
//   %t120 = extractvalue { float, float, float, float } %t117, 2
//   %t121 = extractvalue { float, float, float, float } %t117, 3
//   %t122 = insertelement <4 x float> poison, float %t118, i64 0
//   %t123 = insertelement <4 x float> %t122, float %t119, i64 1
//   %t124 = insertelement <4 x float> %t123, float %t120, i64 2
//   %t125 = insertelement <4 x float> %t124, float %t121, i64 3
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t127 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t126
//   %t128 = extractelement <4 x float> %t125, i64 0
//   %t129 = getelementptr inbounds float, ptr addrspace(3) %t127, i32 0
//   store float %t128, ptr addrspace(3) %t129, align 4
//   %t130 = extractelement <4 x float> %t125, i64 1
//   %t131 = getelementptr inbounds float, ptr addrspace(3) %t127, i32 1
//   store float %t130, ptr addrspace(3) %t131, align 4
//   %t132 = extractelement <4 x float> %t125, i64 2
//   %t133 = getelementptr inbounds float, ptr addrspace(3) %t127, i32 64
//   store float %t132, ptr addrspace(3) %t133, align 4
//   %t134 = extractelement <4 x float> %t125, i64 3
//   %t135 = getelementptr inbounds float, ptr addrspace(3) %t127, i32 65
//   store float %t134, ptr addrspace(3) %t135, align 4
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t136 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t55
//   %t137 = load <4 x float>, ptr addrspace(3) %t136, align 16
//   %t138 = insertelement <1 x ptr> poison, ptr %v2, i64 0
//   %t139 = shufflevector <1 x ptr> %t138, <1 x ptr> poison, <4 x i32> zeroinitializer
//   %t140 = sext <4 x i32> %t75 to <4 x i64>
//   %t141 = getelementptr float, <4 x ptr> %t139, <4 x i64> %t140
//   %t145 = extractelement <4 x ptr> %t141, i64 0
//   %t146 = addrspacecast ptr %t145 to ptr addrspace(1)
//   %t147 = ptrtoint ptr addrspace(1) %t146 to i64
//   %t148 = and i64 %t147, 15
//   %t149 = icmp eq i64 %t148, 0
//   br i1 %t149, label %st.vec142, label %st.slots143
//
// st.vec142:                                        ; preds = %ld.end82
//   %t150 = shufflevector <4 x float> %t137, <4 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
//   store <4 x float> %t150, ptr addrspace(1) %t146, align 16
//   br label %st.end144
//
// st.slots143:                                      ; preds = %ld.end82
//   %t151 = addrspacecast <4 x ptr> %t141 to <4 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v4f32.v4p1(<4 x float> %t137, <4 x ptr addrspace(1)> align 4 %t151, <4 x i1> splat (i1 true))
//   br label %st.end144
//
// st.end144:                                        ; preds = %st.slots143, %st.vec142
//   ret void
//
// dead152:                                          ; No predecessors!
//   unreachable
// }
//
// ; Function Attrs: convergent nocallback nounwind memory(argmem: read)
// declare { i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3(ptr addrspace(3) readonly captures(none)) #6
//
// ; Function Attrs: convergent nocallback nounwind memory(argmem: read)
// declare { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) readonly captures(none)) #6
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nounwind memory(none) }
// attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #5 = { "nvvm.maxntid"="32" "nvvm.minctasm"="1" }
// attributes #6 = { convergent nocallback nounwind memory(argmem: read) }
