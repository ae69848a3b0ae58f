//! What the `mpi` benches share: starting the bench binary under `mpirun` once per layout
//! (nodes x processes per node) and summing a per-process figure over every process.

use std::process::Command;
use weft::runtime::mpi::MpiTransport;
use weft::runtime::World;

/// Open MPI's binding policy (the benches pin each process to a core unless this is set).
const BIND_ENV: &str = "OMPI_MCA_hwloc_base_binding_policy";

/// Whether this process is one rank under `mpirun` (else it is the bench's launcher).
pub fn is_rank() -> bool {
    std::env::var_os("OMPI_COMM_WORLD_SIZE").is_some()
}

/// `"2x2"` (nodes x processes per node) as (processes, nodes).
pub fn parse_layout(x: &str) -> (usize, usize) {
    let (n, p) = x.split_once('x').expect("a layout such as 2x2");
    let (n, p): (usize, usize) = (n.parse().expect("nodes"), p.parse().expect("processes per node"));
    (n * p, n)
}

/// One layout's run: (processes, nodes, whether mpirun succeeded, the ranks' stdout).
pub type LayoutRun = (usize, usize, bool, String);

/// Runs this bench binary under `mpirun` for each (processes, nodes) in `layouts`, handing the
/// processes `args` through env var `select_env`; a failed run's stderr is printed.
pub fn run_layouts(layouts: &[(usize, usize)], select_env: &str, args: &[String]) -> Vec<LayoutRun> {
    let exe = std::env::current_exe().expect("bench binary");
    let mut runs = vec![];
    for &(np, nodes) in layouts {
        eprintln!("mpirun -np {np} (nodes {nodes})");
        let mut cmd = Command::new("mpirun");
        cmd.args(["--allow-run-as-root", "--oversubscribe", "-np", &np.to_string()]).arg(&exe).env("WEFT_MPI_NODES", nodes.to_string());
        // Each process pinned to a core (Open MPI's and weft's sides alike): unpinned, where
        // the processes land on 2 shared cores made runs bimodal; `=none` in the environment
        // turns it off.
        if std::env::var_os(BIND_ENV).is_none() {
            cmd.env(BIND_ENV, "core");
        }
        let out = cmd.env(select_env, args.join(" ")).output().expect("mpirun runs (install Open MPI with ./setup.sh)");
        if !out.status.success() {
            eprintln!("mpirun -np {np} (nodes {nodes}) failed:\n{}", String::from_utf8_lossy(&out.stderr));
        }
        runs.push((np, nodes, out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned()));
    }
    runs
}

/// The sum over every process of each of `mine` (milliseconds, microsecond resolution; each
/// process gives its own).
pub fn sum_all(t: &MpiTransport, world: &World, mine: &[f64]) -> Vec<f64> {
    let (n, me, k) = (world.n_ranks(), world.host_ranks().start, mine.len());
    let mut vals = vec![0u64; k * n];
    for (i, v) in mine.iter().enumerate() {
        vals[k * me + i] = (v * 1e3) as u64;
    }
    let all = t.agree_max("sum", &vals).expect("agree");
    (0..k).map(|i| all.iter().skip(i).step_by(k).sum::<u64>() as f64 / 1e3).collect()
}
