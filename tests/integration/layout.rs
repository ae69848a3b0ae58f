//! The `layout` stage of every library kernel, GEMM and MSCCL built-in: it prints, MLIR
//! verifies it, and read back it gives the encodings the layout pass assigned and lowers.

use super::gpu::{gpu_kernel, kernel, msccl_kernels, COLLECTIVES, GEMMS};
use weft::compiler::ir::Kernel;
use weft::compiler::layout::{assign, stage};
use weft::compiler::lower::gpu::target::TargetInfo;
use weft::compiler::pipeline::{import_layout, run, Options, Target};

fn info(target: &str) -> Box<dyn TargetInfo> {
    match Target::parse(target).unwrap() {
        Target::Cuda { sm } => Box::new(sm.info()),
        Target::Amd { gfx } => Box::new(gfx.info()),
        Target::Cpu => unreachable!("a GPU target"),
    }
}

/// The encodings of `k`'s tiles in definition order (value numbers differ after a re-import).
fn in_order(k: &Kernel, map: &weft::compiler::layout::LayoutMap) -> Vec<weft::compiler::layout::Encoding> {
    (0..k.values.len() as u32).filter_map(|v| map.enc.get(&weft::compiler::ir::Value(v)).cloned()).collect()
}

#[test]
fn every_library_kernel_has_a_layout_stage_that_reads_back() {
    let mut kernels: Vec<(String, Kernel)> = COLLECTIVES.iter().map(|n| (n.to_string(), kernel(n, "bf16", &[]))).collect();
    kernels.extend(GEMMS.iter().map(|n| (n.to_string(), gpu_kernel(n, "bf16", "sm_90a", None))));
    kernels.extend(msccl_kernels());
    for target in ["sm_90a", "gfx942"] {
        let t = info(target);
        for (name, k) in &kernels {
            let out = run(k, Target::parse(target).unwrap(), Some("layout"), &Options::default()).unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
            let (back, map) = import_layout(&out.text, &format!("{name}.layout.mlir"), t.as_ref()).unwrap_or_else(|e| panic!("{name} on {target}: {e}\n{}", out.text));
            let warps = weft::compiler::lower::gpu::num_warps(k, t.as_ref()).unwrap();
            assert_eq!(in_order(&back, &map), in_order(k, &assign(k, t.as_ref(), warps)), "{name} on {target}");
            assert_eq!(stage::print(&back, &map, t.as_ref()), out.text, "{name} on {target}: printing the read-back kernel");
            weft::compiler::lower::gpu::lower_with(&back, t.as_ref(), &map).unwrap_or_else(|e| panic!("{name} on {target} from its layout stage: {e}"));
        }
    }
}

#[test]
fn an_edited_layout_file_runs_on_the_emulator_and_matches_a_naive_gemm() {
    use weft::runtime::{LocalOptions, Topology, World};
    let (arch, t) = ("sm_90a", info("sm_90a"));
    let k = gpu_kernel("gemm", "bf16", arch, None);
    let text = run(&k, Target::parse(arch).unwrap(), Some("layout"), &Options::default()).unwrap().text;
    // The default 64x64 accumulator over 4 warps is sm_90a's warp-group tiling 4x1 (wgmma's);
    // the file says 2x2 (mma.sync).
    let edited = text.replace("warpsPerCTA = array<i64: 4, 1>, instrShape", "warpsPerCTA = array<i64: 2, 2>, instrShape");
    assert_ne!(edited, text, "{text}");
    let (back, map) = import_layout(&edited, "gemm.layout.mlir", t.as_ref()).unwrap_or_else(|e| panic!("{e}"));
    let gpu = weft::compiler::lower::gpu::lower_with(&back, t.as_ref(), &map).unwrap();
    let default = weft::compiler::lower::gpu::lower(&k, t.as_ref()).unwrap();
    assert_ne!(gpu.llvm, default.llvm, "the edited tiling changes the code");
    let world = World::local_with(LocalOptions { topology: Topology { nodes: 1, local_size: 1 }, emulate: Some(arch), ..LocalOptions::from_env() }).unwrap();
    let l = weft::emulator::launchable_lowered(&back, gpu, arch, 32, weft::emulator::Checks::from_env()).unwrap();
    // Uneven sizes: edge tiles masked.
    crate::naive_gemm::launch_and_check_bf16(&world, &l, [4, 1, 1], (70, 72, 40));
}
