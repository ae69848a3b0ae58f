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
// ; weft kernel `signals` for gfx942: one CTA of 4 warps (256 threads) per program instance
// target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
// target triple = "amdgcn-amd-amdhsa"
//
// @__weft_grid_count = internal addrspace(1) global i32 0, align 4
// @__weft_grid_gen = internal addrspace(1) global i32 0, align 4
// @__weft_token = internal addrspace(3) global i64 undef, align 8
// declare ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
// declare void @llvm.amdgcn.s.barrier()
// declare void @llvm.amdgcn.s.sleep(i32)
// declare i32 @llvm.amdgcn.workgroup.id.x()
// declare i32 @llvm.amdgcn.workgroup.id.y()
// declare i32 @llvm.amdgcn.workgroup.id.z()
// declare i32 @llvm.amdgcn.workitem.id.x()
// declare <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4, <1 x i1>, <1 x float>)
// declare void @llvm.masked.scatter.v1f32.v1p1(<1 x float>, <1 x ptr addrspace(1)> align 4, <1 x i1>)
// @weft_shmem_state = protected addrspace(4) externally_initialized global { i32, i32, i64, [64 x i64] } zeroinitializer, align 8
//
// define amdgpu_kernel void @signals(ptr noundef %v0, ptr noundef %v1, ptr noundef %v2, i64 noundef %v3) #0 {
// entry:
//   %t1.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 0
//   %t1 = load i32, ptr addrspace(4) %t1.at, align 4
//   %t3.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 1
//   %t3 = load i32, ptr addrspace(4) %t3.at, align 4
//   %t11 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t25 = icmp eq i32 %t11, 0
//   %t65 = urem i32 %t11, 4
//   %t88 = icmp ult i32 %t11, 4
//   %t93.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t93.at = getelementptr i8, ptr addrspace(4) %t93.args, i64 0
//   %t93 = load i32, ptr addrspace(4) %t93.at, align 4
//   %t94.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t94.at = getelementptr i8, ptr addrspace(4) %t94.args, i64 4
//   %t94 = load i32, ptr addrspace(4) %t94.at, align 4
//   %t95.args = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
//   %t95.at = getelementptr i8, ptr addrspace(4) %t95.args, i64 8
//   %t95 = load i32, ptr addrspace(4) %t95.at, align 4
//   %t110 = call i32 @llvm.amdgcn.workgroup.id.x()
//   %t111 = call i32 @llvm.amdgcn.workgroup.id.y()
//   %t112 = call i32 @llvm.amdgcn.workgroup.id.z()
//   br label %body
// body:
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
//   br label %loop.head15
// loop.head15:
//   %t18 = phi i64 [ %t12, %body ], [ %t19, %loop.latch20 ]
//   %t21 = icmp slt i64 %t18, %v3
//   br i1 %t21, label %loop.body16, label %loop.exit17
// loop.body16:
//   %t22 = getelementptr float, ptr addrspace(1) %t14, i64 %t18
//   %t23 = getelementptr float, ptr addrspace(1) %t13, i64 %t18
//   %t24 = load float, ptr addrspace(1) %t22
//   store float %t24, ptr addrspace(1) %t23
//   br label %loop.latch20
// loop.latch20:
//   %t19 = add i64 %t18, 256
//   br label %loop.head15
// loop.exit17:
//   fence release
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t25, label %one.do26, label %one.end27
// one.do26:
//   %t28 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t29 = load i64, ptr addrspace(4) %t28, align 8
//   %t30 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t31 = load i64, ptr addrspace(4) %t30, align 8
//   %t32 = sub i64 %t29, %t31
//   %t33 = getelementptr i8, ptr %v2, i64 %t32
//   %t34 = addrspacecast ptr %t33 to ptr addrspace(1)
//   store atomic i64 1, ptr addrspace(1) %t34 release, align 8
//   br label %one.end27
// one.end27:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t35 = getelementptr i64, ptr %v2, i64 1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t25, label %one.do36, label %one.end37
// one.do36:
//   %t38 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t39 = load i64, ptr addrspace(4) %t38, align 8
//   %t40 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t41 = load i64, ptr addrspace(4) %t40, align 8
//   %t42 = sub i64 %t39, %t41
//   %t43 = getelementptr i8, ptr %t35, i64 %t42
//   %t44 = addrspacecast ptr %t43 to ptr addrspace(1)
//   %t45 = atomicrmw add ptr addrspace(1) %t44, i64 2 release, align 8
//   br label %one.end37
// one.end37:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t25, label %one.do46, label %one.end47
// one.do46:
//   %t48 = addrspacecast ptr %v2 to ptr addrspace(1)
//   br label %wait.poll49
// wait.poll49:
//   %t52 = load atomic volatile i64, ptr addrspace(1) %t48 monotonic, align 8
//   %t53 = icmp uge i64 %t52, 1
//   br i1 %t53, label %wait.done51, label %wait.sleep50
// wait.sleep50:
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll49
// wait.done51:
//   fence acquire
//   store i64 %t52, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end47
// one.end47:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t54 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t55 = getelementptr i64, ptr %v2, i64 1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t25, label %one.do56, label %one.end57
// one.do56:
//   %t58 = addrspacecast ptr %t55 to ptr addrspace(1)
//   br label %wait.poll59
// wait.poll59:
//   %t62 = load atomic volatile i64, ptr addrspace(1) %t58 monotonic, align 8
//   %t63 = icmp eq i64 %t62, 2
//   br i1 %t63, label %wait.done61, label %wait.sleep60
// wait.sleep60:
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll59
// wait.done61:
//   fence acquire
//   store i64 %t62, ptr addrspace(3) @__weft_token, align 8
//   br label %one.end57
// one.end57:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t64 = load i64, ptr addrspace(3) @__weft_token, align 8
//   %t66 = add i32 %t65, 0
//   %t67 = insertelement <1 x i32> poison, i32 %t66, i64 0
//   %t68 = shufflevector <1 x i32> %t67, <1 x i32> poison, <1 x i32> <i32 0>
//   %t69 = add <1 x i32> %t68, <i32 0>
//   %t70 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t71 = shufflevector <1 x ptr> %t70, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t72 = sext <1 x i32> %t69 to <1 x i64>
//   %t73 = getelementptr float, <1 x ptr> %t71, <1 x i64> %t72
//   %t74.lo = trunc i64 %t54 to i32
//   %t74.z = call i32 asm sideeffect "v_and_b32 $0, 0, $1", "=v,v"(i32 %t74.lo)
//   %t74 = zext i32 %t74.z to i64
//   %t75 = getelementptr i8, <1 x ptr> %t73, i64 %t74
//   %t76.lo = trunc i64 %t64 to i32
//   %t76.z = call i32 asm sideeffect "v_and_b32 $0, 0, $1", "=v,v"(i32 %t76.lo)
//   %t76 = zext i32 %t76.z to i64
//   %t77 = getelementptr i8, <1 x ptr> %t75, i64 %t76
//   %t78 = addrspacecast <1 x ptr> %t77 to <1 x ptr addrspace(1)>
//   %t79 = call <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4 %t78, <1 x i1> splat (i1 true), <1 x float> zeroinitializer)
//   %t80 = add i32 %t65, 0
//   %t81 = insertelement <1 x i32> poison, i32 %t80, i64 0
//   %t82 = shufflevector <1 x i32> %t81, <1 x i32> poison, <1 x i32> <i32 0>
//   %t83 = add <1 x i32> %t82, <i32 0>
//   %t84 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t85 = shufflevector <1 x ptr> %t84, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t86 = sext <1 x i32> %t83 to <1 x i64>
//   %t87 = getelementptr float, <1 x ptr> %t85, <1 x i64> %t86
//   %t89 = insertelement <1 x i1> poison, i1 %t88, i64 0
//   %t90 = shufflevector <1 x i1> %t89, <1 x i1> poison, <1 x i32> <i32 0>
//   %t91 = and <1 x i1> splat (i1 true), %t90
//   %t92 = addrspacecast <1 x ptr> %t87 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t79, <1 x ptr addrspace(1)> align 4 %t92, <1 x i1> %t91)
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
//   br i1 %t25, label %one.do96, label %one.end97
// one.do96:
//   %t98 = mul i32 %t93, %t94
//   %t99 = mul i32 %t98, %t95
//   %t100 = sub i32 %t99, 1
//   fence acq_rel
//   %t101 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t102 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t103 = icmp eq i32 %t102, %t100
//   br i1 %t103, label %grid.reset104, label %grid.wait105
// grid.reset104:
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t107 = add i32 %t101, 1
//   store atomic i32 %t107, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done106
// grid.wait105:
//   %t108 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t109 = icmp eq i32 %t108, %t101
//   br i1 %t109, label %grid.wait105, label %grid.done106
// grid.done106:
//   br label %one.end97
// one.end97:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t113 = or i32 %t110, %t111
//   %t114 = or i32 %t113, %t112
//   %t115 = icmp eq i32 %t114, 0
//   %t116 = and i1 %t115, %t25
//   br i1 %t116, label %one.do117, label %one.end118
// one.do117:
//   %t119 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 2
//   %t120 = load i64, ptr addrspace(4) %t119, align 8
//   %t121 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t122 = load i64, ptr addrspace(4) %t121, align 8
//   %t123 = add i64 %t122, %t120
//   %t124 = inttoptr i64 %t123 to ptr addrspace(1)
//   %t125 = getelementptr i64, ptr addrspace(1) %t124, i64 64
//   %t126 = load volatile i64, ptr addrspace(1) %t125, align 8
//   %t127 = add i64 %t126, 1
//   store volatile i64 %t127, ptr addrspace(1) %t125, align 8
//   %t128 = zext i32 %t3 to i64
//   %t129 = zext i32 %t1 to i64
//   br label %loop.head130
// loop.head130:
//   %t133 = phi i64 [ 0, %one.do117 ], [ %t134, %loop.latch135 ]
//   %t136 = icmp slt i64 %t133, %t128
//   br i1 %t136, label %loop.body131, label %loop.exit132
// loop.body131:
//   %t137 = trunc i64 %t133 to i32
//   %t138 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t137
//   %t139 = load i64, ptr addrspace(4) %t138, align 8
//   %t140 = add i64 %t139, %t120
//   %t141 = inttoptr i64 %t140 to ptr addrspace(1)
//   %t142 = getelementptr i64, ptr addrspace(1) %t141, i64 %t129
//   store atomic i64 %t127, ptr addrspace(1) %t142 release, align 8
//   br label %loop.latch135
// loop.latch135:
//   %t134 = add i64 %t133, 1
//   br label %loop.head130
// loop.exit132:
//   br label %loop.head143
// loop.head143:
//   %t146 = phi i64 [ 0, %loop.exit132 ], [ %t147, %loop.latch148 ]
//   %t149 = icmp slt i64 %t146, %t128
//   br i1 %t149, label %loop.body144, label %loop.exit145
// loop.body144:
//   %t150 = getelementptr i64, ptr addrspace(1) %t124, i64 %t146
//   br label %wait.poll151
// wait.poll151:
//   %t154 = load atomic volatile i64, ptr addrspace(1) %t150 monotonic, align 8
//   %t155 = icmp uge i64 %t154, %t127
//   br i1 %t155, label %wait.done153, label %wait.sleep152
// wait.sleep152:
//   call void @llvm.amdgcn.s.sleep(i32 1)
//   br label %wait.poll151
// wait.done153:
//   fence acquire
//   br label %loop.latch148
// loop.latch148:
//   %t147 = add i64 %t146, 1
//   br label %loop.head143
// loop.exit145:
//   br label %one.end118
// one.end118:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t25, label %one.do156, label %one.end157
// one.do156:
//   %t158 = mul i32 %t93, %t94
//   %t159 = mul i32 %t158, %t95
//   %t160 = sub i32 %t159, 1
//   fence acq_rel
//   %t161 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t162 = atomicrmw add ptr addrspace(1) @__weft_grid_count, i32 1 acq_rel, align 4
//   fence acq_rel
//   %t163 = icmp eq i32 %t162, %t160
//   br i1 %t163, label %grid.reset164, label %grid.wait165
// grid.reset164:
//   store atomic i32 0, ptr addrspace(1) @__weft_grid_count monotonic, align 4
//   %t167 = add i32 %t161, 1
//   store atomic i32 %t167, ptr addrspace(1) @__weft_grid_gen release, align 4
//   br label %grid.done166
// grid.wait165:
//   %t168 = load atomic volatile i32, ptr addrspace(1) @__weft_grid_gen acquire, align 4
//   %t169 = icmp eq i32 %t168, %t161
//   br i1 %t169, label %grid.wait165, label %grid.done166
// grid.done166:
//   br label %one.end157
// one.end157:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   ret void
// dead170:
//   unreachable
// }
//
// attributes #0 = { "amdgpu-flat-work-group-size"="256,256" "uniform-work-group-size"="true" }
// !llvm.module.flags = !{!0}
// !0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
