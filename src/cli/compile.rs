//! `weft compile`: build a kernel and print any pipeline stage.

use clap::Args;
use std::path::PathBuf;
use weft::compiler::dsl::Constexprs;
use weft::compiler::pipeline::{self, timings, Options, Target};

/// Arguments of `weft compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    /// Library kernel name (see `weft list`), a path to a `.mlir` file in the tile/shmem
    /// dialects, or a dumped later stage `<kernel>.<stage>.<ext>` to start from (GPUs:
    /// `layout`; NVIDIA also `gpu`, `llvm`, `ptx`).
    kernel: String,
    /// Stage to print. CPU: tir, lowered, llvm-mlir, llvm, asm. NVIDIA: tir, layout, gpu, llvm,
    /// ptx, cubin (writes the cubin to `-o`, prints ptxas's report). AMD: tir, layout, gpu,
    /// llvm, amdgcn, hsaco (writes the code object to `-o`, prints the register / scratch report).
    #[arg(long, default_value = "tir")]
    emit: String,
    /// Target: cpu, sm_80, sm_90a, sm_100a, gfx90a or gfx942.
    #[arg(long, default_value = "cpu")]
    target: String,
    /// Element type for library kernels.
    #[arg(long, default_value = "f32")]
    dtype: String,
    /// Constexpr overrides, e.g. `-D BLOCK=1024`.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
    /// Also write every stage to this directory.
    #[arg(long)]
    dump_dir: Option<PathBuf>,
    /// CPU model for the cpu target (an LLVM name: x86-64-v3, sapphirerapids, ...); default the host.
    #[arg(long)]
    cpu: Option<String>,
    /// Write the stage to this file instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print each compile step's wall and CPU time to stderr (as `WEFT_TIMINGS=1`).
    #[arg(long)]
    timings: bool,
}

/// Parses `-D NAME=VALUE` pairs into `c`.
pub fn apply_defines(c: &mut Constexprs, defines: &[String]) -> Result<(), String> {
    for d in defines {
        let (k, v) = d.split_once('=').ok_or_else(|| format!("`-D {d}` is not NAME=VALUE"))?;
        c.set(k.trim(), v.trim());
    }
    Ok(())
}

/// Runs `weft compile`.
pub fn compile(a: CompileArgs) -> Result<(), String> {
    let target = parse_target(&a.target)?;
    if a.timings {
        timings::print();
    }
    let _label = timings::label(format!("{} {}", a.kernel, target.name()));
    timings::time("total", || compile_in(a, target))
}

fn compile_in(a: CompileArgs, target: Target) -> Result<(), String> {
    let env = Options::from_env();
    let opts = Options { dump_dir: a.dump_dir.clone().or(env.dump_dir), cpu: a.cpu.clone().or(env.cpu), racecheck: env.racecheck };
    if let Some((symbol, stage)) = dumped_stage(&a.kernel, target) {
        let text = std::fs::read_to_string(&a.kernel).map_err(|e| format!("{}: {e}", a.kernel))?;
        let out = pipeline::run_from(&text, stage, symbol, target, Some(&a.emit), &opts).map_err(|e| e.to_string())?;
        return write_output(out, target, a.output.as_deref());
    }
    let kernel = if a.kernel.ends_with(".mlir") {
        let text = std::fs::read_to_string(&a.kernel).map_err(|e| format!("{}: {e}", a.kernel))?;
        pipeline::import_tir(&text, &a.kernel).map_err(|e| e.to_string())?
    } else {
        let mut c = weft::kernels::target_constexprs(&a.kernel, &a.dtype, target).map_err(|e| e.to_string())?;
        apply_defines(&mut c, &a.define)?;
        weft::kernels::build(&a.kernel, &c).map_err(|e| e.to_string())?
    };
    let out = weft::compiler::cache::run_cached(&kernel, target, Some(&a.emit), &opts).map_err(|e| e.to_string())?;
    write_output(out, target, a.output.as_deref())
}

/// The kernel and stage of a dump named `<kernel>.<stage>.<ext>` (as `--dump-dir` writes)
/// of a stage after `tir` of `target`, or `None`.
fn dumped_stage(path: &str, target: Target) -> Option<(&str, &'static str)> {
    let file = std::path::Path::new(path).file_name()?.to_str()?;
    let mut parts = file.rsplitn(3, '.');
    let (ext, stage, symbol) = (parts.next()?, parts.next()?, parts.next()?);
    let s = target.stages().iter().skip(1).find(|s| s.name == stage && s.ext == ext)?;
    Some((symbol, s.name))
}

/// Parses a `--target` name.
pub fn parse_target(name: &str) -> Result<Target, String> {
    Target::parse(name).ok_or_else(|| format!("unknown target `{name}` (targets: {})", pipeline::TARGET_NAMES.join(", ")))
}

/// Prints a stage, or writes it to `output`; binary stages (a cubin, a code object) write the
/// object there and print their report.
pub fn write_output(out: pipeline::Output, target: Target, output: Option<&std::path::Path>) -> Result<(), String> {
    match output {
        Some(path) if out.object.is_some() && target != Target::Cpu => {
            std::fs::write(path, out.object.unwrap_or_default()).map_err(|e| format!("{}: {e}", path.display()))?;
            print!("{}", out.text);
            // A launcher outside weft has to encode these descriptors itself (one per line, in
            // the kernel's parameter order after its declared arguments).
            for p in &out.tma {
                println!("tensor map {}", weft::compiler::cache::gpu::tma_words(p));
            }
            Ok(())
        }
        Some(path) => std::fs::write(path, out.text).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            print!("{}", out.text);
            Ok(())
        }
    }
}
