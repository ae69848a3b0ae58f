module {
  func.func @data_movement(%arg0: !tile.ptr<bf16>, %arg1: i64) attributes {weft.constexprs = {}, weft.params = ["buf", "n"]} {
    %0 = "shmem.my_pe"() : () -> i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %0, %c1_i32 : i32
    %2 = "shmem.n_pes"() : () -> i32
    %3 = arith.remsi %1, %2 : i32
    %4 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %4, %arg1, %3) {nbi = "false", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %5 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.put"(%arg0, %5, %arg1, %3) {nbi = "true", scope = "warp"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %6 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %6, %arg1, %3) {nbi = "false", scope = "thread"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    %7 = "tile.addptr"(%arg0, %arg1) : (!tile.ptr<bf16>, i64) -> !tile.ptr<bf16>
    "shmem.get"(%arg0, %7, %arg1, %3) {nbi = "true", scope = "block"} : (!tile.ptr<bf16>, !tile.ptr<bf16>, i64, i32) -> ()
    "shmem.quiet"() : () -> ()
    %8 = "shmem.remote_ptr"(%arg0, %3) : (!tile.ptr<bf16>, i32) -> !tile.ptr<bf16>
    %9 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %10 = "tile.splat"(%arg0) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %11 = "tile.addptr"(%10, %9) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %12 = "tile.make_range"() {end = 8 : i32, start = 0 : i32} : () -> tensor<8xi32>
    %13 = "tile.splat"(%8) : (!tile.ptr<bf16>) -> tensor<8x!tile.ptr<bf16>>
    %14 = "tile.addptr"(%13, %12) : (tensor<8x!tile.ptr<bf16>>, tensor<8xi32>) -> tensor<8x!tile.ptr<bf16>>
    %15 = "tile.load"(%14) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x!tile.ptr<bf16>>) -> tensor<8xbf16>
    "tile.store"(%11, %15) : (tensor<8x!tile.ptr<bf16>>, tensor<8xbf16>) -> ()
    return
  }
}
// ----- expected gpu@gfx942 -----
// module attributes {gpu.container_module} {
//   gpu.module @data_movement [#rocdl.target<chip = "gfx942">] {
//     llvm.mlir.global external protected @weft_shmem_state() {addr_space = 4 : i32, alignment = 8 : i64, dso_local} : !llvm.struct<(i32, i32, i64, array<64 x i64>)> {
//       %0 = llvm.mlir.constant(0 : i64) : i64
//       %1 = llvm.mlir.constant(dense<0> : tensor<64xi64>) : !llvm.array<64 x i64>
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.zero : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       llvm.return %3 : !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//     }
//     llvm.module_flags [#llvm.mlir.module_flag<error, "amdhsa_code_object_version", 500 : i32>]
//     llvm.func amdgpu_kernelcc @data_movement(%arg0: !llvm.ptr {llvm.noundef}, %arg1: i64 {llvm.noundef}) attributes {passthrough = [["amdgpu-flat-work-group-size", "256,256"], ["uniform-work-group-size", "true"]]} {
//       %0 = llvm.mlir.addressof @weft_shmem_state : !llvm.ptr<4>
//       %1 = llvm.mlir.constant(0 : i32) : i32
//       %2 = llvm.mlir.constant(1 : i32) : i32
//       %3 = llvm.mlir.constant(64 : i32) : i32
//       %4 = llvm.mlir.constant(8 : i32) : i32
//       %5 = llvm.mlir.constant(256 : i32) : i32
//       %6 = llvm.mlir.constant(3 : i32) : i32
//       %7 = llvm.mlir.constant(2 : i64) : i64
//       %8 = llvm.mlir.constant(15 : i64) : i64
//       %9 = llvm.mlir.constant(0 : i64) : i64
//       %10 = llvm.mlir.constant(256 : i64) : i64
//       %11 = llvm.mlir.constant(4 : i64) : i64
//       %12 = llvm.mlir.constant(64 : i64) : i64
//       %13 = llvm.mlir.constant(1 : i64) : i64
//       %14 = llvm.mlir.poison : vector<1xi32>
//       %15 = llvm.mlir.constant(dense<0> : vector<1xi32>) : vector<1xi32>
//       %16 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %17 = llvm.mlir.constant(true) : i1
//       %18 = llvm.mlir.constant(dense<true> : vector<1xi1>) : vector<1xi1>
//       %19 = llvm.mlir.constant(0.000000e+00 : bf16) : bf16
//       %20 = llvm.mlir.constant(dense<0.000000e+00> : vector<1xbf16>) : vector<1xbf16>
//       %21 = llvm.mlir.poison : vector<1xi1>
//       %22 = llvm.getelementptr inbounds %0[%1, 0] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %23 = llvm.load %22 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %24 = llvm.getelementptr inbounds %0[%1, 1] : (!llvm.ptr<4>, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %25 = llvm.load %24 {alignment = 4 : i64} : !llvm.ptr<4> -> i32
//       %26 = rocdl.workitem.id.x : i32
//       %27 = llvm.icmp "ult" %26, %3 : i32
//       %28 = llvm.icmp "eq" %26, %1 : i32
//       %29 = llvm.mul %26, %4 overflow<nuw> : i32
//       %30 = llvm.udiv %29, %5 : i32
//       %31 = llvm.mul %26, %4 overflow<nuw> : i32
//       %32 = llvm.urem %31, %5 : i32
//       %33 = llvm.icmp "ult" %32, %4 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %34 = llvm.add %23, %2 : i32
//       %35 = llvm.srem %34, %25 : i32
//       %36 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %37 = llvm.getelementptr inbounds %0[%1, 3, %35] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %38 = llvm.load %37 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %39 = llvm.getelementptr inbounds %0[%1, 3, %23] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %40 = llvm.load %39 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %41 = llvm.sub %38, %40 : i64
//       %42 = llvm.getelementptr %arg0[%41] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %43 = llvm.zext %26 : i32 to i64
//       %44 = llvm.addrspacecast %42 : !llvm.ptr to !llvm.ptr<1>
//       %45 = llvm.addrspacecast %36 : !llvm.ptr to !llvm.ptr<1>
//       %46 = llvm.mul %arg1, %7 : i64
//       %47 = llvm.ptrtoint %44 : !llvm.ptr<1> to i64
//       %48 = llvm.ptrtoint %45 : !llvm.ptr<1> to i64
//       %49 = llvm.or %47, %48 : i64
//       %50 = llvm.or %49, %46 : i64
//       %51 = llvm.and %50, %8 : i64
//       %52 = llvm.icmp "eq" %51, %9 : i64
//       llvm.cond_br %52, ^bb2, ^bb7
//     ^bb2:  // pred: ^bb1
//       %53 = llvm.lshr %46, %11 : i64
//       llvm.br ^bb3(%43 : i64)
//     ^bb3(%54: i64):  // 2 preds: ^bb2, ^bb5
//       %55 = llvm.icmp "slt" %54, %53 : i64
//       llvm.cond_br %55, ^bb4, ^bb6
//     ^bb4:  // pred: ^bb3
//       %56 = llvm.getelementptr %45[%54] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %57 = llvm.getelementptr %44[%54] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %58 = llvm.load %56 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       llvm.store %58, %57 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//       llvm.br ^bb5
//     ^bb5:  // pred: ^bb4
//       %59 = llvm.add %54, %10 : i64
//       llvm.br ^bb3(%59 : i64)
//     ^bb6:  // pred: ^bb3
//       llvm.br ^bb12
//     ^bb7:  // pred: ^bb1
//       llvm.br ^bb8(%43 : i64)
//     ^bb8(%60: i64):  // 2 preds: ^bb7, ^bb10
//       %61 = llvm.icmp "slt" %60, %arg1 : i64
//       llvm.cond_br %61, ^bb9, ^bb11
//     ^bb9:  // pred: ^bb8
//       %62 = llvm.getelementptr %45[%60] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %63 = llvm.getelementptr %44[%60] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %64 = llvm.load %62 {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
//       llvm.store %64, %63 {alignment = 2 : i64} : bf16, !llvm.ptr<1>
//       llvm.br ^bb10
//     ^bb10:  // pred: ^bb9
//       %65 = llvm.add %60, %10 : i64
//       llvm.br ^bb8(%65 : i64)
//     ^bb11:  // pred: ^bb8
//       llvm.br ^bb12
//     ^bb12:  // 2 preds: ^bb6, ^bb11
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %66 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %27, ^bb13, ^bb25
//     ^bb13:  // pred: ^bb12
//       %67 = llvm.getelementptr inbounds %0[%1, 3, %35] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %68 = llvm.load %67 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %69 = llvm.getelementptr inbounds %0[%1, 3, %23] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %70 = llvm.load %69 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %71 = llvm.sub %68, %70 : i64
//       %72 = llvm.getelementptr %arg0[%71] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %73 = llvm.zext %26 : i32 to i64
//       %74 = llvm.addrspacecast %72 : !llvm.ptr to !llvm.ptr<1>
//       %75 = llvm.addrspacecast %66 : !llvm.ptr to !llvm.ptr<1>
//       %76 = llvm.mul %arg1, %7 : i64
//       %77 = llvm.ptrtoint %74 : !llvm.ptr<1> to i64
//       %78 = llvm.ptrtoint %75 : !llvm.ptr<1> to i64
//       %79 = llvm.or %77, %78 : i64
//       %80 = llvm.or %79, %76 : i64
//       %81 = llvm.and %80, %8 : i64
//       %82 = llvm.icmp "eq" %81, %9 : i64
//       llvm.cond_br %82, ^bb14, ^bb19
//     ^bb14:  // pred: ^bb13
//       %83 = llvm.lshr %76, %11 : i64
//       llvm.br ^bb15(%73 : i64)
//     ^bb15(%84: i64):  // 2 preds: ^bb14, ^bb17
//       %85 = llvm.icmp "slt" %84, %83 : i64
//       llvm.cond_br %85, ^bb16, ^bb18
//     ^bb16:  // pred: ^bb15
//       %86 = llvm.getelementptr %75[%84] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %87 = llvm.getelementptr %74[%84] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %88 = llvm.load %86 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       llvm.store %88, %87 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//       llvm.br ^bb17
//     ^bb17:  // pred: ^bb16
//       %89 = llvm.add %84, %12 : i64
//       llvm.br ^bb15(%89 : i64)
//     ^bb18:  // pred: ^bb15
//       llvm.br ^bb24
//     ^bb19:  // pred: ^bb13
//       llvm.br ^bb20(%73 : i64)
//     ^bb20(%90: i64):  // 2 preds: ^bb19, ^bb22
//       %91 = llvm.icmp "slt" %90, %arg1 : i64
//       llvm.cond_br %91, ^bb21, ^bb23
//     ^bb21:  // pred: ^bb20
//       %92 = llvm.getelementptr %75[%90] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %93 = llvm.getelementptr %74[%90] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %94 = llvm.load %92 {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
//       llvm.store %94, %93 {alignment = 2 : i64} : bf16, !llvm.ptr<1>
//       llvm.br ^bb22
//     ^bb22:  // pred: ^bb21
//       %95 = llvm.add %90, %12 : i64
//       llvm.br ^bb20(%95 : i64)
//     ^bb23:  // pred: ^bb20
//       llvm.br ^bb24
//     ^bb24:  // 2 preds: ^bb18, ^bb23
//       llvm.br ^bb25
//     ^bb25:  // 2 preds: ^bb12, ^bb24
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %96 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.cond_br %28, ^bb26, ^bb38
//     ^bb26:  // pred: ^bb25
//       %97 = llvm.getelementptr inbounds %0[%1, 3, %35] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %98 = llvm.load %97 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %99 = llvm.getelementptr inbounds %0[%1, 3, %23] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %100 = llvm.load %99 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %101 = llvm.sub %98, %100 : i64
//       %102 = llvm.getelementptr %96[%101] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %103 = llvm.zext %1 : i32 to i64
//       %104 = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
//       %105 = llvm.addrspacecast %102 : !llvm.ptr to !llvm.ptr<1>
//       %106 = llvm.mul %arg1, %7 : i64
//       %107 = llvm.ptrtoint %104 : !llvm.ptr<1> to i64
//       %108 = llvm.ptrtoint %105 : !llvm.ptr<1> to i64
//       %109 = llvm.or %107, %108 : i64
//       %110 = llvm.or %109, %106 : i64
//       %111 = llvm.and %110, %8 : i64
//       %112 = llvm.icmp "eq" %111, %9 : i64
//       llvm.cond_br %112, ^bb27, ^bb32
//     ^bb27:  // pred: ^bb26
//       %113 = llvm.lshr %106, %11 : i64
//       llvm.br ^bb28(%103 : i64)
//     ^bb28(%114: i64):  // 2 preds: ^bb27, ^bb30
//       %115 = llvm.icmp "slt" %114, %113 : i64
//       llvm.cond_br %115, ^bb29, ^bb31
//     ^bb29:  // pred: ^bb28
//       %116 = llvm.getelementptr %105[%114] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %117 = llvm.getelementptr %104[%114] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %118 = llvm.load %116 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       llvm.store %118, %117 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//       llvm.br ^bb30
//     ^bb30:  // pred: ^bb29
//       %119 = llvm.add %114, %13 : i64
//       llvm.br ^bb28(%119 : i64)
//     ^bb31:  // pred: ^bb28
//       llvm.br ^bb37
//     ^bb32:  // pred: ^bb26
//       llvm.br ^bb33(%103 : i64)
//     ^bb33(%120: i64):  // 2 preds: ^bb32, ^bb35
//       %121 = llvm.icmp "slt" %120, %arg1 : i64
//       llvm.cond_br %121, ^bb34, ^bb36
//     ^bb34:  // pred: ^bb33
//       %122 = llvm.getelementptr %105[%120] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %123 = llvm.getelementptr %104[%120] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %124 = llvm.load %122 {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
//       llvm.store %124, %123 {alignment = 2 : i64} : bf16, !llvm.ptr<1>
//       llvm.br ^bb35
//     ^bb35:  // pred: ^bb34
//       %125 = llvm.add %120, %13 : i64
//       llvm.br ^bb33(%125 : i64)
//     ^bb36:  // pred: ^bb33
//       llvm.br ^bb37
//     ^bb37:  // 2 preds: ^bb31, ^bb36
//       llvm.br ^bb38
//     ^bb38:  // 2 preds: ^bb25, ^bb37
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %126 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, bf16
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %127 = llvm.getelementptr inbounds %0[%1, 3, %35] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %128 = llvm.load %127 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %129 = llvm.getelementptr inbounds %0[%1, 3, %23] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %130 = llvm.load %129 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %131 = llvm.sub %128, %130 : i64
//       %132 = llvm.getelementptr %126[%131] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %133 = llvm.zext %26 : i32 to i64
//       %134 = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
//       %135 = llvm.addrspacecast %132 : !llvm.ptr to !llvm.ptr<1>
//       %136 = llvm.mul %arg1, %7 : i64
//       %137 = llvm.ptrtoint %134 : !llvm.ptr<1> to i64
//       %138 = llvm.ptrtoint %135 : !llvm.ptr<1> to i64
//       %139 = llvm.or %137, %138 : i64
//       %140 = llvm.or %139, %136 : i64
//       %141 = llvm.and %140, %8 : i64
//       %142 = llvm.icmp "eq" %141, %9 : i64
//       llvm.cond_br %142, ^bb39, ^bb44
//     ^bb39:  // pred: ^bb38
//       %143 = llvm.lshr %136, %11 : i64
//       llvm.br ^bb40(%133 : i64)
//     ^bb40(%144: i64):  // 2 preds: ^bb39, ^bb42
//       %145 = llvm.icmp "slt" %144, %143 : i64
//       llvm.cond_br %145, ^bb41, ^bb43
//     ^bb41:  // pred: ^bb40
//       %146 = llvm.getelementptr %135[%144] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %147 = llvm.getelementptr %134[%144] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi32>
//       %148 = llvm.load %146 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       llvm.store %148, %147 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//       llvm.br ^bb42
//     ^bb42:  // pred: ^bb41
//       %149 = llvm.add %144, %10 : i64
//       llvm.br ^bb40(%149 : i64)
//     ^bb43:  // pred: ^bb40
//       llvm.br ^bb49
//     ^bb44:  // pred: ^bb38
//       llvm.br ^bb45(%133 : i64)
//     ^bb45(%150: i64):  // 2 preds: ^bb44, ^bb47
//       %151 = llvm.icmp "slt" %150, %arg1 : i64
//       llvm.cond_br %151, ^bb46, ^bb48
//     ^bb46:  // pred: ^bb45
//       %152 = llvm.getelementptr %135[%150] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %153 = llvm.getelementptr %134[%150] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
//       %154 = llvm.load %152 {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
//       llvm.store %154, %153 {alignment = 2 : i64} : bf16, !llvm.ptr<1>
//       llvm.br ^bb47
//     ^bb47:  // pred: ^bb46
//       %155 = llvm.add %150, %10 : i64
//       llvm.br ^bb45(%155 : i64)
//     ^bb48:  // pred: ^bb45
//       llvm.br ^bb49
//     ^bb49:  // 2 preds: ^bb43, ^bb48
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.fence seq_cst
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %156 = llvm.getelementptr inbounds %0[%1, 3, %35] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %157 = llvm.load %156 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %158 = llvm.getelementptr inbounds %0[%1, 3, %23] : (!llvm.ptr<4>, i32, i32) -> !llvm.ptr<4>, !llvm.struct<(i32, i32, i64, array<64 x i64>)>
//       %159 = llvm.load %158 {alignment = 8 : i64} : !llvm.ptr<4> -> i64
//       %160 = llvm.sub %157, %159 : i64
//       %161 = llvm.getelementptr %arg0[%160] : (!llvm.ptr, i64) -> !llvm.ptr, i8
//       %162 = llvm.add %30, %1 : i32
//       %163 = llvm.insertelement %162, %14[%9 : i64] : vector<1xi32>
//       %164 = llvm.shufflevector %163, %14 [0] : vector<1xi32> 
//       %165 = llvm.add %164, %15 : vector<1xi32>
//       %166 = llvm.insertelement %arg0, %16[%9 : i64] : vector<1x!llvm.ptr>
//       %167 = llvm.shufflevector %166, %16 [0] : vector<1x!llvm.ptr> 
//       %168 = llvm.sext %165 : vector<1xi32> to vector<1xi64>
//       %169 = llvm.getelementptr %167[%168] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %170 = llvm.add %30, %1 : i32
//       %171 = llvm.insertelement %170, %14[%9 : i64] : vector<1xi32>
//       %172 = llvm.shufflevector %171, %14 [0] : vector<1xi32> 
//       %173 = llvm.add %172, %15 : vector<1xi32>
//       %174 = llvm.insertelement %161, %16[%9 : i64] : vector<1x!llvm.ptr>
//       %175 = llvm.shufflevector %174, %16 [0] : vector<1x!llvm.ptr> 
//       %176 = llvm.sext %173 : vector<1xi32> to vector<1xi64>
//       %177 = llvm.getelementptr %175[%176] : (vector<1x!llvm.ptr>, vector<1xi64>) -> vector<1x!llvm.ptr>, bf16
//       %178 = llvm.addrspacecast %177 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       %179 = llvm.intr.masked.gather %178, %18, %20 {alignment = 2 : i32} : (vector<1x!llvm.ptr<1>>, vector<1xi1>, vector<1xbf16>) -> vector<1xbf16>
//       %180 = llvm.insertelement %33, %21[%9 : i64] : vector<1xi1>
//       %181 = llvm.shufflevector %180, %21 [0] : vector<1xi1> 
//       %182 = llvm.and %18, %181 : vector<1xi1>
//       %183 = llvm.addrspacecast %169 : vector<1x!llvm.ptr> to vector<1x!llvm.ptr<1>>
//       llvm.intr.masked.scatter %179, %183, %182 {alignment = 2 : i32} : vector<1xbf16>, vector<1xi1> into vector<1x!llvm.ptr<1>>
//       llvm.return
//     }
//   }
// }
