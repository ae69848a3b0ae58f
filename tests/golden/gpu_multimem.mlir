module {
  func.func @multimem(%arg0: !tile.ptr<f32>, %arg1: i32) attributes {weft.constexprs = {}, weft.params = ["x", "n"]} {
    %0 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %c16_i32 = arith.constant 16 : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = "tile.make_range"() {end = 16 : i32, start = 0 : i32} : () -> tensor<16xi32>
    %3 = "tile.splat"(%1) : (i32) -> tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = "tile.splat"(%arg1) : (i32) -> tensor<16xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<16xi32>
    %7 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
    %8 = "tile.addptr"(%7, %4) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
    %9 = "shmem.multimem_ld_reduce"(%8, %6) {kind = "sum"} : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<16x!tile.ptr<f32>>
    %11 = "tile.addptr"(%10, %4) : (tensor<16x!tile.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tile.ptr<f32>>
    "shmem.multimem_st"(%11, %9, %6) : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'multimem.gpu.ll'
// source_filename = "multimem.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #0
//
// declare ptr @nvshmemx_mc_ptr(i32, ptr)
//
// define ptx_kernel void @multimem(ptr noundef %v0, i32 noundef %v1) #1 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
//   %t3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t4.m = mul nuw i32 %t3, 16
//   %t4 = udiv i32 %t4.m, 128
//   %t48.m = mul nuw i32 %t3, 16
//   %t48.k = urem i32 %t48.m, 128
//   %t48 = icmp ult i32 %t48.k, 16
//   br label %body
//
// body:                                             ; preds = %entry
//   %t2 = mul i32 %t1, 16
//   %t5 = add i32 %t4, 0
//   %t6 = insertelement <1 x i32> poison, i32 %t5, i64 0
//   %t7 = shufflevector <1 x i32> %t6, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t8 = add <1 x i32> %t7, zeroinitializer
//   %t9 = insertelement <1 x i32> poison, i32 %t2, i64 0
//   %t10 = shufflevector <1 x i32> %t9, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t11 = add <1 x i32> %t10, %t8
//   %t12 = insertelement <1 x i32> poison, i32 %v1, i64 0
//   %t13 = shufflevector <1 x i32> %t12, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t14 = icmp slt <1 x i32> %t11, %t13
//   %t15 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t16 = shufflevector <1 x ptr> %t15, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t17 = sext <1 x i32> %t11 to <1 x i64>
//   %t18 = getelementptr float, <1 x ptr> %t16, <1 x i64> %t17
//   %t19 = extractelement <1 x ptr> %t18, i64 0
//   %t20 = call ptr @nvshmemx_mc_ptr(i32 2, ptr %t19)
//   %t21 = ptrtoint ptr %t19 to i64
//   %t22 = ptrtoint ptr %t20 to i64
//   %t23 = sub i64 %t22, %t21
//   %t24 = ptrtoint <1 x ptr> %t18 to <1 x i64>
//   %t25 = insertelement <1 x i64> poison, i64 %t23, i64 0
//   %t26 = shufflevector <1 x i64> %t25, <1 x i64> poison, <1 x i32> zeroinitializer
//   %t27 = add <1 x i64> %t24, %t26
//   %t28 = extractelement <1 x i64> %t27, i64 0
//   %t29 = extractelement <1 x i1> %t14, i64 0
//   br i1 %t29, label %one.do30, label %one.end31
//
// one.do30:                                         ; preds = %body
//   %t32 = call float asm sideeffect "multimem.ld_reduce.relaxed.sys.global.add.f32 $0, [$1];", "=f,l"(i64 %t28)
//   br label %one.end31
//
// one.end31:                                        ; preds = %one.do30, %body
//   %t33 = phi float [ %t32, %one.do30 ], [ 0.000000e+00, %body ]
//   %t34 = insertelement <1 x float> poison, float %t33, i64 0
//   %t35 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t36 = shufflevector <1 x ptr> %t35, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t37 = sext <1 x i32> %t11 to <1 x i64>
//   %t38 = getelementptr float, <1 x ptr> %t36, <1 x i64> %t37
//   %t39 = extractelement <1 x ptr> %t38, i64 0
//   %t40 = call ptr @nvshmemx_mc_ptr(i32 2, ptr %t39)
//   %t41 = ptrtoint ptr %t39 to i64
//   %t42 = ptrtoint ptr %t40 to i64
//   %t43 = sub i64 %t42, %t41
//   %t44 = ptrtoint <1 x ptr> %t38 to <1 x i64>
//   %t45 = insertelement <1 x i64> poison, i64 %t43, i64 0
//   %t46 = shufflevector <1 x i64> %t45, <1 x i64> poison, <1 x i32> zeroinitializer
//   %t47 = add <1 x i64> %t44, %t46
//   %t49 = insertelement <1 x i1> poison, i1 %t48, i64 0
//   %t50 = shufflevector <1 x i1> %t49, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t51 = and <1 x i1> %t14, %t50
//   %t52 = extractelement <1 x i64> %t47, i64 0
//   %t53 = extractelement <1 x float> %t34, i64 0
//   %t54 = extractelement <1 x i1> %t51, i64 0
//   br i1 %t54, label %one.do55, label %one.end56
//
// one.do55:                                         ; preds = %one.end31
//   call void asm sideeffect "multimem.st.relaxed.sys.global.f32 [$0], $1;", "l,f"(i64 %t52, float %t53)
//   br label %one.end56
//
// one.end56:                                        ; preds = %one.do55, %one.end31
//   ret void
//
// dead57:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #1 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
