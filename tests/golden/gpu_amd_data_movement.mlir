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
// ----- expected gpu@gfx942 -----
// ; ModuleID = 'data_movement.gpu.ll'
// source_filename = "data_movement.gpu.ll"
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
// declare <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x bfloat>) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat>, <1 x ptr addrspace(1)>, <1 x i1>) #3
//
// define amdgpu_kernel void @data_movement(ptr noundef %v0, i64 noundef %v1) #4 {
// entry:
//   %t1.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 0
//   %t1 = load i32, ptr addrspace(4) %t1.at, align 4
//   %t3.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 1
//   %t3 = load i32, ptr addrspace(4) %t3.at, align 4
//   %t12 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t48 = icmp ult i32 %t12, 64
//   %t92 = icmp eq i32 %t12, 0
//   %t182.m = mul nuw i32 %t12, 8
//   %t182 = udiv i32 %t182.m, 256
//   %t201.m = mul nuw i32 %t12, 8
//   %t201.k = urem i32 %t201.m, 256
//   %t201 = icmp ult i32 %t201.k, 8
//   br label %body
//
// body:                                             ; preds = %entry
//   %t2 = add i32 %t1, 1
//   %t4 = srem i32 %t2, %t3
//   %t5 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t6 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t7 = load i64, ptr addrspace(4) %t6, align 8
//   %t8 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t9 = load i64, ptr addrspace(4) %t8, align 8
//   %t10 = sub i64 %t7, %t9
//   %t11 = getelementptr i8, ptr %v0, i64 %t10
//   %t13 = zext i32 %t12 to i64
//   %t14 = addrspacecast ptr %t11 to ptr addrspace(1)
//   %t15 = addrspacecast ptr %t5 to ptr addrspace(1)
//   %t16 = mul i64 %v1, 2
//   %t17 = ptrtoint ptr addrspace(1) %t14 to i64
//   %t18 = ptrtoint ptr addrspace(1) %t15 to i64
//   %t19 = or i64 %t17, %t18
//   %t20 = or i64 %t19, %t16
//   %t21 = and i64 %t20, 15
//   %t22 = icmp eq i64 %t21, 0
//   br i1 %t22, label %copy.vec23, label %copy.elems24
//
// copy.vec23:                                       ; preds = %body
//   %t26 = lshr i64 %t16, 4
//   br label %loop.head27
//
// loop.head27:                                      ; preds = %loop.latch32, %copy.vec23
//   %t30 = phi i64 [ %t13, %copy.vec23 ], [ %t31, %loop.latch32 ]
//   %t33 = icmp slt i64 %t30, %t26
//   br i1 %t33, label %loop.body28, label %loop.exit29
//
// loop.body28:                                      ; preds = %loop.head27
//   %t34 = getelementptr <4 x i32>, ptr addrspace(1) %t15, i64 %t30
//   %t35 = getelementptr <4 x i32>, ptr addrspace(1) %t14, i64 %t30
//   %t36 = load <4 x i32>, ptr addrspace(1) %t34, align 16
//   store <4 x i32> %t36, ptr addrspace(1) %t35, align 16
//   br label %loop.latch32
//
// loop.latch32:                                     ; preds = %loop.body28
//   %t31 = add i64 %t30, 256
//   br label %loop.head27
//
// loop.exit29:                                      ; preds = %loop.head27
//   br label %copy.end25
//
// copy.elems24:                                     ; preds = %body
//   br label %loop.head37
//
// loop.head37:                                      ; preds = %loop.latch42, %copy.elems24
//   %t40 = phi i64 [ %t13, %copy.elems24 ], [ %t41, %loop.latch42 ]
//   %t43 = icmp slt i64 %t40, %v1
//   br i1 %t43, label %loop.body38, label %loop.exit39
//
// loop.body38:                                      ; preds = %loop.head37
//   %t44 = getelementptr bfloat, ptr addrspace(1) %t15, i64 %t40
//   %t45 = getelementptr bfloat, ptr addrspace(1) %t14, i64 %t40
//   %t46 = load bfloat, ptr addrspace(1) %t44, align 2
//   store bfloat %t46, ptr addrspace(1) %t45, align 2
//   br label %loop.latch42
//
// loop.latch42:                                     ; preds = %loop.body38
//   %t41 = add i64 %t40, 256
//   br label %loop.head37
//
// loop.exit39:                                      ; preds = %loop.head37
//   br label %copy.end25
//
// copy.end25:                                       ; preds = %loop.exit39, %loop.exit29
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t47 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t48, label %one.do49, label %one.end50
//
// one.do49:                                         ; preds = %copy.end25
//   %t51 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t52 = load i64, ptr addrspace(4) %t51, align 8
//   %t53 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t54 = load i64, ptr addrspace(4) %t53, align 8
//   %t55 = sub i64 %t52, %t54
//   %t56 = getelementptr i8, ptr %v0, i64 %t55
//   %t57 = zext i32 %t12 to i64
//   %t58 = addrspacecast ptr %t56 to ptr addrspace(1)
//   %t59 = addrspacecast ptr %t47 to ptr addrspace(1)
//   %t60 = mul i64 %v1, 2
//   %t61 = ptrtoint ptr addrspace(1) %t58 to i64
//   %t62 = ptrtoint ptr addrspace(1) %t59 to i64
//   %t63 = or i64 %t61, %t62
//   %t64 = or i64 %t63, %t60
//   %t65 = and i64 %t64, 15
//   %t66 = icmp eq i64 %t65, 0
//   br i1 %t66, label %copy.vec67, label %copy.elems68
//
// copy.vec67:                                       ; preds = %one.do49
//   %t70 = lshr i64 %t60, 4
//   br label %loop.head71
//
// loop.head71:                                      ; preds = %loop.latch76, %copy.vec67
//   %t74 = phi i64 [ %t57, %copy.vec67 ], [ %t75, %loop.latch76 ]
//   %t77 = icmp slt i64 %t74, %t70
//   br i1 %t77, label %loop.body72, label %loop.exit73
//
// loop.body72:                                      ; preds = %loop.head71
//   %t78 = getelementptr <4 x i32>, ptr addrspace(1) %t59, i64 %t74
//   %t79 = getelementptr <4 x i32>, ptr addrspace(1) %t58, i64 %t74
//   %t80 = load <4 x i32>, ptr addrspace(1) %t78, align 16
//   store <4 x i32> %t80, ptr addrspace(1) %t79, align 16
//   br label %loop.latch76
//
// loop.latch76:                                     ; preds = %loop.body72
//   %t75 = add i64 %t74, 64
//   br label %loop.head71
//
// loop.exit73:                                      ; preds = %loop.head71
//   br label %copy.end69
//
// copy.elems68:                                     ; preds = %one.do49
//   br label %loop.head81
//
// loop.head81:                                      ; preds = %loop.latch86, %copy.elems68
//   %t84 = phi i64 [ %t57, %copy.elems68 ], [ %t85, %loop.latch86 ]
//   %t87 = icmp slt i64 %t84, %v1
//   br i1 %t87, label %loop.body82, label %loop.exit83
//
// loop.body82:                                      ; preds = %loop.head81
//   %t88 = getelementptr bfloat, ptr addrspace(1) %t59, i64 %t84
//   %t89 = getelementptr bfloat, ptr addrspace(1) %t58, i64 %t84
//   %t90 = load bfloat, ptr addrspace(1) %t88, align 2
//   store bfloat %t90, ptr addrspace(1) %t89, align 2
//   br label %loop.latch86
//
// loop.latch86:                                     ; preds = %loop.body82
//   %t85 = add i64 %t84, 64
//   br label %loop.head81
//
// loop.exit83:                                      ; preds = %loop.head81
//   br label %copy.end69
//
// copy.end69:                                       ; preds = %loop.exit83, %loop.exit73
//   br label %one.end50
//
// one.end50:                                        ; preds = %copy.end69, %copy.end25
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t91 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t92, label %one.do93, label %one.end94
//
// one.do93:                                         ; preds = %one.end50
//   %t95 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t96 = load i64, ptr addrspace(4) %t95, align 8
//   %t97 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t98 = load i64, ptr addrspace(4) %t97, align 8
//   %t99 = sub i64 %t96, %t98
//   %t100 = getelementptr i8, ptr %t91, i64 %t99
//   %t101 = zext i32 0 to i64
//   %t102 = addrspacecast ptr %v0 to ptr addrspace(1)
//   %t103 = addrspacecast ptr %t100 to ptr addrspace(1)
//   %t104 = mul i64 %v1, 2
//   %t105 = ptrtoint ptr addrspace(1) %t102 to i64
//   %t106 = ptrtoint ptr addrspace(1) %t103 to i64
//   %t107 = or i64 %t105, %t106
//   %t108 = or i64 %t107, %t104
//   %t109 = and i64 %t108, 15
//   %t110 = icmp eq i64 %t109, 0
//   br i1 %t110, label %copy.vec111, label %copy.elems112
//
// copy.vec111:                                      ; preds = %one.do93
//   %t114 = lshr i64 %t104, 4
//   br label %loop.head115
//
// loop.head115:                                     ; preds = %loop.latch120, %copy.vec111
//   %t118 = phi i64 [ %t101, %copy.vec111 ], [ %t119, %loop.latch120 ]
//   %t121 = icmp slt i64 %t118, %t114
//   br i1 %t121, label %loop.body116, label %loop.exit117
//
// loop.body116:                                     ; preds = %loop.head115
//   %t122 = getelementptr <4 x i32>, ptr addrspace(1) %t103, i64 %t118
//   %t123 = getelementptr <4 x i32>, ptr addrspace(1) %t102, i64 %t118
//   %t124 = load <4 x i32>, ptr addrspace(1) %t122, align 16
//   store <4 x i32> %t124, ptr addrspace(1) %t123, align 16
//   br label %loop.latch120
//
// loop.latch120:                                    ; preds = %loop.body116
//   %t119 = add i64 %t118, 1
//   br label %loop.head115
//
// loop.exit117:                                     ; preds = %loop.head115
//   br label %copy.end113
//
// copy.elems112:                                    ; preds = %one.do93
//   br label %loop.head125
//
// loop.head125:                                     ; preds = %loop.latch130, %copy.elems112
//   %t128 = phi i64 [ %t101, %copy.elems112 ], [ %t129, %loop.latch130 ]
//   %t131 = icmp slt i64 %t128, %v1
//   br i1 %t131, label %loop.body126, label %loop.exit127
//
// loop.body126:                                     ; preds = %loop.head125
//   %t132 = getelementptr bfloat, ptr addrspace(1) %t103, i64 %t128
//   %t133 = getelementptr bfloat, ptr addrspace(1) %t102, i64 %t128
//   %t134 = load bfloat, ptr addrspace(1) %t132, align 2
//   store bfloat %t134, ptr addrspace(1) %t133, align 2
//   br label %loop.latch130
//
// loop.latch130:                                    ; preds = %loop.body126
//   %t129 = add i64 %t128, 1
//   br label %loop.head125
//
// loop.exit127:                                     ; preds = %loop.head125
//   br label %copy.end113
//
// copy.end113:                                      ; preds = %loop.exit127, %loop.exit117
//   br label %one.end94
//
// one.end94:                                        ; preds = %copy.end113, %one.end50
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t135 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t136 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t137 = load i64, ptr addrspace(4) %t136, align 8
//   %t138 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t139 = load i64, ptr addrspace(4) %t138, align 8
//   %t140 = sub i64 %t137, %t139
//   %t141 = getelementptr i8, ptr %t135, i64 %t140
//   %t142 = zext i32 %t12 to i64
//   %t143 = addrspacecast ptr %v0 to ptr addrspace(1)
//   %t144 = addrspacecast ptr %t141 to ptr addrspace(1)
//   %t145 = mul i64 %v1, 2
//   %t146 = ptrtoint ptr addrspace(1) %t143 to i64
//   %t147 = ptrtoint ptr addrspace(1) %t144 to i64
//   %t148 = or i64 %t146, %t147
//   %t149 = or i64 %t148, %t145
//   %t150 = and i64 %t149, 15
//   %t151 = icmp eq i64 %t150, 0
//   br i1 %t151, label %copy.vec152, label %copy.elems153
//
// copy.vec152:                                      ; preds = %one.end94
//   %t155 = lshr i64 %t145, 4
//   br label %loop.head156
//
// loop.head156:                                     ; preds = %loop.latch161, %copy.vec152
//   %t159 = phi i64 [ %t142, %copy.vec152 ], [ %t160, %loop.latch161 ]
//   %t162 = icmp slt i64 %t159, %t155
//   br i1 %t162, label %loop.body157, label %loop.exit158
//
// loop.body157:                                     ; preds = %loop.head156
//   %t163 = getelementptr <4 x i32>, ptr addrspace(1) %t144, i64 %t159
//   %t164 = getelementptr <4 x i32>, ptr addrspace(1) %t143, i64 %t159
//   %t165 = load <4 x i32>, ptr addrspace(1) %t163, align 16
//   store <4 x i32> %t165, ptr addrspace(1) %t164, align 16
//   br label %loop.latch161
//
// loop.latch161:                                    ; preds = %loop.body157
//   %t160 = add i64 %t159, 256
//   br label %loop.head156
//
// loop.exit158:                                     ; preds = %loop.head156
//   br label %copy.end154
//
// copy.elems153:                                    ; preds = %one.end94
//   br label %loop.head166
//
// loop.head166:                                     ; preds = %loop.latch171, %copy.elems153
//   %t169 = phi i64 [ %t142, %copy.elems153 ], [ %t170, %loop.latch171 ]
//   %t172 = icmp slt i64 %t169, %v1
//   br i1 %t172, label %loop.body167, label %loop.exit168
//
// loop.body167:                                     ; preds = %loop.head166
//   %t173 = getelementptr bfloat, ptr addrspace(1) %t144, i64 %t169
//   %t174 = getelementptr bfloat, ptr addrspace(1) %t143, i64 %t169
//   %t175 = load bfloat, ptr addrspace(1) %t173, align 2
//   store bfloat %t175, ptr addrspace(1) %t174, align 2
//   br label %loop.latch171
//
// loop.latch171:                                    ; preds = %loop.body167
//   %t170 = add i64 %t169, 256
//   br label %loop.head166
//
// loop.exit168:                                     ; preds = %loop.head166
//   br label %copy.end154
//
// copy.end154:                                      ; preds = %loop.exit168, %loop.exit158
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   fence seq_cst
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t176 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t177 = load i64, ptr addrspace(4) %t176, align 8
//   %t178 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t179 = load i64, ptr addrspace(4) %t178, align 8
//   %t180 = sub i64 %t177, %t179
//   %t181 = getelementptr i8, ptr %v0, i64 %t180
//   %t183 = add i32 %t182, 0
//   %t184 = insertelement <1 x i32> poison, i32 %t183, i64 0
//   %t185 = shufflevector <1 x i32> %t184, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t186 = add <1 x i32> %t185, zeroinitializer
//   %t187 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t188 = shufflevector <1 x ptr> %t187, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t189 = sext <1 x i32> %t186 to <1 x i64>
//   %t190 = getelementptr bfloat, <1 x ptr> %t188, <1 x i64> %t189
//   %t191 = add i32 %t182, 0
//   %t192 = insertelement <1 x i32> poison, i32 %t191, i64 0
//   %t193 = shufflevector <1 x i32> %t192, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t194 = add <1 x i32> %t193, zeroinitializer
//   %t195 = insertelement <1 x ptr> poison, ptr %t181, i64 0
//   %t196 = shufflevector <1 x ptr> %t195, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t197 = sext <1 x i32> %t194 to <1 x i64>
//   %t198 = getelementptr bfloat, <1 x ptr> %t196, <1 x i64> %t197
//   %t199 = addrspacecast <1 x ptr> %t198 to <1 x ptr addrspace(1)>
//   %t200 = call <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)> align 2 %t199, <1 x i1> splat (i1 true), <1 x bfloat> zeroinitializer)
//   %t202 = insertelement <1 x i1> poison, i1 %t201, i64 0
//   %t203 = shufflevector <1 x i1> %t202, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t204 = and <1 x i1> splat (i1 true), %t203
//   %t205 = addrspacecast <1 x ptr> %t190 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat> %t200, <1 x ptr addrspace(1)> align 2 %t205, <1 x i1> %t204)
//   ret void
//
// dead206:                                          ; No predecessors!
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
