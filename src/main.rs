//! The `weft` command line: list, compile (any stage) and run library kernels.

mod cli;

fn main() {
    // Like other Unix filters, stop quietly when the reader of our output goes away
    // (`weft compile ... | head`) instead of panicking in `println!`.
    // SAFETY: setting a signal disposition before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    std::process::exit(cli::main());
}
