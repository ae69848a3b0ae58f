module {
  func.func @rmax(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>) attributes {weft.constexprs = {num_warps = "2"}, weft.params = ["x", "out"]} {
    %0 = "tile.make_range"() {end = 256 : i32, start = 0 : i32} : () -> tensor<256xi32>
    %1 = "tile.splat"(%arg0) : (!tile.ptr<f32>) -> tensor<256x!tile.ptr<f32>>
    %2 = "tile.addptr"(%1, %0) : (tensor<256x!tile.ptr<f32>>, tensor<256xi32>) -> tensor<256x!tile.ptr<f32>>
    %3 = "tile.load"(%2) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
    %4 = "tile.reduce"(%3) {axis = 0 : i32, kind = "max"} : (tensor<256xf32>) -> f32
    "tile.store"(%arg1, %4) : (!tile.ptr<f32>, f32) -> ()
    return
  }
}
// ----- expected gpu@gfx942 -----
// module attributes {gpu.container_module} {
//   gpu.module @rmax [#rocdl.target<chip = "gfx942">] {
//     llvm.mlir.global internal @__weft_red() {addr_space = 3 : i32, alignment = 8 : i64, dso_local} : !llvm.array<32 x i64> {
//       %0 = llvm.mlir.undef : !llvm.array<32 x i64>
//       llvm.return %0 : !llvm.array<32 x i64>
//     }
//     llvm.module_flags [#llvm.mlir.module_flag<error, "amdhsa_code_object_version", 500 : i32>]
//     llvm.func amdgpu_kernelcc @rmax(%arg0: !llvm.ptr {llvm.noundef}, %arg1: !llvm.ptr {llvm.noundef}) attributes {passthrough = [["amdgpu-flat-work-group-size", "128,128"], ["uniform-work-group-size", "true"]]} {
//       %0 = llvm.mlir.constant(2 : i32) : i32
//       %1 = llvm.mlir.constant(64 : i32) : i32
//       %2 = llvm.mlir.constant(0 : i32) : i32
//       %3 = llvm.mlir.poison : vector<1xi32>
//       %4 = llvm.mlir.constant(0 : i64) : i64
//       %5 = llvm.mlir.constant(dense<[0, 1]> : vector<2xi32>) : vector<2xi32>
//       %6 = llvm.mlir.poison : vector<1x!llvm.ptr>
//       %7 = llvm.mlir.constant(true) : i1
//       %8 = llvm.mlir.constant(dense<true> : vector<2xi1>) : vector<2xi1>
//       %9 = llvm.mlir.constant(7 : i64) : i64
//       %10 = llvm.mlir.constant(0.000000e+00 : f32) : f32
//       %11 = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>
//       %12 = llvm.mlir.constant(63 : i32) : i32
//       %13 = llvm.mlir.constant(32 : i32) : i32
//       %14 = llvm.mlir.constant(16 : i32) : i32
//       %15 = llvm.mlir.constant(8 : i32) : i32
//       %16 = llvm.mlir.constant(4 : i32) : i32
//       %17 = llvm.mlir.constant(1 : i32) : i32
//       %18 = llvm.mlir.addressof @__weft_red : !llvm.ptr<3>
//       %19 = rocdl.workitem.id.x : i32
//       %20 = llvm.mul %19, %0 overflow<nuw> : i32
//       %21 = llvm.udiv %19, %1 : i32
//       llvm.br ^bb1
//     ^bb1:  // pred: ^bb0
//       %22 = llvm.add %20, %2 : i32
//       %23 = llvm.insertelement %22, %3[%4 : i64] : vector<1xi32>
//       %24 = llvm.shufflevector %23, %3 [0, 0] : vector<1xi32> 
//       %25 = llvm.add %24, %5 : vector<2xi32>
//       %26 = llvm.insertelement %arg0, %6[%4 : i64] : vector<1x!llvm.ptr>
//       %27 = llvm.shufflevector %26, %6 [0, 0] : vector<1x!llvm.ptr> 
//       %28 = llvm.sext %25 : vector<2xi32> to vector<2xi64>
//       %29 = llvm.getelementptr %27[%28] : (vector<2x!llvm.ptr>, vector<2xi64>) -> vector<2x!llvm.ptr>, f32
//       %30 = llvm.extractelement %29[%4 : i64] : vector<2x!llvm.ptr>
//       %31 = "llvm.intr.vector.reduce.and"(%8) : (vector<2xi1>) -> i1
//       %32 = llvm.ptrtoint %30 : !llvm.ptr to i64
//       %33 = llvm.and %32, %9 : i64
//       %34 = llvm.icmp "eq" %33, %4 : i64
//       %35 = llvm.and %31, %34 : i1
//       llvm.cond_br %35, ^bb2, ^bb3
//     ^bb2:  // pred: ^bb1
//       %36 = llvm.addrspacecast %30 : !llvm.ptr to !llvm.ptr<1>
//       %37 = llvm.load %36 {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
//       llvm.br ^bb4(%37 : vector<2xf32>)
//     ^bb3:  // pred: ^bb1
//       %38 = llvm.addrspacecast %29 : vector<2x!llvm.ptr> to vector<2x!llvm.ptr<1>>
//       %39 = llvm.intr.masked.gather %38, %8, %11 {alignment = 4 : i32} : (vector<2x!llvm.ptr<1>>, vector<2xi1>, vector<2xf32>) -> vector<2xf32>
//       llvm.br ^bb4(%39 : vector<2xf32>)
//     ^bb4(%40: vector<2xf32>):  // 2 preds: ^bb2, ^bb3
//       %41 = llvm.intr.vector.reduce.fmaximum(%40) : (vector<2xf32>) -> f32
//       %42 = llvm.bitcast %41 : f32 to i32
//       %43 = llvm.and %19, %12 : i32
//       %44 = llvm.xor %43, %13 : i32
//       %45 = llvm.shl %44, %0 : i32
//       %46 = rocdl.ds_bpermute %45, %42 : (i32, i32) -> i32
//       %47 = llvm.bitcast %46 : i32 to f32
//       %48 = llvm.intr.maximum(%41, %47) : (f32, f32) -> f32
//       %49 = llvm.bitcast %48 : f32 to i32
//       %50 = llvm.and %19, %12 : i32
//       %51 = llvm.xor %50, %14 : i32
//       %52 = llvm.shl %51, %0 : i32
//       %53 = rocdl.ds_bpermute %52, %49 : (i32, i32) -> i32
//       %54 = llvm.bitcast %53 : i32 to f32
//       %55 = llvm.intr.maximum(%48, %54) : (f32, f32) -> f32
//       %56 = llvm.bitcast %55 : f32 to i32
//       %57 = llvm.and %19, %12 : i32
//       %58 = llvm.xor %57, %15 : i32
//       %59 = llvm.shl %58, %0 : i32
//       %60 = rocdl.ds_bpermute %59, %56 : (i32, i32) -> i32
//       %61 = llvm.bitcast %60 : i32 to f32
//       %62 = llvm.intr.maximum(%55, %61) : (f32, f32) -> f32
//       %63 = llvm.bitcast %62 : f32 to i32
//       %64 = llvm.and %19, %12 : i32
//       %65 = llvm.xor %64, %16 : i32
//       %66 = llvm.shl %65, %0 : i32
//       %67 = rocdl.ds_bpermute %66, %63 : (i32, i32) -> i32
//       %68 = llvm.bitcast %67 : i32 to f32
//       %69 = llvm.intr.maximum(%62, %68) : (f32, f32) -> f32
//       %70 = llvm.bitcast %69 : f32 to i32
//       %71 = llvm.and %19, %12 : i32
//       %72 = llvm.xor %71, %0 : i32
//       %73 = llvm.shl %72, %0 : i32
//       %74 = rocdl.ds_bpermute %73, %70 : (i32, i32) -> i32
//       %75 = llvm.bitcast %74 : i32 to f32
//       %76 = llvm.intr.maximum(%69, %75) : (f32, f32) -> f32
//       %77 = llvm.bitcast %76 : f32 to i32
//       %78 = llvm.and %19, %12 : i32
//       %79 = llvm.xor %78, %17 : i32
//       %80 = llvm.shl %79, %0 : i32
//       %81 = rocdl.ds_bpermute %80, %77 : (i32, i32) -> i32
//       %82 = llvm.bitcast %81 : i32 to f32
//       %83 = llvm.intr.maximum(%76, %82) : (f32, f32) -> f32
//       %84 = llvm.urem %19, %1 : i32
//       %85 = llvm.icmp "eq" %84, %2 : i32
//       llvm.cond_br %85, ^bb5, ^bb6
//     ^bb5:  // pred: ^bb4
//       %86 = llvm.getelementptr %18[%2, %21] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       llvm.store %83, %86 {alignment = 8 : i64} : f32, !llvm.ptr<3>
//       llvm.br ^bb6
//     ^bb6:  // 2 preds: ^bb4, ^bb5
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       %87 = llvm.getelementptr %18[%2, %2] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       %88 = llvm.load %87 {alignment = 8 : i64} : !llvm.ptr<3> -> f32
//       %89 = llvm.getelementptr %18[%2, %17] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<32 x i64>
//       %90 = llvm.load %89 {alignment = 8 : i64} : !llvm.ptr<3> -> f32
//       %91 = llvm.intr.maximum(%88, %90) : (f32, f32) -> f32
//       llvm.fence syncscope("workgroup") release
//       rocdl.s.barrier
//       llvm.fence syncscope("workgroup") acquire
//       llvm.store %91, %arg1 {alignment = 4 : i64} : f32, !llvm.ptr
//       llvm.return
//     }
//   }
// }
