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
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_identity(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %4 = llvm.load %3 : !llvm.ptr -> i32
//     %c1000_i32 = arith.constant 1000 : i32
//     %5 = arith.muli %4, %c1000_i32 : i32
//     %6 = llvm.getelementptr %arg0[12] : (!llvm.ptr) -> !llvm.ptr, i8
//     %7 = llvm.load %6 : !llvm.ptr -> i32
//     %c100_i32 = arith.constant 100 : i32
//     %8 = arith.muli %7, %c100_i32 : i32
//     %9 = arith.addi %5, %8 : i32
//     %10 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
//     %11 = llvm.load %10 : !llvm.ptr -> i32
//     %c10_i32 = arith.constant 10 : i32
//     %12 = arith.muli %11, %c10_i32 : i32
//     %13 = arith.addi %9, %12 : i32
//     %14 = llvm.getelementptr %arg0[28] : (!llvm.ptr) -> !llvm.ptr, i8
//     %15 = llvm.load %14 : !llvm.ptr -> i32
//     %16 = arith.addi %13, %15 : i32
//     %17 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
//     %18 = llvm.load %17 : !llvm.ptr -> i32
//     %19 = arith.extsi %18 : i32 to i64
//     %20 = llvm.getelementptr %2[%19] : (!llvm.ptr, i64) -> !llvm.ptr, i32
//     llvm.store %16, %20 {alignment = 4 : i64} : i32, !llvm.ptr
//     return
//   }
// }
