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
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'rmax.gpu.ll'
// source_filename = "rmax.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// @__weft_red = internal addrspace(3) global [32 x i64] undef, align 8
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)>, <4 x i1>, <4 x float>) #0
//
// ; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
// declare float @llvm.maximum.f32(float, float) #1
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #2
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3
//
// ; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
// declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32) #4
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare float @llvm.vector.reduce.fmaximum.v4f32(<4 x float>) #3
//
// define ptx_kernel void @rmax(ptr noundef %v0, ptr noundef %v1) #5 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2 = mul nuw i32 %t1, 4
//   %t34 = udiv i32 %t1, 32
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <4 x i32> zeroinitializer
//   %t6 = add <4 x i32> %t5, <i32 0, i32 1, i32 2, i32 3>
//   %t7 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t8 = shufflevector <1 x ptr> %t7, <1 x ptr> poison, <4 x i32> zeroinitializer
//   %t9 = sext <4 x i32> %t6 to <4 x i64>
//   %t10 = getelementptr float, <4 x ptr> %t8, <4 x i64> %t9
//   %t14 = extractelement <4 x ptr> %t10, i64 0
//   %t15 = addrspacecast ptr %t14 to ptr addrspace(1)
//   %t16 = ptrtoint ptr addrspace(1) %t15 to i64
//   %t17 = and i64 %t16, 15
//   %t18 = icmp eq i64 %t17, 0
//   br i1 %t18, label %ld.vec11, label %ld.slots12
//
// ld.vec11:                                         ; preds = %body
//   %t19 = load <4 x float>, ptr addrspace(1) %t15, align 16
//   br label %ld.end13
//
// ld.slots12:                                       ; preds = %body
//   %t20 = addrspacecast <4 x ptr> %t10 to <4 x ptr addrspace(1)>
//   %t21 = call <4 x float> @llvm.masked.gather.v4f32.v4p1(<4 x ptr addrspace(1)> align 4 %t20, <4 x i1> splat (i1 true), <4 x float> zeroinitializer)
//   br label %ld.end13
//
// ld.end13:                                         ; preds = %ld.slots12, %ld.vec11
//   %t22 = phi <4 x float> [ %t19, %ld.vec11 ], [ %t21, %ld.slots12 ]
//   %t23 = call float @llvm.vector.reduce.fmaximum.v4f32(<4 x float> %t22)
//   %t24 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t23, i32 16, i32 31)
//   %t25 = call float @llvm.maximum.f32(float %t23, float %t24)
//   %t26 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t25, i32 8, i32 31)
//   %t27 = call float @llvm.maximum.f32(float %t25, float %t26)
//   %t28 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t27, i32 4, i32 31)
//   %t29 = call float @llvm.maximum.f32(float %t27, float %t28)
//   %t30 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t29, i32 2, i32 31)
//   %t31 = call float @llvm.maximum.f32(float %t29, float %t30)
//   %t32 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t31, i32 1, i32 31)
//   %t33 = call float @llvm.maximum.f32(float %t31, float %t32)
//   %t35 = urem i32 %t1, 32
//   %t36 = icmp eq i32 %t35, 0
//   br i1 %t36, label %one.do37, label %one.end38
//
// one.do37:                                         ; preds = %ld.end13
//   %t39 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 %t34
//   store float %t33, ptr addrspace(3) %t39, align 8
//   br label %one.end38
//
// one.end38:                                        ; preds = %one.do37, %ld.end13
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t40 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 0
//   %t41 = load float, ptr addrspace(3) %t40, align 8
//   %t42 = getelementptr [32 x i64], ptr addrspace(3) @__weft_red, i32 0, i32 1
//   %t43 = load float, ptr addrspace(3) %t42, align 8
//   %t44 = call float @llvm.maximum.f32(float %t41, float %t43)
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   store float %t44, ptr %v1, align 4
//   ret void
//
// dead45:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #2 = { convergent nocallback nounwind }
// attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #4 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
// attributes #5 = { "nvvm.maxntid"="64" "nvvm.minctasm"="1" }
