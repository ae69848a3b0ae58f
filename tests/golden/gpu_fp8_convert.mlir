module {
  func.func @gpu_fp8_convert(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f8E4M3FN>, %arg2: !tile.ptr<f8E5M2>) attributes {weft.constexprs = {}, weft.params = ["x", "q", "r"]} {
    %0 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %2 = "tile.addptr"(%1, %0) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %3 = "tile.load"(%2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %4 = arith.truncf %3 : tensor<4xf32> to tensor<4xf8E4M3FN>
    %5 = "tile.splat"(%arg1) : (!tile.ptr<f8E4M3FN>) -> tensor<4x!tile.ptr<f8E4M3FN>>
    %6 = "tile.addptr"(%5, %0) : (tensor<4x!tile.ptr<f8E4M3FN>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f8E4M3FN>>
    "tile.store"(%6, %4) : (tensor<4x!tile.ptr<f8E4M3FN>>, tensor<4xf8E4M3FN>) -> ()
    %7 = "tile.load"(%6) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f8E4M3FN>>) -> tensor<4xf8E4M3FN>
    %8 = arith.extf %7 : tensor<4xf8E4M3FN> to tensor<4xf32>
    %9 = arith.truncf %8 : tensor<4xf32> to tensor<4xf8E5M2>
    %10 = "tile.splat"(%arg2) : (!tile.ptr<f8E5M2>) -> tensor<4x!tile.ptr<f8E5M2>>
    %11 = "tile.addptr"(%10, %0) : (tensor<4x!tile.ptr<f8E5M2>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f8E5M2>>
    "tile.store"(%11, %9) : (tensor<4x!tile.ptr<f8E5M2>>, tensor<4xf8E5M2>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'gpu_fp8_convert.gpu.ll'
// source_filename = "gpu_fp8_convert.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x float>) #0
//
// ; Function Attrs: convergent nocallback nounwind
// declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2
//
// define ptx_kernel void @gpu_fp8_convert(ptr noundef %v0, ptr noundef %v1, ptr noundef %v2) #3 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t2.m = mul nuw i32 %t1, 4
//   %t2 = udiv i32 %t2.m, 128
//   %t23.m = mul nuw i32 %t1, 4
//   %t23.k = urem i32 %t23.m, 128
//   %t23 = icmp ult i32 %t23.k, 4
//   br label %body
//
// body:                                             ; preds = %entry
//   %t3 = add i32 %t2, 0
//   %t4 = insertelement <1 x i32> poison, i32 %t3, i64 0
//   %t5 = shufflevector <1 x i32> %t4, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t6 = add <1 x i32> %t5, zeroinitializer
//   %t7 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t8 = shufflevector <1 x ptr> %t7, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t9 = sext <1 x i32> %t6 to <1 x i64>
//   %t10 = getelementptr float, <1 x ptr> %t8, <1 x i64> %t9
//   %t11 = addrspacecast <1 x ptr> %t10 to <1 x ptr addrspace(1)>
//   %t12 = call <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4 %t11, <1 x i1> splat (i1 true), <1 x float> zeroinitializer)
//   %t13 = extractelement <1 x float> %t12, i64 0
//   %t14 = call i16 asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"(float 0.000000e+00, float %t13)
//   %t15 = trunc i16 %t14 to i8
//   %t16 = lshr i16 %t14, 8
//   %t17 = trunc i16 %t16 to i8
//   %t18 = insertelement <1 x i8> poison, i8 %t15, i64 0
//   %t19 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t20 = shufflevector <1 x ptr> %t19, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t21 = sext <1 x i32> %t6 to <1 x i64>
//   %t22 = getelementptr i8, <1 x ptr> %t20, <1 x i64> %t21
//   %t24 = insertelement <1 x i1> poison, i1 %t23, i64 0
//   %t25 = shufflevector <1 x i1> %t24, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t26 = and <1 x i1> splat (i1 true), %t25
//   %t27 = addrspacecast <1 x ptr> %t22 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1i8.v1p1(<1 x i8> %t18, <1 x ptr addrspace(1)> align 1 %t27, <1 x i1> %t26)
//   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
//   %t28 = addrspacecast <1 x ptr> %t22 to <1 x ptr addrspace(1)>
//   %t29 = call <1 x i8> @llvm.masked.gather.v1i8.v1p1(<1 x ptr addrspace(1)> align 1 %t28, <1 x i1> splat (i1 true), <1 x i8> zeroinitializer)
//   %t30 = extractelement <1 x i8> %t29, i64 0
//   %t31 = zext i8 %t30 to i16
//   %t32 = shl i16 0, 8
//   %t33 = or i16 %t32, %t31
//   %t34 = call <2 x half> asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"(i16 %t33)
//   %t35 = extractelement <2 x half> %t34, i64 0
//   %t36 = fpext half %t35 to float
//   %t37 = extractelement <2 x half> %t34, i64 1
//   %t38 = fpext half %t37 to float
//   %t39 = insertelement <1 x float> poison, float %t36, i64 0
//   %t40 = extractelement <1 x float> %t39, i64 0
//   %t41 = call i16 asm "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f"(float 0.000000e+00, float %t40)
//   %t42 = trunc i16 %t41 to i8
//   %t43 = lshr i16 %t41, 8
//   %t44 = trunc i16 %t43 to i8
//   %t45 = insertelement <1 x i8> poison, i8 %t42, i64 0
//   %t46 = insertelement <1 x ptr> poison, ptr %v2, i64 0
//   %t47 = shufflevector <1 x ptr> %t46, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t48 = sext <1 x i32> %t6 to <1 x i64>
//   %t49 = getelementptr i8, <1 x ptr> %t47, <1 x i64> %t48
//   %t50 = insertelement <1 x i1> poison, i1 %t23, i64 0
//   %t51 = shufflevector <1 x i1> %t50, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t52 = and <1 x i1> splat (i1 true), %t51
//   %t53 = addrspacecast <1 x ptr> %t49 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1i8.v1p1(<1 x i8> %t45, <1 x ptr addrspace(1)> align 1 %t53, <1 x i1> %t52)
//   ret void
//
// dead54:                                           ; No predecessors!
//   unreachable
// }
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x i8> @llvm.masked.gather.v1i8.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x i8>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1i8.v1p1(<1 x i8>, <1 x ptr addrspace(1)>, <1 x i1>) #4
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { convergent nocallback nounwind }
// attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #3 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
// attributes #4 = { nocallback nofree nosync nounwind willreturn memory(write) }
