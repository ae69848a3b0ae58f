//! Kernels compiled for explicit CPU models, whatever the build host: every library kernel x
//! dtype for an AVX2-only model (x86-64-v3) and an AVX-512 BF16 one (sapphirerapids) must
//! produce an object whose only undefined symbols are the C library's and libm's. A host with
//! AVX-512 once hid a `__truncsfbf2` call that broke every AVX2-only host.

use weft::compiler::backend::{llvm::{Emit, LlvmModule, TargetMachine}, symbols};
use weft::compiler::pipeline::{self, Options, Target};

const MODELS: [&str; 2] = ["x86-64-v3", "sapphirerapids"];

#[test]
fn every_library_kernel_compiles_for_avx2_and_avx512_models_without_libcalls() {
    let jobs: Vec<(&str, &str, &str)> = MODELS
        .iter()
        .flat_map(|m| weft::kernels::list().iter().flat_map(move |k| ["f32", "f16", "bf16"].map(|d| (*m, k.name, d))))
        .collect();
    // Two threads: the jobs are independent and the CI machine has two cores.
    let failures: Vec<String> = std::thread::scope(|s| {
        let halves: Vec<_> = jobs.chunks(jobs.len().div_ceil(2)).map(|part| s.spawn(move || part.iter().filter_map(|j| check(*j).err()).collect::<Vec<_>>())).collect();
        halves.into_iter().flat_map(|h| h.join().expect("worker")).collect()
    });
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), jobs.len(), failures.join("\n"));
}

/// Compiles `kernel` with `dtype` for CPU `model` to an object (the pipeline rejects an
/// object with foreign undefined symbols) and re-checks its symbol table here.
fn check((model, kernel, dtype): (&str, &str, &str)) -> Result<(), String> {
    let tag = format!("{kernel} {dtype} on {model}");
    let c = weft::kernels::target_constexprs(kernel, dtype, Target::Cpu).map_err(|e| format!("{tag}: {e}"))?;
    // Every kernel the entry launches (`ep_dispatch_v` runs two).
    for k in weft::kernels::build_all(kernel, &c).map_err(|e| format!("{tag}: {e}"))? {
        let opts = Options { cpu: Some(model.into()), ..Options::default() };
        let out = pipeline::run(&k, Target::Cpu, None, &opts).map_err(|e| format!("{tag}: {e}"))?;
        let obj = out.object.ok_or_else(|| format!("{tag}: no object"))?;
        let foreign: Vec<String> = symbols::undefined(&obj)?.into_iter().filter(|s| !symbols::allowed(s)).collect();
        if !foreign.is_empty() {
            return Err(format!("{tag} ({}): undefined {foreign:?}", k.name));
        }
    }
    Ok(())
}

/// The check itself: an object with a compiler-rt call is rejected, naming the symbol.
#[test]
fn an_object_calling_compiler_rt_is_rejected() {
    let ir = "define i16 @f(float %x) {\n  %y = fptrunc float %x to bfloat\n  %b = bitcast bfloat %y to i16\n  ret i16 %b\n}\n";
    let m = LlvmModule::parse_ir(ir).expect("parses");
    let tm = TargetMachine::model("x86-64").expect("target machine");
    let obj = m.emit(&tm, Emit::Obj).expect("object");
    let err = symbols::check_object(&obj, "f").expect_err("libcall").to_string();
    assert!(err.contains("__truncsfbf2") && err.contains("`f`"), "{err}");
}
