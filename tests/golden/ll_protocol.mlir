module {
  func.func @ll_protocol(%arg0: !tile.ptr<i32>, %arg1: !tile.ptr<i64>, %arg2: i32) attributes {weft.constexprs = {}, weft.params = ["data", "ll", "flag"]} {
    %0 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %1 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %2 = arith.addi %1, %c1_i32 : i32
    %3 = "shmem.n_pes"() : () -> i32
    %4 = arith.remsi %2, %3 : i32
    %5 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %6 = "tile.addptr"(%5, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    %7 = "tile.load"(%6) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<i32>>) -> tensor<8xi32>
    %8 = "shmem.ll_pack"(%7, %arg2) : (tensor<8xi32>, i32) -> tensor<8xi64>
    %9 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %10 = "tile.addptr"(%9, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %11 = "shmem.remote_ptr"(%10, %4) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8x!tile.ptr<i64>>
    "tile.store"(%11, %8) : (tensor<8x!tile.ptr<i64>>, tensor<8xi64>) -> ()
    %12 = "tile.splat"(%arg1) : (!tile.ptr<i64>) -> tensor<8x!tile.ptr<i64>>
    %13 = "tile.addptr"(%12, %0) : (tensor<8x!tile.ptr<i64>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i64>>
    %14 = "shmem.ll_recv"(%13, %arg2) : (tensor<8x!tile.ptr<i64>>, i32) -> tensor<8xi32>
    %15 = "tile.splat"(%arg0) : (!tile.ptr<i32>) -> tensor<8x!tile.ptr<i32>>
    %16 = "tile.addptr"(%15, %0) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> tensor<8x!tile.ptr<i32>>
    "tile.store"(%16, %14) : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>) -> ()
    return
  }
}
// ----- expected lowered -----
// module {
//   func.func @weft_kernel_ll_protocol(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
//     %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
//     %1 = llvm.getelementptr %arg1[0] : (!llvm.ptr) -> !llvm.ptr, i64
//     %2 = llvm.load %1 : !llvm.ptr -> !llvm.ptr
//     %3 = llvm.getelementptr %arg1[1] : (!llvm.ptr) -> !llvm.ptr, i64
//     %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
//     %5 = llvm.getelementptr %arg1[2] : (!llvm.ptr) -> !llvm.ptr, i64
//     %6 = llvm.load %5 : !llvm.ptr -> i32
//     %cst = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
//     %7 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
//     %8 = llvm.load %7 : !llvm.ptr -> i32
//     %c1_i32 = arith.constant 1 : i32
//     %9 = arith.addi %8, %c1_i32 : i32
//     %10 = llvm.getelementptr %arg0[12] : (!llvm.ptr) -> !llvm.ptr, i8
//     %11 = llvm.load %10 : !llvm.ptr -> i32
//     %12 = arith.remsi %9, %11 : i32
//     %13 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %14 = vector.broadcast %13 : i64 to vector<8xi64>
//     %15 = llvm.inttoptr %13 : i64 to !llvm.ptr
//     %c0_i64 = arith.constant 0 : i64
//     %16 = llvm.getelementptr %15[%c0_i64] : (!llvm.ptr, i64) -> !llvm.ptr, i32
//     %17 = arith.extsi %cst : vector<8xi32> to vector<8xi64>
//     %c4_i64 = arith.constant 4 : i64
//     %18 = vector.broadcast %c4_i64 : i64 to vector<8xi64>
//     %19 = arith.muli %17, %18 : vector<8xi64>
//     %20 = arith.addi %14, %19 : vector<8xi64>
//     %21 = llvm.load %16 {alignment = 4 : i64} : !llvm.ptr -> vector<8xi32>
//     %22 = arith.extui %21 : vector<8xi32> to vector<8xi64>
//     %23 = arith.extui %6 : i32 to i64
//     %c32_i64 = arith.constant 32 : i64
//     %24 = arith.shli %23, %c32_i64 : i64
//     %25 = vector.broadcast %24 : i64 to vector<8xi64>
//     %26 = arith.ori %22, %25 : vector<8xi64>
//     %27 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %28 = vector.broadcast %27 : i64 to vector<8xi64>
//     %29 = llvm.inttoptr %27 : i64 to !llvm.ptr
//     %c0_i64_0 = arith.constant 0 : i64
//     %30 = llvm.getelementptr %29[%c0_i64_0] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//     %31 = arith.extsi %cst : vector<8xi32> to vector<8xi64>
//     %c8_i64 = arith.constant 8 : i64
//     %32 = vector.broadcast %c8_i64 : i64 to vector<8xi64>
//     %33 = arith.muli %31, %32 : vector<8xi64>
//     %34 = arith.addi %28, %33 : vector<8xi64>
//     %c0_i32 = arith.constant 0 : i32
//     %35 = llvm.getelementptr %0[9] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//     %36 = llvm.load %35 : !llvm.ptr -> !llvm.ptr
//     %37 = llvm.call %36(%arg0, %12, %c0_i32) : !llvm.ptr, (!llvm.ptr, i32, i32) -> i64
//     %38 = llvm.getelementptr %30[%37] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//     %39 = vector.broadcast %37 : i64 to vector<8xi64>
//     %40 = arith.addi %34, %39 : vector<8xi64>
//     llvm.store %26, %38 {alignment = 8 : i64} : vector<8xi64>, !llvm.ptr
//     %41 = llvm.ptrtoint %4 : !llvm.ptr to i64
//     %42 = vector.broadcast %41 : i64 to vector<8xi64>
//     %43 = llvm.inttoptr %41 : i64 to !llvm.ptr
//     %c0_i64_1 = arith.constant 0 : i64
//     %44 = llvm.getelementptr %43[%c0_i64_1] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//     %45 = arith.extsi %cst : vector<8xi32> to vector<8xi64>
//     %c8_i64_2 = arith.constant 8 : i64
//     %46 = vector.broadcast %c8_i64_2 : i64 to vector<8xi64>
//     %47 = arith.muli %45, %46 : vector<8xi64>
//     %48 = arith.addi %42, %47 : vector<8xi64>
//     %49 = arith.extui %6 : i32 to i64
//     %c32_i64_3 = arith.constant 32 : i64
//     %50 = arith.shli %49, %c32_i64_3 : i64
//     %51 = vector.broadcast %50 : i64 to vector<8xi64>
//     %c1_i32_4 = arith.constant 1 : i32
//     %52 = scf.while : () -> vector<8xi64> {
//       %62 = llvm.load %44 {alignment = 8 : i64} : !llvm.ptr -> vector<8xi64>
//       %c32_i64_7 = arith.constant 32 : i64
//       %63 = vector.broadcast %c32_i64_7 : i64 to vector<8xi64>
//       %64 = arith.shrui %62, %63 : vector<8xi64>
//       %65 = arith.shrui %51, %63 : vector<8xi64>
//       %66 = arith.cmpi eq, %64, %65 : vector<8xi64>
//       %67 = vector.reduction <and>, %66 : vector<8xi1> into i1
//       %true = arith.constant true
//       %68 = arith.xori %67, %true : i1
//       scf.if %68 {
//         %69 = llvm.getelementptr %0[10] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//         %70 = llvm.load %69 : !llvm.ptr -> !llvm.ptr
//         llvm.call %70(%arg0, %44, %c1_i32_4) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, i32) -> ()
//       }
//       scf.condition(%68) %62 : vector<8xi64>
//     } do {
//     ^bb0(%arg2: vector<8xi64>):
//       scf.yield
//     }
//     %53 = arith.trunci %52 : vector<8xi64> to vector<8xi32>
//     %54 = llvm.ptrtoint %2 : !llvm.ptr to i64
//     %55 = vector.broadcast %54 : i64 to vector<8xi64>
//     %56 = llvm.inttoptr %54 : i64 to !llvm.ptr
//     %c0_i64_5 = arith.constant 0 : i64
//     %57 = llvm.getelementptr %56[%c0_i64_5] : (!llvm.ptr, i64) -> !llvm.ptr, i32
//     %58 = arith.extsi %cst : vector<8xi32> to vector<8xi64>
//     %c4_i64_6 = arith.constant 4 : i64
//     %59 = vector.broadcast %c4_i64_6 : i64 to vector<8xi64>
//     %60 = arith.muli %58, %59 : vector<8xi64>
//     %61 = arith.addi %55, %60 : vector<8xi64>
//     llvm.store %53, %57 {alignment = 4 : i64} : vector<8xi32>, !llvm.ptr
//     return
//   }
// }
