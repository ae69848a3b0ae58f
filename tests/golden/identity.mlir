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
