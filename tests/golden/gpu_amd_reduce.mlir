module {
  func.func @rmax(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "2"}, weft.params = ["x", "out"]} {
    %0 = "tile.make_range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
    %2 = "tile.addptr"(%1, %0) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %3 = "tile.load"(%2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
    %4 = "tile.reduce"(%3) {axis = 0 : i32, kind = "max"} : (tensor<256xf32>) -> f32
    "tile.store"(%arg1, %4) : (!tile.ptr<f32>, f32) -> ()
    return
  }
}
// ----- expected gpu@gfx942 -----
// ; ModuleID = 'rmax.gpu.ll'
// source_filename = "rmax.gpu.ll"
// target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
// target triple = "amdgcn-amd-amdhsa"
//
// @__weft_red = internal addrspace(3) global [32 x i64] undef, align 8
//
// ; Function Attrs: convergent nocallback nofree nounwind willreturn memory(none)
// declare i32 @llvm.amdgcn.ds.bpermute(i32, i32) #0
//
// ; Function Attrs: convergent nocallback nofree nounwind willreturn
// declare void @llvm.amdgcn.s.barrier() #1
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.amdgcn.workitem.id.x() #2
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <2 x float> @llvm.masked.gather.v2f32.v2p1(<2 x ptr addrspace(1)>, <2 x i1>, <2 x float>) #3
//
// ; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
// declare float @llvm.maximum.f32(float, float) #4
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare float @llvm.vector.reduce.fmaximum.v2f32(<2 x float>) #2
//
// define amdgpu_kernel void @rmax(ptr noundef %v0, ptr noundef %v1) #5 {
// entry:
//   %t1 = call i32 @llvm.amdgcn.workitem.id.x()
//   %t2 = mul nuw i32 %t1, 2
//   %t36 = udiv i32 %t1, 64
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <2 x i32> zeroinitializer
//   %t6 = add <2 x i32> %t5, <i32 0, i32 1>
//   %t7 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t8 = shufflevector <1 x ptr> %t7, <1 x ptr> poison, <2 x i32> zeroinitializer
//   %t9 = sext <2 x i32> %t6 to <2 x i64>
//   %t10 = getelementptr float, <2 x ptr> %t8, <2 x i64> %t9
//   %t14 = extractelement <2 x ptr> %t10, i64 0
//   %t15 = addrspacecast ptr %t14 to ptr addrspace(1)
//   %t16 = ptrtoint ptr addrspace(1) %t15 to i64
//   %t17 = and i64 %t16, 7
//   %t18 = icmp eq i64 %t17, 0
//   br i1 %t18, label %ld.vec11, label %ld.slots12
//
// ld.vec11:                                         ; preds = %body
//   %t19 = load <2 x float>, ptr addrspace(1) %t15, align 8
//   br label %ld.end13
//
// ld.slots12:                                       ; preds = %body
//   %t20 = addrspacecast <2 x ptr> %t10 to <2 x ptr addrspace(1)>
//   %t21 = call <2 x float> @llvm.masked.gather.v2f32.v2p1(<2 x ptr addrspace(1)> align 4 %t20, <2 x i1> splat (i1 true), <2 x float> zeroinitializer)
//   br label %ld.end13
//
// ld.end13:                                         ; preds = %ld.slots12, %ld.vec11
//   %t22 = phi <2 x float> [ %t19, %ld.vec11 ], [ %t21, %ld.slots12 ]
//   %t23 = call float @llvm.vector.reduce.fmaximum.v2f32(<2 x float> %t22)
//   %t24.in = bitcast float %t23 to i32
//   %t24.lane = and i32 %t1, 63
//   %t24.peer = xor i32 %t24.lane, 32
//   %t24.addr = shl i32 %t24.peer, 2
//   %t24.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t24.addr, i32 %t24.in)
//   %t24 = bitcast i32 %t24.out to float
//   %t25 = call float @llvm.maximum.f32(float %t23, float %t24)
//   %t26.in = bitcast float %t25 to i32
//   %t26.lane = and i32 %t1, 63
//   %t26.peer = xor i32 %t26.lane, 16
//   %t26.addr = shl i32 %t26.peer, 2
//   %t26.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t26.addr, i32 %t26.in)
//   %t26 = bitcast i32 %t26.out to float
//   %t27 = call float @llvm.maximum.f32(float %t25, float %t26)
//   %t28.in = bitcast float %t27 to i32
//   %t28.lane = and i32 %t1, 63
//   %t28.peer = xor i32 %t28.lane, 8
//   %t28.addr = shl i32 %t28.peer, 2
//   %t28.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t28.addr, i32 %t28.in)
//   %t28 = bitcast i32 %t28.out to float
//   %t29 = call float @llvm.maximum.f32(float %t27, float %t28)
//   %t30.in = bitcast float %t29 to i32
//   %t30.lane = and i32 %t1, 63
//   %t30.peer = xor i32 %t30.lane, 4
//   %t30.addr = shl i32 %t30.peer, 2
//   %t30.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t30.addr, i32 %t30.in)
//   %t30 = bitcast i32 %t30.out to float
//   %t31 = call float @llvm.maximum.f32(float %t29, float %t30)
//   %t32.in = bitcast float %t31 to i32
//   %t32.lane = and i32 %t1, 63
//   %t32.peer = xor i32 %t32.lane, 2
//   %t32.addr = shl i32 %t32.peer, 2
//   %t32.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t32.addr, i32 %t32.in)
//   %t32 = bitcast i32 %t32.out to float
//   %t33 = call float @llvm.maximum.f32(float %t31, float %t32)
//   %t34.in = bitcast float %t33 to i32
//   %t34.lane = and i32 %t1, 63
//   %t34.peer = xor i32 %t34.lane, 1
//   %t34.addr = shl i32 %t34.peer, 2
//   %t34.out = call i32 @llvm.amdgcn.ds.bpermute(i32 %t34.addr, i32 %t34.in)
//   %t34 = bitcast i32 %t34.out to float
//   %t35 = call float @llvm.maximum.f32(float %t33, float %t34)
//   %t37 = urem i32 %t1, 64
//   %t38 = icmp eq i32 %t37, 0
//   br i1 %t38, label %one.do39, label %one.end40
//
// one.do39:                                         ; preds = %ld.end13
//   %t41 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 %t36
//   store float %t35, ptr addrspace(3) %t41, align 8
//   br label %one.end40
//
// one.end40:                                        ; preds = %one.do39, %ld.end13
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   %t42 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 0
//   %t43 = load float, ptr addrspace(3) %t42, align 8
//   %t44 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 1
//   %t45 = load float, ptr addrspace(3) %t44, align 8
//   %t46 = call float @llvm.maximum.f32(float %t43, float %t45)
//   fence syncscope("workgroup") release
//   call void @llvm.amdgcn.s.barrier()
//   fence syncscope("workgroup") acquire
//   store float %t46, ptr %v1, align 4
//   ret void
//
// dead47:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { convergent nocallback nofree nounwind willreturn memory(none) }
// attributes #1 = { convergent nocallback nofree nounwind willreturn }
// attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #3 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #5 = { "amdgpu-flat-work-group-size"="128,128" "uniform-work-group-size"="true" }
//
// !llvm.module.flags = !{!0}
//
// !0 = !{i32 1, !"amdhsa_code_object_version", i32 500}
