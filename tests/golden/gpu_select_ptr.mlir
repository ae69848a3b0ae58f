module {
  func.func @select_ptr(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {}, weft.params = ["x", "out"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %4 = "shmem.remote_ptr"(%arg0, %3) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
    %c0_i32 = arith.constant 0 : i32
    %5 = arith.cmpi eq, %0, %c0_i32 : i32
    %6 = arith.select %5, %arg0, %4 : !tile.ptr<f32>
    %7 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %8 = "tile.splat"(%6) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %9 = "tile.addptr"(%8, %7) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %10 = "tile.load"(%9) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %11 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %12 = "tile.addptr"(%11, %7) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%12, %10) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'select_ptr.gpu.ll'
// source_filename = "select_ptr.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(read)
// declare <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)>, <1 x i1>, <1 x float>) #0
//
// ; Function Attrs: nocallback nofree nosync nounwind willreturn memory(write)
// declare void @llvm.masked.scatter.v1f32.v1p1(<1 x float>, <1 x ptr addrspace(1)>, <1 x i1>) #1
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2
//
// ; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
// declare void @llvm.trap() #3
//
// declare i32 @nvshmem_my_pe()
//
// declare i32 @nvshmem_n_pes()
//
// declare ptr @nvshmem_ptr(ptr, i32)
//
// define ptx_kernel void @select_ptr(ptr noundef %v0, ptr noundef %v1) #4 {
// entry:
//   %t11 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
//   %t12.m = mul nuw i32 %t11, 4
//   %t12 = udiv i32 %t12.m, 128
//   %t27.m = mul nuw i32 %t11, 4
//   %t27.k = urem i32 %t27.m, 128
//   %t27 = icmp ult i32 %t27.k, 4
//   br label %body
//
// body:                                             ; preds = %entry
//   %t1 = call i32 @nvshmem_my_pe()
//   %t2 = add i32 %t1, 1
//   %t3 = call i32 @nvshmem_n_pes()
//   %t4 = srem i32 %t2, %t3
//   %t5 = call ptr @nvshmem_ptr(ptr %v0, i32 %t4)
//   %t6 = icmp eq ptr %t5, null
//   br i1 %t6, label %null.trap7, label %null.ok8
//
// null.trap7:                                       ; preds = %body
//   call void @llvm.trap()
//   unreachable
//
// null.ok8:                                         ; preds = %body
//   %t9 = icmp eq i32 %t1, 0
//   %t10 = select i1 %t9, ptr %v0, ptr %t5
//   %t13 = add i32 %t12, 0
//   %t14 = insertelement <1 x i32> poison, i32 %t13, i64 0
//   %t15 = shufflevector <1 x i32> %t14, <1 x i32> poison, <1 x i32> zeroinitializer
//   %t16 = add <1 x i32> %t15, zeroinitializer
//   %t17 = insertelement <1 x ptr> poison, ptr %t10, i64 0
//   %t18 = shufflevector <1 x ptr> %t17, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t19 = sext <1 x i32> %t16 to <1 x i64>
//   %t20 = getelementptr float, <1 x ptr> %t18, <1 x i64> %t19
//   %t21 = addrspacecast <1 x ptr> %t20 to <1 x ptr addrspace(1)>
//   %t22 = call <1 x float> @llvm.masked.gather.v1f32.v1p1(<1 x ptr addrspace(1)> align 4 %t21, <1 x i1> splat (i1 true), <1 x float> zeroinitializer)
//   %t23 = insertelement <1 x ptr> poison, ptr %v1, i64 0
//   %t24 = shufflevector <1 x ptr> %t23, <1 x ptr> poison, <1 x i32> zeroinitializer
//   %t25 = sext <1 x i32> %t16 to <1 x i64>
//   %t26 = getelementptr float, <1 x ptr> %t24, <1 x i64> %t25
//   %t28 = insertelement <1 x i1> poison, i1 %t27, i64 0
//   %t29 = shufflevector <1 x i1> %t28, <1 x i1> poison, <1 x i32> zeroinitializer
//   %t30 = and <1 x i1> splat (i1 true), %t29
//   %t31 = addrspacecast <1 x ptr> %t26 to <1 x ptr addrspace(1)>
//   call void @llvm.masked.scatter.v1f32.v1p1(<1 x float> %t22, <1 x ptr addrspace(1)> align 4 %t31, <1 x i1> %t30)
//   ret void
//
// dead32:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind willreturn memory(read) }
// attributes #1 = { nocallback nofree nosync nounwind willreturn memory(write) }
// attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #3 = { cold noreturn nounwind memory(inaccessiblemem: write) }
// attributes #4 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
