//! From per-thread GPU IR to a loaded host kernel: parse, retarget ([`crate::retarget`]), add
//! the entry points, verify, optimize (O2) and emit a host object with inkwell, link it into a
//! shared library as the CPU back end does (kept in the disk cache, [`crate::disk`]), load it
//! and fill its runtime table.

use crate::disk;
use crate::entry;
use crate::ir::Ir;
use crate::rt::KernelDesc;
use crate::slots::COUNT;
use crate::EmuError;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use weft_compiler::backend::link;
use weft_runtime::abi::KernelFn;
use weft_runtime::cuda::tensor_map::TmaParam;

/// A loaded emulated kernel.
pub struct Loaded {
    _lib: libloading::Library,
    /// The `local` runtime entry.
    pub entry: KernelFn,
    /// Its descriptor (leaked: the code refers to it while loaded).
    pub desc: &'static KernelDesc,
}

fn host_machine() -> Result<TargetMachine, EmuError> {
    Target::initialize_native(&InitializationConfig::default()).map_err(EmuError::Llvm)?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| EmuError::Llvm(e.to_string()))?;
    let (cpu, features) = (TargetMachine::get_host_cpu_name(), TargetMachine::get_host_cpu_features());
    target
        .create_target_machine(&triple, &cpu.to_string(), &features.to_string(), OptimizationLevel::Default, RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| EmuError::Llvm(format!("no host target machine for {triple}")))
}

/// The launch shape a kernel is retargeted for.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Threads per block.
    pub threads: usize,
    /// Lanes per warp (32) or wavefront (64).
    pub warp: usize,
    /// Bytes of dynamic shared memory each block gets.
    pub dynamic_smem: usize,
}

/// Retargets `llvm` (one kernel `symbol`, launched with `shape`) and loads it, from the disk
/// cache when an earlier process built it.
pub fn build(llvm: &str, symbol: &str, shape: Shape, tma: &[TmaParam], checks: crate::Checks, plant: Option<crate::Plant>) -> Result<Loaded, EmuError> {
    let tm = host_machine()?;
    let host = format!("{} {}", TargetMachine::get_host_cpu_name(), TargetMachine::get_host_cpu_features());
    let stem = disk::stem(&disk::key(llvm, symbol, &format!("{shape:?} {tma:?}"), checks, plant, &host));
    let cached = std::env::var_os("WEFT_EMU_NO_CACHE").is_none();
    if let Some(desc) = disk::lookup(&stem).filter(|_| cached) {
        // A library that no longer loads (say, a libc that changed under it) is rebuilt.
        if let Ok(l) = load(&stem.with_extension("so"), Box::leak(Box::new(desc))) {
            weft_compiler::cache::evict::touch(&stem.with_extension("so"));
            return Ok(l);
        }
    }
    let (obj, desc) = compile(&tm, llvm, symbol, shape, tma, checks, plant)?;
    let desc: &'static KernelDesc = Box::leak(Box::new(desc));
    let so = match stem.parent().map(std::fs::create_dir_all) {
        Some(Ok(())) if cached => {
            link_to(&obj, &stem)?;
            disk::store(&stem, desc)?;
            let so = stem.with_extension("so");
            let bytes = std::fs::metadata(&so).map_or(0, |m| m.len());
            weft_compiler::cache::evict::after_write(&weft_compiler::cache::cache_dir(), bytes);
            so
        }
        _ => {
            static SEQ: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!("weft-emu-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| EmuError::Io(format!("{}: {e}", dir.display())))?;
            let stem = dir.join(format!("{symbol}-{}", SEQ.fetch_add(1, Ordering::Relaxed)));
            link_to(&obj, &stem)?;
            stem.with_extension("so")
        }
    };
    load(&so, desc)
}

/// The retargeted kernel as a host object, and the descriptor it runs with.
fn compile(tm: &TargetMachine, llvm: &str, symbol: &str, shape: Shape, tma: &[TmaParam], checks: crate::Checks, plant: Option<crate::Plant>) -> Result<(Vec<u8>, KernelDesc), EmuError> {
    let race = checks.races;
    let context = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(llvm.as_bytes(), symbol);
    let module = context.create_module_from_ir(buf).map_err(|e| EmuError::Llvm(format!("parsing the GPU IR: {e}")))?;
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let layout = {
        let mut ir = Ir::new(context.raw(), module.as_mut_ptr());
        let kernel = ir.function(symbol).ok_or_else(|| EmuError::Llvm(format!("the GPU IR has no function `{symbol}`")))?;
        if let Some(p) = plant {
            crate::plant::apply(&ir, kernel, p)?;
        }
        let layout = crate::retarget::rewrite(&mut ir, kernel, race, checks.count, checks.bounds, shape.dynamic_smem as u64)?;
        entry::add(&ir, kernel, tma)?;
        entry::add_builtins(&ir);
        layout
    };
    module.verify().map_err(|e| EmuError::Llvm(format!("the retargeted module is invalid: {e}")))?;
    if std::env::var_os("WEFT_EMU_DUMP").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    // The vector split the NVPTX pipeline runs first, so the emulator executes what it makes.
    let passes = format!("{},default<O2>", weft_compiler::backend::device::SPLIT_VECTORS);
    module.run_passes(&passes, &tm, PassBuilderOptions::create()).map_err(|e| EmuError::Llvm(e.to_string()))?;
    let obj = tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| EmuError::Llvm(e.to_string()))?;
    let desc = KernelDesc {
        threads: shape.threads,
        warp: shape.warp,
        smem_bytes: layout.smem_bytes as usize,
        global_bytes: layout.global_bytes as usize,
        sites: layout.sites,
        race,
        amd_state: layout.amd_state,
    };
    Ok((obj.as_slice().to_vec(), desc))
}

/// Links `obj` into `<stem>.so` (built beside it and renamed: concurrent processes never load
/// half a library). The temporaries are named per call (`unique_tag`): two threads of one
/// process linking the same kernel once shared a `.o`, and the first to finish deleted it
/// under the other's linker.
fn link_to(obj: &[u8], stem: &Path) -> Result<(), EmuError> {
    let tag = weft_compiler::cache::unique_tag();
    let (o, tmp, so) = (stem.with_extension(format!("{tag}.o")), stem.with_extension(format!("{tag}.so")), stem.with_extension("so"));
    std::fs::write(&o, obj).map_err(|e| EmuError::Io(format!("{}: {e}", o.display())))?;
    let linked = link::link_shared(&o, &tmp);
    let _ = std::fs::remove_file(&o);
    linked?;
    std::fs::rename(&tmp, &so).map_err(|e| EmuError::Io(format!("{}: {e}", so.display())))
}

/// Loads the library at `so` and fills its runtime table and descriptor.
fn load(so: &Path, desc: &'static KernelDesc) -> Result<Loaded, EmuError> {
    let lib = link::load(so, entry::ENTRY)?.into_library();
    // SAFETY: both symbols are globals of the module just built, of these types.
    unsafe {
        let table = *lib.get::<*mut [usize; COUNT]>(entry::TABLE.as_bytes()).map_err(|e| EmuError::Llvm(e.to_string()))?;
        *table = crate::rt::table();
        let d = *lib.get::<*mut *const KernelDesc>(entry::DESC.as_bytes()).map_err(|e| EmuError::Llvm(e.to_string()))?;
        *d = desc;
        let entry = *lib.get::<KernelFn>(entry::ENTRY.as_bytes()).map_err(|e| EmuError::Llvm(e.to_string()))?;
        Ok(Loaded { _lib: lib, entry, desc })
    }
}
