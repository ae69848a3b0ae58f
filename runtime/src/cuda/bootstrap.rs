//! Where this process sits and how it meets the others: one PE per process, placed by the
//! launcher's environment, meeting through NVSHMEM's unique-id bootstrap (the id travels
//! through a file) or through NVSHMEM's own environment-driven bootstrap.
//!
//! Variables, first one set wins:
//! - rank: `WEFT_RANK`, `OMPI_COMM_WORLD_RANK`, `PMI_RANK`, `PMIX_RANK`, `SLURM_PROCID`;
//! - world size: `WEFT_WORLD_SIZE`, `OMPI_COMM_WORLD_SIZE`, `PMI_SIZE`, `SLURM_NTASKS` (default 1);
//! - local rank: `WEFT_LOCAL_RANK`, `OMPI_COMM_WORLD_LOCAL_RANK`, `MPI_LOCALRANKID`, `SLURM_LOCALID`;
//! - ranks per node: `WEFT_LOCAL_SIZE`, `OMPI_COMM_WORLD_LOCAL_SIZE`, `MPI_LOCALNRANKS`
//!   (default: the world size, one node).
//!
//! Ranks must be numbered node by node (rank = node * local_size + local_rank), as
//! [`Topology`](crate::Topology) assumes. Bootstrap: `WEFT_NVSHMEM_UID_FILE` (rank 0 writes
//! NVSHMEM's unique id there, the others wait for it, up to `WEFT_BOOTSTRAP_TIMEOUT_MS`,
//! default 60000); else `NVSHMEM_BOOTSTRAP` set selects NVSHMEM's own bootstrap (MPI through
//! its `nvshmem_bootstrap_mpi` plugin, PMI, PMIx); else a single process makes its own id.

use super::error::BootstrapError;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const RANK: &[&str] = &["WEFT_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"];
const SIZE: &[&str] = &["WEFT_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"];
const LOCAL_RANK: &[&str] = &["WEFT_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"];
const LOCAL_SIZE: &[&str] = &["WEFT_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"];

/// Size of NVSHMEM's `nvshmemx_uniqueid_t`.
pub const UID_BYTES: usize = 128;
/// Marks a weft unique-id file (and its format version).
const UID_MAGIC: &[u8; 8] = b"WEFTUID1";

/// How the PEs meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bootstrap {
    /// A single process: it makes the unique id itself.
    UidInProcess,
    /// Rank 0 writes the unique id to this file; the others read it.
    UidFile(PathBuf),
    /// NVSHMEM's own bootstrap, configured by `NVSHMEM_BOOTSTRAP` and the launcher.
    NvshmemEnv,
}

/// This process's place in the world, from the launcher's environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Global rank (NVSHMEM PE).
    pub rank: usize,
    /// Number of ranks.
    pub size: usize,
    /// Rank within the node; picks the GPU.
    pub local_rank: usize,
    /// Ranks per node.
    pub local_size: usize,
    /// How the ranks meet.
    pub bootstrap: Bootstrap,
    /// How long a rank waits for the unique-id file.
    pub uid_timeout: Duration,
}

type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The first of `vars` that is set, parsed as a count or index.
fn first(env: Env, vars: &[&str]) -> Result<Option<usize>, BootstrapError> {
    for var in vars {
        if let Some(value) = env(var) {
            let bad = || BootstrapError::BadValue { var: var.to_string(), value: value.clone(), why: "expected a non-negative integer" };
            return value.trim().parse().map(Some).map_err(|_| bad());
        }
    }
    Ok(None)
}

impl Placement {
    /// Reads the placement from the process environment.
    pub fn from_env() -> Result<Placement, BootstrapError> {
        Placement::from_vars(&|k| std::env::var(k).ok())
    }

    /// Reads the placement through `env` (a variable lookup), checking it is consistent.
    pub fn from_vars(env: Env) -> Result<Placement, BootstrapError> {
        let size = first(env, SIZE)?.unwrap_or(1);
        if size == 0 {
            return Err(BootstrapError::Inconsistent("the world size is 0".into()));
        }
        let rank = match first(env, RANK)? {
            Some(r) => r,
            None if size == 1 => 0,
            None => return Err(BootstrapError::Inconsistent(format!("world size {size} but no rank variable ({})", RANK.join(", ")))),
        };
        let local_size = first(env, LOCAL_SIZE)?.unwrap_or(size);
        let local_rank = first(env, LOCAL_RANK)?.unwrap_or(rank % local_size.max(1));
        let inconsistent = |m: String| Err(BootstrapError::Inconsistent(m));
        if rank >= size {
            return inconsistent(format!("rank {rank} is not below the world size {size}"));
        }
        if local_size == 0 || size % local_size != 0 {
            return inconsistent(format!("{local_size} ranks per node do not divide the world size {size}"));
        }
        if local_rank != rank % local_size {
            return inconsistent(format!(
                "rank {rank} has local rank {local_rank}, but ranks must be numbered node by node (expected {}); map ranks by node (mpirun --map-by slot)",
                rank % local_size
            ));
        }
        let bootstrap = match env("WEFT_NVSHMEM_UID_FILE") {
            Some(p) if !p.is_empty() => Bootstrap::UidFile(PathBuf::from(p)),
            _ if env("NVSHMEM_BOOTSTRAP").is_some_and(|v| !v.is_empty()) => Bootstrap::NvshmemEnv,
            _ if size == 1 => Bootstrap::UidInProcess,
            _ => return Err(BootstrapError::NoBootstrap { size }),
        };
        let uid_timeout = Duration::from_millis(match env("WEFT_BOOTSTRAP_TIMEOUT_MS") {
            Some(v) => v.trim().parse().map_err(|_| BootstrapError::BadValue {
                var: "WEFT_BOOTSTRAP_TIMEOUT_MS".into(),
                value: v.clone(),
                why: "expected milliseconds",
            })?,
            None => 60_000,
        });
        Ok(Placement { rank, size, local_rank, local_size, bootstrap, uid_timeout })
    }
}

fn uid_err(path: &Path, message: impl ToString) -> BootstrapError {
    BootstrapError::UidFile { path: path.to_path_buf(), message: message.to_string() }
}

/// Rank 0: writes `uid` to `path` atomically (a temporary file renamed into place). A file
/// already there is a leftover of another run, which the other ranks may have read: an error.
pub fn publish_uid(path: &Path, uid: &[u8; UID_BYTES]) -> Result<(), BootstrapError> {
    if path.exists() {
        return Err(uid_err(path, "already exists (left by an earlier run?); remove it, or use a fresh path per job"));
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut data = UID_MAGIC.to_vec();
    data.extend_from_slice(uid);
    std::fs::write(&tmp, &data).and_then(|_| std::fs::rename(&tmp, path)).map_err(|e| uid_err(path, e))
}

/// Other ranks: waits up to `timeout` for rank 0's file and reads the unique id from it.
pub fn await_uid(path: &Path, timeout: Duration) -> Result<[u8; UID_BYTES], BootstrapError> {
    let start = Instant::now();
    loop {
        match std::fs::read(path) {
            Ok(data) => {
                let body = data.strip_prefix(UID_MAGIC.as_slice()).ok_or_else(|| uid_err(path, "is not a weft unique-id file"))?;
                return body.try_into().map_err(|_| uid_err(path, format!("holds {} bytes of id, expected {UID_BYTES}", body.len())));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if start.elapsed() >= timeout {
                    return Err(BootstrapError::UidTimeout { path: path.to_path_buf(), waited_ms: start.elapsed().as_millis() });
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(uid_err(path, e)),
        }
    }
}
