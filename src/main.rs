//! The `weft` command line: list, compile (any stage) and run library kernels.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
