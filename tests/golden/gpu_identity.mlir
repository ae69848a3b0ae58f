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
// module attributes {gpu.container_module} {
//   gpu.module @identity [#nvvm.target<chip = "sm_90a", features = "+ptx82">] {
//     llvm.func @nvshmem_my_pe() -> i32
//     llvm.func @nvshmem_n_pes() -> i32
//     llvm.func ptx_kernelcc @identity(%arg0: !llvm.ptr {llvm.noundef}) attributes {passthrough = [["nvvm.maxntid", "128"], ["nvvm.minctasm", "1"]]} {
//       %0 = llvm.mlir.constant(1000 : i32) : i32
//       %1 = llvm.mlir.constant(100 : i32) : i32
//       %2 = llvm.mlir.constant(10 : i32) : i32
//       %3 = nvvm.read.ptx.sreg.ctaid.x : i32
//       %4 = nvvm.read.ptx.sreg.nctaid.x : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %5 = llvm.call @nvshmem_my_pe() : () -> i32
//       %6 = llvm.mul %5, %0 : i32
//       %7 = llvm.call @nvshmem_n_pes() : () -> i32
//       %8 = llvm.mul %7, %1 : i32
//       %9 = llvm.add %6, %8 : i32
//       %10 = llvm.mul %3, %2 : i32
//       %11 = llvm.add %9, %10 : i32
//       %12 = llvm.add %11, %4 : i32
//       %13 = llvm.sext %3 : i32 to i64
//       %14 = llvm.getelementptr %arg0[%13] : (!llvm.ptr, i64) -> !llvm.ptr, i32
//       llvm.store %12, %14 {alignment = 4 : i64} : i32, !llvm.ptr
//       llvm.return
//     }
//   }
// }
