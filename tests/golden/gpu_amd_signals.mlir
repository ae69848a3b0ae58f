module {
  func.func @signals(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<i64>, %arg3: i64) attributes {weft.constexprs = {}, weft.params = ["dst", "src", "sig", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %c1_i64 = arith.constant 1 : i64
    "shmem.put_signal"(%arg0, %arg1, %arg3, %arg2, %c1_i64, %3) {nbi = "false", scope = "block", sig_op = "set"} : (!tile.ptr<f32>, !tile.ptr<f32>, i64, !tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_0 = arith.constant 1 : i64
    %4 = "tile.addptr"(%arg2, %c1_i64_0) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64 = arith.constant 2 : i64
    "shmem.signal_op"(%4, %c2_i64, %3) {sig_op = "add"} : (!tile.ptr<i64>, i64, i32) -> ()
    %c1_i64_1 = arith.constant 1 : i64
    %5 = "shmem.signal_wait_until"(%arg2, %c1_i64_1) {cmp = "ge"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %c1_i64_2 = arith.constant 1 : i64
    %6 = "tile.addptr"(%arg2, %c1_i64_2) : (!tile.ptr<i64>, i64) -> !tile.ptr<i64>
    %c2_i64_3 = arith.constant 2 : i64
    %7 = "shmem.signal_wait_until"(%6, %c2_i64_3) {cmp = "eq"} : (!tile.ptr<i64>, i64) -> !shmem.token
    %8 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %9 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %10 = "tile.addptr"(%9, %8) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    %11 = "shmem.consume_token"(%10, %5) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %12 = "shmem.consume_token"(%11, %7) : (tensor<4x!tile.ptr<f32>>, !shmem.token) -> tensor<4x!tile.ptr<f32>>
    %13 = "tile.load"(%12) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<f32>>) -> tensor<4xf32>
    %14 = "tile.make_range"() {end = 4 : i32, start = 0 : i32} : () -> tensor<4xi32>
    %15 = "tile.splat"(%arg1) : (!tile.ptr<f32>) -> tensor<4x!tile.ptr<f32>>
    %16 = "tile.addptr"(%15, %14) : (tensor<4x!tile.ptr<f32>>, tensor<4xi32>) -> tensor<4x!tile.ptr<f32>>
    "tile.store"(%16, %13) : (tensor<4x!tile.ptr<f32>>, tensor<4xf32>) -> ()
    "shmem.fence"() : () -> ()
    "shmem.quiet"() : () -> ()
    "shmem.barrier_all"() : () -> ()
    return
  }
}
// ----- expected gpu@gfx942 -----
// module attributes {gpu.container_module} {
//   gpu.module @signals [#rocdl.target<chip = "gfx942">] {
//     llvm.mlir.global internal @__weft_grid_count(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64, dso_local} : i32
//     llvm.mlir.global internal @__weft_grid_gen(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64, dso_local} : i32
//     llvm.mlir.global internal @__weft_token() {addr_space = 3 : i32, alignment = 8 : i64, dso_local} : i64 {
//       %0 = llvm.mlir.undef : i64
//       llvm.return %0 : i64
//     }
//     llvm.mlir.global external protected @weft_shmem_state() {addr_space = 4 : i32, alignment = 8 : i64, dso_local} : !llvm.struct<(i32, i32, i64, array<64 x i64>)> {
//       %0 = llvm.mlir.constant(0 : i64) : i64
//       %1 = llvm.mlir.constant(dense<0> : tensor<64xi64>) : !llvm.array<64 x i64>
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.zero : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       llvm.return %3 : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//     }
//     llvm.module_flags [#llvm.mlir.module_flag<error, "amdhsa_code_object_version", 500 : i32>]
//     llvm.func @llvm.amdgcn.implicitarg.ptr() -> (!llvm.ptr<4> {llvm.align = 4 : i64, llvm.noundef}) attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind, passthrough = ["nocallback", "nofree", "nosync", "speculatable"], will_return}
//     llvm.func @llvm.amdgcn.s.sleep(i32) attributes {no_unwind, passthrough = ["nocallback", "nofree", "nosync"], will_return}
//     llvm.func amdgpu_kernelcc @signals(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}, %arg2: !llvm.ptr {llvm.noundef}, %arg3: i64 {llvm.noundef}) attributes {passthrough = [["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"]]} {
//       %0 = llvm.mlir.addressof @weft_shmem_state : !llvm.ptr<4>
//       %1 = llvm.mlir.constant(0 : i32) : i32
//       %2 = llvm.mlir.constant(1 : i32) : i32
//       %3 = llvm.mlir.constant(4 : i32) : i32
//       %4 = llvm.mlir.constant(256 : i32) : i32
//       %5 = llvm.mlir.constant(0 : i64) : i64
//       %6 = llvm.mlir.constant(4 : i64) : i64
//       %7 = llvm.mlir.constant(8 : i64) : i64
//       %8 = llvm.mlir.constant(3 : i32) : i32
//       %9 = llvm.mlir.constant(15 : i64) : i64
//       %10 = llvm.mlir.constant(256 : i64) : i64
//       %11 = llvm.mlir.constant(1 : i64) : i64
//       %12 = llvm.mlir.constant(2 : i64) : i64
//       %13 = llvm.mlir.addressof @__weft_token : !llvm.ptr<3>
//       %14 = llvm.mlir.poison : vector<1xi32>
//       %15 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %16 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %17 = llvm.mlir.constant(true) : i1
//       %18 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %19 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %20 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xf32>) : vector<1xf32>
//       %21 = llvm.mlir.poison : vector<1xi1>
//       %22 = llvm.mlir.addressof @__weft_grid_gen : !llvm.ptr<1>
//       %23 = llvm.mlir.addressof @__weft_grid_count : !llvm.ptr<1>
//       %24 = llvm.mlir.constant(2 : i32) : i32
//       %25 = llvm.mlir.constant(64 : i64) : i64
//       %26 = llvm.getelementptr inbounds %0[%1, 0] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %27 = llvm.load %26 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %28 = llvm.getelementptr inbounds %0[%1, 1] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %29 = llvm.load %28 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %30 = rocdl.workitem.id.x : i32
//       %31 = llvm.icmp "eq" %30, %1 : i32
//       %32 = llvm.mul %30, %3 overflow<nuw> : i32
//       %33 = llvm.udiv %32, %4 : i32
//       %34 = llvm.mul %30, %3 overflow<nuw> : i32
//       %35 = llvm.urem %34, %4 : i32
//       %36 = llvm.icmp "ult" %35, %3 : i32
//       %37 = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
//       %38 = llvm.getelementptr %37[%5] : (!llvm.ptr<4>, i64) -> !llvm.ptr<4>, i8
//       %39 = llvm.load %38 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %40 = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
//       %41 = llvm.getelementptr %40[%6] : (!llvm.ptr<4>, i64) -> !llvm.ptr<4>, i8
//       %42 = llvm.load %41 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %43 = llvm.call_intrinsic "llvm.amdgcn.implicitarg.ptr"() : () -> !llvm.ptr<4>
//       %44 = llvm.getelementptr %43[%7] : (!llvm.ptr<4>, i64) -> !llvm.ptr<4>, i8
//       %45 = llvm.load %44 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %46 = rocdl.workgroup.id.x : i32
//       %47 = rocdl.workgroup.id.y : i32
//       %48 = rocdl.workgroup.id.z : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %49 = llvm.add %27, %2 : i32
//       %50 = llvm.srem %49, %29 : i32
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %51 = llvm.getelementptr inbounds %0[%1, 3, %50] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %52 = llvm.load %51 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %53 = llvm.getelementptr inbounds %0[%1, 3, %27] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %54 = llvm.load %53 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %55 = llvm.sub %52, %54 : i64
//       %56 = llvm.getelementptr %arg0[%55] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %57 = llvm.zext %30 : i32 to i64
//       %58 = llvm.addrspacecast %56 : !llvm.ptr to !llvm.ptr<1>
//       %59 = llvm.addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
//       %60 = llvm.mul %arg3, %6 : i64
//       %61 = llvm.ptrtoint %58 : !llvm.ptr<1> to i64
//       %62 = llvm.ptrtoint %59 : !llvm.ptr<1> to i64
//       %63 = llvm.or %61, %62 : i64
//       %64 = llvm.or %63, %60 : i64
//       %65 = llvm.and %64, %9 : i64
//       %66 = llvm.icmp "eq" %65, %5 : i64
//       llvm.cond_br %66, ^bb2, ^bb7
//     ^bb2:  // pred: ^bb1
//       %67 = llvm.lshr %60, %6 : i64
//       llvm.br ^bb3(%57 : i64)
//     ^bb3(%68: i64):  // 2 preds: ^bb2, ^bb5
//       %69 = llvm.icmp "slt" %68, %67 : i64
//       llvm.cond_br %69, ^bb4, ^bb6
//     ^bb4:  // pred: ^bb3
//       %70 = llvm.getelementptr %59[%68] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %71 = llvm.getelementptr %58[%68] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %72 = llvm.load %70 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       llvm.store %72, %71 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//       llvm.br ^bb5
//     ^bb5:  // pred: ^bb4
//       %73 = llvm.add %68, %10 : i64
//       llvm.br ^bb3(%73 : i64)
//     ^bb6:  // pred: ^bb3
//       llvm.br ^bb12
//     ^bb7:  // pred: ^bb1
//       llvm.br ^bb8(%57 : i64)
//     ^bb8(%74: i64):  // 2 preds: ^bb7, ^bb10
//       %75 = llvm.icmp "slt" %74, %arg3 : i64
//       llvm.cond_br %75, ^bb9, ^bb11
//     ^bb9:  // pred: ^bb8
//       %76 = llvm.getelementptr %59[%74] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
//       %77 = llvm.getelementptr %58[%74] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
//       %78 = llvm.load %76 {alignment = 4 : i64} : !llvm.ptr<1> -> f32
//       llvm.store %78, %77 {alignment = 4 : i64} : f32, !llvm.ptr<1>
//       llvm.br ^bb10
//     ^bb10:  // pred: ^bb9
//       %79 = llvm.add %74, %10 : i64
//       llvm.br ^bb8(%79 : i64)
//     ^bb11:  // pred: ^bb8
//       llvm.br ^bb12
//     ^bb12:  // 2 preds: ^bb6, ^bb11
//       llvm.fence release
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb13, ^bb14
//     ^bb13:  // pred: ^bb12
//       %80 = llvm.getelementptr inbounds %0[%1, 3, %50] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %81 = llvm.load %80 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %82 = llvm.getelementptr inbounds %0[%1, 3, %27] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %83 = llvm.load %82 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %84 = llvm.sub %81, %83 : i64
//       %85 = llvm.getelementptr %arg2[%84] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %86 = llvm.addrspacecast %85 : !llvm.ptr to !llvm.ptr<1>
//       llvm.store %11, %86 atomic release {alignment = 8 : i64} : i64, !llvm.ptr<1>
//       llvm.br ^bb14
//     ^bb14:  // 2 preds: ^bb12, ^bb13
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %87 = llvm.getelementptr %arg2[%11] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb15, ^bb16
//     ^bb15:  // pred: ^bb14
//       %88 = llvm.getelementptr inbounds %0[%1, 3, %50] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %89 = llvm.load %88 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %90 = llvm.getelementptr inbounds %0[%1, 3, %27] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %91 = llvm.load %90 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %92 = llvm.sub %89, %91 : i64
//       %93 = llvm.getelementptr %87[%92] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %94 = llvm.addrspacecast %93 : !llvm.ptr to !llvm.ptr<1>
//       %95 = llvm.atomicrmw add %94, %12 release {alignment = 8 : i64} : !llvm.ptr<1>, i64
//       llvm.br ^bb16
//     ^bb16:  // 2 preds: ^bb14, ^bb15
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb17, ^bb21
//     ^bb17:  // pred: ^bb16
//       %96 = llvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
//       llvm.br ^bb18
//     ^bb18:  // 2 preds: ^bb17, ^bb19
//       %97 = llvm.load volatile %96 atomic monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
//       %98 = llvm.icmp "uge" %97, %11 : i64
//       llvm.cond_br %98, ^bb20, ^bb19
//     ^bb19:  // pred: ^bb18
//       llvm.call_intrinsic "llvm.amdgcn.s.sleep"(%2) : (i32) -> ()
//       llvm.br ^bb18
//     ^bb20:  // pred: ^bb18
//       llvm.fence acquire
//       llvm.store %97, %13 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb21
//     ^bb21:  // 2 preds: ^bb16, ^bb20
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %99 = llvm.load %13 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %100 = llvm.getelementptr %arg2[%11] : (!llvm.ptr, i64) -> !llvm.ptr, i64
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb22, ^bb26
//     ^bb22:  // pred: ^bb21
//       %101 = llvm.addrspacecast %100 : !llvm.ptr to !llvm.ptr<1>
//       llvm.br ^bb23
//     ^bb23:  // 2 preds: ^bb22, ^bb24
//       %102 = llvm.load volatile %101 atomic monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
//       %103 = llvm.icmp "eq" %102, %12 : i64
//       llvm.cond_br %103, ^bb25, ^bb24
//     ^bb24:  // pred: ^bb23
//       llvm.call_intrinsic "llvm.amdgcn.s.sleep"(%2) : (i32) -> ()
//       llvm.br ^bb23
//     ^bb25:  // pred: ^bb23
//       llvm.fence acquire
//       llvm.store %102, %13 {alignment = 8 : i64} : i64, !llvm.ptr<3>
//       llvm.br ^bb26
//     ^bb26:  // 2 preds: ^bb21, ^bb25
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %104 = llvm.load %13 {alignment = 8 : i64} : !llvm.ptr<3> -> i64
//       %105 = llvm.add %33, %1 : i32
//       %106 = llvm.insertelement %105, %14[%5 : i64] : vector<1xi32>
//       %107 = llvm.shufflevector %106, %14 [0] : vector<1xi32> 
//       %108 = llvm.add %107, %15 : vector<1xi32>
//       %109 = llvm.insertelement %arg0, %16[%5 : i64] : vector<1x!llvm.ptr>
//       %110 = llvm.shufflevector %109, %16 [0] : vector<1x!llvm.ptr> 
//       %111 = llvm.sext %108 : vector<1xi32> to vector<1xi64>
//       %112 = llvm.getelementptr %110[%111] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %113 = llvm.trunc %99 : i64 to i32
//       %114 = llvm.inline_asm has_side_effects asm_dialect = att "v_and_b32 $0, 0, $1", "=v,v" %113 : (i32) -> i32
//       %115 = llvm.zext %114 : i32 to i64
//       %116 = llvm.getelementptr %112[%115] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %117 = llvm.trunc %104 : i64 to i32
//       %118 = llvm.inline_asm has_side_effects asm_dialect = att "v_and_b32 $0, 0, $1", "=v,v" %117 : (i32) -> i32
//       %119 = llvm.zext %118 : i32 to i64
//       %120 = llvm.getelementptr %116[%119] : (vector<1x!llvm.ptr>, i64) -> vector<1x!llvm.ptr>, i8
//       %121 = llvm.addrspacecast %120 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %122 = llvm.intr.masked.gather %121, %18, %20 {alignment = 4 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xf32>) -> vector<1xf32>
//       %123 = llvm.add %33, %1 : i32
//       %124 = llvm.insertelement %123, %14[%5 : i64] : vector<1xi32>
//       %125 = llvm.shufflevector %124, %14 [0] : vector<1xi32> 
//       %126 = llvm.add %125, %15 : vector<1xi32>
//       %127 = llvm.insertelement %arg1, %16[%5 : i64] : vector<1x!llvm.ptr>
//       %128 = llvm.shufflevector %127, %16 [0] : vector<1x!llvm.ptr> 
//       %129 = llvm.sext %126 : vector<1xi32> to vector<1xi64>
//       %130 = llvm.getelementptr %128[%129] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, f32
//       %131 = llvm.insertelement %36, %21[%5 : i64] : vector<1xi1>
//       %132 = llvm.shufflevector %131, %21 [0] : vector<1xi1> 
//       %133 = llvm.and %18, %132 : vector<1xi1>
//       %134 = llvm.addrspacecast %130 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %122, %134, %133 {alignment = 4 : i32} : vector<1xf32>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.fence release
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.fence seq_cst
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.fence seq_cst
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb27, ^bb31
//     ^bb27:  // pred: ^bb26
//       %135 = llvm.mul %39, %42 : i32
//       %136 = llvm.mul %135, %45 : i32
//       %137 = llvm.sub %136, %2 : i32
//       llvm.fence acq_rel
//       %138 = llvm.load volatile %22 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %139 = llvm.atomicrmw add %23, %2 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %140 = llvm.icmp "eq" %139, %137 : i32
//       llvm.cond_br %140, ^bb28, ^bb29
//     ^bb28:  // pred: ^bb27
//       llvm.store %1, %23 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %141 = llvm.add %138, %2 : i32
//       llvm.store %141, %22 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb30
//     ^bb29:  // 2 preds: ^bb27, ^bb29
//       %142 = llvm.load volatile %22 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %143 = llvm.icmp "eq" %142, %138 : i32
//       llvm.cond_br %143, ^bb29, ^bb30
//     ^bb30:  // 2 preds: ^bb28, ^bb29
//       llvm.br ^bb31
//     ^bb31:  // 2 preds: ^bb26, ^bb30
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %144 = llvm.or %46, %47 : i32
//       %145 = llvm.or %144, %48 : i32
//       %146 = llvm.icmp "eq" %145, %1 : i32
//       %147 = llvm.and %146, %31 : i1
//       llvm.cond_br %147, ^bb32, ^bb44
//     ^bb32:  // pred: ^bb31
//       %148 = llvm.getelementptr inbounds %0[%1, 2] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %149 = llvm.load %148 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %150 = llvm.getelementptr inbounds %0[%1, 3, %27] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %151 = llvm.load %150 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %152 = llvm.add %151, %149 : i64
//       %153 = llvm.inttoptr %152 : i64 to !llvm.ptr<1>
//       %154 = llvm.getelementptr %153[%25] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
//       %155 = llvm.load volatile %154 {alignment = 8 : i64} : !llvm.ptr<1> -> i64
//       %156 = llvm.add %155, %11 : i64
//       llvm.store volatile %156, %154 {alignment = 8 : i64} : i64, !llvm.ptr<1>
//       %157 = llvm.zext %29 : i32 to i64
//       %158 = llvm.zext %27 : i32 to i64
//       llvm.br ^bb33(%5 : i64)
//     ^bb33(%159: i64):  // 2 preds: ^bb32, ^bb35
//       %160 = llvm.icmp "slt" %159, %157 : i64
//       llvm.cond_br %160, ^bb34, ^bb36
//     ^bb34:  // pred: ^bb33
//       %161 = llvm.trunc %159 : i64 to i32
//       %162 = llvm.getelementptr inbounds %0[%1, 3, %161] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %163 = llvm.load %162 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %164 = llvm.add %163, %149 : i64
//       %165 = llvm.inttoptr %164 : i64 to !llvm.ptr<1>
//       %166 = llvm.getelementptr %165[%158] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
//       llvm.store %156, %166 atomic release {alignment = 8 : i64} : i64, !llvm.ptr<1>
//       llvm.br ^bb35
//     ^bb35:  // pred: ^bb34
//       %167 = llvm.add %159, %11 : i64
//       llvm.br ^bb33(%167 : i64)
//     ^bb36:  // pred: ^bb33
//       llvm.br ^bb37(%5 : i64)
//     ^bb37(%168: i64):  // 2 preds: ^bb36, ^bb42
//       %169 = llvm.icmp "slt" %168, %157 : i64
//       llvm.cond_br %169, ^bb38, ^bb43
//     ^bb38:  // pred: ^bb37
//       %170 = llvm.getelementptr %153[%168] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
//       llvm.br ^bb39
//     ^bb39:  // 2 preds: ^bb38, ^bb40
//       %171 = llvm.load volatile %170 atomic monotonic {alignment = 8 : i64} : !llvm.ptr<1> -> i64
//       %172 = llvm.icmp "uge" %171, %156 : i64
//       llvm.cond_br %172, ^bb41, ^bb40
//     ^bb40:  // pred: ^bb39
//       llvm.call_intrinsic "llvm.amdgcn.s.sleep"(%2) : (i32) -> ()
//       llvm.br ^bb39
//     ^bb41:  // pred: ^bb39
//       llvm.fence acquire
//       llvm.br ^bb42
//     ^bb42:  // pred: ^bb41
//       %173 = llvm.add %168, %11 : i64
//       llvm.br ^bb37(%173 : i64)
//     ^bb43:  // pred: ^bb37
//       llvm.br ^bb44
//     ^bb44:  // 2 preds: ^bb31, ^bb43
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %31, ^bb45, ^bb49
//     ^bb45:  // pred: ^bb44
//       %174 = llvm.mul %39, %42 : i32
//       %175 = llvm.mul %174, %45 : i32
//       %176 = llvm.sub %175, %2 : i32
//       llvm.fence acq_rel
//       %177 = llvm.load volatile %22 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %178 = llvm.atomicrmw add %23, %2 acq_rel {alignment = 4 : i64} : !llvm.ptr<1>, i32
//       llvm.fence acq_rel
//       %179 = llvm.icmp "eq" %178, %176 : i32
//       llvm.cond_br %179, ^bb46, ^bb47
//     ^bb46:  // pred: ^bb45
//       llvm.store %1, %23 atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       %180 = llvm.add %177, %2 : i32
//       llvm.store %180, %22 atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
//       llvm.br ^bb48
//     ^bb47:  // 2 preds: ^bb45, ^bb47
//       %181 = llvm.load volatile %22 atomic acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
//       %182 = llvm.icmp "eq" %181, %177 : i32
//       llvm.cond_br %182, ^bb47, ^bb48
//     ^bb48:  // 2 preds: ^bb46, ^bb47
//       llvm.br ^bb49
//     ^bb49:  // 2 preds: ^bb44, ^bb48
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.return
//     }
//   }
// }
