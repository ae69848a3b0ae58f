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
// ; weft kernel `data_movement` for gfx942: one CTA of 4 warps (256 threads) per program instance
// target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
// target triple = "amdgcn-amd-amdhsa"
//
// declare void @llvm.amdgcn.s.barrier()
// declare i32 @llvm.amdgcn.workitem.id.x()
// declare <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)> align 2, <1 x i1>, <1 x bfloat>)
// declare void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat>, <1 x ptr addrspace(1)> align 2, <1 x i1>)
// @weft_shmem_state = protected addrspace(4) externally_initialized global { i32, i32, i64, [64 x i64] } zeroinitializer, align 8
//
// define amdgpu_kernel void @data_movement(ptr noundef %v0, i64 noundef %v1) #0 {
// entry:
//   %t1.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 0
//   %t1 = load i32, ptr addrspace(4) %t1.at, align 4
//   %t3.at = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 1
//   %t3 = load i32, ptr addrspace(4) %t3.at, align 4
//   %t12 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t27 = icmp ult i32 %t12, 64
//   %t50 = icmp eq i32 %t12, 0
//   %t98 = urem i32 %t12, 8
//   %t117 = icmp ult i32 %t12, 8
//   br label %body
// body:
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
//   br label %loop.head16
// loop.head16:
//   %t19 = phi i64 [ %t13, %body ], [ %t20, %loop.latch21 ]
//   %t22 = icmp slt i64 %t19, %v1
//   br i1 %t22, label %loop.body17, label %loop.exit18
// loop.body17:
//   %t23 = getelementptr bfloat, ptr addrspace(1) %t15, i64 %t19
//   %t24 = getelementptr bfloat, ptr addrspace(1) %t14, i64 %t19
//   %t25 = load bfloat, ptr addrspace(1) %t23
//   store bfloat %t25, ptr addrspace(1) %t24
//   br label %loop.latch21
// loop.latch21:
//   %t20 = add i64 %t19, 256
//   br label %loop.head16
// loop.exit18:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t26 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t27, label %one.do28, label %one.end29
// one.do28:
//   %t30 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t31 = load i64, ptr addrspace(4) %t30, align 8
//   %t32 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t33 = load i64, ptr addrspace(4) %t32, align 8
//   %t34 = sub i64 %t31, %t33
//   %t35 = getelementptr i8, ptr %v0, i64 %t34
//   %t36 = zext i32 %t12 to i64
//   %t37 = addrspacecast ptr %t35 to ptr addrspace(1)
//   %t38 = addrspacecast ptr %t26 to ptr addrspace(1)
//   br label %loop.head39
// loop.head39:
//   %t42 = phi i64 [ %t36, %one.do28 ], [ %t43, %loop.latch44 ]
//   %t45 = icmp slt i64 %t42, %v1
//   br i1 %t45, label %loop.body40, label %loop.exit41
// loop.body40:
//   %t46 = getelementptr bfloat, ptr addrspace(1) %t38, i64 %t42
//   %t47 = getelementptr bfloat, ptr addrspace(1) %t37, i64 %t42
//   %t48 = load bfloat, ptr addrspace(1) %t46
//   store bfloat %t48, ptr addrspace(1) %t47
//   br label %loop.latch44
// loop.latch44:
//   %t43 = add i64 %t42, 64
//   br label %loop.head39
// loop.exit41:
//   br label %one.end29
// one.end29:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t49 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   br i1 %t50, label %one.do51, label %one.end52
// one.do51:
//   %t53 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t54 = load i64, ptr addrspace(4) %t53, align 8
//   %t55 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t56 = load i64, ptr addrspace(4) %t55, align 8
//   %t57 = sub i64 %t54, %t56
//   %t58 = getelementptr i8, ptr %t49, i64 %t57
//   %t59 = zext i32 0 to i64
//   %t60 = addrspacecast ptr %v0 to ptr addrspace(1)
//   %t61 = addrspacecast ptr %t58 to ptr addrspace(1)
//   br label %loop.head62
// loop.head62:
//   %t65 = phi i64 [ %t59, %one.do51 ], [ %t66, %loop.latch67 ]
//   %t68 = icmp slt i64 %t65, %v1
//   br i1 %t68, label %loop.body63, label %loop.exit64
// loop.body63:
//   %t69 = getelementptr bfloat, ptr addrspace(1) %t61, i64 %t65
//   %t70 = getelementptr bfloat, ptr addrspace(1) %t60, i64 %t65
//   %t71 = load bfloat, ptr addrspace(1) %t69
//   store bfloat %t71, ptr addrspace(1) %t70
//   br label %loop.latch67
// loop.latch67:
//   %t66 = add i64 %t65, 1
//   br label %loop.head62
// loop.exit64:
//   br label %one.end52
// one.end52:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t72 = getelementptr bfloat, ptr %v0, i64 %v1
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t73 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t74 = load i64, ptr addrspace(4) %t73, align 8
//   %t75 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t76 = load i64, ptr addrspace(4) %t75, align 8
//   %t77 = sub i64 %t74, %t76
//   %t78 = getelementptr i8, ptr %t72, i64 %t77
//   %t79 = zext i32 %t12 to i64
//   %t80 = addrspacecast ptr %v0 to ptr addrspace(1)
//   %t81 = addrspacecast ptr %t78 to ptr addrspace(1)
//   br label %loop.head82
// loop.head82:
//   %t85 = phi i64 [ %t79, %one.end52 ], [ %t86, %loop.latch87 ]
//   %t88 = icmp slt i64 %t85, %v1
//   br i1 %t88, label %loop.body83, label %loop.exit84
// loop.body83:
//   %t89 = getelementptr bfloat, ptr addrspace(1) %t81, i64 %t85
//   %t90 = getelementptr bfloat, ptr addrspace(1) %t80, i64 %t85
//   %t91 = load bfloat, ptr addrspace(1) %t89
//   store bfloat %t91, ptr addrspace(1) %t90
//   br label %loop.latch87
// loop.latch87:
//   %t86 = add i64 %t85, 256
//   br label %loop.head82
// loop.exit84:
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   fence seq_cst
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t92 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t4
//   %t93 = load i64, ptr addrspace(4) %t92, align 8
//   %t94 = getelementptr inbounds { i32, i32, i64, [64 x i64] }, ptr addrspace(4) @weft_shmem_state, i32 0, i32 3, i32 %t1
//   %t95 = load i64, ptr addrspace(4) %t94, align 8
//   %t96 = sub i64 %t93, %t95
//   %t97 = getelementptr i8, ptr %v0, i64 %t96
//   %t99 = add i32 %t98, 0
//   %t100 = insertelement <1 x i32> poison, i32 %t99, i64 0
//   %t101 = shufflevector <1 x i32> %t100, <1 x i32> poison, <1 x i32> <i32 0>
//   %t102 = add <1 x i32> %t101, <i32 0>
//   %t103 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t104 = shufflevector <1 x ptr> %t103, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t105 = sext <1 x i32> %t102 to <1 x i64>
//   %t106 = getelementptr bfloat, <1 x ptr> %t104, <1 x i64> %t105
//   %t107 = add i32 %t98, 0
//   %t108 = insertelement <1 x i32> poison, i32 %t107, i64 0
//   %t109 = shufflevector <1 x i32> %t108, <1 x i32> poison, <1 x i32> <i32 0>
//   %t110 = add <1 x i32> %t109, <i32 0>
//   %t111 = insertelement <1 x ptr> poison, ptr %t97, i64 0
//   %t112 = shufflevector <1 x ptr> %t111, <1 x ptr> poison, <1 x i32> <i32 0>
//   %t113 = sext <1 x i32> %t110 to <1 x i64>
//   %t114 = getelementptr bfloat, <1 x ptr> %t112, <1 x i64> %t113
//   %t115 = addrspacecast <1 x ptr> %t114 to <1 x ptr addrspace(1)>
//   %t116 = call <1 x bfloat> @llvm.masked.gather.v1bf16.v1p1(<1 x ptr addrspace(1)> align 2 %t115, <1 x i1> splat (i1 true), <1 x bfloat> zeroinitializer)
//   %t118 = insertelement <1 x i1> poison, i1 %t117, i64 0
//   %t119 = shufflevector <1 x i1> %t118, <1 x i1> poison, <1 x i32> <i32 0>
//   %t120 = and <1 x i1> splat (i1 true), %t119
//   %t121 = addrspacecast <1 x ptr> %t106 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1bf16.v1p1(<1 x bfloat> %t116, <1 x ptr addrspace(1)> align 2 %t121, <1 x i1> %t120)
//   ret void
// dead122:
//   unreachable
// }
//
// attributes #0 = { "amdgpu-flat-work-group-size"="256,256" "uniform-work-group-size"="true" }
// !llvm.module.flags = !{!0}
// !0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
