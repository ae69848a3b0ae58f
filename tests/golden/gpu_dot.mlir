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
// @__weft_smem = internal addrspace(3) global [768 x i8] undef, align 16
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
//   %t12.m = mul nuw i32 %t1, 16
//   %t12.k = urem i32 %t12.m, 32
//   %t12 = icmp ult i32 %t12.k, 16
//   %t16 = mul nuw i32 %t1, 8
//   %t96.m = mul nuw i32 %t1, 8
//   %t96 = udiv i32 %t96.m, 32
//   %t106.m = mul nuw i32 %t1, 8
//   %t106.k = urem i32 %t106.m, 32
//   %t106 = icmp ult i32 %t106.k, 8
//   %t110 = mul nuw i32 %t1, 4
//   %t189.w = udiv i32 %t1, 32
//   %t189.l = urem i32 %t1, 32
//   %t189.wm = udiv i32 %t189.w, 1
//   %t189.wn = urem i32 %t189.w, 1
//   %t189.g = udiv i32 %t189.l, 4
//   %t189.q = urem i32 %t189.l, 4
//   %t189.r0 = mul i32 %t189.wm, 16
//   %t189.row = add i32 %t189.r0, %t189.g
//   %t189.c0 = mul i32 %t189.wn, 8
//   %t189.c1 = mul i32 %t189.q, 2
//   %t189.col = add i32 %t189.c0, %t189.c1
//   %t189.rn = mul i32 %t189.row, 8
//   %t189 = add i32 %t189.rn, %t189.col
//   %t190.row = udiv i32 %t189, 8
//   %t190.col = urem i32 %t189, 8
//   %t190.c = urem i32 %t190.col, 8
//   %t190.rk = mul i32 %t190.row, 16
//   %t190 = add i32 %t190.rk, %t190.c
//   %t191.w = udiv i32 %t1, 32
//   %t191.wn = urem i32 %t191.w, 1
//   %t191.l = urem i32 %t1, 32
//   %t191.g = udiv i32 %t191.l, 4
//   %t191.q = urem i32 %t191.l, 4
//   %t191.c0 = mul i32 %t191.wn, 8
//   %t191.n = add i32 %t191.c0, %t191.g
//   %t191.nk = mul i32 %t191.n, 16
//   %t191.k2 = mul i32 %t191.q, 2
//   %t191 = add i32 %t191.nk, %t191.k2
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
//   %t10 = shufflevector <1 x i32> %t9, <1 x i32> poison, <8 x i32> zeroinitializer
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t11 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t2
//   %t13 = extractelement <1 x i32> %t6, i64 0
//   br i1 %t12, label %one.do14, label %one.end15
//
// one.do14:                                         ; preds = %body
//   store i32 %t13, ptr addrspace(3) %t11, align 4
//   br label %one.end15
//
// one.end15:                                        ; preds = %one.do14, %body
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t17 = add i32 %t16, 0
//   %t18 = udiv i32 %t17, 1
//   %t19 = urem i32 %t18, 16
//   %t20 = mul i32 %t19, 1
//   %t21 = add i32 0, %t20
//   %t22 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t21
//   %t23 = getelementptr inbounds i32, ptr addrspace(3) %t22, i32 0
//   %t24 = load i32, ptr addrspace(3) %t23, align 4
//   %t25 = add i32 %t16, 1
//   %t26 = udiv i32 %t25, 1
//   %t27 = urem i32 %t26, 16
//   %t28 = mul i32 %t27, 1
//   %t29 = add i32 0, %t28
//   %t30 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t29
//   %t31 = getelementptr inbounds i32, ptr addrspace(3) %t30, i32 0
//   %t32 = load i32, ptr addrspace(3) %t31, align 4
//   %t33 = add i32 %t16, 2
//   %t34 = udiv i32 %t33, 1
//   %t35 = urem i32 %t34, 16
//   %t36 = mul i32 %t35, 1
//   %t37 = add i32 0, %t36
//   %t38 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t37
//   %t39 = getelementptr inbounds i32, ptr addrspace(3) %t38, i32 0
//   %t40 = load i32, ptr addrspace(3) %t39, align 4
//   %t41 = add i32 %t16, 3
//   %t42 = udiv i32 %t41, 1
//   %t43 = urem i32 %t42, 16
//   %t44 = mul i32 %t43, 1
//   %t45 = add i32 0, %t44
//   %t46 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t45
//   %t47 = getelementptr inbounds i32, ptr addrspace(3) %t46, i32 0
//   %t48 = load i32, ptr addrspace(3) %t47, align 4
//   %t49 = add i32 %t16, 4
//   %t50 = udiv i32 %t49, 1
//   %t51 = urem i32 %t50, 16
//   %t52 = mul i32 %t51, 1
//   %t53 = add i32 0, %t52
//   %t54 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t53
//   %t55 = getelementptr inbounds i32, ptr addrspace(3) %t54, i32 0
//   %t56 = load i32, ptr addrspace(3) %t55, align 4
//   %t57 = add i32 %t16, 5
//   %t58 = udiv i32 %t57, 1
//   %t59 = urem i32 %t58, 16
//   %t60 = mul i32 %t59, 1
//   %t61 = add i32 0, %t60
//   %t62 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t61
//   %t63 = getelementptr inbounds i32, ptr addrspace(3) %t62, i32 0
//   %t64 = load i32, ptr addrspace(3) %t63, align 4
//   %t65 = add i32 %t16, 6
//   %t66 = udiv i32 %t65, 1
//   %t67 = urem i32 %t66, 16
//   %t68 = mul i32 %t67, 1
//   %t69 = add i32 0, %t68
//   %t70 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t69
//   %t71 = getelementptr inbounds i32, ptr addrspace(3) %t70, i32 0
//   %t72 = load i32, ptr addrspace(3) %t71, align 4
//   %t73 = add i32 %t16, 7
//   %t74 = udiv i32 %t73, 1
//   %t75 = urem i32 %t74, 16
//   %t76 = mul i32 %t75, 1
//   %t77 = add i32 0, %t76
//   %t78 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t77
//   %t79 = getelementptr inbounds i32, ptr addrspace(3) %t78, i32 0
//   %t80 = load i32, ptr addrspace(3) %t79, align 4
//   %t81 = insertelement <8 x i32> poison, i32 %t24, i64 0
//   %t82 = insertelement <8 x i32> %t81, i32 %t32, i64 1
//   %t83 = insertelement <8 x i32> %t82, i32 %t40, i64 2
//   %t84 = insertelement <8 x i32> %t83, i32 %t48, i64 3
//   %t85 = insertelement <8 x i32> %t84, i32 %t56, i64 4
//   %t86 = insertelement <8 x i32> %t85, i32 %t64, i64 5
//   %t87 = insertelement <8 x i32> %t86, i32 %t72, i64 6
//   %t88 = insertelement <8 x i32> %t87, i32 %t80, i64 7
//   %t89 = add <8 x i32> %t10, %t88
//   %t90 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t91 = shufflevector <1 x ptr> %t90, <1 x ptr> poison, <8 x i32> zeroinitializer
//   %t92 = sext <8 x i32> %t89 to <8 x i64>
//   %t93 = getelementptr bfloat, <8 x ptr> %t91, <8 x i64> %t92
//   %t94 = addrspacecast <8 x ptr> %t93 to <8 x ptr addrspace(1)>
//   %t95 = call <8 x bfloat> @llvm.masked.gather.v8bf16.v8p1(<8 x ptr addrspace(1)> align 2 %t94, <8 x i1> splat (i1 true), <8 x bfloat> zeroinitializer)
//   %t97 = add i32 %t96, 0
//   %t98 = insertelement <1 x i32> poison, i32 %t97, i64 0
//   %t99 = shufflevector <1 x i32> %t98, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t100 = add <1 x i32> %t99, zeroinitializer
//   %t101 = insertelement <1 x i32> poison, i32 8, i64 0
//   %t102 = shufflevector <1 x i32> %t101, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t103 = mul <1 x i32> %t6, %t102
//   %t104 = shufflevector <1 x i32> %t103, <1 x i32> poison, <4 x i32> zeroinitializer
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t105 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t96
//   %t107 = extractelement <1 x i32> %t100, i64 0
//   br i1 %t106, label %one.do108, label %one.end109
//
// one.do108:                                        ; preds = %one.end15
//   store i32 %t107, ptr addrspace(3) %t105, align 4
//   br label %one.end109
//
// one.end109:                                       ; preds = %one.do108, %one.end15
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t111 = add i32 %t110, 0
//   %t112 = udiv i32 %t111, 1
//   %t113 = urem i32 %t112, 8
//   %t114 = mul i32 %t113, 1
//   %t115 = add i32 0, %t114
//   %t116 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t115
//   %t117 = getelementptr inbounds i32, ptr addrspace(3) %t116, i32 0
//   %t118 = load i32, ptr addrspace(3) %t117, align 4
//   %t119 = add i32 %t110, 1
//   %t120 = udiv i32 %t119, 1
//   %t121 = urem i32 %t120, 8
//   %t122 = mul i32 %t121, 1
//   %t123 = add i32 0, %t122
//   %t124 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t123
//   %t125 = getelementptr inbounds i32, ptr addrspace(3) %t124, i32 0
//   %t126 = load i32, ptr addrspace(3) %t125, align 4
//   %t127 = add i32 %t110, 2
//   %t128 = udiv i32 %t127, 1
//   %t129 = urem i32 %t128, 8
//   %t130 = mul i32 %t129, 1
//   %t131 = add i32 0, %t130
//   %t132 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t131
//   %t133 = getelementptr inbounds i32, ptr addrspace(3) %t132, i32 0
//   %t134 = load i32, ptr addrspace(3) %t133, align 4
//   %t135 = add i32 %t110, 3
//   %t136 = udiv i32 %t135, 1
//   %t137 = urem i32 %t136, 8
//   %t138 = mul i32 %t137, 1
//   %t139 = add i32 0, %t138
//   %t140 = getelementptr inbounds i32, ptr addrspace(3) @__weft_smem, i32 %t139
//   %t141 = getelementptr inbounds i32, ptr addrspace(3) %t140, i32 0
//   %t142 = load i32, ptr addrspace(3) %t141, align 4
//   %t143 = insertelement <4 x i32> poison, i32 %t118, i64 0
//   %t144 = insertelement <4 x i32> %t143, i32 %t126, i64 1
//   %t145 = insertelement <4 x i32> %t144, i32 %t134, i64 2
//   %t146 = insertelement <4 x i32> %t145, i32 %t142, i64 3
//   %t147 = add <4 x i32> %t104, %t146
//   %t148 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t149 = shufflevector <1 x ptr> %t148, <1 x ptr> poison, <4 x i32> zeroinitializer
//   %t150 = sext <4 x i32> %t147 to <4 x i64>
//   %t151 = getelementptr bfloat, <4 x ptr> %t149, <4 x i64> %t150
//   %t152 = addrspacecast <4 x ptr> %t151 to <4 x ptr addrspace(1)>
//   %t153 = call <4 x bfloat> @llvm.masked.gather.v4bf16.v4p1(<4 x ptr addrspace(1)> align 2 %t152, <4 x i1> splat (i1 true), <4 x bfloat> zeroinitializer)
//   %t154 = insertelement <1 x float> poison, float 0.000000e+00, i64 0
//   %t155 = shufflevector <1 x float> %t154, <1 x float> poison, <4 x i32> zeroinitializer
//   %t156 = extractelement <4 x float> %t155, i64 0
//   %t157 = extractelement <4 x float> %t155, i64 1
//   %t158 = extractelement <4 x float> %t155, i64 2
//   %t159 = extractelement <4 x float> %t155, i64 3
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t160 = getelementptr inbounds bfloat, ptr addrspace(3) @__weft_smem, i32 %t16
//   store <8 x bfloat> %t95, ptr addrspace(3) %t160, align 16
//   %t161 = add i32 %t110, 0
//   %t162 = udiv i32 %t161, 8
//   %t163 = urem i32 %t161, 8
//   %t164 = mul i32 %t163, 16
//   %t165 = add i32 %t164, %t162
//   %t166 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 512), i32 %t165
//   %t167 = extractelement <4 x bfloat> %t153, i64 0
//   store bfloat %t167, ptr addrspace(3) %t166, align 2
//   %t168 = add i32 %t110, 1
//   %t169 = udiv i32 %t168, 8
//   %t170 = urem i32 %t168, 8
//   %t171 = mul i32 %t170, 16
//   %t172 = add i32 %t171, %t169
//   %t173 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 512), i32 %t172
//   %t174 = extractelement <4 x bfloat> %t153, i64 1
//   store bfloat %t174, ptr addrspace(3) %t173, align 2
//   %t175 = add i32 %t110, 2
//   %t176 = udiv i32 %t175, 8
//   %t177 = urem i32 %t175, 8
//   %t178 = mul i32 %t177, 16
//   %t179 = add i32 %t178, %t176
//   %t180 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 512), i32 %t179
//   %t181 = extractelement <4 x bfloat> %t153, i64 2
//   store bfloat %t181, ptr addrspace(3) %t180, align 2
//   %t182 = add i32 %t110, 3
//   %t183 = udiv i32 %t182, 8
//   %t184 = urem i32 %t182, 8
//   %t185 = mul i32 %t184, 16
//   %t186 = add i32 %t185, %t183
//   %t187 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 512), i32 %t186
//   %t188 = extractelement <4 x bfloat> %t153, i64 3
//   store bfloat %t188, ptr addrspace(3) %t187, align 2
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t192 = getelementptr inbounds bfloat, ptr addrspace(3) @__weft_smem, i32 %t190
//   %t193 = getelementptr inbounds bfloat, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @__weft_smem, i32 512), i32 %t191
//   %t194 = getelementptr inbounds bfloat, ptr addrspace(3) %t193, i32 0
//   %t195 = load i32, ptr addrspace(3) %t194, align 4
//   %t196 = getelementptr inbounds bfloat, ptr addrspace(3) %t193, i32 8
//   %t197 = load i32, ptr addrspace(3) %t196, align 4
//   %t198 = getelementptr inbounds bfloat, ptr addrspace(3) %t192, i32 0
//   %t199 = load i32, ptr addrspace(3) %t198, align 4
//   %t200 = getelementptr inbounds bfloat, ptr addrspace(3) %t192, i32 128
//   %t201 = load i32, ptr addrspace(3) %t200, align 4
//   %t202 = getelementptr inbounds bfloat, ptr addrspace(3) %t192, i32 8
//   %t203 = load i32, ptr addrspace(3) %t202, align 4
//   %t204 = getelementptr inbounds bfloat, ptr addrspace(3) %t192, i32 136
//   %t205 = load i32, ptr addrspace(3) %t204, align 4
//   %t206 = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 %t199, i32 %t201, i32 %t203, i32 %t205, i32 %t195, i32 %t197, float %t156, float %t157, float %t158, float %t159)
//   %t207 = extractvalue { float, float, float, float } %t206, 0
//   %t208 = extractvalue { float, float, float, float } %t206, 1
//   %t209 = extractvalue { float, float, float, float } %t206, 2
//   %t210 = extractvalue { float, float, float, float } %t206, 3
//   %t211 = insertelement <4 x float> poison, float %t207, i64 0
//   %t212 = insertelement <4 x float> %t211, float %t208, i64 1
//   %t213 = insertelement <4 x float> %t212, float %t209, i64 2
//   %t214 = insertelement <4 x float> %t213, float %t210, i64 3
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t215 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t189
//   %t216 = extractelement <4 x float> %t214, i64 0
//   %t217 = getelementptr inbounds float, ptr addrspace(3) %t215, i32 0
//   store float %t216, ptr addrspace(3) %t217, align 4
//   %t218 = extractelement <4 x float> %t214, i64 1
//   %t219 = getelementptr inbounds float, ptr addrspace(3) %t215, i32 1
//   store float %t218, ptr addrspace(3) %t219, align 4
//   %t220 = extractelement <4 x float> %t214, i64 2
//   %t221 = getelementptr inbounds float, ptr addrspace(3) %t215, i32 64
//   store float %t220, ptr addrspace(3) %t221, align 4
//   %t222 = extractelement <4 x float> %t214, i64 3
//   %t223 = getelementptr inbounds float, ptr addrspace(3) %t215, i32 65
//   store float %t222, ptr addrspace(3) %t223, align 4
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t224 = getelementptr inbounds float, ptr addrspace(3) @__weft_smem, i32 %t110
//   %t225 = load <4 x float>, ptr addrspace(3) %t224, align 16
//   %t226 = insertelement <1 x ptr> poison, ptr %v2, i64 0
//   %t227 = shufflevector <1 x ptr> %t226, <1 x ptr> poison, <4 x i32> zeroinitializer
//   %t228 = sext <4 x i32> %t147 to <4 x i64>
//   %t229 = getelementptr float, <4 x ptr> %t227, <4 x i64> %t228
//   %t230 = addrspacecast <4 x ptr> %t229 to <4 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v4f32.v4p1(<4 x float> %t225, <4 x ptr addrspace(1)> align 4 %t230, <4 x i1> splat (i1 true))
//   ret void
//
// dead231:                                          ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nounwind memory(none) }
// attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #5 = { "nvvm.maxntid"="32" "nvvm.minctasm"="1" }
