//! NVSHMEM's device library prepared once per toolchain (`backend::nvshmem_lib`): a kernel
//! linked against the prepared library gets the PTX that linking NVSHMEM's bitcode itself gives,
//! whether the library was just prepared, read back from the toolchain cache, or read back
//! after its file was corrupted; a kernel without NVSHMEM calls included (it still gets
//! NVSHMEM's device state, which the host looks up in every module).

use crate::gpu::{gpu_kernel, tools_or_skip};
use inkwell::context::Context;
use weft::compiler::backend::nvptx::{self, GpuToolError};
use weft::compiler::backend::nvshmem_transport::{self, DeviceTransport};
use weft::compiler::backend::toolchain::Toolchain;
use weft::compiler::backend::{device, nvshmem_lib};
use weft::compiler::ir::Kernel;
use weft::compiler::pipeline::{run, Options, Target};

/// A fresh toolchain cache directory for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("weft-toolchain-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// PTX of `k` for `target`, its `gpu` stage linked by `link` and then optimized and emitted as
/// the pipeline does (printed and read back before code generation). Comment lines (LLVM's
/// block names) are left out.
fn ptx_with(k: &Kernel, target: &str, link: impl for<'c> Fn(&'c Context, &inkwell::module::Module<'c>) -> Result<(), GpuToolError>) -> Result<String, GpuToolError> {
    let t = Target::parse(target).unwrap();
    let Target::Cuda { sm } = t else { unreachable!() };
    let info = sm.info();
    let gpu = run(k, t, Some("gpu"), &Options::default()).unwrap();
    let ctx = Context::create();
    let m = device::parse(&ctx, &gpu.text, "k.gpu.ll").unwrap();
    link(&ctx, &m)?;
    let again = device::parse(&ctx, &m.print_to_string().to_string(), "k.llvm.ll").unwrap();
    let ptx = nvptx::emit_ptx(&again, &nvptx::target_machine(&info)?)?;
    Ok(ptx.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| l.split(" //").next().unwrap_or(l)).collect::<Vec<_>>().join("\n"))
}

/// The reference: NVSHMEM's bitcode linked directly (what `llvm-link --only-needed` does),
/// folded to the proxy unless the kernel asks for every transport, internalized, O3.
fn direct(k: &Kernel, target: &str) -> String {
    let Target::Cuda { sm } = Target::parse(target).unwrap() else { unreachable!() };
    let info = sm.info();
    let tm = nvptx::target_machine(&info).unwrap();
    let bc = Toolchain::new().nvshmem_bitcode(info.nvshmem_arch()).unwrap();
    let symbol = k.name.clone();
    ptx_with(k, target, |ctx, m| {
        device::link_needed(ctx, m, &bc)?;
        if DeviceTransport::of_module(m) == DeviceTransport::Proxy {
            nvshmem_transport::assume_proxy(ctx, m, &tm);
        }
        device::internalize(m, |n| n == symbol || nvshmem_lib::is_device_state(n) || n == nvshmem_transport::MARKER);
        Ok(device::optimize(m, &tm, &format!("globaldce,{},default<O3>", device::SPLIT_VECTORS))?)
    })
    .unwrap()
}

/// The pipeline's way, with the toolchain cache in `dir`.
fn prepared(k: &Kernel, target: &str, dir: &std::path::Path, tc: &Toolchain) -> Result<String, GpuToolError> {
    let Target::Cuda { sm } = Target::parse(target).unwrap() else { unreachable!() };
    let info = sm.info();
    let tm = nvptx::target_machine(&info)?;
    ptx_with(k, target, |ctx, m| nvptx::link_and_optimize(ctx, m, &k.name, &info, tc, &tm, Some(dir)))
}

/// The prepared libraries in `dir`.
fn libraries(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir).map(|r| r.map(|e| e.unwrap().path()).collect()).unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "bc"));
    v.sort();
    v
}

#[test]
fn the_prepared_nvshmem_library_in_the_toolchain_cache_gives_the_ptx_of_linking_the_bitcode() {
    if !tools_or_skip("the_prepared_nvshmem_library_in_the_toolchain_cache_gives_the_ptx_of_linking_the_bitcode") {
        return;
    }
    let dir = temp_dir("prepared");
    let tc = Toolchain::new();
    let any = DeviceTransport::Any.apply(&gpu_kernel("allgather", "f32", "sm_90a", None));
    let plain = gpu_kernel("gemm", "bf16", "sm_90a", Some((128, 128, 64, 8)));
    let jobs = [(gpu_kernel("ag_gemm", "bf16", "sm_90a", None), "sm_90a"), (gpu_kernel("gemm_rs", "f16", "sm_80", None), "sm_80"), (any, "sm_90a"), (plain, "sm_90a")];
    for (k, target) in &jobs {
        let what = format!("{} {target} {:?}", k.name, DeviceTransport::of(k).unwrap());
        let reference = direct(k, target);
        let before = libraries(&dir).len();
        let cold = prepared(k, target, &dir, &tc).unwrap();
        assert_eq!(libraries(&dir).len(), before + 1, "{what}: the prepared library is kept");
        let warm = prepared(k, target, &dir, &tc).unwrap();
        assert_eq!(libraries(&dir).len(), before + 1, "{what}: and read back, not prepared again");
        assert!(cold == reference, "{what}: prepared PTX differs from linking the bitcode");
        assert!(warm == reference, "{what}: PTX from the stored library differs");
        assert!(cold.contains(".const .align 8 .b8 nvshmemi_device_state_d["), "{what}: NVSHMEM's device state is in the module");
    }
    // Every stored library is small next to the bitcode it comes from.
    let bitcode = std::fs::metadata(tc.nvshmem_bitcode(90).unwrap()).unwrap().len();
    for lib in libraries(&dir) {
        let n = std::fs::metadata(&lib).unwrap().len();
        assert!(n * 100 < bitcode, "{} is {n} B against {bitcode} B", lib.display());
    }
    // A corrupt library is prepared again, not trusted; the PTX stays the reference's.
    let (k, target) = &jobs[0];
    for lib in libraries(&dir) {
        std::fs::write(&lib, b"BC\xc0\xde not bitcode").unwrap();
    }
    assert!(prepared(k, target, &dir, &tc).unwrap() == direct(k, target), "after corruption");
    assert!(libraries(&dir).iter().any(|l| std::fs::read(l).unwrap().len() > 100), "the corrupt library is rewritten");
    let _ = std::fs::remove_dir_all(&dir);
}
