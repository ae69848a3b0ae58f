//! Transport-generic tests: each body is written once against `World` and instantiated per
//! transport (as CubeCL does per backend): on `local` always, on `cuda` when this machine
//! opens a CUDA world (else the reason is printed and the test passes as skipped). Under a
//! launcher (`WEFT_RANK`/`WEFT_WORLD_SIZE`/`WEFT_NVSHMEM_UID_FILE`, or mpirun) every process
//! runs the same test as one PE and checks its own rank against the reference.

use std::sync::OnceLock;
use weft::kernels::{default_constexprs, run_collective, RunOptions};
use weft::runtime::{DType, World};

/// One CUDA world for the whole test process: NVSHMEM initialises once per process.
fn cuda_world() -> Option<&'static World> {
    static CUDA: OnceLock<Result<World, String>> = OnceLock::new();
    match CUDA.get_or_init(|| World::cuda().map_err(|e| e.to_string())) {
        Ok(w) => Some(w),
        Err(why) => {
            eprintln!("skipped on cuda: {why}");
            None
        }
    }
}

/// Instantiates each `name => body` as `local::name`, and all of them as one test
/// `cuda::every_body_in_order`: on `cuda` every PE must issue its collectives (malloc, free,
/// launch) in the same order, which parallel or differently scheduled tests would not.
macro_rules! per_transport {
    ($($name:ident => $body:path),* $(,)?) => {
        mod local {
            $(#[test]
            fn $name() {
                $body(&weft::runtime::World::local(4).expect("local world"));
            })*
        }
        mod cuda {
            #[test]
            fn every_body_in_order() {
                if let Some(w) = super::cuda_world() {
                    $(
                        eprintln!("cuda: {}", stringify!($name));
                        $body(w);
                    )*
                }
            }
        }
    };
}

fn collective_matches_reference(world: &World, name: &str, elems: usize, dtype: DType) {
    let opts = RunOptions { iters: 3, warmup: 1, constexprs: default_constexprs(name, dtype.name()).unwrap(), seed: 11 };
    let r = run_collective(world, name, elems, dtype, &opts)
        .unwrap_or_else(|e| panic!("{name} on {} ({} ranks): {e}", world.transport(), world.n_ranks()));
    assert!(r.verified, "{name} on {} ({} ranks), {elems} {dtype}: max error {}", world.transport(), world.n_ranks(), r.max_err);
    eprintln!("{name} on {} ({} ranks), {elems} x {dtype}: verified, median {:?}", world.transport(), world.n_ranks(), r.median());
}

fn allgather(world: &World) {
    collective_matches_reference(world, "allgather", 100_003, DType::F32);
}

fn allreduce(world: &World) {
    collective_matches_reference(world, "allreduce_two_shot", 4099, DType::BF16);
}

per_transport! {
    allgather_matches_reference => super::allgather,
    allreduce_matches_reference => super::allreduce,
}

/// A library kernel as a GPU launch handle: the cubin, its parameter ABI, whether it needs a
/// cooperative launch (its programs wait: signals, LL flags, barriers) and which NVSHMEM
/// addresses the host must check first; and on `local` it is refused with a typed error.
#[test]
fn gpu_launchables_carry_cubin_and_abi() {
    use weft::runtime::{Arg, GpuParam, KernelCode, RuntimeError};
    let build = |name: &str| weft::kernels::build(name, &default_constexprs(name, "f32").unwrap()).unwrap();
    let gpu = |name: &str| match weft::kernels::gpu_launchable(&build(name), "sm_90a") {
        Ok(l) => Some(l),
        Err(e) if e.to_string().contains("./setup.sh") => None,
        Err(e) => panic!("{name}: {e}"),
    };
    let Some(ring) = gpu("allgather") else { return eprintln!("skipped: GPU tools missing (run ./setup.sh)") };
    let KernelCode::Gpu(code) = &ring.code else { panic!("allgather: not GPU code") };
    assert_eq!(&code.image[..4], b"\x7fELF");
    // The ring waits for its neighbour's signal, so every CTA must be resident.
    assert_eq!((code.arch.as_str(), code.symbol.as_str(), code.num_warps, code.cooperative), ("sm_90a", "allgather", 4, true), "{code:?}");
    assert_eq!((code.remote_ptr, code.multimem), (false, false));
    // (src, dst, sig, n, epoch): buffers as pointers, i64 scalars by value.
    let (p, s8) = (GpuParam::Ptr, GpuParam::Scalar(8));
    assert_eq!(code.params, [p, p, p, s8, s8]);
    let Some(pull) = gpu("allgather_pull") else { return };
    let KernelCode::Gpu(pull) = &pull.code else { panic!("allgather_pull: not GPU code") };
    assert!(pull.cooperative, "barrier_all needs every CTA resident");
    assert_eq!((pull.remote_ptr, pull.multimem), (true, false));
    for (name, cooperative, remote_ptr, multimem) in [("allgather_ll", true, true, false), ("allreduce_multimem", true, false, true), ("broadcast", true, false, false)] {
        let Some(l) = gpu(name) else { return };
        let KernelCode::Gpu(c) = &l.code else { panic!("{name}: not GPU code") };
        assert_eq!((c.cooperative, c.remote_ptr, c.multimem), (cooperative, remote_ptr, multimem), "{name}");
    }
    let world = World::local(2).unwrap();
    let err = world.launch(&ring, [1, 1, 1], &[Arg::I64(0)]).unwrap_err();
    assert!(matches!(err, RuntimeError::WrongCode { .. }), "{err}");
    let cpu = weft::kernels::launchable_for(&world, &build("allgather")).unwrap();
    assert!(matches!(cpu.code, KernelCode::Cpu(_)));
    let Err(amd) = weft::kernels::gpu_launchable(&build("allgather"), "gfx942") else { panic!("gfx942 is not a cuda architecture") };
    assert!(amd.to_string().contains("GPU architecture `gfx942`"), "{amd}");
}
