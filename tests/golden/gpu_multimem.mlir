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
// ; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
// declare void @llvm.trap() #1
//
// declare ptr @nvshmemx_mc_ptr(i32, ptr)
//
// define ptx_kernel void @multimem(ptr noundef %v0, i32 noundef %v1) #2 {
// entry:
//   %t1 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
//   %t3 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t4.m = mul nuw i32 %t3, 16
//   %t4 = udiv i32 %t4.m, 128
//   %t54.m = mul nuw i32 %t3, 16
//   %t54.k = urem i32 %t54.m, 128
//   %t54 = icmp ult i32 %t54.k, 16
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
//   %t21 = icmp eq ptr %t20, null
//   br i1 %t21, label %null.trap22, label %null.ok23
//
// null.trap22:                                      ; preds = %body
//   call void @llvm.trap()
//   unreachable
//
// null.ok23:                                        ; preds = %body
//   %t24 = ptrtoint ptr %t19 to i64
//   %t25 = ptrtoint ptr %t20 to i64
//   %t26 = sub i64 %t25, %t24
//   %t27 = ptrtoint <1 x ptr> %t18 to <1 x i64>
//   %t28 = insertelement <1 x i64> poison, i64 %t26, i64 0
//   %t29 = shufflevector <1 x i64> %t28, <1 x i64> poison, <1 x i32> zeroinitializer
//   %t30 = add <1 x i64> %t27, %t29
//   %t31 = extractelement <1 x i64> %t30, i64 0
//   %t32 = extractelement <1 x i1> %t14, i64 0
//   br i1 %t32, label %one.do33, label %one.end34
//
// one.do33:                                         ; preds = %null.ok23
//   %t35 = call float asm sideeffect "multimem.ld_reduce.relaxed.sys.global.add.f32 $0, [$1];", "=f,l"(i64 %t31)
//   br label %one.end34
//
// one.end34:                                        ; preds = %one.do33, %null.ok23
//   %t36 = phi float [ %t35, %one.do33 ], [ 0.000000e+00, %null.ok23 ]
//   %t37 = insertelement <1 x float> poison, float %t36, i64 0
//   %t38 = insertelement <1 x ptr> poison, ptr %v0, i64 0
//   %t39 = shufflevector <1 x ptr> %t38, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t40 = sext <1 x i32> %t11 to <1 x i64>
//   %t41 = getelementptr float, <1 x ptr> %t39, <1 x i64> %t40
//   %t42 = extractelement <1 x ptr> %t41, i64 0
//   %t43 = call ptr @nvshmemx_mc_ptr(i32 2, ptr %t42)
//   %t44 = icmp eq ptr %t43, null
//   br i1 %t44, label %null.trap45, label %null.ok46
//
// null.trap45:                                      ; preds = %one.end34
//   call void @llvm.trap()
//   unreachable
//
// null.ok46:                                        ; preds = %one.end34
//   %t47 = ptrtoint ptr %t42 to i64
//   %t48 = ptrtoint ptr %t43 to i64
//   %t49 = sub i64 %t48, %t47
//   %t50 = ptrtoint <1 x ptr> %t41 to <1 x i64>
//   %t51 = insertelement <1 x i64> poison, i64 %t49, i64 0
//   %t52 = shufflevector <1 x i64> %t51, <1 x i64> poison, <1 x i32> zeroinitializer
//   %t53 = add <1 x i64> %t50, %t52
//   %t55 = insertelement <1 x i1> poison, i1 %t54, i64 0
//   %t56 = shufflevector <1 x i1> %t55, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t57 = and <1 x i1> %t14, %t56
//   %t58 = extractelement <1 x i64> %t53, i64 0
//   %t59 = extractelement <1 x float> %t37, i64 0
//   %t60 = extractelement <1 x i1> %t57, i64 0
//   br i1 %t60, label %one.do61, label %one.end62
//
// one.do61:                                         ; preds = %null.ok46
//   call void asm sideeffect "multimem.st.relaxed.sys.global.f32 [$0], $1;", "l,f"(i64 %t58, float %t59)
//   br label %one.end62
//
// one.end62:                                        ; preds = %one.do61, %null.ok46
//   ret void
//
// dead63:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #1 = { cold noreturn nounwind memory(inaccessiblemem: write) }
// attributes #2 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
