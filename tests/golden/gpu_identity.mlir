module {
  func.func @identity(%arg0: !tile.ptr<i32>) attributes {weft.constexprs = {}, weft.params = ["out"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1000_i32 = arith.constant 1000 : i32
    %1 = arith.muli %0, %c1000_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %c100_i32 = arith.constant 100 : i32
    %3 = arith.muli %2, %c100_i32 : i32
    %4 = arith.addi %1, %3 : i32
    %5 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %c10_i32 = arith.constant 10 : i32
    %6 = arith.muli %5, %c10_i32 : i32
    %7 = arith.addi %4, %6 : i32
    %8 = "tile.num_programs"() {axis = 0 : i32} : () -> i32
    %9 = arith.addi %7, %8 : i32
    %10 = "tile.program_id"() {axis = 0 : i32} : () -> i32
    %11 = "tile.addptr"(%arg0, %10) : (!tile.ptr<i32>, i32) -> !tile.ptr<i32>
    "tile.store"(%11, %9) : (!tile.ptr<i32>, i32) -> ()
    return
  }
}
// ----- expected gpu@sm_90a -----
// ; ModuleID = 'identity.gpu.ll'
// source_filename = "identity.gpu.ll"
// target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// target triple = "nvptx64-nvidia-cuda"
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #0
//
// ; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
// declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #0
//
// declare i32 @nvshmem_my_pe()
//
// declare i32 @nvshmem_n_pes()
//
// define ptx_kernel void @identity(ptr noundef %v0) #1 {
// entry:
//   %t6 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
//   %t9 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
//   br label %body
//
// body:                                             ; preds = %entry
//   %t1 = call i32 @nvshmem_my_pe()
//   %t2 = mul i32 %t1, 1000
//   %t3 = call i32 @nvshmem_n_pes()
//   %t4 = mul i32 %t3, 100
//   %t5 = add i32 %t2, %t4
//   %t7 = mul i32 %t6, 10
//   %t8 = add i32 %t5, %t7
//   %t10 = add i32 %t8, %t9
//   %t11 = sext i32 %t6 to i64
//   %t12 = getelementptr i32, ptr %v0, i64 %t11
//   store i32 %t10, ptr %t12, align 4
//   ret void
//
// dead13:                                           ; No predecessors!
//   unreachable
// }
//
// attributes #0 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
// attributes #1 = { "nvvm.maxntid"="128" "nvvm.minctasm"="1" }
