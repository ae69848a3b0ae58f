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
// ----- expected gpu@gfx942 -----
// module attributes {gpu.container_module} {
//   gpu.module @ll_protocol [#rocdl.target<chip = "gfx942">] {
//     llvm.mlir.global external protected @weft_shmem_state() {addr_space = 4 : i32, alignment = 8 : i64, dso_local} : !llvm.struct<(i32, i32, i64, array<64 x i64>)> {
//       %0 = llvm.mlir.constant(0 : i64) : i64
//       %1 = llvm.mlir.constant(dense<0> : tensor<64xi64>) : !llvm.array<64 x i64>
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.zero : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       llvm.return %3 : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//     }
//     llvm.module_flags [#llvm.mlir.module_flag<error, "amdhsa_code_object_version", 500 : i32>]
//     llvm.func amdgpu_kernelcc @ll_protocol(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}, %arg2: i32 {llvm.noundef}) attributes {passthrough = [["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"]]} {
//       %0 = llvm.mlir.constant(8 : i32) : i32
//       %1 = llvm.mlir.constant(256 : i32) : i32
//       %2 = llvm.mlir.addressof @weft_shmem_state : !llvm.ptr<4>
//       %3 = llvm.mlir.constant(0 : i32) : i32
//       %4 = llvm.mlir.constant(1 : i32) : i32
//       %5 = llvm.mlir.poison : vector<1xi32>
//       %6 = llvm.mlir.constant(0 : i64) : i64
//       %7 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %8 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %9 = llvm.mlir.constant(true) : i1
//       %10 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %11 = llvm.mlir.constant(32 : i64) : i64
//       %12 = llvm.mlir.poison : vector<1xi64>
//       %13 = llvm.mlir.constant(3 : i32) : i32
//       %14 = llvm.mlir.poison : vector<1xi1>
//       %15 = llvm.mlir.constant(-4294967296 : i64) : i64
//       %16 = rocdl.workitem.id.x : i32
//       %17 = llvm.mul %16, %0 overflow<nuw> : i32
//       %18 = llvm.udiv %17, %1 : i32
//       %19 = llvm.getelementptr inbounds %2[%3, 0] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %20 = llvm.load %19 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %21 = llvm.getelementptr inbounds %2[%3, 1] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %22 = llvm.load %21 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %23 = llvm.mul %16, %0 overflow<nuw> : i32
//       %24 = llvm.urem %23, %1 : i32
//       %25 = llvm.icmp "ult" %24, %0 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %26 = llvm.add %18, %3 : i32
//       %27 = llvm.insertelement %26, %5[%6 : i64] : vector<1xi32>
//       %28 = llvm.shufflevector %27, %5 [0] : vector<1xi32> 
//       %29 = llvm.add %28, %7 : vector<1xi32>
//       %30 = llvm.add %20, %4 : i32
//       %31 = llvm.srem %30, %22 : i32
//       %32 = llvm.insertelement %arg0, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %33 = llvm.shufflevector %32, %8 [0] : vector<1x!llvm.ptr> 
//       %34 = llvm.sext %29 : vector<1xi32> to vector<1xi64>
//       %35 = llvm.getelementptr %33[%34] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %36 = llvm.addrspacecast %35 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %37 = llvm.intr.masked.gather %36, %10, %7 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xi32>) -> vector<1xi32>
//       %38 = llvm.zext %37 : vector<1xi32> to vector<1xi64>
//       %39 = llvm.zext %arg2 : i32 to i64
//       %40 = llvm.shl %39, %11 : i64
//       %41 = llvm.insertelement %40, %12[%6 : i64] : vector<1xi64>
//       %42 = llvm.shufflevector %41, %12 [0] : vector<1xi64> 
//       %43 = llvm.or %38, %42 : vector<1xi64>
//       %44 = llvm.insertelement %arg1, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %45 = llvm.shufflevector %44, %8 [0] : vector<1x!llvm.ptr> 
//       %46 = llvm.sext %29 : vector<1xi32> to vector<1xi64>
//       %47 = llvm.getelementptr %45[%46] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       %48 = llvm.extractelement %47[%6 : i64] : vector<1x!llvm.ptr>
//       %49 = llvm.getelementptr inbounds %2[%3, 3, %31] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %50 = llvm.load %49 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %51 = llvm.getelementptr inbounds %2[%3, 3, %20] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %52 = llvm.load %51 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %53 = llvm.sub %50, %52 : i64
//       %54 = llvm.getelementptr %48[%53] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %55 = llvm.ptrtoint %48 : !llvm.ptr to i64
//       %56 = llvm.ptrtoint %54 : !llvm.ptr to i64
//       %57 = llvm.sub %56, %55 : i64
//       %58 = llvm.getelementptr %47[%57] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %59 = llvm.insertelement %25, %14[%6 : i64] : vector<1xi1>
//       %60 = llvm.shufflevector %59, %14 [0] : vector<1xi1> 
//       %61 = llvm.and %10, %60 : vector<1xi1>
//       %62 = llvm.extractelement %58[%6 : i64] : vector<1x!llvm.ptr>
//       %63 = llvm.extractelement %43[%6 : i64] : vector<1xi64>
//       %64 = llvm.extractelement %61[%6 : i64] : vector<1xi1>
//       llvm.cond_br %64, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       llvm.store %63, %62 atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
//       llvm.br ^bb3
//     ^bb3:  // 2 preds: ^bb1, ^bb2
//       %65 = llvm.insertelement %arg1, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %66 = llvm.shufflevector %65, %8 [0] : vector<1x!llvm.ptr> 
//       %67 = llvm.sext %29 : vector<1xi32> to vector<1xi64>
//       %68 = llvm.getelementptr %66[%67] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i64
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %69 = llvm.zext %arg2 : i32 to i64
//       %70 = llvm.shl %69, %11 : i64
//       %71 = llvm.extractelement %68[%6 : i64] : vector<1x!llvm.ptr>
//       llvm.cond_br %9, ^bb4, ^bb7(%6 : i64)
//     ^bb4:  // pred: ^bb3
//       llvm.br ^bb5
//     ^bb5:  // 2 preds: ^bb4, ^bb5
//       %72 = llvm.load volatile %71 atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
//       %73 = llvm.and %72, %15 : i64
//       %74 = llvm.icmp "eq" %73, %70 : i64
//       llvm.cond_br %74, ^bb6, ^bb5
//     ^bb6:  // pred: ^bb5
//       llvm.br ^bb7(%72 : i64)
//     ^bb7(%75: i64):  // 2 preds: ^bb3, ^bb6
//       %76 = llvm.trunc %75 : i64 to i32
//       %77 = llvm.insertelement %76, %5[%6 : i64] : vector<1xi32>
//       %78 = llvm.insertelement %arg0, %8[%6 : i64] : vector<1x!llvm.ptr>
//       %79 = llvm.shufflevector %78, %8 [0] : vector<1x!llvm.ptr> 
//       %80 = llvm.sext %29 : vector<1xi32> to vector<1xi64>
//       %81 = llvm.getelementptr %79[%80] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, i32
//       %82 = llvm.insertelement %25, %14[%6 : i64] : vector<1xi1>
//       %83 = llvm.shufflevector %82, %14 [0] : vector<1xi1> 
//       %84 = llvm.and %10, %83 : vector<1xi1>
//       %85 = llvm.addrspacecast %81 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %77, %85, %84 {alignment = 4 : i32} : vector<1xi32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
