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
// ----- expected gpu@gfx942 -----
// ; ModuleID = 'signals.gpu.ll'
// source_filename = "signals.gpu.ll"
// target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
// target triple = "amdgcn-amd-amdhsa"
//
// @__weft_grid_count = internal addrspace(1) global i32 0, align 4
// @__weft_grid_gen = internal addrspace(1) global i32 0, align 4
// @__weft_token = internal addrspace(3) global i64 undef, align 8
// @weft_shmem_state = protected addrspace(4) externally_initialized global { i32, i32, i64, [64 x i64] } zeroinitializer, align 8
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef align 4 ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr() #0
//
// ; Function Attrs: convergent nocallback nofree nounwind willreturn
// declare void @llvm.amdgcn.s.barrier() #1
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn
// declare void @llvm.amdgcn.s.sleep(i32 immarg) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef i32 @llvm.amdgcn.workgroup.id.x() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef i32 @llvm.amdgcn.workgroup.id.y() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef i32 @llvm.amdgcn.workgroup.id.z() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x float>) #3
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1f32.v1p1(<1 x float>, <1 x ptr addrspace(1)>, <1 x i1>) #4
//
// define amdgpu_kernel void @signals(ptr noundef %v0, ptr noundef %v1, ptr noundef %v2, i64 noundef %v3) #5 {
// entry:
//   %t1.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 0
//   %t1 = load i32, ptr addrspace(4) %t1.at, align 4
//   %t3.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 1
//   %t3 = load i32, ptr addrspace(4) %t3.at, align 4
//   %t11 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t46 = icmp eq i32 %t11, 0
//   %t86.m = mul nuw i32 %t11, 4
//   %t86 = udiv i32 %t86.m, 256
//   %t109.m = mul nuw i32 %t11, 4
//   %t109.k = urem i32 %t109.m, 256
//   %t109 = icmp ult i32 %t109.k, 4
//   %t114.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t114.at = getelementptr i8, ptr addrspace(4) %t114.args, i64 0
//   %t114 = load i32, ptr addrspace(4) %t114.at, align 4
//   %t115.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t115.at = getelementptr i8, ptr addrspace(4) %t115.args, i64 4
//   %t115 = load i32, ptr addrspace(4) %t115.at, align 4
//   %t116.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t116.at = getelementptr i8, ptr addrspace(4) %t116.args, i64 8
//   %t116 = load i32, ptr addrspace(4) %t116.at, align 4
//   %t131 = call i32 @llvm.amdgcn.workgroup.id.x()
//   %t132 = call i32 @llvm.amdgcn.workgroup.id.y()
//   %t133 = call i32 @llvm.amdgcn.workgroup.id.z()
//   br label %body
//
// body:                                             ; preds = %entry
//   %t2 = add i32 %t1, 1
//   %t4 = srem i32 %t2, %t3
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t5 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t6 = load i64, ptr addrspace(4) %t5, align 8
//   %t7 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t8 = load i64, ptr addrspace(4) %t7, align 8
//   %t9 = sub i64 %t6, %t8
//   %t10 = getelementptr i8, ptr %v0, i64 %t9
//   %t12 = zext i32 %t11 to i64
//   %t13 = addrspacecast ptr %t10 to ptr addrspace(1)
//   %t14 = addrspacecast ptr %v1 to ptr addrspace(1)
//   %t15 = mul i64 %v3, 4
//   %t16 = ptrtoint ptr addrspace(1) %t13 to i64
//   %t17 = ptrtoint ptr addrspace(1) %t14 to i64
//   %t18 = or i64 %t16, %t17
//   %t19 = or i64 %t18, %t15
//   %t20 = and i64 %t19, 15
//   %t21 = icmp eq i64 %t20, 0
//   br i1 %t21, label %copy.vec22, label %copy.elems23
//
// copy.vec22:                                       ; preds = %body
//   %t25 = lshr i64 %t15, 4
//   br label %loop.head26
//
// loop.head26:                                      ; preds = %loop.latch31, %copy.vec22
//   %t29 = phi i64 [ %t12, %copy.vec22 ], [ %t30, %loop.latch31 ]
//   %t32 = icmp slt i64 %t29, %t25
//   br i1 %t32, label %loop.body27, label %loop.exit28
//
// loop.body27:                                      ; preds = %loop.head26
//   %t33 = getelementptr <4 x i32>, ptr addrspace(1) %t14, i64 %t29
//   %t34 = getelementptr <4 x i32>, ptr addrspace(1) %t13, i64 %t29
//   %t35 = load <4 x i32>, ptr addrspace(1) %t33, align 16
//   store <4 x i32> %t35, ptr addrspace(1) %t34, align 16
//   br label %loop.latch31
//
// loop.latch31:                                     ; preds = %loop.body27
//   %t30 = add i64 %t29, 256
//   br label %loop.head26
//
// loop.exit28:                                      ; preds = %loop.head26
//   br label %copy.end24
//
// copy.elems23:                                     ; preds = %body
//   br label %loop.head36
//
// loop.head36:                                      ; preds = %loop.latch41, %copy.elems23
//   %t39 = phi i64 [ %t12, %copy.elems23 ], [ %t40, %loop.latch41 ]
//   %t42 = icmp slt i64 %t39, %v3
//   br i1 %t42, label %loop.body37, label %loop.exit38
//
// loop.body37:                                      ; preds = %loop.head36
//   %t43 = getelementptr float, ptr addrspace(1) %t14, i64 %t39
//   %t44 = getelementptr float, ptr addrspace(1) %t13, i64 %t39
//   %t45 = load float, ptr addrspace(1) %t43, align 4
//   store float %t45, ptr addrspace(1) %t44, align 4
//   br label %loop.latch41
//
// loop.latch41:                                     ; preds = %loop.body37
//   %t40 = add i64 %t39, 256
//   br label %loop.head36
//
// loop.exit38:                                      ; preds = %loop.head36
//   br label %copy.end24
//
// copy.end24:                                       ; preds = %loop.exit38, %loop.exit28
//   fence release
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do47, label %one.end48
//
// one.do47:                                         ; preds = %copy.end24
//   %t49 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t50 = load i64, ptr addrspace(4) %t49, align 8
//   %t51 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t52 = load i64, ptr addrspace(4) %t51, align 8
//   %t53 = sub i64 %t50, %t52
//   %t54 = getelementptr i8, ptr %v2, i64 %t53
//   %t55 = addrspacecast ptr %t54 to ptr addrspace(1)
//   store atomic i64 1, ptr addrspace(1) %t55 release, align 8
//   br label %one.end48
//
// one.end48:                                        ; preds = %one.do47, %copy.end24
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t56 = getelementptr i64, ptr %v2, i64 1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do57, label %one.end58
//
// one.do57:                                         ; preds = %one.end48
//   %t59 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t60 = load i64, ptr addrspace(4) %t59, align 8
//   %t61 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t62 = load i64, ptr addrspace(4) %t61, align 8
//   %t63 = sub i64 %t60, %t62
//   %t64 = getelementptr i8, ptr %t56, i64 %t63
//   %t65 = addrspacecast ptr %t64 to ptr addrspace(1)
//   %t66 = atomicrmw add ptr addrspace(1) %t65, i64 2 release, align 8
//   br label %one.end58
//
// one.end58:                                        ; preds = %one.do57, %one.end48
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do67, label %one.end68
//
// one.do67:                                         ; preds = %one.end58
//   %t69 = addrspacecast ptr %v2 to ptr addrspace(1)
//   br label %wait.poll70
//
// wait.poll70:                                      ; preds = %wait.sleep71, %one.do67
//   %t73 = load atomic volatile i64, ptr addrspace(1) %t69 monotonic, align 8
//   %t74 = icmp uge i64 %t73, 1
//   br i1 %t74, label %wait.done72, label %wait.sleep71
//
// wait.sleep71:                                     ; preds = %wait.poll70
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll70
//
// wait.done72:                                      ; preds = %wait.poll70
//   fence acquire
//   store i64 %t73, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end68
//
// one.end68:                                        ; preds = %wait.done72, %one.end58
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t75 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t76 = getelementptr i64, ptr %v2, i64 1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do77, label %one.end78
//
// one.do77:                                         ; preds = %one.end68
//   %t79 = addrspacecast ptr %t76 to ptr addrspace(1)
//   br label %wait.poll80
//
// wait.poll80:                                      ; preds = %wait.sleep81, %one.do77
//   %t83 = load atomic volatile i64, ptr addrspace(1) %t79 monotonic, align 8
//   %t84 = icmp eq i64 %t83, 2
//   br i1 %t84, label %wait.done82, label %wait.sleep81
//
// wait.sleep81:                                     ; preds = %wait.poll80
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll80
//
// wait.done82:                                      ; preds = %wait.poll80
//   fence acquire
//   store i64 %t83, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end78
//
// one.end78:                                        ; preds = %wait.done82, %one.end68
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t85 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t87 = add i32 %t86, 0
//   %t88 = insertelement <1 x i32> poison, i32 %t87, i64 0
//   %t89 = shufflevector <1 x i32> %t88, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t90 = add <1 x i32> %t89, zeroinitializer
//   %t91 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t92 = shufflevector <1 x ptr> %t91, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t93 = sext <1 x i32> %t90 to <1 x i64>
//   %t94 = getelementptr float, <1 x ptr> %t92, <1 x i64> %t93
//   %t95.lo = trunc i64 %t75 to i32
//   %t95.z = call i32 asm sideeffect "v_and_b32 $0, 0, $1", "=v,v"(i32 %t95.lo)
//   %t95 = zext i32 %t95.z to i64
//   %t96 = getelementptr i8, <1 x ptr> %t94, i64 %t95
//   %t97.lo = trunc i64 %t85 to i32
//   %t97.z = call i32 asm sideeffect "v_and_b32 $0, 0, $1", "=v,v"(i32 %t97.lo)
//   %t97 = zext i32 %t97.z to i64
//   %t98 = getelementptr i8, <1 x ptr> %t96, i64 %t97
//   %t99 = addrspacecast <1 x ptr> %t98 to <1 x ptr addrspace(1)>
//   %t100 = call <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4 %t99, <1 x i1> splat (i1 true), <1 x float> zeroinitializer)
//   %t101 = add i32 %t86, 0
//   %t102 = insertelement <1 x i32> poison, i32 %t101, i64 0
//   %t103 = shufflevector <1 x i32> %t102, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t104 = add <1 x i32> %t103, zeroinitializer
//   %t105 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t106 = shufflevector <1 x ptr> %t105, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t107 = sext <1 x i32> %t104 to <1 x i64>
//   %t108 = getelementptr float, <1 x ptr> %t106, <1 x i64> %t107
//   %t110 = insertelement <1 x i1> poison, i1 %t109, i64 0
//   %t111 = shufflevector <1 x i1> %t110, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t112 = and <1 x i1> splat (i1 true), %t111
//   %t113 = addrspacecast <1 x ptr> %t108 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t100, <1 x ptr addrspace(1)> align 4 %t113, <1 x i1> %t112)
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   fence release
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   fence seq_cst
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   fence seq_cst
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do117, label %one.end118
//
// one.do117:                                        ; preds = %one.end78
//   %t119 = mul i32 %t114, %t115
//   %t120 = mul i32 %t119, %t116
//   %t121 = sub i32 %t120, 1
//   fence acq_rel
//   %t122 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t123 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t124 = icmp eq i32 %t123, %t121
//   br i1 %t124, label %grid.reset125, label %grid.wait126
//
// grid.reset125:                                    ; preds = %one.do117
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t128 = add i32 %t122, 1
//   store atomic i32 %t128, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done127
//
// grid.wait126:                                     ; preds = %grid.wait126, %one.do117
//   %t129 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t130 = icmp eq i32 %t129, %t122
//   br i1 %t130, label %grid.wait126, label %grid.done127
//
// grid.done127:                                     ; preds = %grid.wait126, %grid.reset125
//   br label %one.end118
//
// one.end118:                                       ; preds = %grid.done127, %one.end78
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t134 = or i32 %t131, %t132
//   %t135 = or i32 %t134, %t133
//   %t136 = icmp eq i32 %t135, 0
//   %t137 = and i1 %t136, %t46
//   br i1 %t137, label %one.do138, label %one.end139
//
// one.do138:                                        ; preds = %one.end118
//   %t140 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 2
//   %t141 = load i64, ptr addrspace(4) %t140, align 8
//   %t142 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t143 = load i64, ptr addrspace(4) %t142, align 8
//   %t144 = add i64 %t143, %t141
//   %t145 = inttoptr i64 %t144 to ptr addrspace(1)
//   %t146 = getelementptr i64, ptr addrspace(1) %t145, i64 64
//   %t147 = load volatile i64, ptr addrspace(1) %t146, align 8
//   %t148 = add i64 %t147, 1
//   store volatile i64 %t148, ptr addrspace(1) %t146, align 8
//   %t149 = zext i32 %t3 to i64
//   %t150 = zext i32 %t1 to i64
//   br label %loop.head151
//
// loop.head151:                                     ; preds = %loop.latch156, %one.do138
//   %t154 = phi i64 [ 0, %one.do138 ], [ %t155, %loop.latch156 ]
//   %t157 = icmp slt i64 %t154, %t149
//   br i1 %t157, label %loop.body152, label %loop.exit153
//
// loop.body152:                                     ; preds = %loop.head151
//   %t158 = trunc i64 %t154 to i32
//   %t159 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t158
//   %t160 = load i64, ptr addrspace(4) %t159, align 8
//   %t161 = add i64 %t160, %t141
//   %t162 = inttoptr i64 %t161 to ptr addrspace(1)
//   %t163 = getelementptr i64, ptr addrspace(1) %t162, i64 %t150
//   store atomic i64 %t148, ptr addrspace(1) %t163 release, align 8
//   br label %loop.latch156
//
// loop.latch156:                                    ; preds = %loop.body152
//   %t155 = add i64 %t154, 1
//   br label %loop.head151
//
// loop.exit153:                                     ; preds = %loop.head151
//   br label %loop.head164
//
// loop.head164:                                     ; preds = %loop.latch169, %loop.exit153
//   %t167 = phi i64 [ 0, %loop.exit153 ], [ %t168, %loop.latch169 ]
//   %t170 = icmp slt i64 %t167, %t149
//   br i1 %t170, label %loop.body165, label %loop.exit166
//
// loop.body165:                                     ; preds = %loop.head164
//   %t171 = getelementptr i64, ptr addrspace(1) %t145, i64 %t167
//   br label %wait.poll172
//
// wait.poll172:                                     ; preds = %wait.sleep173, %loop.body165
//   %t175 = load atomic volatile i64, ptr addrspace(1) %t171 monotonic, align 8
//   %t176 = icmp uge i64 %t175, %t148
//   br i1 %t176, label %wait.done174, label %wait.sleep173
//
// wait.sleep173:                                    ; preds = %wait.poll172
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll172
//
// wait.done174:                                     ; preds = %wait.poll172
//   fence acquire
//   br label %loop.latch169
//
// loop.latch169:                                    ; preds = %wait.done174
//   %t168 = add i64 %t167, 1
//   br label %loop.head164
//
// loop.exit166:                                     ; preds = %loop.head164
//   br label %one.end139
//
// one.end139:                                       ; preds = %loop.exit166, %one.end118
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t46, label %one.do177, label %one.end178
//
// one.do177:                                        ; preds = %one.end139
//   %t179 = mul i32 %t114, %t115
//   %t180 = mul i32 %t179, %t116
//   %t181 = sub i32 %t180, 1
//   fence acq_rel
//   %t182 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t183 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t184 = icmp eq i32 %t183, %t181
//   br i1 %t184, label %grid.reset185, label %grid.wait186
//
// grid.reset185:                                    ; preds = %one.do177
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t188 = add i32 %t182, 1
//   store atomic i32 %t188, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done187
//
// grid.wait186:                                     ; preds = %grid.wait186, %one.do177
//   %t189 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t190 = icmp eq i32 %t189, %t182
//   br i1 %t190, label %grid.wait186, label %grid.done187
//
// grid.done187:                                     ; preds = %grid.wait186, %grid.reset185
//   br label %one.end178
//
// one.end178:                                       ; preds = %grid.done187, %one.end139
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   ret void
//
// dead191:                                          ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #1 = { convergent nocallback nofree nounwind willreturn }
// attributes #2 = { nocallback nofree nosync nounwind willreturn }
// attributes #3 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #4 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #5 = { "amdgpu-flat-work-group-size"="256,256" "uniform-work-group-size"="true" }
//
// !llvm.module.flags = !{!0}
//
// !0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
