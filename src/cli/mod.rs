//! Argument parsing and dispatch. Every failure prints one `weft: error: ...` line and exits 2.

mod cache;
mod compile;
mod msccl;
mod msccl_plan;
mod msccl_synth;
mod run;
mod tune;

use clap::{Parser, Subcommand};

/// weft: compile and run kernels that compute and communicate.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// List the library kernels.
    List,
    /// Compile a library kernel (or a `.mlir` tir file) and print one stage.
    Compile(compile::CompileArgs),
    /// Compile, launch (N in-process ranks, or `--transport cuda`), verify against the reference, time.
    Run(run::RunArgs),
    /// Autotune a library operation (progress, ranked table, cached), a collective's size
    /// table (--sizes), or show / clear the cache.
    Tune(tune::TuneArgs),
    /// MSCCL algorithms: list, verify, compile to one kernel, run and check.
    Msccl(msccl::MscclArgs),
    /// The GPUs the cuda transport can use (or why it cannot run here).
    Devices,
    /// What the compile cache holds (entries, bytes, limit), or `--clear` it.
    Cache(cache::CacheArgs),
}

/// Parses a command line (program name first), printing nothing.
pub(crate) fn parse<I: IntoIterator<Item = T>, T: Into<std::ffi::OsString> + Clone>(args: I) -> Result<Cli, clap::Error> {
    Cli::try_parse_from(args)
}

/// The one line to print for a parse error, or `None` when it is help or the version.
pub(crate) fn error_line(e: &clap::Error) -> Option<String> {
    if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion) {
        return None;
    }
    let msg = e.to_string();
    let first = msg.lines().next().unwrap_or("bad arguments").trim_start_matches("error: ");
    Some(format!("weft: error: {first} (see `weft --help`)"))
}

/// Runs the CLI; returns the process exit code.
pub fn main() -> i32 {
    let cli = match parse(std::env::args_os()) {
        Ok(c) => c,
        Err(e) => match error_line(&e) {
            None => {
                let _ = e.print();
                return 0;
            }
            Some(line) => {
                eprintln!("{line}");
                return 2;
            }
        },
    };
    let result = match cli.cmd {
        Cmd::List => {
            list();
            Ok(())
        }
        Cmd::Compile(a) => compile::compile(a),
        Cmd::Run(a) => run::run(a),
        Cmd::Tune(a) => tune::tune(a),
        Cmd::Msccl(a) => msccl::msccl(a),
        Cmd::Devices => devices(),
        Cmd::Cache(a) => cache::cache(a),
    };
    // A process of an MPI world must end MPI, or mpirun reports it as failed; after an error it
    // exits without, so that mpirun stops the others rather than wait in MPI_Finalize.
    let result = result.and_then(|()| weft::runtime::mpi::finalize().map_err(|e| e.to_string()));
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("weft: error: {}", e.replace('\n', " "));
            2
        }
    }
}

fn list() {
    for k in weft::kernels::list() {
        println!("{:<22} {}", k.name, k.about);
    }
}

fn devices() -> Result<(), String> {
    let gpus = weft::runtime::cuda::devices().map_err(|e| e.to_string())?;
    for g in gpus {
        let arch = weft::runtime::cuda::arch_for(g.cc).unwrap_or("unsupported");
        println!("GPU {}: {}  compute {}.{} ({arch})  {} SMs  {:.1} GiB", g.ordinal, g.name, g.cc.0, g.cc.1, g.sms, g.memory as f64 / (1u64 << 30) as f64);
    }
    Ok(())
}
