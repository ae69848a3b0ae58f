//! The one place that talks to LLVM's C API (llvm-sys 221) directly: translation from MLIR's
//! LLVM dialect, optimisation, and code emission for a target machine, and the two things the
//! GPU back end needs that inkwell has no API for (lazy bitcode loading, linking with the error
//! handler removed afterwards, folding loads of a constant global's field).

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::target_machine::*;
use llvm_sys::transforms::pass_builder::*;
use std::ffi::{CStr, CString};
use std::sync::Once;

/// An LLVM failure, with LLVM's own message.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {message}")]
pub struct LlvmError {
    /// What we were doing.
    pub what: String,
    /// LLVM's message.
    pub message: String,
}

fn err(what: &str, message: impl Into<String>) -> LlvmError {
    LlvmError { what: what.into(), message: message.into() }
}

/// Takes ownership of an LLVM-allocated message.
/// The triple LLVM was built to target by default (the host's).
pub fn default_triple() -> String {
    // SAFETY: LLVM returns an owned message, which `take_message` copies and disposes.
    unsafe { take_message(LLVMGetDefaultTargetTriple()) }
}

unsafe fn take_message(m: *mut std::ffi::c_char) -> String {
    if m.is_null() {
        return String::new();
    }
    let s = unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(m) };
    s
}

/// An LLVM module together with the context that owns it.
pub struct LlvmModule {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        unsafe {
            LLVMDisposeModule(self.module);
            LLVMContextDispose(self.ctx);
        }
    }
}

impl LlvmModule {
    /// Translates an MLIR module in the LLVM dialect to LLVM IR.
    pub fn from_mlir(module: &melior::ir::Module) -> Result<LlvmModule, LlvmError> {
        unsafe {
            let ctx = LLVMContextCreate();
            let raw = mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), ctx as _);
            if raw.is_null() {
                LLVMContextDispose(ctx);
                return Err(err("translate to LLVM IR", "MLIR could not translate the module"));
            }
            Ok(LlvmModule { ctx, module: raw as LLVMModuleRef })
        }
    }

    /// Parses LLVM IR text and verifies it.
    pub fn parse_ir(text: &str) -> Result<LlvmModule, LlvmError> {
        unsafe {
            let ctx = LLVMContextCreate();
            let name = CString::new("gpu.ll").expect("static string");
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text.as_ptr() as *const _, text.len(), name.as_ptr());
            let mut module = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            let failed = llvm_sys::ir_reader::LLVMParseIRInContext2(ctx, buf, &mut module, &mut msg) != 0;
            // The parser copies what it needs; the buffer stays ours.
            LLVMDisposeMemoryBuffer(buf);
            if failed {
                let m = take_message(msg);
                LLVMContextDispose(ctx);
                return Err(err("parse LLVM IR", m));
            }
            let m = LlvmModule { ctx, module };
            let mut vmsg = std::ptr::null_mut();
            if llvm_sys::analysis::LLVMVerifyModule(m.module, llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction, &mut vmsg) != 0 {
                return Err(err("verify LLVM IR", take_message(vmsg)));
            }
            take_message(vmsg);
            Ok(m)
        }
    }

    /// Sets the module's target triple and data layout.
    pub fn set_target(&mut self, triple: &str, data_layout: &str) {
        let (t, d) = (CString::new(triple).unwrap_or_default(), CString::new(data_layout).unwrap_or_default());
        unsafe {
            LLVMSetTarget(self.module, t.as_ptr());
            LLVMSetDataLayout(self.module, d.as_ptr());
        }
    }

    /// Textual LLVM IR.
    pub fn print(&self) -> String {
        unsafe { take_message(LLVMPrintModuleToString(self.module)) }
    }

    /// Sets triple and data layout, then runs LLVM's `default<O3>` pipeline.
    pub fn optimize(&mut self, tm: &TargetMachine) -> Result<(), LlvmError> {
        unsafe {
            LLVMSetTarget(self.module, tm.triple.as_ptr());
            let dl = LLVMCreateTargetDataLayout(tm.raw);
            let dl_str = LLVMCopyStringRepOfTargetData(dl);
            LLVMSetDataLayout(self.module, dl_str);
            LLVMDisposeMessage(dl_str);
            LLVMDisposeTargetData(dl);
            let opts = LLVMCreatePassBuilderOptions();
            LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
            LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
            let passes = CString::new("default<O3>").expect("static string");
            let e = LLVMRunPasses(self.module, passes.as_ptr(), tm.raw, opts);
            LLVMDisposePassBuilderOptions(opts);
            if !e.is_null() {
                let m = llvm_sys::error::LLVMGetErrorMessage(e);
                return Err(err("optimize", take_message(m)));
            }
        }
        Ok(())
    }

    /// Emits assembly text or an object file.
    pub fn emit(&self, tm: &TargetMachine, kind: Emit) -> Result<Vec<u8>, LlvmError> {
        unsafe {
            let mut msg = std::ptr::null_mut();
            let mut buf = std::ptr::null_mut();
            let ft = match kind {
                Emit::Asm => LLVMCodeGenFileType::LLVMAssemblyFile,
                Emit::Obj => LLVMCodeGenFileType::LLVMObjectFile,
            };
            if LLVMTargetMachineEmitToMemoryBuffer(tm.raw, self.module, ft, &mut msg, &mut buf) != 0 {
                return Err(err("code generation", take_message(msg)));
            }
            let start = LLVMGetBufferStart(buf) as *const u8;
            let len = LLVMGetBufferSize(buf);
            let out = std::slice::from_raw_parts(start, len).to_vec();
            LLVMDisposeMemoryBuffer(buf);
            Ok(out)
        }
    }
}

/// Loads the bitcode file at `path` into `ctx` lazily: function bodies are read only when the
/// linker moves them, so linking a few functions of a large library stays cheap.
pub fn lazy_bitcode<'c>(ctx: &'c inkwell::context::Context, path: &std::path::Path) -> Result<inkwell::module::Module<'c>, LlvmError> {
    use inkwell::context::AsContextRef;
    let what = format!("load {}", path.display());
    let c_path = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| err(&what, e.to_string()))?;
    unsafe {
        let mut buf = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        if LLVMCreateMemoryBufferWithContentsOfFile(c_path.as_ptr(), &mut buf, &mut msg) != 0 {
            return Err(err(&what, take_message(msg)));
        }
        let mut module = std::ptr::null_mut();
        // The variant with a message: the `2` one reports through the context's diagnostic
        // handler, whose default exits the process on a corrupt file. Either way the module
        // (or, on failure, the reader) owns the buffer.
        #[allow(deprecated)]
        let failed = llvm_sys::bit_reader::LLVMGetBitcodeModuleInContext((&ctx).as_ctx_ref(), buf, &mut module, &mut msg) != 0;
        if failed {
            return Err(err(&what, take_message(msg)));
        }
        Ok(inkwell::module::Module::new(module))
    }
}

/// Links `src` into `dest` (both in one context). Unlike inkwell's `link_in_module`, the
/// diagnostic handler that catches the linker's message is removed again, so later passes do
/// not write through a pointer to a finished stack frame.
pub fn link_modules<'c>(dest: &inkwell::module::Module<'c>, src: inkwell::module::Module<'c>) -> Result<(), LlvmError> {
    extern "C" fn keep_error(info: llvm_sys::prelude::LLVMDiagnosticInfoRef, out: *mut std::ffi::c_void) {
        unsafe {
            if LLVMGetDiagInfoSeverity(info) == llvm_sys::LLVMDiagnosticSeverity::LLVMDSError {
                *(out as *mut String) = take_message(LLVMGetDiagInfoDescription(info));
            }
        }
    }
    let mut message = String::new();
    unsafe {
        let ctx = LLVMGetModuleContext(dest.as_mut_ptr());
        LLVMContextSetDiagnosticHandler(ctx, Some(keep_error), &mut message as *mut String as *mut _);
        let failed = llvm_sys::linker::LLVMLinkModules2(dest.as_mut_ptr(), src.as_mut_ptr()) != 0;
        LLVMContextSetDiagnosticHandler(ctx, None, std::ptr::null_mut());
        // The linker destroyed the source module.
        std::mem::forget(src);
        if failed {
            return Err(err("link", message));
        }
    }
    Ok(())
}

/// Replaces every non-volatile integer load at byte `offset` of global `name` in `m` with the
/// constant `value`, and returns how many it replaced. The address may go through constant
/// casts and constant `i8` GEPs (the form LLVM canonicalizes a field address to); a load
/// reaching the field any other way keeps reading memory, which is slower but never wrong.
pub fn fold_global_loads(m: &inkwell::module::Module, name: &str, offset: i64, value: u64) -> usize {
    use llvm_sys::LLVMOpcode::*;
    let Ok(c_name) = CString::new(name) else { return 0 };
    unsafe {
        let g = LLVMGetNamedGlobal(m.as_mut_ptr(), c_name.as_ptr());
        if g.is_null() {
            return 0;
        }
        let (mut work, mut loads) = (vec![(g, 0i64)], vec![]);
        while let Some((v, at)) = work.pop() {
            let mut u = LLVMGetFirstUse(v);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                u = LLVMGetNextUse(u);
                if !LLVMIsAConstantExpr(user).is_null() {
                    match LLVMGetConstOpcode(user) {
                        LLVMAddrSpaceCast | LLVMBitCast => work.push((user, at)),
                        LLVMGetElementPtr if LLVMGetNumOperands(user) == 2 && is_i8(LLVMGetGEPSourceElementType(user)) => {
                            let index = LLVMGetOperand(user, 1);
                            if !LLVMIsAConstantInt(index).is_null() {
                                work.push((user, at + LLVMConstIntGetSExtValue(index)));
                            }
                        }
                        _ => {}
                    }
                } else if at == offset
                    && !LLVMIsALoadInst(user).is_null()
                    && LLVMGetVolatile(user) == 0
                    && LLVMGetTypeKind(LLVMTypeOf(user)) == llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind
                {
                    loads.push(user);
                }
            }
        }
        // Rewritten after the walk: erasing a load while walking would unlink the use list.
        for &load in &loads {
            LLVMReplaceAllUsesWith(load, LLVMConstInt(LLVMTypeOf(load), value, 0));
            LLVMInstructionEraseFromParent(load);
        }
        loads.len()
    }
}

unsafe fn is_i8(t: LLVMTypeRef) -> bool {
    unsafe { LLVMGetTypeKind(t) == llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 8 }
}

/// The generic x86-64 micro-architecture level (`x86-64` to `x86-64-v4`) whose required
/// features all appear as `+feature` in an LLVM feature string.
pub fn x86_level(features: &str) -> &'static str {
    let has = |f: &str| features.split(',').any(|x| x.strip_prefix('+') == Some(f));
    let all = |fs: &[&str]| fs.iter().all(|f| has(f));
    let v2 = ["cx16", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3", "sahf"];
    let v3 = ["avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe"];
    let v4 = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"];
    match (all(&v2), all(&v3), all(&v4)) {
        (true, true, true) => "x86-64-v4",
        (true, true, false) => "x86-64-v3",
        (true, false, _) => "x86-64-v2",
        _ => "x86-64",
    }
}

/// What [`LlvmModule::emit`] produces.
#[derive(Clone, Copy, Debug)]
pub enum Emit {
    /// Assembly text.
    Asm,
    /// A relocatable object file.
    Obj,
}

/// An LLVM target machine.
pub struct TargetMachine {
    raw: LLVMTargetMachineRef,
    triple: CString,
    /// CPU name, part of the compile-cache key.
    pub cpu: String,
    /// Feature string, part of the compile-cache key.
    pub features: String,
}

impl Drop for TargetMachine {
    fn drop(&mut self) {
        unsafe { LLVMDisposeTargetMachine(self.raw) }
    }
}

static NATIVE: Once = Once::new();

impl TargetMachine {
    /// The machine we run on, position independent (objects are linked into shared libraries):
    /// every feature of the host CPU, scheduled with the generic model of its ISA level.
    /// Host models such as znver3 add a post-RA list scheduler that doubled the cold compile of
    /// the largest kernels (measured: gemm_rs f16 5.5 s of llc user time against 2.6 s) for
    /// no measurable gain on straight-line tile code.
    pub fn host() -> Result<TargetMachine, LlvmError> {
        let (cpu, features) = unsafe { (take_message(LLVMGetHostCPUName()), take_message(LLVMGetHostCPUFeatures())) };
        let cpu = if cfg!(target_arch = "x86_64") { x86_level(&features).to_string() } else { cpu };
        Self::native(cpu, features)
    }

    /// f32 lanes of the vectors this machine's code keeps values in (16, 8 or 4): LLVM compiles a
    /// 16-lane add and the registers it took say (the C API does not expose a model's features,
    /// and a model may split 512-bit vectors though it has them). Cached per CPU and features,
    /// so code for an explicit model never depends on the CPU the compiler runs on.
    pub fn f32_lanes(&self) -> Result<usize, LlvmError> {
        static LANES: std::sync::Mutex<Vec<(String, String, usize)>> = std::sync::Mutex::new(Vec::new());
        let known = |l: &[(String, String, usize)]| l.iter().find(|(c, f, _)| *c == self.cpu && *f == self.features).map(|e| e.2);
        if let Some(n) = known(&LANES.lock().unwrap_or_else(|e| e.into_inner())) {
            return Ok(n);
        }
        let ir = "define void @probe(ptr %p) {\n  %v = load <16 x float>, ptr %p\n  %s = fadd <16 x float> %v, %v\n  store <16 x float> %s, ptr %p\n  ret void\n}\n";
        let mut m = LlvmModule::parse_ir(ir)?;
        m.optimize(self)?;
        let asm = String::from_utf8_lossy(&m.emit(self, Emit::Asm)?).into_owned();
        let n = if asm.contains("zmm") { 16 } else if asm.contains("ymm") { 8 } else { 4 };
        LANES.lock().unwrap_or_else(|e| e.into_inner()).push((self.cpu.clone(), self.features.clone(), n));
        Ok(n)
    }

    /// The host's architecture as CPU model `cpu` (an LLVM CPU name, e.g. `x86-64-v3`), with
    /// exactly that model's features: what a kernel compiled on another machine would be.
    pub fn model(cpu: &str) -> Result<TargetMachine, LlvmError> {
        super::cpu_model::check_known(cpu)?;
        Self::native(cpu.to_string(), String::new())
    }

    fn native(cpu: String, features: String) -> Result<TargetMachine, LlvmError> {
        unsafe {
            NATIVE.call_once(|| {
                LLVM_InitializeNativeTarget();
                LLVM_InitializeNativeAsmPrinter();
            });
            let triple = CString::new(default_triple()).map_err(|e| err("host triple", e.to_string()))?;
            let mut target = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut target, &mut msg) != 0 {
                return Err(err("host target", take_message(msg)));
            }
            let c_cpu = CString::new(cpu.clone()).map_err(|e| err("host cpu", e.to_string()))?;
            let c_feat = CString::new(features.clone()).map_err(|e| err("host features", e.to_string()))?;
            let raw = LLVMCreateTargetMachine(
                target,
                triple.as_ptr(),
                c_cpu.as_ptr(),
                c_feat.as_ptr(),
                LLVMCodeGenOptLevel::LLVMCodeGenLevelAggressive,
                LLVMRelocMode::LLVMRelocPIC,
                LLVMCodeModel::LLVMCodeModelDefault,
            );
            if raw.is_null() {
                return Err(err("host target machine", "LLVMCreateTargetMachine returned null"));
            }
            Ok(TargetMachine { raw, triple, cpu, features })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{x86_level, TargetMachine};

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_lanes_come_from_the_named_model_not_the_host() {
        // Whatever this host has: SSE-only, AVX2 and AVX-512 models, and the answer again
        // (cached) the same.
        let lanes = |cpu: &str| TargetMachine::model(cpu).and_then(|tm| tm.f32_lanes()).unwrap_or_else(|e| panic!("{cpu}: {e}"));
        assert_eq!(lanes("x86-64"), 4);
        assert_eq!(lanes("x86-64-v3"), 8);
        assert_eq!(lanes("x86-64-v4"), 16);
        assert_eq!(lanes("x86-64-v3"), 8);
        assert_eq!(lanes("sapphirerapids"), 16);
    }

    #[test]
    fn x86_level_needs_every_feature_of_the_level() {
        let v2 = "+cx16,+popcnt,+sse3,+sse4.1,+sse4.2,+ssse3,+sahf";
        let v3 = format!("{v2},+avx,+avx2,+bmi,+bmi2,+f16c,+fma,+lzcnt,+movbe");
        let v4 = format!("{v3},+avx512f,+avx512bw,+avx512cd,+avx512dq,+avx512vl,+avx512bf16");
        assert_eq!(x86_level(""), "x86-64");
        assert_eq!(x86_level(v2), "x86-64-v2");
        assert_eq!(x86_level(&v3), "x86-64-v3");
        assert_eq!(x86_level(&v4), "x86-64-v4");
        // A disabled feature (`-avx512f`) is not a present one.
        assert_eq!(x86_level(&v4.replace("+avx512f", "-avx512f")), "x86-64-v3");
        assert_eq!(x86_level(&v3.replace("+fma", "-fma")), "x86-64-v2");
    }
}
