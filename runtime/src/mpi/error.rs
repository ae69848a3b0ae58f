//! Errors of the `mpi` transport.

/// Why the `mpi` transport cannot run or failed.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// weft was built without MPI bindings.
    #[error("the mpi transport is unavailable: {why}")]
    Unbound {
        /// What the build found.
        why: String,
    },
    /// The MPI library could not be loaded.
    #[error("cannot load the MPI library {lib}: {message} (install Open MPI with ./setup.sh, or set WEFT_MPI_LIB)")]
    Load {
        /// Library path.
        lib: String,
        /// The loader's answer.
        message: String,
    },
    /// An MPI call returned an error code.
    #[error("{call} failed on rank {rank}: {message} (MPI error {code})")]
    Call {
        /// The MPI function and what it was for.
        call: String,
        /// This process's world rank (-1 before it is known).
        rank: i32,
        /// MPI's error code.
        code: i32,
        /// MPI's error string.
        message: String,
    },
    /// A request the transport does not serve (GPU code, say).
    #[error("the mpi transport: {0}")]
    Unsupported(String),
    /// The processes cannot form the requested node layout.
    #[error("rank layout: {0}")]
    Layout(String),
    /// Another process failed the same collective step.
    #[error("rank {rank}: {what} failed on another process (see its error); this process's part succeeded")]
    PeerFailed {
        /// This rank.
        rank: usize,
        /// The step.
        what: String,
    },
    /// This process stopped waiting because another process's kernel failed in the same launch.
    #[error("rank {rank}: rank {failed}'s kernel `{kernel}` failed in this launch (see its error); this process stopped waiting on it")]
    PeerKernelFailed {
        /// This rank.
        rank: usize,
        /// The rank whose kernel failed.
        failed: usize,
        /// The kernel.
        kernel: String,
    },
    /// A host-level collective step that some process never joined.
    #[error("rank {rank}: {what}: not every process joined within {waited_ms} ms (a process died or is stuck)")]
    Timeout {
        /// This rank.
        rank: usize,
        /// The step.
        what: String,
        /// How long it waited.
        waited_ms: u128,
    },
    /// Processes issued different collective calls at the same point.
    #[error("rank {rank}: collective calls out of order: this process issued {call}, another process something else")]
    Mismatch {
        /// This rank.
        rank: usize,
        /// This process's call.
        call: String,
    },
    /// A launch without a closing step failed in this process: the others may have finished it
    /// and gone on, so this process can take no further step with them.
    #[error("rank {rank}: launch {launch} failed here after its closing step was deferred (see its error); the other processes may have gone on, so this mpi world takes no further step")]
    Broken {
        /// This rank.
        rank: usize,
        /// The failed launch's number.
        launch: u64,
    },
    /// A kernel asked for load/store access to a rank on another node.
    #[error("rank {rank} is on node {node}, not this node {here}: no load/store path across nodes")]
    CrossNode {
        /// The rank asked for.
        rank: usize,
        /// Its node.
        node: usize,
        /// This process's node.
        here: usize,
    },
}
